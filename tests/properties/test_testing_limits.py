"""``tamalou.testing`` and the pytest plugin within the limits of ``tamalou verify``: a property's example that never
ends fails within verify's time limit of a game, naming the hook where it was stuck; a step that draws for ever is
refused by the engine before it fills the memory; the examples are the same on every run."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

import tamalou
from tamalou.testing import check_property
from tamalou.verify import InvariantViolation, available

TESTS = Path(__file__).resolve().parents[1]
STUCK = str(TESTS / "data" / "broken" / "stuck_scores.toml")
REDRAW = """extends = "french"
name = "redraw-powers"
plugins = ["plugins_for_tests.redraw_powers"]
"""

#: A round whose stock and discard hold power cards only (French: 7 to 10, jacks and queens), ended by a call: the
#: 8S left in player 0's layout is redrawn for ever.
POWER_CARDS_LEFT = {
    "hands": [["8S", "AS", "2S", "3S"], ["AH", "2H", "3H", "4H"]],
    "stock": ["7C", "9C", "10C", "JC", "QC"],
    "discard": ["7D"],
}


@pytest.fixture(scope="module")
def redraw(tmp_path_factory: pytest.TempPathFactory) -> tamalou.Variant:
    path = tmp_path_factory.mktemp("redraw") / "redraw-powers.toml"
    path.write_text(REDRAW, encoding="utf-8")
    return tamalou.load_variant(path, allow_plugins=True)


def test_a_step_that_draws_for_ever_is_refused_with_the_hook_named(redraw: tamalou.Variant) -> None:
    """Player 1 throws the 7C and calls, player 0 throws the 9C: the discard and the stock hold power cards only when
    the round ends, and the 8S of player 0 is redrawn again and again. The engine refuses the step after 10,000 events,
    naming the line of the rule, in a hundredth of a second."""
    game = tamalou.new_game(redraw, players=2, deal=POWER_CARDS_LEFT, first_player=1)
    for a in [tamalou.Draw(1), tamalou.Discard(1), tamalou.Pass(1), tamalou.Call(1)]:  # (the 7C's power passed)
        game.apply(a)
    for a in [tamalou.Draw(0), tamalou.Discard(0), tamalou.Pass(0), tamalou.Pass(1)]:  # (and the closing window's)
        game.apply(a)
    said = r"reshuffled into the stock again after 10\d{3} events of one step.*redraw_powers\.py:23"
    with pytest.raises(tamalou.PluginError, match=said):
        game.apply(tamalou.Pass(0))  # the round ends: the 8S is redrawn again and again


@pytest.mark.skipif(not available(), reason="the time limit needs signal.setitimer and the main thread")
def test_a_property_s_example_that_never_ends_fails_within_the_time_limit_naming_the_hook() -> None:
    stuck = tamalou.load_variant(STUCK, allow_plugins=True)
    said = r"small_deals: the game was stopped by its time limit \(2 s a game\).*stuck_scores"
    with pytest.raises(InvariantViolation, match=said):
        check_property("small_deals", stuck, max_examples=30, timeout=2.0)


def test_the_property_suite_never_runs_out_of_memory_on_a_rule_that_loops(tmp_path: Path) -> None:
    """The suite of the pytest plugin on the looping rule, in a process of 4 GB at most: it fails, naming the rule,
    and ends (before the engine's bound, 24 GB and the out-of-memory killer)."""
    (tmp_path / "redraw-powers.toml").write_text(REDRAW, encoding="utf-8")
    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n", encoding="utf-8")
    four_gb = 4 * 2**30

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (four_gb, four_gb))

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--tamalou-variant",
            "redraw-powers.toml",
            "--tamalou-examples",
            "10",
            "-k",
            "small_deals",
            "-q",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        preexec_fn=limit,
        env={**__import__("os").environ, "PYTHONPATH": str(TESTS)},
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out[-3000:]
    assert "MemoryError" not in out and "redraw_powers.py" in out, out[-3000:]
