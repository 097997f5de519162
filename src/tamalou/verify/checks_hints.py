"""The check of the hints bots play by (``hints``): every hint a ruleset gives is asked, at a state of a game, what
the bots would ask it there, and must answer.

The bots contract (``tamalou.powers``): a power's ``hint`` on each of its uses listed to the seat (its ``next_hint``
on each move of the second step), a mechanic's ``hint`` on each action listed to the seat, and a mechanic's
``place_worth`` for each slot of the seat's layout and each card that could lie there (the card the seat sees there,
the card it holds, a card it has not seen). Each must answer ``None`` or a finite number, from the seat's view alone,
without raising: a hint that raises crashes every bot that plays by it (the greedy and cautious bots, the search
bot's rollouts) in the middle of a game, a ``tamalou play`` table included. The failure names the hook, the action
or the slot it was asked about, and the file and line of the plugin where it raised.

The cards are counted as a plain bot counts them (``ViewCards``): a card the view shows at its value, one it does
not show at the deck's mean.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ..actions import Pass, Power
from ..engine import Round
from ..engine.game import Game, round_of
from ..engine.rulebook import rulebook
from ..errors import raised_at
from ..mechanic import overrides
from ..views import SeatView
from .violation import describe_action, violation_of


class ViewCards:
    """The cards as ``hints`` hands them to a hint (a ``tamalou.powers.CardWorth``): a card the seat's view shows at
    its value in the ruleset, one it does not show at the mean of the deck."""

    __slots__ = ("_mean", "_values", "_view")

    def __init__(self, game: Round, view: SeatView) -> None:
        self._view = view
        self._values = {text: value for text, value in zip(game.text, game.value, strict=True)}
        self._mean = sum(game.value) / len(game.value) if game.value else 0.0

    def value(self, card: str) -> float:
        return float(self._values[card])

    def unseen(self) -> float:
        return self._mean

    def at(self, player: int, slot: int) -> float:
        card = next((s.card for s in self._view.hands[player] if s.slot == slot), None)
        return self._mean if card is None else self.value(card)

    def layout(self, player: int) -> float:
        return sum(self.at(player, s.slot) for s in self._view.hands[player])


def check_hints(game: Game | Round, players: Sequence[int] | None = None) -> None:
    """Every hint of the ruleset, asked what the bots would ask it at this state by each of ``players`` (default:
    every seat with something listed) answers ``None`` or a finite number and raises nothing (the module's
    documentation says what is asked)."""
    game = round_of(game)
    if game.is_over:
        return
    rb = rulebook(game.variant)
    hinting = [m for m in rb.mechanics if overrides(m, "hint")]
    placing = [m for m in rb.mechanics if overrides(m, "place_worth")]
    powers = [p for p in rb.powers.values() if p.hints or p.next_hints]
    if not (hinting or placing or powers):
        return
    for p in range(game.players) if players is None else players:
        listed = game.legal_actions(p)
        if not listed:
            continue
        view = game.seat_view(p)
        worth = ViewCards(game, view)
        for a in listed:
            if isinstance(a, Pass):
                continue
            for m in hinting:
                _ask(game, f"{type(m).__name__}.hint", f"about {describe_action(a)}", m.hint, view, a, worth)
        power = rb.powers.get(view.power or "")
        if power is not None and power.hints and view.phase == "power":
            for a in listed:
                if isinstance(a, Power):
                    _ask(
                        game, f"{type(power).__name__}.hint", f"about {describe_action(a)}", power.hint, view, a, worth
                    )
        if power is not None and power.next_hints and view.phase == "swap" and view.current_player == p:
            first = next((a for a in reversed(game.actions) if isinstance(a, Power) and a.player == p), None)
            if first is not None:
                for a in listed:
                    if not isinstance(a, Pass):
                        _ask(
                            game,
                            f"{type(power).__name__}.next_hint",
                            f"about {describe_action(a)} after {describe_action(first)}",
                            power.next_hint,
                            view,
                            a,
                            worth,
                            first,
                        )
        if placing:
            cards = {None, view.held} if view.holding == p else {None}
            for s in view.hands[p]:
                for card in sorted({*cards, s.card}, key=lambda c: "" if c is None else c):
                    for m in placing:
                        _ask(
                            game,
                            f"{type(m).__name__}.place_worth",
                            f"for slot {s.slot} and card {card!r}",
                            m.place_worth,
                            view,
                            s.slot,
                            card,
                            worth,
                        )


def _ask(game: Round, hook: str, about: str, call: Callable[..., object], *args: object) -> None:
    """Ask one hint (``call(*args)``); a violation of ``hints`` if it raises or answers other than ``None`` or a finite
    number."""
    try:
        answer = call(*args)
    except Exception as exc:
        said = f"{hook} raised {type(exc).__name__}: {exc}{raised_at(exc)}, asked {about}"
        raise violation_of(game, said, "hints") from exc
    if answer is None:
        return
    if isinstance(answer, bool) or not isinstance(answer, int | float) or not math.isfinite(answer):
        raise violation_of(game, f"{hook} answered {answer!r}, asked {about}: a number or None", "hints")
