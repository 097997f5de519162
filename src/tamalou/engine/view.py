"""What one seat may see: ``player_view`` builds the ``PlayerView`` of a seat (a card shown exactly
when that seat knows it, plus the public facts and what each mechanic adds)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalAction
from ..views import PlayerView, SeatView, Slot
from .state import NO_CARD, OVER

if TYPE_CHECKING:
    from .game import Game


def seat_view(g: Game, player: object) -> SeatView:
    """What ``player`` may see now, and nothing more, as a plain ``SeatView``."""
    if not g.player_ok(player):
        raise IllegalAction(f"no player {player!r} in a {g.players}-player game")
    text, knowers = g.text, g.knowers
    hands = [
        [Slot(s, text[c] if knowers[c] >> player & 1 else None) for s, c in enumerate(hand) if c != NO_CARD]
        for hand in g.hands
    ]
    holding = g.holder if g.held != NO_CARD else None
    held = text[g.held] if holding == player and knowers[g.held] >> player & 1 else None
    over = g.phase == OVER
    left = g.left
    view = SeatView(
        player=player,
        players=g.players,
        phase=str(g.phase),
        current_player=g.current_player,
        turn=g.turn,
        hands=hands,
        held=held,
        holding=holding,
        discard_top=text[g.discard[-1]] if g.discard else None,
        discard=[text[c] for c in g.discard],
        stock_size=len(g.stock),
        caller=g.caller,
        power=None,
        now=g.now,
        deadline=g.deadline,
        left=[p for p in range(g.players) if left >> p & 1] if left else [],
        to_act=g.to_act,
        is_over=over,
        result=g.result() if over else None,
    )
    for m in g.flow.viewers:
        for name, value in m.view(g, player).items():
            setattr(view, name, value)
    return view


def player_view(g: Game, player: object) -> PlayerView:
    """What ``player`` may see now, and nothing more (the pydantic ``PlayerView``)."""
    return seat_view(g, player).to_model()
