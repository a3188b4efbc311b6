"""Settler phase: a face-up plantation each, the settler's quarry, construction hut, hacienda,
hospice, the `reveal` row (with the discards reshuffled when the stacks run out), full islands and
the end of the quarries.

Rules: the 2002 rulebook, "The Settler", "Hacienda", "Construction Hut", "Hospice";
docs/formats/game-log.md (settler moves, `reveal`); docs/rule-decisions.md.
"""

from __future__ import annotations

from tests.conftest import (
    CORPUS,
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

# Setup row [indigo, sugar, corn, coffee]; Anna and Ben start with indigo, Cleo with corn.
REVEAL = "  reveal: [corn, sugar, tobacco, indigo]\n"


def settler(moves: str, reveal: str = REVEAL) -> str:
    """Round 1: Anna takes the settler; `moves` are the move lines (`- Name: move`)."""
    body = "".join(f"    {line.strip()}\n" for line in moves.strip().splitlines())
    return game_log("- settler: Anna\n  moves:\n" + body + reveal)


# --- face-up plantations and the settler's quarry -----------------------------------------------


def test_settler_takes_a_quarry_and_the_others_face_up_plantations():
    text = settler("- Anna: quarry\n- Ben: coffee\n- Cleo: indigo")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Anna").island == {"indigo": 1, "quarry": 1}
    assert board(game, "Ben").island == {"indigo": 1, "coffee": 1}
    assert board(game, "Cleo").island == {"corn": 1, "indigo": 1}
    assert game.quarries == 7
    assert game.face_up == ["corn", "sugar", "tobacco", "indigo"]


def test_only_the_settler_may_take_a_quarry():
    text = settler("- Anna: coffee\n- Ben: quarry")
    report = check(text)
    assert_error(report, "settler.quarry", line_of(text, "- Ben: quarry"))
    message = report.errors[0].message
    assert "Anna" in message and "indigo" in message and "sugar" in message  # the settler, and the row Ben may take from


def test_a_plantation_that_is_not_face_up_cannot_be_taken():
    text = settler("- Anna: coffee\n- Ben: tobacco")
    report = check(text)
    assert_error(report, "settler.not-face-up", line_of(text, "- Ben: tobacco"))
    assert "indigo, sugar and corn" in report.errors[0].message


def test_a_plantation_taken_by_an_earlier_player_is_gone():
    text = settler("- Anna: coffee\n- Ben: coffee")
    assert_error(check(text), "settler.not-face-up", line_of(text, "- Ben: coffee"))


def test_each_player_takes_at_most_one_plantation():
    text = settler("- Anna: coffee\n- Ben: sugar\n- Ben: corn")
    assert_error(check(text), "turn.not-your-turn", line_of(text, "- Ben: corn"))


def test_a_player_left_out_has_passed_and_cannot_move_later():
    text = settler("- Anna: coffee\n- Cleo: sugar\n- Ben: corn")
    report = check(text)
    assert_error(report, "turn.not-your-turn", line_of(text, "- Ben: corn"))


def test_players_may_pass():
    text = settler("- Anna: pass\n- Ben: coffee", reveal="  reveal: [corn, sugar, tobacco, tobacco]\n")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").island == {"indigo": 1}


# --- the new face-up row ----------------------------------------------------------------------------


def test_the_reveal_must_name_players_plus_one_plantations():
    text = settler("- Anna: coffee", reveal="  reveal: [corn, sugar, tobacco]\n")
    report = check(text)
    assert_error(report, "settler.reveal", line_of(text, "reveal:"))
    assert "4" in report.errors[0].message


def test_a_missing_reveal_is_reported_at_the_settler_phase_once_play_goes_on():
    text = settler("- Anna: coffee", reveal="") + "  - builder: Ben\n"
    assert_error(check(text), "settler.reveal-missing", line_of(text, "- settler: Anna"))


def test_the_last_face_up_row_of_the_game_may_be_left_out():
    """Corpus game 4p-4's last settler phase is played in the game's last round: the row it draws
    would never be taken from, so the log is complete without that `reveal`, and scores the same
    (docs/rule-decisions.md, "The last face-up row")."""
    text = (CORPUS / "game-4p-4.yaml").read_text()
    last = "    reveal: [corn, tobacco, sugar, indigo, coffee]\n"
    assert text.count(last) == 1 and text.rindex("reveal:") == text.index(last) + len("    ")
    written, left_out = check(text), check(text.replace(last, ""))
    assert_valid(left_out)
    assert left_out.complete is True and left_out.scores is not None and written.scores is not None
    assert [(s.player, s.total) for s in left_out.scores] == [(s.player, s.total) for s in written.scores]


def test_a_log_that_stops_before_the_reveal_is_a_game_in_progress():
    report = check(settler("- Anna: coffee", reveal=""))
    assert_valid(report)
    assert report.complete is False
    assert report.waiting == (
        "the settler phase: Ben may take a plantation (indigo, sugar and corn); "
        "then the settler phase needs a 'reveal' key: the new face-up row of 4 plantations"
    )
    everyone = check(settler("- Anna: coffee\n- Ben: pass\n- Cleo: pass", reveal=""))
    assert everyone.waiting == "the settler phase needs a 'reveal' key: the new face-up row of 4 plantations"


# The stacks hold indigo, sugar and tobacco (one each); 25 tiles lie in the discards after this phase.
RESHUFFLE = corpus_prefix("game-3p-4", 42)  # round 15, governor Ivan; face up: coffee, sugar, tobacco, sugar


def reshuffle(reveal: str) -> str:
    return extend(
        RESHUFFLE,
        f"""
        - settler: Ivan
          moves:
            - Ivan: coffee
            - Kai: sugar
          reveal: [{reveal}]
        """,
    )


def test_when_the_stacks_run_out_the_last_tiles_are_drawn_then_the_discards_reshuffled():
    text = reshuffle("indigo, sugar, tobacco, corn")
    assert_valid(check(text))
    game = replayed(text)
    assert game.face_up == ["indigo", "sugar", "tobacco", "corn"]
    assert sum(game.discards.values()) == 0
    assert sum(game.deck.values()) == 24  # 23 discards + the 2 face-up tiles left, less the corn drawn from them
    assert game.deck["corn"] == 2


def test_a_reshuffled_reveal_must_first_take_the_last_face_down_tiles():
    text = reshuffle("sugar, tobacco, corn, corn")  # the last indigo of the stacks is left out
    report = check(text)
    assert_error(report, "settler.reveal", last_line_of(text, "reveal: [sugar"))
    assert "indigo" in report.errors[0].message


def test_a_reshuffled_reveal_still_fills_the_whole_row():
    text = reshuffle("indigo, sugar, tobacco")
    assert_error(check(text), "settler.reveal", last_line_of(text, "reveal: [indigo"))


# Round 14 of a five-player game: no face-down tile left, 3 indigo in the discards, one quarry left;
# Farah is governor, Sofia has an occupied construction hut.
LAST_TILES = corpus_prefix("game-5p-3", 65)


def test_when_stacks_and_discards_cannot_fill_the_row_the_reveal_names_fewer():
    moves = """
    - settler: Farah
      moves:
        - Farah: quarry
        - Olga: tobacco
        - Sofia: coffee
        - Tariq: sugar
        - Bruno: sugar
      reveal: [indigo, indigo, indigo, indigo, sugar]
    """
    text = extend(LAST_TILES, moves)
    assert_valid(check(text))
    assert replayed(text).face_up == ["indigo", "indigo", "indigo", "indigo", "sugar"]
    six = extend(LAST_TILES, moves.replace("[indigo, indigo, indigo, indigo, sugar]", "[indigo, indigo, indigo, indigo, sugar, sugar]"))
    report = check(six)
    assert_error(report, "settler.reveal", last_line_of(six, "reveal: [indigo, indigo"))
    assert "5" in report.errors[0].message


def test_a_reshuffled_reveal_cannot_name_tiles_the_discards_do_not_hold():
    text = extend(
        LAST_TILES,
        """
        - settler: Farah
          moves:
            - Farah: quarry
            - Olga: tobacco
            - Sofia: coffee
            - Tariq: sugar
            - Bruno: sugar
          reveal: [indigo, indigo, indigo, indigo, coffee]
        """,
    )
    report = check(text)
    assert_error(report, "settler.reveal", last_line_of(text, "reveal: [indigo"))
    assert "coffee" in report.errors[0].message


def test_no_quarry_can_be_taken_once_they_are_gone():
    text = extend(
        LAST_TILES,
        """
        - settler: Farah
          moves:
            - Farah: quarry
            - Olga: pass
            - Sofia: quarry
        """,
    )
    report = check(text)
    assert_error(report, "settler.no-quarry", last_line_of(text, "- Sofia: quarry"))
    assert "tobacco" in report.errors[0].message  # the face-up row she may take from instead


def test_a_construction_hut_takes_the_last_quarry_if_the_settler_leaves_it():
    text = extend(
        LAST_TILES,
        """
        - settler: Farah
          moves:
            - Farah: coffee
            - Sofia: quarry
          reveal: [indigo, indigo, indigo, tobacco, sugar, sugar]
        """,
    )
    assert_valid(check(text))
    game = replayed(text)
    assert game.quarries == 0 and board(game, "Sofia").island["quarry"] == 5


# --- construction hut and hacienda (bought in round 1) --------------------------------------------------


def with_building(building: str, arrangement: str, settler_moves: str) -> str:
    """Round 1: Anna builds `building` (builder's privilege: 1 doubloon), the mayor phase gives her
    one colonist (`arrangement`), then Cleo's settler phase with `settler_moves`."""
    body = "".join(f"    {line.strip()}\n" for line in settler_moves.strip().splitlines())
    return game_log(
        "- builder: Anna\n"
        "  moves:\n"
        f"    - Anna: {building} for 1\n"
        "- mayor: Ben\n"
        "  moves:\n"
        f"    - Anna: {arrangement}\n"
        "- settler: Cleo\n"
        "  moves:\n" + body + "  reveal: [corn, sugar, tobacco, tobacco]\n"
    )


def test_an_occupied_construction_hut_lets_a_non_settler_take_a_quarry():
    text = with_building("construction hut", "construction hut", "- Cleo: sugar\n- Anna: quarry")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").island == {"indigo": 1, "quarry": 1}


def test_an_unoccupied_construction_hut_does_not():
    text = with_building("construction hut", "indigo", "- Cleo: sugar\n- Anna: quarry")
    assert_error(check(text), "settler.quarry", line_of(text, "- Anna: quarry"))


def test_hacienda_draws_a_face_down_tile_before_the_normal_pick():
    text = with_building("hacienda", "hacienda", "- Cleo: sugar\n- Anna: hacienda tobacco, coffee")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Anna").island == {"indigo": 1, "tobacco": 1, "coffee": 1}
    assert game.deck["tobacco"] == 9 - 1 - 2  # the hacienda's tile, then the two in the new row


def test_hacienda_tile_alone_without_a_normal_pick():
    text = with_building("hacienda", "hacienda", "- Cleo: sugar\n- Anna: hacienda tobacco")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").island == {"indigo": 1, "tobacco": 1}


# Round 21 of a four-player game: the face-down stacks are empty, 9 tiles lie in the discards
# (2 tobacco); Nils has an occupied hacienda, Hugo is governor.
EMPTY_STACKS = corpus_prefix("game-4p-1", 80)


def test_a_hacienda_drawing_from_empty_stacks_draws_from_the_reshuffled_discards():
    """docs/rule-decisions.md, "The last face-up row": the discards are reshuffled into a new
    stack, and the hacienda's tile comes from it."""
    before = replayed(EMPTY_STACKS)
    assert sum(before.deck.values()) == 0 and before.discards["tobacco"] == 2
    text = extend(EMPTY_STACKS, "- settler: Hugo\n  moves:\n    - Hugo: pass\n    - Nils: hacienda tobacco, indigo\n")
    report = check(text)
    assert_valid(report)
    game = replayed(text)
    assert board(game, "Nils").island["tobacco"] == board(before, "Nils").island["tobacco"] + 1
    assert sum(game.discards.values()) == 0 and game.deck["tobacco"] == 1  # the other 8 discards make the new stack


def test_without_an_occupied_hacienda_no_face_down_tile_is_drawn():
    text = with_building("hacienda", "indigo", "- Cleo: sugar\n- Anna: hacienda tobacco, coffee")
    assert_error(check(text), "settler.hacienda", line_of(text, "- Anna: hacienda tobacco"))


def test_the_hacienda_tile_cannot_be_a_quarry():
    # The move reads well ("hacienda" and a tile): breaking the hacienda's rule is a rule error
    # (exit 1) at its line, not a reading error.
    text = with_building("hacienda", "hacienda", "- Cleo: sugar\n- Anna: hacienda quarry")
    report = check(text)
    assert_error(report, "settler.hacienda", line_of(text, "- Anna: hacienda quarry"))
    assert report.exit_code == 1
    assert "draws a face-down plantation, never a quarry" in report.errors[0].message


# Round 15 of a four-player game: only one tobacco is left face down; Lena (settler) and Yusuf have
# an occupied hacienda and hospice, Sami has neither; 8 colonists in the supply.
HOSPICE = corpus_prefix("game-4p-3", 57)


def hospice(lena: str, sami: str = "corn", yusuf: str = "tobacco, hospice", reveal: str = "indigo, indigo, sugar, corn, coffee") -> str:
    return extend(
        HOSPICE,
        f"""
        - settler: Lena
          moves:
            - Lena: {lena}
            - Sami: {sami}
            - Carla: sugar
            - Yusuf: {yusuf}
          reveal: [{reveal}]
        """,
    )


def test_hospice_puts_a_colonist_on_the_picked_tile_but_not_on_the_hacienda_tile():
    text = hospice("hacienda tobacco, coffee, hospice")
    before = replayed(HOSPICE)
    assert_valid(check(text))
    game = replayed(text)
    lena, lena_before = board(game, "Lena"), board(before, "Lena")
    assert lena.island["tobacco"] == lena_before.island["tobacco"] + 1
    assert lena.island["coffee"] == lena_before.island["coffee"] + 1
    assert lena.manned["coffee"] == lena_before.manned["coffee"] + 1
    assert lena.manned["tobacco"] == lena_before.manned["tobacco"]  # the hacienda tile stays empty
    assert game.colonist_supply == before.colonist_supply - 2  # Lena's and Yusuf's


def test_hospice_works_on_the_settlers_quarry():
    text = hospice("quarry, hospice", reveal="tobacco, indigo, sugar, corn, coffee")  # the last stack tile first
    assert_valid(check(text))
    assert board(replayed(text), "Lena").manned.get("quarry") == 1


def test_without_a_hospice_no_colonist_comes_with_the_tile():
    text = hospice("coffee", sami="corn, hospice")
    assert_error(check(text), "settler.hospice", last_line_of(text, "- Sami: corn, hospice"))


def test_the_hospice_colonist_needs_a_tile_from_the_row_not_the_hacienda_tile_alone():
    text = hospice("hacienda tobacco, hospice")
    report = check(text)
    assert_error(report, "settler.hospice", last_line_of(text, "- Lena: hacienda tobacco, hospice"))
    assert report.exit_code == 1
    assert "Lena took only the Hacienda's face-down plantation" in report.errors[0].message


def test_a_hospice_colonist_with_no_tile_at_all_is_a_rule_error():
    text = hospice("hospice")
    report = check(text)
    assert_error(report, "settler.hospice", last_line_of(text, "- Lena: hospice"))
    assert "Lena took no tile" in report.errors[0].message


def test_hacienda_must_name_a_kind_the_stacks_still_hold():
    text = hospice("hacienda coffee, coffee")
    report = check(text)
    assert_error(report, "settler.draw", last_line_of(text, "- Lena: hacienda coffee"))
    assert "tobacco" in report.errors[0].message


# Round 22 of a three-player game: the colonist supply is empty, 3 colonists wait on the ship;
# Zora has an occupied hospice.
EMPTY_SUPPLY = corpus_prefix("game-3p-2", 65)


def test_hospice_takes_from_the_ship_when_the_supply_is_empty():
    text = extend(
        EMPTY_SUPPLY,
        """
        - settler: Lena
          moves:
            - Lena: coffee
            - Zora: coffee, hospice
          reveal: [sugar, tobacco, coffee, indigo]
        """,
    )
    before = replayed(EMPTY_SUPPLY)
    assert before.colonist_supply == 0 and before.colonist_ship == 3
    assert_valid(check(text))
    game = replayed(text)
    assert game.colonist_ship == 2
    assert board(game, "Zora").manned["coffee"] == 1


# --- full islands ---------------------------------------------------------------------------------------

# Round 23 of a three-player game: Ana's island is full (12 tiles); she owns an occupied hacienda.
FULL_ISLAND = corpus_prefix("game-3p-2", 67)


def full_island(ana: str) -> str:
    return extend(
        FULL_ISLAND,
        f"""
        - settler: Lena
          moves:
            - Lena: tobacco
            - Zora: coffee
            - Ana: {ana}
          reveal: [sugar, sugar, corn, indigo]
        """,
    )


def test_a_full_island_takes_no_plantation():
    assert board(replayed(FULL_ISLAND), "Ana").island_filled() == 12
    text = full_island("tobacco")
    assert_error(check(text), "settler.island-full", last_line_of(text, "- Ana: tobacco"))


def test_a_full_island_cannot_use_the_hacienda_either():
    text = full_island("hacienda corn")
    assert_error(check(text), "settler.island-full", last_line_of(text, "- Ana: hacienda corn"))


def test_a_full_island_passes():
    assert_valid(check(full_island("pass")))


def test_a_hospice_clause_with_no_colonist_left_is_refused():
    """Supply and ship empty: "if there are also none there, you go without" (docs/rule-decisions.md);
    with a colonist on the ship, the clause above is accepted."""
    from referee.jobs.check import check_log
    from tests.conftest import FIXTURES

    cases = FIXTURES / "next-cases"
    played = (cases / "C2-hospice-no-colonist-played.yaml").read_text()
    report = check_log(played, "c2.yaml", base_dir=cases)
    assert_error(report, "settler.no-colonist", last_line_of(played, "- Ana: coffee, hospice"))
    assert report.errors[0].message.startswith("no colonist is left in the supply or on the colonist ship, so the Hospice's colonist cannot come")
    without = played.replace("- Ana: coffee, hospice", "- Ana: coffee")
    assert_valid(check_log(without, "c2.yaml", base_dir=cases))
