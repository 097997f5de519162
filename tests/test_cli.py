"""The ``tamalou`` command line, through typer's CliRunner: every command, success and failure."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tamalou
from tamalou import cli, invariants
from tamalou.bots import play_game
from tamalou.cli import app

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def assert_clean_exit(result: Any, code: int) -> None:
    """The expected status, and a person's message rather than a traceback."""
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    if code:
        assert isinstance(result.exception, SystemExit), result.exception


# ----------------------------------------------------------------------------- variants / show / schema


def test_variants_lists_every_ruleset() -> None:
    result = run("variants")
    assert_clean_exit(result, 0)
    for name in tamalou.variant_names():
        v = tamalou.load_variant(name)
        assert v.name in result.output
        p = v.rules.players
        assert f"{p.min}-{p.max}" in result.output
        for alias in v.aliases:
            assert alias in result.output
    assert "Tamalou (French rules)" in result.output


def test_show_prints_every_rule() -> None:
    result = run("show", "french")
    assert_clean_exit(result, 0)
    out = result.output
    v = tamalou.load_variant("french")
    for section in type(v.rules).model_fields:
        assert re.search(rf"\b{section} —", out), section
    assert "threshold = 5" in out
    assert "KS=15" in out and "KH=0" in out
    assert "max_turns = 400" in out
    assert "powers" in out and "look_and_swap" in out
    assert run("show", "tamalou").output == out  # by alias


def test_show_json_is_the_model_dump() -> None:
    result = run("show", "french", "--json")
    assert_clean_exit(result, 0)
    assert json.loads(result.output) == tamalou.load_variant("french").model_dump(mode="json")


def test_show_toml_loads_back_to_the_same_ruleset(tmp_path: Path) -> None:
    result = run("show", "french", "--toml")
    assert_clean_exit(result, 0)
    tomllib.loads(result.output)  # valid TOML
    path = tmp_path / "copy.toml"
    path.write_text(result.output, encoding="utf-8")
    again = tamalou.load_variant(str(path))
    assert again.model_dump() == tamalou.load_variant("french").model_dump()


def test_show_composition() -> None:
    plus = run("show", "french+opponent-matching", "--json")
    assert_clean_exit(plus, 0)
    both = run("show", "french", "opponent-matching", "--json")
    expected = tamalou.load_variant(["french", "opponent-matching"]).model_dump(mode="json")
    assert json.loads(plus.output) == json.loads(both.output) == expected
    assert expected["rules"]["matching"]["opponents"] is True


def test_show_unknown_variant_exits_2_with_the_message() -> None:
    result = run("show", "nosuch")
    assert_clean_exit(result, 2)
    with pytest.raises(tamalou.VariantError) as info:
        tamalou.load_variant("nosuch")
    assert str(info.value) in result.output
    assert "unknown variant 'nosuch'" in result.output


def test_show_json_and_toml_together_is_an_error() -> None:
    assert_clean_exit(run("show", "french", "--json", "--toml"), 2)


def test_schema_prints_the_json_schema() -> None:
    result = run("schema")
    assert_clean_exit(result, 0)
    assert json.loads(result.output) == tamalou.variant_json_schema()


def test_version() -> None:
    result = run("--version")
    assert_clean_exit(result, 0)
    assert tamalou.__version__ in result.output


# ----------------------------------------------------------------------------- validate


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_validate_good_files_and_names(tmp_path: Path) -> None:
    good = _write(tmp_path, "house.toml", 'extends = "french"\nname = "house"\n[rules.call]\nthreshold = 7\n')
    result = run("validate", good, "french", "tamalou")
    assert_clean_exit(result, 0)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 3
    assert all(": ok" in line for line in lines)
    assert "house.toml: ok" in result.output


def test_validate_wrong_key_names_the_file_and_the_key(tmp_path: Path) -> None:
    bad = _write(tmp_path, "typo.toml", 'extends = "french"\n[rules.call]\nthreshhold = 7\n')
    result = run("validate", bad)
    assert_clean_exit(result, 1)
    assert "typo.toml" in result.output
    assert "rules.call.threshhold" in result.output
    assert "unknown key" in result.output
    assert ": ok" not in result.output


def test_validate_reports_every_error_and_still_checks_the_good_ones(tmp_path: Path) -> None:
    seven = _write(tmp_path, "gabo.toml", 'extends = "french"\n[rules.call]\nthreshold = "seven"\n')
    broken = _write(tmp_path, "broken.toml", "name = \n")
    good = _write(tmp_path, "fine.toml", 'extends = "french"\nname = "fine"\n')
    result = run("validate", seven, good, broken, "nosuch")
    assert_clean_exit(result, 1)
    out = result.output
    assert 'gabo.toml: rules.call.threshold: expected an integer, got "seven"' in out
    assert "broken.toml" in out and "not valid TOML" in out
    assert "fine.toml: ok" in out
    assert "unknown variant 'nosuch'" in out


# ----------------------------------------------------------------------------- play


def _winners_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("winners:")]
    assert len(lines) == 1, output
    return lines[0]


def test_play_is_reproducible_and_prints_the_whole_game() -> None:
    args = ["play", "--seed", "5", "--players", "3", "--bots", "cautious,random,random"]
    first, second = run(*args), run(*args)
    assert_clean_exit(first, 0)
    assert first.output == second.output
    other = run("play", "--seed", "6", "--players", "3", "--bots", "cautious,random,random")
    assert other.output != first.output

    # The printed game is the real one: same deal, same log length, same result.
    game = tamalou.new_game("french", players=3, seed=5)
    kinds = ["cautious", "random", "random"]
    for p in range(3):
        assert f"P{p} ({kinds[p]}): {' '.join(c or '·' for c in game.layout(p))}" in first.output
    events: list[tamalou.Event] = []
    result = play_game(game, cli._bots(kinds, 5), on_event=events.append)
    winners = ", ".join(f"P{p}" for p in result.winners) or "nobody"
    assert _winners_line(first.output).startswith(f"winners: {winners};")
    assert f"actions: {len(game.actions)}" in first.output
    draws = [e for e in events if e.type == "drew"]
    assert first.output.count(" draws ") == len(draws)
    for e in draws:  # the referee's log shows the cards drawn from the stock too
        assert f"P{e['player']} draws {e['card']} from the {e['source']}" in first.output
    assert "Result (" in first.output
    for p in range(3):
        assert str(result.totals[p]) in first.output


def test_play_quiet_prints_only_the_result() -> None:
    loud = run("play", "--seed", "2")
    quiet = run("play", "--seed", "2", "--quiet")
    assert_clean_exit(quiet, 0)
    assert " draws " in loud.output
    assert " draws " not in quiet.output
    assert "Result (" in quiet.output
    assert _winners_line(quiet.output) == _winners_line(loud.output)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "nosuch"], "unknown variant 'nosuch'"),
        (["--players", "7"], "2 to 6 players"),
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--players", "3", "--bots", "random,cautious"], "3 players, 2 bots"),
    ],
)
def test_play_errors(args: list[str], message: str) -> None:
    result = run("play", *args)
    assert_clean_exit(result, 2)
    assert message in result.output


def test_play_other_ruleset() -> None:
    result = run("play", "--variant", "french+opponent-matching", "--seed", "1", "--players", "2")
    assert_clean_exit(result, 0)
    assert "winners:" in result.output


# ----------------------------------------------------------------------------- simulate


def test_simulate_counts_add_up() -> None:
    result = run("simulate", "--games", "12", "--seed", "3", "--players", "3", "--json")
    assert_clean_exit(result, 0)
    stats = json.loads(result.output)
    assert stats["games"] == 12
    assert sum(stats["reasons"].values()) == 12
    assert len(stats["wins"]) == len(stats["win_rates"]) == 3
    assert all(0 <= w <= 12 for w in stats["wins"])
    assert sum(stats["wins"]) >= 12 - stats["no_winner"]
    assert stats["win_rates"] == [round(w / 12, 4) for w in stats["wins"]]
    assert stats["actions_per_game"] == round(stats["actions"] / 12, 2)
    # The same games played again here give the same counts.
    actions, wins = 0, [0, 0, 0]
    for i in range(12):
        game = tamalou.new_game("french", players=3, seed=3 + i)
        r = play_game(game, cli._bots(["random"] * 3, 3 + i))
        actions += len(game.actions)
        for p in r.winners:
            wins[p] += 1
    assert stats["actions"] == actions
    assert stats["wins"] == wins


def test_simulate_table() -> None:
    result = run("simulate", "-n", "5", "--bots", "cautious,random,random,random")
    assert_clean_exit(result, 0)
    out = result.output
    assert "5 games of french, 4 players" in out
    assert "games/s" in out and "actions/game" in out
    for p in range(4):
        assert f"P{p}" in out
    assert "called" in out


def test_simulate_bad_variant() -> None:
    assert_clean_exit(run("simulate", "--variant", "nosuch"), 2)


# ----------------------------------------------------------------------------- verify


def test_verify_reports_like_the_library() -> None:
    result = run("verify", "french", "--games", "4", "--players", "2", "--seed", "1")
    report = invariants.verify(tamalou.load_variant("french"), games=4, players=2, seed=1)
    assert_clean_exit(result, 0 if not report.failures else 1)
    assert f"french: {report.games} games, {report.actions} actions, {len(report.failures)} failure(s)" in (
        result.output
    )


def test_verify_failures_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    def fake(variant: Any, **kwargs: Any) -> invariants.VerifyReport:
        calls.append({"variant": variant.name, **kwargs})
        return invariants.VerifyReport(games=3, actions=30, failures=[(17, 4, "conservation: 51 cards")])

    monkeypatch.setattr(invariants, "verify", fake)
    result = run("verify", "tamalou", "-n", "3", "-p", "4", "-s", "17")
    assert_clean_exit(result, 1)
    assert calls == [{"variant": "french", "games": 3, "players": 4, "seed": 17}]
    assert "seed 17, 4 players: conservation: 51 cards" in result.output


def test_verify_success_exit_0(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(invariants, "verify", lambda v, **kw: invariants.VerifyReport(games=2, actions=9))
    result = run("verify", "french")
    assert_clean_exit(result, 0)
    assert "french: 2 games, 9 actions, 0 failure(s)" in result.output


def test_verify_unknown_variant() -> None:
    result = run("verify", "nosuch")
    assert_clean_exit(result, 2)
    assert "unknown variant 'nosuch'" in result.output
