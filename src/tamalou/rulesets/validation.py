"""A ruleset's data checked whole before a variant is returned: every problem at once (each file's own, then the
merged variant's, each told in the file that wrote it), the plugins imported and compiled, and nothing left of
a load that fails.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from ..engine.rulebook import rulebook
from ..errors import VariantError
from ..plugin_managers import rules_manager
from ..schema import MODULE_NAME, Powers, Rules, Variant, rules_problems
from .files import Loader
from .plugin_modules import import_beside, plugin_errors, rollback
from .problems import errors_of
from .toml_text import check_nesting
from .trust import Allowed, refusals, unique_names

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
            for p in unique_names(named):
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


def validate(data: Mapping[str, Any], file: str | None, allowed: Allowed, loader: Loader | None = None) -> Variant:
    """The variant of ``data`` (merged, ``extends`` resolved), checked whole and compiled; else one
    ``VariantError`` with every problem: the loader's (each file's own), then the merged variant's."""
    if not isinstance(data, Mapping):
        raise VariantError(f"expected a table, got {type(data).__name__}", file=file)
    if "extends" in data:
        raise VariantError("'extends' is resolved by load_variant; pass the merged data", file=file)
    check_nesting(data, file)
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

    refused = refusals(data.get("plugins"), allowed, file)
    said = {x.reason for x in errors}
    errors += [e for e in refused if e.reason not in said]
    untouchable = bool(refused) or (loader is not None and loader.refused)  # nothing may be imported
    variant: Variant | None = None
    sections: dict[str, BaseModel] = {}
    try:
        variant = Variant.model_validate(dict(data))
    except ValidationError as exc:
        sections = _sections(data)
        errors += attribute(errors_of(exc, file, echo=allowed is None) + _problems_left(sections, file))
    plugins = [] if untouchable else _plugin_names(variant, data)
    beside: dict[str, str] = {}  # the plugin modules found beside a file, and where
    with rollback(plugins, loader):
        if plugins and allowed is None and loader is not None:
            errors += import_beside(plugins, loader.beside, beside)
        if errors:
            if variant is None and not untouchable:
                errors += attribute(
                    _failed_plugins_and_powers(plugins, sections.get("powers"), errors, file), named=True
                )
            raise VariantError.combine(errors)
        assert variant is not None
        variant._plugin_dirs = beside
        try:
            _compile(variant, file, echo=allowed is None)
        except VariantError as exc:
            raise VariantError.combine(attribute(exc.errors, named=True)) from exc.__cause__
    return variant


def _plugin_names(variant: Variant | None, data: Mapping[str, Any]) -> list[str]:
    if variant is not None:
        return list(variant.plugins)
    plugins = data.get("plugins")
    if not isinstance(plugins, list | tuple):
        return []
    return [p for p in plugins if isinstance(p, str) and MODULE_NAME.fullmatch(p)]


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
    found = plugin_errors(left, file)
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


def _compile(variant: Variant, file: str | None, *, echo: bool = True) -> None:
    """Import the variant's plugins and ask its hooks now, so a bad plugin fails at load time."""
    try:
        rulebook(variant)
    except VariantError as exc:
        cause, key = exc.__cause__, exc.key or ""
        if key.startswith("options.") and isinstance(cause, ValidationError):
            # A mechanic's settings (Mechanic.options_of): each problem of its table, worded as the rules' are.
            errors = [
                VariantError(e.reason, file=file, key=key + (f".{e.key}" if e.key else ""))
                for e in errors_of(cause, file, echo=echo)
            ]
            raise VariantError.combine(errors) from cause
        raise VariantError.combine(_compile_errors(variant, exc, file)) from cause
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
            return plugin_errors(variant.plugins, file) or [first]
    except Exception:  # the report of one problem is better than none
        return [first]
    return [first]
