"""The house's layers only look down: no module imports one from a layer above its own.

From the top: the commands (CLI and the pipelines behind it), rendering, the jobs (checking,
scoring, the calculator, random play), the document readers and writers, the engine, the move
values, the rulesets, and at the bottom text, YAML with positions and diagnostics. A module
may import its own layer and those below; imports made only for type hints count too (a
reader of the code follows them all the same). The package's root (`referee/__init__.py`) is
the public API above everything, and nothing inside imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "referee"

LAYERS: list[tuple[str, tuple[str, ...]]] = [  # from the top; each a list of modules or packages
    ("commands", ("referee.cli", "referee.__main__", "referee.batch", "referee.workers", "referee.cluster", "referee.ship_command", "referee.schemas", "referee.server")),
    ("rendering", ("referee.render",)),
    ("jobs", ("referee.check", "referee.decisions", "referee.replays", "referee.scoring", "referee.sheet", "referee.shipping", "referee.play")),
    ("documents", ("referee.records",)),
    ("engine", ("referee.engine",)),
    ("moves", ("referee.moves",)),
    ("rulesets", ("referee.rulesets",)),
    ("text", ("referee.diagnostics", "referee.names", "referee.text", "referee.source", "referee.layout", "referee.modelcheck", "referee.resources", "referee.output", "referee.version", "referee.kinds")),
]


def layer_of(module: str) -> int | None:
    """The index of the layer holding `module` (0: the top), or None for the package root."""
    if module == "referee":
        return None
    for index, (_, members) in enumerate(LAYERS):
        if any(module == m or module.startswith(m + ".") for m in members):
            return index
    raise LookupError(f"{module} is in no layer: add it to LAYERS in {Path(__file__).name}")


def imports_of(path: Path, module: str) -> list[tuple[str, int]]:
    """Every referee module that `path` imports (anywhere in it), with the line."""
    out = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names if alias.name.split(".")[0] == "referee"]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] != "referee":
                continue
            for alias in node.names:  # `from referee.render import report` imports a module
                candidate = f"{base}.{alias.name}"
                sub = PACKAGE.parent / (candidate.replace(".", "/") + ".py")
                out.append((candidate if sub.exists() or (sub.parent / alias.name).is_dir() else base, node.lineno))
    return out


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), path))
    return out


def upward_imports(graph: dict[str, list[tuple[str, int]]]) -> list[str]:
    """The imports of `graph` (module: imported modules with lines) that run up a layer."""
    wrong = []
    for module, imported in graph.items():
        here = layer_of(module)
        if here is None:
            continue  # the public API imports from every layer
        for target, line in imported:
            there = layer_of(target)
            if there is None:
                wrong.append(f"{module} (line {line}) imports the package root: import from the module that holds the name")
            elif there < here:
                wrong.append(f"{module} (line {line}) imports {target}: {LAYERS[here][0]} looks down, {LAYERS[there][0]} is above it")
    return wrong


def test_every_module_is_in_a_layer():
    for module, _ in modules():
        layer_of(module)  # raises LookupError naming the module


def test_no_import_runs_up_a_layer():
    graph = {module: imports_of(path, module) for module, path in modules()}
    assert upward_imports(graph) == []


@pytest.mark.parametrize(
    ("module", "target", "message"),
    [
        ("referee.engine.game", "referee.records.log", "referee.engine.game (line 7) imports referee.records.log: engine looks down, documents is above it"),
        ("referee.moves", "referee.engine.text", "referee.moves (line 7) imports referee.engine.text: moves looks down, engine is above it"),
        ("referee.rulesets.load", "referee", "referee.rulesets.load (line 7) imports the package root"),
    ],
)
def test_an_import_running_up_is_named(module: str, target: str, message: str):
    assert upward_imports({module: [(target, 7)]})[0].startswith(message)


def test_an_import_down_or_within_a_layer_passes():
    assert upward_imports({"referee.cli": [("referee.text", 1)], "referee.sheet": [("referee.check", 2)], "referee.engine.legal": [("referee.moves", 3)]}) == []


def test_the_import_reader_sees_function_level_and_relative_imports(tmp_path: Path):
    source = tmp_path / "mod.py"
    source.write_text("def f():\n    from referee.render import report\n    import referee.cli\n")
    assert imports_of(source, "referee.engine.mod") == [("referee.render.report", 2), ("referee.cli", 3)]
