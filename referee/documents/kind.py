"""Which of referee's documents a YAML file is, told from its first lines without reading it
whole: the `$schema` modeline when it has one, else its top-level keys.

Used when a folder is searched for game logs: the score sheets, shipping positions and
rulesets in it are recognised and left to the commands that read them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.located.tree import YNode

LOG, SHEET, POSITION, RULESET, OTHER = "game log", "score sheet", "shipping position", "ruleset", "other YAML file"

# What reads each kind that `validate` does not.
READ_BY = {SHEET: "referee score --sheet FILE", POSITION: "referee ship FILE", RULESET: "referee rules FILE"}

# Each kind in a few words, and the command that reads it: for a file given to another command.
ABOUT = {
    LOG: "a game log (its setup and phases)",
    SHEET: "a score sheet (each player's chips, by name)",
    POSITION: "a shipping position (its ships, and each player's goods)",
    RULESET: "a ruleset (its goods, buildings and roles)",
}
COMMAND = {LOG: "referee validate", SHEET: "referee score --sheet", POSITION: "referee ship", RULESET: "referee rules"}

_MODELINE = re.compile(rb"\$schema=\S*?(game-log|score-sheet|shipping-position|ruleset)\.schema\.json")
_TOP_KEY = re.compile(rb"^([A-Za-z_][\w-]*)[ \t]*:", re.MULTILINE)
_CHIPS = re.compile(rb"\bchips[ \t]*:")
_BY_SCHEMA = {b"game-log": LOG, b"score-sheet": SHEET, b"shipping-position": POSITION, b"ruleset": RULESET}
_RULESET_KEYS = {b"extends", b"goods", b"buildings", b"roles", b"player_counts", b"terms"}


def document_kind(data: bytes) -> str:
    """The kind of a document (see the module). A file that cannot be told (JSON, a flow
    mapping, broken YAML) counts as a game log: checking it says what is wrong with it."""
    head = data[:2048]
    named = _MODELINE.search(head)
    if named is not None:
        return _BY_SCHEMA[named.group(1)]
    keys = set(_TOP_KEY.findall(data))
    if not keys:  # JSON, or a flow mapping: read it (rare, and small files)
        keys = _flow_keys(data)
        if not keys:
            return LOG
    if b"phases" in keys or b"setup" in keys:
        return LOG
    if b"ships" in keys:
        return POSITION
    if b"players" in keys:  # a sheet's players have chips (required); else a log cut short
        return SHEET if _CHIPS.search(data) else LOG
    if keys & _RULESET_KEYS:
        return RULESET
    return OTHER


def kind_of_tree(root: YNode, data: bytes | str) -> str:
    """The kind of a document already read (its text for the `$schema` modeline): by the keys
    only one kind has (`phases` or `setup`, `ships`, players with `chips`, a ruleset's own), OTHER
    when none tells. Asked only of a document that its reader refuses."""
    head = data[:2048] if isinstance(data, bytes) else data[:2048].encode("utf-8", "surrogatepass")
    named = _MODELINE.search(head)
    if named is not None:
        return _BY_SCHEMA[named.group(1)]
    doc = root.value if isinstance(root.value, dict) else {}
    if "phases" in doc or "setup" in doc:
        return LOG
    if "ships" in doc:
        return POSITION
    players = doc.get("players")
    if players is not None and isinstance(players.value, dict) and any(isinstance(entry.value, dict) and "chips" in entry.value for entry in players.value.values()):
        return SHEET
    if {key.encode() for key in doc} & _RULESET_KEYS and "players" not in doc:
        return RULESET
    return OTHER


_RULE = {LOG: "is-a-log", SHEET: "is-a-sheet", POSITION: "is-a-position", RULESET: "is-a-ruleset"}
_TELLING = {LOG: ("phases", "setup"), SHEET: ("players",), POSITION: ("ships",), RULESET: ()}


def wrong_command(root: YNode, data: bytes | str, expected: str, file: str) -> tuple[str, str, str | None] | None:
    """For a document of another kind than the command reads (`expected`): the end of its
    rule id (`is-a-position`), the sentence ("this is a shipping position (...), not a score
    sheet: `referee ship pos.yaml` reads it") and the key that tells the kind (None: the first
    line). None for a document of that kind, or of no kind that can be told."""
    kind = kind_of_tree(root, data)
    if kind in (expected, OTHER):
        return None
    doc = root.value if isinstance(root.value, dict) else {}
    key = next((key for key in _TELLING[kind] if key in doc), None)
    return _RULE[kind], f"this is {ABOUT[kind]}, not a {expected}: `{COMMAND[kind]}{_argument(file)}` reads it", key


def refuse_wrong_command(root: YNode, data: bytes | str, expected: str, file: str, prefix: str) -> None:
    """Raise InputError for a document of another kind than the command reads (`expected`),
    with the rule `PREFIX.is-a-...` and the command that reads it, instead of every key the
    expected document lacks; return for a document of that kind or of no kind that can be told."""
    from referee.diagnostics import READ_ERROR, Diagnostic, InputError

    other = wrong_command(root, data, expected, file)
    if other is not None:
        rule, message, key = other
        raise InputError([Diagnostic(f"{prefix}.{rule}", message, root.key_location(key) if key else root.location, READ_ERROR)])


def _argument(file: str) -> str:
    """The file as the command takes it: `-` for standard input; nothing for a document posted
    to the server (it has no name)."""
    return " -" if file == "<stdin>" else "" if file == "document" else f" {file}"


def _flow_keys(data: bytes) -> set[bytes]:
    """The top-level keys of a document written in flow style (JSON); none when it cannot be read."""
    from referee.diagnostics import InputError
    from referee.located.tree import read_yaml

    try:
        root = read_yaml(data, "document")
    except InputError:
        return set()
    return {str(key).encode() for key in root.value} if isinstance(root.value, dict) else set()
