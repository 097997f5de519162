"""French Tamalou (the rule sheet "Le Tamalou" and the Spanish rule page): the rule of the caller ("l'annonceur").

"L'annonceur du Tamalou gagne s'il totalise un maximum de 5 points et s'il a moins de points que
ses adversaires. Si l'une ou l'autre condition n'est pas remplie, c'est l'adversaire totalisant le
moins de points qui remporte la partie. En cas d'égalité, l'annonceur est toujours perdant."

Everything else French is data in ``variants/french.toml``, the tie rule too ("en cas d'égalité, l'annonceur est
toujours perdant": ``rules.end.ties = ["caller_behind"]``, so that a house rule may change it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hookspecs import Tally, TieBreak, hookimpl
from ..schema import Variant
from .defaults import rank_by_total


@hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]] | None:
    """Lowest total first, the tie-breaks in order, and a caller over the threshold cannot win: they are
    placed right after the lowest of the others."""
    places = rank_by_total(tally, tiebreaks)
    caller = tally.caller
    if caller is None or tally.totals[caller] <= tally.threshold or caller not in places[0]:
        return places
    # The caller is in first place but over the threshold: the lowest opponent(s) win (those tied with the
    # caller, when no tie-break parted them).
    others = [p for p in places[0] if p != caller]
    if others:
        return [others, [caller], *places[1:]]
    rest = places[1:]
    return [rest[0], [caller], *rest[1:]] if rest else places
