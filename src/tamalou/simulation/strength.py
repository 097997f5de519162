"""How strong a bot is: ``tournament(variant, bots, against="greedy", games=400, players=4)`` seats each bot of
``bots`` alone against a field of ``against`` bots and reports its score with a 95 % interval.

**The games.** For a bot, game ``i`` is dealt with ``game_seed(seed, i)`` (``tamalou.simulation``'s seeds, so
``tamalou play RULESET --seed G`` plays it again); the bot sits at seat ``i % players`` (each seat as often, so
the first player's advantage cancels out) and every other seat is an ``against`` bot; the bot of seat ``p`` is
seeded ``bot_seed(G, p)``. Every bot of ``bots`` plays the same deals. In a timed ruleset each move is stamped
one second after the one before (``play_game``'s ``seconds_per_action``).

**The score** is the bot's share of the wins: 1 for a round it wins alone, ``1/k`` for one it shares with
``k - 1`` others, 0 otherwise, averaged over the games. A bot as strong as its field scores ``1/players``
(``even``); ``score.low > even`` says it is stronger (the 95 % Wilson interval of the score lies above), and
``score.high < even`` weaker. ``seconds_per_move`` is the mean time the bot took to decide (its ``act`` calls
when it had a move of its own to choose: its turns, not the matches it was offered out of turn), and
``slowest_move`` the longest.

**The rating** puts the score on a scale that does not depend on the number of players: the bot's Bradley-Terry
rating against its field, in Elo points (``bradley_terry``; the field at 0, +100 a bot that finishes ahead of a
field seat 64 % of the time), from its share of its comparisons with the field's seats in each game (ahead of a
seat: 1; tied: 1/2), with a 95 % interval from the spread of the games.

A ruleset of several rounds is scored round by round (its first round): a tournament measures play, not the
match's arithmetic.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .._processes import unguarded_note
from ..actions import MatchAction
from ..engine.round import new_round
from ..errors import SimulationError
from ..play import BotLike, play_game, seat_bot
from ..rulesets import load_variant
from ..schema import Variant
from .backends import VariantRef, bot_names, chunk_ranges, factory, pooled, variant_of, variant_ref
from .games import bot_seed, game_seed
from .report import Z95, Estimate
from .run import player_count

__all__ = ["TournamentLine", "TournamentReport", "bradley_terry", "tournament"]


class TournamentLine(BaseModel):
    """One bot against its field in one ruleset."""

    model_config = ConfigDict(frozen=True)

    ruleset: str
    bot: str
    against: str
    players: int
    games: int
    score: Estimate = Field(description="The bot's share of the wins, with its 95 % Wilson interval.")
    rating: Estimate = Field(
        description="Its Bradley-Terry rating against the field, in Elo points (the field at 0), with its 95 % "
        "interval: 400 log10(p / (1 - p)), p its share of its comparisons with the field's seats (1 for a seat it "
        "finished ahead of, 1/2 for a tie), the interval from the games' spread (a game is one observation)."
    )
    even: float = Field(description="The score of a bot as strong as its field: 1 / players.")
    verdict: str = Field(description="'stronger', 'weaker' or 'even': where the interval lies against `even`.")
    wins: float = Field(description="The sum of the bot's shares of the wins.")
    moves: int = Field(description="The moves the bot chose on its turns.")
    seconds_per_move: float | None
    slowest_move: float | None


class TournamentReport(BaseModel):
    """Every line of a tournament, and how it was run."""

    model_config = ConfigDict(frozen=True)

    lines: list[TournamentLine]
    seed: int
    workers: int
    seconds: float
    notes: list[str] = Field(default_factory=list)


class _Timed:
    """A bot whose decisions on its own moves are timed."""

    def __init__(self, bot: BotLike) -> None:
        self.seated = seat_bot(bot)
        self._act = self.seated.act
        self.moves = 0
        self.seconds = 0.0
        self.slowest = 0.0
        self.needs_view = self.seated.needs_view
        if self.seated.may_match is not None:
            self.may_match = self.seated.may_match

    def setup(self, variant: Variant, player: int) -> None:
        self.seated.sit(variant, player)

    def act(self, view: Any, legal: list[Any]) -> Any:
        if all(isinstance(a, MatchAction) for a in legal):  # offered out of its turn: not timed
            return self._act(view, legal)
        start = time.perf_counter()
        choice = self._act(view, legal)
        took = time.perf_counter() - start
        self.moves += 1
        self.seconds += took
        self.slowest = max(self.slowest, took)
        return choice


#: One game's outcome: the bot's share of the wins, its moves, their seconds, the slowest, and its share of its
#: comparisons with the other seats (1 for a seat ranked behind it, 1/2 for one tied with it).
_Outcome = tuple[float, int, float, float, float]


def _game(
    v: Variant, bot: Callable[[int], BotLike], field: Callable[[int], BotLike], n: int, seed: int, i: int
) -> _Outcome:
    g = game_seed(seed, i)
    me = i % n
    timed = _Timed(bot(bot_seed(g, me)))
    seats: list[BotLike] = [timed if p == me else field(bot_seed(g, p)) for p in range(n)]
    game = new_round(v, n, seed=g)
    try:
        result = play_game(game, seats)
    except Exception as exc:  # a plugin's hook or a bot failed: say which game
        raise SimulationError(f"game {i} (seed {g}, the bot at seat {me}) failed: {type(exc).__name__}: {exc}") from exc
    share = 1.0 / len(result.winners) if me in result.winners else 0.0
    return share, timed.moves, timed.seconds, timed.slowest, _compared(result.ranking, me, n)


def _compared(ranking: Sequence[Sequence[int]], me: int, n: int) -> float:
    """Seat ``me``'s share of its comparisons with the ``n - 1`` other seats in ``ranking`` (best place first): 1
    for each seat in a later place, 1/2 for each in its own."""
    behind = tied = 0
    seen = False
    for place in ranking:
        if me in place:
            tied, seen = len(place) - 1, True
        elif seen:
            behind += len(place)
    return (behind + tied / 2) / max(1, n - 1)


def bradley_terry(compared: Sequence[float]) -> Estimate:
    """The Bradley-Terry rating of a bot against its field, in Elo points, from its share of the comparisons of each
    game (``_compared``): with a field of one strength, the model's maximum-likelihood rating is the logit of the
    mean share, ``400 log10(p / (1 - p))`` (the field at 0; no solver needed for one rating against one field). The
    95 % interval is the mean's (normal, from the spread of the games: the comparisons of one game are not
    independent), mapped through the same curve; a share of 0 or 1 is held half a comparison from the end."""
    n = len(compared)
    if n == 0:
        return Estimate(value=None, low=None, high=None, n=0)
    mean = sum(compared) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in compared) / (n - 1)) if n > 1 else 0.5
    half = Z95 * spread / math.sqrt(n)
    edge = 0.5 / n

    def elo(p: float) -> float:
        p = min(1 - edge, max(edge, p))
        return 400 * math.log10(p / (1 - p))

    return Estimate(value=elo(mean), low=elo(mean - half), high=elo(mean + half), n=n)


def _chunk(ref: VariantRef, bot: str, field: str, n: int, seed: int, start: int, stop: int) -> list[_Outcome]:
    v = variant_of(ref)
    make, other = factory(bot), factory(field)
    return [_game(v, make, other, n, seed, i) for i in range(start, stop)]


def _line(v: Variant, bot: str, field: str, n: int, outcomes: list[_Outcome]) -> TournamentLine:
    games = len(outcomes)
    wins = sum(o[0] for o in outcomes)
    moves = sum(o[1] for o in outcomes)
    seconds = sum(o[2] for o in outcomes)
    even = 1.0 / n
    score = Estimate.wilson(wins, games)
    rating = bradley_terry([o[4] for o in outcomes])
    verdict = "stronger" if (score.low or 0) > even else "weaker" if (score.high or 1) < even else "even"
    return TournamentLine(
        ruleset=v.name,
        bot=bot,
        against=field,
        players=n,
        games=games,
        score=score,
        rating=rating,
        even=even,
        verdict=verdict,
        wins=wins,
        moves=moves,
        seconds_per_move=seconds / moves if moves else None,
        slowest_move=max((o[3] for o in outcomes), default=None) if moves else None,
    )


def tournament(
    variant: Variant | str | Sequence[str] | Sequence[Variant | str | Sequence[str]],
    bots: str | Sequence[str],
    against: str = "greedy",
    games: int = 400,
    players: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentReport:
    """Each bot of ``bots`` alone against ``against`` bots, ``games`` games each, in ``variant`` (see the
    module's text). ``variant`` is a ruleset, or a list of rulesets for a line per ruleset and bot (a list of
    names is several rulesets here: compose one with ``load_variant([...])`` first). ``players``: default 4
    (or the nearest count the ruleset allows). ``workers``: processes (default one per core; one plays here).
    ``progress(done, total)`` is called as games finish."""
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    specs = list(variant) if isinstance(variant, list | tuple) else [variant]
    variants = [s if isinstance(s, Variant) else load_variant(s) for s in specs]  # type: ignore[arg-type]
    names = bot_names(bots)
    field = bot_names(against)
    if len(field) != 1:
        raise ValueError(f"the field is one bot, got {', '.join(field)}")
    jobs = [(v, player_count(v, players), name) for v in variants for name in names]
    total = len(jobs) * games
    from ..verify import default_workers

    used = min(total, workers if workers is not None else default_workers(total))
    notes: list[str] = []
    unguarded = unguarded_note("tournament") if used > 1 else None
    if unguarded is not None:
        notes.append(unguarded)
        used = 1
    found: dict[tuple[int, int], list[_Outcome]] = {}
    tasks = [(k, a, b) for k in range(len(jobs)) for a, b in chunk_ranges(games, used, most=25)]
    refs = [variant_ref(v) for v, _, _ in jobs]
    calls = [(_chunk, (refs[k], jobs[k][2], field[0], jobs[k][1], seed, a, b)) for k, a, b in tasks]
    start = time.perf_counter()
    played = pooled(calls, used) if used > 1 else ((i, call(*args)) for i, (call, args) in enumerate(calls))
    finished = 0
    for i, outcomes in played:
        k, a, _ = tasks[i]
        found[k, a] = outcomes
        finished += len(outcomes)
        if progress is not None:
            progress(finished, total)
    lines = []
    for k, (v, n, name) in enumerate(jobs):
        outcomes = [o for (j, a), chunk in sorted(found.items()) if j == k for o in chunk]
        lines.append(_line(v, name, field[0], n, outcomes))
    return TournamentReport(lines=lines, seed=seed, workers=used, seconds=time.perf_counter() - start, notes=notes)
