"""The built-in rules: every hook answered from the variant's TOML keys.

Registered ``trylast``, so any other plugin's answer wins over these.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..cards import Card
from ..hookspecs import Tally, hookimpl
from ..schema import Variant


def builtin_variants_dir() -> Path:
    """Where the built-in TOML files are: inside the installed package, or the source tree's."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "variants"
    if packaged.is_dir():
        return packaged
    return here.parent.parent / "variants"


@hookimpl(trylast=True)
def tamalou_variant_paths() -> list[Path]:
    return [builtin_variants_dir()]


@hookimpl(trylast=True)
def tamalou_card_value(variant: Variant, card: Card) -> int | None:
    values = variant.rules.values
    text = str(card)
    if text in values.cards:
        return values.cards[text]
    value = values.ranks.get(card.rank)
    if value is None and not card.suit and not card.is_joker and card.rank.isdecimal() and card.rank.isascii():
        return int(card.rank)  # a card of a deck without suits named by a number is worth that number
    return value


@hookimpl(trylast=True)
def tamalou_card_power(variant: Variant, card: Card) -> str | None:
    powers = variant.rules.powers
    text = str(card)
    if text in powers.cards:
        return powers.cards[text]
    return powers.ranks.get(card.rank, "none")


@hookimpl(trylast=True)
def tamalou_call_threshold(variant: Variant) -> int | None:
    return variant.rules.call.threshold


def rank_by_total(tally: Tally, ties: tuple[str, ...]) -> list[list[int]]:
    """Places by total, the tie-breaks applied in order; players still equal share a place.
    Players who left the round come last."""

    def key(p: int) -> tuple[int, ...]:
        k = [1 if p in tally.left else 0, tally.totals[p]]
        for tie in ties:
            if tie == "fewer_cards":
                k.append(tally.card_counts[p])
            elif tie == "caller_ahead":
                k.append(0 if p == tally.caller else 1)
            elif tie == "caller_behind":
                k.append(1 if p == tally.caller else 0)
        return tuple(k)

    return places_by_key({p: key(p) for p in range(len(tally.totals))})


def places_by_key(keys: Mapping[int, Any]) -> list[list[int]]:
    """Players sorted by ``keys[p]`` (lowest first), equal keys sharing a place."""
    places: list[list[int]] = []
    for p in sorted(keys, key=keys.__getitem__):
        if places and keys[p] == keys[places[-1][0]]:
            places[-1].append(p)
        else:
            places.append([p])
    return places


@hookimpl(trylast=True)
def tamalou_rank(variant: Variant, tally: Tally) -> list[list[int]] | None:
    return rank_by_total(tally, variant.rules.end.ties)


@hookimpl(trylast=True)
def tamalou_winners(variant: Variant, tally: Tally, ranking: list[list[int]]) -> list[int] | None:
    if not ranking:
        return []
    bound = variant.rules.end.win_max
    if bound == "threshold":
        bound = tally.threshold
    return [p for p in ranking[0] if bound is None or tally.totals[p] <= bound]


@hookimpl(trylast=True)
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    scores = list(tally.totals)
    caller = tally.caller
    if caller is not None:
        rule = variant.rules.scoring
        if caller in winners:
            if rule.caller_won == "zero":
                scores[caller] = 0
        else:
            scores[caller] += rule.caller_lost_penalty
    return scores
