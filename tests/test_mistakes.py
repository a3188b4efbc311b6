"""Mistakes players make writing a log, a score sheet or a shipping position by hand, each
explained in the document's own terms at the line of the mistake, with the form expected.

Each file of fixtures/broken says on its second line what the referee must answer
(`# expect: LINE:COLUMN: error[RULE]: SENTENCE`); the file name says which document it is.
"""

from __future__ import annotations

import pytest

from referee.diagnostics import InputError
from referee.documents.position import read_position
from referee.jobs.check import check_log, score_sheet
from referee.render.report import diagnostic_line
from tests.conftest import FIXTURES

MISTAKES = sorted((FIXTURES / "broken").glob("*.yaml"))


def answer(path) -> list[str]:
    """The diagnostics of the file, as `LINE:COLUMN: error[RULE]: SENTENCE` lines."""
    data = path.read_bytes()
    kind = path.name.split("-")[0]
    if kind == "log":
        report = check_log(data, path.name)
        errors, code = report.errors, report.exit_code
    elif kind == "sheet":
        report = score_sheet(data, path.name)
        errors, code = report.errors, report.exit_code
    else:
        assert kind == "position", path.name
        with pytest.raises(InputError) as raised:
            read_position(data, path.name)
        errors, code = raised.value.diagnostics, 2
    assert code == 2  # a mistake of writing is a reading error, never a broken rule
    return [diagnostic_line(d, path.name).removeprefix(f"{path.name}:").strip() for d in errors]


def test_there_are_mistakes_of_every_kind():
    assert {p.name.split("-")[0] for p in MISTAKES} == {"log", "sheet", "position"}
    assert len(MISTAKES) >= 12


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.stem)
def test_a_mistake_is_explained_at_its_line(path):
    expected = path.read_text().splitlines()[1].removeprefix("# expect:").strip()
    assert answer(path) == [expected]


# The layout mistakes of a hand-written log (issue 28): each file of fixtures/broken with the
# rule, the line and the words its answer must have. None may give the parser's words, nor the
# advice to add a dash that would make the line a new phase or a move.
LAYOUT = [
    ("log-moves-under-the-dash", "yaml.syntax", 15, ["'moves:' is indented 2 spaces", "like the dash of the phase of line 14", "indented 4 spaces", "write `    moves:`"]),
    ("log-reveal-under-the-dashes", "yaml.syntax", 13, ["'reveal:' is indented 6 spaces", "the move of line 12", "the phase of line 7", "write `    reveal: ["]),
    ("log-move-too-far-left", "yaml.syntax", 17, ["this move is indented 4 spaces", "like 'moves:' (line 15)", "indented 6 spaces", "write `      - Carla: small indigo plant`"]),
    ("log-first-move-too-far-left", "yaml.syntax", 16, ["this move is indented 5 spaces", "indented 6 spaces, as on line 17", "write `      - Bruno: small market`"]),
    ("log-phase-at-column-1", "yaml.syntax", 14, ["this phase is not indented", "like 'phases:' (line 6)", "indented 2 spaces", "write `  - builder: Bruno`"]),
    ("log-over-indented-phase", "yaml.syntax", 18, ["this phase is indented 4 spaces", "like 'moves:' (line 15)", "indented 2 spaces", "write `  - trader: Carla`"]),
    ("log-tab", "yaml.syntax", 17, ["indented with a tab", "spaces only", "indented 6 spaces", "write `      - Carla: small indigo plant`"]),
    ("log-one-space-indent", "yaml.syntax", 18, ["this phase is indented 3 spaces", "indented 2 spaces", "write `  - trader: Carla`"]),
]
NEVER = ("did not find expected", "while parsing", "while scanning", "YAML syntax error", "`- moves", "`- reveal", "`- - ")


def diagnostics_of(name: str):
    report = check_log((FIXTURES / "broken" / f"{name}.yaml").read_bytes(), f"{name}.yaml")
    assert report.exit_code == 2
    return report.errors


@pytest.mark.parametrize(("name", "rule", "line", "words"), LAYOUT, ids=[case[0] for case in LAYOUT])
def test_a_layout_mistake_says_how_far_the_line_is_indented_and_how_to_write_it(name, rule, line, words):
    (error,) = diagnostics_of(name)
    assert (error.rule, error.location.line) == (rule, line)
    for word in words:
        assert word in error.message
    assert not any(wrong in error.message for wrong in NEVER)


@pytest.mark.parametrize("name", [case[0] for case in LAYOUT])
def test_the_line_written_as_the_answer_says_is_read(name):
    """The advice is right: the line written as the answer gives it makes a log that is read
    (and the same log as the one written correctly: every move in its place)."""
    (error,) = diagnostics_of(name)
    fixed = error.message.rsplit("write `", 1)[1].removesuffix("`")
    lines = (FIXTURES / "broken" / f"{name}.yaml").read_text().split("\n")
    lines[error.location.line - 1] = fixed
    report = check_log("\n".join(lines).encode(), f"{name}.yaml")
    assert report.exit_code == 0, report.errors
    assert report.moves == 10


def test_a_key_among_the_moves_still_gets_its_dash():
    """A player's move without its dash is a move: the dash is the advice (a phase's key is not)."""
    text = "ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo, sugar, corn, coffee]}\nphases:\n  - settler: Anna\n    moves:\n      - Anna: quarry\n      Ben: coffee\n"
    (error,) = check_log(text.encode(), "dash.yaml").errors
    assert (error.location.line, error.message) == (8, "the items of this list start with '- ': write `- Ben: coffee`")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        # a score sheet: a key a space short of its player's others, or too deep
        ("ruleset: base\nplayers:\n  Anna:\n    chips: 20\n   buildings: [harbor]\n  Ben: {chips: 18}\n", 5, "'buildings:' is indented 3 spaces; the keys under 'Anna:' (line 3) are indented 4 spaces"),
        ("ruleset: base\nplayers:\n  Anna:\n    chips: 20\n      buildings: [harbor]\n  Ben: {chips: 18}\n", 5, "write `    buildings: [harbor]`"),
        # a log's first line indented: a document starts at the start of its line
        ("  ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo, sugar, corn, coffee]}\nphases:\n  - settler: Anna\n", 1, "write `ruleset: base`"),
        # a keep entry written at column 1, between two in their place
        ("ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo, sugar, corn, coffee]}\nphases:\n  - captain: Anna\n    keep:\n      Anna: corn\nBen: corn\n      Cleo: corn\n", 8, "write `      Ben: corn`"),
    ],
)
def test_layout_mistakes_in_other_places(text, line, words):
    from referee.documents.log_outline import log_outline
    from referee.located.tree import read_yaml

    with pytest.raises(InputError) as raised:  # a log is read with its outline, as its reader does
        read_yaml(text, "doc.yaml", log_outline if "phases:" in text else None)
    (error,) = raised.value.diagnostics
    assert error.location.line == line and words in error.message, error.message


# A move word misspelled is told the word, as a misspelled name is (issue 28).
MOVE_WORDS = "ruleset: base\nplayers: [Anna, Bruno, Carla, Dev]\nsetup: {plantations: [indigo, sugar, corn, coffee, tobacco]}\nphases:\n  - ROLE: Anna\n    moves:\n      - Anna: MOVE\n"


@pytest.mark.parametrize(
    ("role", "move", "said"),
    [
        ("trader", "passes", "Anna: unknown good 'passes' (did you mean 'pass'?)"),
        ("builder", "passes", "Anna: unknown building 'passes' (did you mean 'pass'?)"),
        ("captain", "Pass.", "Anna: unknown good 'Pass.' (did you mean 'pass'?)"),
        ("craftsman", "extr corn", "(did you mean 'extra'?)"),
        ("captain", "corn onn 5", "(did you mean 'on' or 'corn'?)"),
        ("builder", "small market fo 1", "(did you mean 'for' or 'Small Market' or 'Small Warehouse'?)"),
    ],
)
def test_a_misspelled_move_word_gets_did_you_mean(role, move, said):
    (error,) = check_log(MOVE_WORDS.replace("ROLE", role).replace("MOVE", move).encode(), "words.yaml").errors
    assert (error.rule, error.location.line) == ("log.move", 7)
    assert said in error.message


@pytest.mark.parametrize(("role", "move"), [("trader", "pasta"), ("trader", "cornn"), ("builder", "harbour for 8")])
def test_a_word_far_from_every_move_word_gets_no_move_word(role, move):
    (error,) = check_log(MOVE_WORDS.replace("ROLE", role).replace("MOVE", move).encode(), "words.yaml").errors
    assert "'pass'" not in error.message and "'for'" not in error.message


# A move written after the next player's, in every phase where the order is the rules' (issue 28):
# who was written after whom, whose turn comes first, and what to write. Round 1 of a four-player
# game; Carla is mayor, Dev craftsman; round 2 (governor Bruno) is the phase of the case.
ROUND_1 = """ruleset: base
players: [Anna, Bruno, Carla, Dev]
setup: {plantations: [indigo, sugar, corn, coffee, tobacco]}
phases:
  - settler: Anna
    moves:
      - Anna: quarry
      - Bruno: coffee
      - Carla: indigo
      - Dev: sugar
    reveal: [corn, sugar, tobacco, indigo, corn]
  - builder: Bruno
    moves:
      - Bruno: small market
      - Carla: small indigo plant
"""
MAYOR = "  - mayor: Carla\n    moves:\n      - Carla: indigo, corn\n      - Dev: corn\n      - Anna: indigo\n      - Bruno: coffee\n  - craftsman: Dev\n"
OUT_OF_ORDER = [
    (
        "mayor",
        "  - mayor: Carla\n    moves:\n      - Dev: sugar\n      - Carla: indigo, corn\n",
        "Carla's move is written after Dev's, but Carla's turn comes first (in the mayor phase each player moves once, clockwise from Carla: "
        "Carla, Dev, Anna, Bruno), and Carla may not pass (Carla must give their arrangement: 2 colonists for 3 circles, so not every circle "
        "can be filled): write Carla's move before Dev's",
    ),
    (
        "captain",
        MAYOR + "  - captain: Bruno\n    moves:\n      - Dev: corn on 5\n      - Carla: corn on 5\n",
        "Carla's move is written after Dev's, but Carla's turn comes first (in the captain phase the players load in turn, clockwise from Bruno, "
        "while they can), and Carla may not pass (Carla must load 1 corn on the 5-ship or the 6-ship or the 7-ship): write Carla's move before Dev's",
    ),
    (
        "trader",
        MAYOR + "  - trader: Bruno\n    moves:\n      - Dev: corn\n      - Carla: pass\n",
        "Carla's move is written after Dev's, but Carla's turn comes first (in the trader phase each player moves once, clockwise from Bruno: "
        "Bruno, Carla, Dev, Anna); a player left out of the moves passes, so Dev's move passed Carla: write Carla's move before Dev's",
    ),
    (
        "settler",
        MAYOR + "  - settler: Bruno\n    moves:\n      - Carla: sugar\n      - Bruno: corn\n",
        "Bruno's move is written after Carla's, but Bruno's turn comes first (in the settler phase each player moves once, clockwise from Bruno: "
        "Bruno, Carla, Dev, Anna); a player left out of the moves passes, so Carla's move passed Bruno: write Bruno's move before Carla's",
    ),
]


@pytest.mark.parametrize(("phase", "moves", "said"), OUT_OF_ORDER, ids=[case[0] for case in OUT_OF_ORDER])
def test_a_move_written_after_the_next_players_says_which_to_write_first(phase, moves, said):
    text = ROUND_1 + moves
    (error,) = check_log(text.encode(), "order.yaml").errors
    assert (error.rule, error.message) == ("turn.not-your-turn", said)
    assert "no legal move here" not in error.message and "next to move" not in error.message
    # written in the order the sentence gives, the phase is legal
    lines = text.rstrip("\n").split("\n")
    lines[-2], lines[-1] = lines[-1], lines[-2]
    assert check_log("\n".join(lines).encode(), "order.yaml").errors == []


def test_a_mayor_who_owes_an_arrangement_written_nowhere_is_told_so():
    """With no line of Carla's in the phase, the lines are not in the wrong order: Carla's
    arrangement is missing, and that is what is said."""
    (error,) = check_log((ROUND_1 + "  - mayor: Carla\n    moves:\n      - Dev: sugar\n").encode(), "order.yaml").errors
    assert error.rule == "mayor.arrangement-missing"
    assert error.message == (
        "Carla must give their arrangement: 2 colonists for 3 circles, so not every circle can be filled "
        "(Carla's turn comes before Dev's: write Carla's move first)"
    )


# The schema's words never reach a user (issue 28): each document's mistakes said in its own
# words, and a file given to the command that does not read it told which command does.
SCHEMA_WORDS = ("input should", "instance of", "this key is required", "valid integer", "valid dictionary", "valid string", "greater than or equal", "Value error")
SHEET_TEXT = "ruleset: base\nplayers:\n  Anna: {chips: 20}\n  Ben: {chips: 18}\n  Cleo: {chips: 2}\n"
POSITION_TEXT = "ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nplayers:\n  - {name: Anna, goods: {corn: 2}}\n  - {name: Ben}\n  - {name: Cleo}\n"
LOG_TEXT = "ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo, sugar, corn, coffee]}\nphases:\n  - settler: Anna\n"


def errors_of(kind: str, text: str, name: str = "doc.yaml") -> list[str]:
    """The diagnostics of `text` read as a `kind` (log, sheet, position), as the command line prints them."""
    data = text.encode()
    if kind == "log":
        errors = check_log(data, name).errors
    elif kind == "sheet":
        errors = score_sheet(data, name).errors
    else:
        with pytest.raises(InputError) as raised:
            read_position(data, name)
        errors = raised.value.diagnostics
    return [diagnostic_line(d, name) for d in errors]


@pytest.mark.parametrize(
    ("kind", "text", "said"),
    [
        ("sheet", SHEET_TEXT.replace("{chips: 20}", "{chips: twenty}"), "doc.yaml:3:17: error[sheet.schema]: chips must be a whole number, not 'twenty'"),
        ("sheet", SHEET_TEXT.replace("{chips: 18}", "{chips: 18, doubloons: -1}"), "doc.yaml:4:31: error[sheet.schema]: doubloons must be 0 or more, not -1"),
        (
            "sheet",
            SHEET_TEXT.replace("{chips: 2}", "{buildings: [harbor]}"),
            "doc.yaml:5:9: error[sheet.schema]: each player needs 'chips' (shipping VP: chips, and any noted on paper), and Cleo has none",
        ),
        ("sheet", "ruleset: base\nplayers: {}\n", "doc.yaml:2:10: error[sheet.schema]: a score sheet needs at least 1 player in 'players'"),
        ("position", POSITION_TEXT.replace("{corn: 2}", "{corn: -1}"), "doc.yaml:4:32: error[position.schema]: goods: corn must be 0 or more, not -1"),
        (
            "position",
            POSITION_TEXT.replace("  - {name: Anna, goods: {corn: 2}}\n  - {name: Ben}\n  - {name: Cleo}\n", "  - Anna\n  - {name: Ben}\n  - {name: Cleo}\n"),
            "doc.yaml:4:5: error[position.schema]: each item of players is a mapping of name, goods and buildings (`key: value`), not 'Anna'",
        ),
        (
            "position",
            POSITION_TEXT.replace("{name: Ben}", "{goods: {corn: 1}}"),
            "doc.yaml:5:5: error[position.schema]: each player needs 'name' (the player's name (free text, unique in the position)), and the 2nd has none",
        ),
        (
            "log",
            LOG_TEXT.replace("ruleset: base", "ruleset: [base]"),
            "doc.yaml:1:10: error[log.schema]: ruleset is a bundled ruleset (base, expansion-1, 1897) or a path to a ruleset file, not a list",
        ),
        ("log", LOG_TEXT.replace("[Anna, Ben, Cleo]", "[Anna, 3, Cleo]"), "doc.yaml:2:17: error[log.schema]: each item of players is a name, not 3"),
        (
            "log",
            LOG_TEXT.replace("  - settler: Anna\n", "  - settler\n"),
            "doc.yaml:5:5: error[log.schema]: each item of phases is a role taken: `<role>: <player>` first, then the phase's keys, not 'settler'",
        ),
    ],
)
def test_a_document_of_the_wrong_shape_is_told_in_its_own_words(kind, text, said):
    lines = errors_of(kind, text)
    assert said in lines, lines
    assert not any(word in line for line in lines for word in SCHEMA_WORDS), lines


@pytest.mark.parametrize(
    ("kind", "text", "said"),
    [
        ("sheet", POSITION_TEXT, "doc.yaml:2:1: error[sheet.is-a-position]: this is a shipping position (its ships, and each player's goods), not a score sheet: `referee ship doc.yaml` reads it"),
        ("sheet", LOG_TEXT, "doc.yaml:4:1: error[sheet.is-a-log]: this is a game log (its setup and phases), not a score sheet: `referee validate doc.yaml` reads it"),
        ("position", LOG_TEXT, "doc.yaml:4:1: error[position.is-a-log]: this is a game log (its setup and phases), not a shipping position: `referee validate doc.yaml` reads it"),
        ("position", SHEET_TEXT, "doc.yaml:2:1: error[position.is-a-sheet]: this is a score sheet (each player's chips, by name), not a shipping position: `referee score --sheet doc.yaml` reads it"),
        ("log", POSITION_TEXT, "doc.yaml:2:1: error[log.is-a-position]: this is a shipping position (its ships, and each player's goods), not a game log: `referee ship doc.yaml` reads it"),
    ],
)
def test_a_file_given_to_the_wrong_command_is_told_the_command_that_reads_it(kind, text, said):
    assert errors_of(kind, text) == [said]


def test_a_document_of_the_right_kind_with_a_mistake_is_not_sent_elsewhere():
    """A broken sheet is a sheet, a broken position a position: the mistake is said, not another command."""
    assert not any("reads it" in line for line in errors_of("sheet", SHEET_TEXT.replace("{chips: 18}", "{chips: x}")))
    assert not any("reads it" in line for line in errors_of("position", POSITION_TEXT.replace("{name: Ben}", "{name: Ben, goods: 3}")))
    assert not any("reads it" in line for line in errors_of("log", LOG_TEXT.replace("players: [Anna, Ben, Cleo]", "players: Anna")))


def test_the_command_line_names_the_command_for_standard_input_too():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "referee", "ship", "-"], input=SHEET_TEXT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "error[position.is-a-sheet]" in done.stdout and "`referee score --sheet -` reads it" in done.stdout


def test_a_phases_key_in_line_with_phases_is_told_to_go_under_its_phase():
    """Read as a key of the log, not a syntax error: said as the mistake of layout it is."""
    path = FIXTURES / "broken" / "log-moves-in-line-with-phases.yaml"
    (error,) = check_log(path.read_bytes(), path.name).errors
    assert (error.rule, error.location.line) == ("log.schema", 8)
    assert "unknown key" not in error.message and "like 'settler'" in error.message
    fixed = path.read_text().replace("\nmoves:", "\n  moves:")
    assert check_log(fixed.encode(), path.name).exit_code == 0
