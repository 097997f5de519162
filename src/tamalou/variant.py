"""Finding and loading variants: names, aliases, files, ``extends`` and composition.

- ``load_variant("house")``: a name or alias (case-insensitive), or a path to a ``.toml`` file.
- ``load_variant(["base", "modifier"])``: a composition, later ones override earlier ones.
- A file may say ``extends = "base"`` or ``extends = ["base", "other"]``: the bases are merged in
  order, then the file's own keys on top (tables merge key by key, other values replace, and
  ``plugins`` lists add up). A cycle of ``extends`` is an error that names the cycle.
- A *modifier* file says ``base = "<name>"``: composed with others it adds only its own keys;
  loaded alone it applies to its base.

Every error is a ``VariantError`` naming the file, the key path and what was expected; a variant
is validated whole before it is returned, so nothing is ever half-loaded.

Untrusted variants (``allow_plugins=False``, or a list of the plugin modules allowed): no plugin module is
imported but tamalou's own (``tamalou.plugins.*``) and the listed ones; ``extends`` and ``base`` name
registered variants only, never files; an error names the key and what was expected, never a value
read from another file. In every mode a file is read once per load, ``extends`` chains are at most
``MAX_EXTENDS_DEPTH`` files deep and TOML tables at most ``MAX_NESTING`` levels deep.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import VariantError
from .plugins import discovery_manager, is_builtin_plugin
from .schema import Variant

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


def _check_plugins(plugins: Any, allowed: _Allowed, file: str | None) -> None:
    """Refuse, before anything is imported, a plugin module an untrusted variant may not use."""
    if allowed is None or not isinstance(plugins, list | tuple):
        return
    for name in plugins:
        if isinstance(name, str) and not (is_builtin_plugin(name) or name in allowed):
            listed = sorted(allowed)
            extra = f" or one of {', '.join(listed)}" if len(listed) <= 8 else " or those allowed"
            raise VariantError(
                f"plugin module {name!r} is not allowed in an untrusted variant "
                f"(only tamalou's own plugins, tamalou.plugins.*{extra if listed else ''})",
                file=file,
                key="plugins",
            )


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


# --- the registry --------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _discover() -> tuple[dict[str, Path], tuple[str, ...]]:
    """Read every discovery plugin's files once: lower-cased names and aliases -> file, and the
    names of the variants found (a file whose name and aliases are all taken by an earlier one
    is not found)."""
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
                except (OSError, tomllib.TOMLDecodeError):
                    continue
                name = str(raw.get("name", f.stem))
                name_of[f] = name
                for key in (name, *[str(a) for a in raw.get("aliases", ())]):
                    found.setdefault(key.lower(), f)
    names = tuple(sorted({name_of[f] for f in set(found.values())}))
    return found, names


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
    _LOADED.clear()
    _discover.cache_clear()
    discovery_manager.cache_clear()


# --- raw TOML handling ---------------------------------------------------------------------


def _merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge: tables merge, ``plugins`` lists add up, other values replace."""
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(dict(out[key]), value)
        elif key == "plugins" and isinstance(value, list) and isinstance(out.get(key), list):
            out[key] = out[key] + [v for v in value if v not in out[key]]
        else:
            out[key] = value
    return out


def short(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut to about ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def _describe(value: Any, limit: int = 80) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


#: At most this many problems are listed in one error message.
MAX_LISTED_ERRORS = 10


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
}


def _format(exc: ValidationError, file: str | None, *, echo: bool = True) -> VariantError:
    """One ``VariantError`` for every error of ``exc``; with ``echo=False`` (untrusted variants) the
    message says the key and what was expected, never the value found."""

    def got(value: Any) -> str:
        return f", got {_describe(value)}" if echo else ""

    lines = []
    first_key = None
    for err in exc.errors():
        key = ".".join(str(x) for x in err["loc"])
        first_key = first_key or key
        kind = err["type"]
        if kind == "extra_forbidden":
            what = "unknown key"
        elif kind == "missing":
            what = "required key is missing"
        elif kind == "literal_error":
            what = f"expected one of {err.get('ctx', {}).get('expected', '')}{got(err['input'])}"
        elif kind in _EXPECTED:
            what = f"{_EXPECTED[kind]}{got(err['input'])}"
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            what = f"{err['msg'].replace('Input should be', 'expected a number')}{got(err['input'])}"
        else:
            msg = err["msg"]
            msg = msg.removeprefix("Value error, ")
            what = msg[:1].lower() + msg[1:]
        lines.append(f"{key}: {what}" if key else what)
    if len(lines) > MAX_LISTED_ERRORS:
        lines[MAX_LISTED_ERRORS:] = [f"and {len(lines) - MAX_LISTED_ERRORS} more"]
    message = lines[0] if len(lines) == 1 else "; ".join(lines)
    return VariantError(message, file=file)


def _check_partial(raw: Mapping[str, Any], file: str, *, echo: bool = True) -> None:
    """Validate the keys of one file on their own, so an error names the file that wrote it."""
    data = {k: v for k, v in raw.items() if k not in ("extends",)}
    data.setdefault("name", Path(file).stem)
    try:
        Variant.model_validate(data)
    except ValidationError as exc:
        # Cross-section checks (players.min <= players.max...) are left to the merged whole.
        kept = [e for e in exc.errors() if e["type"] != "cross_field"]
        if kept:
            raise _format(exc, file, echo=echo) from None


class _Loader:
    """One load: every file is read, and resolved, at most once (an ``extends`` diamond stays cheap)."""

    def __init__(self, allowed: _Allowed = None) -> None:
        self.allowed = allowed
        self.untrusted = allowed is not None
        self.stack: list[str] = []
        self.files: dict[str, int] = {}  # every file read, with its modification time
        self.raw: dict[str, dict[str, Any]] = {}  # resolved path -> its parsed TOML
        self.resolved: dict[tuple[str, bool], dict[str, Any]] = {}  # (resolved path, as_delta) -> data

    def lookup(self, spec: str | Path, *, file: str | None = None, near: Path | None = None) -> Path:
        """A registered name or alias, else a path (relative to ``near``, the file that names it).

        For an untrusted load, a name written in a file (``file`` given) must be registered: a path is
        refused without looking at it, so the error says nothing of what is on the disk."""
        text = str(spec)
        reg = _registry()
        if isinstance(spec, str) and text.lower() in reg:
            return reg[text.lower()]
        if file is not None and self.untrusted:
            known = ", ".join(variant_names())
            raise VariantError(
                f"expected the name of a registered variant ({known}); files are not followed in an untrusted variant",
                file=file,
                key="extends",
            )
        p = Path(text)
        if near is not None and not p.is_absolute():
            p = near / p
        try:
            found = p.suffix == ".toml" or p.exists()
            if found and not p.is_file():
                raise VariantError(f"no variant file at {short(text)}", file=file, key="extends" if file else None)
        except (OSError, ValueError) as exc:  # a name too long, a NUL in it...
            if isinstance(exc, VariantError):
                raise
            raise VariantError(
                f"no variant file at {short(text)}", file=file, key="extends" if file else None
            ) from None
        if found:
            return p
        known = ", ".join(variant_names())
        raise VariantError(
            f"unknown variant {short(text)} (known: {known}; or give a path to a .toml file)",
            file=file,
            key="extends" if file else None,
        )

    def read(self, path: Path) -> dict[str, Any]:
        key = str(path.resolve())
        cached = self.raw.get(key)
        if cached is not None:
            return cached
        try:
            self.files[key] = path.stat().st_mtime_ns
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise VariantError(f"cannot read: {exc.strerror}", file=str(path)) from None
        except tomllib.TOMLDecodeError as exc:
            raise VariantError(f"not valid TOML: {exc}", file=path.name) from None
        except RecursionError:
            raise VariantError(f"tables or lists nested more than {MAX_NESTING} levels deep", file=path.name) from None
        except UnicodeDecodeError:
            raise VariantError("not valid TOML: not UTF-8 text", file=path.name) from None
        _check_nesting(raw, path.name)
        self.raw[key] = raw
        return raw

    def resolve_file(self, path: Path, *, as_delta: bool) -> dict[str, Any]:
        """The raw data of a file with its ``extends`` merged in (only its keys if ``as_delta``)."""
        key = str(path.resolve())
        if key in self.stack:
            names = [Path(s).name for s in self.stack[self.stack.index(key) :]] + [path.name]
            raise VariantError("extends cycle: " + " -> ".join(names), file=path.name, key="extends")
        done = self.resolved.get((key, as_delta))
        if done is not None:
            return done
        if len(self.stack) >= MAX_EXTENDS_DEPTH:
            raise VariantError(f"extends chain more than {MAX_EXTENDS_DEPTH} files deep", file=path.name, key="extends")
        self.stack.append(key)
        try:
            raw = self.read(path)
            _check_partial(raw, path.name, echo=not self.untrusted)
            _check_plugins(raw.get("plugins"), self.allowed, path.name)
            extends = raw.get("extends", [])
            if isinstance(extends, str):
                extends = [extends]
            if not isinstance(extends, list) or not all(isinstance(e, str) for e in extends):
                got = f", got {_describe(extends)}" if not self.untrusted else ""
                raise VariantError(
                    f"expected a variant name or a list of names{got}",
                    file=path.name,
                    key="extends",
                )
            base_name = raw.get("base")
            merged: dict[str, Any] = {}
            if extends:
                merged = self.resolve_list(extends, file=path.name, near=path.parent)
            elif base_name and not as_delta:
                merged = self.resolve_list([base_name], file=path.name, near=path.parent)
            own = {k: v for k, v in raw.items() if k != "extends"}
            own.setdefault("name", path.stem)
            merged = {k: v for k, v in merged.items() if k not in _META_NOT_INHERITED}
            result = _merge(merged, own)
        finally:
            self.stack.pop()
        self.resolved[(key, as_delta)] = result
        return result

    def resolve_list(
        self, specs: Sequence[str | Path], *, file: str | None = None, near: Path | None = None
    ) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        names = []
        for i, spec in enumerate(specs):
            path = self.lookup(spec, file=file, near=near)
            raw = self.resolve_file(path, as_delta=i > 0 and self._is_modifier(path))
            names.append(str(raw.get("name", path.stem)))
            merged = _merge({k: v for k, v in merged.items() if k not in _META_NOT_INHERITED}, raw)
        if len(names) > 1:
            merged["name"] = "+".join(names)
            merged.pop("aliases", None)
        return merged

    def _is_modifier(self, path: Path) -> bool:
        return bool(self.read(path).get("base"))


_LOADED: dict[tuple[object, ...], tuple[Variant, dict[str, int]]] = {}


def _unchanged(files: dict[str, int]) -> bool:
    try:
        return all(Path(f).stat().st_mtime_ns == t for f, t in files.items())
    except OSError:
        return False


def load_variant(spec: VariantSpec, *, allow_plugins: bool | Iterable[str] = True) -> Variant:
    """Load a variant by name, alias, path, or a list of those (a composition).

    Raises ``VariantError`` naming the file, the key path and what was expected. A variant is
    immutable, so the same spec gives the same object again while its files are unchanged.

    ``allow_plugins`` says which plugin modules the variant (or anything it extends) may import:

    - ``True`` (the default): any, as today. For rules you trust: your own files, installed packages.
    - ``False``: only tamalou's own (``tamalou.plugins.*``, e.g. the French caller's rule). Any other
      module named in ``plugins`` is a ``VariantError`` naming the key and the module, and nothing is
      imported. A server loads uploaded rules so: ``load_variant(path, allow_plugins=False)``.
    - a list of module names: those, and tamalou's own.

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
    key = (os.getcwd(), *(str(s) for s in specs), allowed)
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
    if isinstance(spec, str | Path):
        path = loader.lookup(spec)
        raw = loader.resolve_file(path, as_delta=False)
        file = path.name
        keep: object = str(spec)
    elif isinstance(spec, Sequence) and spec and all(isinstance(s, str | Path) for s in spec):
        raw = loader.resolve_list(list(spec))
        file = None
        keep = [str(s) for s in spec]
    else:
        raise VariantError(f"expected a variant name, a path or a list of them, got {spec!r}")
    variant = _validate(raw, file, allowed)
    variant._spec = keep
    return variant, loader.files


def _compile(variant: Variant, file: str | None) -> None:
    """Import the variant's plugins and ask its hooks now, so a bad plugin fails at load time."""
    from .rules import rulebook

    try:
        rulebook(variant)
    except VariantError as exc:
        if file and not exc.file:
            raise VariantError(exc.reason, file=file, key=exc.key) from None
        raise
    except Exception as exc:  # a plugin's own bug: say where, keep the traceback chained
        raise VariantError(f"a plugin hook failed: {exc!r}", file=file, key="plugins") from exc


def variant_from_dict(
    data: Mapping[str, Any], *, file: str | None = None, allow_plugins: bool | Iterable[str] = True
) -> Variant:
    """Validate a whole variant given as a dict (e.g. parsed TOML, ``extends`` already resolved).

    ``allow_plugins`` is ``load_variant``'s: pass ``False`` for data you do not trust (a snapshot
    received from elsewhere), so that only tamalou's own plugin modules may be imported."""
    return _validate(data, file, _allowed(allow_plugins))


def _validate(data: Mapping[str, Any], file: str | None, allowed: _Allowed) -> Variant:
    if not isinstance(data, Mapping):
        raise VariantError(f"expected a table, got {type(data).__name__}", file=file)
    if "extends" in data:
        raise VariantError("'extends' is resolved by load_variant; pass the merged data", file=file)
    _check_nesting(data, file)
    _check_plugins(data.get("plugins"), allowed, file)
    try:
        variant = Variant.model_validate(dict(data))
    except ValidationError as exc:
        raise _format(exc, file, echo=allowed is None) from None
    _check_plugins(list(variant.plugins), allowed, file)
    _compile(variant, file)
    return variant


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
