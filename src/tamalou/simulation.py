"""Many games between bots, on every core or a Ray cluster: win rates, totals, round lengths, calls.

```python
import tamalou

report = tamalou.simulate("french", ["cautious", "random"], games=2000)
print(report.rounds.by_bot["cautious"].win_rate, report.rounds.turns.mean)
print(report.model_dump_json(indent=1))       # every figure, JSON (a pydantic model)
```

**Seats and seeds.** Seat ``i`` is played by ``bots[i % len(bots)]``. Game ``i`` of a run is dealt with
``game_seed(seed, i)`` (a hash of the run's seed and the game's index) and the bot of seat ``p`` is
``make_bot(name, bot_seed(game_seed, p))`` (for round ``r`` of a match, ``bot_seed(game_seed, p, r)``).
Every figure is a sum of integers (counts and exact histograms) added up over the games, so a run
gives the same statistics with any number of workers and on any backend. A game of a run is played
again, with its log, by ``tamalou play RULESET --seed G --bots ...`` with ``G = game_seed(seed, i)``
and the bots named seat by seat.

**Backends.** ``"inline"`` plays here; ``"process"`` (the default) splits the games into chunks of
consecutive indices played by a pool of worker processes (``spawn``), one per core unless ``workers``
says otherwise; ``"ray"`` sends the chunks as Ray tasks (the ``ray`` extra) to the Ray instance this
process has initialised, or to the one ``ray.init()`` finds (the cluster at ``RAY_ADDRESS``, else a local
one it starts). A ruleset travels to the workers by its name when it is registered (built-in or
installed), else as its stand-alone TOML text (with the folders of plugin modules found beside its
file, as a counterexample of ``tamalou verify`` carries it); a bot travels by its name.

**Matches.** For a ruleset of several rounds (``rules.rounds.form`` other than ``"single"``) a game is a
whole match: ``report.rounds`` counts every round played, ``report.matches`` the matches (winners,
places and cumulative totals).
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import pickle
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .engine.game import new_game
from .errors import TamalouError
from .events import Event
from .match import new_match
from .play import BotLike, play_out
from .schema import Variant
from .variant import is_registered, load_variant

__all__ = [
    "BalanceLine",
    "Comparison",
    "Distribution",
    "Estimate",
    "MatchSide",
    "MatchStats",
    "RoundStats",
    "RunInfo",
    "Side",
    "SimulationError",
    "SimulationReport",
    "bot_seed",
    "compare",
    "game_seed",
    "plot",
    "simulate",
]

#: The places a run can be played: here, in worker processes, or as Ray tasks.
BACKENDS = ("inline", "process", "ray")
Backend = Literal["inline", "process", "ray"]

#: The percentiles every distribution reports (nearest rank: exact values that occurred).
PERCENTILES = (10, 25, 50, 75, 90)

#: The event types counted per seat (by the event's ``player``).
_COUNTED = ("matched", "missed", "late", "penalty")

#: The normal quantile of the 95 % confidence intervals.
Z95 = 1.959963984540054

ProgressCallback = Callable[[int, int], None]


class SimulationError(TamalouError):
    """A game of a simulation failed (a plugin's hook, a bot, a ruleset that does not load in a worker).
    The message names the game (its index in the run and its seed) and the error."""


# ----------------------------------------------------------------------------- seeds


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``: the first 53 bits of a BLAKE2b hash of both
    (stable across versions, platforms and processes; an integer JSON keeps exactly)."""
    digest = hashlib.blake2b(f"tamalou-simulate:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 11


def bot_seed(game_seed: int, seat: int, round: int | None = None) -> int:
    """The seed of the bot of ``seat`` in the game seeded ``game_seed`` (in its round ``round``, for a
    match): the seeds ``tamalou play --seed`` gives its bots."""
    base = game_seed if round is None else game_seed * 1000 + round
    return base * 64 + seat


# ----------------------------------------------------------------------------- the report


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Distribution(_Model):
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


class Side(_Model):
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
    matched: int = Field(description="Right matches it made.")
    missed: int = Field(description="Wrong matches it tried.")
    late: int = Field(description="Right cards it threw too late.")
    penalties: int = Field(description="Penalty cards it took.")


class RoundStats(_Model):
    """Every round played: their length, how they ended, and each seat's and bot's results."""

    rounds: int
    turns: Distribution = Field(description="Turns per round (turns begun, as the log of tamalou play counts).")
    actions: Distribution = Field(description="Actions per round (every action applied, matches included).")
    calls: int = Field(description="Rounds with a call.")
    calls_won: int = Field(description="Rounds whose caller was among the winners.")
    call_success: float | None = Field(description="calls_won / calls: the caller's win rate.")
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


class MatchSide(_Model):
    """One seat, or every seat one bot played, over the matches."""

    bot: str
    seats: list[int]
    matches: int
    wins: int = Field(description="Matches won (a shared win counts for each winner).")
    win_rate: float
    places: list[int] = Field(description="How often it finished 1st, 2nd...: 1 + the players ranked ahead of it.")
    mean_place: float
    total: Distribution = Field(description="Cumulative match totals ('wins' form: rounds won).")


class MatchStats(_Model):
    """Whole matches (rulesets of several rounds)."""

    form: str
    matches: int
    rounds: Distribution = Field(description="Rounds per match.")
    by_seat: list[MatchSide]
    by_bot: dict[str, MatchSide]


class RunInfo(_Model):
    """How the run went (not a statistic: it changes from run to run)."""

    backend: str
    workers: int
    seconds: float
    games_per_second: float | None
    notes: list[str] = Field(default_factory=list)


class SimulationReport(_Model):
    """What ``simulate`` found. ``statistics()`` is everything but ``run``: the same for a given ruleset,
    player count, bots, game count and seed, whatever the backend and the number of workers."""

    variant: str
    players: int
    bots: list[str] = Field(description="The bot of each seat.")
    games: int = Field(description="Games played (whole matches for a ruleset of several rounds).")
    seed: int
    form: str = Field(description="rules.rounds.form: 'single', or the form of the matches.")
    rounds: RoundStats
    matches: MatchStats | None
    run: RunInfo

    def statistics(self) -> dict[str, Any]:
        """The report without ``run`` (as JSON types)."""
        return self.model_dump(mode="json", exclude={"run"})


# ----------------------------------------------------------------------------- plain counters


def _count(hist: dict[int, int], value: int) -> None:
    hist[value] = hist.get(value, 0) + 1


def _add_hist(into: dict[int, int], other: Mapping[int, int]) -> None:
    for v, k in other.items():
        into[v] = into.get(v, 0) + k


class _Tally:
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

    def add(self, o: _Tally) -> None:
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


# ----------------------------------------------------------------------------- the games


def _round(tally: _Tally, game: Any, bots: list[BotLike]) -> None:
    """Play one round out and count it."""
    events: list[Event] = []
    last_turn = game.turn
    play_out(game, bots, events.extend)
    round_totals, winners, ranking, _, round_scores = game.judged()  # (the result's lists, no pydantic model)
    counted = tally.events
    for e in events:
        t = e.type
        if t == "turn":
            last_turn = e.data["turn"]
        else:
            seats = counted.get(t)
            if seats is not None:
                p = e.data.get("player")
                if type(p) is int:
                    seats[p] += 1
    tally.rounds += 1
    _count(tally.turns, last_turn + 1)
    _count(tally.actions, len(game.actions))
    reasons = tally.reasons
    reasons[game.reason] = reasons.get(game.reason, 0) + 1
    if not winners:
        tally.no_winner += 1
    wins = tally.wins
    for p in winners:
        wins[p] += 1
    if game.first_player in winners:
        tally.first_wins += 1
    places = tally.places
    ahead = 0
    for group in ranking:
        for p in group:
            places[p][ahead] += 1
        ahead += len(group)
    totals, scores = tally.totals, tally.scores
    for p, v in enumerate(round_totals):
        h = totals[p]
        h[v] = h.get(v, 0) + 1
    for p, v in enumerate(round_scores):
        h = scores[p]
        h[v] = h.get(v, 0) + 1
    caller = game.caller
    if caller is not None:
        tally.calls[caller] += 1
        if caller in winners:
            tally.calls_won[caller] += 1


def _run_chunk(
    variant: Variant,
    factories: Sequence[Callable[[int], BotLike]],
    players: int,
    seed: int,
    start: int,
    stop: int,
) -> _Tally:
    """Play games ``start`` to ``stop - 1`` of the run and count them."""
    tally = _Tally(players)
    seats = [factories[p % len(factories)] for p in range(players)]
    is_match = variant.rules.rounds.form != "single"
    for i in range(start, stop):
        gs = game_seed(seed, i)
        try:
            if is_match:
                m = new_match(variant, players, seed=gs)
                while not m.is_over:
                    r = m.round
                    _round(tally, m.game, [make(bot_seed(gs, p, r)) for p, make in enumerate(seats)])
                    m.next_round()
                result = m.result()
                tally.matches += 1
                _count(tally.match_rounds, len(result.rounds))
                for p in result.winners:
                    tally.match_wins[p] += 1
                ahead = 0
                for group in result.ranking:
                    for p in group:
                        tally.match_places[p][ahead] += 1
                    ahead += len(group)
                for p, v in enumerate(result.totals):
                    _count(tally.match_totals[p], v)
            else:
                game = new_game(variant, players, seed=gs)
                _round(tally, game, [make(bot_seed(gs, p)) for p, make in enumerate(seats)])
        except Exception as exc:
            raise SimulationError(f"game {i} (seed {gs}): {type(exc).__name__}: {exc}") from exc
        tally.games += 1
    return tally


# ----------------------------------------------------------------------------- bots and rulesets by name


def _factory(name: str) -> Callable[[int], BotLike]:
    """What ``make_bot(name, seed)`` calls, found once for a run (``ValueError`` for an unknown name)."""
    from .bots import bot_factory

    return bot_factory(name)


def _bot_names(bots: str | Sequence[str]) -> list[str]:
    names = [bots] if isinstance(bots, str) else list(bots)
    if not names:
        raise ValueError("no bot: name at least one (tamalou.bots.bot_names() lists them)")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a bot is given by its name (tamalou.bots.bot_names()), got {name!r}")
        _factory(name)  # an unknown name: the error lists the bots
    return [name.strip().lower() for name in names]


VariantRef = str | list[str] | dict[str, Any]


def _variant_ref(v: Variant) -> VariantRef:
    """How the ruleset travels to a worker: its registered name(s), or its stand-alone TOML text."""
    from .verification import EmbeddedVariant

    spec = v.spec
    if isinstance(spec, str) and is_registered(spec):
        return spec
    if isinstance(spec, list | tuple) and spec and all(isinstance(s, str) and is_registered(s) for s in spec):
        return [str(s) for s in spec]
    return EmbeddedVariant.of(v).model_dump(mode="json")


_LOADED: dict[str, Variant] = {}


def _variant_of(ref: VariantRef) -> Variant:
    """The ruleset a worker was sent (loaded once per process)."""
    key = json.dumps(ref, sort_keys=True)
    v = _LOADED.get(key)
    if v is None:
        if isinstance(ref, dict):
            from .verification import EmbeddedVariant

            v = EmbeddedVariant.model_validate(ref).load()
        else:
            v = load_variant(ref)
        _LOADED[key] = v
    return v


# ----------------------------------------------------------------------------- the backends


def _chunks(games: int, workers: int, most: int = 500) -> list[tuple[int, int]]:
    """Consecutive ranges of game indices: about eight per worker, at most ``most`` games each."""
    size = max(1, min(most, math.ceil(games / (8 * max(1, workers)))))
    return [(a, min(games, a + size)) for a in range(0, games, size)]


_POOL: tuple[Variant, list[Callable[[int], BotLike]]] | None = None


def _init_pool(ref: VariantRef, names: list[str]) -> None:
    """A worker process's start: the ruleset and the bots, once (a ruleset that does not load here
    breaks the pool, and the games are played in the main process instead)."""
    global _POOL
    from .rules import rulebook

    v = _variant_of(ref)
    rulebook(v)
    _POOL = (v, [_factory(n) for n in names])


def _pool_chunk(players: int, seed: int, start: int, stop: int) -> tuple[int, _Tally]:
    assert _POOL is not None
    return start, _run_chunk(_POOL[0], _POOL[1], players, seed, start, stop)


def _ray_chunk(ref: VariantRef, names: list[str], players: int, seed: int, start: int, stop: int) -> _Tally:
    return _run_chunk(_variant_of(ref), [_factory(n) for n in names], players, seed, start, stop)


def _run_inline(
    v: Variant, names: list[str], players: int, seed: int, chunks: list[tuple[int, int]], done: Callable[[int], None]
) -> list[_Tally]:
    factories = [_factory(n) for n in names]
    out = []
    for a, b in chunks:
        out.append(_run_chunk(v, factories, players, seed, a, b))
        done(b - a)
    return out


def _run_process(
    v: Variant,
    names: list[str],
    players: int,
    seed: int,
    chunks: list[tuple[int, int]],
    workers: int,
    done: Callable[[int], None],
) -> list[_Tally]:
    """The chunks on a pool of ``workers`` processes, a few ahead of the results; in chunk order."""
    context = multiprocessing.get_context("spawn")
    found: dict[int, _Tally] = {}
    queue = list(reversed(chunks))
    initargs = (_variant_ref(v), names)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_pool, initargs=initargs) as pool:
        running: set[Future[tuple[int, _Tally]]] = set()
        try:
            while queue or running:
                while queue and len(running) < 2 * workers:
                    a, b = queue.pop()
                    running.add(pool.submit(_pool_chunk, players, seed, a, b))
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    start, tally = future.result()
                    found[start] = tally
                    done(tally.games)
        except BaseException:
            for future in running:
                future.cancel()
            raise
    return [found[a] for a, _ in chunks]


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'tamalou[ray]'") from None
    return ray


def _ray_start(ray: Any) -> None:
    """Use the Ray instance of this process, or ``ray.init()``: the cluster at ``RAY_ADDRESS`` if set,
    else a local one (left running for the next run; ``ray.shutdown()`` ends it)."""
    if ray.is_initialized():
        return
    import logging

    if os.environ.get("RAY_ADDRESS"):
        ray.init(logging_level=logging.WARNING)
    else:
        ray.init(include_dashboard=False, logging_level=logging.WARNING)


def _ray_workers(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _run_ray(
    v: Variant,
    names: list[str],
    players: int,
    seed: int,
    chunks: list[tuple[int, int]],
    done: Callable[[int], None],
) -> list[_Tally]:
    ray = _ray()
    task = ray.remote(_ray_chunk)
    ref = _variant_ref(v)
    pending = {task.remote(ref, names, players, seed, a, b): a for a, b in chunks}
    found: dict[int, _Tally] = {}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for r in ready:
                start = pending.pop(r)
                tally = ray.get(r)
                found[start] = tally
                done(tally.games)
    except ray.exceptions.RayTaskError as exc:
        for r in pending:
            ray.cancel(r)
        cause = getattr(exc, "cause", None)
        if isinstance(cause, SimulationError):
            raise SimulationError(str(cause)) from None
        raise SimulationError(f"a Ray task failed: {cause if cause is not None else exc}") from None
    return [found[a] for a, _ in chunks]


# ----------------------------------------------------------------------------- simulate


def _players(v: Variant, players: int | None) -> int:
    lo, hi = v.rules.players.min, v.rules.players.max
    if players is None:
        return min(max(4, lo), hi)
    if type(players) is not int or not lo <= players <= hi:
        from .errors import SetupError

        raise SetupError(f"{v.name} is played by {lo} to {hi} players, got {players!r}")
    return players


def simulate(
    variant: Variant | str | Sequence[str],
    bots: str | Sequence[str] = "random",
    games: int = 1000,
    seed: int = 0,
    workers: int | None = None,
    backend: Backend = "process",
    players: int | None = None,
    progress: ProgressCallback | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games of ``variant`` between ``bots`` and return their statistics.

    ``bots`` is a bot's name or a list of names (``tamalou.bots.bot_names()``): seat ``i`` gets
    ``bots[i % len(bots)]``. ``players`` defaults to 4 (or the nearest count the ruleset allows). A
    ruleset of several rounds plays whole matches. ``backend``: ``"inline"`` (here), ``"process"``
    (``workers`` processes, default one per core; a single worker plays here) or ``"ray"`` (tasks on
    the Ray cluster, ``workers`` sizing the chunks; default its CPUs). ``progress(done, games)`` is
    called as games finish. The statistics do not depend on the backend or the workers (see the
    module's documentation for the seeds).

    Raises ``VariantError`` for a ruleset that does not load, ``SetupError`` for a player count it does
    not allow, ``ValueError`` for an unknown bot or backend, ``ImportError`` for the Ray backend
    without Ray, and ``SimulationError`` when a game fails (a plugin's hook raised, a bot crashed).

    With the process backend a script must call it under ``if __name__ == "__main__":`` (the worker
    processes are started with ``spawn``, which imports the script again).
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    if type(seed) is not int:
        raise TypeError(f"a seed is an integer, got {seed!r}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be at least 1, got {workers!r}")
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    n = _players(v, players)
    names = _bot_names(bots)
    seats = [names[p % len(names)] for p in range(n)]
    finished = 0

    def done(count: int) -> None:
        nonlocal finished
        finished += count
        if progress is not None:
            progress(finished, games)

    notes: list[str] = []
    if backend == "ray":
        ray = _ray()
        _ray_start(ray)  # not timed: a cluster is usually up already
        used = workers if workers is not None else _ray_workers(ray)
        start = time.perf_counter()
        tallies = _run_ray(v, names, n, seed, _chunks(games, used), done)
    else:
        from .verification import default_workers

        used = 1 if backend == "inline" else min(games, workers if workers is not None else default_workers(games))
        chunks = _chunks(games, used)
        start = time.perf_counter()
        tallies = []
        if used > 1:
            try:
                tallies = _run_process(v, names, n, seed, chunks, used, done)
            except (BrokenProcessPool, pickle.PicklingError, OSError) as exc:
                notes.append(f"the worker processes failed ({type(exc).__name__}: {exc}); the games were played here")
                used, finished = 1, 0
        if not tallies:
            tallies = _run_inline(v, names, n, seed, chunks, done)
    seconds = time.perf_counter() - start
    total = _Tally(n)
    for t in tallies:
        total.add(t)
    run = RunInfo(
        backend=backend,
        workers=used,
        seconds=seconds,
        games_per_second=games / seconds if seconds > 0 else None,
        notes=notes,
    )
    return _report(v, seats, seed, total, run)


# ----------------------------------------------------------------------------- from counters to the report


def _rate(k: int, n: int) -> float:
    return k / n if n else 0.0


def _mean_place(places: Sequence[int]) -> float:
    n = sum(places)
    return sum((k + 1) * c for k, c in enumerate(places)) / n if n else 0.0


def _side(t: _Tally, seats: list[int], bot: str) -> Side:
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
        matched=ev["matched"],
        missed=ev["missed"],
        late=ev["late"],
        penalties=ev["penalty"],
    )


def _match_side(t: _Tally, seats: list[int], bot: str) -> MatchSide:
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


def _report(v: Variant, seats: list[str], seed: int, t: _Tally, run: RunInfo) -> SimulationReport:
    groups = _by_bot(seats)
    rounds = t.rounds
    calls, calls_won = sum(t.calls), sum(t.calls_won)
    ev = {k: sum(t.events[k]) for k in _COUNTED}
    round_stats = RoundStats(
        rounds=rounds,
        turns=Distribution.of(t.turns),
        actions=Distribution.of(t.actions),
        calls=calls,
        calls_won=calls_won,
        call_success=calls_won / calls if calls else None,
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
        rounds=round_stats,
        matches=match_stats,
        run=run,
    )


# ----------------------------------------------------------------------------- balance: rulesets compared


class Estimate(_Model):
    """A figure with its 95 % confidence interval, from ``n`` observations."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def wilson(cls, k: int, n: int, shift: float = 0.0) -> Estimate:
        """The proportion ``k / n`` with its Wilson score interval (``shift`` subtracted from all three)."""
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


class BalanceLine(_Model):
    """One figure of the balance report, for each ruleset compared."""

    metric: str
    description: str
    estimates: list[Estimate] = Field(description="One per report, in the order given.")
    differs: bool = Field(description="Whether two of the intervals do not overlap.")


class Comparison(_Model):
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


# ----------------------------------------------------------------------------- plots


def plot(reports: SimulationReport | Sequence[SimulationReport], path: str | Path) -> Path:
    """Draw, for each report, the distribution of each bot's round totals (and match totals, for a
    ruleset of several rounds) into the image ``path`` (PNG, SVG or PDF, by its suffix). Needs
    matplotlib (the ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'tamalou[plot]'") from None
    rs = [reports] if isinstance(reports, SimulationReport) else list(reports)
    columns = 2 if any(r.matches is not None for r in rs) else 1
    fig, axes = plt.subplots(len(rs), columns, figsize=(7 * columns, 3.6 * len(rs)), squeeze=False)
    for row, r in zip(axes, rs, strict=True):
        panels: list[tuple[str, dict[str, Distribution]]] = [
            ("card total at the end of a round", {b: s.total for b, s in r.rounds.by_bot.items()})
        ]
        if r.matches is not None:
            panels.append(("match total", {b: s.total for b, s in r.matches.by_bot.items()}))
        for ax, (what, by_bot) in zip(row, panels, strict=False):
            for bot, dist in by_bot.items():
                values = list(dist.histogram)
                weights = [k / dist.count for k in dist.histogram.values()] if dist.count else []
                lo, hi = (min(values), max(values)) if values else (0, 1)
                ax.hist(values, bins=range(lo, hi + 2), weights=weights, histtype="step", linewidth=1.5, label=bot)
            ax.set_title(f"{r.variant}, {r.players} players, {r.games} games: {what}", fontsize=9)
            ax.set_xlabel(what)
            ax.set_ylabel("share")
            ax.legend(fontsize=8)
        for ax in row[len(panels) :]:
            ax.axis("off")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
