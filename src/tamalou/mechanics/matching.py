"""Matching (appariement, défausse instantanée, doubling): throwing a card of the thrown card's rank,
in turn or out of turn, and the closing window of a called round.

Keys (``rules.matching``): ``max_cards`` a player may throw on one thrown card (Le Tamalou: "une, deux ou
trois cartes"); ``by`` rank or value (or the hook ``tamalou_same_kind``); ``late`` — a right card
thrown on a window somebody already won is taken back ("return", Le Tamalou: "le plus lent replace sa
carte") or is a miss ("miss", tamalou.fun); a *wrong* card is always a miss, whenever it is thrown;
``penalty_cards`` per wrong card; ``caller_may_match``; ``while_playing`` (tamalou.fun: not while you hold a
drawn card or choose a power target); ``closing_window`` — when a called round's last turn ends, each
player who may match gets one last chance on that turn's card (``match`` or ``pass``) before the end
(untimed rulesets; timed ones have their countdown); ``race`` — only the first right match of a card
counts (false: every right match counts: the winner of the window is never recorded, so nothing is
ever late); ``penalty_cap`` — a penalty never takes the layout of the player who missed past that many
cards; ``window`` — "at_throw" (a thrown card may be matched at once, until the next one is thrown) or
"after_power": the thrown card's window opens only when its power is resolved or declined (the
``play_resolved`` moment), as the phase ``window``, where each player who may match does so or passes
(``to_act``: those yet to pass), and closes before the turn passes (cambia).

The contract with other mechanics (version ``MATCHING_CONTRACT``, in docs/write-a-mechanic.md): a mechanic
takes part by implementing ``MatchBlocker`` (why a player may not match now: a clock's lockout, a sealed
caller) or ``MatchListener`` (told of every throw on a window, right or not); a mechanic that adds a way to
throw cards on the card on offer (the sum-matching example) finds the matching mechanic with
``Matching.of(rulebook)`` and uses the methods marked "(contract)": the card on offer and who took it, why a
throw would be refused, the listing, ``record_throw``, ``penalise`` and ``closing_moves_on``.

One-card matches are listed on every occupied slot, right or wrong (listing only right ones would leak
the cards); a match of several slots is accepted and is those one-card matches in a row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._compiling import mypyc_attr
from ..actions import Action, MatchAction, Pass
from ..engine.seats import SEATS
from ..engine.state import CLOSING, DRAW, GIVE, HOLD, NO_CARD, OVER, POWER, SWAP
from ..errors import IllegalAction
from ..events import Event
from ..mechanic import Handler, Lister, Mechanic, MechanicRules, PhaseSpec
from ._match_actions import OWN, own_matches
from .match_contract import MatchBlocker, MatchListener

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant
    from ..views import SeatInfo

#: The phase of a window that opens after the card's power (``window = "after_power"``): a mechanic's
#: phase, named by its string.
WINDOW = "window"
#: Why nobody may match while no penalty card could be given (RULES: "no penalty card left: matching is closed"):
#: the same words whatever the card thrown, so the refusal reveals nothing.
NO_PENALTY_CARD = "no penalty card is left (the stock is empty and the discard holds only its top): matching is closed"
#: The phases where matches come in although they are not open to out-of-turn actions: each waits for
#: the players who may still match or pass.
WINDOWS = frozenset((CLOSING, WINDOW))


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class MatchingState:
    """``win``: the card a turn threw that may be matched (``NO_CARD``: none); ``win_by``: who won it
    (-1: nobody yet); ``tried``: cards each player threw on it; ``waiting``: closing window, bit p set
    while p may still act."""

    __slots__ = ("tried", "waiting", "win", "win_by")

    def __init__(self, g: RoundTable, first: int) -> None:
        self.win = first
        self.win_by = -1
        self.tried = [0] * g.players
        self.waiting = 0


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class WindowState(MatchingState):
    """A window after the power (``window = "after_power"``): besides, ``turn_player``: in the phase
    ``window``, whose turn it is (``current_player`` is then the seat the window waits for); -2 while a
    card the turn threw waits for its window (its power is being resolved); -1 otherwise."""

    __slots__ = ("turn_player",)

    def __init__(self, g: RoundTable, first: int) -> None:
        super().__init__(g, first)
        self.turn_player = -1


@mypyc_attr(allow_interpreted_subclasses=True)
class Matching(Mechanic):
    name = "matching"
    order = 10
    emptied_words = "matched away"

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        r = variant.rules
        m = r.matching
        self.max_cards = m.max_cards
        self.by = m.by
        self.late_miss = m.late == "miss"
        self.penalty = m.penalty_cards
        self.caller_may_match = m.caller_may_match
        self.while_playing = m.while_playing
        self.first_matchable = r.deal.first_card_matchable
        self.closing = m.closing_window and r.timing.turn_seconds == 0
        self.race = m.race
        self.cap = m.penalty_cap
        # No cap and ``penalise`` as it is here: a miss deals its penalty cards straight away.
        self._capless = not self.cap and type(self).penalise is Matching.penalise
        self.after_power = m.window == "after_power"
        # With an optional give, a player with no card of their own may still take an opponent's.
        self.bare = m.opponents and m.give == "may"
        # Known once the rulebook is (``bind``): the other mechanics' blockers and listeners; whether
        # nothing but leaving the round blocks a match; whether matching compares ranks only.
        self._blockers: list[Callable[[RoundTable, int], str | None]] = []
        self._results: list[Callable[[RoundTable, int, bool], None]] = []
        self._plain = False
        self._rank_only = False
        self.idle.add("after_out_of_turn")  # the closing window moves on in do_match / do_pass itself
        if not self.closing:
            self.idle.add("round_ending")
        if not self.after_power:
            self.idle.add("play_resolved")
        self.window_phases = self.window_phases_of(variant)
        self._more = type(self).list_more is not Matching.list_more
        self._after = True  # whether a mechanic reacts to layouts changing (``bind``)
        self._then: tuple[Callable[[RoundTable, list[Event]], bool], ...] = ()  # play_resolved after this one

    def bind(self, rb: MechanicRules) -> None:
        others = [m for m in rb.mechanics if m is not self]
        self._results = [m.match_result for m in others if isinstance(m, MatchListener)]
        self._blockers = [m.match_blocked for m in others if isinstance(m, MatchBlocker)]
        self._plain = self.while_playing and not self._blockers
        self._rank_only = self.by == "rank" and rb.same_kind_hook is None
        self._after = bool(rb.hooks.after_out_of_turn)
        hooks = rb.hooks.play_resolved
        mine = [i for i, h in enumerate(hooks) if getattr(h, "__self__", None) is self]
        self._then = hooks[mine[0] + 1 :] if mine else ()

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        m = variant.rules.matching
        return m.enabled and not m.opponents

    def new_state(self, g: RoundTable) -> MatchingState:
        own_matches(g.players - 1, 16)  # every seat's one-card matches are made
        first = g.discard[-1] if g.discard and self.first_matchable else NO_CARD
        return (WindowState if self.after_power else MatchingState)(g, first)

    def check_state(self, g: RoundTable, st: Any) -> str | None:  # (Any: a restored MatchingState may hold anything)
        n = len(g.cards)
        if not -1 <= st.win < n or not -1 <= st.win_by < g.players or not 0 <= st.waiting <= g.all_mask:
            return "the window names a card or a player that is not there"
        if len(st.tried) != g.players or any(not 0 <= t <= self.max_cards for t in st.tried):
            return "the cards thrown on the window are out of bounds"
        if g.phase in WINDOWS and not st.waiting >> g.current_player & 1:
            return "the window waits for nobody it names"
        if self.after_power and g.phase != OVER:  # (a match may end the round in its window)
            turn = getattr(st, "turn_player", -1)
            in_window = g.phase == WINDOW or (g.phase == GIVE and getattr(st, "resume", "") == WINDOW)
            if not -2 <= turn < g.players or in_window != (turn >= 0):
                return "the window's turn player does not fit the phase"
            if g.phase == WINDOW and st.win == NO_CARD:
                return "the window has no card to match on"
        return None

    def anytime(self) -> tuple[Lister | None, dict[type, Handler]]:
        return self.list_matches, {MatchAction: self.do_match}

    def phases(self) -> dict[str, PhaseSpec]:
        table: dict[str, PhaseSpec] = {}
        if self.closing:
            table[CLOSING] = PhaseSpec(self.list_closing, {Pass: self.do_pass}, open=False, waiting=self.waiting)
        if self.after_power:
            table[WINDOW] = PhaseSpec(
                self.list_closing, {Pass: self.do_pass}, open=False, waiting=self.waiting, auto=self.auto_pass
            )
        return table

    # ---------------------------------------------------------------- listing

    def blocked(self, g: RoundTable, p: int) -> str | None:
        """Why ``p`` may not match now (besides the window itself), or ``None``."""
        if g.left >> p & 1:
            return "you have left the round"
        if self.penalty and not g.can_draw_stock():
            return NO_PENALTY_CARD
        if self._plain:
            return None
        if not self.while_playing and p == g.current_player and g.phase in (HOLD, POWER, SWAP):
            return "no matching while you hold a drawn card or choose a power target"
        for hook in self._blockers:
            why = hook(g, p)
            if why is not None:
                return why
        return None

    def list_matches(self, g: RoundTable, p: int, out: list[Action]) -> None:
        """(contract) One-card matches on every occupied slot (in an open phase)."""
        st: MatchingState = g.ms[self.index]
        if (
            st.win == NO_CARD
            or st.tried[p] >= self.max_cards
            or (st.win_by >= 0 and st.win_by != p)
            or (p == g.caller and not self.caller_may_match)
        ):
            return
        if self._plain:
            if g.left >> p & 1 or (self.penalty and not g.can_draw_stock()):
                return
        elif self.blocked(g, p) is not None:
            return
        hand = g.hands[p]
        own = OWN[p]
        if len(own) < len(hand):
            own = own_matches(p, len(hand))
        if NO_CARD in hand:
            mine = [own[s] for s, c in enumerate(hand) if c != NO_CARD]
            if not mine and not self.bare:
                return
            out.extend(mine)
        elif hand:  # no emptied slot: every slot, at C speed
            out.extend(own[: len(hand)])
        elif not self.bare:
            return
        if self._more:
            self.list_more(g, p, out)

    def list_more(self, g: RoundTable, p: int, out: list[Action]) -> None:
        """More matches (opponent matching lists matches on others' cards here)."""

    # ---------------------------------------------------------------- applying

    def same(self, g: RoundTable, c: int, win: int) -> bool:
        hook = g.rb.same_kind_hook
        if hook is None:
            if self.by == "rank":
                return g.rank[c] == g.rank[win]
            return g.value[c] == g.value[win]
        return g.rb.same_kind(g.cards[c], g.cards[win])

    def check_owner(self, g: RoundTable, a: MatchAction, owner: int) -> None:
        """Whose cards ``a`` may throw (opponent matching widens this)."""
        if owner != a.player:
            raise IllegalAction("this ruleset lets you match only your own cards", a)

    def do_match(self, g: RoundTable, a: MatchAction) -> list[Event]:
        p = a.player
        if not 0 <= p < g.players:
            raise IllegalAction(f"no player {p}", a)
        phase = g.phase
        if phase not in g.flow.open and phase not in WINDOWS:
            raise IllegalAction(f"no matching now (phase {str(phase)!r})", a)
        st: MatchingState = g.ms[self.index]
        owner = p if a.owner is None else a.owner
        slots = a.slots
        if owner != p:
            self.check_owner(g, a, owner)
        n = len(slots)
        if not n or (n > 1 and len(set(slots)) != n):
            raise IllegalAction("match one or more different slots", a)
        hand = g.hands[owner]
        for s in slots:
            if not 0 <= s < len(hand) or hand[s] == NO_CARD:
                raise IllegalAction(f"slot {s} of player {owner} holds no card", a)
        if p == g.caller and not self.caller_may_match:
            raise IllegalAction("the caller may not match", a)
        win = st.win
        if win == NO_CARD:
            raise IllegalAction("there is no thrown card to match on", a)
        if st.tried[p] + n > self.max_cards:
            left = self.max_cards - st.tried[p]
            raise IllegalAction(f"you may throw {left} more card(s) on this one ({self.max_cards} at most)", a)
        why = self.blocked(g, p)
        if why is not None:
            raise IllegalAction(why, a)
        if phase in WINDOWS and not st.waiting >> p & 1:
            raise IllegalAction(
                "you have had your last chance to match in this round"
                if phase == CLOSING
                else "you have passed on this card's window",
                a,
            )
        st.tried[p] += n
        if phase == CLOSING:
            st.waiting &= ~(1 << p)
        events: list[Event] = []
        text = g.text
        rank = g.rank
        rank_only = self._rank_only
        win_by = st.win_by
        late = win_by >= 0 and win_by != p
        wrong = 0
        for s in slots:
            c = hand[s]
            facts = {"player": p, "owner": owner, "slot": s, "card": text[c]}
            if not (rank[c] == rank[win] if rank_only else self.same(g, c, win)):
                g.show(c)  # it goes back, everyone saw it
                wrong += 1
                events.append(Event("missed", facts))
            elif late:  # somebody else was faster on this card: it goes back
                g.show(c)
                if self.late_miss:
                    wrong += 1
                events.append(Event("late", facts))
            else:
                g.throw_from(owner, s)
                if self.race:  # (not a race: nobody wins the window, nothing is ever late)
                    st.win_by = p
                events.append(Event("matched", facts))
        if wrong:
            if self._capless:
                g.deal_unseen(p, events, self.penalty * wrong)
            else:
                self.penalise(g, p, self.penalty * wrong, events)
        if (wrong or not late) and self._results:
            for hook in self._results:
                hook(g, p, not wrong)
        if owner != p and self.took(g, a, owner, events):
            return events
        if self._after or (g.phase == DRAW and not g.stock):  # (else nothing can follow from it)
            g.after_out_of_turn(events)
        if g.phase in WINDOWS:
            self.closing_moves_on(g, events)
        return events

    def penalise(self, g: RoundTable, p: int, count: int, events: list[Event]) -> None:
        """(contract) ``count`` penalty cards for a miss of ``p``, within ``penalty_cap`` (an event says what the
        cap spared). A move of another mechanic that misses on the window penalises through this too."""
        if self.cap:
            room = max(0, self.cap - g.card_count(p))
            if room < count:
                events.append(Event("penalty_capped", {"player": p, "cap": self.cap, "spared": count - room}))
                count = room
        if count:
            g.deal_unseen(p, events, count)

    def took(self, g: RoundTable, a: MatchAction, owner: int, events: list[Event]) -> bool:
        """After a match: ``True`` if the round now waits for something (opponent matching's give)."""
        return False

    def resample(self, g: RoundTable, info: SeatInfo) -> None:
        """(search) The window on the discard's top, won by nobody yet, nothing thrown on it; in a window phase it
        waits for the seats the view names; taken as closed when the seat may not match now (won, tried, or
        not open)."""
        st: Any = g.ms[self.index]  # a MatchingState, or a window's (turn_player), or opponents' twins
        phase = g.phase
        st.win = g.discard[-1] if g.discard else NO_CARD
        st.win_by = -1
        st.tried = [0] * g.players
        st.waiting = info.waiting if phase in WINDOWS else 0
        if self.after_power:
            st.turn_player = -2 if phase in (POWER, SWAP) else -1
        if not any(type(a) is MatchAction for a in info.legal):
            st.win = NO_CARD

    # ---------------------------------------------------------------- the contract (MATCHING_CONTRACT)

    @staticmethod
    def of(rb: MechanicRules) -> Matching | None:
        """(contract) The ruleset's matching mechanic (the built-in one or a subclass), ``None`` without matching."""
        return next((m for m in rb.mechanics if isinstance(m, Matching)), None)

    @staticmethod
    def window_phases_of(variant: Variant) -> frozenset[str]:
        """(contract) The window phases of ``variant``, where matching lists its own actions although they are
        not open to out-of-turn ones (the closing window of a called round, the window after a power); also
        ``window_phases`` once made."""
        r = variant.rules
        closing = r.matching.closing_window and r.timing.turn_seconds == 0
        return frozenset(ph for ph, on in ((CLOSING, closing), (WINDOW, r.matching.window == "after_power")) if on)

    def card_on_offer(self, g: RoundTable) -> int:
        """(contract) The card that may be matched now (an index into ``g.cards``), ``NO_CARD`` if none."""
        return int(g.ms[self.index].win)

    def taken_by(self, g: RoundTable) -> int:
        """(contract) Who took the card on offer with a right throw (-1: nobody yet; always -1 without a race)."""
        return int(g.ms[self.index].win_by)

    def refusal(self, g: RoundTable, p: int, count: int) -> str | None:
        """(contract) Why ``p`` may not throw ``count`` cards of theirs on the card on offer now, or ``None``: the
        phase and the window, the caller, the cards already thrown on it (``max_cards``), and every
        ``MatchBlocker``. (A card somebody already took may still be thrown: a right one comes back, ``late``.)"""
        if not g.player_ok(p):
            return f"no player {p}"
        phase = g.phase
        if phase not in g.flow.open and phase not in self.window_phases:
            return f"no matching now (phase {str(phase)!r})"
        st: MatchingState = g.ms[self.index]
        if st.win == NO_CARD:
            return "there is no thrown card to match on"
        if p == g.caller and not self.caller_may_match:
            return "the caller may not match"
        if phase in WINDOWS and not st.waiting >> p & 1:
            passed = "you have passed on this card's window"
            return "you have had your last chance to match in this round" if phase == CLOSING else passed
        if st.tried[p] + count > self.max_cards:
            left = self.max_cards - st.tried[p]
            return f"you may throw {left} more card(s) on this one ({self.max_cards} at most)"
        return self.blocked(g, p)

    def record_throw(self, g: RoundTable, p: int, count: int, right: bool) -> None:
        """(contract) Another mechanic's move threw ``count`` cards of ``p`` on the card on offer (moved already),
        all right or not: they count against ``max_cards``, ``p``'s last chance in the closing window is used, a
        right throw takes the card (with a race), and every ``MatchListener`` is told. ``closing_moves_on``
        then, in a window phase."""
        st: MatchingState = g.ms[self.index]
        st.tried[p] += count
        if g.phase == CLOSING:
            st.waiting &= ~(1 << p)
        if right and self.race:
            st.win_by = p
        for hook in self._results:
            hook(g, p, right)

    # ---------------------------------------------------------------- the flow

    def thrown(self, g: RoundTable, card: int, how: str, events: list[Event]) -> bool:
        st: MatchingState = g.ms[self.index]
        st.win_by = -1
        st.tried = [0] * g.players
        if self.after_power:  # opened at ``play_resolved``, once the power is done
            st.win = NO_CARD
            pending: Any = st  # a WindowState or opponents' twin of it (no common class: both have turn_player)
            pending.turn_player = -2
        else:
            st.win = card
        return False

    def play_resolved(self, g: RoundTable, events: list[Event]) -> bool:
        """``window = "after_power"``: the card the turn threw (the discard's top: nothing else lands on it
        meanwhile) is resolved, power and all: its window opens, as the phase ``window``, for every player
        who may match (whatever their cards: who is asked says nothing of them)."""
        st: Any = g.ms[self.index]  # a WindowState or opponents' twin of it (both have turn_player)
        if st.turn_player != -2 or not g.discard:  # no card of this play waits for its window
            return False
        st.win = g.discard[-1]
        st.win_by = -1
        st.tried = [0] * g.players
        st.waiting = self._able(g)
        if not st.waiting:
            st.win = NO_CARD
            st.turn_player = -1
            return False
        st.turn_player = g.current_player
        g.phase = WINDOW
        g.current_player = self._first(g)
        events.append(Event("window", {"players": self.waiting(g), "card": g.text[st.win]}))
        return True

    def _first(self, g: RoundTable) -> int:
        """The first seat the window waits for, from the turn's player on."""
        waiting = g.ms[self.index].waiting
        for i in range(g.players):
            p = (g.current_player + i) % g.players
            if waiting >> p & 1:
                return p
        return g.current_player  # pragma: no cover - only called with somebody waiting

    def close_window(self, g: RoundTable, events: list[Event]) -> None:
        """Everyone has matched or passed: the window closes, the turn goes on (the other mechanics'
        ``play_resolved``, then the end of the turn)."""
        st: Any = g.ms[self.index]  # a WindowState or opponents' twin of it (both have turn_player)
        st.win = NO_CARD
        st.waiting = 0
        g.current_player = st.turn_player
        st.turn_player = -1
        g.phase = DRAW  # between phases: the turn's end below sets the next one
        events.append(Event("window_closed", {}))
        for hook in self._then:
            if hook(g, events):
                return
        g.turn_over(events)

    def discard_taken(self, g: RoundTable, card: int) -> None:
        st: MatchingState = g.ms[self.index]
        if st.win == card:
            st.win = NO_CARD

    # ---------------------------------------------------------------- the closing window

    def round_ending(self, g: RoundTable, events: list[Event]) -> bool:
        if not self.closing:
            return False
        st: MatchingState = g.ms[self.index]
        st.waiting = self._able(g)
        if not st.waiting:
            return False
        g.phase = CLOSING
        self._next(g)
        events.append(Event("closing", {"players": self.waiting(g)}))
        return True

    def _able(self, g: RoundTable) -> int:
        """The players who may match now (those ``list_matches`` lists something for)."""
        st: MatchingState = g.ms[self.index]
        if st.win == NO_CARD:
            return 0
        mask = 0
        for p in range(g.players):
            if (
                st.tried[p] < self.max_cards
                and not (p == g.caller and not self.caller_may_match)
                and st.win_by in (-1, p)
                and (not g.empty(p) or (self.bare and bool(g.targets(p, True))))
                and self.blocked(g, p) is None
            ):
                mask |= 1 << p
        return mask

    def _next(self, g: RoundTable) -> None:
        waiting = g.ms[self.index].waiting
        for i in range(1, g.players + 1):
            p = (g.current_player + i) % g.players
            if waiting >> p & 1:
                g.current_player = p
                return

    def waiting(self, g: RoundTable) -> list[int]:
        waiting = g.ms[self.index].waiting
        return [p for p in range(g.players) if waiting >> p & 1]

    def list_closing(self, g: RoundTable, p: int, out: list[Action]) -> None:
        """(contract) In a window phase: ``list_matches`` and ``pass`` for a seat the window waits for."""
        if g.ms[self.index].waiting >> p & 1:
            self.list_matches(g, p, out)
            out.append(SEATS[p].pass_)

    def do_pass(self, g: RoundTable, a: Pass) -> list[Event]:
        p = a.player
        st: MatchingState = g.ms[self.index]
        if not g.player_ok(p) or not st.waiting >> p & 1:
            raise IllegalAction("you are not asked to match or pass now", a)
        st.waiting &= ~(1 << p)
        events = [Event("passed", {"player": p, "phase": str(g.phase)})]
        self.closing_moves_on(g, events)
        return events

    def auto_pass(self, g: RoundTable, events: list[Event]) -> None:
        """Time ran out in a window: the seat it waits for passes."""
        events.extend(self.do_pass(g, SEATS[g.current_player].pass_))

    def closing_moves_on(self, g: RoundTable, events: list[Event]) -> None:
        """(contract) After a match, a give or a pass in a window (the closing one, or one after a power): the next
        seat to wait for, or the end of the window (the end of the round, or the turn going on)."""
        if g.phase == OVER:  # an emptied layout ended the round meanwhile
            return
        st: MatchingState = g.ms[self.index]
        if st.win_by >= 0 and g.phase == CLOSING:  # the card was matched: nobody else may match it any more
            st.waiting &= 1 << st.win_by
        # (A window after the power stays open to the others: a later right card is taken back, Le Tamalou.)
        waiting = st.waiting
        for q in range(g.players):  # a layout emptied, a player blocked or out of tries meanwhile
            if waiting >> q & 1 and (
                st.tried[q] >= self.max_cards or (g.empty(q) and not self.bare) or self.blocked(g, q) is not None
            ):
                waiting &= ~(1 << q)
        st.waiting = waiting
        if waiting:
            self._next(g)
        elif g.phase == WINDOW:
            self.close_window(g, events)
        else:
            g.finish_last_turns(events)
