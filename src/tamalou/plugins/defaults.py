"""The built-in rules: every hook answered from the variant's TOML keys.

Registered ``trylast``, so any other plugin's answer wins over these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..cards import Card, rank_number
from ..hookspecs import Tally, TieBreak, hookimpl
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
    if value is None and not card.suit and not card.is_joker:
        return rank_number(card.rank)  # a card of a deck without suits named by a number is worth that number
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


FEWER_CARDS = TieBreak("fewer_cards", "the player with fewer cards wins a tie", lambda t, p: t.card_counts[p])
CALLER_AHEAD = TieBreak("caller_ahead", "the caller wins ties", lambda t, p: 0 if p == t.caller else 1)
CALLER_BEHIND = TieBreak("caller_behind", "the caller loses ties", lambda t, p: 1 if p == t.caller else 0)
#: The tie-breaks ``rules.end.ties`` may name.
TIEBREAKS: dict[str, TieBreak] = {t.name: t for t in (FEWER_CARDS, CALLER_AHEAD, CALLER_BEHIND)}


def rank_by_total(tally: Tally, tiebreaks: Sequence[TieBreak | str]) -> list[list[int]]:
    """Places by total, lowest first, the tie-breaks applied in order (a name stands for a built-in one
    of ``rules.end.ties``); players still equal share a place. Players who left the round come last."""
    keys = [t.key for t in (TIEBREAKS[t] if isinstance(t, str) else t for t in tiebreaks)]
    left, totals = tally.left, tally.totals
    if keys:
        return places_by_key([(p in left, totals[p], *[k(tally, p) for k in keys]) for p in range(len(totals))])
    return places_by_key([(p in left, totals[p]) for p in range(len(totals))])


def places_by_key(keys: Mapping[int, Any] | Sequence[Any]) -> list[list[int]]:
    """Players sorted by ``keys[p]`` (lowest first), equal keys sharing a place (``keys``: a mapping from
    player to key, or a sequence with one key per player)."""
    places: list[list[int]] = []
    last: Any = None
    players = range(len(keys)) if type(keys) is list or not isinstance(keys, Mapping) else keys
    for p in sorted(players, key=keys.__getitem__):
        key = keys[p]
        if places and key == last:
            places[-1].append(p)
        else:
            places.append([p])
            last = key
    return places


@hookimpl(trylast=True)
def tamalou_tiebreaks(variant: Variant) -> list[TieBreak] | None:
    return [TIEBREAKS[name] for name in variant.rules.end.ties]


@hookimpl(trylast=True)
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]] | None:
    return rank_by_total(tally, tiebreaks)


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
