"""Craftsman phase: production per kind = min(occupied plantations, occupied production circles),
corn without a building, shortages served clockwise from the craftsman, the factory's doubloons,
the craftsman's extra barrel (only of a kind he produced, only while the supply lasts) and the
`extra` entry written only when there is a choice.

Rules: the 2002 rulebook, "The Craftsman", "Factory", "Production Buildings";
docs/formats/game-log.md (`extra`, omitted when one kind); docs/rule-decisions.md.
"""

from __future__ import annotations

from tests.conftest import (
    assert_error,
    assert_valid,
    board,
    check,
    corpus_prefix,
    extend,
    game_log,
    last_line_of,
    line_of,
    replayed,
)

# Round 1: Anna (mayor) gets 2 colonists, Ben and Cleo 1 each; then Anna and Ben build a small
# indigo plant, Cleo a small market (after the mayor phase: they stay empty for now).
ROUND_1 = """\
# round 1: governor Anna
- mayor: Anna
- builder: Ben
  moves:
    - Ben: small indigo plant for 0
    - Cleo: small market for 1
    - Anna: small indigo plant for 1
"""
# Round 2, after Cleo's trader phase: Ben's mayor phase fills every circle (indigo plantation and
# small indigo plant for Anna and Ben, corn plantation and small market for Cleo).
ROUND_2 = """\
- trader: Cleo
# round 2: governor Ben
- mayor: Ben
"""


def craftsman(*moves: str) -> str:
    """Round 2: Cleo (corn only) is the craftsman; Anna and Ben make indigo."""
    return game_log(ROUND_1 + ROUND_2 + "- craftsman: Cleo\n" + ("  moves:\n" + "".join(f"    - {m}\n" for m in moves) if moves else ""))


def test_corn_needs_no_building_and_indigo_needs_a_manned_plant():
    text = craftsman()
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Anna").goods == {"indigo": 1}
    assert board(game, "Ben").goods == {"indigo": 1}
    # Cleo: 1 corn produced + the privilege barrel, taken automatically (corn was her only kind)
    assert board(game, "Cleo").goods == {"corn": 2}
    assert game.goods_supply["corn"] == 10 - 2 and game.goods_supply["indigo"] == 11 - 2


def test_an_unmanned_production_building_produces_nothing():
    # Round 1 craftsman: the small indigo plants were built after the mayor phase, so they are
    # empty; Anna's and Ben's manned indigo plantations produce nothing without them.
    text = game_log(ROUND_1 + "- craftsman: Cleo\n")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Anna").goods == {} and board(game, "Ben").goods == {}
    assert board(game, "Cleo").goods == {"corn": 2}


def test_the_extra_barrel_may_be_written_when_there_is_no_choice():
    text = craftsman("Cleo: extra corn")
    assert_valid(check(text))
    assert board(replayed(text), "Cleo").goods == {"corn": 2}


def test_the_craftsman_may_decline_the_extra_barrel():
    text = craftsman("Cleo: extra none")
    assert_valid(check(text))
    assert board(replayed(text), "Cleo").goods == {"corn": 1}


def test_the_extra_barrel_must_be_of_a_kind_the_craftsman_produced():
    text = craftsman("Cleo: extra indigo")
    report = check(text)
    assert_error(report, "craftsman.extra-kind", line_of(text, "- Cleo: extra indigo"))
    assert "corn" in report.errors[0].message


def test_only_the_craftsman_takes_an_extra_barrel():
    text = craftsman("Cleo: extra corn", "Ben: extra indigo")
    assert_error(check(text), "craftsman.not-craftsman", line_of(text, "- Ben: extra indigo"))


def test_the_extra_barrel_is_taken_once():
    text = craftsman("Cleo: extra corn", "Cleo: extra corn")
    assert_error(check(text), "craftsman.extra-twice", line_of(text, "- Cleo: extra corn", nth=2))


# Round 18 of a three-player game; Lotte is governor and craftsman. Only 1 corn barrel is left.
# Lotte: 2 manned corn, 2 manned indigo (4 indigo circles), 1 sugar + small sugar mill.
# Oskar: 1 corn; 2 indigo plantations but 1 small indigo plant; 3 tobacco + tobacco storage.
# Priya: 2 corn; 2 indigo plantations but 1 small indigo plant; no tobacco plantation manned.
SHORT_CORN = corpus_prefix("game-3p-3", 51)


def short_corn(moves: str = "    - Lotte: extra sugar\n") -> str:
    return extend(SHORT_CORN, "- craftsman: Lotte\n" + ("  moves:\n" + moves if moves else ""))


def test_production_is_the_smaller_of_manned_plantations_and_manned_circles():
    before = replayed(SHORT_CORN)
    game = replayed(short_corn())
    gained = {
        b.name: {k: n - before_b.goods.get(k, 0) for k, n in b.goods.items() if n != before_b.goods.get(k, 0)}
        for b, before_b in zip(game.boards, before.boards, strict=True)
    }
    assert gained["Lotte"] == {"corn": 1, "indigo": 2, "sugar": 2}  # corn short; sugar 1 + extra
    assert gained["Oskar"] == {"indigo": 1, "tobacco": 3}
    assert gained["Priya"] == {"indigo": 1}


def test_a_shortage_is_served_clockwise_from_the_craftsman():
    game = replayed(short_corn())
    assert game.goods_supply["corn"] == 0
    before = replayed(SHORT_CORN)
    # Lotte (craftsman) gets the last corn; Oskar and Priya, who could make 1 and 2, go without
    assert board(game, "Lotte").goods["corn"] == board(before, "Lotte").goods["corn"] + 1
    assert board(game, "Oskar").goods["corn"] == board(before, "Oskar").goods["corn"]
    assert board(game, "Priya").goods["corn"] == board(before, "Priya").goods["corn"]


def test_with_several_kinds_produced_the_extra_barrel_must_be_written():
    text = short_corn(moves="") + "  - trader: Oskar\n"
    report = check(text)
    assert_error(report, "craftsman.extra-missing", last_line_of(text, "- trader: Oskar"))
    assert "indigo or sugar" in report.errors[0].message  # corn ran out: not a choice


def test_a_log_stopping_before_that_choice_is_in_progress():
    report = check(short_corn(moves=""))
    assert_valid(report)
    assert report.complete is False and "Lotte" in (report.waiting or "")


def test_no_extra_barrel_of_a_kind_that_ran_out():
    text = short_corn("    - Lotte: extra corn\n")
    report = check(text)
    assert_error(report, "craftsman.extra-supply", last_line_of(text, "- Lotte: extra corn"))
    assert "indigo or sugar" in report.errors[0].message


def test_no_extra_barrel_of_a_kind_the_craftsman_did_not_produce():
    text = short_corn("    - Lotte: extra tobacco\n")
    assert_error(check(text), "craftsman.extra-kind", last_line_of(text, "- Lotte: extra tobacco"))


# Round 14 of a five-player game; Ines is the craftsman (order Ines, Viktor, Ximena, Milo, Rafael).
# 3 corn and 4 indigo barrels are left; Rafael, seated first, is served last.
SHORT_TWO = corpus_prefix("game-5p-2", 68)


def test_the_player_served_last_goes_without_even_if_seated_first():
    text = extend(SHORT_TWO, "- craftsman: Ines\n")
    assert_valid(check(text))
    before, game = replayed(SHORT_TWO), replayed(text)

    def gained(name: str) -> dict[str, int]:
        b, a = board(before, name), board(game, name)
        return {k: n - b.goods.get(k, 0) for k, n in a.goods.items() if n != b.goods.get(k, 0)}

    assert gained("Ines") == {"corn": 1, "indigo": 1}  # and no extra: both kinds are gone
    assert gained("Ximena") == {"corn": 2, "indigo": 1, "sugar": 3}
    assert gained("Milo") == {"indigo": 1, "sugar": 1}
    assert gained("Rafael") == {"indigo": 1}  # could make 2 corn and 2 indigo


def test_no_extra_barrel_when_every_kind_produced_is_exhausted():
    text = extend(SHORT_TWO, "- craftsman: Ines\n  moves:\n    - Ines: extra indigo\n")
    report = check(text)
    assert_error(report, "craftsman.extra-supply", last_line_of(text, "- Ines: extra indigo"))
    assert "nothing" in report.errors[0].message


# Factory (round 19 of a four-player game): Zora is the craftsman and makes corn, indigo, sugar
# and tobacco with an occupied factory: 3 doubloons. Aiko's factory with one kind: nothing.
FACTORY = corpus_prefix("game-4p-4", 72)


def test_factory_pays_for_the_number_of_kinds_produced():
    text = extend(FACTORY, "- craftsman: Zora\n  moves:\n    - Zora: extra tobacco\n")
    assert_valid(check(text))
    before, game = replayed(FACTORY), replayed(text)
    assert board(game, "Zora").doubloons == board(before, "Zora").doubloons + 3
    assert board(game, "Aiko").doubloons == board(before, "Aiko").doubloons


# Round 20 of the same game, Aiko is the craftsman: Oskar takes the last 3 corn before Zora's turn,
# so Zora receives 3 kinds (indigo, sugar, tobacco), not 4: 2 doubloons.
FACTORY_SHORT = corpus_prefix("game-4p-4", 77)


def test_factory_counts_the_kinds_actually_received():
    text = extend(FACTORY_SHORT, "- craftsman: Aiko\n")
    assert_valid(check(text))
    before, game = replayed(FACTORY_SHORT), replayed(text)
    assert board(game, "Zora").goods["corn"] == board(before, "Zora").goods["corn"]
    assert board(game, "Zora").doubloons == board(before, "Zora").doubloons + 2
