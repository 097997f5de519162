"""French Tamalou (the rule sheet "Le Tamalou" and the Spanish rule page): the rule of the caller ("l'annonceur").

"L'annonceur du Tamalou gagne s'il totalise un maximum de 5 points et s'il a moins de points que
ses adversaires. Si l'une ou l'autre condition n'est pas remplie, c'est l'adversaire totalisant le
moins de points qui remporte la partie. En cas d'égalité, l'annonceur est toujours perdant."

Everything else French is data in ``variants/french.toml``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hookspecs import Tally, TieBreak, hookimpl
from ..schema import Variant
from .defaults import CALLER_BEHIND, rank_by_total


@hookimpl
def tamalou_tiebreaks(variant: Variant) -> list[TieBreak] | None:
    """The caller loses every tie ("En cas d'égalité, l'annonceur est toujours perdant")."""
    return [CALLER_BEHIND]


@hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]] | None:
    """Lowest total first, the tie-breaks in order (the caller's first), and a caller over the threshold
    cannot win: they are placed right after the lowest of the others."""
    places = rank_by_total(tally, tiebreaks)
    caller = tally.caller
    if caller is None or tally.totals[caller] <= tally.threshold or places[0] != [caller]:
        return places
    # The caller is alone in first place but over the threshold: the lowest opponent(s) win.
    rest = places[1:]
    return [rest[0], [caller], *rest[1:]] if rest else places
