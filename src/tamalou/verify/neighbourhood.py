"""The near neighbourhood of a state: every action a client could plausibly send, and the thorough
``refusals`` and ``listing_complete`` checks over it.

A handler that is wrong only for one slot or one target hides from random actions: three random actions
per sampled state meet "the slot one past the end of player 2's layout, during a peek_opponent" once in
thousands of games. This module tries them all instead. In a state, the *near actions* are the actions
listed by ``legal_actions`` with their fields moved (``near_actions``):

- the **seat** that sends it: each seat of the table, and one before and one after it (``-1``, ``n``);
- each **(layout, slot)** a listed action names, as ``owner``/``slot``, ``target``/``target_slot`` or
  ``slots``: every slot of the layout, emptied slots included, from ``-1`` to one past the end; for the
  seat to play, and for the first seat listing each type of action, every slot of *every* layout (an
  action naming its own layout implicitly, ``owner`` unset, is also tried with ``owner`` set to each
  other seat: the opponent's slot the listing never offers);
- a **target** without a slot (a power aimed at a player): each seat, ``-1`` and ``n``;
- the **source** of a draw: each source; the **slots** of a match or a peek: each one slot alone,
  none, one slot twice, each slot of a listed choice replaced by each slot of the layout.

One field (or one layout-and-slot pair) moves at a time, the others keep their listed values; the first
listed action of each type and seat is also sent by every other seat (and moved within that seat's
layouts). The listed actions themselves are left out (``listed_accepted`` tries them). The list is
deterministic (the order of the listing, then of the fields) and free of duplicates. Its size is
bounded: for ``m`` listed actions in ``k`` groups of one type and one seat, at most two slot fields
each, ``n`` seats and layouts of at most ``L`` slots, under ``2m(L + 3) + 2k(2n + 3)(L + 3)``. Measured
on random games (a state every 5 actions):

| ruleset | players | median | 90th percentile | largest |
|---|---|---|---|---|
| french | 2 / 4 / 6 | 40 / 84 / 134 | 82 / 120 / 169 | 124 / 139 / 210 |
| cabo | 2 / 4 | 30 / 48 | 97 / 109 | 117 / 131 |
| kaboo | 2 / 8 | 41 / 234 | 57 / 312 | 187 / 2030 (a swap of any two cards) |

``check_near_actions`` tries every near action on a working copy: one that ``apply`` refuses must raise
``IllegalAction`` and leave the game as it was (``refusals``: every field its snapshot saves, compared
in place, and a difference confirmed on ``to_json``); one it accepts must be listed
(``listing_complete``). Each try costs one ``apply`` and a comparison (a copy of the game is made only
after an action that was accepted, or that changed the game): some 10 to 20 µs on French, one to
three milliseconds a state. ``tamalou verify french`` (100 games, about 1,400 sampled states) takes some
15 % longer with it.

>>> from tamalou import new_game
>>> game = new_game("french", players=2, seed=3)
>>> near = near_actions(game)
>>> {"type": "draw", "player": 2, "source": "stock"} in near   # a seat past the table draws
True
>>> {"type": "match", "player": 0, "slots": [4]} in near   # one past the end of the layout
True
>>> check_near_actions(game)   # every near action refused cleanly, or accepted and listed
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..actions import Action, MatchAction, PeekAction, Tick, action_to_dict
from ..engine import Round, copying
from ..engine.game import Game, round_of
from ..errors import IllegalAction, InvariantViolation
from .violation import describe_action, json_diff, violation_of

#: A field naming a slot, and the field naming whose layout it is in (``player``: the sender's own).
_SLOT_OF = {"slot": "owner", "target_slot": "target", "slots": "owner"}
#: The sources of a draw.
_SOURCES = ("stock", "discard")


# ----------------------------------------------------------------------------- the near actions


def near_actions(game: Game | Round) -> list[dict[str, Any]]:
    """Every near action of ``game``'s state (see the module's documentation), in its JSON form: what a
    client could plausibly send now. Deterministic, without duplicates, and without the listed actions.

    >>> from tamalou import new_game
    >>> near = near_actions(new_game("french", players=3, seed=1))
    >>> {"type": "draw", "player": 3, "source": "stock"} in near   # one seat past the table
    True
    """
    return [action_to_dict(a) for a in _near(round_of(game))]


def _near(game: Round) -> list[Action]:
    """The near actions as action objects (``near_actions`` without the trip through JSON)."""
    listed: dict[Action, None] = {}
    groups: dict[tuple[type[Action], int], list[Action]] = {}
    for p in range(game.players):
        for a in game.legal_actions(p):
            if not isinstance(a, Tick) and a not in listed:
                listed[a] = None
                groups.setdefault((type(a), a.player), []).append(a)
    near = _Near(game)
    types: set[type[Action]] = set()
    for (kind, seat), templates in groups.items():
        # into every layout: the actions of the seat to play, and of the first seat listing each type
        near.around(templates, every_layout=seat == game.current_player or kind not in types)
        types.add(kind)
    return [a for a in near.build() if a not in listed]


class _Near:
    """The near actions of one state, gathered as field values (cheap to make and to compare) and made
    into actions once, without duplicates, in the order they were found."""

    def __init__(self, game: Round) -> None:
        self.game = game
        self.n = game.players
        self.seats = range(-1, game.players + 1)  # every seat, one before and one after the table
        self.found: dict[tuple[type[Action], tuple[Any, ...]], None] = {}
        self.varied: set[tuple[Any, ...]] = set()

    def around(self, templates: list[Action], *, every_layout: bool) -> None:
        """The near actions of the listed ``templates``, all of one type and one seat: the first sent by
        every seat (and, with ``every_layout``, moved into every layout); each moved within its own
        layouts."""
        first = templates[0]
        names = tuple(f.name for f in dataclasses.fields(first))  # type: ignore[arg-type]
        values = tuple(getattr(first, name) for name in names)
        for q in self.seats:  # the same action, sent by every seat
            self.add(first, names, values, player=q)
        if "source" in names:
            for source in _SOURCES:
                self.add(first, names, values, source=source)
        if getattr(first, "target", None) is not None and getattr(first, "target_slot", None) is None:
            for q in self.seats:  # a power aimed at a player, without a slot
                self.add(first, names, values, target=q)
        for i, t in enumerate(templates):
            self.moved(t, names, every_layout=every_layout and i == 0)
        for q in range(self.n):  # the first action sent by another seat, moved within its layouts
            if q != first.player:
                other = dataclasses.replace(first, player=q)  # type: ignore[type-var]
                self.moved(other, names, every_layout=False)

    def moved(self, a: Action, names: tuple[str, ...], *, every_layout: bool) -> None:
        """``a`` with each of its slots (one at a time, with the layout it is in) at every slot of that
        layout, from -1 to one past the end; with ``every_layout``, of every layout it may name."""
        values = tuple(getattr(a, name) for name in names)
        for slot_field, seat_field in _SLOT_OF.items():
            if slot_field not in names or getattr(a, slot_field) is None:
                continue
            if seat_field not in names:
                seat_field = "player"
            current = getattr(a, seat_field)
            i = names.index(slot_field)
            key = (type(a), slot_field, current, *values[:i], *values[i + 1 :])
            if key in self.varied and not every_layout:
                continue
            self.varied.add(key)
            layouts = [current]
            if every_layout and seat_field != "player":  # (one's own layout named as such is the same)
                layouts += [q for q in self.seats if q != current and not (current is None and q == a.player)]
            for q in layouts:
                seat = a.player if q is None else q
                slots = range(-1, (len(self.game.hands[seat]) if 0 <= seat < self.n else 0) + 1)
                if slot_field != "slots":
                    for s in slots:
                        self.add(a, names, values, **{seat_field: q, slot_field: s})
                    continue
                self.add(a, names, values, **{seat_field: q, "slots": ()})
                for s in slots:
                    self.add(a, names, values, **{seat_field: q, "slots": (s,)})
            chosen: tuple[int, ...] = getattr(a, "slots", ())
            if slot_field == "slots" and every_layout and chosen:
                seat = a.player if current is None else current
                slots = range(-1, (len(self.game.hands[seat]) if 0 <= seat < self.n else 0) + 1)
                self.add(a, names, values, slots=(*chosen, chosen[0]))  # one slot twice
                for k in range(len(chosen) if len(chosen) > 1 else 0):  # one slot of a choice moved
                    for s in slots:
                        self.add(a, names, values, slots=(*chosen[:k], s, *chosen[k + 1 :]))

    def add(self, a: Action, names: tuple[str, ...], values: tuple[Any, ...], **changes: Any) -> None:
        """Note ``a`` with ``changes`` (by field name)."""
        if changes:
            values = tuple(changes.get(name, v) for name, v in zip(names, values, strict=True))
        self.found.setdefault((type(a), values), None)

    def build(self) -> list[Action]:
        """The actions noted, made (and checked as any action is) once each."""
        made = []
        for cls, values in self.found:
            try:
                made.append(cls(*values))
            except IllegalAction:
                continue  # not even an action (a client's would be refused as it is read)
        return made


# ----------------------------------------------------------------------------- what a listing stands for


def _listing_keys(action: Action) -> list[str]:
    """The listed one-card actions an accepted ``action`` stands for (JSON, without ``at``): a multi-card
    match stands for its one-card matches, a default ``owner`` of a match is dropped, and the slots of a
    peek, and the fields an action class declares ``unordered``, are compared in any order."""
    d = action_to_dict(action)
    d.pop("at", None)
    if isinstance(action, MatchAction):
        if d.get("owner") == action.player:
            d.pop("owner")
        return [json.dumps({**d, "slots": [s]}, sort_keys=True) for s in action.slots]
    if isinstance(action, PeekAction):
        d["slots"] = sorted(d["slots"])  # the slots peeked at, in any order
    for name in type(action).unordered:  # a plugin's sets of slots (its class says which fields)
        d[name] = sorted(d[name])
    return [json.dumps(d, sort_keys=True)]


def is_compared(game: Round, action: Action) -> bool:
    """Whether an accepted ``action`` must be listed in ``game``'s state: not a ``tick``, not an action
    whose ``at`` is past a deadline (applied after the deadline fired, in another state), not a late
    match (somebody else already matched the card: accepted, shown and returned, no longer listed)."""
    if isinstance(action, Tick):
        return False
    due = game.deadline
    if action.at is not None and due is not None and action.at >= due:
        return False
    window = game.state_of("matching")
    return not (isinstance(action, MatchAction) and window is not None and window.win_by not in (-1, action.player))


def first_unlisted(game: Round, action: Action, listed: dict[int, set[str]]) -> str | None:
    """The first one-card action ``action`` stands for that ``legal_actions`` does not list, or ``None``
    (``listed`` caches each player's listing keys)."""
    p = action.player
    keys = listed.get(p)
    if keys is None:
        keys = listed[p] = {k for b in game.legal_actions(p) for k in _listing_keys(b)}
    return next((k for k in _listing_keys(action) if k not in keys), None)


# ----------------------------------------------------------------------------- the thorough check


def _live(game: Round) -> tuple[Any, ...]:
    """What a refusal must leave as it was, as it is now (nothing copied: cheap to take and to compare
    with another game's): every field a snapshot saves (``State.STATE`` and each mechanic's state object),
    the generator, the log's length and its last action."""
    states = [None if st is None else [getattr(st, name) for name in copying.state_slots(st)] for st in game.ms]
    log = game.actions
    return [getattr(game, key) for key in game.STATE], game.rng.state, states, len(log), log[-1] if log else None


def _outcome(game: Round) -> tuple[InvariantViolation | None, InvariantViolation | None]:
    """Try every near action of ``game`` on a working copy: the first violation of ``refusals`` and the
    first of ``listing_complete`` found (each ``None`` if it holds). Between two tries the copy is made
    again only when an action was accepted or changed it."""
    refusal: InvariantViolation | None = None
    listing: InvariantViolation | None = None
    base = _live(game)  # the game itself is never changed: the tries are made on a copy
    work = game.copy()
    listed: dict[int, set[str]] = {}
    for a in _near(game):
        try:
            work.apply(a)
        except IllegalAction:
            if _live(work) == base:
                continue
            before, after = game.to_json(), work.to_json()
            if refusal is None and after != before:
                changed = json_diff(before, after)
                refusal = violation_of(
                    game, f"the refused action {describe_action(a)} changed the game: {changed}", "refusals"
                )
        except Exception as exc:
            if refusal is None:
                why = f"{type(exc).__name__} instead of IllegalAction: {exc}"
                refusal = violation_of(game, f"the action {describe_action(a)} raised {why}", "refusals")
        else:
            if listing is None and is_compared(game, a):
                missing = first_unlisted(game, a, listed)
                if missing is not None:
                    why = f"apply accepts {describe_action(a)} but legal_actions({a.player}) does not list {missing}"
                    listing = violation_of(game, why, "listing_complete")
        work = game.copy()
        if refusal is not None and listing is not None:
            break
    return refusal, listing


#: The last few outcomes, with the variant and the state they are of (``_kept``): ``refusals`` and
#: ``listing_complete`` are checked one after the other at each sampled state, and share one pass.
_OUTCOMES: list[tuple[Any, tuple[Any, ...], tuple[InvariantViolation | None, InvariantViolation | None]]] = []


def _kept(game: Round) -> tuple[Any, ...]:
    """``_live(game)`` copied (the engine's undo memento, ``Round.push``'s), to compare with a later state:
    about 20 µs, against 250 for a snapshot's text."""
    core, rng_state, n_actions, _result, _states, values, last = copying.save(game)
    return core, rng_state, values, n_actions, last


def check_near_actions(game: Game | Round, *, refusals: bool = True, listing: bool = True) -> None:
    """Try every near action of ``game`` (``near_actions``) on a copy: a refused one raises
    ``IllegalAction`` (never another exception) and leaves the game as it was, every field its snapshot
    saves (the invariant ``refusals``, when ``refusals``); an accepted one is listed by ``legal_actions``
    of its player (the invariant ``listing_complete``, when ``listing``; compared as
    ``check_accepted_is_listed`` compares them).
    Raises the first ``InvariantViolation`` found; ``game`` itself is never changed. The outcome of the
    last states checked is kept, so checking both invariants one after the other costs one pass.

    >>> from tamalou import new_game
    >>> check_near_actions(new_game("cabo", players=4, seed=2), listing=False)
    """
    game = round_of(game)
    state = _kept(game)
    outcome = next((o for v, k, o in _OUTCOMES if v is game.variant and k == state), None)
    if outcome is None:
        outcome = _outcome(game)
        del _OUTCOMES[:-3]
        _OUTCOMES.append((game.variant, state, outcome))
    refusal, unlisted = outcome
    if refusals and refusal is not None:
        raise InvariantViolation(str(refusal), invariant="refusals")
    if listing and unlisted is not None:
        raise InvariantViolation(str(unlisted), invariant="listing_complete")
