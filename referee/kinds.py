"""Which of referee's documents a YAML file is, told from its first lines without reading it
whole: the `$schema` modeline when it has one, else its top-level keys.

Used when a folder is searched for game logs: the score sheets, shipping positions and
rulesets in it are recognised and left to the commands that read them.
"""

from __future__ import annotations

import re

LOG, SHEET, POSITION, RULESET, OTHER = "game log", "score sheet", "shipping position", "ruleset", "other YAML file"

# What reads each kind that `validate` does not.
READ_BY = {SHEET: "referee score --sheet FILE", POSITION: "referee ship FILE", RULESET: "referee rules FILE"}

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


def _flow_keys(data: bytes) -> set[bytes]:
    """The top-level keys of a document written in flow style (JSON); none when it cannot be read."""
    from referee.diagnostics import InputError
    from referee.source import read_yaml

    try:
        root = read_yaml(data, "document")
    except InputError:
        return set()
    return {str(key).encode() for key in root.value} if isinstance(root.value, dict) else set()
