"""On a terminal, with the progress bar, a diagnostic stays on one line whatever the width:
editors, scrollback and grep rely on one diagnostic a line."""

from __future__ import annotations

import os
import pty
import select
import sys
from pathlib import Path

from tests.conftest import FIXTURES, QUARRY_LOG

BROKEN = QUARRY_LOG


def run_on_a_terminal(args: list[str], columns: int = 160, lines: int = 40) -> tuple[int, str]:
    """(exit code, output) of `referee ARGS` run on a pseudo-terminal `columns` wide."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the referee, on the terminal
        os.environ.update(COLUMNS=str(columns), LINES=str(lines), TERM="xterm")
        os.execv(sys.executable, [sys.executable, "-m", "referee", *args])
    out = b""
    while select.select([fd], [], [], 60)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the terminal closed with the child
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


def on_a_terminal(args: list[str], columns: int) -> str:
    """The output of `referee ARGS` run on a pseudo-terminal `columns` wide."""
    return run_on_a_terminal(args, columns, 20)[1]


def test_a_long_diagnostic_is_never_wrapped_under_the_progress_bar(tmp_path: Path):
    for i in range(3):
        (tmp_path / f"night-{i}.yaml").write_text((FIXTURES / "game-2p.yaml").read_text())
    (tmp_path / "broken.yaml").write_text(BROKEN)
    text = on_a_terminal(["validate", str(tmp_path)], columns=40)
    assert "checking" in text  # the progress bar was shown
    lines = [line.split("\x1b[2K")[-1] for line in text.replace("\r\n", "\n").split("\n")]
    diagnostic = f"{tmp_path / 'broken.yaml'}:8:9: error[settler.quarry]: only the settler (Anna) or the owner of an occupied Construction Hut may take a quarry"
    assert any(line.startswith(diagnostic) and line.endswith("or 'coffee')") for line in lines), text


SLOW_POSITION = (FIXTURES / "positions" / "seconds.yaml").read_text()  # 269,339 positions: over a second, compiled or not


def test_a_long_shipping_search_shows_that_it_is_working_then_clears(tmp_path: Path):
    """A search of a second or more (four players, two small wharfs: 269,339 positions, 1.9 s of
    CPU compiled) shows a status line on the terminal, gone before the answer is written; a quick
    one shows none. (The worst case of the benchmarks, 0.55 s compiled, is too quick for it now.)"""
    (tmp_path / "slow.yaml").write_text(SLOW_POSITION)
    text = on_a_terminal(["ship", str(tmp_path / "slow.yaml")], columns=100)
    assert "searching the captain phase" in text and "positions valued" in text
    answer = text[text.rindex("positions valued") :]
    assert "player  guaranteed  expected  best" in answer  # written after the last status
    assert "\x1b[2K" in answer.split("slow.yaml: captain phase")[0]  # the status line was cleared first
    quick = on_a_terminal(["ship", str(FIXTURES / "positions" / "formats-example.yaml")], columns=100)
    assert "searching" not in quick and "expected play" in quick
