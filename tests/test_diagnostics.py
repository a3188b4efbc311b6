"""Diagnostics of illegal moves end with what was legal there (shortened when long)."""

from __future__ import annotations

import pytest

from referee.diagnostics import InputError
from referee.documents.position import read_position
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


def test_a_log_says_at_most_fifty_problems_a_position_every_one():
    """A log's problems are cut at 50 (a log broken throughout would fill a terminal); a
    shipping position's are few, each said."""
    moves = "\n".join(f"    - Zed{k}: coffee" for k in range(60))  # sixty moves by players not in the game
    text = game_log(f"- settler: Anna\n  moves:\n{moves}\n")
    report = check(text)
    assert len(report.errors) == 50 and {d.rule for d in report.errors} == {"log.unknown-player"}
    goods = ", ".join(f"gold{k}: 1" for k in range(11))  # eleven goods unknown to each of five players
    players = "\n".join(f"  - {{name: P{k}, goods: {{{goods}}}}}" for k in range(5))
    with pytest.raises(InputError) as refused:
        read_position(f"ruleset: base\nships: {{6: empty, 7: empty, 8: empty}}\nplayers:\n{players}\n", "position.yaml")
    assert len(refused.value.diagnostics) == 55 and {d.rule for d in refused.value.diagnostics} == {"position.unknown-name"}
