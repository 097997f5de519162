"""``RandomBot``: plays at random among the listed actions, reproducibly for a given seed."""

from __future__ import annotations

import random

from ..actions import Action, MatchAction
from ..views import SeatView
from ._listing import parts


class RandomBot:
    """Plays at random, reproducibly for a given ``seed``.

    In its turn it picks uniformly among the listed actions other than calls and matches; it takes
    an offered call with probability ``call_probability`` (always when the call is the only
    action) and tries a match (on a random slot, so usually a wrong one) with probability
    ``match_probability``. Out of turn it tries a match with probability ``match_probability``.
    """

    #: It decides from the legal actions alone: ``play_game`` and simulations build no view for it.
    needs_view = False

    def __init__(self, seed: int = 0, call_probability: float = 0.05, match_probability: float = 0.05) -> None:
        self.rng = random.Random(seed)
        self.call_probability = call_probability
        self.match_probability = match_probability
        self._match_next = False

    def may_match(self) -> bool:
        """Out of turn, before its matches are listed: whether it tries one (with ``match_probability``)."""
        self._match_next = self.rng.random() < self.match_probability
        return self._match_next

    def act(self, view: SeatView | None, legal_actions: list[Action]) -> Action | None:
        rng = self.rng
        if self._match_next:  # out of turn, after ``may_match`` said yes: a random one of the listed matches
            self._match_next = False
            if legal_actions and all(isinstance(a, MatchAction) for a in legal_actions):
                return rng.choice(legal_actions)
        others, call, matches = parts(legal_actions)  # the places of the moves, of the first call, of the matches
        if not others and call < 0:
            if matches and rng.random() < self.match_probability:
                return legal_actions[rng.choice(matches)]
            return None
        if call >= 0 and (not others or rng.random() < self.call_probability):
            return legal_actions[call]
        if matches and rng.random() < self.match_probability:
            return legal_actions[rng.choice(matches)]
        return legal_actions[rng.choice(others)]

    def __repr__(self) -> str:
        return f"RandomBot(call_probability={self.call_probability}, match_probability={self.match_probability})"
