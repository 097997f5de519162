"""The referee: one round of a Tamalou-family game.

A round is a small state machine. Phases (``Game.phase``):

- ``peek``: opening peek where each player chooses their slots (``peek.mode = "choose"``);
- ``draw``: the current player draws (or calls, where the ruleset lets the call open a turn);
- ``hold``: they hold a drawn card: ``replace`` a slot with it, or ``discard`` it;
- ``power``: a power is on offer: ``power`` (with its targets) or ``pass``;
- ``swap``: second step of look-and-swap: ``swap`` or ``pass``;
- ``call``: the end of the turn, where the call is made: ``call`` or ``pass``;
- ``give``: opponent matching: the matcher gives one of their cards (nobody else acts meanwhile);
- ``opening`` / ``countdown``: timed rulesets: the timed opening peek, and the last moment for
  matching after a called round's last turn (see ``clock.py``);
- ``over``: the round has ended; ``result()`` tells who won.

Out of turn, in every phase but ``peek``, ``give``, ``opening`` and ``over``, any player may
``match`` the card that a turn threw. Nothing here names a ruleset: every difference is a key of
the variant or a hook.

Cards are ints: indexes into the game's universe (``Game.cards``). Knowledge is exact: for each
card, a bit mask of the players who know it. A card moved in a way everyone sees (swap, match,
replace) keeps its knowers; a shuffle forgets; a penalty card is known to nobody.

Termination: every turn ends after a bounded number of actions (a draw or two, one placement each,
at most two power steps, the call), every player throws at most ``matching.max_cards`` cards on
each thrown card, and the round ends after ``end.max_turns`` turns at the latest (as if nobody had
called). When no card can be drawn at all, the round ends too. In timed rulesets every turn also
has a deadline.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import fields
from itertools import combinations
from typing import Any

from . import clock
from .actions import (
    ACTION_TYPES,
    Action,
    Call,
    Discard,
    Draw,
    Give,
    MatchAction,
    Pass,
    PeekAction,
    Power,
    Replace,
    Swap,
    Tick,
    parse_action,
)
from .cards import Card, parse_card
from .errors import IllegalAction, VariantError
from .events import Event
from .hookspecs import Tally
from .rng import Rng
from .rules import rulebook
from .schema import Variant
from .views import PlayerView, Result, SlotView

SNAPSHOT_VERSION = 1
_NO_CARD = -1


def _empty(hand: list[int]) -> bool:
    """Whether a layout holds no card (every slot emptied, or no slot at all)."""
    return hand.count(_NO_CARD) == len(hand)


class _Acts:
    """The action objects of one seat, made once per process and handed out again by every game
    (actions are immutable values)."""

    __slots__ = ("call", "discard", "draw_discard", "draw_stock", "match", "pass_", "replace")

    def __init__(self, p: int) -> None:
        self.draw_stock = Draw(p, "stock")
        self.draw_discard = Draw(p, "discard")
        self.discard = Discard(p)
        self.pass_ = Pass(p)
        self.call = Call(p)
        self.replace: list[Replace] = []
        self.match: list[MatchAction] = []


_OUT_OF_TURN = frozenset({MatchAction, Give, Tick, PeekAction})
_SWAPS = frozenset({"blind_swap", "look_and_swap"})  # powers that exchange cards: never with a protected caller
_SEATS: list[_Acts] = []
_POWERS: dict[tuple[int, int | None, int | None, int | None], Power] = {}


def _power(p: int, slot: int | None, target: int | None, target_slot: int | None) -> Power:
    """A Power action, made once per process (actions are immutable values)."""
    key = (p, slot, target, target_slot)
    a = _POWERS.get(key)
    if a is None:
        if len(_POWERS) > 100_000:
            _POWERS.clear()
        a = _POWERS[key] = Power(p, slot, target, target_slot)
    return a


def _seat_actions(players: int) -> list[_Acts]:
    while len(_SEATS) < players:
        _SEATS.append(_Acts(len(_SEATS)))
    return _SEATS[:players]


class Game:
    """One round in play. Create it with ``tamalou.new_game``."""

    _result: Result | None

    __slots__ = (
        "_acts",
        "_all",
        "_result",
        "absent",
        "absent_turns",
        "acted",
        "actions",
        "caller",
        "cards",
        "current_player",
        "deadline",
        "deal_spec",
        "discard",
        "draws",
        "first_player",
        "giver",
        "gives",
        "hands",
        "held",
        "held_from",
        "knowers",
        "left",
        "locked_until",
        "look",
        "misses",
        "next_power",
        "now",
        "passed",
        "peeked",
        "phase",
        "players",
        "power",
        "quiet_until",
        "rank",
        "rb",
        "reason",
        "resume",
        "rng",
        "seed",
        "stock",
        "stock_only",
        "text",
        "tried",
        "turn",
        "value",
        "variant",
        "win",
        "win_by",
    )

    # ----------------------------------------------------------------------------- creation

    def __init__(
        self,
        variant: Variant,
        players: int,
        *,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
        first_player: int | None = None,
    ) -> None:
        r = variant.rules
        if not isinstance(players, int) or not r.players.min <= players <= r.players.max:
            raise VariantError(
                f"{variant.name} is played by {r.players.min} to {r.players.max} players, got {players!r}"
            )
        self._init_runtime(variant, players)
        self.deal_spec = deal
        self.seed = secrets.randbits(63) if seed is None else int(seed)
        self.rng = Rng(self.seed)
        self.actions: list[Action] = []
        universe = self.rb.deck if deal is None else self._stacked_universe(deal, players)
        self._set_universe(universe)
        n_cards = len(universe)
        self.knowers = [0] * n_cards
        self.held = _NO_CARD
        self.held_from = ""
        self.draws = 0
        self.power: str | None = None
        self.look: tuple[int, int, int] | None = None  # owner, slot and id of the card looked at
        self.caller: int | None = None
        self.turn = 0
        self.reason = ""
        self.win = _NO_CARD
        self.win_by = -1
        self.tried = [0] * players
        self.stock_only = False
        self.peeked = 0
        self.phase = "draw"
        self.giver = -1
        self.gives: list[list[int]] = []
        self.resume = ""
        self.next_power: str | None = None
        self.passed = False
        self.now = 0.0
        self.deadline = 0.0
        self.quiet_until = 0.0
        self.locked_until = [0.0] * players
        self.misses = [0] * players
        self.absent = [False] * players
        self.absent_turns = [0] * players
        self.left = 0
        self.acted = False
        if deal is None:
            order = list(range(n_cards))
            self.rng.shuffle(order)
            k = r.deal.cards
            if k * players > n_cards:
                raise VariantError(f"not enough cards to deal {k} to {players} players", key="rules.deal.cards")
            # Deal one card at a time around the table, from the top (end) of the shuffled pile.
            self.hands = [[order[-1 - (i * players + p)] for i in range(k)] for p in range(players)]
            self.stock = order[: n_cards - k * players]
            self.discard = [self.stock.pop() for _ in range(min(r.deal.discard, len(self.stock)))]
            # The seat is drawn even when one is given, so a seeded game's shuffles never depend on it.
            drawn = self._first_seat(players)
            self.first_player = drawn if first_player is None else first_player
        else:
            self.hands, self.stock, self.discard = self._stacked_piles(deal, players)
            self.first_player = self._first_seat(players) if first_player is None else first_player
        if not 0 <= self.first_player < players:
            raise IllegalAction(f"first_player must be a seat from 0 to {players - 1}, got {self.first_player}")
        self.current_player = self.first_player
        allmask = self._all
        for c in self.discard:
            self.knowers[c] = allmask
        if self.discard and r.deal.first_card_matchable and r.matching.enabled:
            self.win = self.discard[-1]

    def _first_seat(self, players: int) -> int:
        fp = self.variant.rules.deal.first_player
        return self.rng.below(players) if fp == "random" else int(fp) % players

    def _set_universe(self, universe: list[Card]) -> None:
        rb = self.rb
        if universe is rb.deck:  # the variant's own deck: its tables are made once per variant
            self.cards, self.text, self.rank, self.value = rb.deck_tables()
            return
        self.cards = universe
        self.text = [str(c) for c in universe]
        self.rank = [c.rank for c in universe]
        self.value = [rb.value(c) for c in universe]

    @staticmethod
    def _stacked_universe(deal: dict[str, Any], players: int) -> list[Card]:
        unknown = set(deal) - {"hands", "stock", "discard"}
        if unknown:
            raise IllegalAction(f"a deal has 'hands', 'stock' and 'discard', not {sorted(unknown)}")
        hands = deal.get("hands")
        if not isinstance(hands, list) or len(hands) != players:
            raise IllegalAction(f"the deal needs 'hands': one list of cards per player ({players})")
        out: list[Card] = []
        try:
            for hand in hands:
                out.extend(parse_card(t) for t in hand)
            out.extend(parse_card(t) for t in deal.get("stock", []))
            out.extend(parse_card(t) for t in deal.get("discard", []))
        except ValueError as exc:
            raise IllegalAction(f"bad card in the deal: {exc}") from None
        return out

    @staticmethod
    def _stacked_piles(deal: dict[str, Any], players: int) -> tuple[list[list[int]], list[int], list[int]]:
        i = 0
        hands: list[list[int]] = []
        for hand in deal["hands"]:
            hands.append(list(range(i, i + len(hand))))
            i += len(hand)
        n_stock = len(deal.get("stock", []))
        stock = list(range(i, i + n_stock))[::-1]  # given top first; the top is our list's end
        i += n_stock
        discard = list(range(i, i + len(deal.get("discard", []))))
        return hands, stock, discard

    def _begin(self) -> list[Event]:
        """Opening peeks, then the first turn (or the peek phase)."""
        events = [
            Event(
                "dealt",
                {
                    "players": self.players,
                    "slots": [len(h) for h in self.hands],
                    "discard_top": self.text[self.discard[-1]] if self.discard else None,
                    "stock_size": len(self.stock),
                    "first_player": self.first_player,
                },
            )
        ]
        peek = self.variant.rules.peek
        if peek.mode == "fixed":
            for p, hand in enumerate(self.hands):
                slots = [s for s in peek.slots if 0 <= s < len(hand) and hand[s] != _NO_CARD]
                for s in slots:
                    self.knowers[hand[s]] |= 1 << p
                if slots:
                    events.append(self._peek_event(p, slots))
        if peek.mode == "choose" and peek.count > 0:
            self.phase = "peek"
        elif self.rb.turn_seconds > 0 and self.rb.peek_seconds > 0:
            # The opening peek lasts a while: no play and no matching until it ends.
            self.phase = "opening"
            self.deadline = self.quiet_until = self.rb.peek_seconds
            events.append(Event("opening", {"until": self.deadline}))
        else:
            self._start_turn(self.first_player, events)
        return events

    def _peek_event(self, p: int, slots: Sequence[int]) -> Event:
        hand = self.hands[p]
        return Event(
            "peeked",
            {"player": p, "slots": list(slots)},
            {"cards": [self.text[hand[s]] for s in slots]},
            1 << p,
        )

    # ----------------------------------------------------------------------------- reading

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def copy(self) -> Game:
        """An independent copy of the game (same state, same RNG state, same history)."""
        g = Game.__new__(Game)
        g._restore_from(self)
        return g

    def layout(self, player: int) -> list[str | None]:
        """The cards of ``player`` per slot as text (``None`` for an emptied slot). Full information:
        for tests, tools and the end of a round, never for a player's eyes (use ``view``)."""
        return [None if c == _NO_CARD else self.text[c] for c in self.hands[player]]

    def occupied(self, player: int) -> list[int]:
        """The slots of ``player`` that hold a card."""
        return [s for s, c in enumerate(self.hands[player]) if c != _NO_CARD]

    def card_count(self, player: int) -> int:
        return sum(1 for c in self.hands[player] if c != _NO_CARD)

    def total(self, player: int) -> int:
        """The true card total of ``player`` (full information: not for a player's eyes)."""
        value = self.value
        return sum(value[c] for c in self.hands[player] if c != _NO_CARD)

    def knows(self, player: int, card: int) -> bool:
        """Whether ``player`` knows the card with id ``card`` (and so where it is)."""
        return bool(self.knowers[card] >> player & 1)

    def card(self, card: int) -> Card:
        return self.cards[card]

    @property
    def discard_top(self) -> Card | None:
        return self.cards[self.discard[-1]] if self.discard else None

    # ----------------------------------------------------------------------------- legal actions

    def legal_actions(self, player: int) -> list[Action]:
        """Every action ``player`` may take now, out-of-turn matches included.

        What is listed depends only on what ``player`` knows: a match is offered on every
        occupied slot (right or wrong), the call whatever the hidden total. Every listed action
        is accepted by ``apply``.
        """
        if not 0 <= player < self.players:
            raise ValueError(f"no player {player} in a {self.players}-player game")
        phase = self.phase
        if phase == "over":
            return []
        if phase == "peek":
            return self._peek_actions(player)
        if phase == "give":
            return [Give(player, s) for s in self.occupied(player)] if player == self.giver else []
        if phase == "opening":
            return []
        if phase == "countdown":
            return self._match_actions(player) if self.win != _NO_CARD else []
        out: list[Action] = self._turn_actions() if player == self.current_player else []
        if self.win != _NO_CARD:
            out.extend(self._match_actions(player))
        return out

    def _peek_actions(self, p: int) -> list[Action]:
        if self.peeked >> p & 1:
            return []
        count = self.variant.rules.peek.count
        occ = self.occupied(p)
        return [PeekAction(p, combo) for combo in combinations(occ, min(count, len(occ)))]

    def _turn_actions(self) -> list[Action]:
        p = self.current_player
        phase = self.phase
        if phase == "draw":
            return self._draw_actions(p)
        acts = self._acts[p]
        if phase == "hold":
            hand = self.hands[p]
            replace = acts.replace
            while len(replace) < len(hand):
                replace.append(Replace(p, len(replace)))
            out: list[Action] = [replace[s] for s, c in enumerate(hand) if c != _NO_CARD]
            if self._may_discard_held(p):
                out.append(acts.discard)
            return out
        if phase == "power":
            powers = self._power_actions(p)
            return [*powers, acts.pass_] if self._power_passable(p) else powers
        if phase == "swap":
            return [*self._swap_actions(p), acts.pass_]
        if phase == "call":
            return [acts.call, acts.pass_]
        return []

    def _draw_actions(self, p: int) -> list[Action]:
        rb = self.rb
        acts = self._acts[p]
        hand = self.hands[p]
        draws = self.draws
        if draws == 0 and self.caller is None and rb.empty_layout == "must_call" and _empty(hand):
            return [acts.call]
        out: list[Action] = []
        if self._can_draw_stock():
            out.append(acts.draw_stock)
        if self._can_draw_discard(p):
            out.append(acts.draw_discard)
        if draws > 0:
            out.append(acts.pass_)
        else:
            if self.power is not None:
                out.extend(self._power_actions(p))
            if rb.call_at_start and self._may_call_now(p):
                out.append(acts.call)
        return out

    def _match_actions(self, p: int) -> list[Action]:
        """One-card matches on every occupied slot (a multi-card match is these in a row)."""
        rb = self.rb
        if (
            not rb.match_enabled
            or self.tried[p] >= rb.max_cards
            or (p == self.caller and not rb.caller_may_match)
            or (self.win_by >= 0 and self.win_by != p)
            or (rb.clocked and clock.match_blocked(self, p) is not None)
        ):
            return []
        cache = self._acts[p].match
        hand = self.hands[p]
        while len(cache) < len(hand):
            cache.append(MatchAction(p, (len(cache),)))
        out: list[Action] = [cache[s] for s, c in enumerate(hand) if c != _NO_CARD]
        if rb.opponents and out:
            for q in self._targets(p, True):
                out.extend(MatchAction(p, (s,), owner=q) for s in self.occupied(q))
        return out

    def _power_actions(self, p: int) -> list[Action]:
        """Every use of the power on offer, complete with its targets."""
        name = self.power
        own = self.occupied(p)
        if name == "peek_own":
            return [_power(p, s, None, None) for s in own]
        if name == "play_again":
            return [_power(p, None, None, None)] if self._can_draw_stock() else []
        targets = [(q, s) for q in self._targets(p, name in _SWAPS) for s in self.occupied(q)]
        if name in ("peek_opponent", "look_and_swap"):
            return [_power(p, None, q, s) for q, s in targets]
        if name == "blind_swap":
            return [_power(p, m, q, s) for m in own for q, s in targets]
        return []

    def _power_usable(self, p: int) -> bool:
        """Whether the power on offer has at least one use (without listing them all)."""
        name = self.power
        if name == "peek_own":
            return not _empty(self.hands[p])
        if name == "play_again":
            return self._can_draw_stock()
        if name == "blind_swap" and _empty(self.hands[p]):
            return False
        return bool(self._targets(p, name in _SWAPS))

    def _swap_actions(self, p: int) -> list[Action]:
        if not self._looked_card_there():
            return []
        return [Swap(p, s) for s in self.occupied(p)]

    # ----------------------------------------------------------------------------- rule checks

    def _targets(self, p: int, swapping: bool) -> list[int]:
        """Opponents a power may aim at: those with a card; not a protected caller for a swap."""
        protect = swapping and self.rb.protect_caller
        return [
            q
            for q in range(self.players)
            if q != p and not (protect and q == self.caller) and any(c != _NO_CARD for c in self.hands[q])
        ]

    def _power_passable(self, p: int) -> bool:
        return self.rb.powers_optional or not self._power_usable(p)

    def _must_call(self, p: int) -> bool:
        return self.caller is None and self.rb.empty_layout == "must_call" and self.draws == 0 and _empty(self.hands[p])

    def _has_play(self, p: int) -> bool:
        """Whether a turn of ``p`` starting now has something to play besides a call: a draw, a
        passed-on power, or the forced call of an empty layout. If not, nothing can be drawn at all."""
        if self._must_call(p) or self._can_draw_stock() or self._can_draw_discard(p):
            return True
        return self.power is not None and self._power_usable(p)

    def _may_call_now(self, p: int) -> bool:
        return self.caller is None and self.rb.call_allowed(self, p)

    def _reshuffle_possible(self) -> bool:
        return self.rb.reshuffle and len(self.discard) > 1

    def _can_draw_stock(self) -> bool:
        return bool(self.stock) or self._reshuffle_possible()

    def _can_draw_discard(self, p: int) -> bool:
        rb = self.rb
        if not self.discard or not rb.from_discard or self.stock_only:
            return False
        if self.rank[self.discard[-1]] in rb.discard_forbidden:
            return False
        return not (rb.must_replace and _empty(self.hands[p]))

    def _may_discard_held(self, p: int) -> bool:
        if self.held_from != "discard" or not self.rb.must_replace:
            return True
        return _empty(self.hands[p])  # nowhere to put it: it goes back

    def _slot_ok(self, p: int, s: object) -> bool:
        hand = self.hands[p]
        return isinstance(s, int) and 0 <= s < len(hand) and hand[s] != _NO_CARD

    def _player_ok(self, p: object) -> bool:
        return isinstance(p, int) and 0 <= p < self.players

    # ----------------------------------------------------------------------------- applying

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Apply one action (an action object or its JSON dict); return the events.

        Raises ``IllegalAction`` (and changes nothing) if the rules forbid it now. A legal action
        that fails on hidden information (a wrong match) is played and penalised.
        """
        handler = _HANDLERS.get(type(action))
        if handler is None:
            action = parse_action(action)
            handler = _HANDLERS[type(action)]
        a: Action = action  # type: ignore[assignment]
        if self.phase == "over":
            raise IllegalAction("the round is over", a)
        at = a.at
        events: list[Event]
        if type(at) is int:  # one form for times, so a log replays to the same snapshot
            a = dataclasses.replace(a, at=float(at))
        if at is not None and at != self.now:
            events = self._apply_at(a, handler, at)
        elif self.rb.turn_seconds > 0:
            events = self._apply_present(a, handler)
        else:
            events = handler(self, a)
        self.actions.append(a)
        return events

    def _apply_at(self, action: Action, handler: Any, at: float) -> list[Event]:
        """Bring the game to the action's time, then apply it; all or nothing."""
        if not isinstance(at, int | float) or at != at:
            raise IllegalAction(f"'at' is a time in seconds, got {at!r}", action)
        if at < self.now:
            raise IllegalAction(f"time goes forward: it is {self.now:g} s, the action says {at:g} s", action)
        due = clock.next_deadline(self)
        if due is None or due > at:
            # Nothing fires before ``at``: only the time moves, and the handlers are atomic.
            before = self.now
            self.now = float(at)
            try:
                if self.rb.turn_seconds > 0:
                    return self._apply_present(action, handler)
                return handler(self, action)  # type: ignore[no-any-return]
            except IllegalAction:
                self.now = before
                raise
        backup = self.copy()  # deadlines fire first: undo them too if the action is then refused
        events: list[Event] = []
        try:
            clock.advance(self, at, events)
            if self.phase == "over" and type(action) is not Tick:
                raise IllegalAction("the round ended before this action's time", action)
            if self.rb.turn_seconds > 0:
                events.extend(self._apply_present(action, handler))
            else:
                events.extend(handler(self, action))
        except IllegalAction:
            self._restore_from(backup)
            raise
        return events

    def _apply_present(self, action: Action, handler: Any) -> list[Event]:
        """Timed games: the player to move playing in their turn is present (not absent any more);
        set before the action (its turn may end in it), undone if the action is refused."""
        if (
            type(action) in _OUT_OF_TURN
            or action.player != self.current_player  # type: ignore[union-attr]
            or self.phase not in clock.TURN_PHASES
        ):
            return handler(self, action)  # type: ignore[no-any-return]
        p = self.current_player
        saved = (self.acted, self.absent[p], self.absent_turns[p])
        self.acted, self.absent[p], self.absent_turns[p] = True, False, 0
        try:
            return handler(self, action)  # type: ignore[no-any-return]
        except IllegalAction:
            self.acted, self.absent[p], self.absent_turns[p] = saved
            raise

    def _turn_check(self, a: Action, *phases: str) -> int:
        p = a.player  # type: ignore[union-attr]
        if p != self.current_player:
            raise IllegalAction(f"it is player {self.current_player}'s turn, not player {p}'s", a)
        if self.phase not in phases:
            raise IllegalAction(f"{a.type} is not possible in phase {self.phase!r}", a)
        return p

    def _do_peek(self, a: PeekAction) -> list[Event]:
        p = a.player
        if self.phase != "peek":
            raise IllegalAction("the opening peek is over", a)
        if not self._player_ok(p) or self.peeked >> p & 1:
            raise IllegalAction(f"player {p} has already peeked", a)
        slots = tuple(a.slots)
        count = min(self.variant.rules.peek.count, self.card_count(p))
        if len(slots) != count or len(set(slots)) != count or not all(self._slot_ok(p, s) for s in slots):
            raise IllegalAction(f"choose {count} different slots of your own to peek at", a)
        for s in slots:
            self.knowers[self.hands[p][s]] |= 1 << p
        self.peeked |= 1 << p
        events = [self._peek_event(p, slots)]
        if self.peeked == self._all:
            self._start_turn(self.first_player, events)
        return events

    def _do_draw(self, a: Draw) -> list[Event]:
        p = self._turn_check(a, "draw")
        if self._must_call(p):
            raise IllegalAction("your layout is empty: you must call", a)
        events: list[Event] = []
        if a.source == "stock":
            if not self._can_draw_stock():
                raise IllegalAction("the stock is empty", a)
            self.power = None  # a power passed on is declined by drawing
            if not self.stock:
                self._reshuffle(events)
            c = self.stock.pop()
            self.knowers[c] = 1 << p
            events.append(Event("drew", {"player": p, "source": "stock"}, {"card": self.text[c]}, 1 << p))
        elif a.source == "discard":
            if not self._can_draw_discard(p):
                raise IllegalAction(self._why_not_discard(p), a)
            self.power = None
            c = self.discard.pop()
            if self.win == c:
                self.win = _NO_CARD
            events.append(Event("drew", {"player": p, "source": "discard", "card": self.text[c]}))
        else:
            raise IllegalAction(f"draw from 'stock' or 'discard', not {a.source!r}", a)
        self.held = c
        self.held_from = a.source
        self.draws += 1
        self.phase = "hold"
        return events

    def _why_not_discard(self, p: int) -> str:
        d = self.variant.rules.draw
        if not self.discard:
            return "the discard is empty"
        if not d.from_discard:
            return "this ruleset does not let you draw from the discard"
        if self.stock_only:
            return "this draw must come from the stock"
        if self.rank[self.discard[-1]] in d.discard_forbidden:
            return f"a {self.rank[self.discard[-1]]} cannot be taken from the discard"
        return "a card taken from the discard must replace one of yours, and you have none"

    def _do_replace(self, a: Replace) -> list[Event]:
        p = self._turn_check(a, "hold")
        if not self._slot_ok(p, a.slot):
            raise IllegalAction(f"slot {a.slot} of player {p} holds no card", a)
        hand = self.hands[p]
        old = hand[a.slot]
        hand[a.slot] = self.held
        self.held = _NO_CARD
        self.discard.append(old)
        self.knowers[old] = self._all
        events = [Event("replaced", {"player": p, "slot": a.slot, "card": self.text[old]})]
        power_card = old if self.rb.landing else _NO_CARD
        self._thrown(old, power_card, events)
        return events

    def _do_discard(self, a: Discard) -> list[Event]:
        p = self._turn_check(a, "hold")
        if not self._may_discard_held(p):
            raise IllegalAction("a card taken from the discard must replace one of yours", a)
        c = self.held
        from_stock = self.held_from == "stock"
        self.held = _NO_CARD
        self.discard.append(c)
        self.knowers[c] = self._all
        events = [Event("discarded", {"player": p, "card": self.text[c]})]
        power_card = c if self.rb.landing or from_stock else _NO_CARD
        self._thrown(c, power_card, events)
        return events

    def _thrown(self, c: int, power_card: int, events: list[Event]) -> None:
        """A card a turn threw lands on the discard: a new matching window, maybe a power."""
        self.held_from = ""
        if self.rb.match_enabled:
            self.win = c
            self.win_by = -1
            self.tried = [0] * self.players
        if power_card != _NO_CARD:
            name = self.rb.power(self.cards[power_card])
            if name != "none":
                self.power = name
                if self._power_usable(self.current_player):
                    self.phase = "power"
                    events.append(Event("power_offered", {"player": self.current_player, "power": name}))
                    return
                self.power = None
        self._end_play(events)

    def _do_power(self, a: Power) -> list[Event]:
        p = self._turn_check(a, "power", "draw")
        name = self.power
        if self.phase == "draw" and (name is None or self.draws > 0):
            raise IllegalAction("no power is passed on to you: a turn starts with a draw", a)
        events: list[Event] = []
        if name == "peek_own":
            if a.target is not None or a.target_slot is not None or not self._slot_ok(p, a.slot):
                raise IllegalAction("peek_own needs one of your own occupied slots: 'slot'", a)
            c = self.hands[p][a.slot]  # type: ignore[index]
            self.knowers[c] |= 1 << p
            events.append(Event("looked", {"player": p, "owner": p, "slot": a.slot}, {"card": self.text[c]}, 1 << p))
        elif name in ("peek_opponent", "look_and_swap"):
            q, s = self._check_target(a, swapping=name == "look_and_swap")
            if a.slot is not None:
                raise IllegalAction(f"{name} takes 'target' and 'target_slot', not 'slot'", a)
            c = self.hands[q][s]
            self.knowers[c] |= 1 << p
            events.append(Event("looked", {"player": p, "owner": q, "slot": s}, {"card": self.text[c]}, 1 << p))
            if name == "look_and_swap" and self.occupied(p):
                self._power_used(name)
                self.look = (q, s, c)
                self.phase = "swap"
                return events
        elif name == "blind_swap":
            q, s = self._check_target(a, swapping=True)
            if not self._slot_ok(p, a.slot):
                raise IllegalAction("blind_swap needs one of your own occupied slots: 'slot'", a)
            self._swap_cards(p, a.slot, q, s, events)  # type: ignore[arg-type]
        elif name == "play_again":
            if a.slot is not None or a.target is not None or a.target_slot is not None:
                raise IllegalAction("play_again takes no target", a)
            if not self._can_draw_stock():
                raise IllegalAction("the stock is empty", a)
            self.power = None
            self.phase = "draw"
            self.stock_only = True
            self.draws = 0
            clock.turn_clock(self, p)
            events.append(Event("play_again", {"player": p}))
            return events
        else:  # pragma: no cover - phase 'power' always has a power
            raise IllegalAction("no power on offer", a)
        self._power_used(name)
        self._end_play(events)
        return events

    def _power_used(self, name: str) -> None:
        """A power was used: hand it on to the next player (once), or end a passed-on one."""
        if self.phase == "draw":  # a power passed on to this player, used instead of drawing
            self.draws = self.rb.per_turn
            self.passed = True
        elif self.rb.passed_on:
            self.next_power = name
        self.power = None

    def _check_target(self, a: Power, *, swapping: bool) -> tuple[int, int]:
        q, s = a.target, a.target_slot
        if not self._player_ok(q) or q == a.player:
            raise IllegalAction("'target' must be an opponent", a)
        assert q is not None
        if q not in self._targets(a.player, swapping):
            raise IllegalAction(f"player {q} cannot be targeted now", a)
        if not self._slot_ok(q, s):
            raise IllegalAction(f"slot {s} of player {q} holds no card", a)
        assert s is not None
        return q, s

    def _swap_cards(self, p: int, ps: int, q: int, qs: int, events: list[Event]) -> None:
        """Exchange two placed cards; everyone sees which places changed, knowledge follows."""
        hp, hq = self.hands[p], self.hands[q]
        hp[ps], hq[qs] = hq[qs], hp[ps]
        events.append(Event("swapped", {"player": p, "slot": ps, "target": q, "target_slot": qs}))
        if self.rb.swap_show_seconds:
            self.quiet_until = max(self.quiet_until, self.now + self.rb.swap_show_seconds)

    def _do_swap(self, a: Swap) -> list[Event]:
        p = self._turn_check(a, "swap")
        if not self._looked_card_there():
            raise IllegalAction("the card you looked at is no longer there", a)
        if not self._slot_ok(p, a.slot):
            raise IllegalAction(f"slot {a.slot} of player {p} holds no card", a)
        assert self.look is not None
        q, s, _ = self.look
        if q not in self._targets(p, swapping=True):
            raise IllegalAction(f"player {q} cannot be swapped with now", a)
        events: list[Event] = []
        self._swap_cards(p, a.slot, q, s, events)
        self.look = None
        self._end_play(events)
        return events

    def _looked_card_there(self) -> bool:
        """Look-and-swap: whether the card looked at is still where it was (a match may take it)."""
        return self.look is not None and self.hands[self.look[0]][self.look[1]] == self.look[2]

    def _do_pass(self, a: Pass) -> list[Event]:
        p = self._turn_check(a, "power", "swap", "call", "draw")
        events = [Event("passed", {"player": p, "phase": self.phase})]
        if self.phase == "draw":
            if self.draws == 0:
                raise IllegalAction("a turn starts with a draw", a)
            self._end_turn_or_call(events)
        elif self.phase == "call":
            self._end_turn(events)
        else:
            if self.phase == "power" and not self._power_passable(p):
                raise IllegalAction("this power must be used", a)
            self.power = None
            self.look = None
            self._end_play(events)
        return events

    def _do_call(self, a: Call) -> list[Event]:
        p = a.player
        if p != self.current_player:
            raise IllegalAction(f"it is player {self.current_player}'s turn, not player {p}'s", a)
        forced = self.phase == "draw" and self._must_call(p)
        at_start = self.phase == "draw" and self.rb.call_at_start and self.draws == 0
        if not (self.phase == "call" or forced or at_start):
            raise IllegalAction(f"a call is not possible in phase {self.phase!r}", a)
        if self.caller is not None:
            raise IllegalAction(f"player {self.caller} has already called", a)
        if not forced and not self.rb.call_allowed(self, p):
            raise IllegalAction("a call is not allowed now", a)
        events: list[Event] = []
        if self.rb.verified:
            total = self.total(p)
            right = total <= self.rb.threshold
            shown = {
                "slots": self.occupied(p),
                "cards": [self.text[c] for c in self.hands[p] if c != _NO_CARD],
            }
            if right:
                self.caller = p
                events.append(Event("called", {"player": p, "right": True, "total": total, **shown}))
                for c in self.hands[p]:
                    if c != _NO_CARD:
                        self.knowers[c] = self._all
            else:
                for c in self.hands[p]:
                    if c != _NO_CARD:
                        self.knowers[c] = self._all
                events.append(Event("called", {"player": p, "right": False, "total": total, **shown}))
                self._penalty(p, self.rb.wrong_penalty_cards, events)
        else:
            self.caller = p
            events.append(Event("called", {"player": p}))
        self._end_turn(events)
        return events

    def _do_match(self, a: MatchAction) -> list[Event]:
        p = a.player
        rb = self.rb
        phase = self.phase
        if not self._player_ok(p):
            raise IllegalAction(f"no player {p}", a)
        if not rb.match_enabled:
            raise IllegalAction("this ruleset has no matching", a)
        if phase == "peek" or phase == "give":
            raise IllegalAction("no matching during the opening peek or while a card is given", a)
        owner = p if a.owner is None else a.owner
        slots = a.slots
        if owner != p:
            if not rb.opponents:
                raise IllegalAction("this ruleset lets you match only your own cards", a)
            if not self._player_ok(owner) or owner not in self._targets(p, True):
                raise IllegalAction(f"player {owner}'s cards cannot be matched now", a)
            if self.card_count(p) < len(slots):
                raise IllegalAction("you need a card of your own to give for each card you take", a)
        if not slots or (len(slots) > 1 and len(set(slots)) != len(slots)):
            raise IllegalAction("match one or more different slots", a)
        for s in slots:
            if not self._slot_ok(owner, s):
                raise IllegalAction(f"slot {s} of player {owner} holds no card", a)
        if p == self.caller and not rb.caller_may_match:
            raise IllegalAction("the caller may not match", a)
        if self.win == _NO_CARD:
            raise IllegalAction("there is no thrown card to match on", a)
        if self.tried[p] + len(slots) > rb.max_cards:
            left = rb.max_cards - self.tried[p]
            raise IllegalAction(f"you may throw {left} more card(s) on this one ({rb.max_cards} at most)", a)
        if rb.clocked:
            why = clock.match_blocked(self, p)
            if why is not None:
                raise IllegalAction(why, a)
        self.tried[p] += len(slots)
        hand = self.hands[owner]
        events: list[Event] = []
        allmask = self._all
        text = self.text
        if self.win_by >= 0 and self.win_by != p:
            # Somebody else was faster on this card.
            for s in slots:
                self.knowers[hand[s]] = allmask
                events.append(Event("late", {"player": p, "owner": owner, "slot": s, "card": text[hand[s]]}))
            if rb.late_miss:
                self._penalty(p, rb.penalty_cards * len(slots), events)
                if rb.lockouts:
                    clock.missed(self, p)
                self._after_out_of_turn(events)
            return events
        win = self.win
        by_rank = rb.match_by_rank
        rank = self.rank
        wrong = 0
        for s in slots:
            c = hand[s]
            self.knowers[c] = allmask
            if rank[c] == rank[win] if by_rank else rb.same_kind(self.cards[c], self.cards[win]):
                hand[s] = _NO_CARD
                self.discard.append(c)
                self.win_by = p
                events.append(Event("matched", {"player": p, "owner": owner, "slot": s, "card": text[c]}))
            else:
                wrong += 1
                events.append(Event("missed", {"player": p, "owner": owner, "slot": s, "card": text[c]}))
        if wrong:
            self._penalty(p, rb.penalty_cards * wrong, events)
            if rb.lockouts:
                clock.missed(self, p)
        elif rb.lockouts:
            clock.succeeded(self, p)
        if owner != p:
            self.gives = [[owner, s] for s in slots if hand[s] == _NO_CARD]
            if self.gives:
                self.giver = p
                self.resume = self.phase
                self.phase = "give"
                events.append(Event("give_owed", {"player": p, "owner": owner, "count": len(self.gives)}))
                return events
        self._after_out_of_turn(events)
        return events

    def _after_out_of_turn(self, events: list[Event]) -> None:
        """A match or a give may have emptied a layout, or a penalty taken the last card that the
        player to move could draw: either can end the round."""
        if self.rb.empty_layout == "ends_round" and any(_empty(h) for h in self.hands):
            self._finish("emptied", events)
        elif self.phase == "draw" and self.draws == 0 and not self.stock and not self._has_play(self.current_player):
            # (only a penalty that took the last stock card can leave nothing to draw)
            self._finish("no_card_to_draw", events)

    def _do_give(self, a: Give) -> list[Event]:
        p = a.player
        if self.phase != "give" or p != self.giver:
            raise IllegalAction("nothing to give now", a)
        if not self._slot_ok(p, a.slot):
            raise IllegalAction(f"slot {a.slot} of player {p} holds no card", a)
        q, t = self.gives.pop(0)
        c = self.hands[p][a.slot]
        self.hands[p][a.slot] = _NO_CARD
        self.hands[q][t] = c  # unseen: only who already knew the card knows it now
        events = [Event("gave", {"player": p, "slot": a.slot, "target": q, "target_slot": t})]
        if not self.gives:
            self.phase = self.resume
            self.giver = -1
            self.resume = ""
            self._after_out_of_turn(events)
        return events

    def _do_tick(self, a: Tick) -> list[Event]:
        """Time passes (``apply`` brought the game to ``a.at``): nothing else happens."""
        return []

    # ----------------------------------------------------------------------------- auto-play (clock.py)

    def _auto(self, action: Action, events: list[Event]) -> None:
        """Play ``action`` for its player (a turn that ran out): not logged, the tick is."""
        events.extend(_HANDLERS[type(action)](self, action))

    def _do_pass_internal(self, p: int, events: list[Event]) -> None:
        if self.phase == "draw" and self.draws == 0:
            events.append(Event("passed", {"player": p, "phase": "draw"}))
            self.power = None
            self._end_turn(events)
        else:
            self._auto(self._acts[p].pass_, events)

    def _throw_held(self, p: int, events: list[Event]) -> None:
        if self._may_discard_held(p):
            self._auto(self._acts[p].discard, events)
            return
        # A card taken from the discard goes back on it (Decided: the auto-play throws what it holds).
        c = self.held
        self.held = _NO_CARD
        self.discard.append(c)
        self.knowers[c] = self._all
        events.append(Event("discarded", {"player": p, "card": self.text[c]}))
        self._thrown(c, c if self.rb.landing else _NO_CARD, events)

    # ----------------------------------------------------------------------------- flow

    def _reshuffle(self, events: list[Event]) -> None:
        top = self.discard.pop()
        pile = self.discard
        for c in pile:
            self.knowers[c] = 0
        self.rng.shuffle(pile)
        self.stock = pile
        self.discard = [top]
        events.append(Event("reshuffled", {"stock_size": len(self.stock)}))

    def _penalty(self, p: int, count: int, events: list[Event]) -> None:
        for _ in range(count):
            if not self.stock and self._reshuffle_possible():
                self._reshuffle(events)
            if not self.stock:
                events.append(Event("no_penalty_card", {"player": p}))
                return
            c = self.stock.pop()
            self.knowers[c] = 0
            self.hands[p].append(c)
            events.append(Event("penalty", {"player": p, "slot": len(self.hands[p]) - 1}))

    def _end_play(self, events: list[Event]) -> None:
        """The drawn card is resolved: a second draw, the call, or the end of the turn."""
        if (
            self.draws < self.rb.per_turn
            and not self.stock_only
            and (self._can_draw_stock() or self._can_draw_discard(self.current_player))
        ):
            self.phase = "draw"
            events.append(Event("draw_offered", {"player": self.current_player}))
            return
        self._end_turn_or_call(events)

    def _end_turn_or_call(self, events: list[Event]) -> None:
        p = self.current_player
        if not self.rb.call_at_start and self._may_call_now(p):
            self.phase = "call"
            return
        self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        self.turn += 1
        self._start_turn((self.current_player + 1) % self.players, events)

    def _start_turn(self, p: int, events: list[Event]) -> None:
        self.power = None
        self.look = None
        self.stock_only = False
        self.draws = 0
        self.held = _NO_CARD
        self.held_from = ""
        for _ in range(self.players + 1):
            if self.caller is not None and p == self.caller:
                if self.rb.countdown_seconds > 0:
                    # A last moment for matching before the end (003: "a 5-second countdown").
                    self.phase = "countdown"
                    self.deadline = self.now + self.rb.countdown_seconds
                    events.append(Event("countdown", {"until": self.deadline}))
                    return
                self._finish("called", events)
                return
            if self.turn >= self.rb.max_turns:
                self._finish("turn_limit", events)
                return
            self.current_player = p
            self.phase = "draw"
            if self.left >> p & 1:
                self.turn += 1
                p = (p + 1) % self.players
                continue
            if self.caller is not None and _empty(self.hands[p]):
                events.append(Event("skipped", {"player": p, "reason": "no card"}))
                self.turn += 1
                p = (p + 1) % self.players
                continue
            self.power = self.next_power
            self.next_power = None
            self.passed = False
            if self._has_play(p):
                clock.turn_clock(self, p)
                events.append(Event("turn", {"player": p, "turn": self.turn}))
                if self.power is not None:
                    events.append(Event("power_passed", {"player": p, "power": self.power}))
                return
            self._finish("no_card_to_draw", events)
            return
        self._finish("no_player_left", events)  # pragma: no cover - the caller check stops earlier

    def _finish(self, reason: str, events: list[Event]) -> None:
        self.phase = "over"
        self.reason = reason
        self.power = None
        self.look = None
        allmask = self._all
        for hand in self.hands:
            for c in hand:
                if c != _NO_CARD:
                    self.knowers[c] = allmask
        if self.held != _NO_CARD:
            self.knowers[self.held] = allmask
        result = self.result()
        events.append(
            Event(
                "round_over",
                {
                    "reason": reason,
                    "totals": result.totals,
                    "winners": result.winners,
                    "ranking": result.ranking,
                    "caller": result.caller,
                    "hands": [[self.text[c] if c != _NO_CARD else None for c in h] for h in self.hands],
                },
            )
        )

    # ----------------------------------------------------------------------------- results & views

    def result(self) -> Result:
        """The round's result. Raises ``RuntimeError`` before the round is over."""
        if self.phase != "over":
            raise RuntimeError("the round is not over")
        if self._result is None:
            tally = Tally(
                totals=tuple(self.total(p) for p in range(self.players)),
                card_counts=tuple(self.card_count(p) for p in range(self.players)),
                caller=self.caller,
                threshold=self.rb.threshold,
                left=tuple(p for p in range(self.players) if self.left >> p & 1),
            )
            ranking = self.rb.rank(tally)
            winners = self.rb.winners(tally, ranking)
            scores = self.rb.round_scores(tally, winners)
            self._result = Result(
                totals=list(tally.totals),
                winners=sorted(winners),
                ranking=[list(place) for place in ranking],
                caller=self.caller,
                card_counts=list(tally.card_counts),
                reason=self.reason,
                scores=list(scores),
            )
        return self._result

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see now, and nothing more."""
        if not self._player_ok(player):
            raise ValueError(f"no player {player}")
        text, knowers = self.text, self.knowers
        hands = [
            [
                SlotView(slot=s, card=text[c] if knowers[c] >> player & 1 else None)
                for s, c in enumerate(hand)
                if c != _NO_CARD
            ]
            for hand in self.hands
        ]
        holding = self.current_player if self.held != _NO_CARD else None
        held = text[self.held] if holding == player and knowers[self.held] >> player & 1 else None
        return PlayerView(
            player=player,
            players=self.players,
            phase=self.phase,
            current_player=self.current_player,
            turn=self.turn,
            hands=hands,
            held=held,
            holding=holding,
            discard_top=text[self.discard[-1]] if self.discard else None,
            discard=[text[c] for c in self.discard],
            stock_size=len(self.stock),
            caller=self.caller,
            power=self.power,
            giver=None if self.giver < 0 else self.giver,
            now=self.now,
            deadline=self.deadline if clock.next_deadline(self) is not None else None,
            locked_until=[t if t > self.now else None for t in self.locked_until],
            absent=list(self.absent),
            left=[p for p in range(self.players) if self.left >> p & 1],
            is_over=self.phase == "over",
            result=self.result() if self.phase == "over" else None,
        )

    # ----------------------------------------------------------------------------- snapshots

    _STATE = (
        "seed",
        "first_player",
        "hands",
        "stock",
        "discard",
        "knowers",
        "phase",
        "current_player",
        "turn",
        "caller",
        "held",
        "held_from",
        "draws",
        "power",
        "look",
        "win",
        "win_by",
        "tried",
        "stock_only",
        "peeked",
        "reason",
        "giver",
        "gives",
        "resume",
        "next_power",
        "passed",
        "now",
        "deadline",
        "quiet_until",
        "locked_until",
        "misses",
        "absent",
        "absent_turns",
        "left",
        "acted",
    )

    def to_json(self) -> str:
        """The whole state as compact JSON; ``Game.from_json`` restores it exactly (RNG included)."""
        variant: Any = self.variant.spec
        if variant is None:
            variant = self.variant.model_dump(mode="json")
        state: dict[str, Any] = {"v": SNAPSHOT_VERSION, "variant": variant, "players": self.players}
        for key in self._STATE:
            state[key] = getattr(self, key)
        state["rng"] = self.rng.state
        state["cards"] = None if self.cards is self.rb.deck else " ".join(self.text)
        state["actions"] = [_compact(a) for a in self.actions]
        return json.dumps(state, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: str, variant: Variant | None = None) -> Game:
        """Restore a game from ``to_json``. The variant is loaded by the name it was saved with
        unless given."""
        from .variant import load_variant, variant_from_dict

        state = json.loads(data)
        if state.get("v") != SNAPSHOT_VERSION:
            raise ValueError(f"unknown snapshot version {state.get('v')!r}")
        if variant is None:
            spec = state["variant"]
            variant = variant_from_dict(spec) if isinstance(spec, dict) else load_variant(spec)
        game = cls.__new__(cls)
        game._restore(variant, state)
        return game

    def _restore_from(self, other: Game) -> None:
        self._init_runtime(other.variant, other.players)
        self.deal_spec = other.deal_spec
        self.cards, self.text, self.rank, self.value = other.cards, other.text, other.rank, other.value
        for key in self._STATE:
            v = getattr(other, key)
            if key == "hands":
                v = [list(h) for h in v]
            elif isinstance(v, list):
                v = list(v)
            setattr(self, key, v)
        self.rng = Rng(0)
        self.rng.state = other.rng.state
        self.actions = list(other.actions)
        self._result = other._result

    def _init_runtime(self, variant: Variant, players: int) -> None:
        self.variant = variant
        self.rb = rulebook(variant)
        self.players = players
        self._all = (1 << players) - 1
        self.deal_spec = None
        self._result = None
        self._acts = _seat_actions(players)

    def _restore(self, variant: Variant, state: dict[str, Any]) -> None:
        self._init_runtime(variant, state["players"])
        cards = state["cards"]
        self._set_universe(self.rb.deck if cards is None else [parse_card(t) for t in cards.split()])
        for key in self._STATE:
            setattr(self, key, state[key])
        self.look = tuple(self.look) if self.look is not None else None  # type: ignore[assignment]
        self.rng = Rng(0)
        self.rng.state = state["rng"]
        self.actions = [_uncompact(x) for x in state["actions"]]


_HANDLERS: dict[type, Any] = {
    Draw: Game._do_draw,
    Replace: Game._do_replace,
    Discard: Game._do_discard,
    Power: Game._do_power,
    Swap: Game._do_swap,
    Pass: Game._do_pass,
    Call: Game._do_call,
    MatchAction: Game._do_match,
    PeekAction: Game._do_peek,
    Give: Game._do_give,
    Tick: Game._do_tick,
}

_CODES = {
    "draw": "d",
    "replace": "r",
    "discard": "x",
    "power": "w",
    "swap": "s",
    "pass": "p",
    "call": "c",
    "match": "m",
    "peek": "k",
    "give": "g",
    "tick": "t",
}
_TYPES = {v: ACTION_TYPES[k] for k, v in _CODES.items()}


def _compact(a: Action) -> list[Any]:
    """An action as a short list: its code, then its fields in order, trailing ``None`` dropped."""
    values = [getattr(a, f.name) for f in fields(a)]
    while values and values[-1] is None:
        values.pop()
    return [_CODES[a.type], *(list(v) if isinstance(v, tuple) else v for v in values)]


def _uncompact(item: list[Any]) -> Action:
    cls: Any = _TYPES[item[0]]
    names = [f.name for f in fields(cls)]
    body = {n: (tuple(v) if isinstance(v, list) else v) for n, v in zip(names, item[1:], strict=False)}
    return cls(**body)  # type: ignore[no-any-return]


# ----------------------------------------------------------------------------- the public entry points


def new_game(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int | None = None,
    deal: dict[str, Any] | None = None,
    first_player: int | None = None,
) -> Game:
    """Start a round: shuffled with ``seed`` (a fresh one, kept in ``game.seed``, if ``None``), or
    a stacked ``deal`` (``hands``, ``stock`` top first, ``discard`` bottom first)."""
    from .variant import load_variant

    v = variant if isinstance(variant, Variant) else load_variant(variant)
    game = Game(v, players, seed=seed, deal=deal, first_player=first_player)
    game._begin()
    return game


def replay(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int | None = None,
    actions: Iterable[Action | dict[str, Any]],
    deal: dict[str, Any] | None = None,
    first_player: int | None = None,
) -> Game:
    """Rebuild a game from its start and its actions (``game.actions``)."""
    game = new_game(variant, players, seed=seed, deal=deal, first_player=first_player)
    for a in actions:
        game.apply(a)
    return game
