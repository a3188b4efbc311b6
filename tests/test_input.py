"""Bad input is refused with exit 2 and a positioned message, never a traceback."""

from __future__ import annotations

import pytest

from referee.jobs.check import check_log

GOOD_HEAD = "ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo, sugar, corn, coffee]}\n"


def errors(data: bytes | str) -> list[tuple[str, int, int]]:
    report = check_log(data, "game.yaml")
    assert report.exit_code == 2, report.errors
    return [(d.rule, d.location.line, d.location.column) for d in report.errors]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", [("input.empty", 1, 1)]),
        (b"# only a comment\n", [("input.empty", 1, 1)]),
        (b"ruleset: base\n\x00\x01", [("input.binary", 2, 1)]),
        (b"ruleset: base\nplayers: [Anna, \xff]\n", [("input.encoding", 2, 17)]),
        (b"ruleset: base\nplayers: [Anna, Ben\n", [("yaml.syntax", 3, 1)]),
        (b"a: &x [1]\nb: *x\n", [("yaml.anchor", 1, 4)]),
        (b"a: {<<: {b: 1}}\n", [("yaml.anchor", 1, 5)]),
        (b"a: !!python/object:os.system 1\n", [("yaml.tag", 1, 4)]),
        (b"ruleset: base\nruleset: base\n", [("yaml.duplicate-key", 2, 1)]),
        (b"- a\n- b\n", [("log.not-a-mapping", 1, 1)]),
        (b"a: 1\n---\nb: 2\n", [("yaml.syntax", 2, 1)]),
    ],
    ids=["empty", "comment-only", "binary", "not-utf8", "syntax", "alias", "merge-key", "python-tag", "duplicate-key", "list", "two-documents"],
)
def test_unreadable_input_is_refused_with_its_position(data, expected):
    assert errors(data) == expected


def test_deep_nesting_is_refused():
    assert errors(("a: " + "[" * 200 + "]" * 200).encode())[0][0] == "yaml.too-deep"


def test_a_file_over_two_mebibytes_is_refused():
    assert errors(b"#" * (2 * 1024 * 1024 + 1)) == [("input.too-large", 1, 1)]


def test_unknown_top_level_key_names_the_known_keys():
    report = check_log(GOOD_HEAD + "phases: []\nfoo: 1\n", "game.yaml")
    (d,) = report.errors
    assert (d.rule, d.location.line, d.location.column) == ("log.schema", 5, 1)
    assert "unknown key 'foo'" in d.message and "phases" in d.message


def test_misspelt_top_level_key_gets_did_you_mean():
    report = check_log(GOOD_HEAD + "phase: []\n", "game.yaml")
    assert any("did you mean 'phases'" in d.message for d in report.errors)


def test_unknown_names_are_all_reported_with_suggestions():
    text = (
        "ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo, sugar, corn, cofee]}\n"
        "phases:\n  - settlr: Anna\n  - builder: Dan\n    moves:\n      - Anna: small markt\n"
    )
    report = check_log(text, "game.yaml")
    got = [(d.rule, d.location.line) for d in report.errors]
    assert got == [("log.unknown-name", 3), ("log.unknown-name", 5), ("log.unknown-player", 6), ("log.move", 8)]
    messages = " | ".join(d.message for d in report.errors)
    assert "did you mean 'coffee'" in messages
    assert "did you mean 'settler'" in messages
    assert "did you mean 'Small Market'" in messages
    assert report.exit_code == 2


def test_wrong_types_are_positioned():
    report = check_log("ruleset: base\nplayers: Anna\nsetup: {plantations: 3}\nphases: {a: 1}\n", "game.yaml")
    assert [(d.rule, d.location.line) for d in report.errors] == [("log.schema", 2), ("log.schema", 3), ("log.schema", 4)]


def test_negative_and_huge_numbers_are_refused():
    neg = GOOD_HEAD + "phases:\n  - prospector: Anna\n    doubloons: -3\n"
    assert errors(neg) == [("log.schema", 6, 16)]
    huge = GOOD_HEAD + "phases:\n  - builder: Anna\n    moves:\n      - Anna: small market for 99999999999999999999\n"
    assert errors(huge) == [("log.move", 7, 9)]


def test_a_list_where_a_mapping_belongs():
    report = check_log(GOOD_HEAD + "phases:\n  - [settler, Anna]\n", "game.yaml")
    assert report.exit_code == 2 and report.errors[0].location.line == 5


def test_unknown_ruleset_is_a_read_error_at_the_ruleset_key():
    report = check_log("ruleset: nope\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo]}\nphases: []\n", "game.yaml")
    assert [(d.rule, d.location.line, d.location.column) for d in report.errors] == [("ruleset.unknown", 1, 10)]


def test_duplicate_player_names_are_refused():
    report = check_log("ruleset: base\nplayers: [Anna, Ben, Anna]\nsetup: {plantations: [indigo, sugar, corn, coffee]}\nphases: []\n", "game.yaml")
    assert report.exit_code == 2 and "listed twice" in report.errors[0].message


def test_wrong_number_of_players():
    report = check_log("ruleset: base\nplayers: [Anna, Ben, Cleo, Dan, Eve, Fay]\nsetup: {plantations: [indigo]}\nphases: []\n", "game.yaml")
    assert [(d.rule, d.location.line) for d in report.errors] == [("log.players", 2)]


def test_a_move_with_two_players_is_refused():
    report = check_log(GOOD_HEAD + "phases:\n  - builder: Anna\n    moves:\n      - {Anna: pass, Ben: pass}\n", "game.yaml")
    assert [(d.rule, d.location.line) for d in report.errors] == [("log.move", 7)]


def test_a_phase_with_two_roles_is_refused():
    report = check_log(GOOD_HEAD + "phases:\n  - {builder: Anna, mayor: Ben}\n", "game.yaml")
    assert [d.rule for d in report.errors] == ["log.phase"]


def test_keep_outside_a_captain_phase_is_refused():
    report = check_log(GOOD_HEAD + "phases:\n  - builder: Anna\n    keep: {Anna: corn}\n", "game.yaml")
    assert [(d.rule, d.location.line) for d in report.errors] == [("log.phase", 6)]


def test_a_move_that_does_not_fit_the_phase_grammar():
    report = check_log(GOOD_HEAD + "phases:\n  - trader: Anna\n    moves:\n      - Anna: corn, sugar\n", "game.yaml")
    assert [(d.rule, d.location.line) for d in report.errors] == [("log.move", 7)]


def test_the_end_of_a_log_is_its_last_written_node():
    """A log's end (where a missing decision after its last phase is reported) is the line after
    its last node; found along the last children, it is the greatest line of the whole tree."""
    from referee.diagnostics import InputError
    from referee.documents.log import _last_line
    from referee.located.tree import YNode, read_yaml
    from tests.conftest import FIXTURES

    def greatest(node: YNode) -> int:
        children = node.value.values() if isinstance(node.value, dict) else node.value if isinstance(node.value, list) else []
        return max([node.line, *(greatest(child) for child in children)])

    paths = sorted(FIXTURES.rglob("*.yaml"))
    for path in paths:
        try:
            root = read_yaml(path.read_bytes(), path.name)
        except InputError:
            continue  # the mistakes of fixtures/broken
        assert _last_line(root) == greatest(root), path
    flow = read_yaml("{ruleset: base, phases: [{settler: Anna}, {mayor: Ben,\n moves: [{Ben: corn}]}]}\n", "flow.yaml")
    assert _last_line(flow) == greatest(flow) == 2
