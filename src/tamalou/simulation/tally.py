"""The counters of a run (``Tally``: integers, lists and histograms, added up exactly over the games,
pickled to and from the workers) and the report made from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..schema import Variant
from .report import Distribution, MatchSide, MatchStats, RoundStats, RunInfo, Side, SimulationReport

#: The event types counted per seat (by the event's ``player``).
_COUNTED = ("matched", "missed", "late", "penalty")


# ----------------------------------------------------------------------------- plain counters


def count_value(hist: dict[int, int], value: int) -> None:
    hist[value] = hist.get(value, 0) + 1


def _add_hist(into: dict[int, int], other: Mapping[int, int]) -> None:
    for v, k in other.items():
        into[v] = into.get(v, 0) + k


class Tally:
    """The counters of some games of a run: integers, lists and histograms only (added up exactly,
    pickled to and from the workers)."""

    def __init__(self, players: int) -> None:
        n = players
        self.players = n
        self.games = 0
        self.rounds = 0
        self.wins = [0] * n
        self.places = [[0] * n for _ in range(n)]
        self.totals: list[dict[int, int]] = [{} for _ in range(n)]
        self.scores: list[dict[int, int]] = [{} for _ in range(n)]
        self.calls = [0] * n
        self.calls_won = [0] * n
        #: Rounds each seat ended by beginning a last lap (``Round.last_lap``: no call), and of those, won.
        self.last_laps = [0] * n
        self.last_laps_won = [0] * n
        self.events = {t: [0] * n for t in _COUNTED}
        self.first_wins = 0
        self.no_winner = 0
        self.turns: dict[int, int] = {}
        self.actions: dict[int, int] = {}
        self.reasons: dict[str, int] = {}
        # Whole matches.
        self.matches = 0
        self.match_wins = [0] * n
        self.match_places = [[0] * n for _ in range(n)]
        self.match_totals: list[dict[int, int]] = [{} for _ in range(n)]
        self.match_rounds: dict[int, int] = {}

    def add(self, o: Tally) -> None:
        n = self.players
        self.games += o.games
        self.rounds += o.rounds
        self.first_wins += o.first_wins
        self.no_winner += o.no_winner
        self.matches += o.matches
        for p in range(n):
            self.wins[p] += o.wins[p]
            self.calls[p] += o.calls[p]
            self.calls_won[p] += o.calls_won[p]
            self.last_laps[p] += o.last_laps[p]
            self.last_laps_won[p] += o.last_laps_won[p]
            self.match_wins[p] += o.match_wins[p]
            for k in range(n):
                self.places[p][k] += o.places[p][k]
                self.match_places[p][k] += o.match_places[p][k]
            _add_hist(self.totals[p], o.totals[p])
            _add_hist(self.scores[p], o.scores[p])
            _add_hist(self.match_totals[p], o.match_totals[p])
            for t in _COUNTED:
                self.events[t][p] += o.events[t][p]
        _add_hist(self.turns, o.turns)
        _add_hist(self.actions, o.actions)
        _add_hist(self.match_rounds, o.match_rounds)
        for r, k in o.reasons.items():
            self.reasons[r] = self.reasons.get(r, 0) + k


# ----------------------------------------------------------------------------- from counters to the report


def _rate(k: int, n: int) -> float:
    return k / n if n else 0.0


def _mean_place(places: Sequence[int]) -> float:
    n = sum(places)
    return sum((k + 1) * c for k, c in enumerate(places)) / n if n else 0.0


def _side(t: Tally, seats: list[int], bot: str) -> Side:
    n = t.players
    rounds = t.rounds * len(seats)
    wins = sum(t.wins[p] for p in seats)
    places = [sum(t.places[p][k] for p in seats) for k in range(n)]
    totals: dict[int, int] = {}
    scores: dict[int, int] = {}
    for p in seats:
        _add_hist(totals, t.totals[p])
        _add_hist(scores, t.scores[p])
    calls = sum(t.calls[p] for p in seats)
    calls_won = sum(t.calls_won[p] for p in seats)
    last_laps = sum(t.last_laps[p] for p in seats)
    last_laps_won = sum(t.last_laps_won[p] for p in seats)
    ev = {k: sum(t.events[k][p] for p in seats) for k in _COUNTED}
    return Side(
        bot=bot,
        seats=seats,
        rounds=rounds,
        wins=wins,
        win_rate=_rate(wins, rounds),
        places=places,
        mean_place=_mean_place(places),
        total=Distribution.of(totals),
        score=Distribution.of(scores),
        calls=calls,
        calls_won=calls_won,
        call_success=calls_won / calls if calls else None,
        last_laps=last_laps,
        last_laps_won=last_laps_won,
        matched=ev["matched"],
        missed=ev["missed"],
        late=ev["late"],
        penalties=ev["penalty"],
    )


def _match_side(t: Tally, seats: list[int], bot: str) -> MatchSide:
    n = t.players
    matches = t.matches * len(seats)
    wins = sum(t.match_wins[p] for p in seats)
    places = [sum(t.match_places[p][k] for p in seats) for k in range(n)]
    totals: dict[int, int] = {}
    for p in seats:
        _add_hist(totals, t.match_totals[p])
    return MatchSide(
        bot=bot,
        seats=seats,
        matches=matches,
        wins=wins,
        win_rate=_rate(wins, matches),
        places=places,
        mean_place=_mean_place(places),
        total=Distribution.of(totals),
    )


def _by_bot(seats: list[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for p, name in enumerate(seats):
        out.setdefault(name, []).append(p)
    return out


def tally_report(v: Variant, seats: list[str], seed: int, t: Tally, run: RunInfo) -> SimulationReport:
    groups = _by_bot(seats)
    rounds = t.rounds
    calls, calls_won = sum(t.calls), sum(t.calls_won)
    last_laps, last_laps_won = sum(t.last_laps), sum(t.last_laps_won)
    ev = {k: sum(t.events[k]) for k in _COUNTED}
    round_stats = RoundStats(
        rounds=rounds,
        turns=Distribution.of(t.turns),
        actions=Distribution.of(t.actions),
        calls=calls,
        calls_won=calls_won,
        call_success=calls_won / calls if calls else None,
        last_laps=last_laps,
        last_laps_won=last_laps_won,
        matched=ev["matched"],
        missed=ev["missed"],
        late=ev["late"],
        penalties=ev["penalty"],
        matched_per_round=_rate(ev["matched"], rounds),
        missed_per_round=_rate(ev["missed"], rounds),
        penalties_per_round=_rate(ev["penalty"], rounds),
        first_player_wins=t.first_wins,
        first_player_win_rate=_rate(t.first_wins, rounds),
        no_winner=t.no_winner,
        reasons=dict(sorted(t.reasons.items())),
        by_seat=[_side(t, [p], name) for p, name in enumerate(seats)],
        by_bot={name: _side(t, ps, name) for name, ps in groups.items()},
    )
    form = v.rules.rounds.form
    match_stats = None
    if form != "single":
        match_stats = MatchStats(
            form=form,
            matches=t.matches,
            rounds=Distribution.of(t.match_rounds),
            by_seat=[_match_side(t, [p], name) for p, name in enumerate(seats)],
            by_bot={name: _match_side(t, ps, name) for name, ps in groups.items()},
        )
    return SimulationReport(
        variant=v.name,
        players=len(seats),
        bots=seats,
        games=t.games,
        seed=seed,
        form=form,
        calls_possible=v.rules.call.enabled,
        matching=v.rules.matching.enabled,
        rounds=round_stats,
        matches=match_stats,
        run=run,
    )
