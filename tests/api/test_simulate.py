"""``tamalou.simulate``: the statistics of many games, the same on every backend and any number of workers,
and right (computed here again, game by game, with ``play_game`` and every event of each round).

The Ray backend is tested in ``tests/extras/test_ray.py`` (the ``ray`` extra), the plot in
``tests/extras/test_plot.py`` (the ``plot`` extra); the games counted by hand are ``tests/simulated.py``'s.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import tamalou
from simulated import FREE_SEVENS, assert_right, by_hand, house
from tamalou.errors import SetupError, VariantError
from tamalou.simulation import (
    PERCENTILES,
    Distribution,
    Estimate,
    SimulationError,
    SimulationReport,
    bot_seed,
    compare,
    game_seed,
    simulate,
)

BROKEN_WINNERS = """\
import tamalou


@tamalou.hookimpl
def tamalou_winners(variant, tally, ranking):
    return [len(tally.totals) // 0]
"""


def test_the_statistics_are_those_of_the_games_played_by_hand() -> None:
    bots = ["cautious", "random"]
    report = simulate("french", bots, games=8, seed=11, players=3, backend="inline")
    assert report.bots == ["cautious", "random", "cautious"] and report.games == 8 and report.seed == 11
    assert_right(report, by_hand("french", bots, 8, 11, 3))


def test_a_match_ruleset_counts_rounds_and_matches() -> None:
    spec = ["french", "multi-round"]
    report = simulate(spec, "random", games=3, seed=2, players=3, backend="inline")
    assert report.form == "fixed" and report.matches is not None and report.matches.form == "fixed"
    assert report.rounds.rounds == 15 and report.matches.rounds.histogram == {5: 3}
    assert_right(report, by_hand(spec, ["random"], 3, 2, 3))
    # A points match (Cabo): rounds until a limit.
    cabo = simulate("cabo", ["cautious", "random"], games=2, seed=4, players=2, backend="inline")
    assert cabo.form == "points" and cabo.matches is not None
    assert_right(cabo, by_hand("cabo", ["cautious", "random"], 2, 4, 2))


def test_the_counts_add_up() -> None:
    report = simulate("french", ["random", "cautious"], games=10, players=4, backend="inline")
    rs = report.rounds
    assert sum(rs.reasons.values()) == rs.rounds == 10
    assert rs.turns.count == rs.actions.count == 10
    for side in rs.by_seat:
        assert sum(side.places) == 10 and side.total.count == 10
    assert sum(rs.by_bot["random"].places) == 20
    assert rs.by_bot["random"].wins + rs.by_bot["cautious"].wins == sum(s.wins for s in rs.by_seat)


# ----------------------------------------------------------------------------- the same on every backend


def test_workers_and_backends_change_nothing() -> None:
    args: dict[str, Any] = {"variant": "french", "bots": ["cautious", "random"], "games": 30, "seed": 5}
    inline = simulate(**args, backend="inline")
    one = simulate(**args, backend="process", workers=1)
    two = simulate(**args, backend="process", workers=2)
    assert (inline.run.workers, one.run.workers, two.run.workers) == (1, 1, 2)
    assert not two.run.notes
    assert inline.statistics() == one.statistics() == two.statistics()
    assert "run" not in inline.statistics() and inline.statistics()["rounds"]["rounds"] == 30


def test_a_ruleset_from_a_file_travels_to_the_worker_processes(tmp_path: Path) -> None:
    """By its TOML text, not its path: the file is gone when the workers start. A plugin found beside the
    file is imported again from its folder."""
    path = house(tmp_path, "low_threshold", rules="[rules.call]\nthreshold = 1\n")
    v = tamalou.load_variant(str(path))
    path.unlink()
    two = simulate(v, "cautious", games=8, players=2, workers=2)
    assert two.run.workers == 2 and not two.run.notes, two.run.notes
    assert two.statistics() == simulate(v, "cautious", games=8, players=2, backend="inline").statistics()
    assert two.statistics()["rounds"] != simulate("french", "cautious", games=8, players=2).statistics()["rounds"]

    sevens = house(tmp_path, "free_sevens_sim", FREE_SEVENS)
    report = simulate(str(sevens), "random", games=6, players=2, workers=2)
    assert not report.run.notes, report.run.notes
    assert_right(report, by_hand(str(sevens), ["random"], 6, 0, 2))


def test_the_progress_is_told_as_games_finish() -> None:
    seen: list[tuple[int, int]] = []
    simulate("french", "random", games=40, backend="process", workers=2, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (40, 40)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) > 1


# ----------------------------------------------------------------------------- seeds


def test_game_seeds_derive_from_the_run_seed_and_the_index() -> None:
    digest = hashlib.blake2b(b"tamalou-simulate:7:3", digest_size=8).digest()
    assert game_seed(7, 3) == int.from_bytes(digest, "big") >> 11
    seeds = {game_seed(s, i) for s in range(3) for i in range(200)}
    assert len(seeds) == 600 and all(0 <= s < 2**53 for s in seeds)
    assert bot_seed(10, 2) == 10 * 64 + 2 and bot_seed(10, 2, 3) == (10 * 1000 + 3) * 64 + 2


def test_another_seed_plays_other_games() -> None:
    a = simulate("french", "random", games=20, seed=0, backend="inline")
    b = simulate("french", "random", games=20, seed=1, backend="inline")
    assert a.statistics()["rounds"] != b.statistics()["rounds"]


# ----------------------------------------------------------------------------- distributions and intervals


def test_distributions_are_exact() -> None:
    values = [3, 7, 7, 1, 12, 7, 4, -2, 9, 3, 3]
    d = Distribution.of(Counter(values))
    ordered = sorted(values)
    assert (d.count, d.min, d.max) == (len(values), -2, 12)
    assert d.mean == pytest.approx(statistics.fmean(values))
    assert d.stdev == pytest.approx(statistics.pstdev(values))
    for p in PERCENTILES:
        assert d.percentiles[p] == ordered[math.ceil(p * len(values) / 100) - 1]
    assert d.median == statistics.median_low(values)
    assert list(d.histogram) == sorted(set(values))
    e = d.mean_interval()
    half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(len(values))
    assert (e.low, e.high) == pytest.approx((d.mean - half, d.mean + half))
    assert Distribution.of({}).count == 0 and Distribution.of({}).mean is None


def test_wilson_intervals() -> None:
    # Wilson score intervals at 95 %, as tabulated (Newcombe 1998, table I).
    none = Estimate.wilson(0, 10)
    assert (none.low, none.high) == pytest.approx((0.0, 0.2775), abs=1e-4)
    half = Estimate.wilson(5, 10)
    assert (half.low, half.high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    shifted = Estimate.wilson(5, 10, shift=0.25)
    assert (shifted.value, shifted.low, shifted.high) == pytest.approx((0.25, 0.2366 - 0.25, 0.7634 - 0.25), abs=1e-4)
    assert Estimate.wilson(0, 0).value is None


def test_compare_marks_figures_whose_intervals_are_apart() -> None:
    french = simulate("french", "cautious", games=40, players=3, backend="inline")
    cabo = simulate("cabo", "cautious", games=4, players=3, backend="inline")
    c = compare([french, cabo])
    assert [r.variant for r in c.reports] == ["french", "cabo"]
    lines = {line.metric: line for line in c.balance}
    assert set(lines) == {"caller win rate", "round length (turns)", "first player's advantage"}
    turns = lines["round length (turns)"]
    assert [e.value for e in turns.estimates] == [french.rounds.turns.mean, cabo.rounds.turns.mean]
    a, b = turns.estimates
    assert turns.differs == (a.high < b.low or b.high < a.low)  # type: ignore[operator]
    assert turns.differs  # Cabo's rounds last more than twice as long
    calls = lines["caller win rate"].estimates[0]
    assert calls.value == french.rounds.calls_won / french.rounds.calls and calls.n == french.rounds.calls
    first = lines["first player's advantage"].estimates[1]
    assert first.value == pytest.approx(cabo.rounds.first_player_wins / cabo.rounds.rounds - 1 / 3)
    same = compare([french, french])
    assert not any(line.differs for line in same.balance)
    with pytest.raises(ValueError, match="two reports or more"):
        compare([french])


def test_the_report_is_json_and_back() -> None:
    report = simulate(["french", "multi-round"], ["cautious", "random"], games=2, backend="inline")
    again = SimulationReport.model_validate_json(report.model_dump_json())
    assert again == report


# ----------------------------------------------------------------------------- errors


def test_unknown_names_and_bad_arguments_say_what_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="unknown bot 'nosuch'") as bad_bot:
        simulate("french", ["random", "nosuch"], games=1)
    assert "random, cautious" in str(bad_bot.value)  # the bots it knows
    with pytest.raises(VariantError, match="unknown variant 'nosuch'"):
        simulate("nosuch", games=1)
    with pytest.raises(SetupError, match="french is played by 2 to 6 players, got 9"):
        simulate("french", games=1, players=9)
    with pytest.raises(ValueError, match=r"unknown backend 'threads' \(backends: inline, process, ray\)"):
        simulate("french", games=1, backend="threads")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games must be at least 1, got 0"):
        simulate("french", games=0)
    with pytest.raises(ValueError, match="workers must be at least 1, got 0"):
        simulate("french", games=1, workers=0)
    with pytest.raises(ValueError, match="no bot"):
        simulate("french", [], games=1)
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install 'tamalou\[ray\]'"):
        simulate("french", games=1, backend="ray")


def test_a_failing_game_names_its_seed(tmp_path: Path) -> None:
    path = house(tmp_path, "broken_winners_sim", BROKEN_WINNERS)
    with pytest.raises(SimulationError, match=r"game 0 \(seed \d+\): PluginError: .*tamalou_winners"):
        simulate(str(path), games=3, backend="inline")
    # In a worker process, the same error comes back.
    with pytest.raises(SimulationError, match=r"game \d \(seed \d+\): PluginError: .*tamalou_winners"):
        simulate(str(path), games=4, workers=2)


def test_workers_that_cannot_load_the_ruleset_leave_the_games_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tomllib
    import types

    from tamalou.rulesets.effective import variant_to_toml

    ghost = types.ModuleType("ghost_rules_for_simulate")
    exec(FREE_SEVENS, ghost.__dict__)  # a module that exists only in this process
    monkeypatch.setitem(sys.modules, "ghost_rules_for_simulate", ghost)
    data = tomllib.loads(variant_to_toml("french"))
    data["plugins"] = [*data.get("plugins", []), "ghost_rules_for_simulate"]
    v = tamalou.variant_from_dict(data)
    report = simulate(v, "random", games=4, players=2, workers=2)
    assert report.run.workers == 1 and report.run.notes and "played here" in report.run.notes[0]
    assert_right(report, by_hand(v, ["random"], 4, 0, 2))
