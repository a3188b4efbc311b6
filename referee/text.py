"""Small helpers for sentences: lists, articles, counts."""

from __future__ import annotations

from collections.abc import Sequence


def listing(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (or with 'or')."""
    items = list(items)
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def a(word: str) -> str:
    """'a planter', 'an adventurer', 'an estate'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def count(n: int, words: tuple[str, str]) -> str:
    """'1 colonist', '2 colonists'."""
    return f"{n} {words[0] if n == 1 else words[1]}"


def plural(word: str) -> str:
    """The plural of a ruleset's word as English makes it: 'quarries', 'forests', 'boxes'."""
    if word[-1:] == "y" and word[-2:-1].lower() not in ("", "a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"
