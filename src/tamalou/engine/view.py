"""What one seat may see: ``player_view`` builds the ``PlayerView`` of a seat (a card shown exactly
when that seat knows it, plus the public facts and what each mechanic adds)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import IllegalAction
from ..views import PlayerView, SeatView, Slot
from .clock import deadline
from .rulebook import rulebook
from .state import NO_CARD, OVER

if TYPE_CHECKING:
    from ..schema import Variant
    from .flow import Flow


def seat_view(g: Flow, player: object) -> SeatView:
    """What ``player`` may see now, and nothing more, as a plain ``SeatView``."""
    if not g.player_ok(player):
        raise IllegalAction(f"no player {player!r} in a {g.players}-player game")
    text, knowers, up = g.text, g.knowers, g.face_up
    hands = [
        [
            Slot(s, text[c] if knowers[c] >> player & 1 else None, bool(up >> c & 1))
            for s, c in enumerate(hand)
            if c != NO_CARD
        ]
        for hand in g.hands
    ]
    holding = g.holder if g.held != NO_CARD else None
    held = text[g.held] if holding == player and knowers[g.held] >> player & 1 else None
    over = g.phase == OVER
    left = g.left
    grid = g.variant.rules.deal.grid
    view = SeatView(
        player=player,
        players=g.players,
        phase=str(g.phase),
        current_player=g.current_player,
        turn=g.turn,
        hands=hands,
        grid=list(grid) if grid is not None else None,
        held=held,
        holding=holding,
        discard_top=text[g.discard[-1]] if g.discard else None,
        discard=[text[c] for c in g.discard],
        stock_size=len(g.stock),
        caller=g.caller,
        last_lap=g.last_lap,
        last_lap_reason=g.last_lap_reason or None,
        power=None,
        now=g.now,
        deadline=deadline(g),
        left=[p for p in range(g.players) if left >> p & 1] if left else [],
        to_act=g.to_act,
        is_over=over,
        result=g.result() if over else None,
    )
    for m in g.flow.viewers:
        for name, value in m.view(g, player).items():
            setattr(view, name, value)
    if g.flow.extra_viewers:
        view.extra = {m.name: m.view_extra(g, player) for m in g.flow.extra_viewers}
    return view


def player_view(g: Flow, player: object) -> PlayerView:
    """What ``player`` may see now, and nothing more (the pydantic ``PlayerView``; a mechanic's ``extra`` checked
    by its ``view_model``)."""
    view = seat_view(g, player)
    for m in g.flow.extra_viewers:
        model = m.view_model
        if model is not None:
            view.extra[m.name] = model.model_validate(view.extra[m.name]).model_dump(mode="json")
    return view.to_model()


def view_json_schema(variant: Variant | None = None) -> dict[str, Any]:
    """The JSON Schema of ``PlayerView`` (what a seat is sent); with ``variant``, its ``extra`` says what each of
    the variant's mechanics shows there (their ``view_model``), and nothing else."""
    schema = PlayerView.model_json_schema()
    if variant is None:
        return schema
    shown: dict[str, Any] = {}
    for m in rulebook(variant).mechanics:
        if m.view_model is not None:
            sub = m.view_model.model_json_schema()
            schema.setdefault("$defs", {}).update(sub.pop("$defs", {}))
            shown[m.name] = sub
    extra = schema["properties"]["extra"]
    extra.pop("additionalProperties", None)
    extra.update(properties=shown, additionalProperties=False)
    return schema
