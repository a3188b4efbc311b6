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


def on_a_terminal(args: list[str], columns: int) -> str:
    """The output of `referee ARGS` run on a pseudo-terminal `columns` wide."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the referee, on the terminal
        os.environ.update(COLUMNS=str(columns), LINES="20", TERM="xterm")
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
    os.waitpid(pid, 0)
    return out.decode(errors="replace")


def test_a_long_diagnostic_is_never_wrapped_under_the_progress_bar(tmp_path: Path):
    for i in range(3):
        (tmp_path / f"night-{i}.yaml").write_text((FIXTURES / "game-2p.yaml").read_text())
    (tmp_path / "broken.yaml").write_text(BROKEN)
    text = on_a_terminal(["validate", str(tmp_path)], columns=40)
    assert "checking" in text  # the progress bar was shown
    lines = [line.split("\x1b[2K")[-1] for line in text.replace("\r\n", "\n").split("\n")]
    diagnostic = f"{tmp_path / 'broken.yaml'}:8:9: error[settler.quarry]: only the settler (Anna) or the owner of an occupied Construction Hut may take a quarry"
    assert any(line.startswith(diagnostic) and line.endswith("or 'coffee')") for line in lines), text
