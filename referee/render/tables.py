"""Plain-text tables: the one column drawer of every text table referee prints."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from referee.ground.wording import printable


def table(rows: Sequence[Sequence[str]], right: Collection[int] = (), indent: str = "") -> list[str]:
    """Rows as lines of aligned columns, two spaces apart (`right`: the columns aligned right,
    numbers); trailing spaces trimmed."""
    if not rows:
        return []
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
