"""The quick reader of plain block YAML (`source._quick_tree`, most game logs) gives exactly the
tree the YAML parser gives (`source._Composer`): every value, the text as written, the line and
column of every node and key. Where it cannot be sure it reads nothing (None), and the parser
reads the text; so every error still comes from the parser.

Compared over every YAML file of the project, random legal game logs, and random mutations of
them (characters inserted and deleted, lines repeated, re-indented and removed).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.jobs.play import play, to_log
from referee.located.tree import YNode, _Composer, _quick_tree
from referee.rulesets.load import load_ruleset

ROOT = Path(__file__).resolve().parent.parent


def picture(node: YNode) -> Any:
    """Everything a reader of the tree can ask, as plain values."""
    value = node.value
    keys = {key: (node.key_location(key).line, node.key_location(key).column) for key in value} if isinstance(value, dict) else None
    head = (node.raw, node.line, node.column, keys, node.is_map, node.is_list, node.is_scalar)
    if isinstance(value, dict):
        return (*head, [(key, picture(child)) for key, child in value.items()])
    if isinstance(value, list):
        return (*head, [picture(child) for child in value])
    return (*head, type(value).__name__, repr(value), node.text())


def parsed(text: str) -> Any:
    try:
        return picture(_Composer(text, "x.yaml").document())
    except Exception as exc:  # the parser refuses it: the quick reader must not read it either
        return ("refused", type(exc).__name__)


def texts() -> list[str]:
    found = [path.read_text(encoding="utf-8") for folder in ("fixtures", "rulesets", "tests", "docs") for path in sorted((ROOT / folder).rglob("*.y*ml"))]
    for ruleset in ("base", "expansion-1", "1897-expansion-1"):
        found += [to_log(play(load_ruleset(ruleset), 2 + seed, seed), ruleset) for seed in range(3)]
    return found


ALPHABET = [*" -:#,[]{}&*!|>'\"%@`?\n\t0123456789.eE+x~aZé\r\\", "  ", "- ", ": ", " #", "!!str ", "&a ", "*a", "---\n", "0x1F", ".inf", "null", "true", "'it''s'", '"a\\"b"', "? "]


def mutated(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        j = rng.randrange(len(lines))
        line, choice = lines[j], rng.random()
        if choice < 0.5:
            at = rng.randint(0, len(line))
            lines[j] = line[:at] + rng.choice(ALPHABET) + line[at:]
        elif choice < 0.7 and line:
            at = rng.randrange(len(line))
            lines[j] = line[:at] + line[at + rng.randint(1, 3) :]
        elif choice < 0.8:
            lines.insert(j, rng.choice(lines))
        elif choice < 0.9:
            lines[j] = " " * rng.randint(0, 6) + line.lstrip(" ")
        elif len(lines) > 1:
            del lines[j]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return texts()


def test_the_quick_reader_reads_the_logs_as_the_parser_does(corpus: list[str]) -> None:
    quick = 0
    for text in corpus:
        tree = _quick_tree(text, "x.yaml")
        if tree is not None:
            quick += 1
            assert picture(tree) == parsed(text), text[:200]
    assert quick >= 20  # most logs are plain block YAML: read quickly


@pytest.mark.parametrize("seed", range(4))
def test_the_quick_reader_never_reads_a_text_otherwise(corpus: list[str], seed: int) -> None:
    rng = random.Random(seed)
    quick = 0
    for _ in range(1500):
        text = mutated(rng.choice(corpus), rng)
        tree = _quick_tree(text, "x.yaml")
        if tree is not None:
            quick += 1
            assert picture(tree) == parsed(text), text[:300]
    assert quick > 100
