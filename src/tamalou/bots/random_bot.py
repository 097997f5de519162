"""``RandomBot``: plays at random among the listed actions, reproducibly for a given seed; and the table of
listing shapes (where the calls, matches and other actions are, by the classes of a listing's actions) it
reads its choices from."""

from __future__ import annotations

import random
from itertools import compress

from ..actions import Action, Call, MatchAction, Tick
from ..views import SeatView

# What ``RandomBot`` makes of an action, by its class (worked out once per class with ``isinstance``).
_CALL, _MATCH, _TICK, _OTHER = "call", "match", "tick", "other"
_KINDS: dict[type, str] = {}


def _kind(cls: type) -> str:
    kind = (
        _CALL
        if issubclass(cls, Call)
        else _MATCH
        if issubclass(cls, MatchAction)
        else _TICK
        if issubclass(cls, Tick)
        else _OTHER
    )
    _KINDS[cls] = kind
    return kind


#: What ``RandomBot`` needs of a listing, by the classes of its actions in their order: the places of the
#: actions other than calls, matches and ticks, the place of the first call (``-1``: none) and the places
#: of the matches. Worked out once per shape of listing: a game's listings take few shapes (a timed game
#: with long layouts meets a few long ones many times: the blind swaps of a Queen, hundreds of actions).
#: Places in a row are kept as a ``range``, which takes no room whatever its length.
_Places = tuple[int, ...] | range
_Shape = tuple[_Places, int, _Places]
_SHAPES: dict[tuple[type, ...], _Shape] = {}
_SHAPES_MOST = 4096  # shapes kept; then the table starts over
_SHAPES_ROOM = 1 << 18  # or past as many classes and places held (a few MB)
_shapes_held = 0  # the classes and places held
_IN_A_ROW = 32  # more places than this in a row are kept as a range


def _places(n: int, kind: set[type], classes: tuple[type, ...]) -> _Places:
    """The places of the listing's actions whose class is in ``kind`` (one pass at C speed)."""
    if not kind:
        return ()
    found = tuple(compress(range(n), map(kind.__contains__, classes)))
    if len(found) > _IN_A_ROW and found[-1] - found[0] + 1 == len(found):
        return range(found[0], found[-1] + 1)
    return found


def _shape(classes: tuple[type, ...]) -> _Shape:
    global _shapes_held
    # By the few distinct classes of the listing, then one pass at C speed per kind present: a long
    # listing (a blind swap between two long layouts, hundreds of actions) costs little more than a short
    # one. The places are those a plain loop over the listing would find.
    of_kind: dict[str, set[type]] = {_CALL: set(), _MATCH: set(), _TICK: set(), _OTHER: set()}
    for cls in set(classes):
        of_kind[_KINDS[cls] if cls in _KINDS else _kind(cls)].add(cls)
    n = len(classes)
    calls_of = of_kind[_CALL]
    others = _places(n, of_kind[_OTHER], classes)
    matches = _places(n, of_kind[_MATCH], classes)
    shape = (others, min(map(classes.index, calls_of)) if calls_of else -1, matches)
    room = n + sum(len(x) for x in (others, matches) if type(x) is tuple)
    if room > _SHAPES_ROOM:
        return shape
    if len(_SHAPES) >= _SHAPES_MOST or _shapes_held + room > _SHAPES_ROOM:
        _SHAPES.clear()
        _shapes_held = 0
    _SHAPES[classes] = shape
    _shapes_held += room
    return shape


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
        # Where the calls, matches and other actions are in the listing, by the classes of its actions: a
        # dictionary lookup at C speed.
        classes = tuple(map(type, legal_actions))
        shape = _SHAPES.get(classes)
        others, call, matches = _shape(classes) if shape is None else shape
        n = len(others)
        if not n and call < 0:
            if matches and rng.random() < self.match_probability:
                return legal_actions[rng.choice(matches)]
            return None
        if call >= 0 and (not n or rng.random() < self.call_probability):
            return legal_actions[call]
        if matches and rng.random() < self.match_probability:
            return legal_actions[rng.choice(matches)]
        # ``rng.choice(others)`` written out (the same draws: ``Random._randbelow`` with ``getrandbits``),
        # without its two Python calls.
        k = n.bit_length()
        getrandbits = rng.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal_actions[others[r]]

    def __repr__(self) -> str:
        return f"RandomBot(call_probability={self.call_probability}, match_probability={self.match_probability})"
