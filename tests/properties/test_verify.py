"""``tamalou verify`` and ``tamalou replay``: worker processes, the report by invariant, shrunk
counterexamples that carry their ruleset, and their replay.

The house rules are written into ``tmp_path`` as ``NAME.toml`` with their plugin module ``NAME_rules.py``
beside it (not on ``sys.path``: found beside the file, as a user's are). Budgets are small: the machine
is shared.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

import tamalou
from simulated import FREE_SEVENS, house  # a sound house rule (sevens worth nothing), beside its file
from tamalou import Pass, Round
from tamalou.cli import app
from tamalou.rulesets.effective import variant_to_toml
from tamalou.verify import (
    INVARIANTS,
    Counterexample,
    EmbeddedVariant,
    Failure,
    PlayStyle,
    ShrinkBudget,
    VerifyReport,
    check_game,
    counterexample_name,
    random_playout,
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

#: The first rule where an environment variable says so, else the fixed one: a rule that depends on state outside
#: the game (a failure that does not come back when replayed without it).
FIRST_CARD_IF_ASKED = """
import os
import tamalou


@tamalou.hookimpl
def tamalou_round_scores(variant, tally, winners):
    if os.environ.get("FIRST_CARD_RULE") == "1":
        return [t + (tamalou.card_value(variant, h[0]) if h else 0) for t, h in zip(tally.totals, tally.hands)]
    return [t + max((tamalou.card_value(variant, c) for c in h), default=0) for t, h in zip(tally.totals, tally.hands)]
"""


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
    assert set(one.checks) == set(INVARIANTS) - {"match"}  # French is played one round at a time: no match
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
    per_game = {name: n for name, n in alone.checks.items() if INVARIANTS[name].when != "run"}
    assert alone.actions == report.actions and per_game == report.checks
    assert alone.checks["determinism"] == 1 and alone.checks["end_hooks"] > 100  # the checks of the run
    assert style_of(12) == style_of(2) != style_of(0)
    assert random_playout("french", 3, 12, style_of(12)).to_json().count('"') > 0


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
    assert ": 2 of 6 games, " in result.stdout and "2 of 6 games checked, the others not played" in result.stdout


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
    assert f"reproduce: tamalou replay {out} --allow-plugins" in result.stdout  # the house rule's module: ours
    assert "slot_order" in result.stdout
    example = Counterexample.read(out)
    assert example.invariant == "slot_order" and example.description == INVARIANTS["slot_order"].description
    assert example.variant.name == "first_card_ce" and "first_card_ce_rules" in example.variant.plugins
    assert example.variant.plugin_dirs["first_card_ce_rules"] == str(tmp_path.resolve())
    assert example.players == 2  # the smallest count French allows
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["kind"] == "tamalou-counterexample" and "[rules" in data["variant"]["toml"]
    assert example.check().violation is not None

    replayed = run("replay", str(out), "--allow-plugins")
    assert replayed.exit_code == 1, replayed.output
    assert "still fails: slot_order" in replayed.stdout
    assert "step 1:" in replayed.stdout and "seen by P0" in replayed.stdout and "seen by P1" in replayed.stdout
    seat = run("replay", str(out), "--seat", "1", "--allow-plugins")
    assert seat.exit_code == 1
    assert "seen by P1" in seat.stdout and "seen by P0" not in seat.stdout


def fixed_and_replayed(folder: Path, name: str, out: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``tamalou replay OUT --allow-plugins`` once the house rule ``name``'s module beside it is fixed."""
    (folder / f"{name}_rules.py").write_text(HIGHEST_CARD, encoding="utf-8")  # the fix
    monkeypatch.delitem(sys.modules, f"{name}_rules")  # a fresh process would import it again
    return run("replay", str(out), "--allow-plugins")


def test_replay_says_when_the_rule_is_fixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = house(tmp_path, "first_card_fix", FIRST_CARD)
    out = tmp_path / "ce.json"
    assert run("verify", str(path), "-n", "1", "-w", "1", "-o", str(out)).exit_code == 1
    result = fixed_and_replayed(tmp_path, "first_card_fix", out, monkeypatch)
    assert result.exit_code == 0, result.output
    assert "holds now: slot_order (the code of first_card_fix_rules changed)" in result.stdout


def test_replay_never_says_a_bug_holds_when_the_code_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure that depends on state outside the game: with the plugin's code unchanged, a replay that does not
    fail says it does not reproduce (exit 1), not that the rule holds."""
    path = house(tmp_path, "first_card_asked", FIRST_CARD_IF_ASKED)
    out = tmp_path / "ce.json"
    monkeypatch.setenv("FIRST_CARD_RULE", "1")
    assert run("verify", str(path), "-n", "1", "-w", "1", "-o", str(out)).exit_code == 1
    assert Counterexample.read(out).code["first_card_asked_rules"]  # the fingerprint of the code that failed
    assert "still fails: slot_order" in run("replay", str(out), "--allow-plugins").stdout
    monkeypatch.delenv("FIRST_CARD_RULE")
    result = run("replay", str(out), "--allow-plugins")
    assert result.exit_code == 1, result.output
    assert "does not reproduce: slot_order held this time, with the same tamalou" in result.stdout
    assert "holds now" not in result.stdout
    # Once the module is changed (here: fixed for good), the same replay says it holds, and why.
    fixed = fixed_and_replayed(tmp_path, "first_card_asked", out, monkeypatch)
    assert fixed.exit_code == 0, fixed.output
    assert "holds now: slot_order (the code of first_card_asked_rules changed)" in fixed.stdout


def test_a_file_without_fingerprints_says_it_cannot_tell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = house(tmp_path, "first_card_old", FIRST_CARD)
    out = tmp_path / "ce.json"
    assert run("verify", str(path), "-n", "1", "-w", "1", "-o", str(out)).exit_code == 1
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data["code"]) == {"tamalou", "first_card_old_rules"}
    data["code"] = {}  # as an older tamalou wrote it
    out.write_text(json.dumps(data), encoding="utf-8")
    result = fixed_and_replayed(tmp_path, "first_card_old", out, monkeypatch)
    assert result.exit_code == 0, result.output
    assert "holds now: slot_order (the file records no fingerprint of the code" in result.stdout


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
    assert f"reproduce: tamalou replay {name} --allow-plugins" in result.stdout


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


# ----------------------------------------------------------------------------- replay trusts no file unless told

#: A plugin module that says it was imported: a file beside it.
SIDE_EFFECT = """
from pathlib import Path

Path(__file__).with_name("imported.txt").write_text("imported", encoding="utf-8")
"""


def naming(tmp_path: Path, module: str, plugin_dirs: dict[str, str], *, snapshot: bool = False) -> Path:
    """A French game's counterexample (or game snapshot) whose ruleset also names the plugin ``module``."""
    game = tamalou.new_game("french", 2, seed=1)
    path = tmp_path / ("snapshot.json" if snapshot else "counterexample.json")
    if snapshot:
        data = json.loads(game.to_json())
        data["variant"] = tamalou.load_variant("french").model_dump(mode="json")
        data["variant"]["plugins"].append(module)
        path.write_text(json.dumps(data), encoding="utf-8")
        return path
    example = Counterexample.from_snapshot(game.to_json())
    rules = tomllib.loads(example.variant.toml)
    rules["plugins"] = [*rules["plugins"], module]
    example.variant = example.variant.model_copy(
        update={"toml": tomli_w.dumps(rules), "plugins": rules["plugins"], "plugin_dirs": plugin_dirs}
    )
    return example.write(path)


@pytest.mark.parametrize("snapshot", [False, True], ids=["counterexample", "snapshot"])
@pytest.mark.parametrize("beside", [False, True], ids=["on-sys-path", "in-a-folder-it-names"])
def test_replay_imports_no_module_the_file_names_without_allow_plugins(
    tmp_path: Path, beside: bool, snapshot: bool
) -> None:
    module = "replay_untrusted_side_effect_rules" if beside else "this"  # `this` prints the Zen of Python
    if beside:
        (tmp_path / f"{module}.py").write_text(SIDE_EFFECT, encoding="utf-8")
    assert module not in sys.modules
    path = naming(tmp_path, module, {module: str(tmp_path)} if beside else {}, snapshot=snapshot)
    result = run("replay", str(path))
    assert result.exit_code == 2, result.output
    assert module not in sys.modules and not (tmp_path / "imported.txt").exists()
    assert "Beautiful is better than ugly" not in result.output
    assert "names plugin modules" in result.output and module in result.output
    assert "--allow-plugins" in result.output and "a file you trust" in result.output
    assert "Traceback" not in result.output and "step 1" not in result.output


def test_replay_with_allow_plugins_imports_the_modules_the_file_names(tmp_path: Path) -> None:
    module = "replay_trusted_side_effect_rules"
    (tmp_path / f"{module}.py").write_text(SIDE_EFFECT, encoding="utf-8")
    path = naming(tmp_path, module, {module: str(tmp_path)})
    try:
        result = run("replay", str(path), "--allow-plugins")
        assert result.exit_code == 0, result.output
        assert (tmp_path / "imported.txt").read_text(encoding="utf-8") == "imported"
        assert f"french (plugins: tamalou.plugins.french, {module})" in result.stdout
    finally:
        sys.modules.pop(module, None)


def test_the_library_still_trusts_the_files_it_is_given(tmp_path: Path) -> None:
    """``Counterexample.load_variant()`` and ``check()`` import what the file names unless told not to."""
    module = "replay_library_side_effect_rules"
    (tmp_path / f"{module}.py").write_text(SIDE_EFFECT, encoding="utf-8")
    example = Counterexample.read(naming(tmp_path, module, {module: str(tmp_path)}))
    with pytest.raises(tamalou.VariantError, match=f"plugin module '{module}' is not allowed"):
        example.check(allow_plugins=False)
    assert module not in sys.modules and not (tmp_path / "imported.txt").exists()
    try:
        assert module in example.load_variant().plugins
        assert (tmp_path / "imported.txt").is_file()
        assert example.check().violation is None
    finally:
        sys.modules.pop(module, None)


@pytest.mark.parametrize("name", ["french", "cabo", "kaboo", "cambia-circuit", "jokers"])
def test_a_built_in_ruleset_replays_without_allow_plugins(tmp_path: Path, name: str) -> None:
    played = tamalou.round_of(random_playout(name, 2, seed=4))  # the table itself: was the first player given?
    example = Counterexample(
        variant=EmbeddedVariant.of(tamalou.load_variant(name)),
        players=2,
        seed=4,
        first_player=played.first_player if played.first_given else None,
        actions=[a.to_dict() for a in played.actions[:12]],
        invariant="conservation",
        message="a test",
    )
    result = run("replay", str(example.write(tmp_path / "ce.json")))
    assert result.exit_code == 0, result.output
    assert "--allow-plugins" not in result.output and "step 12:" in result.stdout
    snapshot = tmp_path / "game.json"  # the same 12 actions, as a game snapshot
    first = played.first_player if played.first_given else None
    game = tamalou.replay(name, 2, seed=4, actions=played.actions[:12], first_player=first)
    snapshot.write_text(game.to_json(), encoding="utf-8")
    again = run("replay", str(snapshot))
    assert again.exit_code == 0, again.output
    assert "game snapshot" in again.stdout and "step 12:" in again.stdout


def test_replay_prints_the_file_s_text_without_its_control_characters(tmp_path: Path) -> None:
    example = Counterexample.from_snapshot(tamalou.new_game("french", 2, seed=1).to_json())
    example.invariant, example.description = "conservation\x1b]0;title\x07", "says\x1b[2J"
    example.message = "boom\x1b[2J\x9b31m"
    result = run("replay", str(example.write(tmp_path / "ce.json")))
    assert "boom\\x1b[2J\\x9b31m" in result.stdout and "conservation\\x1b]0;title\\x07" in result.stdout
    assert not any(c in result.output for c in "\x1b\x07\x9b"), result.output


# ----------------------------------------------------------------------------- shrinking


def test_shrinking_makes_a_failing_game_shorter(monkeypatch: pytest.MonkeyPatch) -> None:
    played = random_playout("french", 4, seed=5, style=PlayStyle(call_probability=0.0))
    actions = [a.to_dict() for a in played.actions[:120]]
    real_legal = Round.legal_actions

    def legal_actions(self: Round, p: int) -> list[Any]:
        listed = real_legal(self, p)  # from the third turn on, a pass is listed twice
        return [*listed, Pass(p)] if self.turn >= 2 and Pass(p) in listed else listed

    monkeypatch.setattr(Round, "legal_actions", legal_actions)
    failure = Failure(5, 4, "listed_accepted", "listed twice", actions, style={"call_probability": 0.0})
    example = shrink("french", failure, budget=ShrinkBudget(evaluations=150))
    assert example.invariant == "listed_accepted"
    assert example.players <= 4 and len(example.actions) < 40
    assert example.check().violation is not None
    assert example.found == {"seed": 5, "players": 4, "actions": 120, "style": {"call_probability": 0.0}}
    kept = shrink("french", failure, budget=ShrinkBudget(evaluations=150), players=False)
    assert kept.players == 4 and len(kept.actions) < len(actions)


def test_shrinking_takes_the_fewest_actions_before_the_fewest_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer actions first, then fewer players, and never longer than the game found: a listing bug that shows from
    the third turn at three players, but only from the thirteenth at two, shrinks to a short three-player game, not
    to a two-player one that must play twelve turns first (before, the fewer players were sought first: a 7-action
    3-player failure became a 124-action 2-player one)."""
    played = random_playout("french", 3, seed=5, style=PlayStyle(call_probability=0.0))
    actions = [a.to_dict() for a in played.actions[:60]]
    real_legal = Round.legal_actions

    def legal_actions(self: Round, p: int) -> list[Any]:
        listed = real_legal(self, p)  # a pass listed twice, from the third turn (the thirteenth at two players)
        late = 2 if self.players > 2 else 12
        return [*listed, Pass(p)] if self.turn >= late and Pass(p) in listed else listed

    monkeypatch.setattr(Round, "legal_actions", legal_actions)
    failure = Failure(5, 3, "listed_accepted", "listed twice", actions, style={"call_probability": 0.0})
    two = [check_game("french", 2, s, style=failure.style).failure for s in range(5, 9)]
    assert any(f is not None and f.invariant == "listed_accepted" for f in two)  # fewer players fail too, later
    example = shrink("french", failure, budget=ShrinkBudget(evaluations=200))
    assert example.players == 3 and len(example.actions) <= 12, (example.players, len(example.actions))
    assert example.check().violation is not None


def test_a_failure_in_the_round_s_last_turn_keeps_its_actions_and_costs_one_replay() -> None:
    # A scoring hook that raises on every round ended by the turn limit (tests/data/broken/raises.toml): no
    # shorter game reaches that turn, so shrinking keeps the actions instead of replaying the round 400 times.
    broken = tamalou.load_variant(Path(__file__).parents[1] / "data" / "broken" / "raises.toml", allow_plugins=True)
    report = verify(broken, games=12, players=2, max_failures=1)
    failure = next(f for f in report.details if f.invariant == "no_crash")
    budget = ShrinkBudget()
    example = shrink(broken, failure, budget=budget)
    assert "tamalou_round_scores" in example.message
    assert example.actions == list(failure.actions) and example.players == 2
    assert example.check().violation is not None
    assert budget._evaluations <= 2  # the failure replayed once, and the counterexample's message once


def test_the_failure_shrunk_is_the_shortest_of_the_run() -> None:
    """``verify`` shrinks the shortest of the failing games, then the one of the fewest players, then the earliest, not
    the first: a first failure after 98 actions and a later one after 9 give the counterexample of the 9."""
    from tamalou.verify import shortest

    long_first = Failure(seed=1, players=2, invariant="no_crash", message="", actions=[{}] * 98, index=0)
    short = Failure(seed=5, players=2, invariant="slot_order", message="", actions=[{}] * 9, index=4)
    shorter_of_more = Failure(seed=6, players=4, invariant="no_crash", message="", actions=[{}] * 3, index=5)
    as_short = Failure(seed=7, players=2, invariant="no_crash", message="", actions=[{}] * 9, index=6)
    as_short_of_more = Failure(seed=8, players=3, invariant="no_crash", message="", actions=[{}] * 9, index=1)
    assert shortest([long_first, short]) is short
    assert shortest([long_first, shorter_of_more]) is shorter_of_more  # the fewest actions first
    assert shortest([long_first, as_short, short]) is short  # as short, earlier
    assert shortest([as_short_of_more, as_short, short]) is short  # as short: the fewer players
    with pytest.raises(ValueError):
        shortest([])


def test_verify_writes_the_shortest_failure_s_counterexample(tmp_path: Path) -> None:
    path = house(tmp_path, "first_card_short", FIRST_CARD)
    out = tmp_path / "ce.json"
    result = run("verify", str(path), "-n", "6", "-p", "2", "-w", "1", "-o", str(out))
    assert result.exit_code == 1, result.output
    found = Counterexample.read(out).found
    lengths = [int(n) for n in re.findall(r"found with (\d+) actions", result.stdout)]
    assert lengths == [found["actions"]]
    report = verify(str(path), games=6, players=2, workers=1)
    assert found["actions"] == min(len(f.actions) for f in report.details)
    assert found["actions"] < len(report.details[0].actions)  # not the first failure: a shorter one


# ----------------------------------------------------------------------------- what the games used


def test_the_report_counts_the_moves_and_the_powers_its_games_used() -> None:
    """Every action counted once, by type; each power's first steps by name; a power of the ruleset's cards that
    no game used is named (what it does was not checked). Eight French games reach the four powers, three only
    peek_own."""
    report = verify("french", games=8, workers=1, determinism=False)
    assert sum(report.moves.values()) == report.actions
    assert report.moves["power"] == sum(report.powers.values())  # (French's second steps are swaps)
    assert set(report.powers) == {"peek_own", "peek_opponent", "blind_swap", "look_and_swap"}
    assert not report.unused_powers
    few = verify("french", games=3, workers=1, determinism=False)
    assert set(few.powers) == {"peek_own"} and few.unused_powers == ["peek_opponent", "blind_swap", "look_and_swap"]


def test_a_new_power_is_counted_by_its_name(tmp_path: Path) -> None:
    """A house power (``take_card`` of a plugin) shows in the report by its name, as a built-in one does; the
    command line lists the powers used and warns of one never used."""
    broken = Path(__file__).resolve().parents[1] / "data" / "broken" / "copy.toml"
    report = verify(str(broken), games=6, workers=1, max_failures=None)
    assert report.powers["take_card"] == 1 and set(report.unused_powers) == {"blind_swap", "look_and_swap"}
    result = CliRunner().invoke(app, ["verify", "french", "--games", "1", "--players", "2", "--workers", "1"])
    said = " ".join(result.output.split())
    assert "moves played: " in said and "powers used: " in said
    assert "warning: the power" in said and "was never used in these games" in said


def test_the_progress_ends_on_the_summary_s_figures() -> None:
    """With ``max_failures``, workers play past the last failure counted: the progress callback never counts those,
    so its last call gives the games and failures the report counts."""
    broken = Path(__file__).resolve().parents[1] / "data" / "broken" / "first_slot.toml"  # (every game fails)
    calls: list[tuple[int, int]] = []
    report = verify(
        str(broken), games=12, workers=2, max_failures=3, determinism=False, progress=lambda d, f: calls.append((d, f))
    )
    assert report.stopped and len(report.failures) == 3
    assert calls[-1] == (report.games, 3)
    assert all(done <= 12 and failing <= 3 for done, failing in calls)
