"""What one seat may see: ``PlayerView`` and the round's ``Result`` (pydantic, the boundary)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from .display import panel, result_lines, view_lines


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class SlotView(_Model):
    """One occupied slot: its stable number, the card if the viewer knows it (else ``None``), and whether the
    card lies face up for everyone (``Table.turn_up``: a card every seat knows is not face up for that alone)."""

    slot: int
    card: str | None = None
    face_up: bool = False


class Result(_Model):
    """The end of a round."""

    totals: list[int] = Field(description="Card total per player.")
    winners: list[int] = Field(description="Winners; may be empty (e.g. nobody at or under win_max).")
    ranking: list[list[int]] = Field(description="Places, best first; tied players share a place.")
    caller: int | None = Field(description="Who called, or None.")
    last_lap: int | None = Field(
        None,
        description="Who began the round's last lap without a call (a mechanic's rule, Flow.begin_last_lap), or None.",
    )
    card_counts: list[int] = Field(description="Cards each player holds at the end.")
    reason: str = Field(description="Why the round ended: 'called', 'turn_limit', 'no_card_to_draw'...")
    scores: list[int] = Field(description="What each player scores for the round in a match of rounds.")

    def __repr__(self) -> str:
        return "\n".join(result_lines(self))

    __str__ = __repr__

    def __rich__(self) -> object:
        return panel(result_lines(self))


class PlayerView(_Model):
    """Everything ``player`` may see now, and nothing more."""

    player: int
    players: int
    phase: str
    current_player: int
    turn: int
    hands: list[list[SlotView]] = Field(description="Per player, their occupied slots in slot order.")
    grid: list[int] | None = Field(
        None,
        description="The layouts' shape, [rows, columns] (rules.deal.grid): slot s is at row s // columns, "
        "column s % columns; slots past rows x columns follow. None: the ruleset gives no shape.",
    )
    held: str | None = Field(description="The card this player holds (drawn, not yet placed), if any.")
    holding: int | None = Field(description="Who holds a drawn card now (public), if anybody.")
    discard_top: str | None
    discard: list[str] = Field(description="The whole discard pile, bottom first (public).")
    stock_size: int
    caller: int | None
    last_lap: int | None = Field(None, description="Who began the round's last lap without a call, or None.")
    last_lap_reason: str | None = Field(None, description="The reason the round ends with after its last lap.")
    power: str | None = Field(description="The power on offer to the current player, if any.")
    giver: int | None = Field(None, description="Opponent-matching: who must give a card now, if anybody.")
    now: float = Field(0.0, description="The game's time in seconds (timed rulesets; 0 otherwise).")
    deadline: float | None = Field(None, description="When the current turn, opening or countdown ends (timed).")
    locked_until: list[float | None] = Field(
        default_factory=list, description="Per player, until when their matching is locked (None: not locked)."
    )
    absent: list[bool] = Field(default_factory=list, description="Per player, whether they are absent (timed).")
    left: list[int] = Field(default_factory=list, description="Players who ran out of clock and left the round.")
    to_act: list[int] = Field(default_factory=list, description="The seats the round waits for now (game.to_act).")
    is_over: bool
    result: Result | None = None
    extra: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="What the ruleset's other mechanics show this seat, by mechanic name (``Mechanic.view_extra``; "
        "each one's fields as its ``view_model`` says: ``tamalou.view_json_schema(variant)``).",
    )

    def __repr__(self) -> str:
        return "\n".join(view_lines(self))

    __str__ = __repr__

    def __rich__(self) -> object:
        return panel(view_lines(self))


# ----------------------------------------------------------------------------- the fast view


class Slot(NamedTuple):
    """One occupied slot of a ``SeatView``: its stable number, the card if the viewer knows it, and whether it
    lies face up (``SlotView``)."""

    slot: int
    card: str | None
    face_up: bool = False


#: The fields of ``PlayerView`` (and of ``SeatView``), in order.
VIEW_FIELDS: tuple[str, ...] = tuple(PlayerView.model_fields)


class SeatView:
    """``PlayerView``'s fields as a plain slotted object: what a seat may see, built in a few
    microseconds for bots and simulations (``game.seat_view(p)``; ``game.view(p)`` is the pydantic model).

    It has every attribute of ``PlayerView`` (``hands`` holds ``Slot`` tuples, which have ``slot`` and
    ``card`` like ``SlotView``), compares equal to the ``PlayerView`` of the same moment, and turns into
    one at the boundary: ``to_model()``, or ``model_dump(...)`` as ``PlayerView.model_dump`` (for JSON:
    ``model_dump(mode="json")``). It is a snapshot: the game does not change it afterwards.
    """

    __slots__ = VIEW_FIELDS

    player: int
    players: int
    phase: str
    current_player: int
    turn: int
    hands: list[list[Slot]]
    grid: list[int] | None
    held: str | None
    holding: int | None
    discard_top: str | None
    discard: list[str]
    stock_size: int
    caller: int | None
    last_lap: int | None
    last_lap_reason: str | None
    power: str | None
    giver: int | None
    now: float
    deadline: float | None
    locked_until: list[float | None]
    absent: list[bool]
    left: list[int]
    to_act: list[int]
    is_over: bool
    result: Result | None
    extra: dict[str, dict[str, Any]]

    def __init__(self, **fields: Any) -> None:
        self.extra = {}
        self.grid = None
        self.giver = None
        self.last_lap = None
        self.last_lap_reason = None
        self.now = 0.0
        self.deadline = None
        self.locked_until = []
        self.absent = []
        self.left = []
        self.to_act = []
        self.result = None
        for name, value in fields.items():
            setattr(self, name, value)  # an unknown name raises AttributeError (slots)

    def to_model(self) -> PlayerView:
        """The same view as a ``PlayerView`` (pydantic: validation, JSON, JSON Schema)."""
        data = {name: getattr(self, name) for name in VIEW_FIELDS}
        data["hands"] = [[SlotView(slot=s.slot, card=s.card, face_up=s.face_up) for s in hand] for hand in self.hands]
        return PlayerView(**data)

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """``PlayerView.model_dump`` of this view (``mode="json"`` for the wire)."""
        return self.to_model().model_dump(**kwargs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeatView):
            return all(getattr(self, n) == getattr(other, n) for n in VIEW_FIELDS)
        if isinstance(other, PlayerView):
            return self.to_model() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.to_model())

    __str__ = __repr__

    def __rich__(self) -> object:
        return self.to_model().__rich__()


class SeatInfo:
    """What one seat knows at a decision, for a search that rebuilds whole games from it (the search contract,
    ``Mechanic.resample``; ISMCTS's determinization): its ``view``, the actions it may take (``legal``), and the
    seats the round waits for (``waiting``, a bit mask of ``view.to_act``)."""

    __slots__ = ("legal", "view", "waiting")

    def __init__(self, view: SeatView, legal: Sequence[Any]) -> None:
        self.view = view
        self.legal = list(legal)
        self.waiting = sum(1 << p for p in view.to_act)

    @property
    def turn_actions(self) -> list[Any]:
        """The seat's legal actions if it is the player to move, else none (what its turn offers it)."""
        return self.legal if self.view.current_player == self.view.player else []
