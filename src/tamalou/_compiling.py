"""``mypyc_attr``: the compiled core's class options (docs/compiled.md), package-internal to ``tamalou``.

mypy_extensions is not a dependency: where it is missing, the decorator does nothing (only mypyc reads it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import IdentityFunction

try:
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # not a dependency: only mypyc reads the decorator (the compiled core, docs/compiled.md)

    def mypyc_attr(*attrs: str, **kwattrs: object) -> IdentityFunction:
        return lambda cls: cls
