"""The mistakes of shape that players make when they write a log by hand, explained in the log's
own terms, at the line of the mistake, with the form that was expected.

The model (`GameLogModel`) finds every problem of shape, in its own words ("input should be a
valid list"); these are the common ones said as a player would need them said. A diagnostic
here replaces the model's at the same line.
"""

from __future__ import annotations

from referee.diagnostics import READ_ERROR, Diagnostic
from referee.documents.log_outline import PHASE_KEYS
from referee.ground.wording import normalize
from referee.located.tree import YNode

RULE = "log.schema"


def shape_mistakes(root: YNode) -> list[Diagnostic]:
    """The common mistakes of shape in a log (its root a mapping), each explained."""
    out: list[Diagnostic] = []
    doc = root.value
    assert isinstance(doc, dict)
    players = doc.get("players")
    names: list[str] = []
    if players is not None:
        if isinstance(players.value, str) and players.value.strip():
            written = [part.strip() for part in players.value.split(",") if part.strip()]
            out.append(_at(players, f"players is a list, in seating order: write `players: [{', '.join(written)}]`"))
            names = written
        elif isinstance(players.value, list):
            names = [node.text() for node in players.value if isinstance(node.value, (str, int))]
    phases = doc.get("phases")
    if phases is not None and isinstance(phases.value, list):
        for entry in phases.value:
            if isinstance(entry.value, dict):
                out += _phase_mistakes(entry, names)
        out += _phase_keys_at_the_top(root, phases)
    return out


def _phase_keys_at_the_top(root: YNode, phases: YNode) -> list[Diagnostic]:
    """A phase's key (`moves:`) written in line with `phases:`, after a phase: the parser reads
    it as a key of the log, and it belongs to the phase above it, indented like its role."""
    out = []
    for key in root.value:
        if key not in PHASE_KEYS:
            continue
        at = root.key_location(key)
        above = [entry for entry in phases.value if isinstance(entry.value, dict) and entry.value and entry.line < at.line]
        if not above:
            continue
        phase = above[-1]
        role = next(iter(phase.value))
        indent = phase.key_location(role).column - 1
        written = " " * indent + f"{key}:" + _flow(root.value[key])
        out.append(
            Diagnostic(
                RULE,
                f"'{key}:' is not indented, like 'phases:' (line {root.key_location('phases').line}); the keys of the phase of line {phase.line} "
                f"are indented {indent} space{'' if indent == 1 else 's'}, like '{role}': write `{written}`",
                at,
                READ_ERROR,
            )
        )
    return out


def _phase_mistakes(entry: YNode, names: list[str]) -> list[Diagnostic]:
    assert isinstance(entry.value, dict)
    out: list[Diagnostic] = []
    moves = entry.value.get("moves")
    if moves is None:
        return out
    moves_line = entry.key_location("moves").line
    if isinstance(moves.value, dict):
        first = next(iter(moves.value), "Anna")
        out.append(_at(moves, f"moves is a list: each move on its own line, starting with '- ' (`- {first}: {moves.value[first].text() if first in moves.value else 'quarry'}`)"))
        return out
    if not isinstance(moves.value, list):
        return out
    for item in moves.value:
        if isinstance(item.value, str):
            out.append(_at(item, f"a move is written `- Player: move`{_as_move(item.value, names)}"))
        elif isinstance(item.value, dict) and len(item.value) > 1:
            keys = list(item.value)
            player = keys[0]
            for key in keys[1:]:
                if key in PHASE_KEYS:
                    out.append(
                        Diagnostic(
                            RULE,
                            f"'{key}' is indented as a part of {player}'s move: a phase's '{key}' is written under the phase, indented like 'moves:' (line {moves_line})",
                            item.key_location(key),
                            READ_ERROR,
                        )
                    )
                else:
                    out.append(
                        Diagnostic(
                            RULE,
                            f"one move per line, each starting with '- ': `- {key}: {item.value[key].text() if isinstance(item.value[key].value, (str, int)) else '...'}`",
                            item.key_location(key),
                            READ_ERROR,
                        )
                    )
    return out


def _flow(node: YNode) -> str:
    """` value` as a value on its key's line is written (a word, `[a, b]`); '' for one on the lines under it."""
    if node.is_scalar:
        return "" if node.value is None else f" {node.text()}"
    items = node.value if node.is_list else None
    if items and all(item.is_scalar for item in items) and items[0].line == node.line:
        return " [" + ", ".join(item.text() for item in items) + "]"
    return ""


def _as_move(text: str, names: list[str]) -> str:
    """`: here '- Ben: small sugar mill'` when the text starts with a player's name."""
    words = text.split()
    for count in range(len(words) - 1, 0, -1):
        name = " ".join(words[:count])
        if any(normalize(name) == normalize(n) for n in names):
            return f" (with a colon after the player: `- {name}: {' '.join(words[count:])}`)"
    return ""


def _at(node: YNode, message: str) -> Diagnostic:
    return Diagnostic(RULE, message, node.location, READ_ERROR)
