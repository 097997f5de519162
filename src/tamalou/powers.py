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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action, Power, untimed
from .events import POWER_TITLES, power_title

if TYPE_CHECKING:
    from .engine.game import Game
    from .events import Event
    from .views import SeatView

__all__ = ["TURN_TAKEN", "CardPower", "hinted_use", "power_title"]

#: What ``resolve`` returns when the power moved the turn on itself (e.g. ``g.again``).
TURN_TAKEN = "turn-taken"

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
    exchanges: ClassVar[bool] = False
    passable: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "title" not in cls.__dict__:  # not a parent's words: they say what another power does
            cls.title = cls.name.replace("_", " ")
        if cls.name:
            POWER_TITLES[cls.name] = cls.title

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

    # ---------------------------------------------------------------- the first step

    def uses(self, g: Game, p: int) -> list[Action]:
        """Every complete use of the power by ``p`` now (``Power`` actions). May be empty."""
        raise NotImplementedError

    def usable(self, g: Game, p: int) -> bool:
        """Whether ``p`` has at least one use (override when listing them all is costly)."""
        return bool(self.uses(g, p))

    def refusal(self, g: Game, a: Power) -> str | None:
        """Why ``a`` is not a use of this power now, or ``None``. The default: it must be one of
        ``uses``. Override for clearer reasons; never accept what ``uses`` does not list."""
        if untimed(a) in self.uses(g, a.player):
            return None
        return f"that is not a use of {self.name} now (see legal_actions)"

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        """Do it. Return ``None`` when done, a memo to ask a second step, or ``TURN_TAKEN`` when the
        power moved the turn on itself."""
        raise NotImplementedError

    # ---------------------------------------------------------------- a hint for bots

    def hint(self, view: SeatView, action: Power) -> float | None:
        """How good using ``action`` (one of ``uses``) is for the seat whose ``view`` this is (the bots contract):
        above 0, better than passing (the higher the better); 0 or below, not worth it; ``None``, no opinion.
        ``GreedyBot`` and the ISMCTS bot's rollouts play the best use above 0 of a power that gives hints (else
        they pass), before their own ways with the built-in powers. Read only what ``view`` shows."""
        return None

    @property
    def hints(self) -> bool:
        """Whether this power gives hints (its class defines ``hint``)."""
        return type(self).hint is not CardPower.hint

    # ---------------------------------------------------------------- an optional second step

    def next_uses(self, g: Game, p: int, memo: Any) -> list[Action]:
        """The second step's actions (``Pass`` is always offered besides)."""
        return []

    def next_refusal(self, g: Game, a: Action, memo: Any) -> str | None:
        """Why ``a`` is not a second step now, or ``None``. Default: it must be one of ``next_uses``."""
        if untimed(a) in self.next_uses(g, a.player, memo):
            return None
        return f"that is not a second step of {self.name} now (see legal_actions)"

    def resolve_next(self, g: Game, a: Action, memo: Any, events: list[Event]) -> Any:
        """Do the second step; return ``None`` when done (or another memo for one more step)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- helpers for authors

    @staticmethod
    def target_refusal(g: Game, a: Power, *, exchanging: bool) -> str | None:
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


def hinted_use(power: CardPower, view: SeatView, uses: list[Power], passing: Action | None) -> Action | None:
    """What a bot plays by ``power``'s hints: its best use (the first of the best) if its hint is above 0 or there
    is no ``pass``; else the ``pass``; ``None`` when the power has no opinion on any use."""
    scored = [(h, i) for i, a in enumerate(uses) if (h := power.hint(view, a)) is not None]
    if not scored:
        return None
    best, i = max(scored, key=lambda x: (x[0], -x[1]))
    return uses[i] if best > 0 or passing is None else passing
