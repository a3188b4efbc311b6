"""Diagnostics of illegal moves end with what was legal there (shortened when long)."""

from __future__ import annotations

from tests.conftest import check, game_log, line_of


def test_an_illegal_build_lists_the_legal_builds_shortened():
    text = game_log("""
        - builder: Anna
          moves:
            - Anna: harbor
        """)
    (d,) = check(text).errors
    assert (d.rule, d.location.line) == ("builder.cannot-afford", line_of(text, "- Anna: harbor"))
    assert "(legal here for Anna: 'pass', 'small indigo plant for 0', 'small sugar mill for 1'" in d.message
    assert d.message.endswith("more)")


def test_a_short_list_is_given_whole():
    text = game_log("""
        - settler: Anna
          moves:
            - Anna: tobacco
        """)
    (d,) = check(text).errors
    assert d.rule == "settler.not-face-up"
    assert d.message.endswith("(legal here for Anna: 'pass', 'indigo', 'sugar', 'corn', 'coffee' or 'quarry')")


def test_a_player_with_no_legal_move_is_told_who_moves_next():
    text = game_log("""
        - mayor: Anna
        - craftsman: Ben
        - captain: Cleo
          moves:
            - Ben: 1 corn on 4
        """)
    (d,) = check(text).errors
    assert (d.rule, d.location.line) == ("turn.not-your-turn", line_of(text, "- Ben: 1 corn on 4"))
    assert d.message.endswith("(Ben has no legal move here; next to move: Cleo)")


def test_a_role_error_names_the_roles_still_open_once():
    text = game_log("""
        - builder: Anna
        - builder: Ben
        """)
    (d,) = check(text).errors
    assert d.rule == "role.taken" and d.message.count("legal here") == 0 and "Ben may choose" in d.message


def test_plurals_of_the_rulesets_words():
    from referee.ground.wording import plural

    assert [plural(w) for w in ("quarry", "forest", "day", "box", "estate", "coin")] == ["quarries", "forests", "days", "boxes", "estates", "coins"]
