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

**Its modules.** This package was the module ``tamalou/simulation.py``; every name it had is importable from
``tamalou.simulation`` as before. ``run`` holds ``simulate``; ``games`` the seeds (``game_seed``,
``bot_seed``) and each game played and counted; ``backends`` the inline, process and Ray backends
(``BACKENDS``); ``tally`` the counters of a run and the report made from them;
``report`` the report's models (``SimulationReport``, ``Distribution``, ``Estimate``...); ``balance``
``compare``; ``plots`` ``plot``; ``strength`` ``tournament``, how strong a bot is against a field of
another. ``SimulationError`` is ``tamalou.errors``'s.
"""

from __future__ import annotations

from ..errors import SimulationError
from .backends import BACKENDS as BACKENDS
from .backends import Backend as Backend
from .backends import VariantRef as VariantRef
from .balance import BalanceLine, Comparison, compare
from .games import bot_seed, game_seed
from .plots import plot
from .report import PERCENTILES as PERCENTILES
from .report import Z95 as Z95
from .report import (
    Distribution,
    Estimate,
    MatchSide,
    MatchStats,
    RoundStats,
    RunInfo,
    Side,
    SimulationReport,
)
from .run import ProgressCallback as ProgressCallback
from .run import simulate
from .strength import TournamentLine, TournamentReport, tournament

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
    "TournamentLine",
    "TournamentReport",
    "bot_seed",
    "compare",
    "game_seed",
    "plot",
    "simulate",
    "tournament",
]
