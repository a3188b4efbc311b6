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

LAYERS: list[tuple[str, tuple[str, ...]]] = [  # from the top; each a folder (or the ground's modules)
    ("commands", ("referee.commands", "referee.__main__")),
    ("rendering", ("referee.render",)),
    ("jobs", ("referee.jobs",)),
    ("documents", ("referee.documents",)),
    ("engine", ("referee.engine",)),
    ("moves", ("referee.moves",)),
    ("rulesets", ("referee.rulesets",)),
    ("located", ("referee.located",)),
    ("ground", ("referee.ground", "referee.diagnostics", "referee.version")),  # helpers of no layer; the errors; the version
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
        ("referee.engine.game", "referee.documents.log", "referee.engine.game (line 7) imports referee.documents.log: engine looks down, documents is above it"),
        ("referee.moves.clauses", "referee.engine.text", "referee.moves.clauses (line 7) imports referee.engine.text: moves looks down, engine is above it"),
        ("referee.rulesets.load", "referee", "referee.rulesets.load (line 7) imports the package root"),
    ],
)
def test_an_import_running_up_is_named(module: str, target: str, message: str):
    assert upward_imports({module: [(target, 7)]})[0].startswith(message)


def test_an_import_down_or_within_a_layer_passes():
    assert upward_imports({"referee.commands.cli": [("referee.ground.wording", 1)], "referee.jobs.check": [("referee.documents.sheet", 2)], "referee.engine.legal": [("referee.moves.clauses", 3)]}) == []


def test_the_import_reader_sees_function_level_and_relative_imports(tmp_path: Path):
    source = tmp_path / "mod.py"
    source.write_text("def f():\n    from referee.render import report\n    import referee.commands.cli\n")
    assert imports_of(source, "referee.engine.mod") == [("referee.render.report", 2), ("referee.commands.cli", 3)]


def runtime_imports_of(path: Path, module: str) -> list[str]:
    """The referee modules `path` imports when it runs: imports under `if TYPE_CHECKING:` aside."""
    tree = ast.parse(path.read_text(), str(path))
    hidden = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for statement in node.body
        for inner in ast.walk(statement)
    }
    lines = {node.lineno for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom) and id(node) in hidden}
    return sorted({target for target, line in imports_of(path, module) if line not in lines})


def circles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The import circles of `graph`: each group of modules that import one another, round."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph.get(module, []):
            if target not in graph:
                continue
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_modules_import_each_other_in_a_circle():
    graph = {module: [t for t in runtime_imports_of(path, module) if t != module] for module, path in modules() if module != "referee"}
    assert circles(graph) == []


def test_a_circle_is_found():
    assert circles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert circles({"a": ["b"], "b": []}) == []


def test_the_package_root_holds_at_most_six_modules():
    root = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root) <= 6, root


def test_the_grounds_helpers_import_nothing_of_referees_but_one_another():
    """`referee/ground/` holds helpers of no layer (wording, frozen values, the collector's
    pause, the bundled data's place): every layer may import them, so they import no layer."""
    ground = {module: imports_of(path, module) for module, path in modules() if module.startswith("referee.ground")}
    assert len(ground) >= 5
    assert {module: [target for target, _ in imported if not target.startswith("referee.ground")] for module, imported in ground.items()} == {module: [] for module in ground}
