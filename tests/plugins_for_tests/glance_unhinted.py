"""``glance``'s mechanic without its hint (see ``plugins_for_tests.glance``)."""

from __future__ import annotations

import tamalou

from .glance import Unhinted


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Unhinted]
