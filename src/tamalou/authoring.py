"""Moved to ``tamalou.rulesets.authoring``; this module keeps the old imports working this release."""

from __future__ import annotations

from .rulesets.authoring import (
    NameError_,
    check_name,
    module_name,
    plugin_module,
    pyproject,
    scaffold,
    variant_toml,
    write_files,
)

__all__ = [
    "NameError_",
    "check_name",
    "module_name",
    "plugin_module",
    "pyproject",
    "scaffold",
    "variant_toml",
    "write_files",
]
