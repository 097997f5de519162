"""How mechanics plug into the core: the ``Mechanic`` base class and the phase table.

A mechanic is one optional part of the rules (matching, powers, the call, a timed clock, a second
draw...). It is a class registered by a plugin through the hook ``tamalou_mechanics()``; the rulebook
makes one instance per variant whose ``wanted(variant)`` is true (in ``order``), and the core calls
the methods it overrides — a method left as the base class's costs nothing, it is never called.

A mechanic keeps no per-game state on itself: its ``new_state(game)`` returns an object with the
game's state of this mechanic (its attributes named in that object's ``__slots__``), reached with
``game.ms[self.index]`` (or ``game.state_of(name)``). Snapshots save those slots.

Every method takes the game first (``g``: the table primitives of ``tamalou.engine.table.Table``
and the flow of ``tamalou.engine.flow.Flow``). ``events`` is the list of events the action returns:
append to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ._compiling import mypyc_attr
from .schema.settings import settings_of

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .actions import Action
    from .events import Event
    from .powers import CardWorth
    from .round_table import RoundTable
    from .schema import Variant
    from .views import SeatInfo, SeatView

# The game is passed as ``Any`` here: the core calls these with itself, mechanics annotate it ``RoundTable``.
Lister = Callable[[Any, int, list["Action"]], None]
Handler = Callable[[Any, Any], list["Event"]]
Guard = Callable[[Any, int], "tuple[list[Action], str] | None"]


class PhaseSpec:
    """What a mechanic says of one phase: the actions it lists there, the action types it handles
    there, and, for the phase's owner, whether out-of-turn actions (matches) may come in
    (``open``), who the phase waits for (``waiting``), and what the clock plays for a player who ran
    out of time (``auto``)."""

    __slots__ = ("auto", "guard", "handlers", "lister", "open", "waiting")

    def __init__(
        self,
        lister: Lister | None = None,
        handlers: dict[type, Handler] | None = None,
        *,
        open: bool | None = None,
        waiting: Callable[[Any], list[int]] | None = None,
        auto: Callable[[Any, list[Event]], None] | None = None,
        guard: Guard | None = None,
    ) -> None:
        self.lister = lister
        self.handlers = handlers or {}
        self.open = open
        self.waiting = waiting
        self.auto = auto
        self.guard = guard


class PhaseEntry:
    """One row of the phase table, merged from the core's and every mechanic's ``PhaseSpec``."""

    __slots__ = ("auto", "everyone", "guards", "handlers", "listers", "open", "out_of_turn", "waiting")

    def __init__(self) -> None:
        self.listers: list[Lister] = []
        self.handlers: dict[type, Handler] = {}
        self.open = False
        self.waiting: Callable[[Any], list[int]] | None = None
        self.auto: Callable[[Any, list[Event]], None] | None = None
        self.guards: list[Guard] = []
        #: Filled by the phase table: the out-of-turn listers if the phase is open, and every lister.
        self.out_of_turn: tuple[Lister, ...] = ()
        self.everyone: tuple[Lister, ...] = ()

    def add(self, spec: PhaseSpec, who: str) -> None:
        if spec.lister is not None:
            self.listers.append(spec.lister)
        for cls, handler in spec.handlers.items():
            if cls in self.handlers:
                raise ValueError(f"{who}: two mechanics handle {cls.__name__} in the same phase")
            self.handlers[cls] = handler
        if spec.open is not None:
            self.open = spec.open
        if spec.waiting is not None:
            self.waiting = spec.waiting
        if spec.auto is not None:
            self.auto = spec.auto
        if spec.guard is not None:
            self.guards.append(spec.guard)


# Mechanics are subclasses in Python (plugins' too), also when the core is compiled by mypyc.
#: The version of the mechanic contract: the methods and class attributes of ``Mechanic`` (the moments, the state,
#: the phases, the views: ``view``, ``view_model``, ``view_extra``; the search: ``resample``; the bots: ``hint``,
#: ``place_worth``,
#: added without breaking any mechanic) and what the core does with them. A change that would break a mechanic
#: written against them raises it (docs/write-a-mechanic.md).
MECHANIC_CONTRACT = 1


@mypyc_attr(allow_interpreted_subclasses=True)
class Mechanic:
    """Base class of mechanics. Override what the mechanic needs; see each method's docstring.

    Class attributes: ``name`` (unique, how ``game.state_of(name)`` finds its state), ``order``
    (mechanics are asked in increasing order where order matters: e.g. a card thrown opens the
    matching window (10) before its power is offered (20); a second draw (10) is offered before the
    end-of-turn call (20)), ``actions`` (the action classes it brings: registered for parsing,
    JSON Schema and snapshots), ``view_model``, ``title`` and ``event_texts`` (its words), ``options_model``
    (its settings in the variant file, read into ``self.options``).
    """

    name: ClassVar[str] = ""
    order: ClassVar[int] = 100
    actions: ClassVar[tuple[type[Action], ...]] = ()
    #: The pydantic model of what this mechanic shows a seat besides ``PlayerView``'s own fields
    #: (``view_extra``; ``PlayerView.extra[name]``), for validation and the JSON Schema; ``None``: nothing.
    view_model: ClassVar[type[BaseModel] | None] = None
    #: What it does, in words for a player (``tamalou show`` prints it beside its name); "": nothing said.
    title: ClassVar[str] = ""
    #: How a slot its rule empties came to be empty, in words for the legend of a result (``tamalou play``):
    #: "matched away", "cleared with its column"; "": it empties no slot.
    emptied_words: ClassVar[str] = ""
    #: Words for the events it emits (``Event.describe``, the log of ``tamalou play``): event type -> a
    #: ``str.format`` template over the event's facts, e.g. ``{"flipped": "{player} flips slot {slot}: {card}"}``.
    event_texts: ClassVar[dict[str, str]] = {}
    #: The pydantic model of this mechanic's settings, which a variant file writes in the table
    #: ``[options.<name>]`` (validated at load: a wrong key is a ``VariantError`` naming ``options.<name>.<key>``;
    #: no table: the model's defaults). ``None``: the mechanic takes no settings (a table for it is an error).
    options_model: ClassVar[type[BaseModel] | None] = None

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        #: Its settings for ``variant``: an instance of ``options_model`` (``None`` if it declares none).
        self.options: Any = type(self).options_of(variant)
        self.index = -1  # set by the rulebook: where its state is in ``game.ms``
        #: Hook points this instance leaves out although its class overrides them (a key makes them
        #: moot for this variant): the core then never calls them.
        self.idle: set[str] = set()

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        """Whether this mechanic plays a part in ``variant`` (asked once, when the variant is loaded)."""
        return True

    @classmethod
    def options_of(cls, variant: Variant) -> Any:
        """This mechanic's settings in ``variant``: its table ``[options.<name>]`` validated by ``options_model``
        (the model's defaults if the table is not there); ``None`` if the mechanic declares no model. Raises
        ``VariantError`` (key ``options.<name>``, the ``ValidationError`` as its cause) if the table is wrong.
        ``wanted`` may ask it (a mechanic that plays a part only with some settings)."""
        return settings_of(cls.options_model, variant, cls.name, "mechanic")

    def bind(self, rb: MechanicRules) -> None:
        """The variant's rulebook is complete (every mechanic, hook and power is known): prepare what
        depends on the others, once. The mechanic is shared by every game of the variant, on any
        thread: after this it must not change."""

    # ---------------------------------------------------------------- state and phases

    def new_state(self, g: RoundTable) -> Any:
        """A fresh per-game state object for this mechanic (``None``: it keeps none)."""
        return None

    def check_state(self, g: RoundTable, st: Any) -> str | None:
        """What is wrong with a restored state ``st`` of this mechanic in ``g`` (a snapshot from storage
        may be damaged or forged), or ``None``: values in range, and what its phases need."""
        return None

    def resumes(self, g: RoundTable, st: Any) -> tuple[str, int] | None:
        """If the round is held in a phase of this mechanic that interrupted another (a give owed in
        the middle of someone's turn), the phase and the player it goes back to; else ``None``.
        Other mechanics' checks of a restored state read it through ``game.phase_beneath()``."""
        return None

    def phases(self) -> dict[str, PhaseSpec]:
        """The phases this mechanic owns or adds actions to (a phase name -> ``PhaseSpec``)."""
        return {}

    def anytime(self) -> tuple[Lister | None, dict[type, Handler]]:
        """Out-of-turn actions: a lister asked in every *open* phase, and handlers for action types
        accepted in any phase (they check the phase themselves)."""
        return None, {}

    def view(self, g: RoundTable, p: int) -> dict[str, Any]:
        """Fields of ``PlayerView`` this mechanic fills for viewer ``p`` (only what ``p`` may see)."""
        return {}

    def resample(self, g: RoundTable, info: SeatInfo) -> None:
        """``g`` is a game rebuilt from one seat's information (``info``: its view and legal actions; ISMCTS's
        determinization, as OpenSpiel's ``resample_from_infostate``), with this mechanic's fresh state
        (``new_state``) in ``g.ms[self.index]``: set that state to what the seat's information says, the rest as
        a new turn would have it (the search contract, docs/write-a-mechanic.md). ``g`` is then checked as a
        snapshot. Called only if overridden."""

    def view_extra(self, g: RoundTable, p: int) -> dict[str, Any]:
        """What this mechanic shows viewer ``p`` besides ``PlayerView``'s fields (only what ``p`` may see): the
        fields of its ``view_model``, as plain JSON values, in ``PlayerView.extra[self.name]`` (the views
        contract, docs/write-a-mechanic.md). Called only if overridden."""
        return {}

    # ---------------------------------------------------------------- the round's flow
    # Each of these is called only if the mechanic overrides it.

    def begin(self, g: RoundTable, events: list[Event]) -> bool:
        """The deal is done. Return ``True`` if this mechanic takes the round into a phase of its own
        (an opening peek); the first one that does wins, else the first turn starts."""
        return False

    def opening_done(self, g: RoundTable, events: list[Event]) -> int | None:
        """The opening is over (every opening peek done, a timed opening's end; right after the deal in a round
        without one), the first turn is about to start: return a seat to have it play first (the highest
        opening cards start), or ``None`` to let the first player (``g.first_player``) start. The first mechanic
        that names a seat wins; ``g.starter`` keeps it, and turns go round from it."""
        return None

    def thrown(self, g: RoundTable, card: int, how: str, events: list[Event]) -> bool:
        """A turn threw ``card`` on the discard (``how``: "discarded" the held card, or "replaced" a
        slot's card). Return ``True`` if this mechanic takes the phase (a power is offered): the turn
        then goes on when it calls ``g.end_play(events)``."""
        return False

    def discard_taken(self, g: RoundTable, card: int) -> None:
        """The discard's top card ``card`` was taken."""

    def swapped(self, g: RoundTable, by: int) -> None:
        """Two placed cards were exchanged by ``by``."""

    def play_resolved(self, g: RoundTable, events: list[Event]) -> bool:
        """The drawn card is resolved. Return ``True`` to keep the turn going (a second draw)."""
        return False

    def turn_ending(self, g: RoundTable, events: list[Event]) -> bool:
        """The turn is about to pass. Return ``True`` to hold it in a phase (the end-of-turn call);
        that phase ends with ``g.end_turn(events)``."""
        return False

    def round_ending(self, g: RoundTable, events: list[Event]) -> bool:
        """The turn came back to the caller (or to the player who began a last lap): the round would end. Return
        ``True`` to hold it open (a
        countdown, a closing window); it then ends with ``g.finish_last_turns(events)``."""
        return False

    def skip_turn(self, g: RoundTable, p: int) -> str | None:
        """A reason to skip ``p``'s turn (an event says it), or ``None``."""
        return None

    def prepare_turn(self, g: RoundTable, p: int) -> None:
        """``p``'s turn is about to start (before it is checked that ``p`` has something to play)."""

    def can_open_turn(self, g: RoundTable, p: int) -> bool:
        """Whether ``p`` has a way to play this turn other than drawing (a passed-on power)."""
        return False

    def turn_began(self, g: RoundTable, p: int, events: list[Event]) -> None:
        """``p``'s turn started (its ``turn`` event is out)."""

    def after_out_of_turn(self, g: RoundTable, events: list[Event]) -> None:
        """A match or a give changed the layouts (the round may have to end: see ``g.finish``)."""

    def before_scoring(self, g: RoundTable, events: list[Event]) -> None:
        """The table is about to be scored: change it as the end of the round does (power cards left in a layout
        replaced from the stock, cards turned up). Called at the real end (``g.finish``, before ``finished`` and
        before the layouts are shown) and by ``Round.standing()`` on a copy of the round (a search's rollout cut
        short, a table judged as if the round ended now), so both score the same table: read and move the cards
        of the table only, not the phase nor the turn."""

    def finished(self, g: RoundTable, events: list[Event]) -> None:
        """The round ended (before the ``round_over`` event)."""

    # ---------------------------------------------------------------- time

    def next_deadline(self, g: RoundTable) -> float | None:
        """When this mechanic's next timed thing happens, if anything is pending."""
        return None

    def fire(self, g: RoundTable, events: list[Event]) -> None:
        """Its deadline (``g.now``) has come."""

    # ---------------------------------------------------------------- a hint for bots

    def hint(self, view: SeatView, action: Action, worth: CardWorth) -> float | None:
        """How good playing ``action`` is for the seat whose ``view`` this is, counting the cards with ``worth``
        (the bots contract, ``tamalou.powers.HINT_CONTRACT``; the same numbers as ``CardPower.hint``): above 0,
        better than passing (the higher the better); 0 or below, not worth it; ``None``, no opinion. The built-in
        bots ask it for the moves they have no rule of their own for (a phase of a plugin's, a move that is all
        a phase offers) and play the best hinted one (``tamalou.powers.hinted_move``); the ISMCTS bot's rollouts
        too. ``action`` is any action listed to the seat there, not only this mechanic's: answer ``None`` for
        the others. Read only what ``view`` shows (its ``extra[name]`` holds what this mechanic shows the
        seat). Asked only if overridden."""
        return None

    def place_worth(self, view: SeatView, slot: int, card: str | None, worth: CardWorth) -> float | None:
        """What ``card`` (its text; ``None``: a card the seat has not seen) would add to the round score of the seat
        whose ``view`` this is, lying in its own ``slot`` with the rest of its layout as the view shows it, counting
        the cards with ``worth``: a card that would complete a column that cancels adds less than its value (minus
        the other cards of the column), say. ``None``: nothing of this mechanic's applies there (the card counts
        its value; ``worth.unseen()`` unseen). The built-in bots (greedy, cautious, the ISMCTS rollouts) ask it for
        the core's choices: which card of theirs is worst, where to keep a drawn card, whether the discard's top is
        worth taking (a gain is the card there now less the card put there, both by this); the first mechanic that
        answers wins. Read only what ``view`` shows. Asked only if overridden (the bots contract,
        ``tamalou.powers.HINT_CONTRACT`` 4)."""
        return None

    # ---------------------------------------------------------------- undoing a refused action

    def before_action(self, g: RoundTable, action: Action) -> object:
        """Called before an action is applied; what it returns is given back to ``undo`` if the action
        is refused (so the game stays exactly as it was). A ``Tick`` that fires no deadline must change
        nothing: after a tick, it takes that tick's place in the log (``Round.apply``)."""
        return None

    def undo(self, g: RoundTable, token: object) -> None:
        """The action was refused: put back what ``before_action`` changed."""


#: The flow methods of ``Mechanic`` that the core calls only on mechanics that override them.
HOOK_POINTS: tuple[str, ...] = (
    "begin",
    "opening_done",
    "thrown",
    "discard_taken",
    "swapped",
    "play_resolved",
    "turn_ending",
    "round_ending",
    "skip_turn",
    "prepare_turn",
    "can_open_turn",
    "turn_began",
    "after_out_of_turn",
    "before_scoring",
    "finished",
    "next_deadline",
    "fire",
    "before_action",
    "undo",
)


class MechanicRules(Protocol):
    """What ``Mechanic.bind`` is handed of the variant's rulebook: every mechanic in play and each moment's
    reactions (``hooks``), for a mechanic that works with others (``tamalou.mechanics.match_contract``)."""

    @property
    def variant(self) -> Variant:
        """The variant the rulebook was made for."""

    @property
    def mechanics(self) -> Sequence[Mechanic]:
        """The mechanics that play a part, in their order."""

    @property
    def hooks(self) -> Hooks:
        """For each moment of the flow, the mechanics' methods that react to it."""

    @property
    def same_kind_hook(self) -> object | None:
        """``None`` when no plugin implements ``tamalou_same_kind``."""


def overrides(m: Mechanic, name: str) -> bool:
    """Whether mechanic ``m``'s class overrides the base class's method ``name`` (the core calls only those)."""
    return getattr(type(m), name) is not getattr(Mechanic, name)


class Hooks:
    """Per variant: for each hook point, the bound methods of the mechanics that override it."""

    __slots__ = HOOK_POINTS

    def __init__(self, mechanics: list[Mechanic]) -> None:
        for name in HOOK_POINTS:
            base = getattr(Mechanic, name)
            setattr(
                self,
                name,
                tuple(getattr(m, name) for m in mechanics if getattr(type(m), name) is not base and name not in m.idle),
            )

    begin: tuple[Callable[..., bool], ...]
    opening_done: tuple[Callable[..., int | None], ...]
    thrown: tuple[Callable[..., bool], ...]
    discard_taken: tuple[Callable[..., None], ...]
    swapped: tuple[Callable[..., None], ...]
    play_resolved: tuple[Callable[..., bool], ...]
    turn_ending: tuple[Callable[..., bool], ...]
    round_ending: tuple[Callable[..., bool], ...]
    skip_turn: tuple[Callable[..., str | None], ...]
    prepare_turn: tuple[Callable[..., None], ...]
    can_open_turn: tuple[Callable[..., bool], ...]
    turn_began: tuple[Callable[..., None], ...]
    after_out_of_turn: tuple[Callable[..., None], ...]
    before_scoring: tuple[Callable[..., None], ...]
    finished: tuple[Callable[..., None], ...]
    next_deadline: tuple[Callable[..., float | None], ...]
    fire: tuple[Callable[..., None], ...]
    before_action: tuple[Callable[..., object], ...]
    undo: tuple[Callable[..., None], ...]
