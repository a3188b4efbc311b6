"""Captain phase: compulsory loading, one kind per turn and all of it that fits, one kind per ship
and never on two ships (even a full one), the ship that takes the most (free choice among equals,
then the ship must be named), the captain's +1 VP on the first load only, harbor, wharf (once per
phase, never forcing a move), turn order as docs/formats/game-log.md "Captain turns" says, a turn let go with
`pass` by a player who could only use their wharf (version 3), storage (`keep`) with the windrose
and warehouses, full ships emptied and partial ships kept.

Rules: the 2002 rulebook, "The Captain", "Small Warehouse", "Large Warehouse", "Harbor", "Wharf";
docs/formats/game-log.md (captain moves, "Captain turns", `keep`); docs/rule-decisions.md.
"""

from __future__ import annotations

from tests.conftest import (
    TWO_ROUNDS,
    after_two_rounds,
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


def gained_vp(before, after, name: str) -> int:  # type: ignore[no-untyped-def]
    return board(after, name).vp - board(before, name).vp


# --- a small captain phase: Anna (captain) and Ben hold 1 indigo each, Cleo 2 corn -----------------



def captain(*moves: str, more: str = "") -> str:
    return after_two_rounds("captain", *moves, more=more)


def test_loads_in_turn_from_the_captain_and_partial_ships_keep_their_cargo():
    text = captain("Anna: indigo on 4", "Ben: indigo", "Cleo: corn on 5")
    assert_valid(check(text))
    game = replayed(text)
    assert [b.vp for b in game.boards] == [1 + 1, 1, 2]  # Anna: 1 barrel + the captain's 1
    assert [(s.size, s.good, s.count) for s in game.ships] == [(4, "indigo", 2), (5, "corn", 2), (6, None, 0)]
    assert all(b.barrels() == 0 for b in game.boards)


def test_a_captain_with_nothing_to_load_is_skipped_and_gets_no_bonus():
    # Anna builds nothing in round 1, so she has no indigo: the first load is Ben's.
    opening = TWO_ROUNDS.replace("    - Anna: small indigo plant for 1\n", "")
    text = game_log(opening + "- captain: Anna\n  moves:\n    - Ben: indigo on 4\n    - Cleo: corn on 5\n")
    assert_valid(check(text))
    assert [b.vp for b in replayed(text).boards] == [0, 1, 2]


def test_with_several_empty_ships_taking_as_many_the_ship_must_be_named():
    text = captain("Anna: indigo")
    report = check(text)
    assert_error(report, "captain.ship-required", line_of(text, "- Anna: indigo"))
    message = report.errors[0].message
    assert "4-ship" in message and "5-ship" in message and "6-ship" in message


def test_any_of_the_equal_ships_may_be_chosen():
    text = captain("Anna: indigo on 6", "Ben: indigo", "Cleo: corn on 4")
    assert_valid(check(text))
    assert [(s.good, s.count) for s in replayed(text).ships] == [("corn", 2), (None, 0), ("indigo", 2)]


def test_a_kind_on_one_ship_goes_on_no_other():
    text = captain("Anna: indigo on 4", "Ben: indigo on 5")
    report = check(text)
    assert_error(report, "captain.wrong-ship", line_of(text, "- Ben: indigo on 5"))
    assert "4-ship" in report.errors[0].message


def test_one_kind_per_ship():
    text = captain("Anna: indigo on 4", "Ben: indigo", "Cleo: corn on 4")
    report = check(text)
    assert_error(report, "captain.wrong-ship", line_of(text, "- Cleo: corn on 4"))
    assert "carries indigo" in report.errors[0].message


def test_every_barrel_of_the_kind_that_fits_is_loaded():
    text = captain("Anna: indigo on 4", "Ben: indigo", "Cleo: 1 corn on 5")
    report = check(text)
    assert_error(report, "captain.count", line_of(text, "- Cleo: 1 corn on 5"))
    assert "2" in report.errors[0].message


def test_a_player_who_can_load_must_load():
    text = captain("Anna: indigo on 4", "Ben: indigo", more="# round 3: governor Cleo\n- trader: Cleo\n")
    report = check(text)
    assert_error(report, "captain.must-load", last_line_of(text, "- trader: Cleo"))
    assert "Cleo can load 2 corn" in report.errors[0].message


def test_a_log_stopping_while_someone_must_load_is_in_progress():
    report = check(captain("Anna: indigo on 4", "Ben: indigo"))
    assert_valid(report)
    assert report.complete is False and "Cleo can load 2 corn" in (report.waiting or "")


def test_a_load_out_of_turn_names_the_player_whose_turn_it_is():
    text = captain("Anna: indigo on 4", "Cleo: corn on 5")
    report = check(text)
    assert_error(report, "turn.not-your-turn", line_of(text, "- Cleo: corn on 5"))
    assert "Ben's turn" in report.errors[0].message and "1 indigo on the 4-ship" in report.errors[0].message


def test_the_captain_loads_first():
    text = captain("Ben: indigo on 4")
    report = check(text)
    assert_error(report, "turn.not-your-turn", line_of(text, "- Ben: indigo on 4"))
    assert "Anna's turn" in report.errors[0].message


def test_no_load_once_nobody_can_load():
    text = captain("Anna: indigo on 4", "Ben: indigo", "Cleo: corn on 5", "Cleo: corn on 6")
    assert_error(check(text), "captain.cannot-load", line_of(text, "- Cleo: corn on 6"))


def test_a_player_who_can_load_on_a_cargo_ship_cannot_pass():
    text = captain("Anna: pass")
    report = check(text)
    assert_error(report, "captain.no-pass", line_of(text, "- Anna: pass"))
    assert "Anna cannot pass: they must load 1 indigo on the 4-ship or the 5-ship or the 6-ship" in report.errors[0].message


def test_one_kind_per_load():
    text = captain("Anna: indigo on 4, corn")
    assert_error(check(text), "log.move", line_of(text, "- Anna: indigo on 4, corn"))


def test_a_barrel_the_player_does_not_have_cannot_be_loaded():
    text = captain("Anna: corn on 5")
    report = check(text)
    assert_error(report, "captain.no-barrel", line_of(text, "- Anna: corn on 5"))
    assert "indigo" in report.errors[0].message


def test_a_ship_that_does_not_exist():
    text = captain("Anna: indigo on 7")
    assert_error(check(text), "captain.no-such-ship", line_of(text, "- Anna: indigo on 7"))


def test_keep_cannot_name_barrels_the_player_no_longer_has():
    text = captain("Anna: indigo on 4", "Ben: indigo", "Cleo: corn on 5", more="  keep: {Anna: indigo}\n")
    assert_error(check(text), "captain.keep", line_of(text, "keep: {Anna: indigo}"))


# --- the largest ship, full ships, storage (round 14 of a three-player game) -----------------------------
# Kai is the captain. Ships: 4 empty, 5 with 3 corn, 6 empty. Kai: 2 corn. Aiko: 8 sugar.
# Ivan: 4 corn, 5 coffee. Nobody has a warehouse.

BIG = corpus_prefix("game-3p-4", 41)


def big(*moves: str, keep: str = "  keep: {Ivan: coffee}\n") -> str:
    return extend(BIG, "- captain: Kai\n  moves:\n" + "".join(f"    - {m}\n" for m in moves) + keep)


BIG_OK = ("Kai: 2 corn", "Aiko: 6 sugar on 6", "Ivan: 4 coffee on 4")


def test_the_ship_that_takes_the_most_must_be_used():
    text = big("Kai: 2 corn", "Aiko: sugar on 4")
    report = check(text)
    assert_error(report, "captain.largest-ship", last_line_of(text, "- Aiko: sugar on 4"))
    message = report.errors[0].message
    assert "6-ship, which takes 6" in message and "4-ship, which takes 4" in message


def test_the_only_largest_ship_need_not_be_named():
    text = big("Kai: 2 corn", "Aiko: sugar", "Ivan: coffee")
    assert_valid(check(text))


def test_a_kind_on_a_full_ship_cannot_go_on_an_empty_one():
    text = big("Kai: 2 corn", "Aiko: 6 sugar on 6", "Ivan: corn")
    report = check(text)
    assert_error(report, "captain.kind-blocked", last_line_of(text, "- Ivan: corn"))
    message = report.errors[0].message
    assert "full" in message and "4 coffee on the 4-ship" in message


def test_full_ships_are_emptied_and_extra_barrels_are_lost():
    text = big(*BIG_OK)
    assert_valid(check(text))
    before, game = replayed(BIG), replayed(text)
    assert [(s.good, s.count) for s in game.ships] == [(None, 0)] * 3
    assert gained_vp(before, game, "Kai") == 2 + 1
    assert gained_vp(before, game, "Aiko") == 6
    assert gained_vp(before, game, "Ivan") == 4
    assert board(game, "Aiko").goods.get("sugar") == 1  # 2 left: the windrose keeps one
    assert board(game, "Ivan").goods.get("coffee") == 1 and not board(game, "Ivan").goods.get("corn")
    # every barrel is back in the supply except the two kept
    assert game.goods_supply["corn"] == before.goods_supply["corn"] + 3 + 2 + 4


def test_storage_must_be_written_when_the_player_has_a_choice():
    text = big(*BIG_OK, keep="") + "  - settler: Aiko\n"
    report = check(text)
    assert_error(report, "captain.keep-missing", last_line_of(text, "- settler: Aiko"))
    message = report.errors[0].message
    assert "Ivan" in message and "Aiko" not in message.split(":", 1)[1]  # Aiko had only sugar: no choice


def test_a_missing_keep_names_the_line_of_its_phase_and_gives_an_entry_to_write():
    text = big(*BIG_OK, keep="") + "  - settler: Aiko\n"
    message = check(text).errors[0].message
    phase = last_line_of(text, "- captain: Kai")
    assert message.startswith(f"the captain phase of line {phase} needs 'keep' for Ivan (4 corn, 1 coffee)")
    assert message.endswith("write it under the phase, as `keep: {Ivan: coffee}`")
    # the entry given, written under the phase, is a keep the rules take
    assert_valid(check(big(*BIG_OK, keep="  keep: {Ivan: coffee}\n")))


def test_a_keep_written_for_others_is_told_the_entry_to_add():
    text = harbor(*HARBOR_LOADS, keep="  keep: {Oskar: tobacco all}\n") + "  - trader: Priya\n"
    report = check(text)
    assert_error(report, "captain.keep-missing", last_line_of(text, "- trader: Priya"))
    assert "add `Priya: " in report.errors[0].message and "to its 'keep'" in report.errors[0].message


def test_the_windrose_keeps_one_barrel_of_the_players_choice():
    text = big(*BIG_OK, keep="  keep: {Ivan: corn}\n")
    assert_valid(check(text))
    assert board(replayed(text), "Ivan").goods == {"corn": 1}


def test_the_windrose_keeps_no_more_than_one_barrel():
    text = big(*BIG_OK, keep="  keep: {Ivan: corn 2}\n")
    report = check(text)
    assert_error(report, "captain.keep", last_line_of(text, "keep: {Ivan: corn 2}"))
    assert "1 barrel" in report.errors[0].message


def test_keep_none_throws_everything_away():
    text = big(*BIG_OK, keep="  keep: {Ivan: none, Aiko: none}\n")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Ivan").barrels() == 0 and board(game, "Aiko").barrels() == 0


# --- free choice of kind, the largest ship again (round 10 of another three-player game) ------------------
# Priya is the captain; all ships empty. Priya: 4 indigo. Lotte: 5 corn, 3 indigo. Oskar: 2 corn.

CHOICE = corpus_prefix("game-3p-3", 28)


def choice(*moves: str) -> str:
    return extend(CHOICE, "- captain: Priya\n  moves:\n" + "".join(f"    - {m}\n" for m in moves))


def test_the_kind_is_free_even_if_another_would_load_more():
    text = choice("Priya: 4 indigo on 6", "Lotte: 2 indigo on 6", "Oskar: 2 corn on 5", "Lotte: 3 corn on 5")
    assert_valid(check(text))


def test_five_corn_must_take_the_five_ship_not_the_four_ship():
    text = choice("Priya: 4 indigo on 6", "Lotte: corn on 4")
    report = check(text)
    assert_error(report, "captain.largest-ship", last_line_of(text, "- Lotte: corn on 4"))
    assert "5-ship, which takes 5" in report.errors[0].message and "4-ship, which takes 4" in report.errors[0].message


def test_players_who_cannot_load_are_skipped():
    # After Lotte's 5 corn fill the 5-ship, Oskar's corn is blocked and Priya has nothing: the
    # next load is Lotte's again.
    text = choice("Priya: 4 indigo on 6", "Lotte: 5 corn on 5", "Lotte: 2 indigo")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Oskar").goods.get("corn") == 2  # no ship for them; his small warehouse keeps both


def test_a_player_who_can_load_cannot_be_passed_over():
    text = choice("Priya: 4 indigo on 6", "Oskar: 2 corn on 5")
    report = check(text)
    assert_error(report, "turn.not-your-turn", last_line_of(text, "- Oskar: 2 corn on 5"))
    assert "Lotte's turn" in report.errors[0].message


# --- captain's privilege, harbor, warehouses (round 18 of the same game) -------------------------------------
# Oskar is the captain. Ships: 4 empty, 5 with 2 sugar, 6 with 4 indigo.
# Oskar: 3 corn, 2 indigo, 6 tobacco, occupied small warehouse. Priya: 3 corn, 2 indigo, 2 tobacco,
# occupied harbor. Lotte: 4 corn, 1 sugar, 3 indigo, occupied small warehouse.

HARBOR = corpus_prefix("game-3p-3", 52)
HARBOR_LOADS = ("Oskar: 3 corn on 4", "Priya: 2 indigo on 6", "Lotte: 1 sugar on 5", "Priya: 1 corn on 4")


def harbor(*moves: str, keep: str = "  keep: {Priya: tobacco}\n") -> str:
    return extend(HARBOR, "- captain: Oskar\n  moves:\n" + "".join(f"    - {m}\n" for m in moves) + keep)


def test_harbor_gives_one_vp_per_load():
    text = harbor(*HARBOR_LOADS)
    assert_valid(check(text))
    before, game = replayed(HARBOR), replayed(text)
    assert gained_vp(before, game, "Priya") == (2 + 1) + (1 + 1)
    assert gained_vp(before, game, "Oskar") == 3 + 1
    assert gained_vp(before, game, "Lotte") == 1


def test_the_captain_gets_the_extra_vp_on_the_first_load_only():
    text = harbor("Oskar: 3 corn on 4", "Priya: 1 corn on 4", "Lotte: 1 sugar on 5", "Oskar: 2 indigo on 6", keep="  keep: {Priya: tobacco}\n")
    assert_valid(check(text))
    before, game = replayed(HARBOR), replayed(text)
    assert gained_vp(before, game, "Oskar") == (3 + 1) + 2


def test_a_small_warehouse_keeps_every_barrel_of_one_kind_besides_the_windrose_barrel():
    text = harbor(*HARBOR_LOADS)
    game = replayed(text)
    # Oskar: 6 tobacco + 2 indigo left: tobacco whole, one indigo; written or not, no choice
    assert board(game, "Oskar").goods == {"tobacco": 6, "indigo": 1}
    # Lotte: 4 corn + 3 indigo: corn whole and one indigo keep the most
    assert board(game, "Lotte").goods == {"corn": 4, "indigo": 1}
    assert board(game, "Priya").goods == {"tobacco": 1}


def test_a_player_may_keep_less_than_the_most():
    text = harbor(*HARBOR_LOADS, keep='  keep: {Priya: tobacco, Lotte: "corn, indigo all"}\n')
    assert_valid(check(text))
    assert board(replayed(text), "Lotte").goods == {"corn": 1, "indigo": 3}


def test_a_small_warehouse_keeps_one_kind_not_two():
    text = harbor(*HARBOR_LOADS, keep='  keep: {Priya: tobacco, Oskar: "tobacco all, indigo all"}\n')
    report = check(text)
    assert_error(report, "captain.keep", last_line_of(text, "keep: {Priya: tobacco, Oskar"))
    assert "1 kind" in report.errors[0].message


def test_keep_is_needed_only_for_the_player_with_a_choice():
    text = harbor(*HARBOR_LOADS, keep="") + "  - trader: Priya\n"
    report = check(text)
    assert_error(report, "captain.keep-missing", last_line_of(text, "- trader: Priya"))
    message = report.errors[0].message
    assert "Priya" in message and "Oskar (" not in message and "Lotte (" not in message


def test_a_warehouse_does_not_exempt_from_loading():
    # Oskar could load 4 tobacco on the empty 4-ship; his warehouse does not let him skip it.
    text = harbor("Oskar: 3 corn on 4", "Priya: 1 corn on 4", "Lotte: 1 sugar on 5", keep="") + "  - trader: Priya\n"
    report = check(text)
    assert_error(report, "captain.must-load", last_line_of(text, "- trader: Priya"))
    assert "Oskar can load 2 indigo" in report.errors[0].message


# --- wharf (round 29 of a four-player game) ---------------------------------------------------------------
# Dita is the captain (Dita, Elif, Nils, Priya). Ships: 5 with 4 sugar, 6 with 2 indigo, 7 with 1 coffee.
# Dita: 1 corn, 2 indigo. Elif: 1 indigo, 1 sugar, 2 coffee and an occupied wharf.
# Nils: 1 corn, 1 indigo. Priya: 3 corn, 1 indigo.

WHARF = corpus_prefix("game-4p-2", 112)


def wharf(*moves: str) -> str:
    return extend(WHARF, "- captain: Dita\n  moves:\n" + "".join(f"    - {m}\n" for m in moves))


def test_wharf_may_be_used_instead_of_a_cargo_ship():
    text = wharf("Dita: 2 indigo on 6", "Elif: wharf coffee", "Nils: 1 indigo on 6", "Priya: 1 indigo on 6", "Elif: 1 sugar on 5")
    assert_valid(check(text))
    before, game = replayed(WHARF), replayed(text)
    assert gained_vp(before, game, "Elif") == 2 + 1
    assert game.goods_supply["coffee"] == before.goods_supply["coffee"] + 2  # the wharf's barrels go to the supply
    assert [(s.good, s.count) for s in game.ships] == [(None, 0), (None, 0), ("coffee", 1)]  # 5 and 6 full: emptied


def test_wharf_only_once_per_phase():
    text = wharf("Dita: 2 indigo on 6", "Elif: wharf coffee", "Nils: 1 indigo on 6", "Priya: 1 indigo on 6", "Elif: wharf sugar")
    report = check(text)
    assert_error(report, "captain.wharf-used", last_line_of(text, "- Elif: wharf sugar"))


def test_no_wharf_without_an_occupied_one():
    text = wharf("Dita: 2 indigo on 6", "Elif: 1 sugar on 5", "Nils: wharf corn")
    assert_error(check(text), "captain.wharf", last_line_of(text, "- Nils: wharf corn"))


def test_wharf_cannot_jump_the_turn_of_a_player_who_can_load():
    text = wharf("Dita: 2 indigo on 6", "Elif: 1 sugar on 5", "Nils: 1 indigo on 6", "Elif: wharf coffee")
    report = check(text)
    assert_error(report, "turn.not-your-turn", last_line_of(text, "- Elif: wharf coffee"))
    assert "Priya's turn" in report.errors[0].message and "1 indigo on the 6-ship" in report.errors[0].message


LOADED_OUT = ("Dita: 2 indigo on 6", "Elif: 2 coffee on 7", "Nils: 1 indigo on 6", "Priya: 1 indigo on 6", "Elif: 1 sugar on 5")


def test_wharf_may_be_used_when_no_cargo_ship_can_take_the_goods():
    # Elif's last indigo cannot go on the full 6-ship; nobody can load any more; she ships it on her wharf.
    text = wharf(*LOADED_OUT, "Elif: wharf indigo")
    assert_valid(check(text))
    assert board(replayed(text), "Elif").barrels() == 0


def test_wharf_never_forces_a_move():
    text = wharf(*LOADED_OUT)
    assert_valid(check(text))
    assert board(replayed(text), "Elif").goods.get("indigo") == 1


def test_a_wharf_load_pays_one_vp_per_barrel_and_the_captain_bonus_stays_with_the_captain():
    text = wharf("Dita: 2 indigo on 6", "Elif: wharf coffee")
    before, game = replayed(WHARF), replayed(text)
    assert gained_vp(before, game, "Dita") == 2 + 1
    assert gained_vp(before, game, "Elif") == 2


# --- large warehouse (round 21 of a four-player game) -----------------------------------------------------
# Oskar (captain) has an occupied small and large warehouse, Zora an occupied large warehouse,
# Greta none. The loads are the ones the table made.

LARGE = corpus_prefix("game-4p-4", 81)
LARGE_LOADS = """\
- captain: Oskar
  moves:
    - Oskar: 3 indigo on 6
    - Zora: 1 corn on 5
    - Greta: 3 sugar on 7
    - Aiko: 1 indigo on 6
    - Oskar: 4 corn on 5
    - Zora: 2 sugar on 7
    - Greta: 2 indigo on 6
    - Oskar: 2 sugar on 7
"""


def test_a_large_warehouse_keeps_two_kinds_whole():
    text = extend(LARGE, LARGE_LOADS + "  keep: {Greta: corn}\n")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Zora").goods == {"indigo": 3, "tobacco": 7}
    assert board(game, "Oskar").goods == {"corn": 1, "sugar": 2}
    assert board(game, "Greta").goods == {"corn": 1}


def test_without_a_warehouse_two_kinds_need_a_keep_entry():
    text = extend(LARGE, LARGE_LOADS) + "  - craftsman: Zora\n"
    report = check(text)
    assert_error(report, "captain.keep-missing", last_line_of(text, "- craftsman: Zora"))
    assert "Greta" in report.errors[0].message and "Zora (" not in report.errors[0].message


# --- `pass`: a turn that could only use a wharf, let go (docs/formats/game-log.md, version 3) -----------
# Round 18 of a four-player game: Nils is the captain (Nils, Priya, Dita, Elif). After Dita's sugar
# the 6-ship is full of indigo: Elif's 2 indigo fit no cargo ship, only her wharf; Dita must still
# load her corn on the 7-ship, which fills it.

ROUND_18 = corpus_prefix("game-4p-2", 69)
ROUND_18_LOADS = ("Nils: 3 corn on 7", "Priya: 3 corn on 7", "Dita: 2 indigo on 6", "Elif: 1 indigo on 6", "Dita: 1 sugar on 5")
ROUND_18_KEEP = "  keep: {Priya: indigo, Dita: corn, Elif: indigo}\n"


def round_18(*moves: str, keep: str = ROUND_18_KEEP, more: str = "") -> str:
    return extend(ROUND_18, "- captain: Nils\n  moves:\n" + "".join(f"    - {m}\n" for m in moves) + keep + more)


def _outcome(text: str) -> list[tuple[object, ...]]:
    game = replayed(text)
    return [(b.name, b.vp, b.doubloons, dict(b.goods)) for b in game.boards] + [(s.size, s.good, s.count) for s in game.ships]


def test_a_player_who_could_only_use_their_wharf_may_write_pass_and_nothing_else_changes():
    with_pass = round_18(*ROUND_18_LOADS, "Elif: pass", "Dita: 1 corn on 7")
    assert_valid(check(with_pass))
    assert _outcome(with_pass) == _outcome(round_18(*ROUND_18_LOADS, "Dita: 1 corn on 7"))  # as the corpus game, which leaves her out


def test_after_a_pass_the_turn_goes_on_clockwise_as_if_the_player_were_skipped():
    # Elif let her turn go: Dita's load comes first, and Elif's wharf must wait for her next turn
    text = round_18(*ROUND_18_LOADS, "Elif: pass", "Elif: wharf indigo", "Dita: 1 corn on 7")
    report = check(text)
    assert_error(report, "turn.not-your-turn", line_of(text, "- Elif: wharf indigo"))
    # Dita's load is the next line: the lines are in the wrong order, and the sentence says so
    assert report.errors[0].message == (
        "Dita's move is written after Elif's, but Dita's turn comes first (in the captain phase the players load in turn, clockwise from Nils, "
        "while they can), and Dita may not pass (Dita must load 1 corn on the 7-ship): write Dita's move before Elif's"
    )
    # without Dita's load after it, it is said whose turn it is and what they must do
    alone = round_18(*ROUND_18_LOADS, "Elif: pass", "Elif: wharf indigo")
    assert "it is Dita's turn to load, not Elif's: Dita must load 1 corn on the 7-ship" in check(alone).errors[0].message
    later = round_18(*ROUND_18_LOADS, "Elif: pass", "Dita: 1 corn on 7", "Elif: wharf indigo", keep="  keep: {Priya: indigo, Dita: corn}\n")
    assert_valid(check(later))
    assert board(replayed(later), "Elif").goods.get("indigo", 0) == 0


def test_a_pass_from_a_player_who_must_load_is_refused_with_what_they_must_load():
    text = round_18("Nils: 3 corn on 7", "Priya: 3 corn on 7", "Dita: 2 indigo on 6", "Elif: pass")
    report = check(text)
    assert_error(report, "captain.no-pass", line_of(text, "- Elif: pass"))
    message = report.errors[0].message
    assert "Elif cannot pass: they must load 1 indigo on the 6-ship" in message and "Wharf" in message


def test_a_pass_from_a_player_whose_turn_it_is_not_is_refused():
    # after Dita's indigo it is Elif's turn, and she can load: Nils, after her, cannot let a turn go
    text = round_18("Nils: 3 corn on 7", "Priya: 3 corn on 7", "Dita: 2 indigo on 6", "Nils: pass")
    report = check(text)
    assert_error(report, "turn.not-your-turn", line_of(text, "- Nils: pass"))
    assert "it is Elif's turn to load, not Nils's: Elif must load 1 indigo on the 6-ship" in report.errors[0].message


def test_a_player_with_nothing_to_load_writes_nothing_not_pass():
    # Priya's indigo fits no cargo ship and she has no wharf: she is skipped, with nothing to write
    text = round_18(*ROUND_18_LOADS, "Priya: pass")
    report = check(text)
    assert_error(report, "captain.no-pass", line_of(text, "- Priya: pass"))
    assert "Priya has nothing to load" in report.errors[0].message and "Dita must load 1 corn on the 7-ship" in report.errors[0].message


def test_once_nobody_can_load_a_pass_is_accepted_once_until_someone_loads():
    done = (*ROUND_18_LOADS, "Dita: 1 corn on 7")  # the 7-ship is full: nobody can load on a cargo ship
    assert_valid(check(round_18(*done, "Elif: pass")))
    twice = round_18(*done, "Elif: pass", "Elif: pass")
    report = check(twice)
    assert_error(report, "captain.no-pass", line_of(twice, "- Elif: pass", 2))
    assert "Elif has passed already" in report.errors[0].message


def test_a_pass_does_not_let_the_phase_end_while_someone_can_load_on_a_cargo_ship():
    text = round_18(*ROUND_18_LOADS, "Elif: pass", more="- settler: Priya\n")
    report = check(text)
    assert_error(report, "captain.must-load", last_line_of(text, "- settler: Priya"))
    assert "Dita can load 1 corn on the 7-ship" in report.errors[0].message
    stopped = check(round_18(*ROUND_18_LOADS, "Elif: pass", keep=""))  # a log that stops there is in progress
    assert_valid(stopped)
    assert stopped.complete is False and "Dita can load 1 corn on the 7-ship" in (stopped.waiting or "")


def test_the_legal_moves_list_the_pass_where_it_is_allowed_and_only_there():
    from referee.engine import legal
    from referee.moves.clauses import Pass

    game = replayed(round_18(*ROUND_18_LOADS, keep=""))
    elif_, dita, priya = (next(i for i, b in enumerate(game.boards) if b.name == name) for name in ("Elif", "Dita", "Priya"))
    assert [m.text(game.rules) for m in legal.legal_moves(game, elif_)] == ["pass", "wharf indigo"]
    assert legal.count_moves(game, elif_) == 2 and legal.to_move(game) == [elif_, dita]
    assert Pass() not in legal.legal_moves(game, dita) and legal.legal_moves(game, priya) == []
    assert legal.accepts(game, elif_, Pass()) and not legal.accepts(game, dita, Pass()) and not legal.accepts(game, priya, Pass())


def test_a_barrels_vp_is_the_rulesets_in_the_replay_and_in_the_calculator(tmp_path):
    """Rules are data: a house ruleset that pays 2 VP a barrel shipped doubles every barrel's VP,
    in the engine's replay and in the shipping calculator alike (the captain's privilege and a
    harbor's VP stay 1)."""
    from referee.commands.ship import ship_object
    from referee.documents.inputs import Input
    from referee.documents.log import read_log
    from referee.jobs.replays import replay
    from tests.conftest import FIXTURES

    (tmp_path / "double.yaml").write_text("extends: base\nid: double\ntitle: Two VP a barrel\nbarrel_vp: 2\n")
    text = captain("Anna: indigo on 4", "Ben: indigo", "Cleo: corn on 5")
    assert [b.vp for b in replayed(text).boards] == [1 + 1, 1, 2]
    doubled = text.replace("ruleset: base", "ruleset: ./double.yaml")
    assert_valid(check(doubled, base_dir=tmp_path))
    game = replay(read_log(doubled, "game.yaml", base_dir=tmp_path)).game
    assert game is not None and [b.vp for b in game.boards] == [2 + 1, 2, 4]
    # the calculator: the forced position (Anna 2 corn and a harbor, Ben 3 indigo, Cleo 2 corn
    # of her 4, Dora 2 tobacco) answers 4, 3, 2, 2 in base; 2 VP a barrel: 6, 6, 4, 4
    position = (FIXTURES / "positions" / "forced.yaml").read_text()
    for ruleset, expected in (("base", [4, 3, 2, 2]), ("./double.yaml", [6, 6, 4, 4])):
        answer, code = ship_object(Input(position.replace("ruleset: base", f"ruleset: {ruleset}").encode(), "forced.yaml", tmp_path))
        assert code == 0, answer
        assert [answer["players"][name]["vp"]["guaranteed"] for name in ("Anna", "Ben", "Cleo", "Dora")] == expected


def test_a_wharf_owner_who_passed_with_nobody_able_to_load_may_not_use_the_wharf_after():
    """Ana let her turn go, nobody can load on a cargo ship and nobody loaded since: the loading is
    over for her (docs/rule-decisions.md); her keep follows."""
    from referee.jobs.check import check_log
    from tests.conftest import FIXTURES

    text = (FIXTURES / "next-cases" / "B-wharf-pass-reasked.yaml").read_text().rstrip("\n") + "\n      - Ana: wharf corn\n"
    report = check_log(text, "b.yaml")
    assert_error(report, "captain.loading-over", last_line_of(text, "- Ana: wharf corn"))
    before, _, after = text.rpartition("      - Ana: pass\n")
    assert_valid(check_log(before + after, "b.yaml"))  # without her pass, the wharf is hers to use
