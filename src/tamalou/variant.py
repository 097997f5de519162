"""Finding and loading variants: names, aliases, files, ``extends`` and composition.

- ``load_variant("house")``: a name or alias (case-insensitive), or a path to a ``.toml`` file.
- ``load_variant(["base", "modifier"])``: a composition, later ones override earlier ones.
- A file may say ``extends = "base"`` or ``extends = ["base", "other"]``: the bases are merged in
  order, then the file's own keys on top (tables merge key by key, other values replace, and
  ``plugins`` lists add up). A cycle of ``extends`` is an error that names the cycle.
- A *modifier* file says ``base = "<name>"``: composed with others it adds only its own keys;
  loaded alone it applies to its base.
- ``variant_from_toml(text)``: the text of such a file, read as the file would be, with no folder
  (``extends`` names registered variants only).
- A plugin module named in ``plugins`` is looked for first beside the file that names it (``my_rules.py``
  or a package ``my_rules/`` next to ``house.toml``), then on ``sys.path``; ``sys.path`` is left as it
  was. Such a module is imported once per process under its name, like any module.

Every error is a ``VariantError`` naming the file, the key path and what was expected. A load lists
every problem of the files at once (types, unknown keys, checks of meaning such as a peek at a slot
nobody is dealt, plugins that cannot be imported), each in ``VariantError.errors``. A variant is
validated whole before it is returned, so nothing is ever half-loaded: a load that fails leaves no
cache entry, no plugin module it imported and no action type a plugin registered.

Untrusted variants (``allow_plugins=False``, or a list of the plugin modules allowed): no plugin module is
imported but tamalou's own (``tamalou.plugins.*``) and the listed ones (from ``sys.path`` only, never
beside a file); ``extends`` and ``base`` name registered variants only, never files; an error names the
key and what was expected, never a value read from another file. In every mode a file is read once per
load, ``extends`` chains are at most ``MAX_EXTENDS_DEPTH`` files deep and TOML tables at most
``MAX_NESTING`` levels deep.
"""

from __future__ import annotations

import importlib.machinery
import json
import math
import os
import re
import secrets
import sys
import threading
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .actions import ACTION_TYPES
from .cards import parse_card
from .errors import VariantError
from .plugins import discovery_manager, import_plugin, is_builtin_plugin, rules_manager
from .schema import _MODULE_NAME, Powers, Rules, Variant, rules_problems

VariantSpec = str | Path | Variant | Sequence[str | Path]

_META_NOT_INHERITED = ("name", "aliases", "title", "description", "base")

#: How many files deep an ``extends`` (or ``base``) chain may go.
MAX_EXTENDS_DEPTH = 32
#: How deeply tables and lists may nest in a variant (the format itself needs 4 levels).
MAX_NESTING = 32

#: Which plugin modules a load may import: ``None`` for any (trusted), else the allowed ones beyond
#: tamalou's own (``tamalou.plugins.*``).
_Allowed = frozenset[str] | None


def _allowed(allow_plugins: bool | Iterable[str]) -> _Allowed:
    if allow_plugins is True:
        return None
    if allow_plugins is False:
        return frozenset()
    if isinstance(allow_plugins, str):
        return frozenset((allow_plugins,))
    names = frozenset(allow_plugins)
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"allow_plugins: expected True, False or module names, got {allow_plugins!r}")
    return names


def _refusals(plugins: Any, allowed: _Allowed, file: str | None) -> list[VariantError]:
    """The plugin modules an untrusted variant may not use (refused before anything is imported)."""
    if allowed is None or not isinstance(plugins, list | tuple):
        return []
    out = []
    listed = sorted(allowed)
    extra = f" or one of {', '.join(listed)}" if len(listed) <= 8 else " or those allowed"
    for name in _unique_names(plugins):  # a name listed twice is one problem
        if not (is_builtin_plugin(name) or name in allowed):
            out.append(
                VariantError(
                    f"plugin module {name!r} is not allowed in an untrusted variant "
                    f"(only tamalou's own plugins, tamalou.plugins.*{extra if listed else ''})",
                    file=file,
                    key="plugins",
                )
            )
    return out


def _unique_names(items: Iterable[Any]) -> list[str]:
    """The strings of ``items``, each once, in order (linear: a list of thousands of names stays cheap)."""
    return list(dict.fromkeys(x for x in items if isinstance(x, str)))


def _check_plugins(plugins: Any, allowed: _Allowed, file: str | None) -> None:
    """Refuse, before anything is imported, a plugin module an untrusted variant may not use."""
    refused = _refusals(plugins, allowed, file)
    if refused:
        raise VariantError.combine(refused)


def _check_nesting(data: Any, file: str | None) -> None:
    """Refuse tables or lists nested more than ``MAX_NESTING`` deep (walked without recursion)."""
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_NESTING:
            raise VariantError(f"tables or lists nested more than {MAX_NESTING} levels deep", file=file)
        if isinstance(value, Mapping):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list | tuple):
            todo.extend((v, depth + 1) for v in value)


def _parse_toml(text: str, file: str) -> dict[str, Any]:
    """The table of TOML ``text`` (``file`` is what errors call it), its nesting checked.

    An integer of more digits than Python converts from text (``sys.get_int_max_str_digits()``, 4300 by
    default), which ``tomllib`` refuses with a bare ``ValueError`` that names no key, is read as an integer
    of that size (``_parse_long_integers``): the checks of its key then refuse it as out of bounds, naming
    the file and the key like any other bad value."""
    try:
        raw = _toml_loads(text, file)
    except VariantError:
        raise
    except ValueError:  # int() of a decimal integer too long to convert: tomllib says nothing of where
        raw = _parse_long_integers(text, file)
    _check_nesting(raw, file)
    return raw


def _toml_loads(text: str, file: str) -> dict[str, Any]:
    """``tomllib.loads(text)``: a ``VariantError`` for what is not TOML or is nested too deep; the bare
    ``ValueError`` of an integer too long to convert goes through."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"not valid TOML: {exc}", file=file) from None
    except RecursionError:
        raise VariantError(f"tables or lists nested more than {MAX_NESTING} levels deep", file=file) from None


#: What ``_parse_long_integers`` reads: strings and comments (kept as they are), and decimal integers
#: (the value of a key or an item of a list: not part of a key, a float, a date or a name).
_TOML_TOKEN = re.compile(
    r'"""(?:[^\\]|\\[\s\S])*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
    r"|(?<![\w.:+-])(?P<sign>[+-]?)(?P<digits>[1-9](?:_?[0-9])*)(?![\w.:]|[ \t]*[=.])"
)


def _parse_long_integers(text: str, file: str) -> dict[str, Any]:
    """The table of TOML ``text`` whose decimal integers include one too long for ``int()`` to convert.

    Each such integer is written as a hexadecimal marker of the same length (``tomllib`` converts those
    whatever their size, and positions in later syntax errors stay right), then put back in the parsed
    table as an integer of as many digits (its sign kept): made with a shift, never by converting its
    text, so a huge integer costs time linear in its length."""
    limit = sys.get_int_max_str_digits()
    nonce = secrets.randbits(96) | 1 << 96  # markers no file can hold by chance
    found: dict[int, int] = {}  # marker -> the integer put back

    def marker(m: re.Match[str]) -> str:
        digits = m["digits"]
        if digits is None or len(digits) - digits.count("_") <= limit:
            return m[0]
        key = (nonce << 32) + len(found)
        n = len(digits) - digits.count("_")
        magnitude = 1 << math.ceil((n - 1) * math.log2(10))  # n decimal digits
        found[key] = -magnitude if m["sign"] == "-" else magnitude
        return "0x" + format(key, "x").zfill(len(m[0]) - 2)

    try:
        raw = _toml_loads(_TOML_TOKEN.sub(marker, text), file)
    except VariantError:
        raise
    except ValueError:  # an integer the markers missed: the file at least is named
        raise VariantError(
            f"an integer has more than {limit} digits: expected the numbers of a ruleset, within the bounds "
            "of their keys",
            file=file,
        ) from None
    todo: list[Any] = [raw]
    while todo:
        node = todo.pop()
        slots = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in list(slots):
            if type(v) is int and v in found:
                node[k] = found[v]
            elif isinstance(v, dict | list):
                todo.append(v)
    return raw


# --- the registry --------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _discover() -> tuple[dict[str, Path], tuple[str, ...], dict[Path, str]]:
    """Read every discovery plugin's files once: lower-cased names and aliases -> file, the
    names of the variants found (a file whose name and aliases are all taken by an earlier one
    is not found), and the name of each file."""
    found: dict[str, Path] = {}
    name_of: dict[Path, str] = {}
    pm = discovery_manager()
    for paths in reversed(pm.hook.tamalou_variant_paths()):
        for entry in paths or ():
            p = Path(entry)
            files = sorted(p.glob("*.toml")) if p.is_dir() else [p]
            for f in files:
                try:
                    raw = tomllib.loads(f.read_text(encoding="utf-8"))
                except (OSError, ValueError):  # not UTF-8, not TOML, an integer too long to read
                    continue
                name = raw.get("name", f.stem)
                name = name if isinstance(name, str) else f.stem  # (the file's load says what is wrong)
                name_of[f] = name
                aliases = raw.get("aliases")
                aliases = [a for a in aliases if isinstance(a, str)] if isinstance(aliases, list) else []
                for key in (name, *aliases):
                    found.setdefault(key.lower(), f)
    names = tuple(sorted({name_of[f] for f in set(found.values())}))
    return found, names, name_of


def _registry() -> dict[str, Path]:
    """Lower-cased names and aliases -> file."""
    return _discover()[0]


def variant_names() -> list[str]:
    """The names of every known variant (built-ins and installed plugins'), sorted."""
    return list(_discover()[1])


def is_registered(name: str) -> bool:
    """Whether ``name`` is a registered variant's name or alias (case-insensitive)."""
    return name.lower() in _registry()


def refresh_registry() -> None:
    """Forget cached discoveries (after installing a plugin at run time)."""
    from .engine.snapshot import forget_variant_refs

    _LOADED.clear()
    _discover.cache_clear()
    discovery_manager.cache_clear()
    forget_variant_refs()


# --- raw TOML handling ---------------------------------------------------------------------


def _merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge: tables merge, ``plugins`` lists add up, other values replace."""
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(dict(out[key]), value)
        elif key == "plugins" and isinstance(value, list) and isinstance(out.get(key), list):
            out[key] = _added(out[key], value)
        else:
            out[key] = value
    return out


def _added(base: list[Any], more: list[Any]) -> list[Any]:
    """``base``, then the items of ``more`` that are not in it (in linear time: a set of what is there)."""
    seen: set[Any] = set()
    loose: list[Any] = []  # what cannot be hashed (a table in a list of names: the file's own error)
    for v in base:
        try:
            seen.add(v)
        except TypeError:
            loose.append(v)
    out = list(base)
    for v in more:
        try:
            there = v in seen
        except TypeError:
            there = v in loose
        if not there:
            out.append(v)
    return out


def short(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut to about ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def short_path(text: str, limit: int = 120) -> str:
    """``repr(text)`` of a path, cut in the middle to about ``limit`` characters: its end, the file's name,
    stays (a deep folder must not hide which file is meant)."""
    if len(text) <= limit:
        return repr(text)
    head = limit // 3
    return repr(text[:head] + "…" + text[head - limit :]) + f" ({len(text)} characters)"


def _describe(value: Any, limit: int = 80) -> str:
    """``value`` as JSON (else its ``repr``), cut to about ``limit`` characters. An integer too long to
    write in decimal (``sys.get_int_max_str_digits()``) is told by its size."""
    if type(value) is int and _too_long(value):
        return f"an integer of {_digits(value)} digits"
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # an integer too long to write, in a list or a table
            text = f"a {type(value).__name__} holding an integer too long to write"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _too_long(value: int) -> bool:
    """Whether ``str(value)`` would raise (more digits than ``sys.get_int_max_str_digits()``)."""
    limit = sys.get_int_max_str_digits()
    return limit > 0 and value.bit_length() > limit * math.log2(10)  # (10**limit has more bits)


def _digits(value: int) -> str:
    """About how many decimal digits ``value`` has, worked out from its size in bits."""
    n = int((abs(value).bit_length() - 1) * math.log10(2)) + 1
    return f"about {n}"


#: At most this many problems are listed in one error's message (``VariantError.errors`` has them all).
MAX_LISTED_ERRORS = VariantError.MAX_LISTED


_EXPECTED = {
    "int_type": "expected an integer",
    "int_parsing": "expected an integer",
    "int_from_float": "expected an integer",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "string_type": "expected a string",
    "float_type": "expected a number",
    "float_parsing": "expected a number",
    "tuple_type": "expected a list",
    "list_type": "expected a list",
    "dict_type": "expected a table",
    "model_type": "expected a table",
    "model_attributes_type": "expected a table",
    "none_required": "expected nothing",
}

# How pydantic names the member of a union that failed (``int``, ``literal['threshold']``...): dropped
# from key paths, the members' expectations are joined ("expected an integer or one of 'threshold'").
_UNION_TAG = re.compile(r"(int|str|float|bool|none|constrained-[a-z]+|[a-z-]+\[.*\])")


def _errors_of(
    exc: ValidationError, file: str | None, *, echo: bool = True, skip_cross: bool = False
) -> list[VariantError]:
    """One ``VariantError`` per problem of ``exc``; with ``echo=False`` (untrusted variants) the message
    says the key and what was expected, never the value found. ``skip_cross`` leaves out the checks
    between sections (``cross_field``), made on the merged variant only."""

    def got(value: Any) -> str:
        return f", got {_describe(value)}" if echo else ""

    errs = [e for e in exc.errors() if not (skip_cross and e["type"] == "cross_field")]
    locs = [[str(x) for x in e["loc"] if x != "[key]"] for e in errs]
    # A union's members fail together: two errors or more at one place, each under a member's tag.
    tags = Counter(tuple(loc[:-1]) for loc in locs if len(loc) > 1 and _UNION_TAG.fullmatch(loc[-1]))
    found: list[tuple[str, str, str, bool]] = []  # key, expectation, ", got ...", whether in a union
    for err, loc in zip(errs, locs, strict=True):
        kind = err["type"]
        tagged = len(loc) > 1 and tags[tuple(loc[:-1])] > 1 and _UNION_TAG.fullmatch(loc[-1]) is not None
        if tagged:
            loc = loc[:-1]
        suffix = ""
        if kind == "extra_forbidden":
            what = "unknown key"
        elif kind == "missing":
            what = "required key is missing"
        elif kind == "literal_error":
            what, suffix = f"expected one of {err.get('ctx', {}).get('expected', '')}", got(err["input"])
        elif kind in _EXPECTED:
            what, suffix = _EXPECTED[kind], got(err["input"])
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            what = err["msg"].replace("Input should be", "expected a number")
            suffix = got(err["input"])
        elif kind == "finite_number":
            what, suffix = "expected a finite number", got(err["input"])
        elif kind == "too_long":
            ctx = err.get("ctx", {})
            what = f"expected at most {ctx.get('max_length')} items"
            suffix = f", got {ctx.get('actual_length')}" if echo else ""
        elif kind == "string_too_long":
            ctx, text = err.get("ctx", {}), err["input"]
            what = f"expected at most {ctx.get('max_length')} characters"
            suffix = f", got {len(text)}" if echo and isinstance(text, str) else ""
        else:
            msg = err["msg"].removeprefix("Value error, ")
            what = msg[:1].lower() + msg[1:]
        found.append((".".join(loc), what, suffix, tagged))
    out: list[VariantError] = []
    done: dict[str, VariantError] = {}
    for key, what, suffix, tagged in found:
        if tagged:  # every member of a union failed: one problem, each member's expectation
            if key in done:
                continue
            members = [(w, s) for k, w, s, t in found if t and k == key]
            whats = [members[0][0]] + [w.removeprefix("expected ") for w, _ in members[1:]]
            what, suffix = " or ".join(whats), members[0][1]
        error = VariantError(what + suffix, file=file, key=key or None)
        done[key] = error
        out.append(error)
    return out


def _partial_errors(
    raw: Mapping[str, Any], file: str, *, echo: bool = True, name: str | None = ""
) -> list[VariantError]:
    """The problems of the keys of one file on their own, so that each error names the file that wrote
    it (the checks between sections are made on the merged variant). A file's name defaults to its stem
    (``name=""``), a text's to ``name`` (``None``: it has to say it)."""
    data = {k: v for k, v in raw.items() if k not in ("extends",)}
    default = Path(file).stem if name == "" else name
    if default is not None:
        data.setdefault("name", default)
    try:
        Variant.model_validate(data)
    except ValidationError as exc:
        return _errors_of(exc, file, echo=echo, skip_cross=True)
    return []


#: The tables keyed by cards, and by ranks: a file's keys are written the standard way before files are
#: merged, so that ``kh`` in a file overrides ``KH`` of the file it extends.
_CARD_TABLES = (("values", "cards"), ("powers", "cards"))
_RANK_TABLES = (("values", "ranks"), ("powers", "ranks"), ("deck", "counts"))


def _standard_keys(raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` with the keys of its card and rank tables written the standard way (``kh`` -> ``KH``);
    a key that names no card is left as it is (the error is the file's own)."""
    rules = raw.get("rules")
    if not isinstance(rules, Mapping):
        return raw
    new_rules: dict[str, Any] | None = None
    for tables, norm in ((_CARD_TABLES, _card_text), (_RANK_TABLES, _rank_text)):
        for section, key in tables:
            sec = rules.get(section)
            table = sec.get(key) if isinstance(sec, Mapping) else None
            if not isinstance(table, Mapping):
                continue
            fixed = {norm(k): v for k, v in table.items()}
            if list(fixed) == list(table):
                continue
            if new_rules is None:
                new_rules = dict(rules)
            new_rules[section] = {**new_rules[section], key: fixed}
    return raw if new_rules is None else {**raw, "rules": new_rules}


def _card_text(key: Any) -> Any:
    try:
        return str(parse_card(key))
    except ValueError:
        return key


def _rank_text(key: Any) -> Any:
    return key.upper() if isinstance(key, str) else key


#: A name in quotes in an error's reason (how a reason names a plugin module: ``repr(name)``).
_QUOTED = re.compile(r"'([^'\\\s]+)'")


def _quoted(reason: str) -> set[str]:
    """The names a reason quotes (``repr(name)`` of a module name is the name in single quotes)."""
    return set(_QUOTED.findall(reason))


def _plugin_origins(order: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, int]:
    """Each plugin module named by a file of ``order``: the position in ``order`` of the last file naming it."""
    last: dict[str, int] = {}
    for i, (_, raw) in enumerate(order):
        named = raw.get("plugins")
        if isinstance(named, list):
            for p in _unique_names(named):
                last[p] = i
    return last


def _origin(
    error: VariantError,
    order: Sequence[tuple[str, Mapping[str, Any]]],
    default: str | None,
    plugins: Mapping[str, int] | None = None,
) -> str | None:
    """The last file (of ``order``, the files in the order merged) that sets the key of ``error``; for a
    problem of a plugin, the last file that names that plugin (``plugins``: ``_plugin_origins(order)``,
    made once for many errors)."""
    if not error.key:
        return default
    parts = error.key.split(".")
    if parts == ["plugins"]:
        last = _plugin_origins(order) if plugins is None else plugins
        found = [last[name] for name in _quoted(error.reason) if name in last]
        return order[max(found)][0] if found else default
    for i in range(len(order) - 1, -1, -1):
        if _sets(order[i][1], parts):
            return order[i][0]
    return default


def _sets(raw: Mapping[str, Any], parts: Sequence[str]) -> bool:
    """Whether the table ``raw`` has the key path ``parts``."""
    node: Any = raw
    for part in parts:
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


class _Loader:
    """One load: every file is read, and resolved, at most once (an ``extends`` diamond stays cheap).

    Problems are gathered (``errors``), not raised one at a time, so that a load reports them all; a
    problem that leaves no whole variant to check (a file that cannot be read, an ``extends`` that
    cannot be followed) also sets ``broken``."""

    def __init__(self, allowed: _Allowed = None) -> None:
        self.allowed = allowed
        self.untrusted = allowed is not None
        self.stack: list[str] = []
        self.files: dict[str, int] = {}  # every file read, with its modification time
        self.raw: dict[str, dict[str, Any]] = {}  # resolved path -> its parsed TOML
        self.resolved: dict[tuple[str, bool], dict[str, Any]] = {}  # (resolved path, as_delta) -> data
        self.errors: list[VariantError] = []
        self.broken = False
        self.refused = False  # a plugin module an untrusted load may not import is named
        self.checked: set[str] = set()  # the files whose own keys were checked
        self.order: list[tuple[str, Mapping[str, Any]]] = []  # (file name, its own keys), in the order merged
        #: plugin module -> the folders of the files naming it (and their names), searched first for it
        self.beside: dict[str, list[tuple[Path, str]]] = {}

    def fail(self, error: VariantError) -> None:
        """A problem that leaves no whole variant to check."""
        self.errors.extend(error.errors)
        self.broken = True

    def lookup(
        self,
        spec: str | Path,
        *,
        file: str | None = None,
        near: Path | None = None,
        key: str = "extends",
        folder: bool = True,
    ) -> Path:
        """A registered name or alias, else a path (relative to ``near``, the file that names it).

        For an untrusted load, a name written in a file (``file`` given) must be registered: a path is
        refused without looking at it, so the error says nothing of what is on the disk. So it is for a
        name written in TOML text (``folder=False``): a text has no folder a path could start from."""
        text = str(spec)
        reg = _registry()
        if isinstance(spec, str) and text.lower() in reg:
            return reg[text.lower()]
        where = key if file else None
        if file is not None and self.untrusted:
            known = ", ".join(variant_names())
            raise VariantError(
                f"expected the name of a registered variant ({known}); files are not followed in an untrusted variant",
                file=file,
                key=key,
            )
        if file is not None and not folder:
            known = ", ".join(variant_names())
            raise VariantError(
                f"expected the name of a registered variant ({known}), got {short(text)}: TOML text has no "
                "folder, so files are not followed (a relative path would be relative to nothing); "
                "load it from a file to extend a file",
                file=file,
                key=key,
            )
        p = Path(text)
        if near is not None and not p.is_absolute():
            p = near / p
        try:
            found = p.suffix == ".toml" or p.exists()
            if found and not p.is_file():
                raise VariantError(f"no variant file at {short_path(text)}", file=file, key=where)
        except (OSError, ValueError) as exc:  # a name too long, a NUL in it...
            if isinstance(exc, VariantError):
                raise
            raise VariantError(f"no variant file at {short_path(text)}", file=file, key=where) from None
        if found:
            return p
        known = ", ".join(variant_names())
        raise VariantError(
            f"unknown variant {short(text)} (known: {known}; or give a path to a .toml file)", file=file, key=where
        )

    def read(self, path: Path) -> dict[str, Any]:
        key = str(path.resolve())
        cached = self.raw.get(key)
        if cached is not None:
            return cached
        try:
            self.files[key] = path.stat().st_mtime_ns
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise VariantError(f"cannot read: {exc.strerror}", file=str(path)) from None
        except UnicodeDecodeError:
            raise VariantError("not valid TOML: not UTF-8 text", file=path.name) from None
        raw = _parse_toml(text, path.name)
        self.raw[key] = raw
        return raw

    def resolve_text(self, raw: dict[str, Any], file: str, name: str | None) -> dict[str, Any]:
        """The data of TOML text (parsed: ``raw``) with its ``extends`` merged in: like a file's, but with
        no folder (``extends`` names registered variants only; plugin modules come from ``sys.path``).
        ``file`` is what errors call the text, ``name`` its name if it says none."""
        self.errors += _partial_errors(raw, file, echo=not self.untrusted, name=name)
        refused = _refusals(raw.get("plugins"), self.allowed, file)
        self.refused = self.refused or bool(refused)
        self.errors += refused
        self.stack.append("\0" + file)  # counts in the depth of the chain; no file can extend a text
        try:
            return self._resolve_raw(raw, file=file, near=None, name=name, as_delta=False, folder=False)
        finally:
            self.stack.pop()

    def resolve_file(self, path: Path, *, as_delta: bool) -> dict[str, Any]:
        """The raw data of a file with its ``extends`` merged in (only its keys if ``as_delta``).

        Raises what leaves nothing to resolve (a cycle, a file that cannot be read); the file's other
        problems are added to ``errors``."""
        key = str(path.resolve())
        if key in self.stack:
            names = [Path(s).name for s in self.stack[self.stack.index(key) :]] + [path.name]
            raise VariantError("extends cycle: " + " -> ".join(names), file=path.name, key="extends")
        done = self.resolved.get((key, as_delta))
        if done is not None:
            return done
        if len(self.stack) >= MAX_EXTENDS_DEPTH:
            raise VariantError(f"extends chain more than {MAX_EXTENDS_DEPTH} files deep", file=path.name, key="extends")
        raw = self.read(path)
        if key not in self.checked:
            self.checked.add(key)
            self._check_own(path, raw)
        self.stack.append(key)
        try:
            result = self._resolve(path, raw, as_delta=as_delta)
        finally:
            self.stack.pop()
        self.resolved[(key, as_delta)] = result
        return result

    def _check_own(self, path: Path, raw: dict[str, Any]) -> None:
        """The problems of a file's own keys; where to look for the plugin modules it names."""
        file = path.name
        self.errors += _partial_errors(raw, file, echo=not self.untrusted)
        refused = _refusals(raw.get("plugins"), self.allowed, file)
        self.refused = self.refused or bool(refused)
        self.errors += refused
        plugins = raw.get("plugins")
        if isinstance(plugins, list):
            folder = path.resolve().parent
            for name in _unique_names(plugins):  # (a file is checked once: each name once per file)
                self.beside.setdefault(name, []).append((folder, file))

    def _resolve(self, path: Path, raw: dict[str, Any], *, as_delta: bool) -> dict[str, Any]:
        return self._resolve_raw(raw, file=path.name, near=path.parent, name=path.stem, as_delta=as_delta)

    def _resolve_raw(
        self,
        raw: dict[str, Any],
        *,
        file: str,
        near: Path | None,
        name: str | None,
        as_delta: bool,
        folder: bool = True,
    ) -> dict[str, Any]:
        extends = raw.get("extends", [])
        if isinstance(extends, str):
            extends = [extends]
        if not isinstance(extends, list) or not all(isinstance(e, str) for e in extends):
            got = f", got {_describe(extends)}" if not self.untrusted else ""
            self.fail(VariantError(f"expected a variant name or a list of names{got}", file=file, key="extends"))
            extends = []
        base_name = raw.get("base")
        merged: dict[str, Any] = {}
        if extends:
            merged = self.resolve_list(extends, file=file, near=near, folder=folder)
        elif base_name and not as_delta:
            if isinstance(base_name, str):
                merged = self.resolve_list([base_name], file=file, near=near, folder=folder)
            else:
                self.broken = True  # the wrong type is the file's own error (base: expected a string)
        own = _standard_keys({k: v for k, v in raw.items() if k != "extends"})
        if name is not None:
            own.setdefault("name", name)
        self.order.append((file, own))
        merged = {k: v for k, v in merged.items() if k not in _META_NOT_INHERITED}
        return _merge(merged, own)

    def resolve_list(
        self,
        specs: Sequence[str | Path],
        *,
        file: str | None = None,
        near: Path | None = None,
        key: str = "extends",
        folder: bool = True,
    ) -> dict[str, Any]:
        """The files of ``specs`` merged in order; a file that cannot be found or read is a problem
        (gathered, then the others are still resolved) naming ``file``, the file (or text) that names
        them."""
        merged: dict[str, Any] = {}
        names = []
        for i, spec in enumerate(specs):
            try:
                path = self.lookup(spec, file=file, near=near, key=key, folder=folder)
                raw = self.resolve_file(path, as_delta=i > 0 and self._is_modifier(path))
            except VariantError as exc:
                self.fail(exc)
                continue
            name = raw.get("name", path.stem)
            names.append(name if isinstance(name, str) else path.stem)  # (a name of another type is an error)
            merged = _merge({k: v for k, v in merged.items() if k not in _META_NOT_INHERITED}, raw)
        if len(names) > 1:
            merged["name"] = "+".join(names)
            merged.pop("aliases", None)
        return merged

    def _is_modifier(self, path: Path) -> bool:
        return bool(self.read(path).get("base"))

    def alias_errors(self, path: Path | None, raw: Mapping[str, Any], file: str | None = None) -> list[VariantError]:
        """Aliases of the file loaded (or of the text: ``path`` ``None``, ``file`` what errors call it)
        that are another registered ruleset's name or alias."""
        aliases = raw.get("aliases")
        if not isinstance(aliases, list):
            return []
        reg, names = _registry(), _discover()[2]
        here = path.resolve() if path is not None else None
        where = path.name if path is not None else file
        out = []
        for alias in aliases:
            if not isinstance(alias, str):
                continue
            other = reg.get(alias.lower())
            if other is not None and other.resolve() != here:
                owner = names.get(other, other.stem)
                said = f"alias {alias!r}" if not self.untrusted else "an alias"
                out.append(
                    VariantError(
                        f"{said} is already a name of the registered ruleset {owner!r} ({other.name}): "
                        "expected a name of its own",
                        file=where,
                        key="aliases",
                    )
                )
        return out


_LOADED: dict[tuple[object, ...], tuple[Variant, dict[str, int]]] = {}


def _unchanged(files: dict[str, int]) -> bool:
    try:
        return all(Path(f).stat().st_mtime_ns == t for f, t in files.items())
    except OSError:
        return False


def load_variant(spec: VariantSpec, *, allow_plugins: bool | Iterable[str] = True) -> Variant:
    """Load a variant by name, alias, path, or a list of those (a composition).

    Raises ``VariantError`` naming the file, the key path and what was expected; when there are several
    problems, one error lists them all (each in ``VariantError.errors``). A variant is immutable, so the
    same spec gives the same object again while its files are unchanged.

    A plugin module named in a file's ``plugins`` is looked for beside that file first, then on
    ``sys.path`` (which is left as it was).

    ``allow_plugins`` says which plugin modules the variant (or anything it extends) may import:

    - ``True`` (the default): any, as today. For rules you trust: your own files, installed packages.
    - ``False``: only tamalou's own (``tamalou.plugins.*``, e.g. the French caller's rule). Any other
      module named in ``plugins`` is a ``VariantError`` naming the key and the module, and nothing is
      imported. A server loads an uploaded file so: ``load_variant(path, allow_plugins=False)``, and
      uploaded text with ``variant_from_toml(text, allow_plugins=False)``.
    - a list of module names: those, and tamalou's own (found on ``sys.path`` only, never beside a file).

    When it is not ``True`` the rules are *untrusted*: ``extends`` and a modifier's ``base`` name only
    registered variants (built-ins and installed plugins'), never files — a path is refused without
    being looked at — and errors say the key and what was expected, never a value read from a file.
    ``spec`` itself is the caller's and may still be a path (the uploaded file) or a composition.
    """
    allowed = _allowed(allow_plugins)
    if isinstance(spec, Variant):
        _check_plugins(list(spec.plugins), allowed, None)
        return spec
    specs = [spec] if isinstance(spec, str | Path) else spec
    if not isinstance(specs, Sequence) or not all(isinstance(s, str | Path) for s in specs):
        return _load(spec, allowed)[0]  # raises the VariantError that says what a spec is
    # (a name and a list of that one name make the same rules but not the same spec: a snapshot names its
    # variant by the spec it was loaded by)
    key = (os.getcwd(), specs is spec, *(str(s) for s in specs), allowed)
    cached = _LOADED.get(key)
    if cached is not None and _unchanged(cached[1]):
        return cached[0]
    variant, files = _load(spec, allowed)
    if len(_LOADED) > 256:
        _LOADED.clear()
    _LOADED[key] = (variant, files)
    return variant


def _load(spec: VariantSpec, allowed: _Allowed = None) -> tuple[Variant, dict[str, int]]:
    loader = _Loader(allowed)
    raw: dict[str, Any] = {}
    file: str | None = None
    keep: object = None
    if isinstance(spec, str | Path):
        keep = str(spec)
        try:
            path = loader.lookup(spec)
            file = path.name
            raw = loader.resolve_file(path, as_delta=False)
        except VariantError as exc:
            loader.fail(exc)
        else:
            loader.errors += loader.alias_errors(path, loader.read(path))
    elif isinstance(spec, Sequence) and spec and all(isinstance(s, str | Path) for s in spec):
        raw = loader.resolve_list(list(spec))
        keep = [str(s) for s in spec]
    else:
        try:
            shown = repr(spec)
        except ValueError:  # an integer too long to write in it
            shown = _describe(spec)
        raise VariantError(f"expected a variant name, a path or a list of them, got {shown}")
    if loader.broken:
        raise VariantError.combine(loader.errors)
    variant = _validate(raw, file, allowed, loader)
    variant._spec = keep
    return variant, loader.files


def variant_from_dict(
    data: Mapping[str, Any], *, file: str | None = None, allow_plugins: bool | Iterable[str] = True
) -> Variant:
    """Validate a whole variant given as a dict (e.g. parsed TOML, ``extends`` already resolved).

    ``allow_plugins`` is ``load_variant``'s: pass ``False`` for data you do not trust (a snapshot
    received from elsewhere), so that only tamalou's own plugin modules may be imported. Its plugin
    modules are imported by name (a module already imported, e.g. one found beside a variant file that
    was loaded, is the one used)."""
    return _validate(data, file, _allowed(allow_plugins))


#: What ``variant_from_toml`` calls the text in its errors unless told.
TEXT_LABEL = "<text>"


def variant_from_toml(
    text: str | bytes, *, file: str = TEXT_LABEL, allow_plugins: bool | Iterable[str] = True
) -> Variant:
    """Load a variant from the text of a ruleset file (TOML), without writing it to a file: rules a
    server receives, a text kept in a database.

    The text is read as a file with that text would be: the same keys, the same checks, ``extends``
    merged, every problem in one ``VariantError`` naming the file, the key path and what was expected;
    ``file`` is the name those errors give the text (``"<text>"`` unless told). A ``file`` ending in
    ``.toml`` also gives the variant its name when the text says none, as a file's name does
    (``file="uploaded.toml"``: ``uploaded``); otherwise the text must say ``name``. So
    ``variant_from_toml(path.read_text(), file=path.name)`` is ``load_variant(path)`` for a file that
    extends registered rulesets only.

    The text has no folder: ``extends`` (and a modifier's ``base``) may name only registered rulesets;
    a path there, relative or not, is an error that says so. A plugin module is looked for on
    ``sys.path`` only. ``allow_plugins`` is ``load_variant``'s: pass ``False`` for text you do not
    trust (only tamalou's own plugin modules, ``tamalou.plugins.*``, may then be named; nothing else
    is imported), or the module names you allow. Bytes must be UTF-8. How long a text you accept is
    yours to decide (a whole ruleset is a few kilobytes); it is not cached: keep the variant to reuse it.
    """
    allowed = _allowed(allow_plugins)
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise VariantError("not valid TOML: not UTF-8 text", file=file) from None
    if not isinstance(text, str):
        raise VariantError(f"expected the TOML text of a variant (a str), got {type(text).__name__}", file=file)
    raw = _parse_toml(text, file)
    name = Path(file).stem if file.endswith(".toml") and Path(file).stem else None
    loader = _Loader(allowed)
    data: dict[str, Any] = {}
    try:
        data = loader.resolve_text(raw, file, name)
    except VariantError as exc:
        loader.fail(exc)
    else:
        loader.errors += loader.alias_errors(None, raw, file)
    if loader.broken:
        raise VariantError.combine(loader.errors)
    return _validate(data, file, allowed, loader)


def _validate(data: Mapping[str, Any], file: str | None, allowed: _Allowed, loader: _Loader | None = None) -> Variant:
    """The variant of ``data`` (merged, ``extends`` resolved), checked whole and compiled; else one
    ``VariantError`` with every problem: the loader's (each file's own), then the merged variant's."""
    if not isinstance(data, Mapping):
        raise VariantError(f"expected a table, got {type(data).__name__}", file=file)
    if "extends" in data:
        raise VariantError("'extends' is resolved by load_variant; pass the merged data", file=file)
    _check_nesting(data, file)
    errors = list(loader.errors) if loader else []
    order = loader.order if loader else []

    def attribute(found: Sequence[VariantError], *, named: bool = False) -> list[VariantError]:
        """The merged variant's problems that no file's own check reported. A check between keys names
        the file loaded (its merge made the combination, or the last file of a composition that sets
        the key); with ``named``, a power or a plugin names the file that named it."""
        seen = {e.key for e in errors if e.key}  # keys reported, and every key path above them
        above = {k.rsplit(".", i)[0] for k in seen for i in range(1, k.count(".") + 1)}
        origins = _plugin_origins(order) if order and named else None
        out = []
        for e in found:
            k = e.key or ""
            parts = k.split(".")
            if k and (k in above or any(".".join(parts[:i]) in seen for i in range(1, len(parts) + 1))):
                continue
            where = e.file or file
            if order and (named or not where):
                where = _origin(e, order, where, origins)
            out.append(e if where == e.file else VariantError(e.reason, file=where, key=e.key))
        return out

    refused = _refusals(data.get("plugins"), allowed, file)
    said = {x.reason for x in errors}
    errors += [e for e in refused if e.reason not in said]
    untouchable = bool(refused) or (loader is not None and loader.refused)  # nothing may be imported
    variant: Variant | None = None
    sections: dict[str, BaseModel] = {}
    try:
        variant = Variant.model_validate(dict(data))
    except ValidationError as exc:
        sections = _sections(data)
        errors += attribute(_errors_of(exc, file, echo=allowed is None) + _problems_left(sections, file))
    plugins = [] if untouchable else _plugin_names(variant, data)
    beside: dict[str, str] = {}  # the plugin modules found beside a file, and where
    with _rollback(plugins, loader):
        if plugins and allowed is None and loader is not None:
            errors += _import_beside(plugins, loader.beside, beside)
        if errors:
            if variant is None and not untouchable:
                errors += attribute(
                    _failed_plugins_and_powers(plugins, sections.get("powers"), errors, file), named=True
                )
            raise VariantError.combine(errors)
        assert variant is not None
        variant._plugin_dirs = beside
        try:
            _compile(variant, file)
        except VariantError as exc:
            raise VariantError.combine(attribute(exc.errors, named=True)) from exc.__cause__
    return variant


def _import_again(plugin_dirs: Mapping[str, str]) -> None:
    """Import, where a variant is unpickled (another process), the plugin modules its load found beside
    its files, from the same folders; a problem is left to the rulebook, which says it."""
    todo = [name for name in plugin_dirs if name not in sys.modules]
    if todo:
        _import_beside(todo, {name: [(Path(plugin_dirs[name]), "")] for name in todo})


def _plugin_names(variant: Variant | None, data: Mapping[str, Any]) -> list[str]:
    if variant is not None:
        return list(variant.plugins)
    plugins = data.get("plugins")
    if not isinstance(plugins, list | tuple):
        return []
    return [p for p in plugins if isinstance(p, str) and _MODULE_NAME.fullmatch(p)]


def _sections(data: Mapping[str, Any]) -> dict[str, BaseModel]:
    """The sections of ``data["rules"]`` that are right on their own, validated one by one."""
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        return {}
    sections: dict[str, BaseModel] = {}
    for name, field in Rules.model_fields.items():
        model = field.annotation
        assert isinstance(model, type) and issubclass(model, BaseModel)
        try:
            sections[name] = model.model_validate(rules.get(name, {}))
        except ValidationError:
            continue
    return sections


def _problems_left(sections: Mapping[str, BaseModel], file: str | None) -> list[VariantError]:
    """The checks between the sections of ``[rules]`` that pydantic did not make because a section is
    wrong: made with the sections that are right (a failed load still lists every problem)."""
    if len(sections) == len(Rules.model_fields):
        return []  # every section is right: pydantic made the checks (and reported them)
    return [
        VariantError(message, file=file, key=".".join(("rules", *map(str, loc))))
        for loc, message, _ in rules_problems(sections)
    ]


def _failed_plugins_and_powers(
    plugins: Sequence[str], powers: BaseModel | None, errors: Sequence[VariantError], file: str | None
) -> list[VariantError]:
    """For a variant already known to be wrong (so not compiled): the plugin modules that fail, and the
    powers named that no plugin registers."""
    said = {name for e in errors for name in _quoted(e.reason)}
    left = [p for p in plugins if p not in said]
    found = _plugin_errors(left, file)
    if found or len(left) < len(plugins) or not isinstance(powers, Powers):
        return found
    try:
        pm = rules_manager(Variant.model_construct(name="-", plugins=tuple(plugins)))
        return _unknown_powers(powers, pm, file)
    except Exception:  # a plugin's own bug: its problem is reported when the variant is right
        return []


def _unknown_powers(powers: Powers, pm: Any, file: str | None) -> list[VariantError]:
    """Each power named in ``powers`` that no plugin of ``pm`` registers."""
    known = {getattr(cls, "name", "") for answer in pm.hook.tamalou_powers() for cls in answer or ()} - {""}
    listed = ", ".join(sorted(known))
    out = []
    for table, where in ((powers.ranks, "ranks"), (powers.cards, "cards")):
        for k, name in table.items():
            if name != "none" and name not in known:
                reason = f"unknown power {name!r} (powers: none, {listed})"
                out.append(VariantError(reason, file=file, key=f"rules.powers.{where}.{k}"))
    return out


# --- plugins: beside the file, compiled, and nothing left of a failed load -----------------------------

_BESIDE_LOCK = threading.RLock()


def _found_beside(top: str, folder: Path) -> str | None:
    """The file of module (or package) ``top`` in ``folder``, if there is one."""
    cached = sys.path_importer_cache.get(str(folder))
    if cached is not None and hasattr(cached, "invalidate_caches"):
        cached.invalidate_caches()  # a module written since the folder was last looked at
    try:
        spec = importlib.machinery.PathFinder.find_spec(top, [str(folder)])
    except (ImportError, ValueError, OSError):
        return None
    if spec is None or spec.loader is None or not spec.origin:
        return None  # not there, or a namespace portion: left to sys.path
    return spec.origin


def _same_file(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, ValueError):
        return False


def _import_beside(
    plugins: Sequence[str], beside: Mapping[str, list[tuple[Path, str]]], found: dict[str, str] | None = None
) -> list[VariantError]:
    """Import the plugin modules found beside the files that name them: the folder of such a file is
    searched first, then ``sys.path``. ``sys.path`` is extended only while the module is imported (so that
    it may import its neighbours), then left as it was. A module of the same name already imported from
    elsewhere is an error, not a silent mix-up. ``found`` gets the folder of each module found so."""
    errors = []
    for name in _unique_names(plugins):
        if is_builtin_plugin(name) or name not in beside:
            continue
        top = name.partition(".")[0]
        for folder, file in beside[name]:
            origin = _found_beside(top, folder)
            if origin is None:
                continue
            existing = sys.modules.get(top)
            if existing is not None and not _same_file(getattr(existing, "__file__", None), origin):
                elsewhere = getattr(existing, "__file__", None) or "built in"
                errors.append(
                    VariantError(
                        f"plugin module {top!r} is beside this file ({origin}) but another module named {top!r} "
                        f"is already imported (from {elsewhere}): expected a name of its own (rename one of them)",
                        file=file,
                        key="plugins",
                    )
                )
                break
            entry = str(folder)
            with _BESIDE_LOCK:
                sys.path.insert(0, entry)
                try:
                    import_plugin(name, file=file)
                    if found is not None:
                        found[name] = entry
                except VariantError as exc:
                    errors.append(exc)
                finally:
                    with suppress(ValueError):  # unless the plugin took it away itself
                        sys.path.remove(entry)
            break
    return errors


def _plugin_errors(plugins: Sequence[str], file: str | None) -> list[VariantError]:
    """The problems of each plugin module on its own (import, hook names), for a failed load's report: one
    per module, however often it is listed. A module that cannot be imported is told without building a
    plugin manager for it (a list of thousands of unknown names stays cheap)."""
    errors = []
    for name in _unique_names(plugins):
        if is_builtin_plugin(name):
            continue
        try:
            import_plugin(name)
            rules_manager(Variant.model_construct(name="-", plugins=(name,)))
        except VariantError as exc:
            errors.append(exc if exc.file else VariantError(exc.reason, file=file, key=exc.key))
        except Exception as exc:  # a plugin's own bug, reported with the others
            errors.append(VariantError(f"plugin {name!r} failed: {exc!r}", file=file, key="plugins"))
    return errors


def _compile(variant: Variant, file: str | None) -> None:
    """Import the variant's plugins and ask its hooks now, so a bad plugin fails at load time."""
    from .rules import rulebook

    try:
        rulebook(variant)
    except VariantError as exc:
        raise VariantError.combine(_compile_errors(variant, exc, file)) from exc.__cause__
    except Exception as exc:  # a plugin's own bug: say where, keep the traceback chained
        raise VariantError(f"a plugin hook failed: {exc!r}", file=file, key="plugins") from exc


def _compile_errors(variant: Variant, exc: VariantError, file: str | None) -> list[VariantError]:
    """Every problem of the kind ``exc`` is: each unknown power, each plugin that fails."""
    key = exc.key or ""
    if not key:  # the rulebook's answers of hooks: a plugin's, or the defaults' reading the tables
        key = "plugins" if "of plugin" in exc.reason else "rules.values" if "no value for card" in exc.reason else ""
    first = VariantError(exc.reason, file=exc.file or file, key=key or None)
    try:
        if key.startswith("rules.powers."):
            return _unknown_powers(variant.rules.powers, rules_manager(variant), file) or [first]
        if key == "plugins" and len(variant.plugins) > 1:
            return _plugin_errors(variant.plugins, file) or [first]
    except Exception:  # the report of one problem is better than none
        return [first]
    return [first]


@contextmanager
def _rollback(plugins: Sequence[str], loader: _Loader | None) -> Iterator[None]:
    """If the block raises, undo what the failed load left behind: the plugin modules it imported (and
    their own modules, beside a file or in a plugin's package) and the action types their mechanics
    registered."""
    fresh = [p for p in plugins if not is_builtin_plugin(p) and p not in sys.modules]
    modules = set(sys.modules) if fresh else set()
    actions = set(ACTION_TYPES)
    try:
        yield
    except BaseException:
        for kind in set(ACTION_TYPES) - actions:
            ACTION_TYPES.pop(kind, None)
        if fresh:
            beside = loader.beside if loader else {}
            folders = {f for p in fresh for f, _ in beside.get(p, [])}
            _forget_modules(set(sys.modules) - modules, {p.partition(".")[0] for p in fresh} - {"tamalou"}, folders)
        raise


def _forget_modules(new: set[str], tops: set[str], folders: set[Path]) -> None:
    """Remove from ``sys.modules`` the modules of ``new`` that a failed load imported: those of the
    packages ``tops`` and those whose file is right in one of ``folders`` (a plugin's neighbours)."""
    for name in sorted(new, key=len, reverse=True):
        if name.partition(".")[0] == "tamalou":
            continue  # tamalou's own, imported on the way: never a plugin's
        module = sys.modules.get(name)
        where = getattr(module, "__file__", None)
        ours = name.partition(".")[0] in tops
        if not ours and where and folders:
            try:
                ours = Path(where).resolve().parent in folders
            except (OSError, ValueError):
                ours = False
        if not ours:
            continue
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent and getattr(sys.modules.get(parent), child, None) is module:
            delattr(sys.modules[parent], child)


def variant_json_schema() -> dict[str, Any]:
    """The JSON Schema of the variant TOML format (``extends`` included), for editors."""
    schema = Variant.model_json_schema()
    schema["properties"]["extends"] = {
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
        "description": "Variants this file builds on, merged in order before its own keys.",
    }
    schema["title"] = "tamalou variant"
    # A file may leave out its name: it is then named after the file.
    schema["required"] = [k for k in schema.get("required", []) if k != "name"]
    if not schema["required"]:
        del schema["required"]
    return schema
