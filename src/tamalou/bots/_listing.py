"""Where the calls, matches and other actions of a listing are, fast: ``parts(legal_actions)``.

A private speed helper of the bots (``RandomBot``): a listing's places by kind, worked out once per shape of
listing (the classes of its actions, in order) and then found by one dictionary lookup at C speed. It pays in
``benchmarks/random_playout.py`` and ``benchmarks/instructions.py`` (random bots: about a third of the
instructions of a game, written as three plain list comprehensions per step instead).
"""

from __future__ import annotations

from itertools import compress

from ..actions import Action, Call, MatchAction, Tick

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


def parts(legal_actions: list[Action]) -> _Shape:
    """The places in ``legal_actions`` of the actions other than calls, matches and ticks, the place of the
    first call (``-1``: none) and the places of the matches."""
    classes = tuple(map(type, legal_actions))
    shape = _SHAPES.get(classes)
    return _shape(classes) if shape is None else shape
