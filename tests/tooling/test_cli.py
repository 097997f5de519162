"""The ``tamalou`` command line, through typer's CliRunner: every command, success and failure."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

import tamalou
from tamalou import cli, simulation
from tamalou import verify as checks
from tamalou.bots import play_game
from tamalou.cli import app, play_command
from tamalou.cli.play_command import round_bots, seat_bots
from tamalou.engine.rulebook import ranking_rule, rulebook
from tamalou.rulesets.effective import effective_rules
from tamalou.simulation import game_seed

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


def test_show_keys_prints_every_key() -> None:
    result = run("show", "french", "--keys")
    assert_clean_exit(result, 0)
    out = result.output
    v = tamalou.load_variant("french")
    for section in type(v.rules).model_fields:
        assert re.search(rf"\b{section} —", out), section
    assert "threshold = 5" in out
    assert "KS=15" in out and "KH=0" in out
    assert "max_turns = 400" in out
    assert "powers" in out and "look_and_swap" in out
    assert run("show", "tamalou", "--keys").output == out  # by alias


def test_show_prints_the_rules_as_played() -> None:
    result = run("show", "french")
    assert_clean_exit(result, 0)
    out = result.output
    rules = effective_rules("french")
    # Every card line: the kings split (KS KC worth 15 with a power, KH KD worth 0), the other ranks whole.
    assert re.search(r"K: KS KC\s*│\s*15\s*│\s*look_and_swap", out), out
    assert re.search(r"K: KH KD\s*│\s*0\s*│", out), out
    assert re.search(r"│ 7\s*│\s*7\s*│\s*peek_own — Look at one of your own cards", out), out
    for line in rules.cards:
        assert (line.rank if line.whole_rank else f"{line.rank}: {' '.join(line.cards)}") in out
    assert "call: right at 5 points or less" in out
    for step in ranking_rule("french"):
        assert step in out
    assert "tamalou.plugins.french" in out and "tamalou_rank" in out
    assert "tamalou show french --keys" in out
    assert run("show", "tamalou").output == out.replace("show french --keys", "show tamalou --keys")


def test_show_says_what_a_plugin_changes() -> None:
    """gabo's threshold and a plugin's card values are the hooks' answers, named."""
    assert "call: right at 7 points or less" in run("show", "french+gabo").output
    out = run("show", "cabo").output
    assert "tamalou.plugins.cabo" in out and "tamalou_round_scores" in out
    assert "52 cards without suits: 0 ×2, 1 to 12 ×4 each, 13 ×2" in out


def test_show_json_effective_is_the_effective_rules() -> None:
    result = run("show", "french+gabo", "--json", "--effective")
    assert_clean_exit(result, 0)
    data = json.loads(result.output)
    assert data == effective_rules(["french", "gabo"]).model_dump(mode="json")
    assert data["call_threshold"] == 7
    assert data["ranking"] == ranking_rule(["french", "gabo"])


@pytest.mark.parametrize(
    "args", [["--keys", "--json"], ["--json", "--toml"], ["--keys", "--toml"], ["--effective", "--toml"]]
)
def test_show_options_that_do_not_go_together(args: list[str]) -> None:
    assert_clean_exit(run("show", "french", *args), 2)


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
    again = tamalou.load_variant(str(path)).model_dump()
    original = tamalou.load_variant("french").model_dump()
    assert again.pop("aliases") == () and original.pop("aliases") == ("tamalou", "tamalou-fr")
    assert again == original  # tests/api/test_show_roundtrip.py: every ruleset and composition


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


def test_validate_and_show_say_when_a_plugin_adds_a_tie_break(tmp_path: Path) -> None:
    """Decided: "A plugin that adds a tie-break of its own says so in show and validate" (the ruleset's ``ties``
    list is then not all its tie-breaks); a ruleset whose tie-breaks are its ``ties`` only gets no such note."""
    house = _write(
        tmp_path, "house.toml", 'extends = "french"\nplugins = ["plugins_for_tests.fewest_cards_tiebreak"]\n'
    )
    result = run("validate", house, "french")
    assert_clean_exit(result, 0)
    note = "note: plugin plugins_for_tests.fewest_cards_tiebreak adds the tie-break 'house_fewest_cards' after"
    assert note in " ".join(result.output.split())
    assert result.output.count("note:") == 1
    shown = " ".join(run("show", house).output.split())
    assert "(added by plugin plugins_for_tests.fewest_cards_tiebreak)" in shown
    assert "tie-break 1: the caller loses ties" in shown


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
    result = run("validate", seven, good, broken)
    assert_clean_exit(result, 1)  # bad rulesets: a rule failure
    out = result.output
    assert 'gabo.toml: rules.call.threshold: expected an integer, got "seven"' in out
    assert "broken.toml" in out and "not valid TOML" in out
    assert "fine.toml: ok" in out


def test_validate_a_ruleset_that_cannot_be_found_is_a_usage_error(tmp_path: Path) -> None:
    seven = _write(tmp_path, "gabo.toml", 'extends = "french"\n[rules.call]\nthreshold = "seven"\n')
    result = run("validate", seven, "nosuch", str(tmp_path / "missing.toml"), "french")
    assert_clean_exit(result, 2)  # 2 wins over 1: the command could not check what it was given
    out = result.output
    assert "unknown variant 'nosuch'" in out
    assert "missing.toml" in out
    assert "rules.call.threshold" in out  # still checked and reported
    assert "french: ok" in out


# ----------------------------------------------------------------------------- what a hostile file makes it print

#: What a terminal would obey rather than show: clear the screen, set the window's title (ending in a bell), a C1
#: CSI, DEL, a carriage return; and rich markup, printed as it is.
HOSTILE = "T\x1b[2J\x1b]0;title\x07 [bold]x[/bold] \x9b31m\x7f\rend"
#: What a ruleset's title may hold (a title is on one line and holds no control character): rich markup, printed
#: as it is, and characters beyond ASCII.
MARKUP = "T [bold]x[/bold] [red]é[/red] — end"
#: A description may span lines: newlines and tabs (and no other control character).
LINES = MARKUP + "\n\tsecond line [link=x]y[/link]"
#: Characters no output of the command may hold.
CONTROLS = ("\x1b", "\x07", "\x9b", "\x7f", "\r")


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=True)


@pytest.fixture
def hostile(tmp_path: Path) -> dict[str, str]:
    """A ruleset whose name, title and description hold markup (shown as it is), one whose name, title and
    description hold control characters (refused: ``schema``'s texts on one line hold none), and one with unknown
    keys named so (the errors name them)."""
    good = _write(
        tmp_path,
        "hostile.toml",
        f'extends = "french"\nname = {_toml_string("hostile" + MARKUP)}\ntitle = {_toml_string(MARKUP)}\n'
        f"description = {_toml_string(LINES)}\n",
    )
    controls = _write(
        tmp_path,
        "controls.toml",
        f'extends = "french"\nname = {_toml_string("hostile" + HOSTILE)}\ntitle = {_toml_string(HOSTILE)}\n'
        f"description = {_toml_string(HOSTILE)}\n",
    )
    bad = _write(
        tmp_path,
        "bad_keys.toml",
        f'extends = "french"\n{_toml_string("k" + HOSTILE)} = 1\n[rules]\n{_toml_string("q" + HOSTILE)} = 2\n',
    )
    return {"good": good, "controls": controls, "bad": bad}


def assert_no_control(output: str) -> None:
    found = [c for c in CONTROLS if c in output]
    assert not found, (found, output)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["show", "{good}"], 0),
        (["show", "{good}", "--keys"], 0),
        (["validate", "{controls}", "{bad}"], 1),
        (["show", "{controls}"], 2),
        (["show", "{bad}"], 2),
        (["play", "-v", "{good}", "-p", "2"], 0),
        (["play", "-v", "{controls}", "-p", "2"], 2),
        (["simulate", "{good}", "-n", "2", "-p", "2", "--backend", "inline"], 0),
    ],
    ids=["show", "show-keys", "validate", "show-controls", "show-bad", "play", "play-controls", "simulate"],
)
def test_text_from_a_file_is_printed_without_its_control_characters(
    hostile: dict[str, str], args: list[str], code: int
) -> None:
    result = run(*(a.format(**hostile) for a in args))
    assert_clean_exit(result, code)
    assert_no_control(result.output)
    if args[1] == "{good}" and args[0] != "simulate":  # shown as it is (simulate names the ruleset only)
        assert "hostileT [bold]x[/bold]" in result.output  # no markup read
    if args[:2] == ["show", "{good}"]:
        assert MARKUP in result.output
    if "{controls}" in args:  # refused, naming each key and the character, never writing it
        for key in ("name", "title", "description"):
            assert f"controls.toml: {key}: expected " in result.output
        assert "found U+001B at character" in result.output
    if args[0] == "validate" or args[1] == "{bad}":
        assert "kT\\x1b[2J" in result.output and "rules.qT\\x1b[2J" in result.output  # the key names, visible


@pytest.mark.parametrize("args", [["show", "--json"], ["show", "--toml"], ["play", "-p", "2", "--json", "-v"]])
def test_documents_escape_control_characters_and_still_read_back(hostile: dict[str, str], args: list[str]) -> None:
    result = run(*args, hostile["good"])
    assert_clean_exit(result, 0)
    assert_no_control(result.output)
    if "--toml" in args:
        assert tomllib.loads(result.output)["title"] == MARKUP
        assert tomllib.loads(result.output)["description"] == LINES
    elif args[0] == "show":
        assert json.loads(result.output)["title"] == MARKUP
    else:
        assert json.loads(result.output)["variant"] == "hostile" + MARKUP


@pytest.mark.parametrize(
    ("text", "shown", "in_a_document"),
    [
        ("plain — é ·\n\tand tab", "plain — é ·\n\tand tab", "plain — é ·\n\tand tab"),
        ("\x1b[2J\x1b]0;t\x07", "\\x1b[2J\\x1b]0;t\\x07", "\\u001b[2J\\u001b]0;t\\u0007"),
        (
            "\x00\r\x7f\x80\x9b\x9f\xa0",  # C0, DEL, C1; a no-break space is no control character
            "\\x00\\r\\x7f\\x80\\x9b\\x9f\xa0",
            "\\u0000\\u000d\\u007f\\u0080\\u009b\\u009f\xa0",
        ),
        ("[bold]x[/bold]", "[bold]x[/bold]", "[bold]x[/bold]"),
    ],
)
def test_printable(text: str, shown: str, in_a_document: str) -> None:
    from tamalou.cli.printable import printable

    assert printable(text) == shown
    assert printable(text, document=True) == in_a_document
    # A document's strings read back the same.
    assert json.loads(printable(json.dumps({"t": text}, ensure_ascii=False), document=True)) == {"t": text}
    assert tomllib.loads(printable(tomli_w.dumps({"t": text}), document=True)) == {"t": text}
    assert printable(7) == "7"


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
    table = tamalou.round_of(game)  # the cards dealt
    for p in range(3):
        assert f"P{p} ({kinds[p]}): {' '.join(c or '·' for c in table.layout(p))}" in first.output
    events: list[tamalou.Event] = []
    result = play_game(game, seat_bots(kinds, 5), on_event=events.append)
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
    result = run("simulate", "--games", "12", "--seed", "3", "--players", "3", "--json", "-")
    assert_clean_exit(result, 0)
    stats = json.loads(result.output)
    rounds = stats["rounds"]
    assert stats["games"] == rounds["rounds"] == 12 and stats["bots"] == ["random"] * 3
    assert sum(rounds["reasons"].values()) == 12
    assert len(rounds["by_seat"]) == 3 and list(rounds["by_bot"]) == ["random"]
    assert rounds["by_bot"]["random"]["wins"] == sum(s["wins"] for s in rounds["by_seat"])
    assert sum(s["wins"] for s in rounds["by_seat"]) >= 12 - rounds["no_winner"]
    assert [s["win_rate"] for s in rounds["by_seat"]] == [s["wins"] / 12 for s in rounds["by_seat"]]
    # The same games played here (game i: seed game_seed(3, i), its bots seeded as play seeds them) give the
    # same counts.
    actions, wins = [], [0, 0, 0]
    for i in range(12):
        seed = game_seed(3, i)
        game = tamalou.new_game("french", players=3, seed=seed)
        r = play_game(game, seat_bots(["random"] * 3, seed))
        actions.append(len(game.actions))
        for p in r.winners:
            wins[p] += 1
    assert rounds["actions"]["mean"] == sum(actions) / 12
    assert rounds["actions"]["histogram"] == {str(a): actions.count(a) for a in sorted(set(actions))}
    assert [s["wins"] for s in rounds["by_seat"]] == wins


def test_simulate_table() -> None:
    result = run("simulate", "-n", "5", "--bots", "cautious,random,random,random", "--backend", "inline")
    assert_clean_exit(result, 0)
    out = result.output
    assert "5 games of french, 4 players, bots cautious, random, random, random, seed 0" in out
    assert "games/s" in out and "actions/game" in out
    for p in range(4):
        assert f"P{p}" in out
    assert "called" in out
    assert "Bots (matched, missed: per round)" in out and "Balance" not in out


def test_simulate_bots_take_seats_in_turn_and_the_workers_change_nothing() -> None:
    one = run("simulate", "-n", "6", "-b", "cautious,random", "-p", "3", "--json", "-", "--backend", "inline")
    two = run("simulate", "-n", "6", "-b", "cautious,random", "-p", "3", "--json", "-", "-w", "2")
    assert_clean_exit(one, 0)
    assert_clean_exit(two, 0)
    a, b = json.loads(one.output), json.loads(two.output)
    assert a["bots"] == ["cautious", "random", "cautious"]
    assert a["rounds"]["by_bot"]["cautious"]["seats"] == [0, 2]
    assert (a["run"]["backend"], a["run"]["workers"]) == ("inline", 1)
    assert (b["run"]["backend"], b["run"]["workers"]) == ("process", 2)
    del a["run"], b["run"]
    assert a == b


def test_simulate_two_rulesets_compared(tmp_path: Path) -> None:
    out = tmp_path / "balance.json"
    result = run(
        "simulate", "french", "--compare", "cabo", "-n", "8", "-p", "3", "--backend", "inline", "--json", str(out)
    )
    assert_clean_exit(result, 0)
    text = " ".join(result.output.split())
    assert "8 games of french, 3 players" in text and "8 matches of cabo, 3 players" in text
    assert "Balance (95 % confidence intervals)" in text
    for metric in ("caller win rate", "round length (turns)", "first player's advantage"):
        assert metric in text
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [r["variant"] for r in doc["reports"]] == ["french", "cabo"]
    assert [line["metric"] for line in doc["balance"]] == [
        "caller win rate",
        "round length (turns)",
        "first player's advantage",
    ]
    turns = doc["balance"][1]["estimates"]
    assert [e["value"] for e in turns] == [r["rounds"]["turns"]["mean"] for r in doc["reports"]]
    assert all(e["low"] <= e["value"] <= e["high"] for e in turns)


def test_simulate_plot_without_matplotlib_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run("simulate", "-n", "1", "--plot", "x.png")
    assert_clean_exit(result, 2)
    assert "pip install 'tamalou[plot]'" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-b", "nosuch"], "unknown bot 'nosuch' (bots: random, cautious"),
        (["--backend", "threads"], "--backend is one of inline, process, ray, got 'threads'"),
        (["--workers", "0"], "--workers must be at least 1, got 0"),
        (["--json", "no/such/folder/x.json"], "--json: no folder 'no/such/folder'"),
    ],
)
def test_simulate_usage_errors(args: list[str], message: str) -> None:
    result = run("simulate", "-n", "1", *args)
    assert_clean_exit(result, 2)
    assert message in " ".join(result.output.split())


def test_simulate_bad_variant() -> None:
    assert_clean_exit(run("simulate", "--variant", "nosuch"), 2)


# ----------------------------------------------------------------------------- verify


def test_verify_reports_like_the_library() -> None:
    result = run("verify", "french", "--games", "4", "--players", "2", "--seed", "1")
    report = checks.verify(tamalou.load_variant("french"), games=4, players=2, seed=1)
    assert_clean_exit(result, 0 if not report.failures else 1)
    assert f"french: {report.games} games, {report.actions} actions, {len(report.failures)} failure(s)" in (
        result.output
    )


def test_verify_failures_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    def fake(variant: Any, **kwargs: Any) -> checks.VerifyReport:
        calls.append({"variant": variant.name, **kwargs})
        return checks.VerifyReport(games=3, actions=30, failures=[(17, 4, "conservation: 51 cards")])

    monkeypatch.setattr(checks, "verify", fake)
    result = run("verify", "tamalou", "-n", "3", "-p", "4", "-s", "17")
    assert_clean_exit(result, 1)
    assert len(calls) == 1
    asked = {key: calls[0][key] for key in ("variant", "games", "players", "seed")}
    assert asked == {"variant": "french", "games": 3, "players": 4, "seed": 17}
    assert "seed 17, 4 players: conservation: 51 cards" in result.output


def test_verify_success_exit_0(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "verify", lambda v, **kw: checks.VerifyReport(games=2, actions=9))
    result = run("verify", "french")
    assert_clean_exit(result, 0)
    assert "french: 2 games, 9 actions, 0 failure(s)" in result.output


def test_verify_unknown_variant() -> None:
    result = run("verify", "nosuch")
    assert_clean_exit(result, 2)
    assert "unknown variant 'nosuch'" in result.output


# ----------------------------------------------------------------------------- exit codes


def test_a_ruleset_that_does_not_load_is_a_usage_error_everywhere_but_validate(tmp_path: Path) -> None:
    """The same bad file: validate found a bad ruleset (1); the other commands could not load it (2)."""
    bad = _write(tmp_path, "typo.toml", 'extends = "french"\n[rules.call]\nthreshhold = 7\n')
    assert_clean_exit(run("validate", bad), 1)
    for args in (
        ["show", bad],
        ["play", "--variant", bad],
        ["simulate", "--variant", bad, "-n", "1"],
        ["verify", bad, "-n", "1"],
        ["new", "mine", "--extends", bad, "--dir", str(tmp_path)],
    ):
        result = run(*args)
        assert_clean_exit(result, 2)
        assert "rules.call.threshhold" in result.output, args


@pytest.mark.parametrize("command", [["show"], ["verify"], ["play", "--variant"], ["simulate", "--variant"]])
def test_an_unknown_ruleset_is_a_usage_error(command: list[str]) -> None:
    result = run(*command, "nosuch")
    assert_clean_exit(result, 2)
    assert "unknown variant 'nosuch'" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "french", "--players", "9"],
        ["play", "--players", "9"],
        ["simulate", "--players", "9", "-n", "1"],
    ],
)
def test_a_player_count_the_ruleset_does_not_allow_is_a_usage_error(args: list[str]) -> None:
    result = run(*args)
    assert_clean_exit(result, 2)
    assert "french is played by 2 to 6 players, got 9" in result.output
    assert "failure" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "0"],
        ["verify", "french", "--games", "0"],
        ["play", "--players", "three"],
        ["play", "--no-such-option"],
        ["nosuchcommand"],
    ],
)
def test_bad_options_are_usage_errors(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_a_plugin_failing_during_a_game_is_a_rule_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise tamalou.PluginError("returned 'x', expected a list", plugin="house", hook="tamalou_rank")

    monkeypatch.setattr(play_command, "play_game", broken)  # where play looks it up
    monkeypatch.setattr(simulation.games, "play_out", broken)  # simulate plays here with one game (no worker)
    for args in (["play"], ["simulate", "-n", "1"], ["play", "--variant", "french+multi-round"]):
        result = run(*args)
        assert_clean_exit(result, 1)
        assert "tamalou_rank" in result.output


# ----------------------------------------------------------------------------- help


COMMANDS = ["variants", "show", "new", "schema", "validate", "play", "simulate", "verify"]


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)], ids=lambda c: c[0] if c else "tamalou")
def test_help_shows_flags_as_flags_and_options_with_a_readable_metavar(command: list[str]) -> None:
    result = run(*command, "--help")
    assert_clean_exit(result, 0)
    out = result.output
    for odd in ("<bool>", "<int", "<str", "<list", "<path", "x>=", "BOOLEAN", "INTEGER"):
        assert odd not in out, (odd, out)
    if command == ["play"]:
        assert re.search(r"--players\s+-p\s+N\s", out), out
        assert re.search(r"\[RULESET\]\.\.\.", out) and "--variant" not in out, out  # positional; -v still read
        assert re.search(r"--quiet\s+-q\s+Print only", out), out


def test_help_says_the_exit_codes() -> None:
    out = " ".join(run("--help").output.split())
    assert "Exit status: 0 success; 1 a rule or invariant failure" in out
    assert "2 a usage or load error" in out


# ----------------------------------------------------------------------------- the play log


def _log(*args: str) -> str:
    result = run("play", *args)
    assert_clean_exit(result, 0)
    return str(result.output)


def test_the_log_says_a_call_not_taken_only_when_it_mattered() -> None:
    """No "does not call" line every turn: only for a player at or under the threshold (who could have
    called rightly); the total said is their true one."""
    for seed in range(6):
        out = _log("--seed", str(seed), "--players", "3", "--bots", "random")
        for line in out.splitlines():
            m = re.search(r"(P\d) does not call, with (-?\d+) points", line)
            if m:
                assert int(m.group(2)) <= 5, line
            assert "passes (call)" not in line
        assert out.count("does not call") < out.count("-- turn ")


def test_the_log_says_powers_in_words() -> None:
    out = _log("--seed", "7", "--players", "3", "--bots", "random")
    assert "may use a power (look at one card of an opponent, then swap it with one of yours, or not)" in out
    for name in ("look_and_swap", "blind_swap", "peek_own", "peek_opponent"):
        assert name not in out
    assert "power_offered" not in out and "passes (" not in out


def test_every_built_in_ruleset_plays_with_a_log_in_words() -> None:
    powers = set(rulebook(tamalou.load_variant("kaboo")).powers)
    for name in tamalou.variant_names():
        v = tamalou.load_variant(name)
        players = max(v.rules.players.min, min(3, v.rules.players.max))
        out = _log("--variant", name, "--players", str(players), "--seed", "1", "--bots", "random")
        assert ": type=" not in out and "=[" not in out, name  # no event printed as raw facts
        assert not any(f" {p} " in out or f" {p}\n" in out for p in powers), name


def _turn_headers(output: str) -> list[int]:
    return [int(m) for m in re.findall(r"^-- turn (\d+): P\d", output, re.M)]


def test_turn_numbers_agree_with_the_events() -> None:
    """The log counts turns from 1: its 'turn N' is the event's turn N - 1, in the text as in --json."""
    args = ["--seed", "4", "--players", "3", "--bots", "cautious,random,random"]
    text = _log(*args)
    doc = json.loads(_log(*args, "--json"))
    events = doc["rounds"][0]["events"]
    turns = [e["turn"] for e in events if e["type"] == "turn"]
    assert _turn_headers(text) == [t + 1 for t in turns]
    assert f"turns: {turns[-1] + 1};" in _winners_line(text)
    # The events are the game's, the result its result.
    game = tamalou.new_game("french", players=3, seed=4)
    result = play_game(game, seat_bots(["cautious", "random", "random"], 4))
    assert events == [e.to_dict() for e in game.events_so_far()]
    assert doc["rounds"][0]["result"] == result.model_dump(mode="json")
    assert doc["match"] is None and doc["seed"] == 4 and doc["bots"] == ["cautious", "random", "random"]


def test_play_json_help_says_how_turns_are_counted() -> None:
    out = " ".join(run("play", "--help").output.replace("│", " ").split())
    assert "counts the turns played before it (0 for the first)" in out
    assert "turn 1' is the event's turn 0" in out


# ----------------------------------------------------------------------------- matches


def _match_of(spec: list[str], players: int, seed: int, kinds: list[str]) -> tamalou.MatchResult:
    """The match the command plays, played here with the same bots."""
    m = tamalou.new_match(spec, players=players, seed=seed)
    while not m.is_over:
        play_game(m.game, round_bots(kinds, seed, m.round))
        m.next_round()
    return m.result()


def test_play_plays_a_whole_match() -> None:
    out = _log("--variant", "french+multi-round", "--players", "3", "--seed", "2", "--bots", "random")
    expected = _match_of(["french", "multi-round"], 3, 2, ["random"] * 3)
    assert len(expected.rounds) == 5
    for r in range(5):
        assert f"== round {r + 1}: P" in out
        scores = ", ".join(f"P{p} {expected.rounds[r][p]}" for p in range(3))
        assert re.search(rf"^round {r + 1} \(\w+, \d+ turns\): scores {scores};", out, re.M), out
    assert "5 rounds; the lowest cumulative score wins" in out
    winners = ", ".join(f"P{p}" for p in expected.winners)
    assert f"match winners: {winners}; rounds: 5" in out
    assert "Match (fixed, 5 rounds)" in out
    # Each round's log restarts its turns from 1.
    assert out.count("-- turn 1: ") == 5
    quiet = run("play", "--variant", "french+multi-round", "--players", "3", "--seed", "2", "--bots", "random", "-q")
    assert_clean_exit(quiet, 0)
    assert " draws " not in quiet.output and f"match winners: {winners}" in quiet.output


def test_play_json_of_a_match() -> None:
    args = ["--variant", "french+multi-round", "--players", "2", "--seed", "1", "--bots", "random", "--json"]
    doc = json.loads(_log(*args))
    expected = _match_of(["french", "multi-round"], 2, 1, ["random"] * 2)
    assert doc["match"] == expected.model_dump(mode="json")
    assert [r["result"]["scores"] for r in doc["rounds"]] == expected.rounds
    assert [r["first_player"] for r in doc["rounds"]] == expected.first_players


def test_simulate_aggregates_match_winners() -> None:
    result = run("simulate", "french+multi-round", "-n", "3", "-p", "3", "--seed", "5", "--json", "-")
    assert_clean_exit(result, 0)
    stats = json.loads(result.output)
    matches = stats["matches"]
    assert stats["games"] == matches["matches"] == 3 and matches["form"] == "fixed" and stats["form"] == "fixed"
    assert stats["rounds"]["rounds"] == 15 and matches["rounds"]["histogram"] == {"5": 3}
    assert sum(stats["rounds"]["reasons"].values()) == 15
    wins = [0, 0, 0]
    for i in range(3):
        for p in _match_of(["french", "multi-round"], 3, game_seed(5, i), ["random"] * 3).winners:
            wins[p] += 1
    assert [s["wins"] for s in matches["by_seat"]] == wins
    table = run("simulate", "-v", "french+multi-round", "-n", "2", "-p", "3")
    assert_clean_exit(table, 0)
    assert "2 matches of french+multi-round" in table.output and "match wins" in table.output


# ----------------------------------------------------------------------------- the cli extra


def _python(code: str) -> Any:
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)


def test_the_command_without_the_cli_extra_says_how_to_install_it() -> None:
    done = _python(
        "import sys\n"
        "sys.modules['typer'] = None\n"
        "sys.modules['rich'] = None\n"
        "sys.argv = ['tamalou', 'variants']\n"
        "from tamalou.cli import main\n"
        "main()\n"
    )
    assert done.returncode == 2, done.stderr
    assert "the tamalou command needs the cli extra: pip install 'tamalou[cli]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_import_tamalou_never_imports_typer_or_rich() -> None:
    done = _python(
        "import importlib, pkgutil, sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('typer', 'rich', 'click'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import tamalou\n"
        "optional = ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel', 'ray', 'matplotlib')\n"
        "for m in pkgutil.walk_packages(tamalou.__path__, 'tamalou.', onerror=lambda name: None):\n"
        "    if not m.name.startswith('tamalou.cli.'):\n"
        "        try:\n"
        "            importlib.import_module(m.name)\n"
        "        except ModuleNotFoundError as exc:  # a module of an extra that is not installed\n"
        "            if (exc.name or '').split('.')[0] not in optional:\n"
        "                raise\n"
        "g = tamalou.new_game('french', 3, seed=1)\n"
        "while not g.is_over:\n"
        "    g.apply(g.legal_actions(g.current_player)[0])\n"
        "print(g.result(), g.view(0), g)\n"
        "left = sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich', 'click'))\n"
        "assert not left, left\n"
    )
    assert done.returncode == 0, done.stderr


def test_the_readme_first_command_installs_the_cli_extra() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    first = next(line.strip() for line in readme.splitlines() if "pip install" in line)
    assert first == (
        'python3 -m venv .venv && .venv/bin/pip install ".[cli]" && .venv/bin/tamalou play --seed 7 --bots random'
    )


def test_show_says_what_a_modifier_plays_on() -> None:
    """A modifier shown alone says which game it plays on, and how to compose it; a composition says its parts."""
    alone = CliRunner().invoke(app, ["show", "jokers"])
    assert alone.exit_code == 0
    said = " ".join(alone.output.split())
    assert "a modifier: loaded alone, it plays on french" in said and "tamalou show cambia jokers" in said
    composed = CliRunner().invoke(app, ["show", "cambia", "jokers"])
    assert "composed: cambia, changed by jokers" in " ".join(composed.output.split())
    game = CliRunner().invoke(app, ["show", "french"])
    assert "a modifier" not in game.output and "composed:" not in game.output


def test_a_command_that_needs_a_missing_extra_says_which_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever command meets a package of an extra that is not installed says which extra, in one line on standard
    error, with status 2, and no traceback; an import error of anything else is not hidden."""
    from tamalou.cli import commands

    def needs_matplotlib() -> None:
        raise ImportError("No module named 'matplotlib'", name="matplotlib")

    monkeypatch.setattr(commands, "app", needs_matplotlib)
    with pytest.raises(SystemExit) as ended:
        cli.main()
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err == "error: this needs the plot extra (matplotlib is not installed): pip install 'tamalou[plot]'\n"

    def broken() -> None:
        raise ImportError("No module named 'nowhere'", name="nowhere")

    monkeypatch.setattr(commands, "app", broken)
    with pytest.raises(ImportError, match="nowhere"):
        cli.main()


def test_simulate_columns_follow_the_ruleset(tmp_path: Path) -> None:
    """A ruleset without a call nor matching, whose rounds end by a last lap (``plugins_for_tests.low_lap``): no
    call nor match columns, and who ended the rounds by a last lap (and won); French keeps its call columns."""
    (tmp_path / "laps.toml").write_text(
        'name = "laps"\nextends = "french"\nplugins = ["plugins_for_tests.low_lap"]\n'
        "[rules.call]\nenabled = false\n[rules.matching]\nenabled = false\n",
        encoding="utf-8",
    )
    result = run("simulate", str(tmp_path / "laps.toml"), "-n", "6", "--bots", "greedy,cautious", "--backend", "inline")
    assert_clean_exit(result, 0)
    out = result.output
    assert "last laps" in out and "rounds ended by a last lap (no call)" in out
    assert "call %" not in out and "calls" not in out and "matched" not in out and "right matches" not in out
    from tamalou.simulation import simulate

    report = simulate(tmp_path / "laps.toml", ["greedy", "cautious"], games=6, players=2, backend="inline")
    assert not report.calls_possible and not report.matching
    assert report.rounds.last_laps == report.rounds.reasons.get("low", 0) == 6
    assert sum(s.last_laps for s in report.rounds.by_seat) == 6 and report.rounds.calls == 0
    french = run("simulate", "-n", "3", "--bots", "greedy", "--backend", "inline").output
    assert "call %" in french and "last laps" not in french


def test_the_result_table_says_how_a_slot_was_emptied_in_the_rulesets_words() -> None:
    """The caption of an empty slot says what emptied it, in the words of the mechanics whose rules empty slots
    (``Mechanic.emptied_words``): matching's "matched away"; neutral words without such a mechanic."""
    from tamalou.cli.result_tables import emptied_words

    assert emptied_words(tamalou.round_of(tamalou.new_game("french", 2, seed=1))) == "its card was matched away"
    quiet = tamalou.variant_from_toml('name = "no-match"\nextends = "french"\n[rules.matching]\nenabled = false\n')
    assert emptied_words(tamalou.round_of(tamalou.new_game(quiet, 2, seed=1))) == "its card left the layout"
