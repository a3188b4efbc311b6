"""Trader phase: one barrel each into the 4-space trading house, distinct kinds unless an office,
the trader's +1 only with a sale, small and large markets, the house emptied only when full, and
the written income checked.

Rules: the 2002 rulebook, "The Trader", "Small Market", "Office", "Large Market";
docs/formats/game-log.md (trader move, `for N` checked).
"""

from __future__ import annotations

from tests.conftest import (
    after_two_rounds,
    assert_error,
    assert_valid,
    board,
    check,
    corpus_prefix,
    extend,
    last_line_of,
    line_of,
    replayed,
)

# After two rounds Anna and Ben hold 1 indigo each, Cleo 2 corn and an occupied small market;
# Anna has 1 doubloon, Ben 2, Cleo 2. Anna, last to choose in round 2, is the trader.


def trader(*moves: str, more: str = "") -> str:
    return after_two_rounds("trader", *moves, more=more)


def test_sales_pay_the_price_plus_the_trader_privilege_and_the_small_market():
    text = trader("Anna: indigo for 2", "Ben: pass", "Cleo: corn for 1")
    assert_valid(check(text))
    game = replayed(text)
    assert [b.doubloons for b in game.boards] == [1 + 2, 2, 2 + 1]
    assert board(game, "Anna").goods == {"indigo": 0} and board(game, "Cleo").goods == {"corn": 1}


def test_the_house_is_not_emptied_before_it_is_full():
    game = replayed(trader("Anna: indigo", "Cleo: corn"))
    assert game.trading_house == ["indigo", "corn"]


def test_a_kind_already_in_the_house_cannot_be_sold_without_an_office():
    text = trader("Anna: indigo", "Ben: indigo")
    report = check(text)
    assert_error(report, "trader.same-kind", line_of(text, "- Ben: indigo"))
    assert "Office" in report.errors[0].message


def test_goods_left_in_the_house_still_block_the_next_trader_phase():
    # Round 3 (governor Cleo): the trader is free again, but indigo and corn are still in the house.
    more = "# round 3: governor Cleo\n- trader: Cleo\n  moves:\n    - Cleo: pass\n    - Anna: pass\n    - Ben: indigo\n"
    text = trader("Anna: indigo", "Cleo: corn", more=more)
    assert_error(check(text), "trader.same-kind", line_of(text, "- Ben: indigo"))


def test_a_written_income_is_checked():
    text = trader("Anna: indigo for 1")
    report = check(text)
    assert_error(report, "trader.income", line_of(text, "- Anna: indigo for 1"))
    assert "receives 2" in report.errors[0].message


def test_the_small_market_bonus_is_part_of_the_income():
    text = trader("Anna: pass", "Ben: pass", "Cleo: corn for 0")
    report = check(text)
    assert_error(report, "trader.income", line_of(text, "- Cleo: corn for 0"))
    assert "Small Market +1" in report.errors[0].message


def test_the_trader_gets_no_privilege_without_a_sale():
    text = trader("Anna: pass", "Ben: indigo for 1", "Cleo: corn for 1")
    assert_valid(check(text))
    assert [b.doubloons for b in replayed(text).boards] == [1, 2 + 1, 2 + 1]


def test_the_privilege_belongs_to_the_trader_only():
    text = trader("Anna: pass", "Ben: indigo for 2")
    assert_error(check(text), "trader.income", line_of(text, "- Ben: indigo for 2"))


def test_a_player_cannot_sell_a_barrel_they_do_not_have():
    text = trader("Anna: sugar")
    report = check(text)
    assert_error(report, "trader.no-barrel", line_of(text, "- Anna: sugar"))
    assert "indigo" in report.errors[0].message


def test_each_player_sells_at_most_once():
    text = trader("Anna: indigo", "Ben: pass", "Cleo: corn", "Cleo: corn")
    assert_error(check(text), "turn.not-your-turn", line_of(text, "- Cleo: corn", nth=2))


# Round 18 of a three-player game: Ximena is the trader; Quentin holds sugar and has an occupied
# small market and large market; Ximena has corn and no market.
MARKETS = corpus_prefix("game-3p-1", 51)


def test_corn_sells_for_nothing_but_the_privilege_still_pays():
    text = extend(MARKETS, "- trader: Ximena\n  moves:\n    - Ximena: corn for 1\n")
    assert_valid(check(text))
    assert board(replayed(text), "Ximena").doubloons == board(replayed(MARKETS), "Ximena").doubloons + 1 + 1  # + the card's doubloon


def test_small_and_large_market_add_three():
    text = extend(MARKETS, "- trader: Ximena\n  moves:\n    - Ximena: pass\n    - Chen: pass\n    - Quentin: sugar for 5\n")
    assert_valid(check(text))
    assert board(replayed(text), "Quentin").doubloons == board(replayed(MARKETS), "Quentin").doubloons + 5
    wrong = text.replace("sugar for 5", "sugar for 3")
    report = check(wrong)
    assert_error(report, "trader.income", last_line_of(wrong, "- Quentin: sugar for 3"))
    assert "Large Market +2" in report.errors[0].message


# Round 22 of another three-player game: indigo is in the house; Lena (occupied office, small and
# large market) and Zora (no office) each hold one indigo. Ana is the trader.
OFFICE = corpus_prefix("game-3p-2", 64)


def test_an_office_sells_a_kind_already_in_the_house():
    text = extend(OFFICE, "- trader: Ana\n  moves:\n    - Lena: indigo for 4\n")
    assert_valid(check(text))
    assert replayed(text).trading_house == ["indigo", "indigo"]


def test_without_an_office_the_same_kind_is_refused():
    text = extend(OFFICE, "- trader: Ana\n  moves:\n    - Lena: indigo for 4\n    - Zora: indigo\n")
    report = check(text)
    assert_error(report, "trader.same-kind", last_line_of(text, "- Zora: indigo"))
    assert "nothing" in report.errors[0].message  # what Zora could sell instead


# Round 17 of a third game: corn and sugar are in the house; Kai (trader) holds corn and indigo,
# Aiko sugar and an occupied office, Ivan corn and coffee.
FULL = corpus_prefix("game-3p-4", 50)


def full_house(*moves: str) -> str:
    return extend(FULL, "- trader: Kai\n  moves:\n" + "".join(f"    - {m}\n" for m in moves))


def test_the_fourth_barrel_fills_the_house_and_nobody_sells_after_it():
    text = full_house("Kai: indigo for 2", "Aiko: sugar for 2", "Ivan: coffee")
    report = check(text)
    assert_error(report, "turn.not-your-turn", last_line_of(text, "- Ivan: coffee"))
    assert "full" in report.errors[0].message


def test_a_full_house_is_emptied_at_the_end_of_the_phase():
    text = full_house("Kai: indigo for 2", "Aiko: sugar for 2", "Ivan: pass")
    assert_valid(check(text))
    before, game = replayed(FULL), replayed(text)
    assert game.trading_house == []
    # the four barrels go back to the supply: corn and sugar that were there, Kai's indigo, Aiko's sugar
    assert game.goods_supply["sugar"] == before.goods_supply["sugar"] + 2
    assert game.goods_supply["corn"] == before.goods_supply["corn"] + 1
    assert game.goods_supply["indigo"] == before.goods_supply["indigo"] + 1


def test_with_room_left_the_house_keeps_its_goods():
    text = full_house("Kai: indigo for 2", "Aiko: pass", "Ivan: pass")
    assert_valid(check(text))
    assert replayed(text).trading_house == ["corn", "sugar", "indigo"]


def test_the_trader_cannot_sell_a_kind_in_the_house_either():
    text = full_house("Kai: corn")
    report = check(text)
    assert_error(report, "trader.same-kind", last_line_of(text, "- Kai: corn"))
    assert "indigo" in report.errors[0].message
