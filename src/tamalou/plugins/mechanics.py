"""The built-in mechanics, registered through ``tamalou_mechanics`` like any plugin's."""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..mechanic import Mechanic
from ..mechanics import BUILTIN_MECHANICS


@hookimpl
def tamalou_mechanics() -> list[type[Mechanic]]:
    return list(BUILTIN_MECHANICS)
