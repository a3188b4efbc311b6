"""The legal moves each phase generates are exactly what its check accepts (issue 30, item 1).

The phases list their legal moves from the rules that make them legal, without building each
candidate and catching the refusal. Over random games of every bundled ruleset and player count,
before every move of every phase but the captain's (whose list is its own), and for every player
(a later one: once the players before them pass), the list is compared with each phase's
`candidates` (what could be written, before the rules are asked) kept where `Game.accepts` says
yes: the same moves, in the same order (random play draws from the list, so a game's seed gives
the same game). And at every role choice, the roles listed are the ones `choose_role` takes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from itertools import islice
from typing import Any

import pytest

from referee.diagnostics import RuleViolation
from referee.engine import legal
from referee.engine.game import Game
from referee.jobs.play import play
from referee.moves.clauses import AnyMove, Build, Extra, Sell, Settle
from referee.rulesets.load import load_ruleset

RULESETS = ("base", "expansion-1", "1897", "1897-expansion-1")
PLAYERS = (2, 3, 4, 5)
ARRANGEMENTS = 300  # a mayor's arrangements can be thousands: the first ones are compared

# The file's last test reads what every game's comparisons met (`compared_games`, cached): one
# worker running the file in its order (pytest-xdist's loadgroup) spares it the games; in any
# other worker, or alone, it plays again those it lacks.
pytestmark = pytest.mark.xdist_group("legal-moves")
CHOOSE_ROLE = Game.choose_role  # the engine's, before the comparison wraps it


def features(move: AnyMove) -> list[str]:
    """The clauses of a listed move that the comparison should have met at least once."""
    if isinstance(move, Settle):
        return [name for name, present in (("settle", move.tile is not None), ("hacienda", move.extra_tile is not None), ("hospice", move.hospice), ("forest", move.forest)) if present]
    if isinstance(move, Build):
        return ["build"] + [name for name, present in (("university", move.university), ("pay colonist", move.pay_colonist), ("pay good", move.pay_good), ("pay vp", move.pay_vp)) if present]
    if isinstance(move, Sell):
        return ["own post" if move.own_post else "sell"]
    if isinstance(move, Extra):
        return [f"extra {len(move.goods)}"]
    return []


def compare(game: Game, seen: Counter[str]) -> None:
    """Every player's legal moves now against the candidates the engine accepts; what the lists
    held is counted in `seen`."""
    phase = game.phase
    if phase is None or phase.role == "captain":
        return
    for p in range(game.n):
        listed = list(islice(phase.moves_for(p), ARRANGEMENTS))
        candidates = list(islice(phase.candidates(p), ARRANGEMENTS))
        accepted = [move for move in candidates if game.accepts(p, move)]
        assert listed == accepted, (phase.role, p, [str(m) for m in listed], [str(m) for m in accepted])
        seen[f"{phase.role} refused"] += len(candidates) - len(accepted)
        for move in listed:
            seen.update(features(move))


def role_choices(game: Game) -> dict[str, list[int | None]]:
    """The role choices `choose_role` accepts now, each role with the doubloons it may be written
    with: every role of the ruleset tried, unwritten and with each number on the table."""
    accepted: dict[str, list[int | None]] = {}
    for role in game.rules.role:
        for doubloons in [None, *sorted({card.doubloons for card in game.role_cards})]:
            try:
                CHOOSE_ROLE(game.clone(), game.chooser, role, doubloons)
            except RuleViolation:
                continue
            accepted.setdefault(role, []).append(doubloons)
    return accepted


def compare_roles(game: Game, seen: Counter[str]) -> None:
    """The roles listed are those accepted; each with its doubloons where several are on offer."""
    listed: dict[str, list[int | None]] = {}
    for role, doubloons in legal.roles(game):
        listed.setdefault(role, []).append(doubloons)
    accepted = role_choices(game)
    assert list(listed) == list(accepted)
    for role, written in accepted.items():
        numbers = [d for d in written if d is not None]
        assert listed[role] == (numbers if len(numbers) > 1 else [None]), (role, listed[role], written)
    seen["roles"] += 1


@contextmanager
def comparing(seen: Counter[str]) -> Iterator[None]:
    """Random play, with the comparison before every move and role choice (counted in `seen`)."""
    real_play, real_unchecked = Game.play, Game.play_unchecked

    def checked_play(self: Game, p: int, move: AnyMove, guests: tuple[str, ...] = ()) -> None:
        compare(self, seen)
        real_play(self, p, move, guests)

    def unchecked(self: Game, p: int, move: AnyMove) -> None:
        compare(self, seen)
        real_unchecked(self, p, move)

    def choose(self: Game, p: int, role: str, doubloons: int | None = None) -> Any:
        compare_roles(self, seen)
        return CHOOSE_ROLE(self, p, role, doubloons)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Game, "play", checked_play)
        patch.setattr(Game, "play_unchecked", unchecked)
        patch.setattr(Game, "choose_role", choose)
        yield


@cache
def compared_games(ruleset: str, players: int) -> Counter[str]:
    """Two random games of `ruleset` and `players`, compared before every move and role choice:
    what the comparisons met (a failed comparison raises, and is not cached)."""
    seen: Counter[str] = Counter()
    rules = load_ruleset(ruleset)
    with comparing(seen):
        for seed in range(2):
            played = play(rules, players, seed)
            assert played.game.over
    return seen


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("players", PLAYERS)
def test_each_phase_lists_the_moves_its_check_accepts(ruleset: str, players: int) -> None:
    assert compared_games(ruleset, players)["roles"] > 0


def test_a_library_doubles_the_craftsman_extra_barrels_listed() -> None:
    """A craftsman with a library takes two extra barrels (random games seldom get there): the
    list holds each pair the supply can give, and not two corn when one corn is left."""
    rules = load_ruleset("expansion-1")
    game = Game(rules, ["Anna", "Ben", "Cleo"], None)
    anna = game.boards[0]
    library, indigo_plant = rules.with_effect("privilege.double")[0].id, rules.producers["indigo"][0]
    anna.buildings = {library: 1, indigo_plant: 1}
    anna.island = {"corn": 1, "indigo": 1}
    anna.manned = {"corn": 1, "indigo": 1}
    game.goods_supply["corn"] = 2  # one produced, one left for the extra
    game.choose_role(0, "craftsman")
    seen: Counter[str] = Counter()
    compare(game, seen)
    assert seen["extra 2"] > 0  # the comparison met the two extra barrels
    listed = [str(move) for move in legal.legal_moves(game, 0)]
    assert "extra corn, indigo" in listed and "extra indigo, indigo" in listed and "extra corn, corn" not in listed, listed


def test_a_university_lists_each_build_with_and_without_its_colonist() -> None:
    """A builder with an occupied university may take a colonist onto what they build (random
    games seldom get there): the list holds both builds, as the check accepts them."""
    rules = load_ruleset("base")
    game = Game(rules, ["Anna", "Ben", "Cleo"], None)
    anna = game.boards[0]
    university = rules.with_effect("build.colonist")[0].id
    anna.buildings = {university: 1}
    anna.doubloons = 3
    game.colonist_supply = 5
    game.choose_role(0, "builder")
    seen: Counter[str] = Counter()
    compare(game, seen)
    assert seen["university"] > 0  # the comparison met the university's colonist
    listed = [move for move in legal.legal_moves(game, 0) if isinstance(move, Build)]
    assert any(move.university for move in listed) and any(not move.university for move in listed)


def test_the_comparisons_met_every_kind_of_move() -> None:
    """Over the games above (`compared_games`: any this process has not played are played here),
    the lists compared held every clause a phase lists (the hacienda's draw, the hospice's
    colonist, forests, the university's colonist, each black-market payment, sales to one's own
    trading post), and candidates refused in each phase, so that the comparison was not empty. (A
    library's two extra barrels and a university's colonist, which random games seldom reach,
    are compared by the tests above on their own.)"""
    expected = ["settle", "hacienda", "hospice", "forest", "build", "pay colonist", "pay good", "pay vp", "sell", "own post", "extra 1", "roles"]
    expected += [f"{role} refused" for role in ("settler", "builder", "trader")]
    seen = sum((compared_games(ruleset, players) for ruleset in RULESETS for players in PLAYERS), Counter())
    assert [name for name in expected if not seen[name]] == [], seen
