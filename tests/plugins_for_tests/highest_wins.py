"""Upside-down ranking: the highest total is first (ties share a place)."""

from __future__ import annotations

from tamalou import Tally, Variant, hookimpl


@hookimpl
def tamalou_rank(variant: Variant, tally: Tally) -> list[list[int]] | None:
    places: list[list[int]] = []
    for total in sorted(set(tally.totals), reverse=True):
        places.append([p for p, t in enumerate(tally.totals) if t == total])
    return places
