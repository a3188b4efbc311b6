"""Ruleset files -> validated models: `extends` resolved, names kept, errors positioned.

A ruleset file may `extends:` one bundled ruleset (or a path), or a list of them. Layers are
merged in order, each shared ancestor once: mappings merge key by key, lists of items with an
`id` (goods, roles, buildings) merge item by item (`remove: true` drops one), anything else is
replaced. A renamed item keeps its old names as aliases, so a log in base names still reads.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from referee.diagnostics import READ_ERROR, Diagnostic, InputError
from referee.ground.resources import data_dir
from referee.ground.wording import normalize, printable
from referee.located.tree import Unreadable, YNode, read_document, read_yaml
from referee.rulesets.compiled import Spec, compile_model, decode, encode
from referee.rulesets.rules import Rules

if TYPE_CHECKING:
    from referee.rulesets.model import Ruleset


try:  # CPython's own BLAKE2: hashlib would load OpenSSL first (2 ms of every command's start-up)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover (another Python)
    from hashlib import blake2b


def _hash(data: bytes = b"") -> Any:
    """A digest of `data` (BLAKE2b, 32 bytes), to update and read as hex."""
    return blake2b(data, digest_size=32)

_ID_LISTS = ("goods", "roles", "buildings")


def bundled_rulesets() -> list[str]:
    """Names of the rulesets shipped with referee."""
    return sorted(p.stem for p in data_dir("rulesets").glob("*.yaml"))


def names_a_file(name: str) -> bool:
    """Does `name` name a ruleset file (a path), not a bundled ruleset?"""
    return "/" in name or "\\" in name or name.endswith((".yaml", ".yml"))


def ruleset_path(name: str, relative_to: Path | None = None) -> Path:
    """The file of a bundled ruleset name (case-insensitive, space, '-' and '_' alike, as every
    name: `Base`, `Expansion 1`), or a path (relative to `relative_to`)."""
    if not names_a_file(name):
        return data_dir("rulesets") / f"{normalize(name).replace(' ', '-')}.yaml"
    path = Path(name)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to / path
    return path


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system, a loop of links: no ruleset there
        return False


_BUNDLED: dict[str, Rules] = {}  # the bundled rulesets loaded, by name as written


def load_ruleset(name: str, relative_to: Path | None = None) -> Rules:
    """Load a ruleset by bundled name or path; InputError (exit 2) if it cannot be used.

    A bundled ruleset is remembered by its name: looking for its file (a few system calls, a
    twelfth of the cost of reading a log) is done once, the bundled files being the package's
    own. A path is looked for every time."""
    bundled = _BUNDLED.get(name)
    if bundled is not None:
        return bundled
    path = ruleset_path(str(name), relative_to)
    if not _is_file(path):
        known = ", ".join(bundled_rulesets())
        raise InputError([Diagnostic("ruleset.unknown", f"unknown ruleset '{name}': not a bundled ruleset ({known}) nor a file", None, READ_ERROR)])
    rules = _load(str(path.resolve()))
    if not names_a_file(name):
        _BUNDLED[name] = rules
    return rules


def supply_ruleset(root: YNode, override: str | None) -> None:
    """A document without a `ruleset` key takes the one given on the command line (--ruleset)."""
    if override is not None and root.is_map and "ruleset" not in root.value:
        root.value["ruleset"] = YNode(override, override, root.file, root.line, root.column)


def ruleset_of(root: YNode, override: str | None, base_dir: Path | None) -> Rules:
    """The ruleset a document names in its `ruleset` key (or `override`, from --ruleset), with
    its problems placed at that key (or at the top of the document)."""
    if override is not None:  # an option's path is the user's, relative to the working directory
        try:
            return load_ruleset(override)
        except InputError as exc:
            raise InputError([d if d.location else Diagnostic(d.rule, f"--ruleset: {d.message}", None, d.exit_code) for d in exc.diagnostics]) from None
    try:
        return load_ruleset(root.value["ruleset"].text(), base_dir)
    except InputError as exc:
        raise InputError([d if d.location else d.at(root.value["ruleset"].location) for d in exc.diagnostics]) from None


@lru_cache(maxsize=16)
def _load(path: str) -> Rules:
    code = _code_digest()
    files = _quick_layers(Path(path))  # the cache entry looked for without parsing a file
    source = _source_digest(files) if files is not None else ""
    key = _cache_key(source, code)
    cached = _cache_read(key, source, code) if files is not None else None
    layers: list[YNode] | None = None
    if cached is None:  # not in the cache (or the quick look was not sure of the files): read and parsed
        layers = _layers(Path(path))
        read = _source_digest([layer.file for layer in layers])
        if read != source:
            source, key = read, _cache_key(read, code)
            cached = _cache_read(key, source, code)
    if cached is not None:
        try:
            return Rules(cast("Ruleset", cached))  # a compiled ruleset: the model's fields, as plain objects
        except (AttributeError, KeyError, TypeError, ValueError):
            _say_damaged(key, "a part of it is missing")  # rebuilt and replaced below
    if layers is None:
        layers = _layers(Path(path))
    model = compile_model(_validate(layers, path))
    _cache_write(key, source, code, model)
    return Rules(cast("Ruleset", model))


def _validate(layers: list[YNode], path: str) -> Any:
    """The merged layers checked by the pydantic models (imported only here, on a cache miss)."""
    from referee.located.model_check import validate
    from referee.rulesets.model import Ruleset

    merged = layers[0]
    for layer in layers[1:]:
        merged = _merge(merged, layer)
    data = merged.plain()
    ext = merged.value.get("extends")
    if ext is not None:  # names such as 1897 are read as numbers: keep them as written
        data["extends"] = ext.text() if ext.is_scalar else tuple(n.text() for n in ext.value)
    return validate(Ruleset, data, merged, "ruleset.invalid", f"ruleset {Path(path).name}")


# --- a cache of validated rulesets: start-up without building validators ------------------
# Keyed by the bytes of every layer, the models' source and the referee version; REFEREE_CACHE=0 turns it off,
# REFEREE_CACHE_DIR moves it. A cache that cannot be read or written is simply not used.
#
# An entry cannot lie: it carries the digest of its ruleset (with the digests of the source
# layers and of the code it was built by), checked when it is read. Any edit of a value (harbor
# 3 -> 30, a NaN, a file cut short) is seen, said in one line on stderr, and the entry rebuilt:
# without the digest, one number edited changed every later score in silence.


def _cache_dir() -> Path | None:
    if os.environ.get("REFEREE_CACHE", "1") == "0":
        return None
    root = os.environ.get("REFEREE_CACHE_DIR") or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "referee")
    return Path(root)


def _code_digest() -> str:
    """The digest of the code that builds an entry: referee's version, Python's, and the
    models' source (a cached ruleset must be what they would check)."""
    from referee.version import __version__

    here = Path(__file__).parent
    digest = _hash(f"{__version__}|{sys.version_info[:2]}".encode() + (here / "model.py").read_bytes() + (here / "compiled.py").read_bytes())
    return digest.hexdigest()


def _source_digest(files: list[str]) -> str:
    """The digest of the ruleset's files: every layer's path and bytes."""
    digest = _hash()
    for file in files:
        digest.update(file.encode("utf-8", "surrogateescape") + b"\0" + _BYTES.get(file, b""))
    return digest.hexdigest()


def _cache_key(source: str, code: str) -> str:
    return str(_hash(f"{code}|{source}".encode()).hexdigest()[:40])


def _content_digest(key: str, source: str, code: str, ruleset: Any) -> str:
    """The digest an entry carries: of its ruleset's data (in one canonical JSON text: an edit
    of layout alone is no damage), its key, and the digests of the source and the code."""
    text = json.dumps(ruleset, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return str(_hash(f"{CACHE_FORMAT}|{key}|{source}|{code}|".encode() + text.encode()).hexdigest())


CACHE_FORMAT = 2  # the layout of an entry: a change makes every older entry unread (and rebuilt); 2: with digests


def _refuse_constant(name: str) -> Any:
    """JSON's NaN and Infinity are no numbers of a ruleset: an entry holding one is damaged."""
    raise ValueError(f"{name} in the entry")


def _cache_read(key: str, source: str, code: str) -> Spec | None:
    """The compiled ruleset stored under `key`, or None: an entry is data (JSON, never code), and
    one of another format, stored under another key, or that cannot be read is not used. One
    whose content does not match its digest (damaged) is said on stderr; every entry not used is
    rebuilt and replaced."""
    directory = _cache_dir()
    if directory is None:
        return None
    path = directory / f"ruleset-{key}.json"
    try:
        data = read_document(path)
    except (OSError, Unreadable):  # no entry yet (or no cache to be had): built, no news
        return None
    try:
        entry = json.loads(data, parse_constant=_refuse_constant)
        older = entry.get("format") if isinstance(entry, dict) else None
        if type(older) is int and 1 <= older < CACHE_FORMAT:
            return None  # an entry of an older layout (an older referee): replaced, nothing damaged
        if not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT:
            _say_damaged(key, "its format is not one referee wrote", data)
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or entry.get("source") != source or entry.get("code") != code:
            _say_damaged(key, "it is not the entry of this ruleset", data)
            return None
        if entry.get("digest") != _content_digest(key, source, code, entry.get("ruleset")):
            _say_damaged(key, "its content does not match its digest", data)
            return None
        model = decode(entry["ruleset"])
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        _say_damaged(key, "it cannot be read" if isinstance(exc, (ValueError, RecursionError)) else "a part of it is missing", data)
        return None
    if not isinstance(model, Spec):
        _say_damaged(key, "it holds no ruleset", data)
        return None
    return model


def _say_damaged(key: str, why: str, data: bytes | None = None) -> None:
    """One line on stderr for a damaged entry: the user learns that their cache was touched.
    Several processes (the workers of a --jobs run) may read the same damaged entry (`data`):
    the one that takes it out of the cache says so, the others rebuild it in silence."""
    directory = _cache_dir()
    if directory is None:
        return
    where = directory / f"ruleset-{key}.json"
    if data is not None and not _taken_out(where, data):
        return
    with contextlib.suppress(OSError, ValueError):  # a closed or full stderr: the rebuild goes on
        sys.stderr.write(printable(f"referee: the cached ruleset {where} is damaged ({why}): ignored and rebuilt") + "\n")


def _taken_out(path: Path, data: bytes) -> bool:
    """Take the damaged entry `data` out of the cache; False when another process did first
    (the entry is gone, or is another one now: a good entry just rebuilt is put back)."""
    aside = path.with_name(f".damaged-{os.getpid()}-{path.name}")
    try:
        os.rename(path, aside)  # atomic: of processes that read the same entry, one takes it
    except FileNotFoundError:
        return False
    except OSError:  # a cache that cannot be changed: said each time it is read
        return True
    try:
        if aside.read_bytes() == data:
            return True
        os.replace(aside, path)  # not the damaged entry: one rebuilt meanwhile, put back
        return False
    except OSError:
        return True
    finally:
        with contextlib.suppress(OSError):
            aside.unlink()


def _cache_write(key: str, source: str, code: str, model: Spec) -> None:
    """Store a compiled ruleset under `key`, atomically (a reader sees the old entry or the new
    one); a cache that cannot be written is simply not used, and leaves nothing behind."""
    directory = _cache_dir()
    if directory is None:
        return
    tmp: str | None = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".ruleset-", suffix=".tmp", dir=directory)
        ruleset = encode(model)
        entry = {"format": CACHE_FORMAT, "key": key, "source": source, "code": code, "digest": _content_digest(key, source, code, ruleset), "ruleset": ruleset}
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(entry, fh, allow_nan=False)
        os.replace(tmp, directory / f"ruleset-{key}.json")
        tmp = None
    except (OSError, ValueError):  # ValueError: a ruleset with a NaN is not cached (it is read from its files every time)
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


_BYTES: dict[str, bytes] = {}  # the bytes of each layer read, for the cache key


def _read(path: Path) -> YNode:
    try:
        data = read_document(path)
        _BYTES[str(path)] = data
    except OSError as exc:
        raise InputError([Diagnostic("ruleset.unreadable", f"cannot read ruleset {path}: {exc.strerror}", None, READ_ERROR)]) from None
    except Unreadable as exc:
        raise InputError([Diagnostic("ruleset.unreadable", f"cannot read ruleset {path}: {exc.message}", None, READ_ERROR)]) from None
    root = read_yaml(data, str(path))
    if not root.is_map:
        raise InputError([Diagnostic("ruleset.invalid", "a ruleset file must be a mapping of keys", root.location, READ_ERROR)])
    return root


MAX_DEPTH = 32  # rulesets extending rulesets, deepest
MAX_LAYERS = 64  # distinct ruleset files in one ruleset
MAX_PARENTS = 32  # names in one `extends` list


def _invalid(message: str, where: YNode | None = None) -> InputError:
    return InputError([Diagnostic("ruleset.invalid", message, where.location if where is not None else None, READ_ERROR)])


def _layers(path: Path, chain: tuple[str, ...] = (), memo: dict[str, list[YNode]] | None = None) -> list[YNode]:
    """The files to merge for `path`, ancestors first, each once; each file's layers found once
    (`memo`: a diamond of `extends` costs no more than a chain), within the limits above."""
    memo = {} if memo is None else memo
    key = str(path.resolve())
    if key in memo:
        return memo[key]
    if key in chain:
        raise _invalid(f"ruleset {path.name} extends itself (through {' -> '.join(Path(c).name for c in chain)})")
    if len(chain) >= MAX_DEPTH:
        raise _invalid(f"ruleset {path.name}: `extends` goes more than {MAX_DEPTH} rulesets deep")
    root = _read(path)
    out: list[YNode] = []
    seen: set[str] = set()
    for node in _parents(root.value.get("extends")):
        parent = ruleset_path(node.text(), path.parent)
        if not _is_file(parent):
            raise _invalid(f"extends unknown ruleset '{node.text()}'", node)
        for layer in _layers(parent, (*chain, key), memo):
            if layer.file not in seen:
                seen.add(layer.file)
                out.append(layer)
    out.append(root)
    if len(out) > MAX_LAYERS:
        raise _invalid(f"ruleset {path.name} is made of more than {MAX_LAYERS} ruleset files")
    memo[key] = out
    return out


_EXTENDS_LINE = re.compile(rb"^extends:[ \t]*(.*?)[ \t]*\r?$", re.MULTILINE)  # `extends:` as a top-level key, on its line
_QUICK_NAME = re.compile(r"""^(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_.][A-Za-z0-9_. /-]*))$""")  # a name, plain or quoted


def _quick_layers(path: Path, chain: tuple[str, ...] = (), memo: dict[str, list[str]] | None = None) -> list[str] | None:
    """The files of the ruleset at `path`, as `_layers` finds them (the `file` of each layer),
    read off each file's `extends:` line without parsing its YAML (most of the time of loading
    a cached ruleset); None when a file says more than such a line (a list on lines of its own,
    a comment, an escape), for `_layers` to read. A guess is never trusted: the cache entry it
    finds is one that the full reading of these very files, with these very bytes, wrote."""
    memo = {} if memo is None else memo
    key = str(path.resolve())
    if key in memo:
        return memo[key]
    if key in chain or len(chain) >= MAX_DEPTH:
        return None
    try:
        data = read_document(path)
    except (OSError, Unreadable):
        return None
    names = _quick_parents(data)
    if names is None:
        return None
    _BYTES[str(path)] = data
    out: list[str] = []
    for name in names:
        parent = ruleset_path(name, path.parent)
        found = _quick_layers(parent, (*chain, key), memo) if _is_file(parent) else None
        if found is None:
            return None
        out += [file for file in found if file not in out]
    out.append(str(path))
    if len(out) > MAX_LAYERS:
        return None
    memo[key] = out
    return out


def _quick_parents(data: bytes) -> list[str] | None:
    """The names a ruleset file's `extends:` line gives (none without one), or None when unsure."""
    if b"\\" in data:  # an escape could spell the key
        return None
    lines = _EXTENDS_LINE.findall(data)
    if data.count(b"extends") != len(lines) or len(lines) > 1:  # the word anywhere else: the parser reads the file
        return None
    if not lines:
        return []
    written = lines[0].decode("utf-8", "replace")
    items = written[1:-1].split(",") if written.startswith("[") and written.endswith("]") else [written]
    names = []
    for item in items:
        name = _QUICK_NAME.match(item.strip())
        if name is None:
            return None
        names.append(next(group for group in name.groups() if group is not None))
    return names


def _parents(node: YNode | None) -> list[YNode]:
    """The names of `extends`: one name, or a list of names."""
    if node is None or node.value is None:
        return []
    form = "`extends` is a ruleset name or a list of names, e.g. `extends: base` or `extends: [base, changes.yaml]`"
    if node.is_scalar:
        if isinstance(node.value, bool):
            raise _invalid(form, node)
        return [node]
    if not isinstance(node.value, list):
        raise _invalid(form, node)
    if len(node.value) > MAX_PARENTS:
        raise _invalid(f"`extends` lists {len(node.value)} rulesets; at most {MAX_PARENTS}", node)
    for item in node.value:
        if not item.is_scalar or isinstance(item.value, bool) or item.value is None:
            raise _invalid(form, item)
    return list(node.value)


def _merge(base: YNode, over: YNode) -> YNode:
    if base.is_map and over.is_map:
        merged = dict(base.value)
        keys = dict(base.keys or {})
        for k, v in over.value.items():
            if k in _ID_LISTS and k in merged and merged[k].is_list and v.is_list:
                merged[k] = _merge_items(merged[k], v)
            elif k in merged and merged[k].is_map and v.is_map:
                merged[k] = _merge(merged[k], v)
            else:
                merged[k] = v
            if over.keys and k in over.keys:
                keys[k] = over.keys[k]
        out = YNode(merged, None, over.file, over.line, over.column)
        out.keys = keys
        return out
    return over


def _merge_items(base: YNode, over: YNode) -> YNode:
    """Merge two lists of items by `id`; a renamed item keeps its old names as aliases."""
    items: list[YNode] = list(base.value)
    index = {_item_id(n): i for i, n in enumerate(items) if _item_id(n) is not None}
    for node in over.value:
        ident = _item_id(node)
        if ident is None or ident not in index:
            if not (node.is_map and _flag(node, "remove")):
                index[ident or f"#{len(items)}"] = len(items)
                items.append(node)
            continue
        i = index[ident]
        if _flag(node, "remove"):
            items[i] = None  # type: ignore[call-overload]
            continue
        old = items[i]
        merged = _merge(old, node)
        old_names = _names(old)
        new_name = node.value.get("name")
        if new_name is not None and old_names and new_name.text() != old_names[0]:
            aliases = _names(merged)[1:]
            aliases += [n for n in old_names if n not in aliases and n != new_name.text()]
            merged.value["aliases"] = YNode([YNode(a, a, node.file, node.line, node.column) for a in aliases], None, node.file, node.line, node.column)
        items[i] = merged
    kept = [n for n in items if n is not None]
    return YNode(kept, None, over.file, over.line, over.column)


def _item_id(node: YNode) -> str | None:
    if node.is_map and "id" in node.value and node.value["id"].is_scalar:
        return node.value["id"].text()
    return None


def _flag(node: YNode, key: str) -> bool:
    return bool(node.is_map and key in node.value and node.value[key].value is True)


def _names(node: YNode) -> list[str]:
    """The item's name then its aliases, as written."""
    out: list[str] = []
    if node.is_map:
        if "name" in node.value:
            out.append(node.value["name"].text())
        aliases = node.value.get("aliases")
        if aliases is not None and aliases.is_list:
            out.extend(a.text() for a in aliases.value)
    return out
