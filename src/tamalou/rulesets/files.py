"""Ruleset files and texts read into one table of data: names and paths looked up, each file read once per
load, ``extends`` and a modifier's ``base`` followed, compositions merged (tables merge key by key, ``plugins``
lists add up, other values replace). ``Loader`` is one load; it gathers every file's own problems.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..cards import parse_card
from ..errors import VariantError
from ..schema.bounds import MAX_TITLE_LENGTH
from .problems import describe_problem, did_you_mean, partial_errors, short, short_path
from .registry import discover, name_table, variant_names
from .toml_text import parse_toml
from .trust import Allowed, refusals, unique_names

_META_NOT_INHERITED = ("name", "aliases", "title", "description", "base")

#: How many files deep an ``extends`` (or ``base``) chain may go.
MAX_EXTENDS_DEPTH = 32


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


class Loader:
    """One load: every file is read, and resolved, at most once (an ``extends`` diamond stays cheap).

    Problems are gathered (``errors``), not raised one at a time, so that a load reports them all; a
    problem that leaves no whole variant to check (a file that cannot be read, an ``extends`` that
    cannot be followed) also sets ``broken``."""

    def __init__(self, allowed: Allowed = None) -> None:
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
        reg = name_table()
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
        names = variant_names()
        hint = did_you_mean(text.lower(), [*names, *name_table()]) if len(text) <= 100 else ""
        known = ", ".join(names)
        raise VariantError(
            f"unknown variant {short(text)}{hint} (known: {known}; or give a path to a .toml file)",
            file=file,
            key=where,
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
        raw = parse_toml(text, path.name)
        self.raw[key] = raw
        return raw

    def resolve_text(self, raw: dict[str, Any], file: str, name: str | None) -> dict[str, Any]:
        """The data of TOML text (parsed: ``raw``) with its ``extends`` merged in: like a file's, but with
        no folder (``extends`` names registered variants only; plugin modules come from ``sys.path``).
        ``file`` is what errors call the text, ``name`` its name if it says none."""
        self.errors += partial_errors(raw, file, echo=not self.untrusted, name=name)
        refused = refusals(raw.get("plugins"), self.allowed, file)
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
        self.errors += partial_errors(raw, file, echo=not self.untrusted)
        refused = refusals(raw.get("plugins"), self.allowed, file)
        self.refused = self.refused or bool(refused)
        self.errors += refused
        plugins = raw.get("plugins")
        if isinstance(plugins, list):
            folder = path.resolve().parent
            for name in unique_names(plugins):  # (a file is checked once: each name once per file)
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
            got = f", got {describe_problem(extends)}" if not self.untrusted else ""
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
        titles = []
        for i, spec in enumerate(specs):
            try:
                path = self.lookup(spec, file=file, near=near, key=key, folder=folder)
                raw = self.resolve_file(path, as_delta=i > 0 and self._is_modifier(path))
            except VariantError as exc:
                self.fail(exc)
                continue
            name = raw.get("name", path.stem)
            names.append(name if isinstance(name, str) else path.stem)  # (a name of another type is an error)
            title = raw.get("title")
            if isinstance(title, str) and title:
                titles.append(title)
            merged = _merge({k: v for k, v in merged.items() if k not in _META_NOT_INHERITED}, raw)
        if len(names) > 1:
            merged["name"] = "+".join(names)
            merged.pop("aliases", None)
            joined = " + ".join(titles)
            if len(titles) > 1 and len(joined) <= MAX_TITLE_LENGTH:  # the last one alone names a modifier as the game
                merged["title"] = joined
        return merged

    def _is_modifier(self, path: Path) -> bool:
        return bool(self.read(path).get("base"))

    def alias_errors(self, path: Path | None, raw: Mapping[str, Any], file: str | None = None) -> list[VariantError]:
        """Aliases of the file loaded (or of the text: ``path`` ``None``, ``file`` what errors call it)
        that are another registered ruleset's name or alias."""
        aliases = raw.get("aliases")
        if not isinstance(aliases, list):
            return []
        reg, names = name_table(), discover()[2]
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
