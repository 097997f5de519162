"""``tamalou verify``'s time limits and interruptions: ``--timeout`` per game, ``--hook-budget`` per hook call,
progress off a terminal, and Ctrl-C or ``SIGTERM`` that stop the run at once with no worker left behind.

The rulesets are in ``tests/data/broken/`` with their plugins in ``tests/plugins_for_tests/``:

- ``stuck_scores``: a scoring hook that never returns (``while True: pass``) when player 0's total is even. Of
  the 2-player games of seeds 3 and 4, the first passes (13 actions) and the second is stuck at its end;
- ``slow_scores``: a scoring hook that sleeps 150 ms at one call in a hundred (over the default budget of 100 ms);
- ``slow_first_card``: the same, and it reads the first slot (a ``slot_order`` failure in most games).

Budgets are small: the machine is shared. A game of French Tamalou of two players takes well under a second, so
a time limit of a few seconds stops the stuck games alone. The interruption tests run the real command line in a
process group of its own, as a terminal does, and read its processes in ``/proc``.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tamalou
from tamalou import VerifyInterrupted
from tamalou.cli import app, verify_commands
from tamalou.engine.rulebook import rulebook
from tamalou.verify import limits, verify
from tamalou.verify.hook_timing import HookTimer
from tamalou.verify.limits import timed_out

TESTS = Path(__file__).resolve().parents[1]
BROKEN = TESTS / "data" / "broken"
STUCK = str(BROKEN / "stuck_scores.toml")
SLOW = str(BROKEN / "slow_scores.toml")
SLOW_FIRST_CARD = str(BROKEN / "slow_first_card.toml")
#: The time limit of a game in these tests: a 2-player game takes well under a second, the stuck one forever.
TIMEOUT = 2.0

runner = CliRunner()

needs_alarm = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="the time limit needs signal.setitimer")


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.fixture(autouse=True)
def _slow_calls_counted_from_this_test() -> None:
    """``slow_scores`` sleeps at the first call of a process, then at one call in ``EVERY``: a test of this
    process that runs verify in it (one worker) starts at a slow call, whatever ran before it."""
    module = sys.modules.get("plugins_for_tests.slow_scores")
    if module is not None:
        module._calls = itertools.count()


# ----------------------------------------------------------------------------- --timeout


@pytest.mark.timing
@needs_alarm
@pytest.mark.parametrize("workers", [1, 2])
def test_a_game_that_never_ends_is_stopped_and_the_run_goes_on(workers: int) -> None:
    report = verify(STUCK, games=2, players=2, seed=3, workers=workers, timeout=TIMEOUT)
    assert report.games == 2 and not report.notes, report.notes
    games = [f for f in report.details if f.index >= 0]
    assert [(f.seed, f.players) for f in games] == [(4, 2)]  # seed 3 passed
    # The made-up ends of rounds (end_hooks) reach the loop too, and are stopped the same way.
    (made_up,) = [f for f in report.details if f.index < 0]
    assert timed_out(made_up) and "judging made-up ends of rounds of 2 players (end_hooks)" in made_up.message
    assert report.failed == {"termination": 2}
    assert report.checks["termination"] == 3
    (failure,) = games
    assert timed_out(failure)
    message = failure.message
    assert message.startswith(f"the game was stopped by its time limit ({TIMEOUT:g} s, --timeout)"), message
    assert "in tamalou_round_scores of plugin plugins_for_tests.stuck_scores" in message, message
    assert "stuck_scores.py:" in message, message  # the line it was stuck on
    # The actions played before the one that never returned (named, not recorded: a replay does not hang in it).
    assert f"after {len(failure.actions)} actions" in message and len(failure.actions) > 0, message
    assert "while playing {" in message, message


@pytest.mark.timing
@needs_alarm
def test_the_time_limit_names_the_plugin_s_code_even_untimed() -> None:
    """Without the hook budget (no timer), the stack still names the plugin's function where it was stuck."""
    report = verify(STUCK, games=1, players=2, seed=4, workers=1, timeout=TIMEOUT, hook_budget=None)
    (failure,) = [f for f in report.details if f.index >= 0]
    assert "in tamalou_round_scores of plugin plugins_for_tests.stuck_scores (stuck_scores.py:" in failure.message


@needs_alarm
def test_the_alarm_is_put_back_as_it_was() -> None:
    before = signal.getsignal(signal.SIGALRM)
    report = verify("french", games=2, players=2, workers=1, timeout=30)
    assert report.ok
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == before


def test_a_game_stopped_outside_a_hook_names_the_slowest_hook_it_called() -> None:
    """Stopped in tamalou's own code, the message names the hook of a plugin that was slow before, if any."""
    timer = HookTimer(0.1)
    timer._record("our_rules", "tamalou_round_scores", 0.25)
    stop = limits._stopped_at(sys._getframe(), ("our_rules",), timer, 3.0)
    assert stop.where.startswith("stopped after 3.0 s in no plugin's code"), stop.where
    assert "the slowest hook of the game: tamalou_round_scores of plugin our_rules, 0.25 s" in stop.where


def test_the_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="timeout"):
        verify("french", games=1, timeout=0)
    with pytest.raises(ValueError, match="hook_budget"):
        verify("french", games=1, hook_budget=-1)
    assert run("verify", "french", "--timeout", "-1").exit_code == 2
    assert run("verify", "french", "--hook-budget", "-5").exit_code == 2


@pytest.mark.timing
@needs_alarm
def test_the_cli_reports_a_game_stopped_by_its_time_limit_and_writes_it_as_found(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    result = run("verify", STUCK, "-n", "2", "-p", "2", "-s", "3", "-w", "1", "--timeout", str(TIMEOUT), "-o", str(out))
    assert result.exit_code == 1, result.output
    assert "seed 4, 2 players: termination: the game was stopped by its time limit" in result.output
    assert "written as found (it was stopped by its time limit): not shrunk" in result.output
    example = json.loads(out.read_text(encoding="utf-8"))
    assert example["invariant"] == "termination"
    # Replay plays the actions before the one that did not return, and says it cannot check the game again.
    again = run("replay", str(out), "--allow-plugins")
    assert again.exit_code == 1, again.output[-2000:]
    assert "not checked again: verify stopped this game by its time limit" in again.output
    seed = example["seed"]
    assert f"tamalou verify RULESET --games 1 --seed {seed} --players 2 --timeout SECONDS" in again.output


@needs_alarm
def test_a_finished_failure_is_shrunk_rather_than_a_game_stopped_by_its_time_limit() -> None:
    from tamalou.verify import Failure

    stopped = Failure(4, 2, "termination", "the game was stopped by its time limit (3 s, --timeout): ...", [{}] * 2)
    finished = Failure(7, 2, "slot_order", "the result depends on the order", [{}] * 50, index=3)
    assert verify_commands._to_shrink([stopped, finished]) is finished
    assert verify_commands._to_shrink([stopped]) is stopped


# ----------------------------------------------------------------------------- --hook-budget


@pytest.mark.timing
def test_a_slow_hook_fails_its_game_and_is_named_with_its_plugin_and_its_slowest_time() -> None:
    """The first call over the budget fails the game (as a game stopped by its time limit: not shrunk), and the
    report names the hook with its plugin and its slowest time."""
    report = verify(SLOW, games=1, players=2, seed=3, workers=1)
    assert not report.ok and all(timed_out(f) and f.invariant == "termination" for f in report.details)
    said = (
        "(a hook over its budget, --hook-budget): tamalou_round_scores of plugin plugins_for_tests.slow_scores took 1"
    )
    assert any(said in f.message for f in report.details), report.failures
    (slow,) = report.slow_hooks
    assert (slow.plugin, slow.hook, slow.seed) == ("plugins_for_tests.slow_scores", "tamalou_round_scores", 3)
    assert slow.seconds >= 0.15 and slow.calls >= 1
    line = slow.describe(report.hook_budget or 0)
    assert line.startswith("tamalou_round_scores of plugin plugins_for_tests.slow_scores took up to 1"), line
    assert "(budget 100 ms;" in line
    relaxed = verify(SLOW, games=1, players=2, seed=3, workers=1, hook_budget=0.5)
    assert relaxed.ok and not relaxed.slow_hooks
    assert verify(SLOW, games=1, players=2, seed=3, workers=1, hook_budget=None).ok


@pytest.mark.timing
def test_the_cli_fails_on_a_slow_hook_and_warns_of_it(tmp_path: Path) -> None:
    result = run("verify", SLOW, "-n", "1", "-p", "2", "-s", "3", "-w", "1", "-o", str(tmp_path / "c.json"))
    assert result.exit_code == 1, result.output
    assert re.search(
        r"warning: slow hook: tamalou_round_scores of plugin plugins_for_tests\.slow_scores took up to \d+ ms "
        r"\(budget 100 ms;",
        result.output,
    ), result.output
    assert "a hook over its budget, --hook-budget" in result.output
    quiet = run("verify", SLOW, "-n", "1", "-p", "2", "-s", "3", "-w", "1", "--hook-budget", "0")
    assert quiet.exit_code == 0 and "slow hook" not in quiet.output


@pytest.mark.deep  # (it sleeps: ten seconds of a hook's calls, in verify's worker processes)
def test_a_hook_of_a_second_is_caught_within_a_minute_with_the_defaults(tmp_path: Path) -> None:
    """A scoring hook that takes a second at every call: ``tamalou verify`` with its defaults (a hundred games, a
    worker per core, ten failing games at most) fails each game at its first call, judges no made-up end of round
    past the first, and names the hook, well within a minute (seven minutes when a slow hook was only reported)."""
    start = time.monotonic()
    result = run("verify", str(BROKEN / "sleepy_scores.toml"), "-o", str(tmp_path / "c.json"))
    assert time.monotonic() - start < 60
    assert result.exit_code == 1, result.output[-3000:]
    said = re.findall(
        r"termination: the game was stopped by its time limit \(a hook over its budget, --hook-budget\)"
        r"(?:, judging made-up ends of rounds of \d players \(end_hooks\))?: "
        r"tamalou_round_scores of plugin plugins_for_tests\.sleepy_scores took 1\d{3} ms",
        result.output,
    )
    assert len(said) >= 10, result.output[-3000:]


def test_hooks_are_timed_only_for_plugins_of_the_ruleset_s_own_and_put_back() -> None:
    """French has no plugin but tamalou's own: nothing is wrapped, so verify runs the code it ran untimed."""
    timer = HookTimer(0.1)
    timer.install(rulebook(tamalou.load_variant("french")).pm)
    assert not timer.installed
    v = tamalou.load_variant(SLOW)
    impls = rulebook(v).pm.hook.tamalou_round_scores.get_hookimpls()
    before = [impl.function for impl in impls]
    verify(v, games=1, players=2, seed=3, workers=1)
    assert [impl.function for impl in impls] == before


# ----------------------------------------------------------------------------- progress off a terminal


@pytest.mark.timing
def test_progress_lines_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAMALOU_PROGRESS_SECONDS", "0.1")
    result = run("verify", SLOW, "-n", "2", "-p", "2", "-s", "3", "-w", "1", "--hook-budget", "0")  # (slow, untimed)
    assert result.exit_code == 0, result.output
    lines = re.findall(r"^verify slow-scores: (\d)/2 games, 0 failing, \d+ s$", result.output, re.M)
    assert lines, result.output


@pytest.mark.parametrize(("value", "seconds"), [("0.5", 0.5), ("30", 30.0), ("", 5.0), ("0", 5.0), ("soon", 5.0)])
def test_the_progress_interval_comes_from_the_environment(
    value: str, seconds: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAMALOU_PROGRESS_SECONDS", value)
    assert verify_commands._progress_seconds() == seconds


# ----------------------------------------------------------------------------- Ctrl-C and SIGTERM


@pytest.mark.timing
def test_an_interrupted_verify_raises_with_the_games_finished() -> None:
    """The library: a ``KeyboardInterrupt`` during the games is a ``VerifyInterrupted`` carrying the report."""
    seen: list[int] = []

    def interrupt_after_two(done: int, failures: int) -> None:
        seen.append(done)
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(VerifyInterrupted) as caught:
        verify("french", games=5, players=2, workers=1, progress=interrupt_after_two)
    report = caught.value.report
    assert isinstance(caught.value, KeyboardInterrupt)
    assert report.interrupted and report.games == 2 and not report.stopped and seen == [1, 2]


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/stat").exists() or not hasattr(os, "killpg"), reason="reads the processes in /proc"
)


def tamalou_command() -> list[str]:
    script = Path(sys.executable).with_name("tamalou")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from tamalou.cli import main; main()"]


def processes_in_group(group: int) -> dict[int, str]:
    """The processes of the process group ``group`` that are not zombies: pid -> state (``/proc/PID/stat``)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after the command's name: state, ppid, pgrp...
        if int(fields[2]) == group and fields[0] != "Z":
            found[int(entry.name)] = fields[0]
    return found


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


@pytest.mark.timing
@needs_proc
@pytest.mark.parametrize(
    ("ruleset", "send", "status", "name"),
    [
        (SLOW, "SIGINT to the command", 130, "SIGINT"),
        (SLOW, "SIGTERM to the command", 143, "SIGTERM"),
        (SLOW_FIRST_CARD, "SIGINT to the process group", 130, "SIGINT"),  # a terminal's Ctrl-C
    ],
    ids=["sigint", "sigterm", "ctrl-c-to-the-group"],
)
def test_a_signal_stops_verify_at_once_with_the_partial_report_and_no_worker_left(
    ruleset: str, send: str, status: int, name: str, tmp_path: Path
) -> None:
    path = os.pathsep.join([str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])])
    # (a line of progress each half second: the test waits for the first game to finish)
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    env["TAMALOU_PROGRESS_SECONDS"] = "0.5"
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    example = tmp_path / "c.json"
    command = [*tamalou_command(), "verify", ruleset, "-n", "100", "-p", "2", "-w", "2", "--max-failures", "0"]
    command += ["--hook-budget", "0"]  # (the hooks slow, untimed: the games play on until the signal)
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [*command, "-o", str(example)], stdout=stdout, stderr=stderr, env=env, start_new_session=True
        )
    group = process.pid  # its own session and process group
    try:
        # The workers play: a line of progress (off a terminal) counts a game finished.
        def a_game_finished() -> bool:
            counts = re.findall(r"(\d+)/100 games", err.read_text())
            return bool(counts) and int(counts[-1]) >= 1

        assert wait_for(a_game_finished, 90), err.read_text()
        children = processes_in_group(group)
        children.pop(process.pid, None)
        assert len(children) >= 2, children  # the two workers (and multiprocessing's resource tracker)

        start = time.monotonic()
        if send == "SIGINT to the command":
            os.kill(process.pid, signal.SIGINT)
        elif send == "SIGTERM to the command":
            os.kill(process.pid, signal.SIGTERM)
        else:
            os.killpg(group, signal.SIGINT)
        returncode = process.wait(timeout=30)
        stopped_in = time.monotonic() - start
    finally:
        if process.poll() is None:
            os.killpg(group, signal.SIGKILL)
            process.wait()

    output, errors = out.read_text(), err.read_text()
    assert returncode == status, output + errors
    assert stopped_in < 10, stopped_in  # not the 100 games, nor the game in play: at once
    m = re.search(
        rf"^interrupted \({name}\) after (\d+) of 100 games: the report is of the games finished$", output, re.M
    )
    assert m is not None and int(m.group(1)) >= 1, output + errors
    assert re.search(r"^slow-\S+: \d+ games, \d+ actions, \d+ failure\(s\)$", output, re.M), output
    assert re.search(r"termination\W+\d+\W+0\W", output), output  # the table of the games finished
    assert "Traceback" not in output + errors, errors
    # No worker outlives the command.
    assert wait_for(lambda: not set(children) & set(processes_in_group(group)), 10), processes_in_group(group)
    if ruleset == SLOW_FIRST_CARD:  # failures found: the counterexample is written, as found
        assert "slot_order" in output and "written as found (the run was interrupted)" in errors, output + errors
        assert json.loads(example.read_text(encoding="utf-8"))["invariant"] == "slot_order"
    else:
        assert not example.exists()
