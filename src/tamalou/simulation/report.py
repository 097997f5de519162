"""The report of a simulation (pydantic models): ``SimulationReport`` and its parts, the rounds' and the
matches' statistics by seat and by bot, ``Distribution`` (a histogram of integers and what is read from it)
and ``Estimate`` (a figure with its 95 % confidence interval)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: The percentiles every distribution reports (nearest rank: exact values that occurred).
PERCENTILES = (10, 25, 50, 75, 90)

#: The normal quantile of the 95 % confidence intervals.
Z95 = 1.959963984540054


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Distribution(Model):
    """A distribution of integers, exactly: the histogram and what is read from it."""

    count: int = Field(description="How many values.")
    mean: float | None = Field(description="Their mean (None without values).")
    stdev: float | None = Field(description="Their standard deviation (population; None without values).")
    min: int | None
    max: int | None
    percentiles: dict[int, int] = Field(
        description="p -> the smallest value with at least p % of the values at or below it (nearest rank)."
    )
    histogram: dict[int, int] = Field(description="value -> how many times it occurred, by value.")

    @classmethod
    def of(cls, histogram: Mapping[int, int]) -> Distribution:
        hist = {int(v): int(k) for v, k in sorted(histogram.items()) if k}
        n = sum(hist.values())
        if n == 0:
            return cls(count=0, mean=None, stdev=None, min=None, max=None, percentiles={}, histogram={})
        total = sum(v * k for v, k in hist.items())
        mean = total / n
        # The variance from integer sums: exact until the last division.
        square = sum(v * v * k for v, k in hist.items())
        variance = max(0, square * n - total * total) / (n * n)
        percentiles: dict[int, int] = {}
        values = list(hist.items())
        for p in PERCENTILES:
            rank = max(1, math.ceil(p * n / 100))
            seen = 0
            for v, k in values:
                seen += k
                if seen >= rank:
                    percentiles[p] = v
                    break
        return cls(
            count=n,
            mean=mean,
            stdev=math.sqrt(variance),
            min=values[0][0],
            max=values[-1][0],
            percentiles=percentiles,
            histogram=hist,
        )

    @property
    def median(self) -> int | None:
        return self.percentiles.get(50)

    def mean_interval(self) -> Estimate:
        """The mean with its 95 % confidence interval (normal approximation)."""
        if self.count == 0 or self.mean is None or self.stdev is None:
            return Estimate(value=None, low=None, high=None, n=0)
        sd = self.stdev * math.sqrt(self.count / (self.count - 1)) if self.count > 1 else 0.0
        half = Z95 * sd / math.sqrt(self.count)
        return Estimate(value=self.mean, low=self.mean - half, high=self.mean + half, n=self.count)


class Estimate(Model):
    """A figure with its 95 % confidence interval, from ``n`` observations."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def wilson(cls, k: float, n: int, shift: float = 0.0) -> Estimate:
        """The proportion ``k / n`` with its Wilson score interval (``shift`` subtracted from all three). ``k`` may
        be fractional (a tournament's shared wins count as their shares)."""
        if n == 0:
            return cls(value=None, low=None, high=None, n=0)
        p = k / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
        return cls(value=p - shift, low=max(0.0, centre - half) - shift, high=min(1.0, centre + half) - shift, n=n)

    def overlaps(self, other: Estimate) -> bool:
        if self.low is None or self.high is None or other.low is None or other.high is None:
            return True
        return self.low <= other.high and other.low <= self.high


class Side(Model):
    """One seat, or every seat one bot played, over the rounds: wins, places, totals, calls, matches."""

    bot: str
    seats: list[int] = Field(description="The seats (one for a seat's line; every seat of the bot for a bot's).")
    rounds: int = Field(description="Rounds played (a bot on two seats plays two per round).")
    wins: int = Field(description="Rounds won (a shared win counts for each winner).")
    win_rate: float
    places: list[int] = Field(description="How often it finished 1st, 2nd...: 1 + the players ranked ahead of it.")
    mean_place: float
    total: Distribution = Field(description="Card totals at the end of the round.")
    score: Distribution = Field(description="What the round scored (the caller's 0 or penalty included).")
    calls: int
    calls_won: int = Field(description="Calls after which the caller was among the winners.")
    call_success: float | None = Field(description="calls_won / calls (None without a call).")
    last_laps: int = Field(0, description="Rounds it ended by beginning a last lap, without a call.")
    last_laps_won: int = Field(0, description="Of those, rounds it won.")
    matched: int = Field(description="Right matches it made.")
    missed: int = Field(description="Wrong matches it tried.")
    late: int = Field(description="Right cards it threw too late.")
    penalties: int = Field(description="Penalty cards it took.")


class RoundStats(Model):
    """Every round played: their length, how they ended, and each seat's and bot's results."""

    rounds: int
    turns: Distribution = Field(description="Turns per round (turns begun, as the log of tamalou play counts).")
    actions: Distribution = Field(description="Actions per round (every action applied, matches included).")
    calls: int = Field(description="Rounds with a call.")
    calls_won: int = Field(description="Rounds whose caller was among the winners.")
    call_success: float | None = Field(description="calls_won / calls: the caller's win rate.")
    last_laps: int = Field(0, description="Rounds ended by a last lap begun without a call (Result.last_lap).")
    last_laps_won: int = Field(0, description="Of those, rounds whose last lap's player was among the winners.")
    matched: int
    missed: int
    late: int
    penalties: int
    matched_per_round: float
    missed_per_round: float
    penalties_per_round: float
    first_player_wins: int = Field(description="Rounds the player who played first won.")
    first_player_win_rate: float
    no_winner: int = Field(description="Rounds without a winner.")
    reasons: dict[str, int] = Field(description="How the rounds ended (Result.reason), by reason.")
    by_seat: list[Side]
    by_bot: dict[str, Side]


class MatchSide(Model):
    """One seat, or every seat one bot played, over the matches."""

    bot: str
    seats: list[int]
    matches: int
    wins: int = Field(description="Matches won (a shared win counts for each winner).")
    win_rate: float
    places: list[int] = Field(description="How often it finished 1st, 2nd...: 1 + the players ranked ahead of it.")
    mean_place: float
    total: Distribution = Field(description="Cumulative match totals ('wins' form: rounds won).")


class MatchStats(Model):
    """Whole matches (rulesets of several rounds)."""

    form: str
    matches: int
    rounds: Distribution = Field(description="Rounds per match.")
    by_seat: list[MatchSide]
    by_bot: dict[str, MatchSide]


class RunInfo(Model):
    """How the run went (not a statistic: it changes from run to run)."""

    backend: str
    workers: int
    seconds: float
    games_per_second: float | None
    notes: list[str] = Field(default_factory=list)


class SimulationReport(Model):
    """What ``simulate`` found. ``statistics()`` is everything but ``run``: the same for a given ruleset,
    player count, bots, game count and seed, whatever the backend and the number of workers."""

    variant: str
    players: int
    bots: list[str] = Field(description="The bot of each seat.")
    games: int = Field(description="Games played (whole matches for a ruleset of several rounds).")
    seed: int
    form: str = Field(description="rules.rounds.form: 'single', or the form of the matches.")
    calls_possible: bool = Field(True, description="Whether the ruleset has a call (rules.call.enabled).")
    matching: bool = Field(True, description="Whether the ruleset has matching (rules.matching.enabled).")
    rounds: RoundStats
    matches: MatchStats | None
    run: RunInfo

    def statistics(self) -> dict[str, Any]:
        """The report without ``run`` (as JSON types)."""
        return self.model_dump(mode="json", exclude={"run"})
