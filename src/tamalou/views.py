"""What one seat may see: ``PlayerView`` and the round's ``Result`` (pydantic, the boundary)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class SlotView(_Model):
    """One occupied slot: its stable number and the card if the viewer knows it, else ``None``."""

    slot: int
    card: str | None = None


class Result(_Model):
    """The end of a round."""

    totals: list[int] = Field(description="Card total per player.")
    winners: list[int] = Field(description="Winners; may be empty (e.g. nobody at or under win_max).")
    ranking: list[list[int]] = Field(description="Places, best first; tied players share a place.")
    caller: int | None = Field(description="Who called, or None.")
    card_counts: list[int] = Field(description="Cards each player holds at the end.")
    reason: str = Field(description="Why the round ended: 'called', 'turn_limit', 'no_card_to_draw'...")
    scores: list[int] = Field(description="What each player scores for the round in a match of rounds.")

    def __repr__(self) -> str:
        from .display import text

        return text(self)

    __str__ = __repr__

    def __rich__(self) -> object:
        from .display import rich

        return rich(self)


class PlayerView(_Model):
    """Everything ``player`` may see now, and nothing more."""

    player: int
    players: int
    phase: str
    current_player: int
    turn: int
    hands: list[list[SlotView]] = Field(description="Per player, their occupied slots in slot order.")
    held: str | None = Field(description="The card this player holds (drawn, not yet placed), if any.")
    holding: int | None = Field(description="Who holds a drawn card now (public), if anybody.")
    discard_top: str | None
    discard: list[str] = Field(description="The whole discard pile, bottom first (public).")
    stock_size: int
    caller: int | None
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

    def __repr__(self) -> str:
        from .display import text

        return text(self)

    __str__ = __repr__

    def __rich__(self) -> object:
        from .display import rich

        return rich(self)
