"""``tamalou.simulation.tournament`` (``tamalou tournament``): each bot alone against a field, at each seat in
turn, on the games of ``simulate``'s seeds; its score is its share of the wins, with a 95 % interval."""

from __future__ import annotations

import pytest

import tamalou
from tamalou.bots import make_bot, play_game
from tamalou.simulation import bot_seed, game_seed, tournament


def test_lines_scores_and_verdicts() -> None:
    report = tournament(["french", "cabo"], ["cautious", "random"], against="greedy", games=40, workers=1)
    assert [(line.ruleset, line.bot) for line in report.lines] == [
        ("french", "cautious"),
        ("french", "random"),
        ("cabo", "cautious"),
        ("cabo", "random"),
    ]
    for line in report.lines:
        assert line.games == 40 and line.players == 4 and line.even == 0.25 and line.against == "greedy"
        assert line.score.value == pytest.approx(line.wins / 40)
        assert line.score.low <= line.score.value <= line.score.high
        expected = "stronger" if line.score.low > 0.25 else "weaker" if line.score.high < 0.25 else "even"
        assert line.verdict == expected
        assert line.moves > 0 and line.seconds_per_move is not None and line.slowest_move is not None
    assert report.lines[1].verdict == "weaker"  # random play against greedy bots


def test_each_game_is_simulates_game_with_the_bot_at_seat_i_mod_players() -> None:
    games = 6
    report = tournament("french", "cautious", against="random", games=games, players=3, seed=5, workers=1)
    shares = 0.0
    for i in range(games):
        g = game_seed(5, i)
        me = i % 3
        bots = [make_bot("cautious" if p == me else "random", bot_seed(g, p)) for p in range(3)]
        result = play_game(tamalou.new_game("french", players=3, seed=g), bots)
        shares += 1 / len(result.winners) if me in result.winners else 0.0
    assert report.lines[0].wins == pytest.approx(shares)


def test_the_same_scores_with_any_number_of_workers() -> None:
    one = tournament("cabo", ["cautious"], against="greedy", games=30, workers=1)
    two = tournament("cabo", ["cautious"], against="greedy", games=30, workers=2)
    assert one.lines[0].score == two.lines[0].score and one.lines[0].moves == two.lines[0].moves


def test_refusals() -> None:
    with pytest.raises(ValueError, match="games must be at least 1"):
        tournament("french", "random", games=0)
    with pytest.raises(ValueError, match="the field is one bot"):
        tournament("french", "random", against=["greedy", "random"], games=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot"):
        tournament("french", "randomm", games=2)
