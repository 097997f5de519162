"""Card powers: the base class a power is written with (``CardPower``).

A power is what a card does when it lands on the discard (which cards, and when, is the variant's
``rules.powers``). A plugin provides powers with the hook ``tamalou_powers()``; a variant then names
them in ``rules.powers.ranks`` / ``rules.powers.cards`` (names are checked at load).

A power declares every complete use it offers (``uses``: ``Power`` actions with their targets, so
``legal_actions`` lists them whole and a bot never has to guess), checks an action (``refusal``: by
default, "is it one of ``uses``"), and resolves it with the table's primitives only (``g.look``,
``g.swap``, ``g.move``, ``g.deal_unseen``, ``g.show``...), so what each player knows stays exact
without the power's author thinking about it. A power with a second step (look, then decide to swap)
returns a *memo* (JSON-able: lists, ints, strings) from ``resolve``: the round goes to the phase
``"swap"``, where ``next_uses(memo)`` are listed with ``Pass``.

A worked example, "a 5 looks at any one card on the table, one's own included"::

    class PeekAny(tamalou.CardPower):
        name = "peek_any"

        def uses(self, g, p):
            return [self.action(p, target=q, target_slot=s)
                    for q in [p, *g.targets(p)] for s in g.occupied(q)]

        def resolve(self, g, a, events):
            g.look(a.player, a.target, a.target_slot, events)

    @tamalou.hookimpl
    def tamalou_powers():
        return [PeekAny]

and in the variant: ``plugins = ["my_rules"]`` and ``[rules.powers.ranks] "5" = "peek_any"``.

The bots contract (``HINT_CONTRACT``): a power tells bots how good each of its uses is, given a seat's view
and what the seat makes of the cards (``CardWorth``): ``hint`` for the first step, ``next_hint`` for the
second. The built-in bots play a power by its hints (``hinted_use``, ``hinted_next``); the built-in powers
give hints too (``tamalou.plugins.powers``). A mechanic tells them the same of its own moves
(``Mechanic.hint``), which they play by ``hinted_move``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .action_words import POWER_USE_TEXTS
from .actions import Action, Pass, Power, untimed
from .events import POWER_TITLES, power_title
from .schema.settings import settings_of

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .events import Event
    from .round_table import RoundTable
    from .schema import Variant
    from .views import SeatView

__all__ = [
    "HINT_CONTRACT",
    "TURN_TAKEN",
    "CardPower",
    "CardWorth",
    "best_place",
    "hinted_move",
    "hinted_next",
    "hinted_use",
    "placed_worth",
    "power_title",
]

#: What ``resolve`` returns when the power moved the turn on itself (e.g. ``g.again``).
TURN_TAKEN = "turn-taken"

#: The version of the bots contract: ``CardWorth``, ``CardPower.hint`` / ``next_hint``, ``Mechanic.hint`` and
#: what bots do with them (``hinted_use``, ``hinted_next``, ``hinted_move``). A change that would break hints
#: written against them raises it. 1: ``hint(view, action)``; 2: ``hint(view, action, worth)`` and
#: ``next_hint`` (docs/write-a-power.md); 3: ``Mechanic.hint`` for a mechanic's moves (docs/write-a-mechanic.md);
#: 4: ``Mechanic.place_worth``, what a card adds where it would lie, for the core's draw, keep and replace choices.
HINT_CONTRACT = 4


class CardWorth(Protocol):
    """What a seat makes of the cards, in points: what a bot hands to a power's hints (the bots contract).

    Each bot counts the cards its own way (the greedy bot counts a card it has not seen at the mean of the
    cards it has not seen; the ISMCTS bot's rollouts at the deck's mean), and a hint reads the cards through
    it, so that the same hint serves every bot. Nothing here shows a card the seat has not seen."""

    def value(self, card: str) -> float:
        """The points of ``card`` (its text, as views show it) in this ruleset."""
        ...

    def unseen(self) -> float:
        """The points the seat expects of a card it has not seen."""
        ...

    def at(self, player: int, slot: int) -> float:
        """The points the seat expects at ``player``'s ``slot``: the card's value if the seat has seen it,
        else ``unseen()``."""
        ...

    def layout(self, player: int) -> float:
        """The points the seat expects of ``player``'s whole layout (``at`` summed over its cards)."""
        ...


_ACTIONS: dict[tuple[int, int | None, int | None, int | None, int | None], Power] = {}


class CardPower:
    """Base class of card powers. Set ``name``; implement ``uses`` and ``resolve`` (and, for a
    two-step power, ``next_uses`` and ``resolve_next``).

    - ``exchanges``: the power moves cards between layouts; ``g.targets(p, exchanging=True)`` then
      leaves out locked layouts (a protected caller). Document-only otherwise.
    - ``passable``: with ``rules.powers.passed_on``, the next player may use it once instead of
      drawing (the built-in ``play_again`` is not).
    """

    name: ClassVar[str] = ""
    #: What the power does, in words for a player (``Event.describe``, logs, ``tamalou show``: the vocabulary of
    #: ``tamalou.events.POWER_TITLES``). Default: the name in words (``"peek any"``).
    title: ClassVar[str] = ""
    #: The words of one of its uses, addressed to the player (``Power.describe`` with the seat's view, menus): a
    #: ``str.format`` template over the phrases of ``tamalou.actions.Words`` (``{mine}``: "your slot 2 (7H)",
    #: ``{theirs}``: "player 1's slot 0", ``{picked}``, ``{target}``...), e.g. "look at {theirs}". Default: "use the
    #: power (its name) on" the cards the use names.
    use_text: ClassVar[str] = ""
    exchanges: ClassVar[bool] = False
    passable: ClassVar[bool] = True
    #: Words for the events it emits besides tamalou's (``Event.describe``): event type -> a ``str.format``
    #: template over the event's facts, as ``Mechanic.event_texts``.
    event_texts: ClassVar[dict[str, str]] = {}
    #: The pydantic model of this power's settings, which a variant file writes in the table ``[options.<name>]``
    #: as a mechanic's (validated at load: a wrong key is a ``VariantError`` naming ``options.<name>.<key>``; no
    #: table: the model's defaults). ``None``: the power takes no settings. Read them in ``self.options``.
    options_model: ClassVar[type[BaseModel] | None] = None
    #: Its settings for the variant it plays in (an instance of ``options_model``; ``None`` if it declares none):
    #: set by the rulebook when it makes the power, once per variant, before any game.
    options: Any = None

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "title" not in cls.__dict__:  # not a parent's words: they say what another power does
            cls.title = cls.name.replace("_", " ")
        if cls.name:
            POWER_TITLES[cls.name] = cls.title
            if cls.use_text:
                POWER_USE_TEXTS[cls.name] = cls.use_text

    @staticmethod
    def action(
        player: int,
        slot: int | None = None,
        target: int | None = None,
        target_slot: int | None = None,
        owner: int | None = None,
    ) -> Power:
        """A ``Power`` action, made once per process and handed out again (actions are values)."""
        key = (player, slot, target, target_slot, owner)
        a = _ACTIONS.get(key)
        if a is None:
            if len(_ACTIONS) > 100_000:
                _ACTIONS.clear()
            a = _ACTIONS[key] = Power(player, slot, target, target_slot, None, owner)
        return a

    @classmethod
    def options_of(cls, variant: Variant) -> Any:
        """This power's settings in ``variant``: its table ``[options.<name>]`` validated by ``options_model`` (its
        defaults without the table); ``None`` if it declares no model. Raises ``VariantError`` (key
        ``options.<name>``) if the table is wrong."""
        return settings_of(cls.options_model, variant, cls.name, "power")

    # ---------------------------------------------------------------- the first step

    def uses(self, g: RoundTable, p: int) -> list[Action]:
        """Every complete use of the power by ``p`` now (``Power`` actions). May be empty."""
        raise NotImplementedError

    def usable(self, g: RoundTable, p: int) -> bool:
        """Whether ``p`` has at least one use (override when listing them all is costly)."""
        return bool(self.uses(g, p))

    def refusal(self, g: RoundTable, a: Power) -> str | None:
        """Why ``a`` is not a use of this power now, or ``None``. The default: it must be one of
        ``uses``. Override for clearer reasons; never accept what ``uses`` does not list."""
        if untimed(a) in self.uses(g, a.player):
            return None
        return f"that is not a use of {self.name} now (see legal_actions)"

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        """Do it. Return ``None`` when done, a memo to ask a second step, or ``TURN_TAKEN`` when the
        power moved the turn on itself."""
        raise NotImplementedError

    # ---------------------------------------------------------------- a hint for bots

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        """How good using ``action`` (one of ``uses``) is for the seat whose ``view`` this is, counting the cards
        with ``worth`` (the bots contract, ``HINT_CONTRACT``): above 0, better than passing (the higher the
        better); 0 or below, not worth it; ``None``, no opinion. Where the gain of a use can be counted in points
        (a swap), give it in points: a cautious bot may ask a margin of it. The bots play the best use (the first
        of the best) when its hint is above 0, else they pass (``hinted_use``). Read only what ``view`` shows."""
        return None

    def next_hint(self, view: SeatView, action: Action, worth: CardWorth, first: Power) -> float | None:
        """The same for the second step (phase ``"swap"``): how good ``action`` (one of ``next_uses``) is, against
        ``pass`` (0). ``first`` is the use of the first step this seat chose (the bot remembers it: the memo is
        the referee's, not the seat's); read the cards it named in ``view``, which shows what the look showed."""
        return None

    @property
    def hints(self) -> bool:
        """Whether this power gives hints (its class defines ``hint``)."""
        return type(self).hint is not CardPower.hint

    @property
    def next_hints(self) -> bool:
        """Whether this power gives hints for its second step (its class defines ``next_hint``)."""
        return type(self).next_hint is not CardPower.next_hint

    # ---------------------------------------------------------------- an optional second step

    def next_uses(self, g: RoundTable, p: int, memo: Any) -> list[Action]:
        """The second step's actions (``Pass`` is always offered besides)."""
        return []

    def next_refusal(self, g: RoundTable, a: Action, memo: Any) -> str | None:
        """Why ``a`` is not a second step now, or ``None``. Default: it must be one of ``next_uses``."""
        if untimed(a) in self.next_uses(g, a.player, memo):
            return None
        return f"that is not a second step of {self.name} now (see legal_actions)"

    def resolve_next(self, g: RoundTable, a: Action, memo: Any, events: list[Event]) -> Any:
        """Do the second step; return ``None`` when done (or another memo for one more step)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- helpers for authors

    @staticmethod
    def target_refusal(g: RoundTable, a: Power, *, exchanging: bool) -> str | None:
        """The usual checks of ``a.target`` / ``a.target_slot``: an opponent that may be aimed at, and
        an occupied slot of theirs."""
        q, s = a.target, a.target_slot
        if not g.player_ok(q) or q == a.player:
            return "'target' must be an opponent"
        assert q is not None
        if not g.targetable(a.player, q, exchanging):
            return f"player {q} cannot be targeted now"
        if not g.slot_ok(q, s):
            return f"slot {s} of player {q} holds no card"
        return None


def _best(scored: Sequence[tuple[float, Action]], passing: Action | None) -> Action | None:
    """The first action of the best score if it is above 0 or there is no ``pass``; else the ``pass``; ``None``
    when nothing was scored."""
    if not scored:
        return None
    best, action = scored[0]
    for h, a in scored[1:]:
        if h > best:
            best, action = h, a
    return action if best > 0 or passing is None else passing


def hinted_use(
    power: CardPower, view: SeatView, uses: list[Power], passing: Action | None, worth: CardWorth
) -> Action | None:
    """What a bot plays by ``power``'s hints (the first step): its best use (the first of the best) if its hint
    is above 0 or there is no ``pass``; else the ``pass``; ``None`` when the power has no opinion on any use."""
    scored = [(h, a) for a in uses if (h := power.hint(view, a, worth)) is not None]
    return _best(scored, passing)


def hinted_next(
    power: CardPower, view: SeatView, actions: list[Action], worth: CardWorth, first: Power
) -> Action | None:
    """What a bot plays by ``power``'s hints in the second step (phase ``"swap"``), ``actions`` being what is
    listed (``pass`` among them): the best of the others if its hint is above 0, else the ``pass`` (or, with no
    ``pass``, the best); ``None`` when the power has no opinion on any of them."""
    passing = next((a for a in actions if isinstance(a, Pass)), None)
    scored = [(h, a) for a in actions if a is not passing and (h := power.next_hint(view, a, worth, first)) is not None]
    return _best(scored, passing)


class HintGiver(Protocol):
    """What ``hinted_move`` asks of a mechanic (``Mechanic.hint``): its opinion on an action, or ``None``."""

    def hint(self, view: SeatView, action: Action, worth: CardWorth) -> float | None: ...


def hinted_move(
    mechanics: Sequence[HintGiver], view: SeatView, actions: Sequence[Action], worth: CardWorth
) -> Action | None:
    """What a bot plays by the hints of ``mechanics`` (``Mechanic.hint``) among ``actions`` (what is listed to the
    seat, ``pass`` among them or not): the best hinted action other than ``pass`` (the first of the best, the
    mechanics asked in their order, the first opinion on an action kept) if its hint is above 0 or there is no
    ``pass``; else the ``pass``; ``None`` when no mechanic has an opinion on any of them."""
    passing = next((a for a in actions if isinstance(a, Pass)), None)
    scored: list[tuple[float, Action]] = []
    for a in actions:
        if a is passing:
            continue
        for m in mechanics:
            h = m.hint(view, a, worth)
            if h is not None:
                scored.append((h, a))
                break
    return _best(scored, passing)


class PlaceWorthGiver(Protocol):
    """What ``placed_worth`` asks of a mechanic (``Mechanic.place_worth``): what a card adds where it would lie."""

    def place_worth(self, view: SeatView, slot: int, card: str | None, worth: CardWorth) -> float | None: ...


def placed_worth(
    mechanics: Sequence[PlaceWorthGiver], view: SeatView, slot: int, card: str | None, worth: CardWorth
) -> float:
    """What ``card`` (``None``: unseen) adds lying in the seat's own ``slot``: the first answer of ``mechanics``'
    ``place_worth`` (the bots contract), else its value (``worth.unseen()`` unseen)."""
    for m in mechanics:
        answer = m.place_worth(view, slot, card, worth)
        if answer is not None:
            return float(answer)
    return worth.unseen() if card is None else worth.value(card)


def best_place(
    mechanics: Sequence[PlaceWorthGiver], view: SeatView, card: str | None, slots: Iterable[int], worth: CardWorth
) -> tuple[float, int] | None:
    """Where among the seat's ``slots`` keeping ``card`` gains the most by ``placed_worth``: ``(gain, slot)``, the gain
    being what the card there adds less what ``card`` would (the first slot on ties); ``None`` without a slot. How
    the built-in bots and the rollouts choose where to keep a card when a mechanic weighs where cards lie."""
    allowed = set(slots)
    best: tuple[float, int] | None = None
    for s in view.hands[view.player]:
        if s.slot not in allowed:
            continue
        gain = placed_worth(mechanics, view, s.slot, s.card, worth) - placed_worth(mechanics, view, s.slot, card, worth)
        if best is None or gain > best[0]:
            best = (gain, s.slot)
    return best
