"""Matching (appariement, défausse instantanée, doubling): throwing a card of the thrown card's rank,
in turn or out of turn, and the closing window of a called round.

Keys (``rules.matching``): ``max_cards`` a player may throw on one thrown card (000: "une, deux ou
trois cartes"); ``by`` rank or value (or the hook ``tamalou_same_kind``); ``late`` — a right card
thrown on a window somebody already won is taken back ("return", 000: "le plus lent replace sa
carte") or is a miss ("miss", 003); a *wrong* card is always a miss, whenever it is thrown;
``penalty_cards`` per wrong card; ``caller_may_match``; ``while_playing`` (003: not while you hold a
drawn card or choose a power target); ``closing_window`` — when a called round's last turn ends, each
player who may match gets one last chance on that turn's card (``match`` or ``pass``) before the end
(untimed rulesets; timed ones have their countdown).

Other mechanics take part through two methods of their own, found by name: ``match_blocked(g, p)``
(why ``p`` may not match now, or ``None``: a clock's lockout) and ``match_result(g, p, right)`` (``p``
threw on a window, all right or not).

One-card matches are listed on every occupied slot, right or wrong (listing only right ones would leak
the cards); a match of several slots is accepted and is those one-card matches in a row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..actions import Action, MatchAction, Pass
from ..engine.mechanic import Handler, Lister, Mechanic, PhaseSpec
from ..engine.seats import GROWTH, SEATS
from ..engine.state import CLOSING, DRAW, HOLD, NO_CARD, POWER, SWAP, Reason
from ..errors import IllegalAction
from ..events import Event

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..rules import Rulebook
    from ..schema import Variant

_OWN: list[list[MatchAction]] = []  # per seat, per slot: the one-card match of one's own card
_OTHERS: dict[tuple[int, int, int], MatchAction] = {}


def own_matches(p: int, slots: int) -> list[MatchAction]:
    """The one-card matches of seat ``p`` on its slots ``0..slots-1``, made once per process (and, for
    the seats before ``p``, the list that will hold theirs). Grows under the seats' lock: games on
    several threads share these lists."""
    if len(_OWN) <= p or len(_OWN[p]) < slots:
        with GROWTH:
            while len(_OWN) <= p:
                _OWN.append([])
            own = _OWN[p]
            while len(own) < slots:
                own.append(MatchAction(p, (len(own),)))
    return _OWN[p]


def match_action(p: int, s: int, owner: int | None = None) -> MatchAction:
    """A one-card match, made once per process (actions are values)."""
    if owner is None:
        return own_matches(p, s + 1)[s]
    key = (p, s, owner)
    a = _OTHERS.get(key)
    if a is None:
        a = _OTHERS[key] = MatchAction(p, (s,), owner=owner)
    return a


class MatchingState:
    """``win``: the card a turn threw that may be matched (``NO_CARD``: none); ``win_by``: who won it
    (-1: nobody yet); ``tried``: cards each player threw on it; ``waiting``: closing window, bit p set
    while p may still act."""

    __slots__ = ("tried", "waiting", "win", "win_by")

    def __init__(self, g: Game, first: int) -> None:
        self.win = first
        self.win_by = -1
        self.tried = [0] * g.players
        self.waiting = 0


class Matching(Mechanic):
    name = "matching"
    order = 10

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
        # Known once the rulebook is (``bind``): the other mechanics' blockers and listeners; whether
        # nothing but leaving the round blocks a match; whether matching compares ranks only.
        self._blockers: list[Callable[[Game, int], str | None]] = []
        self._results: list[Callable[[Game, int, bool], None]] = []
        self._plain = False
        self._rank_only = False
        self.idle.add("after_out_of_turn")  # the closing window moves on in do_match / do_pass itself
        if not self.closing:
            self.idle.add("round_ending")
        self._more = type(self).list_more is not Matching.list_more
        self._after = True  # whether a mechanic reacts to layouts changing (``bind``)

    def bind(self, rb: Rulebook) -> None:
        others = [m for m in rb.mechanics if m is not self]
        self._results = [m.match_result for m in others if hasattr(m, "match_result")]
        self._blockers = [m.match_blocked for m in others if hasattr(m, "match_blocked")]
        self._plain = self.while_playing and not self._blockers
        self._rank_only = self.by == "rank" and rb.same_kind_hook is None
        self._after = bool(rb.hooks.after_out_of_turn)

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        m = variant.rules.matching
        return m.enabled and not m.opponents

    def new_state(self, g: Game) -> MatchingState:
        own_matches(g.players - 1, 16)  # every seat's one-card matches are made
        first = g.discard[-1] if g.discard and self.first_matchable else NO_CARD
        return MatchingState(g, first)

    def check_state(self, g: Game, st: MatchingState) -> str | None:
        n = len(g.cards)
        if not -1 <= st.win < n or not -1 <= st.win_by < g.players or not 0 <= st.waiting <= g.all_mask:
            return "the window names a card or a player that is not there"
        if len(st.tried) != g.players or any(not 0 <= t <= self.max_cards for t in st.tried):
            return "the cards thrown on the window are out of bounds"
        if g.phase == CLOSING and not st.waiting >> g.current_player & 1:
            return "the closing window waits for nobody it names"
        return None

    def anytime(self) -> tuple[Lister | None, dict[type, Handler]]:
        return self.list_matches, {MatchAction: self.do_match}

    def phases(self) -> dict[str, PhaseSpec]:
        if not self.closing:
            return {}
        return {CLOSING: PhaseSpec(self.list_closing, {Pass: self.do_pass}, open=False, waiting=self.waiting)}

    # ---------------------------------------------------------------- listing

    def blocked(self, g: Game, p: int) -> str | None:
        """Why ``p`` may not match now (besides the window itself), or ``None``."""
        if g.left >> p & 1:
            return "you have left the round"
        if self._plain:
            return None
        if not self.while_playing and p == g.current_player and g.phase in (HOLD, POWER, SWAP):
            return "no matching while you hold a drawn card or choose a power target"
        for hook in self._blockers:
            why = hook(g, p)
            if why is not None:
                return why
        return None

    def list_matches(self, g: Game, p: int, out: list[Action]) -> None:
        """One-card matches on every occupied slot."""
        st: MatchingState = g.ms[self.index]
        if (
            st.win == NO_CARD
            or st.tried[p] >= self.max_cards
            or (st.win_by >= 0 and st.win_by != p)
            or (p == g.caller and not self.caller_may_match)
        ):
            return
        if self._plain:
            if g.left >> p & 1:
                return
        elif self.blocked(g, p) is not None:
            return
        hand = g.hands[p]
        own = _OWN[p]
        if len(own) < len(hand):
            own = own_matches(p, len(hand))
        if NO_CARD in hand:
            mine = [own[s] for s, c in enumerate(hand) if c != NO_CARD]
            if not mine:
                return
            out.extend(mine)
        elif hand:  # no emptied slot: every slot, at C speed
            out.extend(own[: len(hand)])
        else:
            return
        if self._more:
            self.list_more(g, p, out)

    def list_more(self, g: Game, p: int, out: list[Action]) -> None:
        """More matches (opponent matching lists matches on others' cards here)."""

    # ---------------------------------------------------------------- applying

    def same(self, g: Game, c: int, win: int) -> bool:
        hook = g.rb.same_kind_hook
        if hook is None:
            if self.by == "rank":
                return g.rank[c] == g.rank[win]
            return g.value[c] == g.value[win]
        return g.rb.same_kind(g.cards[c], g.cards[win])

    def check_owner(self, g: Game, a: MatchAction, owner: int) -> None:
        """Whose cards ``a`` may throw (opponent matching widens this)."""
        if owner != a.player:
            raise IllegalAction("this ruleset lets you match only your own cards", a)

    def do_match(self, g: Game, a: MatchAction) -> list[Event]:
        p = a.player
        if not 0 <= p < g.players:
            raise IllegalAction(f"no player {p}", a)
        phase = g.phase
        if phase not in g.flow.open and phase != CLOSING:
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
        why = ("you have left the round" if g.left >> p & 1 else None) if self._plain else self.blocked(g, p)
        if why is not None:
            raise IllegalAction(why, a)
        if phase == CLOSING and not st.waiting >> p & 1:
            raise IllegalAction("you have had your last chance to match in this round", a)
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
                st.win_by = p
                events.append(Event("matched", facts))
        if wrong:
            g.deal_unseen(p, events, self.penalty * wrong)
        if (wrong or not late) and self._results:
            for hook in self._results:
                hook(g, p, not wrong)
        if owner != p and self.took(g, a, owner, events):
            return events
        if self._after or (g.phase == DRAW and not g.stock):  # (else nothing can follow from it)
            g.after_out_of_turn(events)
        if g.phase == CLOSING:
            self.closing_moves_on(g, events)
        return events

    def took(self, g: Game, a: MatchAction, owner: int, events: list[Event]) -> bool:
        """After a match: ``True`` if the round now waits for something (opponent matching's give)."""
        return False

    # ---------------------------------------------------------------- the flow

    def thrown(self, g: Game, card: int, how: str, events: list[Event]) -> bool:
        st: MatchingState = g.ms[self.index]
        st.win = card
        st.win_by = -1
        st.tried = [0] * g.players
        return False

    def discard_taken(self, g: Game, card: int) -> None:
        st: MatchingState = g.ms[self.index]
        if st.win == card:
            st.win = NO_CARD

    # ---------------------------------------------------------------- the closing window

    def round_ending(self, g: Game, events: list[Event]) -> bool:
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

    def _able(self, g: Game) -> int:
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
                and not g.empty(p)
                and self.blocked(g, p) is None
            ):
                mask |= 1 << p
        return mask

    def _next(self, g: Game) -> None:
        waiting = g.ms[self.index].waiting
        for i in range(1, g.players + 1):
            p = (g.current_player + i) % g.players
            if waiting >> p & 1:
                g.current_player = p
                return

    def waiting(self, g: Game) -> list[int]:
        waiting = g.ms[self.index].waiting
        return [p for p in range(g.players) if waiting >> p & 1]

    def list_closing(self, g: Game, p: int, out: list[Action]) -> None:
        if g.ms[self.index].waiting >> p & 1:
            self.list_matches(g, p, out)
            out.append(SEATS[p].pass_)

    def do_pass(self, g: Game, a: Pass) -> list[Event]:
        p = a.player
        st: MatchingState = g.ms[self.index]
        if not g.player_ok(p) or not st.waiting >> p & 1:
            raise IllegalAction("you are not asked to match or pass now", a)
        st.waiting &= ~(1 << p)
        events = [Event("passed", {"player": p, "phase": "closing"})]
        self.closing_moves_on(g, events)
        return events

    def closing_moves_on(self, g: Game, events: list[Event]) -> None:
        """After a match, a give or a pass in the closing window: the next seat to wait for, or the end."""
        st: MatchingState = g.ms[self.index]
        if st.win_by >= 0:  # the card was matched: nobody else may match it any more
            st.waiting &= 1 << st.win_by
        waiting = st.waiting
        for q in range(g.players):  # a layout emptied, or a player blocked meanwhile
            if waiting >> q & 1 and (g.empty(q) or (not self._plain and self.blocked(g, q) is not None)):
                waiting &= ~(1 << q)
        st.waiting = waiting
        if waiting:
            self._next(g)
        else:
            g.finish(Reason.CALLED, events)
