"""``benchmarks/instructions.py`` counts a game's instructions as its docstring says: two runs of the same
warm-up, one with GAMES games more, their difference divided by GAMES. A stand-in for Valgrind runs the
measured command for real (the script it plays must work) and reports a count made from its arguments."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from scenario import load_script

pytestmark = pytest.mark.deep  # the benchmark tooling runs in the deep tier (tests/tiers.py)

BENCH: Any = load_script(Path(__file__).resolve().parents[2] / "benchmarks" / "instructions.py")

#: Runs what follows Valgrind's options, then reports 1 000 000 instructions plus 4 321 per game played,
#: and 5 more per game when the run was given a PYTHONPATH (``--src``).
FAKE = """import os, subprocess, sys
command = [a for a in sys.argv[1:] if not a.startswith("--")]
done = subprocess.run(command, capture_output=True, text=True)
if done.returncode:
    sys.stderr.write(done.stderr)
    sys.exit(done.returncode)
games = int(command[-1])
per_game = 4321 + (5 if os.environ.get("PYTHONPATH") else 0)
sys.stderr.write(f"==1== I   refs:      {1_000_000 + per_game * games:,}\\n")
"""


@pytest.fixture
def fake_valgrind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    # The stand-in counts 5 more per game when the measured run has a PYTHONPATH: the runs measured here get
    # one only when a test gives it, whatever the environment the suite runs in.
    monkeypatch.delenv("PYTHONPATH", raising=False)
    (tmp_path / "fake_valgrind.py").write_text(FAKE, encoding="utf-8")
    path = tmp_path / "valgrind"  # (a shell script: a shebang line naming a long venv path would be cut)
    path.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{tmp_path / 'fake_valgrind.py'}' \"$@\"\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def test_a_game_costs_the_difference_of_the_two_runs(
    fake_valgrind: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(BENCH.shutil, "which", lambda name: fake_valgrind)
    monkeypatch.setattr(sys, "argv", ["instructions.py", "3", "--variant", "gabo"])
    BENCH.main()
    assert capsys.readouterr().out.strip() == "gabo, random bots, 3 games: 4,321 instructions a game"


def test_another_tree_is_run_from_its_folder(fake_valgrind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    assert BENCH.instructions(fake_valgrind, "french", "random", 2, src) == 1_000_000 + 4326 * 2
    assert BENCH.instructions(fake_valgrind, "french", "random", 2, None) == 1_000_000 + 4321 * 2


def test_the_public_api_s_games_are_random_playout_s(
    fake_valgrind: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(BENCH.shutil, "which", lambda name: fake_valgrind)
    monkeypatch.setattr(sys, "argv", ["instructions.py", "2", "--public"])
    BENCH.main()  # the stand-in runs random_playout.py's games for real
    assert capsys.readouterr().out.strip() == (
        "french, random_playout.py's policy (the public API), 2 games: 4,321 instructions a game"
    )


def test_a_failing_run_is_reported(fake_valgrind: str) -> None:
    with pytest.raises(SystemExit, match="the measured run failed"):
        BENCH.instructions(fake_valgrind, "no-such-ruleset", "random", 1, None)


def test_without_valgrind_it_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BENCH.shutil, "which", lambda name: None)
    monkeypatch.setattr(sys, "argv", ["instructions.py", "5"])
    with pytest.raises(SystemExit, match="Valgrind, which is not installed"):
        BENCH.main()


def test_a_folder_without_the_package_is_refused(
    fake_valgrind: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(BENCH.shutil, "which", lambda name: fake_valgrind)
    monkeypatch.setattr(sys, "argv", ["instructions.py", "--src", str(tmp_path)])
    with pytest.raises(SystemExit):
        BENCH.main()
    assert "holds no tamalou package" in capsys.readouterr().err
