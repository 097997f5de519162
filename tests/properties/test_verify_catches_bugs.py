"""``tamalou verify`` catches rules broken on purpose.

Each ruleset of ``tests/data/broken/`` adds one plugin of ``tests/plugins_for_tests/broken_*.py`` to French
Tamalou (the plugin's docstring says its bug; the lines of the TOML that bring it in end with ``# the
bug``). For each, the real command line is run as a user would:

- ``tamalou verify RULESET`` exits 1, its table counts a failure of the invariant that the bug breaks, and
  its list of failures names that invariant;
- it writes a counterexample file naming that invariant and carrying the broken plugin;
- ``tamalou replay FILE`` plays it again and still fails (exit 1);
- the same ruleset without the lines marked ``# the bug`` passes (exit 0) with the same options: the plugin
  is what is caught, not the rest of the ruleset.

``verify`` catches each broken plugin at the smallest game count that still catches it (``Bug.games``, measured:
verify is seeded, game ``i`` is the same whatever the count, so a count that catches a bug keeps catching it, and
verify's default of 100 games catches it too), with ``--workers 1`` (the report is the same whatever the number of
workers, ``test_verify.py`` shows it, and worker processes cost more than they save on so few games). The controls,
in one process too, play as many games as the bug that needs the most (:data:`CONTROL_GAMES`), so that each plays
at least the games that caught its bug. These run in the fast tier; the deep tier adds the run a user makes,
``tamalou verify RULESET`` with its defaults (a hundred games, a worker process per core), on one broken ruleset
(``test_verify_at_its_defaults_catches_a_bug``): every one again at its defaults would show nothing more, at
several times the cost.

The controls that are the same ruleset once their bug is taken out (plain French) share one run.
These run the commands in subprocesses. The rulings and scoring hooks that fail only at some ends of rounds
(a ranking that leaves a player out, a scoring hook that reads the caller when nobody called) are caught
before any game is played, on the made-up ends of rounds of ``end_hooks``: their counterexamples have no
action.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
BROKEN = TESTS / "data" / "broken"
MARK = "# the bug"
TIMEOUT = 1800


@dataclass(frozen=True)
class Bug:
    toml: str  # a file of tests/data/broken/
    invariant: str  # the invariant verify reports broken
    says: str  # words the failure's message must contain: a regular expression (``a|b``: it may say either)
    # --games: measured as the smallest count that still catches the bug (this file's checks pass at the
    # default seed, and fail at every smaller count). Measure it again if the deal or the random games change:
    # `PYTHONPATH=tests tamalou verify tests/data/broken/TOML --games N` for N = 1, 2, ...
    games: int


BUGS = {
    "duplicated card": Bug("copy.toml", "conservation", "is both at", games=6),
    "card shown to the wrong seat": Bug(
        "wrong_seat.toml", "knowledge_events", "no event of the step showed it", games=6
    ),
    "call decided on the hidden total": Bug("call_peek.toml", "no_leak", "changes their legal actions", games=2),
    "round that never ends": Bug("endless.toml", "termination", "has not ended|a cycle", games=1),
    "score read from the first slot": Bug("first_slot.toml", "slot_order", "depends on the order", games=1),
    "ranking without a player": Bug("ranking.toml", "end_hooks", "tamalou_rank", games=1),
    "hook raising on some rounds": Bug("raises.toml", "end_hooks", "tamalou_round_scores", games=1),
    "card looked at told to everybody": Bug(
        "public_look.toml", "event_leak", "changes the events they receive", games=7
    ),
    "card named by its id": Bug("card_id.toml", "opaque_ids", "exchanging the ids", games=7),
    "secret exchange that keeps who knew": Bug(
        "secret_swap.toml", "knowledge_follows_moves", "no event they received names that place", games=8
    ),
    "event naming a missing slot": Bug("event_slot.toml", "event_schema", "whose layout has slots", games=6),
    "power that goes on while it is used": Bug("keep_looking.toml", "termination", "a cycle", games=6),
    "score keyed on hash()": Bug("hash_bonus.toml", "determinism", "PYTHONHASHSEED", games=2),
    "hint reading the wrong card": Bug(
        "hint.toml", "hints", r"KeepItLow\.hint raised IndexError.*broken_hint\.py:22", games=3
    ),
    "event changed after it was sent": Bug("recap.toml", "events_kept", "changed after it was sent", games=2),
    "match hook changing the result it is handed": Bug(
        "match_bonus.toml", "match", "its result scores .* but the match recorded", games=1
    ),
}
#: The controls' --games: the most any bug needs, so that each control plays at least the games that caught its bug.
CONTROL_GAMES = max(bug.games for bug in BUGS.values())


def tamalou_command() -> list[str]:
    script = Path(sys.executable).with_name("tamalou")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from tamalou.cli import main; main()"]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tamalou ARGS`` in ``cwd``, with ``tests/`` on the path (the plugins are ``plugins_for_tests.*``)."""
    path = os.pathsep.join([str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])])
    # PYTHONHASHSEED fixed: the fresh process of ``determinism`` runs under another one, drawn from the run's seed,
    # so whether a rule keyed on hash() answers differently there is decided, not a coin flip at each run.
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", "PYTHONHASHSEED": "0"}
    return subprocess.run(
        [*tamalou_command(), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=TIMEOUT, check=False
    )


def table_row(output: str, invariant: str) -> tuple[int, int]:
    """The counts of ``invariant``'s row in verify's table: checks, failures."""
    m = re.search(rf"^[^\w\n]*{invariant}[^\w\n]+(\d+)[^\w\n]+(\d+)[^\w\n]", output, re.M)
    assert m is not None, f"no row for {invariant} in verify's table:\n{output}"
    return int(m.group(1)), int(m.group(2))


def without_the_bug(toml: str) -> str:
    """The ruleset of ``toml`` without the lines marked ``# the bug``, its name, comments and blank lines."""
    text = (BROKEN / toml).read_text(encoding="utf-8")
    lines = [line.split("#")[0].rstrip() for line in text.splitlines() if not line.rstrip().endswith(MARK)]
    return "".join(f"{line}\n" for line in lines if line and not line.startswith("name ="))


@cache
def control_run(rules: str) -> tuple[int, str]:
    """``tamalou verify`` of ``rules`` (named "control"), once per distinct text: several broken rulesets
    are plain French once their bug is taken out, and share one run."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "control.toml").write_text(f'name = "control"\n{rules}', encoding="utf-8")
        options = ["--games", str(CONTROL_GAMES), "--workers", "1"]
        done = run("verify", "control.toml", "--out", "counterexample.json", *options, cwd=folder)
        written = (folder / "counterexample.json").exists()
    return done.returncode, done.stdout + done.stderr + ("\n(a counterexample was written)" if written else "")


def test_every_broken_plugin_has_a_ruleset_and_a_docstring() -> None:
    plugins = sorted(p.stem for p in (TESTS / "plugins_for_tests").glob("broken_*.py"))
    named = sorted(f"broken_{Path(bug.toml).stem}" for bug in BUGS.values())
    assert plugins == named
    for bug in BUGS.values():
        text = (BROKEN / bug.toml).read_text(encoding="utf-8")
        module = f"plugins_for_tests.broken_{Path(bug.toml).stem}"
        assert f'plugins = ["{module}"]  {MARK}' in text
        source = (TESTS / "plugins_for_tests" / f"broken_{Path(bug.toml).stem}.py").read_text(encoding="utf-8")
        assert source.startswith('"""Broken on purpose: ') and "BUG" in source


@pytest.mark.parametrize("bug", list(BUGS.values()), ids=list(BUGS))
def test_verify_catches_the_bug(bug: Bug, tmp_path: Path) -> None:
    caught(bug, tmp_path, "--games", str(bug.games), "--workers", "1")


@pytest.mark.deep
def test_verify_at_its_defaults_catches_a_bug(tmp_path: Path) -> None:
    """``tamalou verify RULESET`` as a user runs it (a hundred games, a worker process per core), stopped at the
    first failing game (the default's ten failures would show the same bug ten times)."""
    caught(BUGS["duplicated card"], tmp_path, "--max-failures", "1")


def caught(bug: Bug, tmp_path: Path, *options: str) -> None:
    """``tamalou verify`` with ``options`` fails on ``bug``'s ruleset by its invariant, writes a counterexample that
    names it and carries the plugin, and ``tamalou replay`` of that file still fails."""
    example = tmp_path / "counterexample.json"
    done = run("verify", str(BROKEN / bug.toml), "--out", str(example), *options, cwd=tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    checks, failures = table_row(output, bug.invariant)
    assert checks >= failures >= 1, output
    failed = [line for line in output.splitlines() if re.match(r"\s*seed \d+, \d+ players: ", line)]
    assert failed, output
    assert any(f"players: {bug.invariant}: " in line and re.search(bug.says, line) for line in failed), output

    # The counterexample names the invariant and carries the broken plugin with the ruleset.
    assert example.is_file(), output
    found = json.loads(example.read_text(encoding="utf-8"))
    assert found["kind"] == "tamalou-counterexample"
    assert found["invariant"] == bug.invariant
    assert re.search(bug.says, found["message"])
    assert f"plugins_for_tests.broken_{Path(bug.toml).stem}" in found["variant"]["plugins"]

    # Played again, it still fails.
    again = run("replay", str(example), "--allow-plugins", cwd=tmp_path)
    replayed = again.stdout + again.stderr
    assert again.returncode == 1, replayed[-3000:]
    assert f"still fails: {bug.invariant}" in replayed, replayed[-3000:]


@pytest.mark.parametrize("bug", list(BUGS.values()), ids=list(BUGS))
def test_the_same_ruleset_without_the_bug_passes(bug: Bug) -> None:
    rules = without_the_bug(bug.toml)
    assert "plugins" not in rules
    returncode, output = control_run(rules)
    assert returncode == 0, output
    assert " 0 failure(s)" in output.splitlines()[0], output
    assert "counterexample was written" not in output
