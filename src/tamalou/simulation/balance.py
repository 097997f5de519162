"""The balance report: two simulations (or more) compared, figure by figure, with 95 % confidence
intervals (``compare``, ``Comparison``)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from .report import Estimate, Model, SimulationReport


class BalanceLine(Model):
    """One figure of the balance report, for each ruleset compared."""

    metric: str
    description: str
    estimates: list[Estimate] = Field(description="One per report, in the order given.")
    differs: bool = Field(description="Whether two of the intervals do not overlap.")


class Comparison(Model):
    """Rulesets side by side: each one's report and the balance figures."""

    reports: list[SimulationReport]
    balance: list[BalanceLine]


def _line(metric: str, description: str, estimates: list[Estimate]) -> BalanceLine:
    differs = any(not a.overlaps(b) for i, a in enumerate(estimates) for b in estimates[i + 1 :])
    return BalanceLine(metric=metric, description=description, estimates=estimates, differs=differs)


def compare(reports: Sequence[SimulationReport]) -> Comparison:
    """The balance report of two (or more) simulations: the caller's win rate, the length of a round
    and the first player's advantage, each with a 95 % confidence interval (Wilson for proportions,
    the normal approximation for the mean), and whether two of the intervals do not overlap."""
    if len(reports) < 2:
        raise ValueError(f"compare needs two reports or more, got {len(reports)}")
    rs = list(reports)
    lines = [
        _line(
            "caller win rate",
            "Rounds the caller won, among the rounds with a call (the call's success).",
            [Estimate.wilson(r.rounds.calls_won, r.rounds.calls) for r in rs],
        ),
        _line(
            "round length (turns)",
            "Turns per round, on average.",
            [r.rounds.turns.mean_interval() for r in rs],
        ),
        _line(
            "first player's advantage",
            "The win rate of the player who played first, minus 1/players (a shared win counts as a win).",
            [Estimate.wilson(r.rounds.first_player_wins, r.rounds.rounds, 1 / r.players) for r in rs],
        ),
    ]
    return Comparison(reports=rs, balance=lines)
