"""A mechanic that claims the draw, which the core already handles: an error at load."""

from __future__ import annotations

import tamalou
from tamalou import Draw, Event, Round


class Clash(tamalou.Mechanic):
    name = "clash"

    def phases(self) -> dict[str, tamalou.PhaseSpec]:
        return {tamalou.Phase.DRAW: tamalou.PhaseSpec(None, {Draw: self.do_draw})}

    def do_draw(self, g: Round, a: Draw) -> list[Event]:  # pragma: no cover - never registered
        return []


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Clash]
