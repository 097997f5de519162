"""The flow of a round: the core's rows of the phase table and the turn's transitions, the only
writer of the phase.

The core plays the bare turn — **draw** (from the stock, or the discard top) then **hold** (replace a
slot with the held card, or throw it) — and the end of the round. Everything else is a mechanic
(``tamalou.mechanics``) that adds phases, actions and reactions to the moments below:

    begin ─▶ start_turn(p) ─▶ DRAW ─Draw─▶ HOLD ─Replace/Discard─▶ thrown(card)
                 ▲                                                   │ a mechanic may take the phase
                 │                                                   ▼ (a power) and come back
             end_turn ◀── turn_over (turn_ending: the call) ◀── end_play (play_resolved: a 2nd draw)

    start_turn: the turn back to the caller (or to the player who began a last lap: begin_last_lap) → round_ending
                (countdown, closing window) or finish
                the turn limit → finish; a player out of the round or skipped → the next one
                nothing to play at all → finish("no_card_to_draw")

``phases.py`` merges the core's rows (``core_rows``) with every mechanic's ``PhaseSpec`` once per variant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._compiling import mypyc_attr
from ..actions import Action, Discard, Draw, Pass, Replace, Tick
from ..errors import GameStateError, IllegalAction
from ..events import Event
from ..mechanic import PhaseSpec
from .seats import SEATS
from .state import DRAW, HOLD, MAX_REASON, NO_CARD, OVER, Judged, Reason
from .table import Table

if TYPE_CHECKING:
    from ..schema import Variant
    from ..views import Result


@mypyc_attr(allow_interpreted_subclasses=True)
class Flow(Table):
    """The phase table's core rows and the turn's transitions."""

    __slots__ = ()

    # ----------------------------------------------------------------------------- checks

    def turn_check(self, a: Action) -> int:
        """The player of a turn action, who must be the player to move."""
        p = a.player
        if p != self.current_player:
            raise IllegalAction(f"it is player {self.current_player}'s turn, not player {p}'s", a)
        return p

    def can_draw_discard(self, p: int) -> bool:
        rb = self.rb
        if not self.discard or not rb.from_discard or self.stock_only:
            return False
        if rb.discard_forbidden and self.rank[self.discard[-1]] in rb.discard_forbidden:
            return False
        if not rb.must_replace:
            return True
        hand = self.hands[p]
        return hand.count(NO_CARD) != len(hand)  # (not ``self.empty(p)``: a call less, at every listing)

    def why_not_discard(self, p: int) -> str:
        if not self.discard:
            return "the discard is empty"
        if not self.rb.from_discard:
            return "this ruleset does not let you draw from the discard"
        if self.stock_only:
            return "this draw must come from the stock"
        if self.rank[self.discard[-1]] in self.rb.discard_forbidden:
            return f"a {self.rank[self.discard[-1]]} cannot be taken from the discard"
        return "a card taken from the discard must replace one of yours, and you have none"

    def may_discard_held(self, p: int) -> bool:
        if self.held_from != "discard" or not self.rb.must_replace:
            return True
        return self.empty(p)  # nowhere to put it: it goes back

    def has_play(self, p: int) -> bool:
        """Whether a turn of ``p`` starting now has something to play: a draw, a forced move, or
        what a mechanic offers instead of a draw. If not, nothing can be drawn at all."""
        if self.stock or self.can_draw_stock() or self.can_draw_discard(p):
            return True
        for guard in self.flow.rows[DRAW].guards:
            if guard(self, p) is not None:
                return True
        return any(h(self, p) for h in self.rb.hooks.can_open_turn)

    # ----------------------------------------------------------------------------- the core's rows

    def list_draw(self, p: int, out: list[Action]) -> None:
        if p != self.current_player:
            return
        acts = SEATS[p]
        rb = self.rb
        discard = self.discard
        if self.stock or (rb.reshuffle and len(discard) > 1):
            out.append(acts.draw_stock)
        if discard and self.can_draw_discard(p):
            out.append(acts.draw_discard)

    def list_hold(self, p: int, out: list[Action]) -> None:
        if p != self.current_player:
            return
        acts = SEATS[p]
        hand = self.hands[p]
        replace = acts.replace
        if len(replace) < len(hand):
            replace = acts.replaces(len(hand))
        if NO_CARD in hand:
            out.extend([replace[s] for s, c in enumerate(hand) if c != NO_CARD])
        else:
            out.extend(replace[: len(hand)])
        if self.may_discard_held(p):
            out.append(acts.discard)

    def do_draw(self, a: Draw) -> list[Event]:
        p = a.player
        if p != self.current_player:
            raise IllegalAction(f"it is player {self.current_player}'s turn, not player {p}'s", a)
        events: list[Event] = []
        if a.source == "stock":
            if not self.stock and not self.reshuffle_possible():
                raise IllegalAction("the stock is empty", a)
            c = self.draw_stock(p, events)
            events.append(Event("drew", {"player": p, "source": "stock"}, {"card": self.text[c]}, 1 << p))
        elif a.source == "discard":
            if not self.can_draw_discard(p):
                raise IllegalAction(self.why_not_discard(p), a)
            c = self.take_discard()
            events.append(Event("drew", {"player": p, "source": "discard", "card": self.text[c]}))
        else:  # pragma: no cover - the action's own check refuses other sources
            raise IllegalAction(f"draw from 'stock' or 'discard', not {a.source!r}", a)
        self.held = c
        self.holder = p
        self.held_from = a.source
        self.draws += 1
        self.phase = HOLD
        return events

    def do_replace(self, a: Replace) -> list[Event]:
        p = a.player
        if p != self.current_player:
            raise IllegalAction(f"it is player {self.current_player}'s turn, not player {p}'s", a)
        hand = self.hands[p]
        s = a.slot
        if not 0 <= s < len(hand) or hand[s] == NO_CARD:
            raise IllegalAction(f"slot {s} of player {p} holds no card", a)
        old = self.throw_from(p, s)
        self.place_held(s)
        events = [Event("replaced", {"player": p, "slot": a.slot, "card": self.text[old]})]
        if self.rb.placed_face_up:  # rules.draw.placed = "face_up"
            self.turn_up(p, s, events)
        self.thrown(old, "replaced", events)
        return events

    def do_discard(self, a: Discard) -> list[Event]:
        p = self.turn_check(a)
        if not self.may_discard_held(p):
            raise IllegalAction("a card taken from the discard must replace one of yours", a)
        return self.throw_held(p)

    def throw_held(self, p: int) -> list[Event]:
        c = self.held
        self.held = NO_CARD
        self.holder = -1
        self.throw(c)
        events = [Event("discarded", {"player": p, "card": self.text[c]})]
        self.thrown(c, "discarded", events)
        return events

    def do_tick(self, a: Tick) -> list[Event]:
        """Time passes (``apply`` brought the game to ``a.at``): nothing else happens."""
        return []

    def auto_draw(self, events: list[Event]) -> None:
        """Time ran out in the draw phase: draw from the stock (the held card is thrown next), or, with
        nothing to draw or a draw already taken, decline."""
        p = self.current_player
        acts = SEATS[p]
        if self.draws == 0 and self.can_draw_stock():
            events.extend(self.do_draw(acts.draw_stock))
            return
        handler = self.flow.rows[DRAW].handlers.get(Pass)
        if self.draws > 0 and handler is not None:
            events.extend(handler(self, acts.pass_))
            return
        events.append(Event("passed", {"player": p, "phase": "draw"}))
        self.end_turn(events)

    def auto_hold(self, events: list[Event]) -> None:
        """Time ran out holding a card: throw it (Decided: a card taken from the discard goes back)."""
        events.extend(self.throw_held(self.current_player))

    def final_result(self) -> Result:
        """The round's result as the game keeps it (``Round.final_result``)."""
        raise NotImplementedError

    def result(self) -> Result:
        """The round's result, a copy (``Round.result``)."""
        raise NotImplementedError

    def copy(self) -> Flow:
        """An independent copy of the round (``Round.copy``)."""
        raise NotImplementedError

    def init_runtime(self, variant: Variant, players: int) -> None:
        """What a round holds besides its saved state: its variant, rulebook, phase table (``Round.init_runtime``)."""
        raise NotImplementedError

    # ----------------------------------------------------------------------------- who acts

    @property
    def rules(self) -> Any:
        """The variant's rules (``variant.rules``)."""
        return self.variant.rules

    def state_of(self, name: str) -> Any:
        """The state of the mechanic called ``name`` in this game (``None`` if it plays no part)."""
        for m in self.rb.mechanics:
            if m.name == name:
                return self.ms[m.index]
        return None

    def auto_play(self, events: list[Event]) -> None:
        """Play the move the phase table says for a player who ran out of time (one step)."""
        auto = self.flow.rows[self.phase].auto
        if auto is None:
            raise GameStateError(f"nothing to play for a player in phase {str(self.phase)!r}")
        auto(self, events)

    @property
    def to_act(self) -> list[int]:
        """The seats the round waits for now: the player to move in a turn; every player yet to choose
        their opening peek; the one who owes a card; in a closing window, those who have not matched or
        passed; in a time-only phase (a timed opening, a countdown), every seat (``legal_actions`` then
        lists ``Tick`` to the deadline). Others may still act out of turn (a match): ask
        ``legal_actions``."""
        if self.phase == OVER:
            return []
        waiting = self.flow.rows[self.phase].waiting
        return [self.current_player] if waiting is None else waiting(self)

    def phase_beneath(self) -> tuple[str, int]:
        """The phase and the player the round is in beneath any interruption (see
        ``Mechanic.resumes``): ``(phase, current_player)`` when nothing interrupted the turn."""
        for m in self.rb.mechanics:
            st = self.ms[m.index]
            back = m.resumes(self, st) if st is not None else None
            if back is not None:
                return back
        return self.phase, self.current_player

    def judged(self) -> Judged:
        """The round's end as the hooks judged it (``Round.judged``)."""
        raise NotImplementedError

    # ----------------------------------------------------------------------------- transitions

    def begin(self, events: list[Event]) -> None:
        """The deal is done: a mechanic's opening, or the first turn."""
        for hook in self.rb.hooks.begin:
            if hook(self, events):
                return
        self.opening_done(events)

    def opening_done(self, events: list[Event]) -> None:
        """The opening is over (a mechanic's opening calls this when it ends; a round without one, right after the
        deal): a mechanic's ``opening_done`` may choose who plays the first turn (the first seat it names wins,
        kept in ``starter``), else the first player does; the first turn starts."""
        first = self.first_player
        for hook in self.rb.hooks.opening_done:
            chosen = hook(self, events)
            if chosen is not None:
                if type(chosen) is not int or not 0 <= chosen < self.players:
                    raise ValueError(f"opening_done chooses a seat from 0 to {self.players - 1}, not {chosen!r}")
                first = chosen
                self.starter = chosen
                break
        self.start_turn(first, events)

    @property
    def first_turn_player(self) -> int:
        """Who plays (or played) the round's first turn: the seat ``opening_done`` chose, else the first player."""
        return self.first_player if self.starter is None else self.starter

    def thrown(self, card: int, how: str, events: list[Event]) -> None:
        """A card a turn threw landed on the discard: mechanics react (a matching window, a power)."""
        for hook in self.rb.hooks.thrown:
            if hook(self, card, how, events):
                self.held_from = ""
                return
        self.held_from = ""
        self.end_play(events)

    def end_play(self, events: list[Event]) -> None:
        """The drawn card is resolved: a mechanic may go on (a second draw), else the turn ends."""
        for hook in self.rb.hooks.play_resolved:
            if hook(self, events):
                return
        self.turn_over(events)

    def turn_over(self, events: list[Event]) -> None:
        """The turn's play is done: a mechanic may hold it (the end-of-turn call), else it passes."""
        for hook in self.rb.hooks.turn_ending:
            if hook(self, events):
                return
        self.end_turn(events)

    def again(self, p: int, events: list[Event], *, stock_only: bool = False) -> None:
        """``p`` draws once more in this turn (a power's "play again"; ``stock_only``: from the stock):
        the turn starts over from its draw, its clock included."""
        self.phase = DRAW
        self.draws = 0
        self.stock_only = stock_only
        for hook in self.rb.hooks.turn_began:
            hook(self, p, events)

    def begin_last_lap(self, p: int, reason: str, events: list[Event]) -> bool:
        """``p``'s move ends the round without a call: every other player plays one more turn, then the round ends
        with ``reason`` (when the turn comes back to ``p``, as a called round does: mechanics' ``round_ending`` may
        hold it open). An event ``last_lap`` says so. ``False``, and nothing happens, when the round is called or
        in its last lap already."""
        if self.caller is not None or self.last_lap is not None:
            return False
        if not isinstance(reason, str) or not reason or len(reason) > MAX_REASON:
            raise ValueError(f"a last lap's reason is a few words (1 to {MAX_REASON} characters), not {reason!r}")
        self.last_lap = p
        self.last_lap_reason = reason
        events.append(Event("last_lap", {"player": p, "reason": reason}))
        return True

    def finish_last_turns(self, events: list[Event]) -> None:
        """The last turns after a call or a last lap are over (and whatever a mechanic's ``round_ending`` held
        open: a countdown, a closing window): the round ends, with the reason ``called``, or the last lap's."""
        self.finish(self.last_lap_reason if self.last_lap is not None else Reason.CALLED, events)

    def end_turn(self, events: list[Event]) -> None:
        self.turn += 1
        self.start_turn((self.current_player + 1) % self.players, events)

    def start_turn(self, p: int, events: list[Event]) -> None:
        """``p``'s turn starts, or the next one that can be played; or the round ends."""
        self.held = NO_CARD
        self.holder = -1
        self.held_from = ""
        self.draws = 0
        self.stock_only = False
        hooks = self.rb.hooks
        for _ in range(self.players + 1):
            # Who ends the round when the turn comes back to them: the caller, or who began a last lap (never both;
            # asked again at each seat: a skipped turn may be an automatic call).
            ender = self.caller if self.caller is not None else self.last_lap
            if ender is not None and p == ender:
                for hook in hooks.round_ending:
                    if hook(self, events):
                        return
                self.finish_last_turns(events)
                return
            if self.turn >= self.rb.max_turns:
                self.finish(Reason.TURN_LIMIT, events)
                return
            self.current_player = p
            self.phase = DRAW
            skip = "out" if self.left >> p & 1 else None
            if skip is None:
                for skipper in hooks.skip_turn:
                    skip = skipper(self, p)
                    if skip is not None:
                        events.append(Event("skipped", {"player": p, "reason": skip}))
                        break
            if skip is not None:
                self.turn += 1
                p = (p + 1) % self.players
                continue
            for prepare in hooks.prepare_turn:
                prepare(self, p)
            if self.stock or self.has_play(p):  # (a stock to draw from: no need to ask more)
                events.append(Event("turn", {"player": p, "turn": self.turn}))
                for began in hooks.turn_began:
                    began(self, p, events)
                return
            self.finish(Reason.NO_CARD_TO_DRAW, events)
            return
        self.finish(Reason.NO_PLAYER_LEFT, events)  # pragma: no cover - the caller check stops earlier

    def after_out_of_turn(self, events: list[Event]) -> None:
        """A match or a give changed the layouts, or a penalty took the last card the player to move
        could draw: mechanics may end the round (an emptied layout), and so may an empty stock."""
        for hook in self.rb.hooks.after_out_of_turn:
            hook(self, events)
            if self.phase == OVER:
                return
        if self.phase == DRAW and self.draws == 0 and not self.stock and not self.has_play(self.current_player):
            self.finish(Reason.NO_CARD_TO_DRAW, events)

    def finish(self, reason: str, events: list[Event]) -> None:
        """The round ends: every card in a layout is shown, the result is computed."""
        self.phase = OVER
        self.reason = str(reason)
        for scoring in self.rb.hooks.before_scoring:
            scoring(self, events)
        for hook in self.rb.hooks.finished:
            hook(self, events)
        for p in range(self.players):
            self.show_layout(p)
        if self.held != NO_CARD:
            self.show(self.held)
        totals, winners, ranking, _, _ = self.judged()
        events.append(
            Event(
                "round_over",
                {
                    "reason": self.reason,
                    "totals": list(totals),
                    "winners": list(winners),
                    "ranking": [list(place) for place in ranking],
                    "caller": self.caller,
                    "hands": [self.layout(p) for p in range(self.players)],
                },
            )
        )


def core_rows() -> dict[str, PhaseSpec]:
    """The core's two rows of the phase table: **draw** (from the stock, or the discard top) and **hold** (replace
    a slot with the held card, or throw it); ``phases.PhaseTable`` merges them with every mechanic's."""
    return {
        DRAW: PhaseSpec(Flow.list_draw, {Draw: Flow.do_draw}, open=True, auto=Flow.auto_draw),
        HOLD: PhaseSpec(
            Flow.list_hold, {Replace: Flow.do_replace, Discard: Flow.do_discard}, open=True, auto=Flow.auto_hold
        ),
    }
