"""The shipping calculator (`referee ship`): positions read and checked, the captain phase played
out through the engine, outcomes, the best move, the JSON of formats.md section 3."""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.diagnostics import InputError, RuleViolation
from referee.records.moves import Load, WharfLoad
from referee.records.position import read_position
from referee.shipping import Outcome, Shipping, calculate
from tests.conftest import FIXTURES

POSITIONS = FIXTURES / "positions"
KINDS = ("corn", "indigo", "sugar", "tobacco", "coffee")
runner = CliRunner()


def position(text: str, file: str = "position.yaml"):  # type: ignore[no-untyped-def]
    """A position read from YAML text (indentation removed)."""
    return read_position(textwrap.dedent(text).strip("\n") + "\n", file)


def outcomes_of(text: str) -> list[Outcome]:
    return calculate(position(text)).outcomes


def summary(o: Outcome) -> tuple[object, ...]:
    """An outcome as plain, comparable data."""
    players = tuple((p.vp, tuple(p.shipped.items()), tuple(p.kept.items()), tuple(p.lost.items())) for p in o.players)
    return (players, tuple((s.size, s.good, s.count) for s in o.ships))


def ship(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, ["ship", *args], input=stdin)
    return result.exit_code, result.output


def ship_json(path: Path | str, *args: str) -> dict:  # type: ignore[type-arg]
    code, out = ship(str(path), "--format", "json", *args)
    assert code == 0, out
    return json.loads(out)


# --- the rules, through the calculator --------------------------------------------------------


def test_rulebook_harbor_and_wharf_example_scores_3_plus_1_2_plus_1_2_plus_1():
    """base-game-rules.txt, Harbor: 3 of 5 tobacco fill the tobacco ship (3+1), then 2 sugar
    (2+1), then the last 2 tobacco on the wharf (2+1)."""
    calc = Shipping(read_position((POSITIONS / "harbor-wharf.yaml").read_bytes(), "harbor-wharf.yaml"))
    captain, ben = calc.captain, calc.game.boards[1]
    gained = []
    for move in (Load(good="tobacco"), Load(good="sugar"), WharfLoad(good="tobacco")):
        before = ben.vp
        captain.play(1, move)
        gained.append(ben.vp - before)
    assert gained == [3 + 1, 2 + 1, 2 + 1]
    captain.restore(calc.root)
    ends = {(o.players[1].vp, tuple(o.players[1].shipped.items())) for o in calc.play_out()}
    assert (10, (("sugar", 2), ("tobacco", 5))) in ends
    best = calc.best_for(1)
    assert best.phase_vp == 10 and best.kept == 0
    assert best.move is not None and best.move.text(calc.rules) in ("3 tobacco on 5", "2 sugar on 6")


def test_the_ship_that_takes_the_most_is_the_only_one_allowed():
    text = """
        ruleset: base
        ships: {4: empty, 5: empty, 6: empty}
        players:
          - {name: Anna, goods: {corn: 6}}
          - {name: Ben}
          - {name: Cleo}
        """
    calc = Shipping(position(text))
    assert [(p, m.text(calc.rules)) for p, m in calc.captain.legal_moves()] == [(0, "6 corn on 6")]
    (only,) = calc.play_out()
    assert only.players[0].vp == 6 + 1  # and the captain's privilege
    assert [(s.size, s.good) for s in only.ships] == [(4, None), (5, None), (6, None)]  # the full ship was emptied


def test_ships_that_take_the_same_are_a_choice_and_both_outcomes_appear():
    found = {summary(o)[1] for o in outcomes_of("""
        ruleset: base
        ships: {4: empty, 5: empty, 6: empty}
        players:
          - {name: Anna, goods: {corn: 5}}
          - {name: Ben}
          - {name: Cleo}
        """)}
    assert found == {
        ((4, None, 0), (5, None, 0), (6, None, 0)),  # on the 5-ship, which fills and is emptied
        ((4, None, 0), (5, None, 0), (6, "corn", 5)),  # on the 6-ship, which stays
    }


def test_a_kind_on_a_ship_goes_on_no_other_ship_even_when_that_ship_is_full():
    text = """
        ruleset: base
        ships: {4: corn 3, 5: empty, 6: empty}
        players:
          - {name: Anna, goods: {corn: 1}}
          - {name: Ben, goods: {corn: 3}}
          - {name: Cleo}
        """
    calc = Shipping(position(text))
    calc.captain.play(0, Load(good="corn"))  # fills the 4-ship
    assert calc.captain.legal_moves() == []
    with pytest.raises(RuleViolation) as err:
        calc.captain.play(1, Load(good="corn", ship=5))
    assert err.value.rule == "captain.cannot-load"
    calc.captain.restore(calc.root)
    (only,) = calc.play_out()
    ben = only.players[1]
    assert (ben.vp, ben.shipped, ben.kept, ben.lost) == (0, {}, {"corn": 1}, {"corn": 2})


def test_a_kind_on_a_ship_with_room_goes_there_not_on_an_empty_ship():
    (only,) = outcomes_of("""
        ruleset: base
        ships: {4: corn 2, 5: empty, 6: empty}
        players:
          - {name: Anna}
          - {name: Ben, goods: {corn: 3}}
          - {name: Cleo}
        """)
    assert only.players[1].shipped == {"corn": 2} and only.players[1].kept == {"corn": 1}


def test_the_wharf_when_no_cargo_ship_fits():
    text = """
        ruleset: base
        ships: {4: corn 1, 5: sugar 1, 6: coffee 1}
        players:
          - {name: Anna}
          - {name: Ben, goods: {indigo: 3}, buildings: [wharf]}
          - {name: Cleo}
        """
    found = {(o.players[1].vp, tuple(o.players[1].shipped.items()), tuple(o.players[1].lost.items())) for o in outcomes_of(text)}
    assert found == {(3, (("indigo", 3),), ()), (0, (), (("indigo", 2),))}  # used, or not (it never must be)
    best = calculate(position(text), 1).best
    assert best is not None and best.move == WharfLoad(good="indigo") and best.vp == 3


def test_the_captains_privilege_only_once():
    found = {o.players[0].vp for o in outcomes_of("""
        ruleset: base
        ships: {4: empty, 5: empty, 6: empty}
        players:
          - {name: Anna, goods: {corn: 2, sugar: 2}}
          - {name: Ben}
          - {name: Cleo}
        """)}
    assert found == {2 + 2 + 1}


def test_storage_keeps_the_most_barrels_then_the_most_valuable_kinds():
    (only,) = calculate(read_position((POSITIONS / "storage.yaml").read_bytes(), "storage.yaml")).outcomes
    anna, ben, cleo = only.players
    assert (anna.kept, anna.lost) == ({"coffee": 1}, {"tobacco": 2})  # windrose: 1 barrel, the dearer
    assert (ben.kept, ben.lost) == ({"tobacco": 3, "coffee": 1}, {"coffee": 1})  # small warehouse: most barrels
    assert (cleo.kept, cleo.lost) == ({"tobacco": 2, "coffee": 3}, {})  # both warehouses: 3 kinds


def test_partly_filled_ships_stay_loaded():
    (only,) = outcomes_of("""
        ruleset: base
        ships: {4: corn 1, 5: empty, 6: empty}
        players:
          - {name: Anna, goods: {corn: 1}}
          - {name: Ben}
          - {name: Cleo}
        """)
    assert summary(only)[1] == ((4, "corn", 2), (5, None, 0), (6, None, 0))


def test_nobody_has_a_choice_gives_one_outcome_and_says_so():
    code, out = ship(str(POSITIONS / "forced.yaml"))
    assert code == 0
    assert "one outcome: nobody has a choice" in out
    assert "choice of" not in out
    assert "the VP chips run out" in out  # 11 VP, 8 chips: counted on paper beyond them


# --- the contract: formats.md section 3 -------------------------------------------------------


SECTION_3_OUTCOME = {
    "players": {
        "Anna": {"vp": 7, "shipped": {"corn": 3, "sugar": 1}, "kept": {"coffee": 2}, "lost": {}},
        "Ben": {"vp": 4, "shipped": {"tobacco": 4}, "kept": {}, "lost": {}},
        "Cleo": {"vp": 0, "shipped": {}, "kept": {"corn": 1}, "lost": {}},
    },
    "ships": {"4": None, "5": None, "6": {"good": "sugar", "count": 4}},
}


@pytest.mark.parametrize("path", [POSITIONS / "formats-example.yaml"], ids=["positions"])
def test_section_3_example_gives_its_outcome_among_its_outcomes(path):
    out = ship_json(path)
    assert list(out) == ["file", "outcomes", "best"]
    assert out["file"] == str(path) and out["best"] is None
    assert SECTION_3_OUTCOME in out["outcomes"]
    assert len(out["outcomes"]) > 1  # Ben may use his wharf instead
    for o in out["outcomes"]:
        assert list(o) == ["players", "ships"] and list(o["players"]) == ["Anna", "Ben", "Cleo"]
        assert all(list(p) == ["vp", "shipped", "kept", "lost"] for p in o["players"].values())
        assert list(o["ships"]) == ["4", "5", "6"]
    summaries = [json.dumps(o, sort_keys=True) for o in out["outcomes"]]
    assert len(summaries) == len(set(summaries))  # distinct


def test_section_3_example_best_move_for_the_captain():
    out = ship_json(POSITIONS / "formats-example.yaml", "--for", "anna")
    assert out["best"] == {"player": "Anna", "move": "3 corn on 5", "vp": 5}


def test_best_move_known_by_hand():
    """Loading corn first (3 of them fill the 4-ship: 4 VP) lets Ben fill the empty 5-ship with
    coffee and blocks Anna's; 2 coffee first leave Ben room for 3 only: Anna 3 + 3 = 6 VP."""
    out = ship_json(POSITIONS / "best-move.yaml", "--for", "Anna")
    assert out["best"] == {"player": "Anna", "move": "2 coffee on 5", "vp": 3}
    assert sorted(o["players"]["Anna"]["vp"] for o in out["outcomes"]) == [4, 6]
    result = calculate(read_position((POSITIONS / "best-move.yaml").read_bytes(), "best-move.yaml"), 0)
    assert result.best is not None and (result.best.phase_vp, result.best.kept) == (6, 0)
    assert [s.move.text(result.position.rules) for s in result.best.line if s.move] == ["2 coffee on 5", "3 coffee on 5", "3 corn on 4"]
    assert ship_json(POSITIONS / "best-move.yaml", "--for", "Ben")["best"] == {"player": "Ben", "move": "3 coffee on 5", "vp": 3}
    assert ship_json(POSITIONS / "best-move.yaml", "--for", "Cleo")["best"] == {"player": "Cleo", "move": None, "vp": 0}


def test_text_output_marks_forced_steps_and_choices():
    code, out = ship(str(POSITIONS / "formats-example.yaml"), "--for", "Ben")
    assert code == 0
    assert "outcome 1 of 5" in out and "choice of 3" in out and "forced" in out
    assert "player  VP  shipped" in out
    assert "best for Ben: wharf tobacco (+4 VP now)" in out


def test_reads_standard_input():
    code, out = ship("-", "--format", "json", stdin=(POSITIONS / "formats-example.yaml").read_text())
    assert code == 0 and json.loads(out)["file"] == "<stdin>"


# --- positions refused: exit 2, positioned ------------------------------------------------------


GOOD_PLAYERS = """\
players:
  - {name: Anna, goods: {corn: 3}, buildings: [harbor]}
  - {name: Ben, goods: {sugar: 2}}
  - {name: Cleo}
"""


@pytest.mark.parametrize(
    ("text", "rule", "line", "words"),
    [
        ("ruleset: base\nships: {4: empty, 5: corn 2, 6: cron 1}\n" + GOOD_PLAYERS, "position.unknown-name", 2, "did you mean 'corn'"),
        ("ruleset: base\nships: {4: empty, 5: empty, 7: empty}\n" + GOOD_PLAYERS, "position.ships", 2, "no 7-ship"),
        ("ruleset: base\nships:\n  4: empty\n  five: empty\n  6: empty\n" + GOOD_PLAYERS, "position.ships", 4, "not 'five'"),
        ("ruleset: base\nships:\n  4: empty\n  5: empty\n" + GOOD_PLAYERS, "position.ships", 3, "the 6-ship is missing"),
        ("ruleset: base\nships: {4: empty, 5: corn 5, 6: empty}\n" + GOOD_PLAYERS, "position.full-ship", 2, "full cargo ship cannot be"),
        ("ruleset: base\nships: {4: corn 1, 5: corn 2, 6: empty}\n" + GOOD_PLAYERS, "position.kind-on-two-ships", 2, "already on the 4-ship"),
        ("ruleset: base\nships: {4: empty, 5: corn seven, 6: empty}\n" + GOOD_PLAYERS, "position.ship-contents", 2, "<good> <count>"),
        ("ruleset: base\nships: {4: empty, 5: corn 6, 6: empty}\n" + GOOD_PLAYERS, "position.ship-contents", 2, "at most 5"),
        (
            "ruleset: base\nships: {4: empty, 5: corn 4, 6: empty}\nplayers:\n  - {name: Anna, goods: {corn: 3}}\n  - {name: Ben, goods: {corn: 4}}\n  - {name: Cleo}\n",
            "position.barrels",
            5,
            "the game has 10 barrels of corn",
        ),
        (
            "ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nplayers:\n  - {name: Anna, goods: {cofee: 1}}\n  - {name: Ben}\n  - {name: Cleo}\n",
            "position.unknown-name",
            4,
            "did you mean 'coffee'",
        ),
        (
            "ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nplayers:\n  - {name: Anna, buildings: [harbour]}\n  - {name: Ben}\n  - {name: Cleo}\n",
            "position.unknown-name",
            4,
            "did you mean 'Harbor'",
        ),
        (
            "ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nplayers:\n  - name: Anna\n    buildings: [wharf, Wharf]\n  - {name: Ben}\n  - {name: Cleo}\n",
            "position.duplicate-building",
            5,
            "twice",
        ),
        (
            "ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nplayers:\n  - {name: Anna}\n  - {name: Ben}\n  - {name: Anna}\n",
            "position.duplicate-player",
            6,
            "listed twice",
        ),
        ("ruleset: base\nships: {5: empty, 6: empty, 7: empty}\nplayers:\n  - {name: Anna}\n", "position.players", 4, "not 1"),
        ("ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nvp_left: 99\n" + GOOD_PLAYERS, "position.vp-left", 3, "75 VP in chips"),
        ("ruleset: base\nships: {4: empty, 5: empty, 6: empty}\ncaptain: Anna\n" + GOOD_PLAYERS, "position.schema", 3, "unknown key 'captain'"),
        ("ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nplayers:\n  - {name: Anna, goods: {corn: -1}}\n  - {name: Ben}\n  - {name: Cleo}\n",
         "position.schema", 4, "greater than or equal to 0"),
        ("ruleset: bsae\nships: {4: empty, 5: empty, 6: empty}\n" + GOOD_PLAYERS, "ruleset.unknown", 1, "unknown ruleset"),
        ("ruleset: base\nships: {4: empty\n", "yaml.syntax", 3, "YAML"),
    ],
    ids=[
        "unknown-good-on-ship", "no-such-ship", "ship-size-not-a-number", "missing-ship", "full-ship", "kind-on-two-ships", "ship-contents", "overfull-ship",
        "barrels-over-supply", "unknown-good", "unknown-building", "building-twice", "player-twice", "player-count", "vp-left",
        "unknown-key", "negative-barrels", "unknown-ruleset", "yaml",
    ],
)
def test_a_bad_position_is_refused_with_exit_2_at_its_line(tmp_path, text, rule, line, words):
    path = tmp_path / "position.yaml"
    path.write_text(text)
    code, out = ship(str(path))
    assert code == 2, out
    hits = [row for row in out.splitlines() if f"error[{rule}]" in row and words in row]
    assert hits and hits[0].startswith(f"{path}:{line}:"), out
    code, out = ship(str(path), "--format", "json")
    assert code == 2
    obj = json.loads(out)
    assert obj["valid"] is False and (rule, line) in [(e["rule"], e["line"]) for e in obj["errors"]]


def test_every_problem_of_a_position_is_reported():
    text = "ruleset: base\nships: {4: corn 4, 5: cron 1, 6: empty}\nplayers:\n  - {name: Anna, buildings: [harbour]}\n  - {name: Ben}\n  - {name: Ben}\n"
    with pytest.raises(InputError) as err:
        read_position(text, "p.yaml")
    assert [(d.rule, d.location.line if d.location else 0) for d in err.value.diagnostics] == [
        ("position.full-ship", 2),
        ("position.unknown-name", 2),
        ("position.unknown-name", 4),
        ("position.duplicate-player", 6),
    ]


def test_an_unknown_for_player_is_refused_with_exit_2():
    code, out = ship(str(POSITIONS / "formats-example.yaml"), "--for", "Dan")
    assert code == 2
    assert out.startswith(f"{POSITIONS / 'formats-example.yaml'}:6:1: error[ship.unknown-player]: --for: 'Dan' is not a player")


def test_a_missing_file_is_refused_with_exit_2():
    code, out = ship("no-such-position.yaml")
    assert code == 2 and "error[input.not-found]" in out


# --- the engine's move generator and the search -------------------------------------------------


def random_position(rng: random.Random, players: int) -> str:
    sizes = {2: [4, 6], 3: [4, 5, 6], 4: [5, 6, 7], 5: [6, 7, 8]}[players]
    on_ships: set[str] = set()
    ships = []
    for size in sizes:
        if rng.random() < 0.35:
            kind = rng.choice([k for k in KINDS if k not in on_ships])
            on_ships.add(kind)
            ships.append(f"{size}: {kind} {rng.randint(1, size - 1)}")
        else:
            ships.append(f"{size}: empty")
    lines = ["ruleset: base", "ships: {" + ", ".join(ships) + "}", "players:"]
    for name in ("Anna", "Ben", "Cleo", "Dora", "Emil")[:players]:
        goods = ", ".join(f"{k}: {rng.randint(1, 3)}" for k in rng.sample(KINDS, rng.randint(0, 3)))
        buildings = [b for b, p in (("wharf", 0.4), ("harbor", 0.3), ("small warehouse", 0.2), ("large warehouse", 0.1)) if rng.random() < p]
        lines.append(f"  - {{name: {name}, goods: {{{goods}}}, buildings: [{', '.join(buildings)}]}}")
    return "\n".join(lines) + "\n"


def random_positions(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        text = random_position(rng, rng.choice([2, 3, 3, 4, 5]))
        try:
            read_position(text, "r.yaml")
        except InputError:
            continue  # more barrels than the game has
        out.append(text)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_legal_moves_are_exactly_what_play_accepts(seed):
    """Along random lines of play, every load and wharf load of every player is accepted by
    `Captain.play` exactly when `legal_moves` lists it."""
    rng = random.Random(seed)
    for text in random_positions(100 + seed, 6):
        calc = Shipping(read_position(text, "r.yaml"))
        captain, rules = calc.captain, calc.rules
        while True:
            legal = {(p, m.text(rules)) for p, m in captain.legal_moves()}
            snap = captain.snapshot()
            for p in range(calc.n):
                for kind in KINDS:
                    tries = [WharfLoad(good=kind)] + [Load(good=kind, ship=s.size) for s in calc.game.ships]
                    for move in tries:
                        try:
                            captain.play(p, move)
                            accepted = True
                        except RuleViolation:
                            accepted = False
                        captain.restore(snap)
                        listed = any(q == p and t.endswith(move.text(rules)) for q, t in legal)
                        assert accepted == listed, (text, p, move.text(rules), sorted(legal))
            assert captain.snapshot() == snap
            moves = captain.legal_moves()
            if not moves:
                break
            captain.play(*rng.choice(moves))


@pytest.mark.parametrize("seed", range(4))
def test_the_reduced_search_finds_what_the_full_search_finds(seed):
    """The search's reductions (settled kinds, interchangeable ships, a settled phase played
    player by player) change neither the outcomes nor the best values."""
    for text in random_positions(seed, 12):
        pos = read_position(text, "r.yaml")
        fast, full = Shipping(pos), Shipping(pos, reduce=False)
        a, b = fast.play_out(), full.play_out()
        assert sorted(map(repr, map(summary, a))) == sorted(map(repr, map(summary, b))), text
        assert len({summary(o) for o in a}) == len(a)
        for o in a[:5]:
            assert fast.details(o).line is not None
        for p in range(len(pos.players)):
            x, y = fast.best_for(p), full.best_for(p)
            assert (x.phase_vp, x.kept) == (y.phase_vp, y.kept), (text, p)


def test_lines_of_play_lead_to_their_outcomes():
    """Replaying an outcome's line in the engine ends where the outcome says."""
    for text in [*random_positions(7, 6), (POSITIONS / "formats-example.yaml").read_text()]:
        pos = read_position(text, "r.yaml")
        calc = Shipping(pos)
        for outcome in calc.play_out():
            line = calc.details(outcome).line
            captain = calc.captain
            captain.restore(calc.root)
            for step in line:
                if step.move is not None:
                    captain.play(step.player, step.move)
            assert captain.legal_moves() == [] or all(isinstance(m, WharfLoad) for _, m in captain.legal_moves())
            assert [b.vp for b in calc.game.boards] == [p.vp for p in outcome.players], text
            captain.restore(calc.root)
