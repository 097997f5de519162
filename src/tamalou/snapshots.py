"""The JSON shapes of snapshots (pydantic, the boundary): ``Game.from_json`` and ``Match.from_json``
check a snapshot against its shape before restoring anything, so a damaged one is a ``SnapshotError``
that names the field."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class SnapshotShape(BaseModel):
    """What a snapshot must hold, with its types (checked by pydantic before anything is restored)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    v: int
    variant: str | list[str] | dict[str, Any]
    players: int
    seed: int
    first_player: int
    first_given: bool
    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    knowers: list[int]
    phase: str
    current_player: int
    turn: int
    caller: int | None
    held: int
    holder: int
    held_from: str
    draws: int
    stock_only: bool
    reason: str
    left: int
    locked: int
    now: float
    sealed: int = 0  # added after version 2 began: older snapshots restore with no sealed layout
    last_lap: int | None = None  # added later still, and saved only when set: a round in its last lap
    last_lap_reason: str = ""
    face_up: int = 0  # saved only when a card lies face up (a ruleset that turns cards up: Table.turn_up)
    starter: int | None = None  # saved only when a mechanic chose who plays first after the opening
    rng: int
    cards: str | None
    deal: dict[str, Any] | None
    m: dict[str, list[Any]]
    actions: list[list[Any]]


class MatchShape(BaseModel):
    """What a match snapshot must hold, with its types (checked before anything is restored)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    v: int
    variant: str | list[str] | dict[str, Any]
    players: int
    seed: int
    rng: int
    first_player: int
    scores: list[list[int]]
    won: list[list[int]]
    # added after version 1 began: older match snapshots restore with no adjustments, first player + k
    adjust: list[list[int]] | None = None
    firsts: list[int] | None = None
    round_seeds: list[int]
    # added later, and saved only when set: the stacked deals of a match's first rounds (``new_match(deals=...)``)
    deals: list[dict[str, Any]] | None = None
    # added later: each scored round's Result (an older snapshot's are played again from its seeds and logs)
    results: list[dict[str, Any]] | None = None
    history: list[list[list[Any]]]
    game: dict[str, Any]
