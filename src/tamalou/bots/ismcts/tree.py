"""``ISMCTSBot``'s search tree: its nodes (``Node``, the searching seat's information sets, named by
``info_key``) and edges (``Edge``, the seat's actions with their statistics)."""

from __future__ import annotations

from typing import Any

from ...actions import Action
from ...engine.round import Round
from ...engine.state import NO_CARD


class Edge:
    """An action of the searching seat from one information set: its statistics (``avail``: how many
    times it was legal when its node was visited) and the information sets it led to."""

    __slots__ = ("after", "avail", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.after: dict[Any, Node] = {}

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Node:
    """An information set of the searching seat (its view when it next has to decide)."""

    __slots__ = ("edges", "visits")

    def __init__(self) -> None:
        self.edges: dict[Action, Edge] = {}
        self.visits = 0


def info_key(g: Round, me: int) -> Any:
    """What seat ``me`` knows when it has to decide: the phase, its held card, every card it knows where it
    is, the discard and who called (its information set, as far as this search tells them apart)."""
    text, knowers = g.text, g.knowers
    held = text[g.held] if g.held != NO_CARD and knowers[g.held] >> me & 1 else None
    hands = tuple(
        tuple(NO_CARD if c == NO_CARD else (text[c] if knowers[c] >> me & 1 else "?") for c in hand) for hand in g.hands
    )
    return (str(g.phase), g.current_player, held, hands, len(g.discard), g.discard[-1] if g.discard else -1, g.caller)
