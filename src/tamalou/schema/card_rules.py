"""The sections of ``[rules]`` about single cards: what each is worth (``values``, and ``DEFAULT_VALUES``, the
points of the standard ranks) and what power it gives (``powers``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, field_validator

from .bounds import MAX_NAME_LENGTH, MAX_POINTS
from .checks import card_keys, rank_keys
from .key_types import Points, PowerName, RankName, Section, Table

DEFAULT_VALUES: dict[str, int] = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
    "JK": -1,
}


class Values(Section):
    """Points of each card: by rank, then per-card overrides (e.g. red kings)."""

    ranks: Table[RankName, Points] = Field(
        default_factory=lambda: dict(DEFAULT_VALUES),
        description="Points by rank. Ranks left out keep their default (A=1 ... 10=10, J=Q=K=10, JK=-1; "
        f"in a deck without suits, a rank named by a number is worth that number); -{MAX_POINTS} to {MAX_POINTS}.",
    )
    cards: Table[str, Points] = Field(
        default_factory=dict,
        description=f"Points of single cards, e.g. KS = 15 (-{MAX_POINTS} to {MAX_POINTS}).",
    )

    _norm = field_validator("cards", mode="before")(classmethod(lambda cls, v: card_keys(v)))

    @field_validator("ranks", mode="before")
    @classmethod
    def _keep_defaults(cls, v: object) -> object:
        if isinstance(v, Mapping):
            return {**DEFAULT_VALUES, **rank_keys(v)}
        return v


class Powers(Section):
    """Card powers."""

    trigger: Literal["drawn_thrown", "landing"] = Field(
        "drawn_thrown",
        description="'drawn_thrown': only a card drawn from the stock and thrown at once (Le Tamalou); "
        "'landing': any card that lands on the discard in your turn, the replaced one included (tamalou.fun).",
    )
    optional: bool = Field(True, description="Whether a power may be declined with 'pass'.")
    passed_on: bool = Field(
        False, description="After a swap or peek power, the next player may use it once instead of drawing."
    )
    replaced: bool = Field(
        False,
        description="After a stock draw, the card replaced out of the layout also gives its power, resolved as "
        "part of the replace: it cannot be declined ('pass' is offered only when it has no use) (cambia house rule).",
    )
    ranks: Annotated[Table[RankName, PowerName], BeforeValidator(rank_keys)] = Field(
        default_factory=dict,
        description=f"Power by rank (a power's name: at most {MAX_NAME_LENGTH} characters, on one line).",
    )
    cards: Table[str, PowerName] = Field(
        default_factory=dict,
        description=f"Power of single cards, e.g. KS (a power's name: at most {MAX_NAME_LENGTH} characters, on one "
        "line).",
    )

    _norm = field_validator("cards", mode="before")(classmethod(lambda cls, v: card_keys(v)))
