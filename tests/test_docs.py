"""Every example of the player's documentation (docs/*.md) is checked against the referee.

What is checked, page by page, in the order written:

- A ```yaml block that is a complete document (a top-level `ruleset:` line) is read as what it is:
  a game log (it has `phases:`), a score sheet (`players:` is a mapping of names) or a shipping
  position (`ships:`), and must be valid, unless the HTML comment on the line just before the
  block says otherwise. That comment holds directives separated by `;`:
    `expect: valid` (the default), `expect: in progress`, `expect: complete`,
    `expect: error[RULE] at line N` (the first problem reported: its rule id and line),
    `scores: Anna 54, Ben 45` (the totals; a complete log or a sheet),
    `kind: log|sheet|position` (when the document is too broken to tell),
    `file: NAME` (the block is saved as NAME for the commands of the output blocks).
- A ```yaml block that is not a complete document is an excerpt and must say where it comes from,
  `<!-- from: fixtures/game-3p.yaml -->`: its lines, YAML comments aside, are consecutive lines of
  that file (and the file itself is valid).
- A markdown table row whose first cell is a role (of any bundled ruleset) and whose second cell
  holds backticked moves: each move parses in the phase of that role, with the ruleset named in the
  table's `ruleset` column (every such table has one). `keep: {...}` is read with `parse_keep`,
  `reveal: [...]` as plantation names, `doubloons: N` as a number; leading `guest <place>` clauses
  (Guest House) are split off as the log reader does. A move also reads back the same from the
  text the referee itself writes for it.
- A ```text or ```json block after `<!-- output of: referee ARGS -->` is the exact standard
  output of `python -m referee ARGS` (JSON compared as parsed values, one or more), run in a folder
  that holds the project's fixtures/ and every `file:` block of the docs; `; exit code: N` gives
  the exit code (0 when not written); `referee ARGS < FILE` reads FILE on standard input. In the
  pages written for players (OWN), every ```text and ```json block is such an output.
  `run first: referee ARGS` runs a command before, whose output is not shown (it must succeed).

The tests at the end feed wrong examples to the same checks: each check can fail.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from referee.diagnostics import InputError
from referee.documents.position import read_position
from referee.jobs.check import check_log, score_sheet
from referee.located.tree import read_yaml
from referee.moves.clauses import MoveError, parse_keep, parse_move, split_guests
from referee.rulesets.load import bundled_rulesets, load_ruleset
from referee.rulesets.rules import GOOD, ROLE, Rules, UnknownName
from tests.conftest import ROOT

DOCS = ROOT / "docs"
OWN = ("README.md", "game-log.md", "score-sheet.md", "output.md")  # the pages written for players; shipping.md is also read
RULESETS = ("base", "expansion-1", "1897", "1897-expansion-1")


# --- reading the pages -------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    page: str
    line: int  # the line of the opening fence
    lang: str
    text: str
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"docs/{self.page}:{self.line}"


@dataclass(frozen=True)
class Row:
    page: str
    line: int
    cells: tuple[str, ...]
    header: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"docs/{self.page}:{self.line}"


def directives(line: str) -> dict[str, str]:
    """`<!-- expect: in progress; file: club.yaml -->` -> {'expect': 'in progress', 'file': 'club.yaml'}."""
    m = re.fullmatch(r"\s*<!--(.*)-->\s*", line)
    if m is None:
        return {}
    notes = {}
    for part in m.group(1).split(";"):
        key, sep, value = part.partition(":")
        if sep:
            notes[key.strip().lower()] = value.strip()
    return notes


def blocks(page: str, text: str) -> list[Block]:
    """The fenced code blocks of a page, each with the directives of the comment just before it."""
    lines = text.splitlines(keepends=True)
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"```(\w*)\s*$", lines[i])
        if m is None:
            i += 1
            continue
        start = i
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        assert i < len(lines), f"docs/{page}:{start + 1}: a code block that is never closed"
        notes = directives(lines[start - 1]) if start > 0 else {}
        out.append(Block(page, start + 1, m.group(1), "".join(body), notes))
        i += 1
    return out


def split_cells(line: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in line.strip().strip("|").split("|"))


def rows(page: str, text: str) -> list[Row]:
    """The body rows of every markdown table of a page (outside code blocks), with their header."""
    out: list[Row] = []
    header: tuple[str, ...] | None = None
    fenced = False
    for n, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line.lstrip().startswith("|"):
            header = None
            continue
        cells = split_cells(line)
        if header is None:
            header = cells
        elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
            out.append(Row(page, n, cells, header))
    return out


def pages() -> dict[str, str]:
    """Every page of docs/, by its path under docs/ (`game-log.md`, `formats/game-log.md`)."""
    return {p.relative_to(DOCS).as_posix(): p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md"))}


PAGES = pages()
BLOCKS = [b for name, text in PAGES.items() for b in blocks(name, text)]
ROWS = [r for name, text in PAGES.items() for r in rows(name, text)]
FILES = {b.notes["file"]: b for b in BLOCKS if "file" in b.notes}


# --- YAML examples -----------------------------------------------------------------------------


def document_kind(block: Block) -> str | None:
    """'log', 'sheet' or 'position' for a complete document; None for an excerpt."""
    if "kind" in block.notes:
        return block.notes["kind"]
    text = block.text
    if not re.search(r"^ruleset\s*:", text, re.M):
        return None
    if re.search(r"^phases\s*:", text, re.M):
        return "log"
    if re.search(r"^ships\s*:", text, re.M):
        return "position"
    m = re.search(r"^players\s*:(.*)\n((?:[ \t]+.*\n?)*)", text, re.M)
    if m and (m.group(1).strip().startswith("{") or re.match(r"[ \t]+[^-\s#][^:]*:", m.group(2))):
        return "sheet"
    raise AssertionError(f"{block.where}: a document with `ruleset:` that is neither a log, a sheet nor a position (say `kind:`)")


@dataclass
class Outcome:
    errors: list[tuple[str, int | None, str]]
    complete: bool = False
    scores: dict[str, int] | None = None


def outcome(kind: str, text: str, name: str) -> Outcome:
    """What the referee says of a document, as a player reads it: its problems, complete or not, the scores."""
    if kind == "position":
        try:
            read_position(text, name)
        except InputError as exc:
            return Outcome([(d.rule, d.location.line if d.location else None, d.message) for d in exc.diagnostics])
        return Outcome([])
    report = check_log(text, name) if kind == "log" else score_sheet(text, name)
    errors = [(d.rule, d.location.line if d.location else None, d.message) for d in report.errors]
    scores = {s.player: s.total for s in report.scores} if report.scores is not None else None
    return Outcome(errors, report.complete, scores)


def check_document(block: Block) -> list[str]:
    """Problems with a complete YAML document of the docs (an empty list: as the page says)."""
    kind = document_kind(block)
    assert kind is not None
    got = outcome(kind, block.text, block.notes.get("file", "example.yaml"))
    expect = block.notes.get("expect", "valid")
    problems = []
    said = "; ".join(f"error[{rule}] at line {line}: {message}" for rule, line, message in got.errors) or "valid"
    m = re.fullmatch(r"error\[(?P<rule>[\w.-]+)\] at line (?P<line>\d+)", expect)
    if m:
        first = got.errors[0][:2] if got.errors else None
        if first != (m["rule"], int(m["line"])):
            problems.append(f"{block.where}: expected error[{m['rule']}] at line {m['line']}, the referee says {said}")
    elif expect in ("valid", "in progress", "complete"):
        if got.errors:
            problems.append(f"{block.where}: expected {expect}, the referee says {said}")
        elif kind == "log" and expect == "in progress" and got.complete:
            problems.append(f"{block.where}: expected a game in progress, the game is complete")
        elif kind == "log" and expect == "complete" and not got.complete:
            problems.append(f"{block.where}: expected a complete game, it is in progress")
    else:
        problems.append(f"{block.where}: unknown expectation {expect!r}")
    if "scores" in block.notes:
        wanted = {name: int(total) for name, total in (part.rsplit(" ", 1) for part in block.notes["scores"].split(", "))}
        if got.scores != wanted:
            problems.append(f"{block.where}: expected scores {wanted}, the referee gives {got.scores}")
    return problems


def code_lines(text: str) -> list[str]:
    """The lines of YAML text without comments and blank lines (a comment: `#` at the start or after a space)."""
    out = []
    for line in text.splitlines():
        code = re.sub(r"(^|\s)#.*$", "", line).rstrip()
        if code.strip():
            out.append(code)
    return out


def check_excerpt(block: Block) -> list[str]:
    """An excerpt of a fixture: its lines, comments aside, are consecutive lines of the file."""
    source = block.notes.get("from")
    if source is None:
        return [f"{block.where}: a YAML example is a complete document (with `ruleset:`) or says where it comes from (`<!-- from: fixtures/... -->`)"]
    path = ROOT / source
    if not path.is_file():
        return [f"{block.where}: {source} does not exist"]
    mine, theirs = code_lines(block.text), code_lines(path.read_text(encoding="utf-8"))
    if not mine or not any(theirs[i : i + len(mine)] == mine for i in range(len(theirs) - len(mine) + 1)):
        return [f"{block.where}: these lines are not in {source} as written"]
    return []


YAML_BLOCKS = [b for b in BLOCKS if b.lang == "yaml"]
DOCUMENTS = [b for b in YAML_BLOCKS if document_kind(b) is not None]
EXCERPTS = [b for b in YAML_BLOCKS if document_kind(b) is None]


def cases(items: list[Block] | list[Row] | list[str]) -> dict[str, object]:
    """Parameters of a test over the examples; with none found, one case that fails (never an empty, skipped test)."""
    ids = [item if isinstance(item, str) else item.where for item in items]
    return {"argvalues": items or [None], "ids": ids or ["none-found"]}


@pytest.mark.parametrize("block", **cases(DOCUMENTS))
def test_every_yaml_document_gives_what_the_page_says(block: Block | None):
    assert block is not None, "no YAML document found in docs/"
    assert check_document(block) == []


@pytest.mark.parametrize("block", **cases(EXCERPTS))
def test_every_yaml_excerpt_is_a_fixture_as_written(block: Block | None):
    assert block is not None, "no YAML excerpt found in docs/"
    assert check_excerpt(block) == []


@pytest.mark.parametrize("source", **cases(sorted({b.notes["from"] for b in EXCERPTS if "from" in b.notes})))
def test_the_fixtures_quoted_are_valid(source: str | None):
    assert source is not None, "no fixture quoted in docs/"
    text = (ROOT / source).read_text(encoding="utf-8")
    kind = "sheet" if "/sheets/" in source else "position" if "/positions/" in source else "log"
    assert outcome(kind, text, source).errors == []


# --- moves in tables ---------------------------------------------------------------------------


def role_names() -> set[str]:
    """Every name of a role in any bundled ruleset (lowercase): what makes a table row a move example."""
    names = set()
    for ruleset in RULESETS:
        rules = load_ruleset(ruleset)
        for ident in ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"):
            names.add(rules.name(ident).lower())
            names.add(ident)
    return names


ROLE_NAMES = role_names()


def is_move_row(row: Row) -> bool:
    return len(row.cells) >= 2 and row.cells[0].strip("`*").lower() in ROLE_NAMES and "`" in row.cells[1]


def check_row(row: Row) -> list[str]:
    """Problems with the moves of one table row (an empty list: every move parses)."""
    header = [h.lower() for h in row.header]
    if "ruleset" not in header:
        return [f"{row.where}: a table of moves needs a `ruleset` column"]
    ruleset = row.cells[header.index("ruleset")].strip("` ")
    try:
        rules = load_ruleset(ruleset)
        role = rules.lookup(row.cells[0].strip("`*"), (ROLE,))[1]
    except (InputError, UnknownName) as exc:
        return [f"{row.where}: {exc}"]
    problems = []
    for text in re.findall(r"`([^`]+)`", row.cells[1]):
        try:
            check_move(role, text, rules)
        except (MoveError, UnknownName, InputError, ValueError, AssertionError) as exc:
            problems.append(f"{row.where}: `{text}` in {rules.name(role)} ({ruleset}): {exc}")
    return problems


def check_move(role: str, text: str, rules: Rules) -> None:
    """Read one example as the log reader reads it; raise on what it refuses."""
    key, sep, value = text.partition(":")
    if sep and key.strip() == "keep":  # a captain phase's keep: {player: what they keep}
        assert role == "captain", "keep belongs to a captain phase"
        node = read_yaml(value.strip(), "keep.yaml")
        assert node.is_map and node.value, "keep is a mapping of players"
        for kept in node.value.values():
            parse_keep(kept.text(), rules)
    elif sep and key.strip() == "reveal":
        assert role == "settler", "reveal belongs to a settler phase"
        node = read_yaml(value.strip(), "reveal.yaml")
        for tile in node.value:
            rules.lookup(tile.text(), (GOOD,))
    elif sep and key.strip() == "doubloons":
        assert int(value) >= 0
    else:
        guests, rest = split_guests(text, rules)  # Guest House: leading `guest <place>` clauses, as the log reader splits them
        if rest or not guests:
            move = parse_move(role, rest, rules)
            assert parse_move(role, move.text(rules), rules) == move, f"reads back differently from {move.text(rules)!r}"


MOVE_ROWS = [r for r in ROWS if is_move_row(r)]


@pytest.mark.parametrize("row", **cases(MOVE_ROWS))
def test_every_move_in_a_table_parses(row: Row | None):
    assert row is not None, "no table of moves found in docs/"
    assert check_row(row) == []


# --- command output ----------------------------------------------------------------------------


def json_values(text: str) -> list[object]:
    """One or more JSON values, each on one line or spread over several."""
    decoder = json.JSONDecoder()
    values, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return values
        value, i = decoder.raw_decode(text, i)
        values.append(value)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder like the project's: fixtures/ (a link), and every `file:` block of the docs."""
    folder = tmp_path_factory.mktemp("docs")
    (folder / "fixtures").symlink_to(ROOT / "fixtures", target_is_directory=True)
    for name, block in FILES.items():
        (folder / name).write_text(block.text, encoding="utf-8")
    return folder


def referee(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """Run `referee ARGS [< FILE]` as `python -m referee ARGS` in `folder`."""
    words = shlex.split(command)
    assert words and words[0] == "referee", f"a command of the docs is `referee ...`, not {command!r}"
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = (folder / words[at + 1]).read_text(encoding="utf-8")
        words = words[:at]
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "referee", *words[1:]], input=stdin, capture_output=True, text=True, cwd=folder, timeout=120, env=env)


def run_output(block: Block, folder: Path) -> list[str]:
    """Problems with an output block (an empty list: the referee prints exactly that)."""
    command = block.notes["output of"]
    if "run first" in block.notes:  # a command whose output is not shown, e.g. `referee play -o FILE`
        first = referee(block.notes["run first"], folder)
        if first.returncode != 0:
            return [f"{block.where}: `{block.notes['run first']}` exits with {first.returncode}: {first.stderr}"]
    done = referee(command, folder)
    problems = []
    code = int(block.notes.get("exit code", "0"))
    if done.returncode != code:
        problems.append(f"{block.where}: `{command}` exits with {done.returncode}, not {code}: {done.stderr}")
    if block.lang == "json":
        try:
            shown = json_values(block.text)
        except ValueError as exc:
            return [*problems, f"{block.where}: not JSON: {exc}"]
        if shown != json_values(done.stdout):
            problems.append(f"{block.where}: `{command}` prints\n{done.stdout}")
    elif block.text != done.stdout:
        problems.append(f"{block.where}: `{command}` prints\n{done.stdout}")
    return problems


OUTPUTS = [b for b in BLOCKS if "output of" in b.notes]


@pytest.mark.parametrize("block", **cases(OUTPUTS))
def test_every_output_shown_is_the_real_output(block: Block | None, workdir: Path):
    assert block is not None, "no output example found in docs/"
    assert run_output(block, workdir) == []


def test_every_text_or_json_block_of_the_players_pages_is_a_checked_output():
    unchecked = [b.where for b in BLOCKS if b.page in OWN and b.lang in ("text", "json") and "output of" not in b.notes]
    assert unchecked == []


def test_every_code_block_of_the_players_pages_says_its_language():
    """A block without a language would escape every check above."""
    assert [b.where for b in BLOCKS if b.page in OWN and b.lang not in ("yaml", "text", "json", "sh")] == []


# --- the pages themselves ----------------------------------------------------------------------


def test_the_pages_are_there_and_the_index_links_every_page():
    for name in (*OWN, "shipping.md"):
        assert name in PAGES, name
    links = set(re.findall(r"\]\(([\w.-]+\.md)\)", PAGES["README.md"]))
    assert links >= {"game-log.md", "score-sheet.md", "output.md", "shipping.md"}


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a page: lowercase, punctuation dropped, a space
    for a '-'; a heading met again gets `-1`, `-2`, ..."""
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = re.match(r"#{1,6}\s+(.*?)\s*$", line)
        if heading and not fenced:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
            seen[slug] = seen.get(slug, -1) + 1
    return {slug if n == 0 else f"{slug}-{n}" for slug, count in seen.items() for n in range(count + 1)}


def broken_link(source: Path, target: str) -> str | None:
    """Why the link `target` (a path, with or without `#anchor`) written in `source` leads nowhere;
    None when it leads to a file, and to a heading of that page when it names one."""
    path, _, anchor = target.partition("#")
    page = (source.parent / path).resolve() if path else source
    if not page.exists():
        return f"{path} does not exist"
    if anchor and page.suffix == ".md" and anchor not in anchors(page.read_text(encoding="utf-8")):
        return f"{page.name} has no heading #{anchor}"
    return None


def test_links_between_pages_lead_somewhere():
    """Every link of a page of docs/ leads to a file, and to a heading of it when it names one."""
    problems = []
    for name, text in PAGES.items():
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" not in target and (why := broken_link(DOCS / name, target)):
                problems.append(f"docs/{name}: a link to {target}: {why}")
    assert problems == []


def test_a_wrong_link_is_found():
    page = DOCS / "formats" / "README.md"
    assert broken_link(page, "game-log.md#moves") is None and broken_link(page, "../game-log.md#captain") is None
    assert broken_link(page, "game-log.md#nowhere") == "game-log.md has no heading #nowhere"
    assert broken_link(page, "nowhere.md") == "nowhere.md does not exist"


# --- the repository stands alone ---------------------------------------------------------------

# Files that were never in the repository: the contract and the rules texts the project was
# first written from. Written so that this pattern does not match its own source.
OUTSIDE = re.compile(
    r"\bformats\.md|rules-data\.md|\.\./shared\b|/work/share[d]|"
    r"\b(?:base-game-rules|base-game-components-and-buildings|expansion-1-setup|1897-reference-sheet|roles-explained)\.txt"
)
DOCS_REFERENCE = re.compile(r"\bdocs/[\w./-]+\.md(?:#[\w-]+)?")


def repository_texts() -> dict[str, str]:
    """Every text file of the repository by its path (the files git tracks, in a checkout)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True)
    names = [n for n in listed.stdout.split("\0") if n] if listed.returncode == 0 else []
    if not names:  # not a checkout (an unpacked sdist): every file but caches and builds
        names = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file() and not {".git", "__pycache__", "build", "dist"} & set(p.parts)]
    texts = {}
    for name in names:
        try:
            texts[name] = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # images, and a file deleted but not yet committed
    return texts


REPOSITORY = repository_texts()


def test_no_file_refers_to_a_file_outside_the_repository():
    """Code, tests, help, messages and docs cite the pages of docs/ (the contract is
    docs/formats/, the rule decisions docs/rule-decisions.md), never a file a fresh clone lacks."""
    assert len(REPOSITORY) > 100 and "README.md" in REPOSITORY
    found = [f"{name}:{n}: {line.strip()}" for name, text in REPOSITORY.items() for n, line in enumerate(text.splitlines(), start=1) if OUTSIDE.search(line)]
    assert found == []


def test_every_reference_to_a_page_of_docs_resolves():
    """`docs/PAGE.md` or `docs/PAGE.md#heading`, written anywhere in the repository (a docstring,
    a message, the README), names a page that exists and a heading it has. test_docs.py itself
    names made-up pages to try its checks."""
    problems = []
    for name, text in REPOSITORY.items():
        if name == "tests/test_docs.py":
            continue
        for reference in DOCS_REFERENCE.findall(text):
            if why := broken_link(ROOT / "README.md", reference):
                problems.append(f"{name}: {reference}: {why}")
    assert problems == []


def test_a_reference_outside_is_found():
    assert OUTSIDE.search("see formats" + ".md section 3") and OUTSIDE.search("rules-data" + ".md A9") and OUTSIDE.search("../" + "shared/corpus")
    assert OUTSIDE.search("base-game-rules" + ".txt") and not OUTSIDE.search("docs/formats/shipping-position.md")
    assert DOCS_REFERENCE.findall("(docs/formats/commands.md#json), docs/rule-decisions.md.") == ["docs/formats/commands.md#json", "docs/rule-decisions.md"]


def test_every_test_a_page_names_exists():
    """A page that names the test holding a rule (`tests/test_x.py::test_name`, as
    docs/rule-decisions.md does for every decision) names a test function of that file."""
    named = [(name, path, test) for name, text in PAGES.items() for path, test in re.findall(r"tests/(test_\w+\.py)::(\w+)", text)]
    assert len([n for n in named if n[0] == "rule-decisions.md"]) >= 30
    defined = {path: (ROOT / "tests" / path).read_text(encoding="utf-8") for _, path, _ in named}
    missing = [f"docs/{name}: tests/{path}::{test}" for name, path, test in named if not re.search(rf"^(async )?def {test}\(", defined[path], re.M)]
    assert missing == []


def test_the_answer_to_a_wrong_result_quoted_in_the_guide_is_the_referees():
    """docs/game-log.md quotes, in its text, the answer to a wrong `result` in fixtures/game-3p.yaml."""
    m = re.search(r"Had the table written `Ines: 45`, the referee would answer `error\[(?P<rule>[\w.-]+)\]: (?P<message>[^`]+)`", " ".join(PAGES["game-log.md"].split()))
    assert m is not None
    lines = (ROOT / "fixtures" / "game-3p.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("result: {Ines: 44,"))
    lines[at] = lines[at].replace("Ines: 44", "Ines: 45")
    assert outcome("log", "".join(lines), "game-3p.yaml").errors == [(m["rule"], at + 1, m["message"])]


def test_file_names_of_examples_are_unique():
    names = [b.notes["file"] for b in BLOCKS if "file" in b.notes]
    assert len(names) == len(set(names))


def test_the_docs_hold_examples_of_every_kind():
    """The checks above run on something: a change in the notation of the pages cannot empty them."""
    kinds = [document_kind(b) for b in DOCUMENTS]
    assert kinds.count("log") >= 15 and kinds.count("sheet") >= 3 and kinds.count("position") >= 1
    assert len([b for b in DOCUMENTS if b.notes.get("expect", "").startswith("error[")]) >= 8
    assert len(EXCERPTS) >= 8
    assert len(MOVE_ROWS) >= 40
    assert {r.cells[[h.lower() for h in r.header].index("ruleset")].strip("` ") for r in MOVE_ROWS if "ruleset" in [h.lower() for h in r.header]} >= {
        "base",
        "expansion-1",
        "1897",
    }
    roles = {load_ruleset("1897").lookup(r.cells[0].strip("`*"), (ROLE,))[1] for r in MOVE_ROWS}
    assert roles >= {"settler", "mayor", "builder", "craftsman", "trader", "captain"}
    assert len([b for b in OUTPUTS if b.lang == "text"]) >= 10 and len([b for b in OUTPUTS if b.lang == "json"]) >= 3
    assert set(bundled_rulesets()) >= {"base", "expansion-1", "1897"}


# --- each check can fail -----------------------------------------------------------------------

WRONG_PAGE = """\
| phase | move | ruleset | meaning |
| --- | --- | --- | --- |
| settler | `cofee` | base | a typo |
| captain | `keep: {Anna: sugar 2}` | base | a count needs a storehouse, but parses |
| trader | `coffee, sugar` | base | one barrel a sale |
| planter | `fruit, hospice` | base | 1897 names in a base table |
| mayor | `corn` | | no ruleset |

<!-- expect: in progress -->
```yaml
ruleset: base
players: [Anna, Ben, Cleo]
setup: {plantations: [indigo, sugar, corn, coffee]}
phases:
  - settler: Anna
    moves:
      - Anna: quarry
      - Ben: quarry
```

<!-- expect: error[settler.quarry] at line 9 -->
```yaml
ruleset: base
players: [Anna, Ben, Cleo]
setup: {plantations: [indigo, sugar, corn, coffee]}
phases:
  - settler: Anna
    moves:
      - Anna: quarry
      - Ben: quarry
```

<!-- from: fixtures/game-3p.yaml -->
```yaml
  - settler: Marek
    moves:
      - Marek: coffee
```

<!-- output of: referee validate fixtures/formats-log.yaml -->
```text
fixtures/formats-log.yaml: valid, complete game
```

<!-- output of: referee validate --format json fixtures/formats-log.yaml; exit code: 1 -->
```json
{"file": "fixtures/formats-log.yaml", "valid": true, "complete": false, "errors": [], "scores": null, "ruleset": "base"}
```
"""


def test_each_check_finds_the_mistakes_of_a_wrong_page(tmp_path: Path):
    page_rows = [r for r in rows("wrong.md", WRONG_PAGE) if is_move_row(r)]
    problems = [check_row(r) for r in page_rows]
    assert [bool(p) for p in problems] == [True, False, True, True, True]
    assert "did you mean" in problems[0][0] and "ruleset" in problems[4][0]
    found = blocks("wrong.md", WRONG_PAGE)
    assert check_document(found[0]) and "settler.quarry" in check_document(found[0])[0]
    assert check_document(found[1])[0].startswith("docs/wrong.md:") and "line 8" in check_document(found[1])[0]
    assert check_excerpt(found[2]) and "not in fixtures/game-3p.yaml" in check_excerpt(found[2])[0]
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures", target_is_directory=True)
    assert run_output(found[3], tmp_path)  # the text differs
    wrong_json = run_output(found[4], tmp_path)
    assert len(wrong_json) == 2 and "exits with 0, not 1" in wrong_json[0]  # the exit code and the JSON (a `waiting` key) differ


def test_the_right_answers_pass_the_same_checks(tmp_path: Path):
    page = WRONG_PAGE.replace("expect: error[settler.quarry] at line 9", "expect: error[settler.quarry] at line 8")
    found = blocks("right.md", page)
    assert check_document(found[1]) == []
    assert check_excerpt(Block("right.md", 1, "yaml", "  - settler: Marek\n    moves:\n      - Marek: quarry  # a comment of ours\n", {"from": "fixtures/game-3p.yaml"})) == []
