"""The ruleset cache cannot run code or lie (issue 14.6, issue 29 item 3): entries are JSON data
checked against their own key, format and digest (of their content, the source ruleset and the
code); a bad entry is ignored, rebuilt and replaced, a damaged one said in one line on stderr;
nothing is left behind.

Each test runs `referee` with its own cache folder and checks a game whose scores are known."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.rulesets.compiled import decode, encode
from referee.rulesets.load import load_ruleset
from tests.conftest import FIXTURES

GAME = FIXTURES / "game-3p.yaml"


def score(cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REFEREE_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "referee", "score", str(GAME), "--format", "json"], capture_output=True, text=True, timeout=60, env=env)


def totals(out: subprocess.CompletedProcess[str]) -> dict[str, int]:
    assert out.returncode == 0, out.stdout + out.stderr
    return {s["player"]: s["total"] for s in json.loads(out.stdout)["scores"]}


@pytest.fixture
def cached(tmp_path: Path) -> tuple[Path, Path, dict[str, int]]:
    """A cache folder with the base ruleset's entry, its path, and the game's right totals."""
    cache = tmp_path / "cache"
    right = totals(score(cache))
    (entry,) = cache.iterdir()
    return cache, entry, right


def test_an_entry_is_data_that_reads_back_the_same():
    rules = load_ruleset("expansion-1")
    assert decode(json.loads(json.dumps(encode(rules.model)))) == rules.model


def test_a_second_run_reads_the_entry(cached):
    cache, entry, right = cached
    assert entry.name.startswith("ruleset-") and entry.suffix == ".json"
    assert json.loads(entry.read_text())["format"] == 2
    second = score(cache)
    assert totals(second) == right and second.stderr == ""


@pytest.mark.parametrize(
    "damage",
    [
        lambda e: e.write_bytes(os.urandom(5000)),  # garbage
        lambda e: e.write_text(json.dumps({**json.loads(e.read_text()), "format": 99})),  # another format
        lambda e: e.write_text(json.dumps({**json.loads(e.read_text()), "key": "0" * 40})),  # another key
        lambda e: e.write_text(e.read_text().replace('"buildings"', '"buildingz"', 1)),  # a part missing
        lambda e: e.write_text("[" * 100_000 + "]" * 100_000),  # nested beyond recursion
    ],
    ids=["garbage", "format", "key", "missing-part", "deep"],
)
def test_a_bad_entry_is_ignored_rebuilt_and_replaced(cached, damage):
    cache, entry, right = cached
    damage(entry)
    assert totals(score(cache)) == right
    assert json.loads(entry.read_text())["format"] == 2  # replaced
    assert totals(score(cache)) == right


DAMAGED = "referee: the cached ruleset {entry} is damaged ({why}): ignored and rebuilt\n"


def edited(entry: Path, old: str, new: str) -> None:
    """The entry with one piece of its text replaced, as a hand or a faulty disk would."""
    text = entry.read_text()
    assert old in text
    entry.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        # the harbor's VP 3 -> 30: Ines, who has one, would score 71 instead of 44
        (lambda e: edited(e, '"id": "harbor", "name": "Harbor", "aliases": [], "cost": 8, "vp": 3,', '"id": "harbor", "name": "Harbor", "aliases": [], "cost": 8, "vp": 30,'), "its content does not match its digest"),
        (lambda e: edited(e, '"vp_chips": 75,', '"vp_chips": 7,'), "its content does not match its digest"),
        (lambda e: edited(e, '"id": "harbor", "name": "Harbor", "aliases": [], "cost": 8, "vp": 3,', '"id": "harbor", "name": "Harbor", "aliases": [], "cost": 8, "vp": NaN,'), "it cannot be read"),
        (lambda e: e.write_bytes(e.read_bytes()[: len(e.read_bytes()) // 2]), "it cannot be read"),  # cut short
        (lambda e: edited(e, '"digest": "', '"digest": "0'), "its content does not match its digest"),
        (lambda e: e.write_text(json.dumps({k: v for k, v in json.loads(e.read_text()).items() if k != "digest"})), "its content does not match its digest"),
        (lambda e: edited(e, '"format": 2,', '"format": 20,'), "its format is not one referee wrote"),
        (lambda e: edited(e, '"key": "', '"key": "0'), "it is not the entry of this ruleset"),
    ],
    ids=["harbor-30", "vp-chips", "nan", "truncated", "digest-edited", "no-digest", "format", "key"],
)
def test_a_damaged_entry_is_said_in_one_line_and_rebuilt(cached, damage, why):
    cache, entry, right = cached
    damage(entry)
    out = score(cache)
    assert totals(out) == right  # Ines 44, Tobias 41, Marek 40
    assert out.stderr == DAMAGED.format(entry=entry, why=why)
    again = score(cache)  # rebuilt: read as it should be, nothing more said
    assert totals(again) == right and again.stderr == ""


def test_an_entry_of_another_ruleset_copied_under_the_key_is_not_used(cached, tmp_path):
    cache, entry, right = cached
    other = tmp_path / "other"
    log = tmp_path / "g.yaml"
    log.write_text(GAME.read_text().replace("ruleset: base", "ruleset: 1897", 1))
    env = {**os.environ, "REFEREE_CACHE_DIR": str(other)}
    subprocess.run([sys.executable, "-m", "referee", "validate", str(log)], capture_output=True, timeout=60, env=env)
    (foreign,) = other.iterdir()
    entry.write_bytes(foreign.read_bytes())  # the 1897 ruleset under the base ruleset's name
    assert totals(score(cache)) == right


def test_a_pickle_in_the_cache_is_never_loaded(cached):
    cache, entry, right = cached
    planted = cache / "planted"
    payload = f"cos\nsystem\n(S'touch {planted}'\ntR.".encode()  # a pickle that runs a command
    entry.with_suffix(".pickle").write_bytes(payload)
    entry.unlink()
    assert totals(score(cache)) == right
    assert not planted.exists()


def test_a_folder_or_a_pipe_in_place_of_an_entry_leaves_nothing_behind(cached):
    cache, entry, right = cached
    entry.unlink()
    entry.mkdir()
    assert totals(score(cache)) == right
    assert totals(score(cache)) == right
    assert not [p for p in cache.iterdir() if p.name.endswith(".tmp")]
    entry.rmdir()
    os.mkfifo(entry)  # reading it would wait for ever
    assert totals(score(cache)) == right


def test_a_damaged_entry_does_not_change_a_score_sheet(tmp_path):
    # The sheet's Anna has a harbor: with its VP edited to 30 in the cache, she scored 27 more.
    cache = tmp_path / "cache"
    sheet = FIXTURES / "sheets" / "sheet-3p.yaml"

    def scored() -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "REFEREE_CACHE_DIR": str(cache)}
        return subprocess.run([sys.executable, "-m", "referee", "score", "--sheet", str(sheet), "--format", "json"], capture_output=True, text=True, timeout=60, env=env)

    right = totals(scored())
    (entry,) = cache.iterdir()
    edited(entry, '"id": "harbor", "name": "Harbor", "aliases": [], "cost": 8, "vp": 3,', '"id": "harbor", "name": "Harbor", "aliases": [], "cost": 8, "vp": 30,')
    out = scored()
    assert totals(out) == right
    assert out.stderr == DAMAGED.format(entry=entry, why="its content does not match its digest")


def test_a_damaged_entry_read_by_several_workers_is_said_once(cached):
    # The workers of a --jobs run each read the damaged entry: each said so, one line a worker.
    cache, entry, right = cached
    edited(entry, '"vp_chips": 75,', '"vp_chips": 7,')
    env = {**os.environ, "REFEREE_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-m", "referee", "validate", "--jobs", "2", *[str(GAME)] * 40], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 40
    assert out.stderr == DAMAGED.format(entry=entry, why="its content does not match its digest")
    assert totals(score(cache)) == right


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder for this process, and no ruleset remembered yet."""
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))
    forgotten()
    yield tmp_path
    forgotten()  # the other tests' rulesets come from their own cache again


def forgotten() -> None:
    from referee.rulesets import load

    load._BUNDLED.clear()
    load._load.cache_clear()


@pytest.mark.parametrize("name", ["base", "expansion-1", "1897", "1897-expansion-1"])
def test_a_cached_ruleset_is_found_without_parsing_its_files(fresh: Path, monkeypatch: pytest.MonkeyPatch, name: str):
    from referee.rulesets import load

    built = load_ruleset(name)  # read, parsed, checked, written to the cache
    assert load._quick_layers(load.ruleset_path(name)) == [layer.file for layer in load._layers(load.ruleset_path(name))]
    forgotten()

    def parsed(*args: object) -> None:
        raise AssertionError("a ruleset file was parsed")

    monkeypatch.setattr(load, "read_yaml", parsed)
    assert load_ruleset(name).model == built.model


@pytest.mark.parametrize(
    ("extends", "same"),  # same: the bundled expansion's ruleset (a list of names is kept as a list)
    [
        ("extends:\n  - base\n", False),
        ("extends: base  # the game it changes\n", True),
        ('extends: "b\\x61se"\n', True),
        ("extends: [base,\n  1897]\n", False),
        ("# extends: nothing\nextends: base\n", True),
    ],
)
def test_a_ruleset_extending_in_other_words_is_read_by_the_parser_and_cached(fresh: Path, extends: str, same: bool):
    from referee.rulesets import load

    expansion = (load.data_dir("rulesets") / "expansion-1.yaml").read_text()
    assert expansion.count("extends: base\n") == 1
    mine = fresh / "mine.yaml"
    mine.write_text(expansion.replace("extends: base\n", extends))
    assert load._quick_layers(mine) is None  # the quick look is not sure: the parser reads the file
    right = load_ruleset(str(mine)).model
    forgotten()
    assert load_ruleset(str(mine)).model == right  # from the cache, found after the parser
    assert len(list((fresh / "cache").iterdir())) == 1
    if same:
        assert right == load_ruleset("expansion-1").model
