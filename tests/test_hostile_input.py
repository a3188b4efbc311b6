"""Hostile or careless input gets a clean, positioned answer, never a traceback (issue 14):
numbers of thousands of digits, digits that are not ASCII."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from referee.moves.clauses import MoveError, parse_move
from referee.rulesets.load import load_ruleset
from tests.conftest import FIXTURES

HUGE = "3" * 5000


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=60)


def test_a_price_of_many_digits_is_out_of_range(tmp_path):
    log = tmp_path / "log.yaml"
    log.write_text((FIXTURES / "formats-log.yaml").read_text().replace("- Ben: small market\n", f"- Ben: small market for {'3' * 900}\n", 1))
    out = referee("validate", str(log))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "error[log.move]: Ben: the price 333333333333... is out of range (at most 999)" in out.stdout
    log.write_text((FIXTURES / "formats-log.yaml").read_text().replace("- Ben: small market\n", f"- Ben: small market for {HUGE}\n", 1))
    out = referee("validate", str(log))  # thousands of digits: longer than any move
    assert out.returncode == 2 and "error[log.move]: Ben: a move of 5,017 characters" in out.stdout


def test_a_digit_that_is_not_ascii_is_not_a_number(tmp_path):
    log = tmp_path / "log.yaml"
    log.write_text((FIXTURES / "formats-log.yaml").read_text().replace("- Ben: small market\n", "- Ben: small market for \u0663\n", 1))
    out = referee("validate", str(log))
    assert out.returncode == 2
    assert "expected a number for the price, found '\u0663'" in out.stdout


def position(ships: str, goods: str = "{corn: 2}") -> str:
    return f"ruleset: base\nships: {{{ships}}}\nplayers:\n  - {{name: Anna, goods: {goods}}}\n  - {{name: Ben}}\n  - {{name: Cleo}}\n"


def test_a_yaml_number_of_thousands_of_digits_is_refused_at_its_place(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(position("4: empty, 5: empty, 6: empty", f"{{corn: {HUGE}}}"))
    out = referee("ship", str(path))
    assert out.returncode == 2
    assert out.stdout.startswith(f"{path}:4:32: error[yaml.number]: a number of 5000 digits")


def test_a_ship_size_written_with_a_superscript_is_not_a_size(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(position('"\u00b2": empty, 5: empty, 6: empty'))
    out = referee("ship", str(path))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "a cargo ship is written by its size, a number (e.g. `4: empty`), not '\u00b2'" in out.stdout


def test_a_long_count_on_a_ship_is_refused(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(position(f"4: corn {HUGE}, 5: empty, 6: empty"))
    out = referee("ship", str(path))
    assert out.returncode == 2
    assert "error[position.ship-contents]" in out.stdout


@pytest.mark.parametrize("role", ["settler", "mayor", "builder", "craftsman", "trader", "captain"])
@pytest.mark.parametrize("lead", ["", "trading post ", "wharf ", "small wharf ", "hacienda ", "guest "])
def test_a_move_of_many_words_is_read_in_linear_time(role, lead):
    """20,000 words used to take seconds (every prefix was looked up as a building's name); a
    move is now read in time that grows with its length. The bound is generous: it fails only
    on the quadratic reading (about 9 s for 20,000 words), not on a slow machine."""
    rules = load_ruleset("expansion-1")
    text = lead + " ".join(["corn"] * 20_000)
    start = time.perf_counter()
    with pytest.raises(MoveError):
        parse_move(role, text, rules)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("command", ["validate", "score", "ship"])
def test_a_device_is_refused_without_being_read(command):
    out = referee(command, "/dev/zero")  # read whole, it would fill the memory
    assert out.returncode == 2
    assert "error[input.unreadable]: not a regular file" in out.stdout


def test_a_named_pipe_is_refused_without_waiting_for_it(tmp_path):
    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)  # nobody writes to it: reading would wait for ever
    out = referee("validate", str(fifo))
    assert out.returncode == 2 and "not a regular file" in out.stdout


def test_standard_input_is_read_no_further_than_the_limit():
    out = subprocess.run([sys.executable, "-m", "referee", "validate", "-"], input=b"# " + b"x" * 3_000_000, capture_output=True, timeout=60)
    assert out.returncode == 2
    assert b"error[input.too-large]: standard input: more than the limit of 2,097,152 bytes" in out.stdout


LONG = "x" * 300  # longer than a file name may be


@pytest.mark.parametrize(
    "args",
    [("validate", f"/tmp/{LONG}.yaml"), ("rules", LONG), ("play", "--ruleset", LONG), ("validate", str(FIXTURES / "formats-log.yaml"), "--ruleset", LONG)],
    ids=["file", "rules", "play", "ruleset-option"],
)
def test_a_name_too_long_for_the_file_system_is_a_clean_error(args):
    out = referee(*args)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and "internal.error" not in out.stdout
    assert "error[" in out.stdout


def test_a_ruleset_name_too_long_in_a_log_is_an_unknown_ruleset(tmp_path):
    log = tmp_path / "log.yaml"
    log.write_text((FIXTURES / "formats-log.yaml").read_text().replace("ruleset: base", f"ruleset: {LONG}"))
    out = referee("validate", str(log))
    assert out.returncode == 2 and "error[ruleset.unknown]" in out.stdout


def test_a_folder_is_searched_whole_and_nothing_is_skipped_in_silence(tmp_path):
    (tmp_path / "GAME.YAML").write_text((FIXTURES / "formats-log.yaml").read_text())  # upper case counts
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    os.mkfifo(tmp_path / "pipe.yml")
    (tmp_path / "again").symlink_to(tmp_path)  # a loop of links: searched once, no hang
    out = referee("validate", str(tmp_path))
    lines = out.stdout.splitlines()
    assert out.returncode == 2
    assert lines == [
        f"{tmp_path / 'GAME.YAML'}: valid so far, game in progress (11 moves); next: round 2, governor Ben: Ben chooses a role (settler, mayor, builder, craftsman, trader or captain)",
        f"{tmp_path / 'dangling.yaml'}: error[input.not-found]: no such file",
        f"{tmp_path / 'pipe.yml'}: error[input.unreadable]: not a regular file (a device, pipe or socket): referee reads files, or standard input as '-'",
    ]


def test_a_folder_without_logs_is_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to check")
    out = referee("validate", str(tmp_path))
    assert out.returncode == 2
    assert out.stdout.strip() == f"{tmp_path}: error[input.no-logs]: no game logs found in {tmp_path} (files ending in .yaml or .yml)"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("extends: {a: b}\n", "`extends` is a ruleset name or a list of names"),
        ("extends: [[base]]\n", "`extends` is a ruleset name or a list of names"),
        ("extends: [" + ", ".join(["base"] * 10_000) + "]\n", "`extends` lists 10000 rulesets; at most 32"),
    ],
    ids=["mapping", "nested-list", "ten-thousand"],
)
def test_a_malformed_extends_is_a_plain_error(tmp_path, text, says):
    ruleset = tmp_path / "mine.yaml"
    ruleset.write_text(text)
    out = referee("rules", str(ruleset))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"error[ruleset.invalid]: {says}" in out.stdout
    assert "[[" not in out.stdout.split("error[")[1]  # no Python repr


def test_extends_is_resolved_once_per_file_and_within_limits(tmp_path):
    """A diamond 20 levels deep (each level extends both files of the next) used to take for
    ever; each file's layers are found once. A chain of 1,200 is refused past 32 levels."""
    for i in range(20):
        text = f"extends: [d{i + 1}.yaml, e{i + 1}.yaml]\n" if i < 19 else "extends: base\n"
        (tmp_path / f"d{i}.yaml").write_text(text)
        (tmp_path / f"e{i}.yaml").write_text(text)
    start = time.perf_counter()
    out = referee("rules", str(tmp_path / "d0.yaml"), "--format", "json")
    assert out.returncode == 0 and time.perf_counter() - start < 20
    for i in range(1200):
        (tmp_path / f"c{i}.yaml").write_text(f"extends: c{i + 1}.yaml\n" if i < 1199 else "extends: base\n")
    out = referee("rules", str(tmp_path / "c0.yaml"))
    assert out.returncode == 2 and "`extends` goes more than 32 rulesets deep" in out.stdout


def test_a_reader_that_stops_reading_ends_the_run_quietly_with_the_work_done():
    """`referee validate ... | head -1`: no traceback, and exit 0 when what was checked is valid."""
    logs = [str(p) for p in sorted(FIXTURES.glob("game-*.yaml"))] * 20
    shell = subprocess.run(
        f"{sys.executable} -m referee validate {' '.join(logs)} | head -1; exit ${{PIPESTATUS[0]}}", shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=120
    )
    assert shell.returncode == 0, shell.stderr
    assert shell.stdout.count("\n") == 1 and shell.stderr == ""


def test_a_full_disk_is_a_clean_error():
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "referee", "validate", str(FIXTURES / "game-3p.yaml")], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip() == "referee: cannot write the output: No space left on device"


@pytest.mark.parametrize("target", ["/nonexistent/folder/game.yaml", "/tmp"], ids=["no-folder", "a-folder"])
def test_play_to_a_place_that_cannot_be_written_is_a_clean_error(target):
    out = referee("play", "-o", target)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"{target}: error[output.unwritable]: cannot write the log:" in out.stdout


def test_a_folder_that_cannot_be_listed_is_reported(monkeypatch, tmp_path):
    """Permission denied on a folder (as a user other than its owner meets it; the tests run as
    root, so the refusal is staged): reported as that folder's error, the rest still listed."""
    from referee.documents import inputs

    (tmp_path / "ok.yaml").write_text((FIXTURES / "formats-log.yaml").read_text())
    locked = tmp_path / "locked"
    locked.mkdir()
    real = os.scandir

    def scandir(path):  # type: ignore[no-untyped-def]
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    items = inputs.expand([str(tmp_path)])
    assert items[0] == str(tmp_path / "ok.yaml")
    (problem,) = items[1:]
    assert isinstance(problem, inputs.Input) and problem.name == str(locked)
    assert problem.error is not None and problem.error.rule == "input.unreadable"
    assert problem.error.message == "cannot read the folder: Permission denied"


def test_a_move_longer_than_any_real_one_is_refused_at_its_line(tmp_path):
    log = tmp_path / "log.yaml"
    long = "corn " * 300_000  # 1.5 MB in one move
    log.write_text((FIXTURES / "formats-log.yaml").read_text().replace("- Anna: quarry\n", f"- Anna: {long.strip()}\n", 1))
    start = time.perf_counter()
    out = referee("validate", str(log))
    assert out.returncode == 2 and time.perf_counter() - start < 20
    assert "error[log.move]: Anna: a move of 1,499,999 characters; a move is a few clauses (at most 1,000 characters)" in out.stdout
