"""The one-card match actions, made once per process and handed out again (a private speed helper of matching).

Listing matches is most of what a random playout lists (every occupied slot, every turn, for every player): the
actions come from these lists, a slice at C speed, rather than being made or looked up one by one. It pays in
``benchmarks/random_playout.py`` and ``benchmarks/instructions.py``.
"""

from __future__ import annotations

from ..actions import MatchAction
from ..engine.seats import GROWTH

OWN: list[list[MatchAction]] = []  # per seat, per slot: the one-card match of one's own card
_OTHERS: dict[tuple[int, int, int], MatchAction] = {}
THEIRS: dict[tuple[int, int], list[MatchAction]] = {}  # per (seat, opponent), per slot


def own_matches(p: int, slots: int) -> list[MatchAction]:
    """The one-card matches of seat ``p`` on its slots ``0..slots-1``, made once per process (and, for
    the seats before ``p``, the list that will hold theirs). Grows under the seats' lock: games on
    several threads share these lists."""
    if len(OWN) <= p or len(OWN[p]) < slots:
        with GROWTH:
            while len(OWN) <= p:
                OWN.append([])
            own = OWN[p]
            while len(own) < slots:
                own.append(MatchAction(p, (len(own),)))
    return OWN[p]


def their_matches(p: int, q: int, slots: int) -> list[MatchAction]:
    """The one-card matches by seat ``p`` of seat ``q``'s slots ``0..slots-1`` (opponent matching), made
    once per process, grown under the seats' lock like ``own_matches``."""
    theirs = THEIRS.get((p, q))
    if theirs is None or len(theirs) < slots:
        with GROWTH:
            theirs = THEIRS.setdefault((p, q), [])
            while len(theirs) < slots:
                theirs.append(match_action(p, len(theirs), q))
    return theirs


def match_action(p: int, s: int, owner: int | None = None) -> MatchAction:
    """A one-card match, made once per process (actions are values)."""
    if owner is None:
        return own_matches(p, s + 1)[s]
    key = (p, s, owner)
    a = _OTHERS.get(key)
    if a is None:
        a = _OTHERS[key] = MatchAction(p, (s,), owner=owner)
    return a
