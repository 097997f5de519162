"""The sections of ``[rules]`` about how things end: a round and who wins it (``end``), what a round scores in a
match (``scoring``) and how long a match lasts (``rounds``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, ValidationError, model_validator

from .bounds import MAX_LIMIT, MAX_MATCH_TURNS, MAX_POINTS, MAX_ROUNDS, MAX_TURNS
from .checks import error_details, once_each
from .key_types import Points, Section, TieBreak, Tup


class End(Section):
    """End of the round and who wins it."""

    win_max: Points | Literal["threshold"] | None = Field(
        None,
        description=f"Only a total at or under this may win: a number (-{MAX_POINTS} to {MAX_POINTS}), or "
        "'threshold' for the call threshold (Cartalogue: 5, the threshold). None: no such bound.",
    )
    ties: Annotated[Tup[TieBreak], AfterValidator(once_each)] = Field(
        ("caller_behind",), description="Tie-breaks between equal totals, in order."
    )
    max_turns: int = Field(
        400,
        ge=1,
        le=MAX_TURNS,
        description="Safety bound: after this many turns without an end the round ends as if nobody called "
        f"(at most {MAX_TURNS}, so a round cannot be made endless; a match's rounds times this: at most "
        f"{MAX_MATCH_TURNS}).",
    )


class Scoring(Section):
    """What a round scores in a match of rounds (the round's ``Result.scores``)."""

    caller_won: Literal["total", "zero"] = Field(
        "total", description="What a caller who won the round scores: their total, or 0 (Le Tamalou, Variantes 3)."
    )
    caller_lost_penalty: Points = Field(
        0,
        description="Points added to the total of a caller who lost the round (Le Tamalou, Variantes 3: 10); "
        f"-{MAX_POINTS} to {MAX_POINTS}.",
    )


class Rounds(Section):
    """A match of several rounds (``tamalou.new_match``): how long it lasts and how it is won."""

    form: Literal["single", "fixed", "points", "wins"] = Field(
        "single",
        description="'single': one round; 'fixed': `count` rounds, lowest cumulative score wins; "
        "'points': until a cumulative score passes `limit`, lowest wins; 'wins': `count` rounds, "
        "each round's winners score 1, most wins wins (Le Tamalou, Variantes 3).",
    )
    count: int = Field(
        5,
        ge=1,
        le=MAX_ROUNDS,
        description=f"Rounds played in the 'fixed' and 'wins' forms (at most {MAX_ROUNDS}, and at most `max_rounds`; "
        f"`count` times rules.end.max_turns at most {MAX_MATCH_TURNS}).",
    )
    count_multiple: int = Field(
        1,
        ge=1,
        le=100,
        description="`count` must be a multiple of this (e.g. 4: each seat starts as many rounds; "
        "cambia-circuit). 1: any count. At most 100.",
    )
    limit: int = Field(
        100,
        ge=1,
        le=MAX_LIMIT,
        description=f"'points' form: the match ends when a cumulative score passes it (at most {MAX_LIMIT}).",
    )
    max_rounds: int = Field(
        100,
        ge=1,
        le=MAX_ROUNDS,
        description="The most rounds of a match, whatever its form: a 'points' match that never reaches its limit "
        f"ends after this many (safety bound; at most {MAX_ROUNDS}, and this times rules.end.max_turns at most "
        f"{MAX_MATCH_TURNS}, so that a match's snapshot stays restorable).",
    )

    @property
    def most(self) -> int:
        """The most rounds a match of these rules lasts: 1, ``count`` or ``max_rounds`` (by its form)."""
        if self.form == "single":
            return 1
        return self.count if self.form in ("fixed", "wins") else self.max_rounds

    @model_validator(mode="after")
    def _count_fits(self) -> Rounds:
        errors = []
        if self.count % self.count_multiple:
            why = f"expected a multiple of {self.count_multiple} (rounds.count_multiple), got {self.count}"
            errors.append(error_details("cross_field", ("count",), why, self.count))
        if self.form in ("fixed", "wins") and self.count > self.max_rounds:
            why = (
                f"expected at most {self.max_rounds} rounds (rounds.max_rounds: the most rounds of a match), "
                f"got {self.count}"
            )
            errors.append(error_details("cross_field", ("count",), why, self.count))
        if errors:
            raise ValidationError.from_exception_data("Rounds", errors)
        return self
