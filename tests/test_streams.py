"""Streams and names (issue 29, item 4): a file name that is not UTF-8, a closed or full standard
stream, a player name with markup, escape sequences or control characters: each gets a clean
answer in every format, never a traceback, never exit 1 for a valid log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.test_terminal import run_on_a_terminal

GAME = FIXTURES / "game-3p.yaml"
VALID = "valid, complete game (173 moves); winner: Ines with 44 VP; scores: Ines 44, Tobias 41, Marek 40"
WRONG_RESULT = GAME.read_text().replace("result: {Ines: 44", "result: {Ines: 45")
STRICT = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}  # a standard output that refuses what is not UTF-8


def referee(*args: str, env: dict[str, str] | None = None, before: Callable[[], None] | None = None, **streams: object) -> subprocess.CompletedProcess[bytes]:
    """`referee ARGS`; `before` runs in the child first (to close one of its streams)."""
    options: dict[str, object] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **streams}
    return subprocess.run([sys.executable, "-m", "referee", *args], env=env, preexec_fn=before, timeout=60, **options)  # type: ignore[call-overload, no-any-return]


# --- file names that are not UTF-8 ------------------------------------------------------


@pytest.fixture
def badly_named(tmp_path: Path) -> tuple[str, str]:
    """A folder with a log whose name has the byte 0xff (not UTF-8) and a broken result, and
    the name as referee writes it."""
    os.makedirs(tmp_path / "logs")
    with open(os.fsencode(tmp_path / "logs") + b"/night\xff.yaml", "w") as fh:
        fh.write(WRONG_RESULT)
    return str(tmp_path / "logs"), f"{tmp_path}/logs/night\\xff.yaml"


def test_a_name_that_is_not_utf8_is_written_escaped_in_text(badly_named):
    folder, shown = badly_named
    for command in (["validate", folder], ["validate", "--jobs", "2", folder, folder]):
        out = referee(*command, env=STRICT)
        assert out.returncode == 1 and out.stderr == b""
        assert out.stdout.decode().splitlines()[:2] == [
            f"{shown}:320:10: error[result.mismatch]: Ines scores 44 (32 shipping + 12 buildings), not 45",
            f"{shown}: scores as replayed: Ines 44, Tobias 41, Marek 40",
        ]


def test_a_name_that_is_not_utf8_is_written_escaped_in_json_sarif_and_github(badly_named):
    folder, shown = badly_named
    out = referee("validate", "--format", "json", folder, env=STRICT)
    assert out.returncode == 1 and out.stderr == b""
    report = json.loads(out.stdout)  # UTF-8, no raw 0xff byte
    assert report["file"] == shown and report["errors"][0]["file"] == shown
    out = referee("validate", "--format", "sarif", folder, env=STRICT)
    assert out.returncode == 1 and out.stderr == b""  # the SARIF was not written at all
    (result,) = json.loads(out.stdout)["runs"][0]["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file:///") and uri.endswith("/logs/night%FF.yaml")  # the byte itself, percent-encoded, as `score` writes it
    out = referee("validate", "--format", "github", folder, env=STRICT)
    assert out.returncode == 1
    assert out.stdout.decode() == f"::error file={shown.replace(':', '%3A')},line=320,col=10,title=result.mismatch::Ines scores 44 (32 shipping + 12 buildings), not 45\n"


def test_score_of_a_file_named_not_in_utf8_in_every_format(badly_named):
    folder, shown = badly_named
    path = os.fsdecode(os.fsencode(folder) + b"/night\xff.yaml")
    mismatch = "error[result.mismatch]: Ines scores 44 (32 shipping + 12 buildings), not 45"
    for style, first in (("text", f"{shown}:320:10: {mismatch}"), ("github", f"::error file={shown},line=320,col=10,title=result.mismatch::")):
        out = referee("score", "--format", style, path, env=STRICT)
        assert out.returncode == 1 and out.stderr == b"", style
        assert out.stdout.decode().splitlines()[0].startswith(first), style  # UTF-8
    out = referee("score", "--format", "json", path, env=STRICT)
    assert out.returncode == 1 and json.loads(out.stdout)["file"] == shown
    out = referee("score", "--format", "sarif", path, env=STRICT)
    (result,) = json.loads(out.stdout)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("/logs/night%FF.yaml")  # the byte itself, percent-encoded


# --- closed and full streams ------------------------------------------------------------


def test_a_closed_standard_input_is_a_reading_error():
    out = referee("validate", "-", before=lambda: os.close(0))
    assert out.returncode == 2 and out.stderr == b""
    assert out.stdout.decode() == "<stdin>:1:1: error[input.unreadable]: standard input is closed: nothing to read\n"
    out = referee("score", "-", before=lambda: os.close(0))
    assert out.returncode == 2 and b"standard input is closed" in out.stdout


def test_a_closed_standard_output_is_exit_2_with_one_line():
    out = referee("validate", str(GAME), before=lambda: os.close(1))
    assert out.returncode == 2
    assert out.stderr == b"referee: cannot write the output: standard output is closed\n"


def test_a_full_standard_output_is_exit_2_with_one_line():
    with open("/dev/full", "w") as full:
        out = referee("validate", str(GAME), stdout=full)
    assert out.returncode == 2
    assert out.stderr == b"referee: cannot write the output: No space left on device\n"


def test_a_closed_standard_error_with_nothing_to_say_changes_nothing():
    out = referee("validate", str(GAME), before=lambda: os.close(2))
    assert out.returncode == 0
    assert out.stdout.decode() == f"{GAME}: {VALID}\n"


@pytest.mark.parametrize("stderr", ["closed", "full"])
def test_a_standard_error_that_cannot_be_written_is_exit_2_never_1_nor_a_traceback(stderr):
    # The summary line cannot be written: the user was not told everything (exit 2), but every
    # verdict is on standard output. It was exit 1 with a traceback nobody could read.
    if stderr == "closed":
        out = referee("validate", "--summary", str(GAME), str(GAME), before=lambda: os.close(2))
    else:
        with open("/dev/full", "w") as full:
            out = referee("validate", "--summary", str(GAME), str(GAME), stderr=full)
    assert out.returncode == 2
    assert out.stdout.decode() == f"{GAME}: {VALID}\n" * 2


def test_a_full_standard_error_with_nothing_to_say_changes_nothing():
    with open("/dev/full", "w") as full:
        out = referee("validate", str(GAME), stderr=full)
    assert out.returncode == 0 and out.stdout.decode() == f"{GAME}: {VALID}\n"


# --- player names -----------------------------------------------------------------------


def on_a_terminal(args: list[str]) -> tuple[int, str]:
    """(exit code, output) of `referee ARGS` on a pseudo-terminal, where `score` draws a rich table."""
    return run_on_a_terminal(args, 160, 40)


def named(tmp_path: Path, name: str) -> str:
    """fixtures/game-3p.yaml with Ines renamed (a YAML double-quoted scalar)."""
    path = tmp_path / "renamed.yaml"
    path.write_text(GAME.read_text().replace("Ines", name))
    return str(path)


def test_a_player_named_like_rich_markup_is_shown_as_written_on_a_terminal(tmp_path):
    code, text = on_a_terminal(["score", named(tmp_path, '"[/x]"')])
    assert code == 0, text  # rich's MarkupError: closing tag '[/x]' doesn't match any open tag
    assert "[/x]" in text and "Traceback" not in text
    code, text = on_a_terminal(["score", named(tmp_path, '"[link=https://evil.example]Ines[/link]"')])
    assert code == 0 and "[link=https://evil.example]Ines[/link]" in text
    assert "\x1b]8;" not in text  # no hyperlink made of it


def test_escape_sequences_in_a_name_do_not_reach_the_terminal(tmp_path):
    # A hyperlink (OSC 8) around the name, then "clear the screen".
    code, text = on_a_terminal(["score", named(tmp_path, '"\\e]8;;https://evil.example\\e\\\\Ines\\e]8;;\\e\\\\\\e[2J"')])
    assert code == 0
    assert "\x1b]8;" not in text and "\x1b[2J" not in text
    assert "\\u001b]8;;https://evil.example\\u001b\\Ines" in text


CONTROLS = '"I\\en\\x85e\\u2028s\\u202e"'  # ESC, NEL (U+0085), LINE SEPARATOR, RIGHT-TO-LEFT OVERRIDE
ESCAPED = "I\\u001bn\\u0085e\\u2028s\\u202e"


def test_control_characters_in_a_name_are_escaped_in_github_annotations(tmp_path):
    path = tmp_path / "renamed.yaml"
    path.write_text(WRONG_RESULT.replace("Ines", CONTROLS))
    out = referee("validate", "--format", "github", str(path))
    assert out.returncode == 1
    text = out.stdout.decode()
    assert text == f"::error file={path},line=320,col=10,title=result.mismatch::{ESCAPED} scores 44 (32 shipping + 12 buildings), not 45\n"


def test_control_characters_in_a_name_are_escaped_in_json_and_text(tmp_path):
    path = named(tmp_path, CONTROLS)
    out = referee("validate", "--format", "json", path)
    assert out.returncode == 0
    for raw in ("\x1b", "\x85", "\u2028", "\u202e"):
        assert raw.encode() not in out.stdout
    assert json.loads(out.stdout)["scores"][0]["player"] == "I\x1bn\x85e\u2028s\u202e"  # escaped, not changed
    out = referee("score", path)
    assert out.returncode == 0
    assert f"{ESCAPED}  " in out.stdout.decode()
