"""Invariants of a round, checkable on any game: the verification layer of tamalou.

Each ``check_*`` function raises ``InvariantViolation`` (an ``AssertionError``) with a message that
says what broke, where (turn, phase, player to play) and with which cards; it returns ``None`` when
the invariant holds. Every argument but the game has a default: a check that samples (pairs of
cards, random actions) draws from a generator seeded from the game itself, so the same state is
checked the same way every time. They need no test framework, so a server can run them on live
games, a ruleset author in plain tests, and ``tamalou verify`` on random play::

    import tamalou
    from tamalou.invariants import check_all, check_conservation, check_no_leak, random_playout

    game = random_playout("french", players=4, seed=7, check_every=1)  # all checks, every step
    check_conservation(game)
    check_no_leak(game, player=0)
    check_all(game)

Every invariant has a stable name, a one-line description and a check taking just a game, in
``INVARIANTS`` (``INVARIANTS["no_leak"](game)`` checks every seat); ``tamalou verify`` counts checks
and failures by these names, and a counterexample names the one that broke:

- ``conservation``: every card of the universe is in exactly one place (a slot, the stock, the
  discard, or held);
- ``knowledge``: the discard is public, the holder knows the held card, everything is revealed at
  the end;
- ``knowledge_events``: a seat learns a card only from an event that shows it to them, and knows
  every card an event shows them (the knowledge marks follow what each seat was told);
- ``no_leak``: exchanging two cards a player does not know changes neither their view nor their
  legal actions (the call included: their own unknown cards given the lowest, then the highest,
  faces they do not know are always tried, so a rule decided on their hidden total shows);
- ``listed_accepted``: every listed action is complete and accepted; somebody may act until the end;
- ``listing_complete``: an action ``apply`` accepts is listed (a multi-card match as its one-card
  matches);
- ``refusals``: a refused action raises ``IllegalAction``, nothing else, and leaves the game
  byte-identical;
- ``snapshot``: ``from_json(to_json())`` is the same game and plays on identically;
- ``no_crash``: no listing, view, listed action or result raises (a plugin's hook included: the
  engine turns its exception into ``PluginError``);
- ``termination``: a round ends: no turn takes more than ``turn_bound`` actions, none is played past
  ``rules.end.max_turns``, and the round takes fewer than ``step_bound`` actions;
- ``replay``: ``tamalou.replay`` of the seed and actions rebuilds the same game;
- ``result``: a finished round's result is consistent (totals, every player ranked once, winners
  first, one score each);
- ``slot_order``: the result does not change when a player's cards are put in other slots of their
  layout (a ranking or scoring rule reads cards, not where they lie).

``random_playout`` plays random games (random players out of turn, random legal actions) and
``verify`` runs many with every check (``tamalou.verification``: worker processes, a report by
invariant, shrunk counterexamples); ``tamalou.testing`` builds hypothesis strategies on them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .actions import ACTION_TYPES, Action, Call, MatchAction, PeekAction, Tick, action_to_dict, parse_action
from .engine import Game, new_game, replay
from .errors import IllegalAction
from .events import Event
from .schema import Variant
from .variant import load_variant

__all__ = [
    "INVARIANTS",
    "Chooser",
    "Failure",
    "Invariant",
    "InvariantViolation",
    "RandomChooser",
    "VerifyReport",
    "check_accepted_is_listed",
    "check_all",
    "check_conservation",
    "check_illegal_leaves_state",
    "check_knowledge",
    "check_knowledge_events",
    "check_legal_actions_accepted",
    "check_listing_complete",
    "check_no_crash",
    "check_no_leak",
    "check_refusals",
    "check_replay",
    "check_result",
    "check_slot_order",
    "check_snapshot_roundtrip",
    "check_step_knowledge",
    "check_termination",
    "choose_action",
    "exchange_faces",
    "play_out",
    "random_action",
    "random_playout",
    "step_bound",
    "turn_bound",
    "verify",
]

_NO_CARD = -1


class InvariantViolation(AssertionError):
    """An invariant of the game does not hold. The message says which one, where, and with what.

    ``invariant`` is the name of the invariant that broke (a key of ``INVARIANTS``; empty if
    unknown). ``actions`` holds the actions applied before the violation when a playout raised it
    (with the game's seed and player count, ``tamalou.replay`` rebuilds the state that broke), and
    ``pending`` the action whose ``apply`` crashed, if that was the violation.
    """

    def __init__(
        self, message: str, *, actions: Sequence[Action] = (), invariant: str = "", pending: Action | None = None
    ) -> None:
        super().__init__(message)
        self.actions: list[Action] = list(actions)
        self.invariant = invariant
        self.pending = pending


# ----------------------------------------------------------------------------- small helpers


def _where(game: Game) -> str:
    phase = getattr(game.phase, "value", game.phase)
    return (
        f"[turn {game.turn}, phase {phase!r}, player {game.current_player} to play, after {len(game.actions)} actions]"
    )


def _fail(game: Game, message: str, invariant: str = "") -> InvariantViolation:
    return InvariantViolation(f"{message} {_where(game)}", invariant=invariant)


def _rng(game: Game, name: str) -> random.Random:
    """The default generator of a sampling check: seeded from the game (its seed and how many actions
    it has seen) and the check's name, so the same state is always checked the same way."""
    return random.Random(f"{name}/{game.seed}/{len(game.actions)}")


def _place(game: Game, card: int) -> str:
    """Where card id ``card`` lies, for messages."""
    for p, hand in enumerate(game.hands):
        for s, c in enumerate(hand):
            if c == card:
                return f"player {p} slot {s}"
    if card in game.stock:
        return f"stock (position {len(game.stock) - 1 - game.stock.index(card)} from the top)"
    if card in game.discard:
        return f"discard (position {game.discard.index(card)} from the bottom)"
    if card == game.held:
        return "held"
    return "nowhere"


def _card(game: Game, card: int) -> str:
    text = game.text[card] if 0 <= card < len(game.text) else "?"
    return f"card {card} ({text}, {_place(game, card)})"


def _diff(before: Any, after: Any, path: str = "") -> str:
    """The first difference between two JSON-like values, as ``path: before -> after``."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in list(before) + [k for k in after if k not in before]:
            if key not in after or key not in before or before[key] != after[key]:
                return _diff(before.get(key, "<missing>"), after.get(key, "<missing>"), f"{path}.{key}")
    elif isinstance(before, list) and isinstance(after, list):
        for i, (x, y) in enumerate(zip(before, after, strict=False)):
            if x != y:
                return _diff(x, y, f"{path}[{i}]")
        if len(before) != len(after):
            return f"{path or '<root>'}: length {len(before)} -> {len(after)}"
    return f"{path or '<root>'}: {before!r} -> {after!r}"


def _json_diff(before: str, after: str) -> str:
    try:
        return _diff(json.loads(before), json.loads(after))
    except ValueError:
        return f"{before[:80]!r} -> {after[:80]!r}"


_State = tuple[str, list[Action]]


def _state_of(game: Game) -> _State:
    """The game's snapshot without its action log, and the log: what a refusal, or trying actions on
    copies, must leave as it was (on a long game, much cheaper than a whole ``to_json``)."""
    g = game.copy()
    g.actions = []
    return g.to_json(), list(game.actions)


def _state_diff(before: _State, after: _State) -> str | None:
    """How two ``_state_of`` differ, or ``None``."""
    if before[0] != after[0]:
        return _json_diff(before[0], after[0])
    if before[1] != after[1]:
        return f".actions: {len(before[1])} actions -> {len(after[1])}"
    return None


def _describe(action: object) -> str:
    if isinstance(action, tuple(ACTION_TYPES.values())):
        return json.dumps(action_to_dict(action))  # type: ignore[arg-type]
    return repr(action)


def _as_variant(variant: Variant | str | Sequence[str]) -> Variant:
    return variant if isinstance(variant, Variant) else load_variant(variant)


# ----------------------------------------------------------------------------- state invariants


def check_conservation(game: Game) -> None:
    """Every card of the universe is in exactly one place: a layout slot, the stock, the discard,
    or held (``game.held``; ``-1`` if none). Nothing is lost, duplicated or invented.

    >>> check_conservation(new_game("french", players=3, seed=1))
    """
    n = len(game.cards)
    problems: list[str] = []
    for name in ("text", "rank", "value", "knowers"):
        size = len(getattr(game, name))
        if size != n:
            problems.append(f"game.{name} has {size} entries for {n} cards")
    if len(game.hands) != game.players:
        problems.append(f"{len(game.hands)} layouts for {game.players} players")
    seen: dict[int, str] = {}

    def put(card: object, place: str) -> None:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < n:
            problems.append(f"{place} holds {card!r}, which is not a card id (0 to {n - 1})")
        elif card in seen:
            problems.append(f"card {card} ({game.text[card]}) is both at {seen[card]} and at {place}")
        else:
            seen[card] = place

    for p, hand in enumerate(game.hands):
        for s, c in enumerate(hand):
            if c != _NO_CARD:
                put(c, f"player {p} slot {s}")
    for i, c in enumerate(game.stock):
        put(c, f"stock[{i}]")
    for i, c in enumerate(game.discard):
        put(c, f"discard[{i}]")
    if game.held != _NO_CARD:
        put(game.held, "held")
    missing = [c for c in range(n) if c not in seen]
    if missing:
        shown = ", ".join(f"{c} ({game.text[c]})" for c in missing[:8])
        problems.append(f"{len(missing)} card(s) are nowhere: {shown}")
    if problems:
        raise _fail(game, "cards not conserved: " + "; ".join(problems), "conservation")


def check_knowledge(game: Game) -> None:
    """What everybody must know: the whole discard (it is face up), the held card by its holder,
    and at the end of the round every card of every layout.

    >>> check_knowledge(new_game("french", players=2, seed=3))
    """
    everyone = range(game.players)
    for c in game.discard:
        blind = [p for p in everyone if not game.knows(p, c)]
        if blind:
            raise _fail(game, f"{_card(game, c)} is face up on the discard but unknown to players {blind}", "knowledge")
    if game.held != _NO_CARD and game.phase != "over" and not game.knows(game.holder, game.held):
        raise _fail(game, f"player {game.holder} holds {_card(game, game.held)} without knowing it", "knowledge")
    if game.is_over:
        for hand in game.hands:
            for c in hand:
                blind = [p for p in everyone if c != _NO_CARD and not game.knows(p, c)]
                if blind:
                    raise _fail(
                        game, f"the round is over but {_card(game, c)} is unknown to players {blind}", "knowledge"
                    )


def _texts(value: object, into: set[str]) -> None:
    """Every string in an event's field (cards are named by their text, alone or in lists)."""
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, list | tuple):
        for v in value:
            _texts(v, into)
    elif isinstance(value, dict):
        for v in value.values():
            _texts(v, into)


def check_step_knowledge(game: Game, before: Sequence[int], events: Sequence[Event]) -> None:
    """One step of ``knowledge_events``: ``before`` is ``game.knowers`` (a copy) before the step, and
    ``events`` what the step returned. Who knows what must follow from what each seat was told:

    - a seat that now knows a card it did not know was shown that card by an event of the step: its
      text is in the public facts of an event, or in the secret facts of an event the seat sees (a
      card moved in sight keeps its knowers; the end of the round shows every layout to all);
    - a seat shown a card in secret by an event of the step knows it (or it was shown to all).

    A power that marks a card known by the wrong seat, or whose event shows it to the wrong seat,
    breaks one or the other. Cards are compared by their text (two cards of the same face count as
    one: the check is weaker with several decks, never wrong).

    >>> g = new_game("french", players=2, seed=1)
    >>> before = list(g.knowers)
    >>> check_step_knowledge(g, before, g.apply(g.legal_actions(g.current_player)[0]))
    """
    n = game.players
    public: set[str] = set()
    secret: list[set[str]] = [set() for _ in range(n)]
    for e in events:
        _texts(e.data, public)
        if e.secret:
            shown: set[str] = set()
            _texts(e.secret, shown)
            for p in range(n):
                if e.sees(p):
                    secret[p] |= shown
    after, text = game.knowers, game.text
    if len(before) != len(after):
        raise _fail(
            game, f"the step changed the number of cards known from {len(before)} to {len(after)}", "knowledge_events"
        )
    over = game.is_over  # the end shows every layout (and a held card) to all: check_knowledge says so
    for c, (was, now) in enumerate(zip(before, after, strict=True)):
        gained = now & ~was
        if not gained or text[c] in public or over:
            continue
        for p in range(n):
            if gained >> p & 1 and text[c] not in secret[p]:
                raise _fail(
                    game,
                    f"player {p} now knows {_card(game, c)} but no event of the step showed it to them "
                    f"(events: {', '.join(e.type for e in events) or 'none'})",
                    "knowledge_events",
                )
    for p in range(n):
        unknown = secret[p] - public
        if not unknown:
            continue
        for c, t in enumerate(text):
            if t in unknown and after[c] >> p & 1:
                unknown.discard(t)
        if unknown:
            face = sorted(unknown)[0]
            kinds = ", ".join(e.type for e in events if e.secret and e.sees(p) and face in str(e.secret))
            raise _fail(
                game,
                f"an event ({kinds}) showed player {p} the {face}, but they do not know any {face} after the step",
                "knowledge_events",
            )


def check_knowledge_events(game: Game) -> None:
    """``knowledge_events`` over the whole round so far: the game is played again from its deal (it
    keeps no events), and ``check_step_knowledge`` checks every step, the deal's included.
    O(actions): a check for the end of a game or a test, not for every step (``tamalou verify``
    checks each step as it is played).

    >>> check_knowledge_events(random_playout("french", players=3, seed=2))
    """
    first = game.first_player if game.first_given else None
    fresh = Game(game.variant, game.players, seed=game.seed, deal=game.deal_spec, first_player=first)
    check_step_knowledge(fresh, [0] * len(fresh.knowers), fresh.start())
    for a in game.actions:
        before = list(fresh.knowers)
        check_step_knowledge(fresh, before, fresh.apply(a))


def exchange_faces(game: Game, a: int, b: int) -> Game:
    """A copy of ``game`` where card ids ``a`` and ``b`` have exchanged faces (text, rank, value):
    every place and every player's knowledge stay as they are, only what the two cards *are*
    changes. The original game is untouched.

    >>> g = new_game("french", players=2, seed=1)
    >>> exchange_faces(g, g.stock[-1], g.stock[0]).text[g.stock[-1]] == g.text[g.stock[0]]
    True
    """
    g = game.copy()
    # The copy shares the face tables with the original: give it its own before exchanging.
    g.cards, g.text, g.rank, g.value = list(g.cards), list(g.text), list(g.rank), list(g.value)
    g.power_of = list(g.power_of)
    g.power_of[a], g.power_of[b] = g.power_of[b], g.power_of[a]
    g.cards[a], g.cards[b] = g.cards[b], g.cards[a]
    g.text[a], g.text[b] = g.text[b], g.text[a]
    g.rank[a], g.rank[b] = g.rank[b], g.rank[a]
    g.value[a], g.value[b] = g.value[b], g.value[a]
    # A result cached by the copy is only there once the round is over, when every card in a
    # layout is known to all: an exchange of unknown cards cannot change it.
    return g


def _unknown_pairs(game: Game, player: int, rng: random.Random, pairs: int) -> list[tuple[int, int]]:
    """Pairs of different-faced cards unknown to ``player``: first each of their own unknown cards
    with the unknown card elsewhere whose value differs most from it (what changes their hidden total
    most: a call or a rule decided on it shows up), then up to ``pairs`` random pairs, half of them
    with a card in play (a layout or held), where a leak would matter most; every pair if there are
    fewer."""
    text, value = game.text, game.value
    unknown = [c for c in range(len(game.cards)) if not game.knows(player, c)]
    if len(unknown) < 2:
        return []
    if len(unknown) * (len(unknown) - 1) // 2 <= pairs:
        return [(x, y) for i, x in enumerate(unknown) for y in unknown[i + 1 :] if text[x] != text[y]]
    own = set(game.hands[player]) if 0 <= player < len(game.hands) else set()
    elsewhere = [c for c in unknown if c not in own]
    out: list[tuple[int, int]] = []
    for c in (c for c in unknown if c in own):
        # The unknown card elsewhere whose value differs most: the hidden total moves as far as it can.
        others = [x for x in elsewhere if text[x] != text[c]]
        if others:
            out.append((c, max(others, key=lambda x: (abs(value[x] - value[c]), x))))
    in_play = set(c for hand in game.hands for c in hand if c != _NO_CARD)
    if game.held != _NO_CARD:
        in_play.add(game.held)
    hot = [c for c in unknown if c in in_play]
    for i in range(pairs):
        first = rng.choice(hot) if hot and i % 2 == 0 else rng.choice(unknown)
        others = [c for c in unknown if text[c] != text[first]]
        if others:
            out.append((first, rng.choice(others)))
    return out


def _exchanged(game: Game, pairs: Sequence[tuple[int, int]]) -> Game:
    """A copy of ``game`` with the faces of each pair of card ids exchanged (disjoint pairs)."""
    g = exchange_faces(game, *pairs[0])
    for a, b in pairs[1:]:
        g.cards[a], g.cards[b] = g.cards[b], g.cards[a]
        g.text[a], g.text[b] = g.text[b], g.text[a]
        g.rank[a], g.rank[b] = g.rank[b], g.rank[a]
        g.value[a], g.value[b] = g.value[b], g.value[a]
        g.power_of[a], g.power_of[b] = g.power_of[b], g.power_of[a]
    return g


def _extremes(game: Game, player: int) -> list[list[tuple[int, int]]]:
    """Two exchanges of several cards at once: ``player``'s unknown cards given the lowest, then the
    highest, faces among the cards they do not know (their hidden total at its least and at its most).
    Any arrangement of the faces of unknown cards is as indistinguishable as one exchange: a rule that
    decides on the hidden total (a call allowed only when it is low) shows up even far from its edge."""
    if not 0 <= player < len(game.hands):
        return []
    value, text = game.value, game.text
    own = [c for c in game.hands[player] if c != _NO_CARD and not game.knows(player, c)]
    owned = set(own)
    elsewhere = [c for c in range(len(game.cards)) if c not in owned and not game.knows(player, c)]
    if not own or not elsewhere:
        return []
    k = len(own)
    lows = sorted(elsewhere, key=lambda c: (value[c], c))[:k]
    highs = sorted(elsewhere, key=lambda c: (-value[c], c))[:k]
    high_first, low_first = sorted(own, key=lambda c: (-value[c], c)), sorted(own, key=lambda c: (value[c], c))
    down = [(c, x) for c, x in zip(high_first, lows, strict=False) if value[x] < value[c]]
    up = [(c, x) for c, x in zip(low_first, highs, strict=False) if value[x] > value[c]]
    return [[(c, x) for c, x in pairs if text[c] != text[x]] for pairs in (down, up) if pairs]


def check_no_leak(game: Game, player: int, rng: random.Random | None = None, *, pairs: int = 12) -> None:
    """What ``player`` sees and may do depends only on what they know: exchanging the faces of two
    cards unknown to them leaves ``view(player)`` and ``legal_actions(player)`` (order included)
    unchanged. Tried: their unknown cards given the lowest faces they do not know, then the highest,
    all at once (a call, or any rule, decided on their hidden total changes the listing); each of
    their own unknown cards with the unknown card elsewhere whose value differs most; then ``pairs``
    random pairs drawn with ``rng`` (default: seeded from the game); every pair if there are fewer.

    >>> check_no_leak(new_game("french", players=4, seed=2), 0)
    """
    rng = rng if rng is not None else _rng(game, "no_leak")
    base_view = game.view(player)
    base_actions = game.legal_actions(player)
    tries = [ex for ex in _extremes(game, player) if ex] + [[pair] for pair in _unknown_pairs(game, player, rng, pairs)]
    for exchange in tries:
        swapped = _exchanged(game, exchange)
        cards = ", ".join(f"{_card(game, a)} and {_card(game, b)}" for a, b in exchange)
        what = f"{cards}, {'both' if len(exchange) == 1 else 'all'} unknown to player {player}"
        view = swapped.view(player)
        if view != base_view:
            before, after = base_view.model_dump(mode="json"), view.model_dump(mode="json")
            raise _fail(game, f"leak: exchanging {what}, changes their view: {_diff(before, after, 'view')}", "no_leak")
        actions = swapped.legal_actions(player)
        if actions != base_actions:
            listed = [action_to_dict(x) for x in base_actions]
            raise _fail(
                game,
                f"leak: exchanging {what}, changes their legal actions: "
                f"{_diff(listed, [action_to_dict(x) for x in actions], 'legal_actions')}",
                "no_leak",
            )


def check_legal_actions_accepted(
    game: Game, *, snapshot: str | None = None, limit: int | None = None, rng: random.Random | None = None
) -> None:
    """Every action that ``legal_actions(p)`` lists, for every player ``p``, is complete (its own
    player, listed once, the same after a trip through its JSON form) and is accepted by ``apply``
    (tried on copies). While the round is not over somebody has an action (or, in a timed
    ruleset, a deadline is due: time will move the round on); once over, nobody.
    ``snapshot``: ``game.to_json()`` if the caller has it already. ``limit``: at most so many of
    each player's listed actions go through JSON and ``apply``, drawn with ``rng`` (default: seeded
    from the game); ``None``: all of them (a ruleset may list hundreds of exchanges).

    >>> check_legal_actions_accepted(new_game("french", players=3, seed=4))
    """
    before = _state_of(game) if snapshot is None else snapshot
    anybody = False
    for p in range(game.players):
        listed = game.legal_actions(p)
        anybody = anybody or bool(listed)
        if game.is_over and listed:
            raise _fail(game, f"the round is over but player {p} is offered {_describe(listed[0])}", "listed_accepted")
        seen: set[Action] = set()
        for a in listed:
            if not isinstance(a, Tick) and a.player != p:
                raise _fail(
                    game, f"legal_actions({p}) lists an action of another player: {_describe(a)}", "listed_accepted"
                )
            if a in seen:
                raise _fail(game, f"legal_actions({p}) lists {_describe(a)} twice", "listed_accepted")
            seen.add(a)
        tried = listed
        if limit is not None and len(listed) > limit:
            rng = rng if rng is not None else _rng(game, "listed_accepted")
            tried = rng.sample(listed, limit)
        for a in tried:
            text = _describe(a)
            if parse_action(action_to_dict(a)) != a:
                raise _fail(
                    game, f"legal_actions({p}) lists {text}, which changes through its JSON form", "listed_accepted"
                )
            trial = game.copy()
            try:
                trial.apply(a)
            except IllegalAction as exc:
                raise _fail(
                    game, f"legal_actions({p}) lists {text} but apply refuses it: {exc}", "listed_accepted"
                ) from None
            except Exception as exc:
                raise _fail(
                    game, f"legal_actions({p}) lists {text} and apply crashes: {type(exc).__name__}: {exc}", "no_crash"
                ) from exc
    if not game.is_over and not anybody and game.deadline is None:
        raise _fail(
            game,
            "the round is not over, nobody has a legal action and no deadline is due (deadlock)",
            "listed_accepted",
        )
    if isinstance(before, str):
        changed = None if game.to_json() == before else _json_diff(before, game.to_json())
    else:
        changed = _state_diff(before, _state_of(game))
    if changed is not None:
        raise _fail(game, f"trying actions on copies changed the game: {changed}", "listed_accepted")


def _listing_keys(action: Action) -> list[str]:
    """The listed one-card actions an accepted ``action`` stands for (JSON, without ``at``)."""
    d = action_to_dict(action)
    d.pop("at", None)
    if isinstance(action, MatchAction):
        if d.get("owner") == action.player:
            d.pop("owner")
        return [json.dumps({**d, "slots": [s]}, sort_keys=True) for s in action.slots]
    if isinstance(action, PeekAction):
        d["slots"] = sorted(d["slots"])  # the slots peeked at, in any order
    return [json.dumps(d, sort_keys=True)]


def check_illegal_leaves_state(
    game: Game, action: Action | dict[str, Any] | object, *, snapshot: str | None = None
) -> bool:
    """Apply ``action`` (an action, a JSON dict, or any junk) to a copy of ``game``. If it is refused
    with ``IllegalAction``, the copy must be byte-identical (``to_json``) to the game before; any
    other exception is a violation (a bad action is an ``IllegalAction``, never a crash). Returns
    whether the action was refused; ``game`` itself is never changed. ``snapshot``:
    ``game.to_json()`` if the caller has it already.

    >>> g = new_game("french", players=2, seed=5)
    >>> check_illegal_leaves_state(g, {"type": "replace", "player": 0, "slot": 9})
    True
    """
    return _refusal(game, action, snapshot, None)


def _refusal(game: Game, action: object, snapshot: str | None, base: _State | None) -> bool:
    trial = game.copy()
    try:
        trial.apply(action)  # type: ignore[call-overload]
    except IllegalAction:
        if snapshot is not None:
            after = trial.to_json()
            changed = None if after == snapshot else _json_diff(snapshot, after)
        else:
            changed = _state_diff(base if base is not None else _state_of(game), _state_of(trial))
        if changed is not None:
            raise _fail(
                game, f"the refused action {_describe(action)} changed the game: {changed}", "refusals"
            ) from None
        return True
    except Exception as exc:
        raise _fail(
            game,
            f"the action {_describe(action)} raised {type(exc).__name__} instead of IllegalAction: {exc}",
            "refusals",
        ) from exc
    return False


def check_accepted_is_listed(game: Game, action: Action | dict[str, Any]) -> bool:
    """If ``apply`` accepts ``action`` (tried on a copy), it was listed by ``legal_actions`` of its
    player: the listing is complete, not a sample. A multi-card match stands for its one-card
    matches, the order of peeked slots, ``at`` and a default ``owner`` are ignored; a late match
    (somebody else already matched the card), a ``tick`` and an action whose ``at`` is past a
    deadline (it is applied after the deadline fired) are not compared. Returns whether it was
    accepted.

    >>> check_accepted_is_listed(new_game("french", 2, seed=1), {"type": "pass", "player": 0})
    False
    """
    try:
        parsed = parse_action(action)
    except IllegalAction:
        return False
    trial = game.copy()
    try:
        trial.apply(parsed)
    except IllegalAction:
        return False
    if isinstance(parsed, Tick):
        return True
    due = game.deadline
    if parsed.at is not None and due is not None and parsed.at >= due:
        return True  # applied after a deadline fired: in another state than this one
    window = game.state_of("matching")
    if isinstance(parsed, MatchAction) and window is not None and window.win_by not in (-1, parsed.player):
        return True  # a late match: accepted (shown and returned), no longer listed
    listed = {k for a in game.legal_actions(parsed.player) for k in _listing_keys(a)}
    missing = [k for k in _listing_keys(parsed) if k not in listed]
    if missing:
        raise _fail(
            game,
            f"apply accepts {_describe(parsed)} but legal_actions({parsed.player}) does not list {missing[0]}",
            "listing_complete",
        )
    return True


def _fuzz(game: Game, rng: random.Random, count: int, *, refusals: bool, listing: bool) -> None:
    base = _state_of(game) if refusals else None
    for _ in range(count):
        action = random_action(game, rng)
        refused = _refusal(game, action, None, base) if refusals else _refused(game, action)
        if listing and not refused and isinstance(action, dict):
            check_accepted_is_listed(game, action)


def _refused(game: Game, action: object) -> bool:
    try:
        game.copy().apply(action)  # type: ignore[call-overload]
    except IllegalAction:
        return True
    except Exception:
        return False  # not this check's business (``refusals`` says it)
    return False


def check_refusals(game: Game, rng: random.Random | None = None, *, actions: int = 3) -> None:
    """``actions`` random, mostly illegal, actions (``random_action``, drawn with ``rng``; default:
    seeded from the game) are tried on copies: each one refused raises ``IllegalAction`` (never
    another exception) and leaves the copy byte-identical (``check_illegal_leaves_state``).

    >>> check_refusals(new_game("french", players=3, seed=1))
    """
    _fuzz(game, rng if rng is not None else _rng(game, "refusals"), actions, refusals=True, listing=False)


def check_listing_complete(game: Game, rng: random.Random | None = None, *, actions: int = 3) -> None:
    """``actions`` random actions (``random_action``, drawn with ``rng``; default: seeded from the
    game) are tried on copies: each one ``apply`` accepts is listed (``check_accepted_is_listed``).

    >>> check_listing_complete(new_game("french", players=3, seed=1))
    """
    _fuzz(game, rng if rng is not None else _rng(game, "listing_complete"), actions, refusals=False, listing=True)


def check_no_crash(game: Game) -> None:
    """Nothing a client may ask raises but ``IllegalAction``: every seat's ``legal_actions`` and
    ``view``, every listed action applied (on copies: a refusal is ``listed_accepted``'s business),
    and the result once the round is over. A plugin's hook that raises is turned by the engine into
    ``PluginError``: here it is a violation that names the action.

    >>> check_no_crash(new_game("french", players=3, seed=1))
    """
    for p in range(game.players):
        try:
            listed = game.legal_actions(p)
            game.view(p)
        except Exception as exc:
            raise _fail(
                game, f"legal_actions({p}) or view({p}) raised {type(exc).__name__}: {exc}", "no_crash"
            ) from exc
        for a in listed:
            try:
                game.copy().apply(a)
            except IllegalAction:
                continue
            except Exception as exc:
                raise _fail(
                    game, f"the listed action {_describe(a)} crashed: {type(exc).__name__}: {exc}", "no_crash"
                ) from exc
    if game.is_over:
        try:
            game.result()
        except Exception as exc:
            raise _fail(game, f"result() raised {type(exc).__name__}: {exc}", "no_crash") from exc


def check_snapshot_roundtrip(
    game: Game,
    rng: random.Random | None = None,
    *,
    steps: int = 3,
    variant: Variant | None = None,
    snapshot: str | None = None,
) -> None:
    """``Game.from_json(g.to_json())`` is the same game: the same JSON, and played on with the same
    next ``steps`` random legal actions (chosen with ``rng``), the same events, views and JSON.
    ``game`` itself is not changed (a copy plays on). ``variant`` is passed to ``from_json``
    (``None``: loaded by the name the snapshot holds, as a fresh process does). ``snapshot``:
    ``game.to_json()`` if the caller has it already.

    >>> check_snapshot_roundtrip(new_game("french", players=3, seed=6), random.Random(0))
    """
    rng = rng if rng is not None else random.Random(0)
    snapshot = game.to_json() if snapshot is None else snapshot
    restored = Game.from_json(snapshot, variant)
    again = restored.to_json()
    if again != snapshot:
        raise _fail(game, f"from_json(to_json()) is not the same game: {_json_diff(snapshot, again)}", "snapshot")
    original = game.copy()
    copied = original.to_json()
    if copied != snapshot:
        raise _fail(game, f"game.copy() is not the same game: {_json_diff(snapshot, copied)}", "snapshot")
    chooser = RandomChooser(rng)
    for step in range(steps):
        if original.is_over:
            break
        action = choose_action(original, chooser)
        e1 = [e.to_dict() for e in original.apply(action)]
        try:
            e2 = [e.to_dict() for e in restored.apply(action)]
        except IllegalAction as exc:
            raise _fail(
                game, f"after from_json, step {step + 1}: {_describe(action)} is refused: {exc}", "snapshot"
            ) from None
        if e1 != e2:
            raise _fail(
                game,
                f"after from_json, step {step + 1}: {_describe(action)} gives other events: {_diff(e1, e2)}",
                "snapshot",
            )
    differ = _state_diff(_state_of(original), _state_of(restored))  # ``copy`` was checked above
    if differ is not None:
        raise _fail(game, f"from_json, then the same {steps} actions: the games differ: {differ}", "snapshot")
    for p in range(game.players):
        v1, v2 = original.view(p).model_dump(mode="json"), restored.view(p).model_dump(mode="json")
        if v1 != v2:
            raise _fail(game, f"after from_json, player {p}'s view differs: {_diff(v1, v2, 'view')}", "snapshot")


def check_replay(game: Game, *, first_player: int | None = None) -> None:
    """``tamalou.replay`` of the game's seed, deal and actions (in their JSON form, as a client
    would send them) rebuilds exactly the same game. Pass the ``first_player`` the game was
    created with, if one was given; for a stacked deal without it, both ways are tried (the game
    does not record whether its first player was given or drawn).

    >>> check_replay(random_playout("french", players=3, seed=8))
    """
    actions = [action_to_dict(a) for a in game.actions]
    tries: list[int | None] = [first_player]
    if first_player is None and game.deal_spec is not None:
        tries.append(game.first_player)
    before = game.to_json()
    problems: list[str] = []
    for fp in tries:
        try:
            rebuilt = replay(
                game.variant, game.players, seed=game.seed, actions=actions, deal=game.deal_spec, first_player=fp
            )
        except IllegalAction as exc:
            problems.append(f"first_player={fp}: an action is refused: {exc}")
            continue
        after = rebuilt.to_json()
        if after == before:
            return
        problems.append(f"first_player={fp}: {_json_diff(before, after)}")
    raise _fail(game, "replay of the same seed and actions differs: " + "; ".join(problems), "replay")


def check_result(game: Game) -> None:
    """A finished round's result is consistent: the totals and card counts are the layouts', the
    ranking places every player exactly once, every winner is in the first place, the caller is
    the game's, every view shows it, nobody may act, and the turn bound holds.

    >>> check_result(random_playout("french", players=2, seed=9))
    """
    if not game.is_over:
        raise _fail(game, "the round is not over", "result")
    r = game.result()
    players = list(range(game.players))
    totals = [game.total(p) for p in players]
    if r.totals != totals:
        raise _fail(game, f"result totals {r.totals} but the layouts add up to {totals}", "result")
    counts = [game.card_count(p) for p in players]
    if r.card_counts != counts:
        raise _fail(game, f"result card_counts {r.card_counts} but the layouts hold {counts}", "result")
    ranked = sorted(p for place in r.ranking for p in place)
    if ranked != players or any(not place for place in r.ranking):
        raise _fail(game, f"ranking {r.ranking} does not place each of the {game.players} players once", "result")
    if r.winners and not set(r.winners) <= set(r.ranking[0]):
        raise _fail(game, f"winners {r.winners} are not all in the first place of ranking {r.ranking}", "result")
    if r.caller != game.caller:
        raise _fail(game, f"result caller {r.caller} but game.caller is {game.caller}", "result")
    if not r.reason:
        raise _fail(game, "the result gives no reason", "result")
    if len(r.scores) != game.players:
        raise _fail(game, f"{len(r.scores)} scores for {game.players} players", "result")
    max_turns = game.variant.rules.end.max_turns
    if game.turn > max_turns:
        raise _fail(game, f"{game.turn} turns played, more than rules.end.max_turns = {max_turns}", "result")
    dumped = r.model_dump(mode="json")
    for p in players:
        seen = game.view(p).result
        if seen is None or seen.model_dump(mode="json") != dumped:
            raise _fail(game, f"player {p}'s view does not show the result", "result")
        if game.legal_actions(p):
            raise _fail(game, f"the round is over but player {p} still has legal actions", "result")


def _permutations(cards: list[int], rng: random.Random, count: int) -> list[list[int]]:
    """Up to ``count`` other orders of ``cards``: reversed, rotated, then shuffled."""
    out: list[list[int]] = []
    candidates = [cards[::-1], cards[1:] + cards[:1]]
    for _ in range(max(0, count - len(candidates)) + 4):
        shuffled = list(cards)
        rng.shuffle(shuffled)
        candidates.append(shuffled)
    for order in candidates:
        if order != cards and order not in out:
            out.append(order)
        if len(out) >= count:
            break
    return out


def check_slot_order(
    game: Game, rng: random.Random | None = None, *, permutations: int = 3, players: Iterable[int] | None = None
) -> None:
    """A finished round's result does not depend on where each card lies in its layout: with one
    player's cards put in other slots of their layout (``permutations`` orders each: reversed,
    rotated, shuffled with ``rng``; default: seeded from the game; for each of ``players``, default
    all), the totals, card counts,
    ranking, winners and scores are the same. Every card is face up at the end: a rule that reads
    the order of the cards (the first slot counts double, a tie broken by the hand as dealt) breaks
    it; one that sorts them does not.

    >>> check_slot_order(random_playout("french", players=3, seed=4))
    """
    if not game.is_over:
        raise _fail(game, "the round is not over", "slot_order")
    rng = rng if rng is not None else _rng(game, "slot_order")
    base = game.final_result()
    keys = ("totals", "card_counts", "ranking", "winners", "scores")
    want = {k: getattr(base, k) for k in keys}
    for p in range(game.players) if players is None else players:
        slots = game.occupied(p)
        cards = [game.hands[p][s] for s in slots]
        for order in _permutations(cards, rng, permutations):
            g = game.copy()
            hand = list(g.hands[p])
            for s, c in zip(slots, order, strict=True):
                hand[s] = c
            g.hands[p] = hand
            g._result = None
            shown = " ".join(game.text[c] for c in order)
            try:
                r = g.final_result()
            except Exception as exc:
                raise _fail(
                    game,
                    f"with player {p}'s cards in the order {shown} the result raises {type(exc).__name__}: {exc}",
                    "slot_order",
                ) from exc
            for k in keys:
                if getattr(r, k) != want[k]:
                    before = " ".join(game.text[c] for c in cards)
                    raise _fail(
                        game,
                        f"the result depends on the order of player {p}'s cards: {k} {want[k]} with {before}, "
                        f"{getattr(r, k)} with the same cards as {shown}",
                        "slot_order",
                    )


def check_termination(
    game: Game, rng: random.Random | None = None, *, bound: int | None = None, turn_actions: int = 0
) -> None:
    """The round ends: played on (a copy) with random legal actions (``choose_action``, drawn with
    ``rng``; default: seeded from the game), no turn takes ``turn_bound(game)`` actions, no turn is
    played past ``rules.end.max_turns``, and the round is over before it has taken ``bound`` actions
    in all (default ``step_bound(game)``). ``turn_actions``: how many actions the turn in play had
    taken already, if the caller knows.

    >>> check_termination(new_game("french", players=2, seed=3))
    """
    bound = step_bound(game) if bound is None else bound
    per_turn = turn_bound(game)
    g = game.copy()
    chooser = RandomChooser(rng if rng is not None else _rng(game, "termination"))
    turn, since = g.turn, turn_actions
    while not g.is_over:
        problem = _stalled(g, since, bound, per_turn)
        if problem is not None:
            raise _fail(g, problem, "termination")
        g.apply(choose_action(g, chooser))
        turn, since = g.turn, 0 if g.turn != turn else since + 1


def turn_bound(game: Game) -> int:
    """How many actions one turn may take at most (the opening's peeks included in the first): a few
    draws with their placement, power steps and call, every player's match attempts on each thrown
    card, and one action per player; four times that for slack. ``tamalou verify`` reports a turn
    that takes more as a round that does not end (long before ``step_bound``)."""
    r = game.variant.rules
    per_turn = r.draw.per_turn
    matches = game.players * r.matching.max_cards * (per_turn + 1)
    return 4 * (6 * per_turn + 4 + matches + game.players)


def _stalled(game: Game, since: int, bound: int | None, per_turn: int | None) -> str | None:
    """Why the round in play is not ending (``since``: actions of the turn in play), or ``None``."""
    if bound is not None and len(game.actions) >= bound:
        return _not_ended(game, bound)
    max_turns = game.variant.rules.end.max_turns
    if per_turn is not None and since >= per_turn:
        return (
            f"the turn in play (game.turn = {game.turn}) has not ended after {since} actions (the bound: "
            f"turn_bound = {per_turn} actions in one turn, from rules.draw.per_turn and rules.matching)"
        )
    if game.turn > max_turns:
        return f"{game.turn} turns are played and the round goes on, past rules.end.max_turns = {max_turns}"
    return None


def _not_ended(game: Game, bound: int) -> str:
    return (
        f"the round has not ended after {len(game.actions)} actions (the bound: step_bound = {bound} actions, "
        f"from rules.end.max_turns = {game.variant.rules.end.max_turns})"
    )


# ----------------------------------------------------------------------------- random play


class Chooser(Protocol):
    """Where random choices come from: ``random.Random`` (``RandomChooser``), or hypothesis's
    ``draw`` in ``tamalou.testing`` (so that failing games shrink)."""

    def below(self, n: int) -> int:
        """A choice in ``range(n)`` (``n >= 1``); 0 should be the simplest."""
        ...

    def chance(self, p: float) -> bool:
        """True with probability ``p``; False should be the simplest."""
        ...


class RandomChooser:
    """A ``Chooser`` on a ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p


def choose_action(
    game: Game,
    chooser: Chooser,
    *,
    call_probability: float = 0.05,
    out_of_turn: float = 0.3,
    match_probability: float = 0.15,
    tick_probability: float = 0.1,
    right_call_probability: float = 0.5,
    low_total_probability: float = 0.0,
) -> Action:
    """One random legal action of a random player: with probability ``out_of_turn`` any player
    who has a legal action (an out-of-turn match, mostly), else the current player. A player who
    could both match and play their turn matches with probability ``match_probability``; an offered
    call (with other choices) is taken with probability ``call_probability``, or
    ``right_call_probability`` if the caller's true total is at the threshold or under (the chooser
    sees everything: it is a test harness, not a player), so that right calls get played too. With
    probability ``low_total_probability`` a player plays to keep their true total low instead (tried
    on copies: another player's match that lowers their total, else the current player's best move;
    a call only at the threshold or under), so that hands get low as in real play and rules about
    low totals (the call) come into play; 0 (the default) never asks the chooser.

    Timed rulesets: with probability ``tick_probability`` time passes instead (a ``Tick`` to the
    next deadline, halfway to it or past it; or a few seconds when none is due), and when nobody
    may act the ``Tick`` goes to the next deadline. The round must not be over.

    >>> g = new_game("french", players=3, seed=1)
    >>> g.apply(choose_action(g, RandomChooser(random.Random(1))))  # doctest: +SKIP
    """
    if game.is_over:
        raise ValueError("the round is over: no action to choose")
    if game.mechanic("timing") is not None and chooser.chance(tick_probability):
        return _tick(game, chooser)
    if low_total_probability > 0 and chooser.chance(low_total_probability):
        chosen = _low_total(game, chooser, right_call_probability)
        if chosen is not None:
            return chosen
    actions: list[Action] = [] if chooser.chance(out_of_turn) else game.legal_actions(game.current_player)
    if not actions:
        able = [(p, acts) for p in range(game.players) if (acts := game.legal_actions(p))]
        if not able:
            due = game.deadline
            if due is None:
                raise _fail(
                    game, "the round is not over, nobody has a legal action and no deadline is due", "listed_accepted"
                )
            return Tick(at=max(due, game.now))
        actions = able[chooser.below(len(able))][1]
    matches = [a for a in actions if isinstance(a, MatchAction)]
    if matches and len(matches) < len(actions):
        keep_matches = chooser.chance(match_probability)
        actions = [a for a in actions if isinstance(a, MatchAction) == keep_matches]
    calls = [a for a in actions if isinstance(a, Call)]
    if calls and len(calls) < len(actions):
        right = game.total(calls[0].player) <= game.rb.threshold
        keep_calls = chooser.chance(max(call_probability, right_call_probability) if right else call_probability)
        actions = [a for a in actions if isinstance(a, Call) == keep_calls]
    return actions[chooser.below(len(actions))]


def _low_total(game: Game, chooser: Chooser, right_call_probability: float) -> Action | None:
    """The move of a player who keeps their total low (and sees everything): another player's match
    that lowers their total, else the current player's action that leaves them the lowest total
    (a call only at the threshold or under, with ``right_call_probability``). Ties at random;
    ``None`` if the current player has nothing to do."""
    p = game.current_player
    listed = game.legal_actions(p)
    calls = [a for a in listed if isinstance(a, Call)]
    if calls and game.total(p) <= game.rb.threshold and chooser.chance(right_call_probability):
        return calls[0]
    candidates: list[tuple[int, Action]] = [(p, a) for a in listed if not isinstance(a, Call)]
    for q in range(game.players):
        if q != p:
            candidates += [(q, a) for a in game.legal_actions(q) if isinstance(a, MatchAction)]
    best: list[Action] = []
    low = 0
    for q, a in candidates:
        trial = game.copy()
        try:
            trial.apply(a)
        except Exception:
            continue  # refused or crashing: found when it is played
        delta = trial.total(q) - game.total(q)
        if q != p and delta >= 0:
            continue  # another player acts only to lower their total
        if not best or delta < low:
            best, low = [a], delta
        elif delta == low:
            best.append(a)
    return best[chooser.below(len(best))] if best else None


def _tick(game: Game, chooser: Chooser) -> Tick:
    """Time passes: to the next deadline (it fires), halfway to it, or past it; a few seconds if
    none is due (lockouts run out)."""
    now = game.now
    due = game.deadline
    if due is not None and due >= now:
        options = [due, now + (due - now) / 2, due + 1.0]
    else:
        options = [now + 1.0, now + 5.0, now + 30.0]
    return Tick(at=options[chooser.below(len(options))])


def step_bound(game: Game) -> int:
    """How many actions a round may take at most, from ``rules.end.max_turns``: per turn, a few
    draws with their placement, power steps and call, plus every player's match attempts on each
    thrown card; four times that for slack (a play-again power adds draws to a turn)."""
    r = game.variant.rules
    per_turn = r.draw.per_turn
    matches = game.players * r.matching.max_cards * (per_turn + 1)
    return 4 * ((r.end.max_turns + 1) * (6 * per_turn + 4 + matches) + game.players)


def random_action(game: Game, rng: random.Random) -> dict[str, Any] | object:
    """A random, probably illegal, action for robustness checks: a listed action with one field
    changed, a well-typed action with random fields, or a malformed one (missing or extra fields,
    wrong types, unknown type, not a dict at all).

    >>> check_illegal_leaves_state(g, random_action(g, random.Random(3)))  # doctest: +SKIP
    """
    n = game.players
    size = max((len(h) for h in game.hands), default=0)
    junk: list[object] = [None, "x", "0", -1, 10**12, 1.5, [0], {"a": 1}, True]
    kind = rng.random()
    listed = [a for p in range(n) for a in game.legal_actions(p)]
    if kind < 0.35 and listed:
        d = action_to_dict(rng.choice(listed))
        key = rng.choice([k for k in d if k != "type"] or ["type"])
        if key == "player":
            d[key] = rng.randrange(-1, n + 1)
        elif key in ("slot", "target_slot"):
            d[key] = rng.randrange(-1, size + 2)
        elif key == "slots":
            d[key] = [rng.randrange(-1, size + 2) for _ in range(rng.randrange(0, 5))]
        elif key == "source":
            d[key] = rng.choice(["stock", "discard", "hand"])
        else:
            d[key] = rng.choice(junk)
        if rng.random() < 0.3:
            d["type"] = rng.choice(list(ACTION_TYPES))
        return d
    if kind < 0.8:
        t = rng.choice(list(ACTION_TYPES))
        d = {"type": t, "player": rng.randrange(-1, n + 1)}
        if t in ("replace", "swap", "give"):
            d["slot"] = rng.randrange(-1, size + 2)
        elif t == "draw":
            d["source"] = rng.choice(["stock", "discard"])
        elif t == "power":
            for key in ("slot", "target", "target_slot"):
                if rng.random() < 0.6:
                    d[key] = rng.randrange(-1, max(size, n) + 2)
        elif t in ("match", "peek"):
            d["slots"] = [rng.randrange(-1, size + 2) for _ in range(rng.randrange(0, 4))]
            if t == "match" and rng.random() < 0.3:
                d["owner"] = rng.randrange(-1, n + 1)
        elif t == "tick":
            del d["player"]
            d["at"] = rng.choice([0.0, 1.0, 45.0, -1.0])
        if rng.random() < 0.2:
            d["at"] = rng.choice([0.0, 3.5, -2.0])
        return d
    malformed: list[object] = [
        {"type": rng.choice([*ACTION_TYPES, "jump", "", None])},
        {"type": rng.choice(list(ACTION_TYPES)), "player": rng.choice(junk)},
        {"type": "draw", "player": game.current_player, "source": rng.choice(junk)},
        {"type": "replace", "player": game.current_player, "slot": rng.choice(junk)},
        {"type": "pass", "player": game.current_player, "extra": 1},
        {"player": game.current_player},
        rng.choice(["draw", 3, None, ["draw"]]),
    ]
    return rng.choice(malformed)


def check_all(game: Game, rng: random.Random | None = None, *, pairs: int = 8, fuzz: int = 3) -> None:
    """Every state check at once: conservation, knowledge, no leak for every player (``pairs``
    exchanges each), every listed action accepted (and none crashing), ``fuzz`` random actions
    refused cleanly or listed, and the snapshot round trip. Samples are drawn with ``rng``
    (default: seeded from the game, so the same state is checked the same way). ``game`` is not
    changed.

    >>> check_all(new_game("french", players=3, seed=1))
    """
    rng = rng if rng is not None else _rng(game, "all")
    check_conservation(game)
    check_knowledge(game)
    for p in range(game.players):
        check_no_leak(game, p, rng, pairs=pairs)
    snapshot = game.to_json()
    check_legal_actions_accepted(game, snapshot=snapshot)
    for _ in range(fuzz):
        action = random_action(game, rng)
        if not check_illegal_leaves_state(game, action, snapshot=snapshot) and isinstance(action, dict):
            check_accepted_is_listed(game, action)
    check_snapshot_roundtrip(game, rng, steps=2, variant=game.variant, snapshot=snapshot)


def play_out(
    game: Game,
    chooser: Chooser,
    *,
    call_probability: float = 0.05,
    out_of_turn: float = 0.3,
    match_probability: float = 0.15,
    tick_probability: float = 0.1,
    low_total_probability: float = 0.0,
    check_every: int = 0,
    check_rng: random.Random | None = None,
    max_steps: int | None = None,
    on_step: Callable[[Game, Action], None] | None = None,
) -> Game:
    """Play ``game`` to its end with random choices (see ``choose_action``) and return it.

    Conservation and ``knowledge_events`` are checked after every step when ``check_every > 0``,
    and every check of ``check_all`` at the start, every ``check_every`` steps and at the end (with
    ``check_rng``, which never changes the choices: the same chooser plays the same game whatever
    is checked); the snapshot round trip through a fresh load of the variant at the start and the
    end, and ``check_result``, ``check_slot_order`` and ``check_replay`` at the end. The round must
    end within ``max_steps`` actions (default: ``step_bound(game)`` actions in all, no turn longer
    than ``turn_bound(game)``, none past ``rules.end.max_turns``). A listed action that ``apply``
    refuses is a ``listed_accepted`` violation; one that raises anything else (a plugin's hook) a
    ``no_crash`` violation whose ``pending`` is that action.
    """
    bound = step_bound(game) if max_steps is None else max_steps
    per_turn = turn_bound(game) if max_steps is None else None
    check_rng = check_rng if check_rng is not None else random.Random(0)
    steps = 0
    turn, since = game.turn, 0
    try:
        if check_every > 0:
            check_all(game, check_rng)
            check_snapshot_roundtrip(game, check_rng)
        while not game.is_over:
            problem = _not_ended(game, bound) if steps >= bound else _stalled(game, since, None, per_turn)
            if problem is not None:
                raise _fail(game, problem, "termination")
            try:
                action = choose_action(
                    game,
                    chooser,
                    call_probability=call_probability,
                    out_of_turn=out_of_turn,
                    match_probability=match_probability,
                    tick_probability=tick_probability,
                    low_total_probability=low_total_probability,
                )
            except InvariantViolation:
                raise
            except Exception as exc:
                raise _fail(game, f"listing the legal actions raised {type(exc).__name__}: {exc}", "no_crash") from exc
            before = list(game.knowers) if check_every > 0 else None
            try:
                events = game.apply(action)
            except IllegalAction as exc:
                raise _fail(
                    game, f"the listed action {_describe(action)} was refused: {exc}", "listed_accepted"
                ) from None
            except Exception as exc:
                crash = _fail(
                    game, f"the listed action {_describe(action)} crashed: {type(exc).__name__}: {exc}", "no_crash"
                )
                crash.pending = action
                raise crash from exc
            steps += 1
            turn, since = game.turn, 0 if game.turn != turn else since + 1
            if on_step is not None:
                on_step(game, action)
            if before is not None:
                check_conservation(game)
                check_step_knowledge(game, before, events)
                if steps % check_every == 0 or game.is_over:
                    check_all(game, check_rng)
        if check_every > 0:
            check_result(game)
            check_slot_order(game, check_rng)
            check_replay(game)
            check_snapshot_roundtrip(game, check_rng)
    except InvariantViolation as exc:
        exc.actions = list(game.actions)
        raise
    return game


def random_playout(
    variant: Variant | str | Sequence[str],
    players: int,
    seed: int,
    *,
    rng: random.Random | None = None,
    call_probability: float = 0.05,
    out_of_turn: float = 0.3,
    match_probability: float = 0.15,
    tick_probability: float = 0.1,
    low_total_probability: float = 0.0,
    check_every: int = 0,
    max_steps: int | None = None,
) -> Game:
    """A random game of ``variant`` dealt with ``seed``, played to its end, returned finished.

    Each step picks a random player (the current one, or with probability ``out_of_turn`` any
    player who has a legal action) and a random legal action of theirs (see ``choose_action``),
    drawn from ``rng`` (default ``random.Random(seed)``). With ``check_every = k > 0`` every
    invariant is checked every k steps (conservation and ``knowledge_events`` at every step); the
    checks never change the game played: ``tamalou verify`` plays its game of seed ``s`` as
    ``random_playout(v, n, s, **style)``.
    Raises ``InvariantViolation`` if the round does not end within ``step_bound``.

    >>> g = random_playout("french", players=4, seed=1)
    >>> g.is_over
    True
    """
    game = new_game(_as_variant(variant), players, seed=seed)
    chooser = RandomChooser(rng if rng is not None else random.Random(seed))
    return play_out(
        game,
        chooser,
        call_probability=call_probability,
        out_of_turn=out_of_turn,
        match_probability=match_probability,
        tick_probability=tick_probability,
        low_total_probability=low_total_probability,
        check_every=check_every,
        check_rng=random.Random(f"checks-{seed}"),
        max_steps=max_steps,
    )


# ----------------------------------------------------------------------------- the invariants by name


@dataclass(frozen=True)
class Invariant:
    """One invariant: its stable ``name`` (a key of ``INVARIANTS``, used by ``tamalou verify``'s table
    and by counterexamples), a one-line ``description``, and ``when`` ``tamalou verify`` checks it:
    ``"step"`` after every action, ``"sample"`` at sampled states of each game, ``"end"`` on each
    finished round, ``"game"`` over the whole game (it counts actions).

    Call it with a game (and optionally a ``random.Random``; default: seeded from the game, so the
    same state is checked the same way): it raises ``InvariantViolation`` or returns ``None``.
    ``thorough=True`` samples more (more pairs, more random actions, more steps, more orders),
    always including what the plain check samples: ``tamalou verify`` uses it to shrink and replay a
    counterexample. An ``"end"`` invariant needs a finished round.

    >>> INVARIANTS["no_leak"](new_game("french", players=3, seed=1))
    """

    name: str
    description: str
    when: str
    check: Callable[[Game, random.Random, bool], None] = field(repr=False, compare=False)

    def __call__(self, game: Game, rng: random.Random | None = None, *, thorough: bool = False) -> None:
        self.check(game, rng if rng is not None else _rng(game, self.name), thorough)


def _each_player(
    check: Callable[[Game, int, random.Random, bool], None],
) -> Callable[[Game, random.Random, bool], None]:
    """A check of one seat, for every seat, each with its own generator (so a thorough check samples
    a superset of the plain one for every seat)."""

    def run(game: Game, rng: random.Random, thorough: bool) -> None:
        seeds = [rng.getrandbits(64) for _ in range(game.players)]
        for p in range(game.players):
            check(game, p, random.Random(seeds[p]), thorough)

    return run


class _Invariants(dict[str, Invariant]):
    """Every invariant by its stable name (``Invariant``: a one-line description and a check taking a
    game): the rows of ``tamalou verify``'s table, in order, and what a counterexample names."""


INVARIANTS: dict[str, Invariant] = _Invariants(
    (inv.name, inv)
    for inv in (
        Invariant(
            "conservation",
            "every card is in exactly one place: a slot, the stock, the discard or held",
            "step",
            lambda g, rng, thorough: check_conservation(g),
        ),
        Invariant(
            "knowledge",
            "the discard is known to all, a held card to its holder, every card at the end",
            "sample",
            lambda g, rng, thorough: check_knowledge(g),
        ),
        Invariant(
            "knowledge_events",
            "a seat learns a card only from an event shown to it, and knows every card shown to it",
            "step",
            lambda g, rng, thorough: check_knowledge_events(g),
        ),
        Invariant(
            "no_leak",
            "exchanging two cards a seat does not know changes neither its view nor its legal actions",
            "sample",
            _each_player(lambda g, p, rng, thorough: check_no_leak(g, p, rng, pairs=48 if thorough else 8)),
        ),
        Invariant(
            "listed_accepted",
            "every listed action is complete and accepted; somebody may act until the end",
            "sample",
            lambda g, rng, thorough: check_legal_actions_accepted(g, limit=None if thorough else 16, rng=rng),
        ),
        Invariant(
            "listing_complete",
            "an action apply accepts is listed",
            "sample",
            lambda g, rng, thorough: check_listing_complete(g, rng, actions=24 if thorough else 3),
        ),
        Invariant(
            "refusals",
            "a refused action raises IllegalAction and leaves the game unchanged",
            "sample",
            lambda g, rng, thorough: check_refusals(g, rng, actions=24 if thorough else 3),
        ),
        Invariant(
            "snapshot",
            "from_json(to_json()) is the same game and plays on identically",
            "sample",
            lambda g, rng, thorough: check_snapshot_roundtrip(g, rng, steps=6 if thorough else 2, variant=g.variant),
        ),
        Invariant(
            "no_crash",
            "no listing, view, listed action or result raises (a plugin's hook included)",
            "step",
            lambda g, rng, thorough: check_no_crash(g),
        ),
        Invariant(
            "termination",
            "the round ends: no turn longer than turn_bound actions, no more than max_turns turns, step_bound actions",
            "game",
            lambda g, rng, thorough: check_termination(g, rng),
        ),
        Invariant(
            "replay",
            "replaying the seed and the actions rebuilds the same game",
            "end",
            lambda g, rng, thorough: check_replay(g),
        ),
        Invariant(
            "result",
            "the result is consistent: totals, every player ranked once, winners first, one score each",
            "end",
            lambda g, rng, thorough: check_result(g),
        ),
        Invariant(
            "slot_order",
            "the result does not change when a player's cards are put in other slots of their layout",
            "end",
            _each_player(lambda g, p, rng, thorough: _one_slot_order(g, p, rng, thorough)),
        ),
    )
)


def _one_slot_order(game: Game, player: int, rng: random.Random, thorough: bool) -> None:
    check_slot_order(game, rng, permutations=8 if thorough else 3, players=[player])


# ----------------------------------------------------------------------------- verify


@dataclass
class Failure:
    """One failing game of ``verify``: game number ``index`` of the run, dealt with ``seed`` for
    ``players``, played in ``style`` (``random_playout``'s keyword arguments); the ``invariant`` that
    broke (a key of ``INVARIANTS``) and the ``message``; ``actions``: the game's actions (their JSON
    form) up to the state that broke it, and for ``no_crash`` the action that crashed last."""

    seed: int
    players: int
    invariant: str
    message: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    style: dict[str, Any] = field(default_factory=dict)
    index: int = 0


@dataclass
class VerifyReport:
    """What ``verify`` found: games played, actions applied, and each failure as
    ``(seed, players, message)`` (the message starts with the invariant's name); by invariant name,
    ``checks`` run and games ``failed``; ``details``: each failure whole (``Failure``), in the order
    of the games; ``stopped``: the run stopped at ``max_failures`` failing games; ``notes``: what the
    run could not do as asked (e.g. worker processes that could not load the ruleset)."""

    games: int = 0
    actions: int = 0
    failures: list[tuple[int, int, str]] = field(default_factory=list)
    variant: str = ""
    reasons: dict[str, int] = field(default_factory=dict)  # how the games ended: reason -> count
    checks: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    details: list[Failure] = field(default_factory=list)
    stopped: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def verify(
    variant: Variant | str | Sequence[str],
    *,
    games: int = 100,
    players: int | Iterable[int] | None = None,
    seed: int = 0,
    check_every: int | None = None,
    samples: int | None = None,
    workers: int = 1,
    max_failures: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> VerifyReport:
    """Play ``games`` random games of ``variant`` with every invariant checked and report.

    Game ``i`` is dealt with seed ``seed + i``; ``players`` is a count, several counts, or ``None``
    for every count the variant allows (in turn). Most games call at random (``random_playout``'s
    defaults); one in ten matches a lot, one in ten never calls (reshuffles, the turn limit), two in
    ten play for a low total (``low_total_probability``: low hands, right calls).
    Conservation, ``knowledge_events`` and ``no_crash`` are checked at every step, the ``"sample"``
    invariants at ``samples`` states of each game drawn at random (or every ``check_every`` steps),
    the ``"end"`` ones on each finished round. ``workers`` processes share the games (the report is
    the same whatever their number); the run stops after ``max_failures`` failing games (``None``:
    never). A failure never crashes the run: it is recorded (``report.details``) with the actions
    that reproduce it. See ``tamalou.verification.verify``, which this calls.

    >>> report = verify("french", games=10)
    >>> report.ok, report.games
    (True, 10)
    """
    from .verification import verify as run

    return run(
        variant,
        games=games,
        players=players,
        seed=seed,
        check_every=check_every,
        samples=samples,
        workers=workers,
        max_failures=max_failures,
        progress=progress,
    )
