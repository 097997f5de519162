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

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import VariantError
from ..schema import Variant
from .files import Loader
from .problems import describe_problem
from .registry import LOADED
from .toml_text import parse_toml
from .trust import Allowed, allowed_names, check_plugins
from .validation import validate

VariantSpec = str | Path | Variant | Sequence[str | Path]


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
    allowed = allowed_names(allow_plugins)
    if isinstance(spec, Variant):
        check_plugins(list(spec.plugins), allowed, None)
        return spec
    specs = [spec] if isinstance(spec, str | Path) else spec
    if not isinstance(specs, Sequence) or not all(isinstance(s, str | Path) for s in specs):
        return _load(spec, allowed)[0]  # raises the VariantError that says what a spec is
    # (a name and a list of that one name make the same rules but not the same spec: a snapshot names its
    # variant by the spec it was loaded by)
    key = (os.getcwd(), specs is spec, *(str(s) for s in specs), allowed)
    cached = LOADED.get(key)
    if cached is not None and _unchanged(cached[1]):
        return cached[0]
    variant, files = _load(spec, allowed)
    if len(LOADED) > 256:
        LOADED.clear()
    LOADED[key] = (variant, files)
    return variant


def _whole_rulesets(loader: Loader, spec: Sequence[str | Path]) -> list[str]:
    """The items of a composition that are rulesets of their own (not modifiers), as written."""
    found = []
    for s in spec:
        try:
            if not loader._is_modifier(loader.lookup(s)):
                found.append(str(s))
        except VariantError:
            continue
    return found


def _load(spec: VariantSpec, allowed: Allowed = None) -> tuple[Variant, dict[str, int]]:
    loader = Loader(allowed)
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
            shown = describe_problem(spec)
        raise VariantError(f"expected a variant name, a path or a list of them, got {shown}")
    if loader.broken:
        raise VariantError.combine(loader.errors)
    try:
        variant = validate(raw, file, allowed, loader)
    except VariantError as exc:
        whole = _whole_rulesets(loader, spec) if isinstance(keep, list) and not isinstance(spec, str | Path) else []
        if len(whole) < 2:
            raise
        # Two rulesets of their own composed: say so first, or the problems read as the first file's fault.
        note = VariantError(
            f"{' + '.join(keep)} composes {len(whole)} rulesets of their own ({', '.join(whole)}): each one's keys "
            "replace the earlier ones' and the earlier ones' other keys stay, checked against the last one's rules, "
            "hence the problems below; a composition is usually one ruleset then modifiers (files with base = ...), "
            "as ['french', 'gabo']"
        )
        raise VariantError.combine([note, exc]) from None
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
    return validate(data, file, allowed_names(allow_plugins))


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
    allowed = allowed_names(allow_plugins)
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise VariantError("not valid TOML: not UTF-8 text", file=file) from None
    if not isinstance(text, str):
        raise VariantError(f"expected the TOML text of a variant (a str), got {type(text).__name__}", file=file)
    raw = parse_toml(text, file)
    name = Path(file).stem if file.endswith(".toml") and Path(file).stem else None
    loader = Loader(allowed)
    data: dict[str, Any] = {}
    try:
        data = loader.resolve_text(raw, file, name)
    except VariantError as exc:
        loader.fail(exc)
    else:
        loader.errors += loader.alias_errors(None, raw, file)
    if loader.broken:
        raise VariantError.combine(loader.errors)
    return validate(data, file, allowed, loader)


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
