"""What ``tamalou.simulate`` should find, counted here again game by game (``tests/api/test_simulate.py``,
``tests/extras/test_ray.py``): house rulesets written to a folder (``tests/properties/test_verify.py`` uses them
too), the statistics played by hand with ``play_game`` and every event of each round, and the check of a report
against them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tamalou
from tamalou.bots import make_bot
from tamalou.play import play_game
from tamalou.simulation import SimulationReport, bot_seed, game_seed

FREE_SEVENS = """\
import tamalou


@tamalou.hookimpl
def tamalou_card_value(variant, card):
    return 0 if card.rank == "7" else None
"""


def house(folder: Path, name: str, plugin: str | None = None, rules: str = "") -> Path:
    """``NAME.toml`` (French changed by ``rules``), with the plugin ``NAME_rules`` beside it if given."""
    text = f'extends = "french"\nname = "{name}"\n'
    if plugin is not None:
        (folder / f"{name}_rules.py").write_text(plugin, encoding="utf-8")
        text += f'plugins = ["{name}_rules"]\n'
    path = folder / f"{name}.toml"
    path.write_text(text + rules, encoding="utf-8")
    return path


def place_of(ranking: Sequence[Sequence[int]], p: int) -> int:
    """1 + the players ranked ahead of ``p``."""
    ahead = 0
    for group in ranking:
        if p in group:
            return ahead + 1
        ahead += len(group)
    raise AssertionError(f"{p} is not ranked in {ranking}")


def by_hand(variant: Any, bots: list[str], games: int, seed: int, players: int) -> dict[str, Any]:
    """What ``simulate`` should find, played here game by game: each round's events read whole
    (``events_so_far``, the deal included) rather than as they come."""
    v = tamalou.load_variant(variant) if not isinstance(variant, tamalou.Variant) else variant
    seats = [bots[p % len(bots)] for p in range(players)]
    n = players
    out: dict[str, Any] = {
        "wins": [0] * n,
        "places": [[0] * n for _ in range(n)],
        "totals": [Counter[int]() for _ in range(n)],
        "scores": [Counter[int]() for _ in range(n)],
        "calls": [0] * n,
        "calls_won": [0] * n,
        "events": {t: [0] * n for t in ("matched", "missed", "late", "penalty")},
        "turns": Counter[int](),
        "actions": Counter[int](),
        "reasons": Counter[str](),
        "first_wins": 0,
        "no_winner": 0,
        "rounds": 0,
        "match_wins": [0] * n,
        "match_places": [[0] * n for _ in range(n)],
        "match_totals": [Counter[int]() for _ in range(n)],
        "match_rounds": Counter[int](),
    }

    def one(game: tamalou.Game, round_bots: list[Any]) -> None:
        r = play_game(game, round_bots)
        events = game.events_so_far()
        out["rounds"] += 1
        out["turns"][max(e["turn"] for e in events if e.type == "turn") + 1] += 1
        out["actions"][len(game.actions)] += 1
        out["reasons"][r.reason] += 1
        for e in events:
            if e.type in out["events"]:
                out["events"][e.type][e["player"]] += 1
        out["no_winner"] += not r.winners
        out["first_wins"] += tamalou.round_of(game).first_player in r.winners  # who began: the table's
        for p in range(n):
            out["wins"][p] += p in r.winners
            out["places"][p][place_of(r.ranking, p) - 1] += 1
            out["totals"][p][r.totals[p]] += 1
            out["scores"][p][r.scores[p]] += 1
        if r.caller is not None:
            out["calls"][r.caller] += 1
            out["calls_won"][r.caller] += r.caller in r.winners

    for i in range(games):
        gs = game_seed(seed, i)
        if v.rules.rounds.form == "single":
            one(tamalou.new_game(v, n, seed=gs), [make_bot(seats[p], bot_seed(gs, p)) for p in range(n)])
            continue
        m = tamalou.new_match(v, n, seed=gs)
        while not m.is_over:
            one(m.game, [make_bot(seats[p], bot_seed(gs, p, m.round)) for p in range(n)])
            m.next_round()
        res = m.result()
        out["match_rounds"][len(res.rounds)] += 1
        for p in range(n):
            out["match_wins"][p] += p in res.winners
            out["match_places"][p][place_of(res.ranking, p) - 1] += 1
            out["match_totals"][p][res.totals[p]] += 1
    return out


def assert_right(report: SimulationReport, hand: dict[str, Any]) -> None:
    """Every figure of ``report`` against the counts made by hand."""
    rs = report.rounds
    assert rs.rounds == hand["rounds"]
    assert rs.turns.histogram == dict(sorted(hand["turns"].items()))
    assert rs.actions.histogram == dict(sorted(hand["actions"].items()))
    assert rs.reasons == dict(sorted(hand["reasons"].items()))
    assert rs.first_player_wins == hand["first_wins"] and rs.no_winner == hand["no_winner"]
    assert rs.calls == sum(hand["calls"]) and rs.calls_won == sum(hand["calls_won"])
    assert rs.call_success == (sum(hand["calls_won"]) / sum(hand["calls"]) if sum(hand["calls"]) else None)
    assert (rs.matched, rs.missed, rs.late, rs.penalties) == tuple(
        sum(hand["events"][t]) for t in ("matched", "missed", "late", "penalty")
    )
    assert rs.matched_per_round == sum(hand["events"]["matched"]) / hand["rounds"]
    for p, side in enumerate(rs.by_seat):
        assert side.seats == [p] and side.bot == report.bots[p] and side.rounds == hand["rounds"]
        assert side.wins == hand["wins"][p] and side.win_rate == hand["wins"][p] / hand["rounds"]
        assert side.places == hand["places"][p]
        assert side.total.histogram == dict(sorted(hand["totals"][p].items()))
        assert side.score.histogram == dict(sorted(hand["scores"][p].items()))
        assert (side.calls, side.calls_won) == (hand["calls"][p], hand["calls_won"][p])
        assert (side.matched, side.missed, side.late, side.penalties) == tuple(
            hand["events"][t][p] for t in ("matched", "missed", "late", "penalty")
        )
    for name, side in rs.by_bot.items():
        seats = [p for p, b in enumerate(report.bots) if b == name]
        assert side.seats == seats and side.rounds == hand["rounds"] * len(seats)
        assert side.wins == sum(hand["wins"][p] for p in seats)
        assert side.total.histogram == dict(sorted(sum((hand["totals"][p] for p in seats), Counter()).items()))
    if report.matches is None:
        assert report.form == "single"
        return
    ms = report.matches
    assert ms.matches == report.games and ms.rounds.histogram == dict(sorted(hand["match_rounds"].items()))
    for p, side in enumerate(ms.by_seat):
        assert side.wins == hand["match_wins"][p] and side.places == hand["match_places"][p]
        assert side.total.histogram == dict(sorted(hand["match_totals"][p].items()))
