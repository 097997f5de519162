"""The table a mechanic sees: ``RoundTable``, everything a mechanic, a power or a check may use of a round.

The core passes its round (``tamalou.engine.round.Round``) to every mechanic, power and hook that takes a game;
these are annotated with ``RoundTable`` instead, so that mypy shows their author the contract and nothing else:

- **reading**: the round's fixed facts (``players``, the cards' ``text``, ``rank``, ``value``, ``power_of``), the
  places (``hands``, ``stock``, ``discard``, ``held``), who knows what (``knowers``), the turn (``phase``,
  ``current_player``, ``turn``, ``caller``...), and helpers (``occupied``, ``targets``, ``card_at``...);
- **moving cards** only through the moves that keep knowledge exact (``look``, ``show``, ``turn_up``, ``swap``,
  ``move``, ``throw_from``, ``place_held``, ``replace_from_stock``, ``deal_unseen``, ``penalty``, ``peek``,
  ``show_layout``);
- **changing the turn** through the transitions (``again``, ``end_play``, ``turn_over``, ``end_turn``,
  ``start_turn``, ``after_out_of_turn``, ``finish_last_turns``, ``finish``), and by setting the few fields a
  mechanic owns the meaning of: ``phase`` (a mechanic's own phase, or back to a saved one), ``current_player``
  (who acts in that phase), ``caller``, ``held_from``, and the bit masks ``left``, ``locked`` and ``sealed``.

Lists are typed ``Sequence`` (read them; change the table only through the moves) and the other fields as
read-only properties, but for those few. At run time a ``RoundTable`` is the round itself: no wrapper, no copy,
no cost (the compiled core is compiled against the round's own class: ``scripts/compile_hook.py``).

``RulesTable`` is what the table shows of the variant's rulebook (``g.rb``): the powers, the call threshold and the
two hooks mechanics ask. ``PhaseRows`` is the phase table (``g.flow``): which phases exist and which are open to
out-of-turn actions. ``docs/write-a-mechanic.md`` lists every member, generated from this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeGuard

if TYPE_CHECKING:
    from .actions import Action
    from .cards import Card
    from .events import Event
    from .schema import Variant

__all__ = ["MOVE_EFFECTS", "MoveEffect", "PhaseRow", "PhaseRows", "RoundTable", "RulesTable"]


class MoveEffect(NamedTuple):
    """What one of ``RoundTable``'s moves or transitions tells the table: the event types it may emit itself (the
    mechanics' moments it runs may emit more) and who learns which card."""

    events: tuple[str, ...]
    learns: str


#: Every move and transition of ``RoundTable``: the events it emits and who learns what (docs/write-a-mechanic.md
#: draws it as a table; ``tests/api/test_table_moves.py`` runs each move and checks the events and the knowledge).
MOVE_EFFECTS: Mapping[str, MoveEffect] = {
    "look": MoveEffect(("looked",), "`p` alone learns the card (the event's `card` is secret to `p`)"),
    "show": MoveEffect((), "every seat learns the card; no event: say it in an event of your own"),
    "turn_up": MoveEffect(("turned_up",), "every seat learns the card, which lies face up where it is"),
    "show_layout": MoveEffect((), "every seat learns each card of the layout; no event"),
    "swap": MoveEffect(
        ("swapped",), "nobody learns a card: every seat sees the places change, each card keeps its knowers"
    ),
    "move": MoveEffect((), "nobody learns a card; no event: say it in an event of your own"),
    "throw_from": MoveEffect((), "every seat learns the card, face up on the discard; no event"),
    "place_held": MoveEffect((), "nobody learns more: the card keeps its knowers (its holder saw it); no event"),
    "replace_from_stock": MoveEffect(
        ("replaced_from_stock", "reshuffled", "no_card"),
        "every seat learns the thrown card, and the new one when it lies face up; nobody, when face down",
    ),
    "deal_unseen": MoveEffect(
        ("penalty", "reshuffled", "no_penalty_card", "no_card"),
        "nobody learns the cards dealt (the event is `kind`, `penalty` by default)",
    ),
    "penalty": MoveEffect(("penalty", "reshuffled", "no_penalty_card"), "nobody learns the cards dealt"),
    "peek": MoveEffect(
        ("peeked", "turned_up"),
        "`p` alone learns the cards (the event's `cards` are secret to `p`); with `rules.peek.public`, every seat "
        "(a `turned_up` each)",
    ),
    "thrown": MoveEffect((), "nothing by itself: the mechanics' `thrown` moments run (a window, a power)"),
    "opening_done": MoveEffect(("turn", "skipped"), "nothing: the first turn starts (`start_turn`)"),
    "again": MoveEffect((), "nothing: the `turn_began` moments run again"),
    "end_play": MoveEffect(("turn", "skipped"), "nothing: `turn_over`, unless a mechanic goes on"),
    "turn_over": MoveEffect(("turn", "skipped"), "nothing: `end_turn`, unless a mechanic holds the turn"),
    "end_turn": MoveEffect(("turn", "skipped"), "nothing: `start_turn` of the next seat"),
    "start_turn": MoveEffect(("turn", "skipped", "round_over"), "nothing, unless the round ends (`finish`)"),
    "begin_last_lap": MoveEffect(("last_lap",), "nothing: every other seat plays once more"),
    "after_out_of_turn": MoveEffect(("round_over",), "nothing, unless the round ends (`finish`)"),
    "finish_last_turns": MoveEffect(("round_over",), "every seat learns every card left in a layout (`finish`)"),
    "finish": MoveEffect(
        ("round_over",),
        "every seat learns every card left in a layout and the held card; `round_over` gives the totals and hands",
    ),
    "auto_play": MoveEffect((), "what the move played for the seat tells (the phase's `auto`)"),
}


class RulesTable(Protocol):
    """What a mechanic reads of the variant's rulebook (``g.rb``)."""

    @property
    def variant(self) -> Variant:
        """The variant the rulebook was made for."""

    @property
    def threshold(self) -> int:
        """The call threshold (a total at or under it calls right: ``tamalou_call_threshold``)."""

    @property
    def powers(self) -> Mapping[str, Any]:
        """Every power of the variant by name: ``tamalou.powers.CardPower`` objects."""

    @property
    def same_kind_hook(self) -> object | None:
        """``None`` when no plugin implements ``tamalou_same_kind`` (a match is then of the same rank)."""

    @property
    def call_allowed_hook(self) -> object | None:
        """``None`` when no plugin implements ``tamalou_call_allowed`` (every call is then allowed)."""

    def same_kind(self, thrown: Card, top: Card) -> bool:
        """Whether ``thrown`` may be matched on ``top`` (``tamalou_same_kind``, else the same rank)."""

    def call_allowed(self, game: Any, player: int) -> bool:
        """Whether ``player`` may call now (``tamalou_call_allowed``, asked with their own view)."""


class PhaseRow(Protocol):
    """One phase of the phase table."""

    @property
    def waiting(self) -> Any:
        """Who the phase waits for (a function of the round), or ``None`` for the player to move."""


class PhaseRows(Protocol):
    """The variant's phase table (``g.flow``): its phases by name, and those open to out-of-turn actions."""

    @property
    def rows(self) -> Mapping[str, PhaseRow]:
        """Every phase of the variant by name: the core's and each mechanic's."""

    @property
    def open(self) -> frozenset[str]:
        """The phases open to out-of-turn actions (a match may come in)."""


class RoundTable(Protocol):
    """The round as a mechanic, a power or a hook sees it: what it may read, the moves that change the table
    with knowledge kept exact, and the turn transitions. Card ids index ``text``, ``rank``, ``value``,
    ``power_of``, ``cards`` and ``knowers``; a seat's layout is ``hands[p]``, a slot holding a card id or
    ``NO_CARD`` (-1) once emptied; bit masks have one bit per seat (``1 << p``)."""

    # ------------------------------------------------------------------ the round's fixed facts
    @property
    def players(self) -> int:
        """How many seats play."""

    @property
    def all_mask(self) -> int:
        """A bit per seat: every seat (``(1 << players) - 1``)."""

    @property
    def rules(self) -> Any:
        """The variant's rules (``variant.rules``)."""

    @property
    def rb(self) -> RulesTable:
        """The variant's rulebook, as mechanics see it."""

    @property
    def flow(self) -> PhaseRows:
        """The variant's phase table."""

    @property
    def cards(self) -> Sequence[Card]:
        """Card id -> its face."""

    @property
    def text(self) -> Sequence[str]:
        """Card id -> its text (``"KS"``)."""

    @property
    def rank(self) -> Sequence[str]:
        """Card id -> its rank."""

    @property
    def value(self) -> Sequence[int]:
        """Card id -> its points (the value hooks applied)."""

    @property
    def power_of(self) -> Sequence[str]:
        """Card id -> the name of its power (``"none"`` for none)."""

    @property
    def ms(self) -> Sequence[Any]:
        """Each mechanic's state in this round, by the mechanic's ``index`` (``g.ms[self.index]``)."""

    @property
    def first_player(self) -> int:
        """The deal's first player: the opening goes round from this seat, and so does the first turn unless a
        mechanic's ``opening_done`` chose another (``starter``)."""

    @property
    def starter(self) -> int | None:
        """The seat a mechanic's ``opening_done`` chose to play the first turn, or ``None``: ``first_player``
        played it."""

    @property
    def first_turn_player(self) -> int:
        """Who plays (or played) the round's first turn: ``starter``, else ``first_player``; turns go round
        from this seat."""

    # ------------------------------------------------------------------ where the cards are, who knows them
    @property
    def hands(self) -> Sequence[Sequence[int]]:
        """Per seat, per slot: a card id, or ``NO_CARD`` for an emptied slot."""

    @property
    def stock(self) -> Sequence[int]:
        """The stock's card ids, top last."""

    @property
    def discard(self) -> Sequence[int]:
        """The discard pile's card ids, top last."""

    @property
    def knowers(self) -> Sequence[int]:
        """Card id -> a bit mask of the seats who know it."""

    @property
    def held(self) -> int:
        """The card the player to move holds, or ``NO_CARD``."""

    @property
    def holder(self) -> int:
        """Who holds it (the turn's player, even while another acts out of turn), or -1."""

    held_from: str
    """``"stock"`` or ``"discard"`` while a card is held."""

    # ------------------------------------------------------------------ the turn
    phase: str
    """The phase the round is in: a ``Phase`` for a built-in one, a mechanic's own name for its own."""

    current_player: int
    """Who acts in the phase (the turn's player, or whoever a mechanic's phase waits for)."""

    @property
    def turn(self) -> int:
        """Turns played."""

    @property
    def draws(self) -> int:
        """Draws taken this turn."""

    @property
    def stock_only(self) -> bool:
        """Whether this turn's next draw must come from the stock."""

    caller: int | None
    """Who called, or ``None``."""

    @property
    def last_lap(self) -> int | None:
        """The seat whose move began a last lap without a call, or ``None``."""

    @property
    def last_lap_reason(self) -> str:
        """The reason the round ends with when the last lap is over (``""`` without one)."""

    left: int
    """A bit mask of the seats out of the round (ranked last, never aimed at)."""

    locked: int
    """A bit mask of the layouts nobody may exchange cards with."""

    sealed: int
    """A bit mask of the layouts nobody may aim at at all (no look, exchange, match or give)."""

    @property
    def now(self) -> float:
        """The game's time in seconds (timed rulesets; time is an input)."""

    @property
    def to_act(self) -> list[int]:
        """The seats the round waits for now."""

    # ------------------------------------------------------------------ reading helpers
    def state_of(self, name: str) -> Any:
        """The state of the mechanic called ``name`` in this round (``None`` if it plays no part)."""

    def phase_beneath(self) -> tuple[str, int]:
        """The phase and the player beneath any interruption (``Mechanic.resumes``)."""

    def phase_named(self, name: str) -> str:
        """The phase called ``name`` (a ``Phase`` for a built-in one), to go back to a saved phase."""

    def player_ok(self, p: object) -> TypeGuard[int]:
        """Whether ``p`` is a seat of this round."""

    def slot_ok(self, p: int, s: object) -> bool:
        """Whether ``s`` is an occupied slot of ``p``."""

    def occupied(self, player: int) -> list[int]:
        """The slots of ``player`` that hold a card."""

    def face_down(self, player: int) -> list[int]:
        """``player``'s occupied slots whose card lies face down."""

    def card_count(self, player: int) -> int:
        """How many cards ``player``'s layout holds."""

    def empty(self, player: int) -> bool:
        """Whether ``player``'s layout holds no card."""

    def total(self, player: int) -> int:
        """The true card total of ``player`` (full information: not for a player's eyes)."""

    def card_at(self, owner: int, slot: int) -> int:
        """The card id in ``owner``'s ``slot`` (``NO_CARD`` if emptied)."""

    def is_up(self, owner: int, slot: int) -> bool:
        """Whether the card in ``owner``'s ``slot`` lies face up."""

    def unaimable(self, exchanging: bool = False) -> int:
        """The seats nobody may aim at now, as a bit mask."""

    def targets(self, p: int, exchanging: bool = False) -> list[int]:
        """The other seats ``p`` may aim at."""

    def targetable(self, p: int, q: int, exchanging: bool = False) -> bool:
        """Whether ``q`` is one of ``targets(p, exchanging)``."""

    def can_draw_stock(self) -> bool:
        """Whether a card can be drawn from the stock (or the discard reshuffled into one)."""

    def can_draw_discard(self, p: int) -> bool:
        """Whether ``p`` may take the discard's top card now."""

    def turn_check(self, a: Action) -> int:
        """The player of a turn action, who must be the player to move (else ``IllegalAction``)."""

    # ------------------------------------------------------------------ moves that keep knowledge exact
    def look(self, p: int, owner: int, slot: int, events: list[Event]) -> int:
        """Show ``p`` alone the card in ``owner``'s ``slot``; returns its id."""

    def show(self, card: int) -> None:
        """Every seat knows ``card`` (a card in a layout stays face down)."""

    def turn_up(self, owner: int, slot: int, events: list[Event], by: int | None = None) -> int:
        """Turn the card in ``owner``'s ``slot`` face up where it lies; returns its id."""

    def show_layout(self, p: int) -> None:
        """Every card of ``p``'s layout face up for everyone."""

    def swap(self, by: int, a: tuple[int, int], b: tuple[int, int], events: list[Event]) -> None:
        """Exchange two placed cards (``(owner, slot)`` each) for ``by``; each keeps its knowers."""

    def move(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Move the card in ``a`` into the empty place ``b``, unseen; returns its id."""

    def throw_from(self, owner: int, slot: int) -> int:
        """Put the card in ``owner``'s ``slot`` face up on the discard; returns its id."""

    def place_held(self, slot: int | None = None) -> int:
        """Put the held card into its holder's ``slot`` (or a new slot); returns the slot."""

    def replace_from_stock(
        self, owner: int, slot: int, events: list[Event], *, face_up: bool = False, by: int | None = None
    ) -> int:
        """Replace the card in ``owner``'s ``slot`` with the stock's top, in public (the old card thrown, the new one
        face up or unseen); returns the new card's id (``NO_CARD``: no card left, nothing moved)."""

    def deal_unseen(
        self, p: int, events: list[Event], count: int = 1, *, kind: str = "penalty", by: int | None = None
    ) -> int:
        """Deal ``count`` cards from the stock to ``p``, face down and unseen; returns how many."""

    def penalty(self, p: int, count: int, events: list[Event]) -> None:
        """``count`` penalty cards for ``p`` (stops when no card is left)."""

    def peek(self, p: int, slots: Sequence[int], events: list[Event]) -> None:
        """An opening peek: ``p`` sees their own ``slots``."""

    # ------------------------------------------------------------------ turn transitions
    def thrown(self, card: int, how: str, events: list[Event]) -> None:
        """A card a turn threw landed on the discard: mechanics react (a matching window, a power)."""

    def opening_done(self, events: list[Event]) -> None:
        """The opening is over: mechanics' ``opening_done`` may choose who plays first; the first turn starts."""

    def begin_last_lap(self, p: int, reason: str, events: list[Event]) -> bool:
        """``p``'s move ends the round without a call: every other seat plays once more (``False``: called already)."""

    def again(self, p: int, events: list[Event], *, stock_only: bool = False) -> None:
        """``p`` draws once more in this turn (``stock_only``: from the stock); the ``turn_began`` moments run
        again (not ``prepare_turn`` nor ``skip_turn``)."""

    def end_play(self, events: list[Event]) -> None:
        """The drawn card is resolved: a mechanic may go on, else the turn ends."""

    def turn_over(self, events: list[Event]) -> None:
        """The turn's play is done: a mechanic may hold it (the end-of-turn call), else it passes."""

    def end_turn(self, events: list[Event]) -> None:
        """The turn passes to the next seat."""

    def start_turn(self, p: int, events: list[Event]) -> None:
        """``p``'s turn starts, or the next one that can be played; or the round ends."""

    def after_out_of_turn(self, events: list[Event]) -> None:
        """An out-of-turn action changed the layouts: mechanics may end the round."""

    def finish_last_turns(self, events: list[Event]) -> None:
        """The last turns after a call or a last lap are over: the round ends."""

    def finish(self, reason: str, events: list[Event]) -> None:
        """The round ends with ``reason``: every layout is shown, the result computed."""

    def auto_play(self, events: list[Event]) -> None:
        """Play the move the phase table says for a seat that ran out of time (one step)."""
