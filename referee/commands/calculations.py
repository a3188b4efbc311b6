"""The calculations' processes (`Post(job, calculation=True)`): each calculation in a process of
its own, forked from a server process that has imported the calculator, stopped at the time
limit or when its client leaves; a long calculation holds one process, never the server."""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from http import HTTPStatus
from typing import Any

from referee.commands.api import Job, error_body, refusal
from referee.diagnostics import READ_ERROR, Diagnostic


def start_processes() -> Any:
    """The context of the calculations' processes: forked from a server process started with a
    fresh interpreter (forkserver), which has imported the calculator but runs no thread. A fork
    of the threaded server itself could copy a lock held by another thread (an import lock: the
    child waits forever, and the contract's 0.3 s example is answered 503 after 20 s)."""
    context = multiprocessing.get_context("forkserver")
    # referee.commands.cli too: each process imports the main script again (multiprocessing's rule), and
    # the `referee` console script imports referee.commands.cli (20 ms a calculation, not 65)
    context.set_forkserver_preload(["referee.commands.server", "referee.commands.calculations", "referee.commands.ship", "referee.jobs.shipping", "referee.commands.cli"])
    from multiprocessing import forkserver

    # started now, before the first request (its imports are not a request's time), and deaf
    # to Ctrl-C, as its processes are (the server stops them): interrupted in its imports, it
    # would print a traceback and fail the calculations waiting for it
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        forkserver.ensure_running()
    finally:
        if main:
            signal.signal(signal.SIGINT, before)
    return context


def in_a_process(context: Any, job: Job, data: bytes, seconds: float, abandoned: threading.Event) -> tuple[HTTPStatus, dict[str, Any]]:
    """`job(data)` in a process of its own, stopped after `seconds` (503) or when the client has
    left or the server stops (`abandoned`): a long calculation holds one process, never the
    server; a process ends with its request, so nothing it remembered stays."""
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_run_and_send, args=(job, data, send), daemon=True)
    try:
        process.start()  # (multiprocessing starts its forkserver again if it has died)
    except (OSError, EOFError) as exc:  # no process to be had (out of processes or memory): answered, the server goes on
        receive.close()
        send.close()
        raise refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.failed", f"no process could be started for the calculation ({type(exc).__name__}: {exc})") from None
    send.close()
    try:
        deadline = time.monotonic() + seconds
        while not receive.poll(max(0.0, min(0.25, deadline - time.monotonic()))):  # a quarter of a second at a time, to see a client leave
            if time.monotonic() >= deadline or abandoned.is_set():
                process.terminate()
                process.join(5)
                if process.is_alive():
                    process.kill()
                if abandoned.is_set():
                    raise refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.stopped", "the server was stopped before the calculation ended")
                message = f"the calculation took longer than the server's limit of {seconds:g} s and was stopped; `referee ship` on the command line has no limit"
                raise refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.time-limit", message)
        try:
            status, body = receive.recv()
        except EOFError:  # the process died (out of memory): answered, the server goes on
            raise refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.failed", "the calculation's process ended without an answer") from None
        return HTTPStatus(status), body
    finally:
        receive.close()
        process.join(1)


def _run_and_send(job: Job, data: bytes, send: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server's terminal reaches this process too: the server stops it, without a traceback
    try:
        status, body = job(data)
    except Exception as exc:  # reported to the parent, which answers it
        status, body = HTTPStatus.INTERNAL_SERVER_ERROR, error_body([Diagnostic("internal.error", f"referee failed ({type(exc).__name__}: {exc})", None, READ_ERROR)])
    send.send((int(status), body))
    send.close()
