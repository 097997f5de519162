"""The registry of rulesets: the files every discovery plugin ships (tamalou's own, installed packages'), found
by name or alias (case-insensitive), read once per process; and the cache of the variants loaded, forgotten
with it (``refresh_registry``).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from ..engine.snapshot import forget_variant_refs
from ..plugin_managers import discovery_manager
from ..schema import Variant

#: The variants ``load_variant`` returned, by spec (with the modification times of the files each was read
#: from): forgotten with the discoveries, since a name may find another file once a plugin is installed.
LOADED: dict[tuple[object, ...], tuple[Variant, dict[str, int]]] = {}


@lru_cache(maxsize=1)
def discover() -> tuple[dict[str, Path], tuple[str, ...], dict[Path, str]]:
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


def name_table() -> dict[str, Path]:
    """Lower-cased names and aliases -> file."""
    return discover()[0]


def variant_names() -> list[str]:
    """The names of every known variant (built-ins and installed plugins'), sorted."""
    return list(discover()[1])


def is_registered(name: str) -> bool:
    """Whether ``name`` is a registered variant's name or alias (case-insensitive)."""
    return name.lower() in name_table()


def refresh_registry() -> None:
    """Forget cached discoveries (after installing a plugin at run time)."""
    LOADED.clear()
    discover.cache_clear()
    discovery_manager.cache_clear()
    forget_variant_refs()
