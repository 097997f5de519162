"""``tamalou play --bots human,...``: a person at the table, through the menu (choices piped in, or scripted here
with a clock that moves only when told): every built-in ruleset played whole, timed ones included, hot-seat,
``?`` and ``q`` / ``--resume``."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tamalou
from tamalou.cli import app
from tamalou.cli.human_seat import HumanTable
from tamalou.engine import new_round
from tamalou.engine.game import round_of

runner = CliRunner()
_PROMPT = re.compile(r"\((?:1-(\d+))?[;)]")


class Scripted:
    """A person: reads the last menu on the screen and picks a choice at random (Enter sometimes, in a window);
    each answer takes ``think`` seconds of the table's clock, and once in ``slow`` answers the person is too slow
    (the time runs out)."""

    def __init__(self, screen: io.StringIO, seed: int, clock: FakeClock | None = None, slow: int = 0) -> None:
        self.screen, self.rng, self.clock, self.slow = screen, random.Random(seed), clock, slow
        self.echoes = False
        self.answers = 0
        self.timeouts = 0
        self.hints = 0

    def read(self, timeout: float | None = None) -> str | None:
        self.answers += 1
        if self.answers > 5_000:
            raise EOFError
        last = self.screen.getvalue().splitlines()[-3:]
        text = " ".join(last)
        if timeout is not None and self.slow and self.answers % self.slow == 0:
            self.timeouts += 1
            assert self.clock is not None
            self.clock.t += timeout + 1
            return None
        if self.clock is not None:
            self.clock.t += 1
        if "press Enter" in text:
            return ""
        found = _PROMPT.findall(text)
        assert found, text[-300:]
        count = int(found[-1] or 0)
        if self.answers % 7 == 0:
            self.hints += 1
            return "?"
        if ("lets it go" in text or "goes back" in text) and self.rng.random() < 0.7:
            return ""
        return str(self.rng.randint(1, count))


class FakeClock:
    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += max(0.0, seconds)


def table(kinds: list[str], seed: int, slow: int = 0) -> tuple[HumanTable, io.StringIO, Scripted]:
    screen = io.StringIO()
    clock = FakeClock()
    keyboard = Scripted(screen, seed, clock, slow)
    console = Console(file=screen, width=80, force_terminal=False, color_system=None)

    def clock_for(start: float) -> FakeClock:
        clock.t = max(clock.t, start)
        return clock

    return HumanTable(kinds, console, keyboard, clock_for), screen, keyboard  # type: ignore[arg-type]


@pytest.mark.parametrize("name", tamalou.variant_names())
def test_a_person_plays_a_whole_round_through_the_menu(name: str) -> None:
    """A person at seat 0 against a greedy and a cautious bot, a whole game of every built-in ruleset (a match of
    several rounds for those that play one; the timed ones on the table's clock, the person sometimes too slow:
    the rules decide then)."""
    v = tamalou.load_variant(name)
    players = max(3, v.rules.players.min)
    kinds = ["human", "greedy", "cautious", "random", "greedy", "cautious"][:players]
    seat, screen, keyboard = table(kinds, seed=1, slow=13 if v.rules.timing.turn_seconds else 0)
    match = tamalou.new_match(v, players=players, seed=4)
    while not match.is_over:  # (a ruleset of one round: a match of one)
        g = round_of(match.game)
        result = seat.play(g, [None if k == "human" else tamalou.bots.make_bot(k, p) for p, k in enumerate(kinds)])
        assert g.is_over and result == g.result()
        match.next_round()
    text = screen.getvalue()
    assert "your choice" in text and "MatchAction" not in text and "Draw(" not in text
    assert all(len(line) <= 80 for line in text.splitlines()), max(text.splitlines(), key=len)
    if v.rules.timing.turn_seconds:
        assert keyboard.timeouts and "time left" in text and "time is up" in text
    if keyboard.hints:
        assert "the greedy bot would" in text


def test_hot_seat_hides_the_table_between_two_people_and_their_secrets_from_the_log() -> None:
    kinds = ["human", "human", "greedy"]
    seat, screen, _ = table(kinds, seed=2)
    g = new_round("french", players=3, seed=5)
    seat.play(g, [None, None, tamalou.bots.make_bot("greedy", 2)])
    text = screen.getvalue()
    assert "P1's turn to look: the others look away. P1, press Enter." in text
    assert "P0's turn to look" in text
    drew = [line for line in text.splitlines() if " draws " in line and "from the stock" in line]
    assert drew and all("draws a card from the stock" in line for line in drew)  # the log shows no secret


def test_a_single_person_sees_their_own_secrets_in_the_log() -> None:
    seat, screen, _ = table(["human", "greedy"], seed=3)
    g = new_round("french", players=2, seed=3)
    seat.play(g, [None, tamalou.bots.make_bot("greedy", 1)])
    lines = screen.getvalue().splitlines()
    assert any(re.search(r"P0 draws \w+ from the stock", line) and "a card" not in line for line in lines)
    assert any("P1 draws a card from the stock" in line for line in lines)


def test_a_power_asks_for_its_targets_one_at_a_time() -> None:
    """A French jack (blind swap): first one of your cards, then the player, then their card."""
    g = new_round(
        "french",
        players=3,
        first_player=0,
        seed=1,
        deal={
            "hands": [["AS", "7H", "3S", "4S"], ["AH", "2H", "3H", "QD"], ["AC", "2C", "3C", "4C"]],
            "stock": ["JC", "6C", "6D", "6H"],
            "discard": ["2D"],
        },
    )
    screen = io.StringIO()
    # draw; throw the jack (after the four replaces); use the power: which card (slot 0), which player (P1), which of
    # their cards (slot 2)
    answers = iter(["1", "5", "1", "1", "1", "3"])

    class Typed:
        echoes = False

        def read(self, timeout: float | None = None) -> str | None:
            return next(answers)

    seat = HumanTable(["human", "greedy", "greedy"], Console(file=screen, width=80), Typed())  # type: ignore[arg-type]
    with pytest.raises(StopIteration):
        seat.play(g, [None, tamalou.bots.make_bot("greedy", 1), tamalou.bots.make_bot("greedy", 2)])
    text = screen.getvalue()
    assert "use the power: swap one of your cards" in text
    assert "which card?" in text and "which player?" in text and "which of their cards?" in text
    # (P1 matched its 2H on the 2D at once: its slots are 0, 2 and 3; the third is slot 3)
    assert tamalou.Power(0, 0, 1, 3) in g.actions


def test_piped_choices_play_a_game_to_its_result_table() -> None:
    """``printf '1\\n...' | tamalou play french --bots human,greedy --seed 3``: the same choices as typed."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "tamalou"), "play", "french", "--bots", "human,greedy", "--seed", "3"],
        input="1\n" * 400,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Result (" in done.stdout and done.stdout.rstrip().splitlines()[-1].startswith("winners:")
    assert "  > 1" in done.stdout


def test_q_leaves_with_a_snapshot_that_resume_plays_on_from(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    left = runner.invoke(
        app, ["play", "french", "--bots", "human,greedy", "--seed", "3", "--save", str(saved)], input="1\n1\nq\n"
    )
    assert left.exit_code == 0, left.output
    assert f"tamalou play --resume {saved}" in left.output.replace("\n", "")
    before = tamalou.Game.from_json(__import__("json").loads(saved.read_text())["game"])
    assert len(before.actions) >= 2
    again = runner.invoke(app, ["play", "--resume", str(saved)], input="1\n" * 400)
    assert again.exit_code == 0, again.output
    assert "Result (" in again.output
    wrong = runner.invoke(app, ["play", "--resume", str(tmp_path / "nope.json")])
    assert wrong.exit_code == 2 and "not a snapshot of tamalou play" in wrong.output


def test_a_match_ruleset_is_played_round_by_round_and_the_end_of_input_leaves(tmp_path: Path) -> None:
    saved = tmp_path / "m.json"
    done = runner.invoke(
        app, ["play", "multi-round", "--bots", "human,greedy", "--seed", "1", "--save", str(saved)], input="1\n" * 5
    )
    assert done.exit_code == 0, done.output
    assert "== round 1" in done.output and saved.exists()


def test_only_play_seats_a_person() -> None:
    done = runner.invoke(app, ["simulate", "french", "-b", "human,greedy", "-n", "2"])
    assert done.exit_code == 2 and "only tamalou play seats a person" in done.output
    done = runner.invoke(app, ["play", "french", "-b", "human,greedy", "--json"])
    assert done.exit_code == 2 and "--json plays bots only" in done.output
