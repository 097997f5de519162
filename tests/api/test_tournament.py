"""``tamalou.simulation.tournament`` (``tamalou tournament``): each bot alone against a field, at each seat in
turn, on the games of ``simulate``'s seeds; its score is its share of the wins, with a 95 % interval."""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

import tamalou
from tamalou.bots import make_bot, play_game
from tamalou.simulation import bot_seed, game_seed, tournament
from tamalou.simulation.strength import bradley_terry


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
    for line in report.lines:  # the rating: its interval holds it, and a weaker score is a lower rating
        assert line.rating.n == 40 and line.rating.low <= line.rating.value <= line.rating.high
    assert report.lines[1].rating.high < 0 and report.lines[1].rating.value < report.lines[0].rating.value


def test_the_rating_is_the_bradley_terry_logit_of_the_comparisons_won() -> None:
    """A bot that finishes ahead of a field seat as often as behind it rates 0; 64 % of its comparisons won: +100
    Elo (400 log10(0.64 / 0.36)); its interval comes from the spread of the games; one game each way, and none."""
    even = bradley_terry([0.0, 1.0, 0.5, 0.5])
    assert even.value == pytest.approx(0.0) and even.low == pytest.approx(-even.high) and even.n == 4
    strong = bradley_terry([0.64] * 10 + [0.6, 0.68])
    assert strong.value == pytest.approx(400 * math.log10(0.64 / 0.36), abs=0.5) and 90 < strong.low < strong.high < 110
    assert bradley_terry([1.0]).value == pytest.approx(0.0)  # one game, held half a game off: no lead yet
    assert bradley_terry([1.0, 1.0]).value == pytest.approx(400 * math.log10(0.75 / 0.25))  # held half a game off
    assert bradley_terry([]).value is None
    # greedy against a field of random bots: ahead of most of them
    line = tournament("french", "greedy", against="random", games=30, workers=1).lines[0]
    assert line.rating.low is not None and line.rating.low > 200


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


# ----------------------------------------------------------------------------------- the documentation

DOCS = Path(__file__).resolve().parents[2] / "docs"
_ROW = re.compile(r"^\| (\S+) \| (\S+) \| ([\d.]+%) \[([\d.]+%), ([\d.]+%)\] \| (\w+) \|", re.M)


def _the_page(which: int = 0) -> tuple[dict[str, Any], dict[tuple[str, str], tuple[str, ...]]]:
    """docs/bots.md's tournament number ``which`` (0: the first): its command's options, and the rows of the table
    after it (up to the next command) by (ruleset, bot)."""
    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    commands = list(re.finditer(r"^\$ tamalou tournament (.*)$", text, re.M))
    assert len(commands) > which, "docs/bots.md shows no such tamalou tournament command"
    found = commands[which]
    end = commands[which + 1].start() if which + 1 < len(commands) else len(text)
    args = shlex.split(found.group(1))
    options: dict[str, Any] = {"rulesets": [args[0]], "bots": "", "against": "greedy", "games": 400, "players": 4}
    for flag, value in zip(args[1::2], args[2::2], strict=True):
        if flag in ("-c", "--compare"):
            options["rulesets"].append(value)
        else:
            names = {"-b": "bots", "--bots": "bots", "--against": "against", "-n": "games", "-p": "players"}
            options[names[flag]] = value
    rows = {(m[0], m[1]): tuple(m[2:]) for m in _ROW.findall(text[found.end() : end])}
    return options, rows


#: A row of docs/bots.md's table of the search bot: ruleset, players, score, low, high, verdict.
_SEARCH_ROW = re.compile(r"^\| (\S+) \| (\d) \| ([\d.]+%) \[([\d.]+%), ([\d.]+%)\] \| [\d.]+% \| (\w+) \|", re.M)


def _pct(x: float | None) -> str:
    assert x is not None
    return f"{x:.1%}"


@pytest.mark.deep  # 20 games of the search bot: about a minute
def test_the_table_of_docs_bots_md_is_what_its_commands_print() -> None:
    """The first two tournaments of docs/bots.md (the search bot at four players, then at two) and their table: a line
    for each ruleset and count, and the first 20 games of the search bot in four-player Cabo (the same deals and seats
    as the table's first 20) give an interval that meets the one shown."""
    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    rows = {(m[0], int(m[1])): tuple(m[2:]) for m in _SEARCH_ROW.findall(text)}
    commands = [_the_page(0)[0], _the_page(1)[0]]
    assert {(r, int(o["players"])) for o in commands for r in o["rulesets"]} == set(rows), "a line is not shown"
    assert all(o["bots"] == "ismcts" and o["games"] == "400" for o in commands)
    small = tournament("cabo", "ismcts", against="greedy", games=20, players=4).lines[0]
    _, low, high, _ = rows["cabo", 4]
    assert small.score.low is not None and small.score.high is not None
    assert small.score.low <= float(high.rstrip("%")) / 100 and float(low.rstrip("%")) / 100 <= small.score.high


_RATING = re.compile(r"^\| (\S+) \| (\S+) \| [^|]+ \| \w+ \| ([+-]\d+) \[([+-]\d+),([+-]\d+)\] \|", re.M)


@pytest.mark.deep  # 1,600 games of the quick bots: half a minute
def test_the_rating_table_of_docs_bots_md_is_what_its_command_prints() -> None:
    """The third tournament of docs/bots.md (the quick bots, with their ratings): the same figures, to the digit."""
    options, rows = _the_page(2)
    bots = options["bots"].split(",")
    assert {(r, b) for r in options["rulesets"] for b in bots} == set(rows)
    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    ratings = {(m[0], m[1]): tuple(m[2:]) for m in _RATING.findall(text)}
    report = tournament(options["rulesets"], bots, against=options["against"], games=int(options["games"]))
    for line in report.lines:
        shown = rows[line.ruleset, line.bot]
        assert shown == (_pct(line.score.value), _pct(line.score.low), _pct(line.score.high), line.verdict), line
        rating = tuple(f"{x:+.0f}" for x in (line.rating.value, line.rating.low, line.rating.high))
        assert ratings[line.ruleset, line.bot] == rating, line
