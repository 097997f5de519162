"""``tamalou verify`` and ``tamalou replay``: worker processes, the report by invariant, shrunk
counterexamples that carry their ruleset, and their replay.

The house rules are written into ``tmp_path`` as ``NAME.toml`` with their plugin module ``NAME_rules.py``
beside it (not on ``sys.path``: found beside the file, as a user's are). Budgets are small: the machine
is shared.
"""

from __future__ import annotations

import json
import sys
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tamalou
from tamalou import Game, Pass
from tamalou.cli import app
from tamalou.effective import variant_to_toml
from tamalou.invariants import INVARIANTS, Failure, VerifyReport, random_playout
from tamalou.verification import (
    Counterexample,
    ShrinkBudget,
    check_game,
    counterexample_name,
    shrink,
    style_of,
    verify,
)

runner = CliRunner()

#: A scoring rule that reads the first card of a layout as its highest: broken (the order of the cards).
FIRST_CARD = """
import tamalou


@tamalou.hookimpl
def tamalou_round_scores(variant, tally, winners):
    return [t + (tamalou.card_value(variant, h[0]) if h else 0) for t, h in zip(tally.totals, tally.hands)]
"""

#: The same rule, fixed.
HIGHEST_CARD = """
import tamalou


@tamalou.hookimpl
def tamalou_round_scores(variant, tally, winners):
    return [t + max((tamalou.card_value(variant, c) for c in h), default=0) for t, h in zip(tally.totals, tally.hands)]
"""

#: A sound house rule: sevens are worth nothing.
FREE_SEVENS = """
import tamalou


@tamalou.hookimpl
def tamalou_card_value(variant, card):
    return 0 if card.rank == "7" else None
"""


def house(folder: Path, name: str, plugin: str) -> Path:
    """``NAME.toml`` (French, with the plugin ``NAME_rules``) and the plugin beside it."""
    (folder / f"{name}_rules.py").write_text(plugin, encoding="utf-8")
    path = folder / f"{name}.toml"
    path.write_text(f'extends = "french"\nname = "{name}"\nplugins = ["{name}_rules"]\n', encoding="utf-8")
    return path


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def same(a: VerifyReport, b: VerifyReport) -> None:
    for key in ("games", "actions", "failures", "reasons", "checks", "failed", "details", "stopped"):
        assert getattr(a, key) == getattr(b, key), key


# ----------------------------------------------------------------------------- the report


def test_the_report_is_the_same_whatever_the_workers() -> None:
    one = verify("french", games=5, seed=7, workers=1)
    two = verify("french", games=5, seed=7, workers=2)
    same(one, two)
    assert one.ok and one.games == 5 and not two.notes
    assert set(one.checks) == set(INVARIANTS)
    assert one.checks["termination"] == 5 and one.checks["conservation"] > one.actions


def test_failures_are_the_same_whatever_the_workers(tmp_path: Path) -> None:
    path = house(tmp_path, "first_card", FIRST_CARD)
    one = verify(str(path), games=3, players=2, workers=1)
    two = verify(str(path), games=3, players=2, workers=2)
    same(one, two)
    assert one.failed == {"slot_order": 3}
    assert [f.seed for f in one.details] == [0, 1, 2]


def test_a_game_is_known_by_its_seed() -> None:
    """``tamalou verify --seed S --games 1`` checks the very game S of a longer run."""
    report = check_game("french", 3, 12)
    alone = verify("french", games=1, seed=12, players=3)
    assert alone.actions == report.actions and alone.checks == report.checks
    assert style_of(12) == style_of(2) != style_of(0)
    assert random_playout("french", 3, 12, **style_of(12)).to_json().count('"') > 0


def test_the_cli_prints_the_table_the_same_with_one_or_two_workers() -> None:
    one = run("verify", "french", "-n", "3", "--workers", "1", "--seed", "3")
    two = run("verify", "french", "-n", "3", "--workers", "2", "--seed", "3")
    assert one.exit_code == two.exit_code == 0, one.output
    assert one.stdout == two.stdout
    out = one.stdout
    assert "french: 3 games" in out and "0 failure(s)" in out
    for name in INVARIANTS:
        assert name in out
    assert "checks" in out and "failures" in out
    assert "worker(s)" in one.stderr


def test_the_cli_usage_errors() -> None:
    assert run("verify", "french", "--workers", "0").exit_code == 2
    assert run("verify", "french", "--games", "0").exit_code == 2
    assert run("verify", "french", "--players", "9").exit_code == 2
    result = run("verify", "french", "--out", "/no/such/folder/x.json")
    assert result.exit_code == 2 and "no folder" in result.output


def test_the_run_stops_after_max_failures(tmp_path: Path) -> None:
    path = house(tmp_path, "first_card_stop", FIRST_CARD)
    report = verify(str(path), games=6, players=2, max_failures=2)
    assert report.games == 2 and report.stopped and len(report.details) == 2
    result = run(
        "verify", str(path), "-n", "6", "-p", "2", "--max-failures", "2", "-w", "1", "-o", str(tmp_path / "c.json")
    )
    assert result.exit_code == 1
    assert "stopped after 2 failing games" in result.stdout


# ----------------------------------------------------------------------------- workers and plugins beside a file


def test_a_ruleset_with_its_plugin_beside_it_verifies_in_workers(tmp_path: Path) -> None:
    path = house(tmp_path, "free_sevens", FREE_SEVENS)
    v = tamalou.load_variant(str(path))
    assert "free_sevens_rules" in v._plugin_dirs
    two = verify(v, games=3, workers=2)
    assert two.ok and not two.notes, two.failures or two.notes
    same(two, verify(v, games=3, workers=1))


def test_workers_that_cannot_load_the_ruleset_leave_the_games_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ghost = types.ModuleType("ghost_rules_for_verify")
    exec(FREE_SEVENS, ghost.__dict__)  # a module that exists only in this process
    monkeypatch.setitem(sys.modules, "ghost_rules_for_verify", ghost)
    data = tomllib.loads(variant_to_toml("french"))
    data["plugins"] = [*data.get("plugins", []), "ghost_rules_for_verify"]
    v = tamalou.variant_from_dict(data)
    report = verify(v, games=2, workers=2)
    assert report.ok and report.games == 2
    assert report.notes and "played here" in report.notes[0]


# ----------------------------------------------------------------------------- counterexamples


def test_a_counterexample_round_trip(tmp_path: Path) -> None:
    path = house(tmp_path, "first_card_ce", FIRST_CARD)
    out = tmp_path / "ce.json"
    result = run("verify", str(path), "-n", "2", "-w", "1", "-o", str(out))
    assert result.exit_code == 1, result.output
    assert f"reproduce: tamalou replay {out}" in result.stdout
    assert "slot_order" in result.stdout
    example = Counterexample.read(out)
    assert example.invariant == "slot_order" and example.description == INVARIANTS["slot_order"].description
    assert example.variant.name == "first_card_ce" and "first_card_ce_rules" in example.variant.plugins
    assert example.variant.plugin_dirs["first_card_ce_rules"] == str(tmp_path.resolve())
    assert example.players == 2  # the smallest count French allows
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["kind"] == "tamalou-counterexample" and "[rules" in data["variant"]["toml"]
    assert example.check().violation is not None

    replayed = run("replay", str(out))
    assert replayed.exit_code == 1, replayed.output
    assert "still fails: slot_order" in replayed.stdout
    assert "step 1:" in replayed.stdout and "seen by P0" in replayed.stdout and "seen by P1" in replayed.stdout
    seat = run("replay", str(out), "--seat", "1")
    assert seat.exit_code == 1
    assert "seen by P1" in seat.stdout and "seen by P0" not in seat.stdout


def test_replay_says_when_the_rule_is_fixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = house(tmp_path, "first_card_fix", FIRST_CARD)
    out = tmp_path / "ce.json"
    assert run("verify", str(path), "-n", "1", "-w", "1", "-o", str(out)).exit_code == 1
    (tmp_path / "first_card_fix_rules.py").write_text(HIGHEST_CARD, encoding="utf-8")  # the fix
    monkeypatch.delitem(sys.modules, "first_card_fix_rules")  # a fresh process would import it again
    result = run("replay", str(out))
    assert result.exit_code == 0, result.output
    assert "holds now: slot_order" in result.stdout


def test_the_default_counterexample_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = house(tmp_path, "first_card_name", FIRST_CARD)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    result = run("verify", str(path), "-n", "1", "-w", "1", "-p", "2")
    assert result.exit_code == 1
    name = counterexample_name("first_card_name", 0)
    assert name == "tamalou-counterexample-first_card_name-0.json"
    assert (here / name).is_file()
    assert f"reproduce: tamalou replay {name}" in result.stdout


def test_replay_of_a_game_snapshot(tmp_path: Path) -> None:
    snap = tmp_path / "game.json"
    snap.write_text(random_playout("french", 3, seed=1).to_json(), encoding="utf-8")
    result = run("replay", str(snap), "--seat", "2")
    assert result.exit_code == 0, result.output
    assert "holds now: every invariant" in result.stdout and "seen by P2" in result.stdout


def test_replay_usage_errors(tmp_path: Path) -> None:
    assert run("replay", str(tmp_path / "missing.json")).exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert run("replay", str(bad)).exit_code == 2
    bad.write_text('{"kind": "something else"}', encoding="utf-8")
    result = run("replay", str(bad))
    assert result.exit_code == 2 and "neither a counterexample nor a game snapshot" in result.output
    snap = tmp_path / "game.json"
    snap.write_text(tamalou.new_game("french", 2, seed=1).to_json(), encoding="utf-8")
    assert run("replay", str(snap), "--seat", "5").exit_code == 2


# ----------------------------------------------------------------------------- shrinking


def test_shrinking_makes_a_failing_game_shorter(monkeypatch: pytest.MonkeyPatch) -> None:
    played = random_playout("french", 4, seed=5, call_probability=0.0)
    actions = [a.to_dict() for a in played.actions[:120]]
    real_legal = Game.legal_actions

    def legal_actions(self: Game, p: int) -> list[Any]:
        listed = real_legal(self, p)  # from the third turn on, a pass is listed twice
        return [*listed, Pass(p)] if self.turn >= 2 and Pass(p) in listed else listed

    monkeypatch.setattr(Game, "legal_actions", legal_actions)
    failure = Failure(5, 4, "listed_accepted", "listed twice", actions, style={"call_probability": 0.0})
    example = shrink("french", failure, budget=ShrinkBudget(evaluations=150))
    assert example.invariant == "listed_accepted"
    assert example.players <= 4 and len(example.actions) < 40
    assert example.check().violation is not None
    assert example.found == {"seed": 5, "players": 4, "actions": 120, "style": {"call_probability": 0.0}}
    kept = shrink("french", failure, budget=ShrinkBudget(evaluations=150), players=False)
    assert kept.players == 4 and len(kept.actions) < len(actions)
