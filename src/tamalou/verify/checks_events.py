"""The checks of what each seat *receives*: the events of a step, as ``event.for_player(p)`` gives them to
seat ``p`` (what a server sends).

- ``check_event_leaks`` (``event_leak``): exchanging the faces of two cards that seat ``p`` does not know,
  before and after a step, changes nothing of the events ``p`` receives for that step (``no_leak`` says so of
  views and listings);
- ``check_opaque_ids`` (``opaque_ids``): giving two such cards each other's id changes nothing either. A card's
  id is the engine's own index of it: it never reaches a seat (views and listings speak of slots and faces), so a
  rule that puts one in an event tells, through the deck's order, which card it is;
- ``check_event_schema`` (``event_schema``): the fields of an event that name a seat, a slot or a card name a
  real one (below);
- ``check_moves_known`` (``knowledge_follows_moves``): a card that a seat knows and that changes place stays
  known to that seat only if an event it received named the new place (with the fields below, or any number
  of an event that names the seat) (a move nobody was told about must
  forget who knew the card, as ``g.move`` followed by an event naming both places does).

**The fields of an event** (the schema ``event_schema`` checks, and the one ``knowledge_follows_moves`` reads
places from): ``player``, ``owner``, ``target`` and ``by`` are seats; ``slot`` is a slot of ``owner`` if the
event has an ``owner``, else of ``player``; ``slots``, when a list in an event with an ``owner`` or a
``player``, slots of that seat; ``target_slot`` a slot of ``target``; ``card`` and the items of ``cards`` are
faces of the game's deck (or ``None``: hidden). A slot is checked against its seat's layout after the step
(slots are never taken away: an emptied slot stays).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from ..actions import Action
from ..engine import NO_CARD, Round
from ..engine.game import Game, round_of
from ..events import Event
from .checks_knowledge import exchange_faces
from .violation import (
    ASK_AGAIN,
    card_text,
    check_rng,
    dealt_again,
    describe_action,
    outside_state,
    value_diff,
    violation_of,
)

# ----------------------------------------------------------------------------- worlds a seat cannot tell apart


def exchange_ids(game: Game | Round, a: int, b: int) -> Round:
    """A copy of ``game`` where cards ``a`` and ``b`` (ids) have exchanged their ids: every place holds the same
    face, known by the same seats, as before, only under the other id. For a seat that knows neither card the
    two games are the same table. The original game is untouched.

    >>> from tamalou.engine import new_round
    >>> g = new_round("french", players=2, seed=1)
    >>> top, bottom = g.stock[-1], g.stock[0]
    >>> h = exchange_ids(g, top, bottom)
    >>> h.stock[-1] == bottom and h.text[bottom] == g.text[top]
    True
    """
    g = exchange_faces(game, a, b)  # id a now has b's face, and b a's
    swap = {a: b, b: a}
    g.hands = [[swap.get(c, c) for c in hand] for hand in g.hands]
    g.stock = [swap.get(c, c) for c in g.stock]
    g.discard = [swap.get(c, c) for c in g.discard]
    g.held = swap.get(g.held, g.held)
    g.knowers = list(g.knowers)
    g.knowers[a], g.knowers[b] = g.knowers[b], g.knowers[a]
    return g


def _received(events: Sequence[Event], player: int) -> list[dict[str, Any]]:
    """The events as ``player`` receives them (what a server sends that seat)."""
    return [e.for_player(player).to_dict() for e in events]


def _to_try(game: Round, rng: random.Random, actions: int) -> list[Action]:
    """Up to ``actions`` listed actions, drawn with ``rng``: first one of the current player's, of a kind drawn
    among the rarer kinds they may play (a power on offer, its second step, a plugin's move: not a pass, a
    match or time passing, if anything else is listed), then actions of any seat that may act."""
    listed = [a for p in game.to_act for a in game.legal_actions(p)]
    if len(listed) <= actions:
        return listed
    own = [a for a in listed if getattr(a, "player", None) == game.current_player]
    kinds = sorted({a.type for a in own})
    kinds = [k for k in kinds if k not in _COMMON] or [k for k in kinds if k != "pass"] or kinds
    chosen: list[Action] = []
    if kinds:
        kind = rng.choice(kinds)
        chosen.append(rng.choice([a for a in own if a.type == kind]))
    rest = [a for a in listed if a not in chosen]
    return chosen + rng.sample(rest, min(len(rest), actions - len(chosen)))


#: The kinds of action ``_to_try`` draws last: every seat may pass, match or let time pass at many states.
_COMMON = ("pass", "match", "tick")


def _played(game: Round, action: Action) -> tuple[Round, list[Event]] | None:
    """A copy of ``game`` with ``action`` applied, and its events; ``None`` if it is refused or raises (other
    invariants report that)."""
    return _played_on(game.copy(), action)


def _played_on(g: Round, action: Action) -> tuple[Round, list[Event]] | None:
    """``g`` itself (a copy of the caller's) with ``action`` applied, and its events; ``None`` if it is refused
    or raises."""
    try:
        events = g.apply(action)
    except Exception:
        return None
    return g, events


def _hidden_pairs(
    game: Round, after: Round, player: int, rng: random.Random, pairs: int, *, ids: bool
) -> list[tuple[int, int]]:
    """Pairs of cards that ``player`` knows neither before the step nor after it, in hidden places (see
    ``_hidden_places``) before and after it: first the cards the step touched (someone learned them, or they
    moved), each with another such card, then ``pairs`` random pairs. With ``ids``, pairs of the same face too
    (their ids differ)."""
    before_k, after_k = game.knowers, after.knowers
    bit = 1 << player
    hidden_places = _hidden_places(game) & _hidden_places(after)
    hidden = [c for c in sorted(hidden_places) if not (before_k[c] | after_k[c]) & bit]
    if len(hidden) < 2:
        return []
    text = game.text
    where_before, where_after = _places(game), _places(after)
    touched = [c for c in hidden if before_k[c] != after_k[c] or where_before[c] != where_after[c]]
    out: list[tuple[int, int]] = []
    for first in [*touched[:pairs], *(rng.choice(hidden) for _ in range(pairs))]:
        others = [c for c in hidden if c != first and (ids or text[c] != text[first])]
        if others:
            out.append((first, rng.choice(others)))
    return out


def _hidden_places(game: Round) -> set[int]:
    """The cards that may be exchanged: in a layout, the stock or held (the discard is face up), and named by no
    mechanic's state (a card thrown face up, then shuffled back into the stock, is forgotten by the knowledge
    marks but was seen: a mechanic that still compares with it, as matching does with the card its window is
    on, would tell the exchange; any number in a mechanic's state that is a card id keeps that card out)."""
    cards = {c for hand in game.hands for c in hand if c != NO_CARD}
    cards.update(game.stock)
    if game.held != NO_CARD:
        cards.add(game.held)
    return cards - _numbers_in(game.ms)


def _numbers_in(value: object) -> set[int]:
    """Every ``int`` in a mechanic's state (its slots, lists, tuples and dicts, recursively)."""
    found: set[int] = set()
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            found.add(v)
        elif isinstance(v, list | tuple | set | frozenset):
            todo.extend(v)
        elif isinstance(v, dict):
            todo.extend(v.values())
        elif v is not None and not isinstance(v, str | float):
            todo.extend(getattr(v, name, None) for name in _slots_of(type(v)))
            todo.extend(getattr(v, "__dict__", {}).values())
    return found


def _slots_of(cls: type) -> list[str]:
    return [name for c in cls.__mro__ for name in getattr(c, "__slots__", ())] + list(
        getattr(cls, "__annotations__", {})
    )


def _unchanged_for_seats(
    game: Round, rng: random.Random, *, actions: int, pairs: int, ids: bool, invariant: str
) -> None:
    """For up to ``actions`` listed actions: the step's events as each seat receives them do not change when
    two cards the seat knows neither before nor after the step exchange their faces (their ids, with ``ids``)."""
    exchange = exchange_ids if ids else exchange_faces
    what = "ids" if ids else "faces"
    for action in _to_try(game, rng, actions):
        played = _played(game, action)
        if played is None:
            continue
        after, events = played
        for p in range(game.players):
            seen = _received(events, p)
            for a, b in _hidden_pairs(game, after, p, rng, pairs, ids=ids):
                # (``exchange`` made a copy: the action is played on it, not on a copy of it; a round copy is
                # most of what this check costs, benchmarks/verify_games.py)
                other = _played_on(exchange(game, a, b), action)
                if other is None:
                    continue  # the action's acceptance itself depends on the cards: no_leak's business
                changed = _received(other[1], p)
                if changed != seen:
                    for _ in range(ASK_AGAIN):  # nothing exchanged: if it differs still, no exchange is to blame
                        again = _played(game, action)
                        if again is not None and _received(again[1], p) != seen:
                            diff = value_diff(seen, _received(again[1], p), "events")
                            asked = f"what player {p} receives of {describe_action(action)}"
                            raise outside_state(game, asked, diff, invariant)
                    raise violation_of(
                        game,
                        f"leak: exchanging the {what} of {card_text(game, a)} and {card_text(game, b)}, both "
                        f"unknown to "
                        f"player {p} before and after the action {describe_action(action)}, changes the events they "
                        f"receive: {value_diff(seen, changed, 'events')}",
                        invariant,
                    )


def check_event_leaks(
    game: Game | Round, rng: random.Random | None = None, *, actions: int = 2, pairs: int = 2
) -> None:
    """``event_leak``: what a seat receives of a step depends only on what it knows. For up to ``actions``
    listed actions (drawn with ``rng``, default: seeded from the game), played on a copy: for every seat, two
    cards it knows neither before the step nor after it exchange their faces (first the cards the step
    touched, then ``pairs`` random ones), the action is played again, and the events the seat receives
    (``event.for_player(p).to_dict()``) must be the same. A power that puts the card it looked at in the public
    facts of its event breaks it. ``game`` is not changed.

    >>> from tamalou import new_game
    >>> check_event_leaks(new_game("french", players=3, seed=1))
    """
    game = round_of(game)
    rng = rng if rng is not None else check_rng(game, "event_leak")
    _unchanged_for_seats(game, rng, actions=actions, pairs=pairs, ids=False, invariant="event_leak")


def check_opaque_ids(game: Game | Round, rng: random.Random | None = None, *, actions: int = 2, pairs: int = 2) -> None:
    """``opaque_ids``: no seat receives a card's id. As ``check_event_leaks``, with the two cards exchanging
    their ids rather than their faces: the same table under other ids. Ids follow the deck's order, the same in
    every game, so an id in an event names a face (a power that publishes the id of the card it looked at
    breaks it).

    >>> from tamalou import new_game
    >>> check_opaque_ids(new_game("french", players=3, seed=1))
    """
    game = round_of(game)
    rng = rng if rng is not None else check_rng(game, "opaque_ids")
    _unchanged_for_seats(game, rng, actions=actions, pairs=pairs, ids=True, invariant="opaque_ids")


# ----------------------------------------------------------------------------- the fields of events

_SEATS = ("player", "owner", "target", "by")


def _slot_owner(facts: dict[str, Any]) -> Any:
    return facts["owner"] if "owner" in facts else facts.get("player")


def _named_places(facts: dict[str, Any]) -> Iterator[tuple[Any, Any]]:
    """The places ``(seat, slot)`` an event's facts name (see the module's documentation)."""
    owner = _slot_owner(facts)
    if "slot" in facts:
        yield owner, facts["slot"]
    slots = facts.get("slots")
    if isinstance(slots, list | tuple) and owner is not None:
        for s in slots:
            yield owner, s
    if "target_slot" in facts:
        yield facts.get("target"), facts["target_slot"]


def _loosely_named_places(facts: dict[str, Any]) -> Iterator[tuple[int, int]]:
    """Places an event of a plugin may name with fields of its own: every number among its facts, as a slot of
    every seat the event names (``{"player": 0, "to": 3}`` names player 0's slot 3). ``knowledge_follows_moves``
    accepts these too, so that it reports a move no event speaks of, not one spoken of in other words."""
    seats = [facts[k] for k in _SEATS if _is_int(facts.get(k))]
    numbers: list[int] = []
    for key, v in facts.items():
        if key in _SEATS:
            continue
        if _is_int(v):
            numbers.append(v)
        elif isinstance(v, list | tuple):
            numbers.extend(x for x in v if _is_int(x))
    for seat in seats:
        for n in numbers:
            yield seat, n


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_event_schema(game: Game | Round, events: Sequence[Event]) -> None:
    """``event_schema`` for one step: ``events`` (what the step returned, ``game`` after it) name real seats,
    slots and cards (see the module's documentation): a seat field is a seat of the game, a slot field a slot of
    its seat's layout, a card field a face of the deck or ``None``. An event whose ``slot`` names a slot its
    owner does not have breaks it (a client drawing the table from events would draw a card nowhere).

    >>> from tamalou import new_game, round_of
    >>> g = new_game("french", players=2, seed=1)
    >>> check_event_schema(g, g.apply(g.legal_actions(g.current_player)[0]))
    """
    game = round_of(game)
    n = game.players
    faces = set(game.text)
    for e in events:
        facts = {**e.data, **(e.secret or {})}
        where = f"the event {e.type!r} ({_describe_event(e)})"
        for key in _SEATS:
            if key in facts and not (_is_int(facts[key]) and 0 <= facts[key] < n):
                raise violation_of(
                    game, f"{where}: {key} = {facts[key]!r} is not a seat (0 to {n - 1})", "event_schema"
                )
        for seat, slot in _named_places(facts):
            if not (_is_int(seat) and 0 <= seat < n):
                raise violation_of(game, f"{where}: a slot of {seat!r}, which is not a seat", "event_schema")
            if not (_is_int(slot) and 0 <= slot < len(game.hands[seat])):
                raise violation_of(
                    game,
                    f"{where}: slot {slot!r} of player {seat}, whose layout has slots 0 to {len(game.hands[seat]) - 1}",
                    "event_schema",
                )
        cards = [facts["card"]] if "card" in facts else []
        if isinstance(facts.get("cards"), list | tuple):
            cards += list(facts["cards"])
        for card in cards:
            if card is not None and (not isinstance(card, str) or card not in faces):
                raise violation_of(game, f"{where}: {card!r} is not a card of the game's deck", "event_schema")


def _describe_event(e: Event) -> str:
    try:
        return e.describe()
    except Exception:  # a plugin's event may not fit the words: its facts then
        return repr(e.to_dict())


# ----------------------------------------------------------------------------- knowledge follows moves

Place = tuple[int, int]  # (seat, slot) for a layout; (-1, 0) stock, (-2, 0) discard, (-3, 0) held, (-4, 0) nowhere


def _places(game: Round) -> list[Place]:
    """Where each card lies, by id."""
    where: list[Place] = [(-4, 0)] * len(game.cards)
    for p, hand in enumerate(game.hands):
        for s, c in enumerate(hand):
            if c != NO_CARD:
                where[c] = (p, s)
    for c in game.stock:
        where[c] = (-1, 0)
    for c in game.discard:
        where[c] = (-2, 0)
    if game.held != NO_CARD:
        where[game.held] = (-3, 0)
    return where


def places(game: Game | Round) -> list[Place]:
    """Where each card of ``game`` lies, by id: ``(seat, slot)`` in a layout, else ``(-1, 0)`` in the stock,
    ``(-2, 0)`` on the discard, ``(-3, 0)`` held, ``(-4, 0)`` nowhere. What ``check_moves_known`` compares."""
    return _places(round_of(game))


def check_moves_known(
    game: Game | Round, before_places: Sequence[Place], before_knowers: Sequence[int], events: Sequence[Event]
) -> None:
    """``knowledge_follows_moves`` for one step: ``before_places`` (``places(game)``) and ``before_knowers`` (a
    copy of ``round_of(game).knowers``) before the step, ``events`` what it returned, ``game`` after it. A card
    that moved into a layout slot and is still known to a seat that knew it must have been followed by that
    seat: an event it received names the new place. A power exchanging two opponents' cards in secret with
    ``g.move`` or ``g.place``, and no event, breaks it (seats that knew the cards would know them in their new
    places without having seen them move).

    >>> from tamalou import new_game, round_of
    >>> g = new_game("french", players=2, seed=1)
    >>> rd = round_of(g)
    >>> where, knew = places(g), list(rd.knowers)
    >>> check_moves_known(g, where, knew, g.apply(g.legal_actions(g.current_player)[0]))
    """
    game = round_of(game)
    now = _places(game)
    knowers = game.knowers
    named: list[set[tuple[Any, Any]]] | None = None
    for c, (was, is_) in enumerate(zip(before_places, now, strict=True)):
        if was == is_ or is_[0] < 0:
            continue
        kept = before_knowers[c] & knowers[c]
        if not kept:
            continue
        if named is None:
            named = [set() for _ in range(game.players)]
            for e in events:
                for p in range(game.players):
                    facts = {**e.data, **(e.secret or {})} if e.sees(p) else e.data
                    named[p].update(_named_places(facts))
                    named[p].update(_loosely_named_places(facts))
        for p in range(game.players):
            if kept >> p & 1 and is_ not in named[p]:
                raise violation_of(
                    game,
                    f"player {p} still knows {card_text(game, c)} after it moved from {_place_text(was)} to "
                    f"{_place_text(is_)}, but no event they received names that place (events: "
                    f"{', '.join(e.type for e in events) or 'none'}): a move nobody saw must forget who knew "
                    f"the card (knowers[card] = 0), or an event must say where it went",
                    "knowledge_follows_moves",
                )


def _place_text(place: Place) -> str:
    seat, slot = place
    return {-1: "the stock", -2: "the discard", -3: "a hand (held)", -4: "nowhere"}.get(
        seat, f"player {seat} slot {slot}"
    )


def check_events_of_round(game: Game | Round, *, schema: bool = True, moves: bool = True) -> None:
    """``event_schema`` (with ``schema``) and ``knowledge_follows_moves`` (with ``moves``) over the whole round
    so far: the game is played again from its deal and every step is checked (``tamalou verify`` checks each
    step as it is played).

    >>> from tamalou.verify import random_playout
    >>> check_events_of_round(random_playout("french", players=3, seed=2))
    """
    game = round_of(game)
    fresh = dealt_again(game)
    where, knew = _places(fresh), [0] * len(fresh.knowers)
    events = fresh.start()
    for a in [None, *game.actions]:
        if a is not None:
            where, knew = _places(fresh), list(fresh.knowers)
            events = fresh.apply(a)
        if schema:
            check_event_schema(fresh, events)
        if moves:
            check_moves_known(fresh, where, knew, events)


__all__ = [
    "check_event_leaks",
    "check_event_schema",
    "check_events_of_round",
    "check_moves_known",
    "check_opaque_ids",
    "exchange_ids",
    "places",
]
