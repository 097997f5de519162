"""tamalou's pytest plugin, as a project that installed tamalou uses it: the fixtures in a test file with
no conftest, ``--tamalou-variant`` on a registered ruleset, on a house-rule file and on a broken one,
and a run from a folder outside this repository where only the entry point can have loaded it.

``--tamalou-variant`` runs what ``tamalou verify`` runs: one item per invariant of ``INVARIANTS`` (read from
the registry when the items are collected), each failing as verify fails on the same games. It catches rulesets
of ``tests/data/broken/`` by the invariant verify names for each (``test_verify_catches_bugs.BUGS``), at the
fewest games that catch it (verify is seeded: game ``i`` is the same whatever the count, so more games catch them
too): one bug of each kind of check (:data:`PARITY`: cards, what seats know, what they receive, the ends of
rounds). The items read verify's report, whatever the invariant: a bug verify catches fails its item, and
``test_verify_catches_bugs.py`` shows verify catching every one (all thirteen here cost CI a minute more and
tested nothing more).

The property runs are tiny (``--tamalou-examples`` 1 to 10): what is tested is the plugin, not the rules.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import _tamalou_pytest_plugin
import tamalou
import tamalou.testing
from tamalou.testing import properties
from tamalou.testing.properties import run_invariants
from tamalou.verify import INVARIANTS, Invariant, InvariantViolation

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parents[1]
BROKEN = TESTS / "data" / "broken"

# pytester's in-process runs unload, when they end, every module first imported during them; tamalou's registry
# of action types keeps the classes of its built-in plugin modules (cabo's exchange_equal...), which pydantic
# resolves through their module in sys.modules. So the built-in plugins (and tamalou.testing) are imported here,
# before any inner run: none is first imported by one and unloaded from under tamalou (whichever test ran first).
for _name in tamalou.variant_names():
    tamalou.load_variant(_name)
for _path in sorted(BROKEN.glob("*.toml")):  # and the broken plugins (tests/ is on the path: pyproject's pythonpath)
    tamalou.load_variant(_path)

HOUSE = """\
name = "house"
extends = "french"

[rules.call]
threshold = 7
"""

SCENARIOS = """\
import pytest
import tamalou
from tamalou import Discard, Draw


def test_a_stacked_deal(tamalou_game):
    game = tamalou_game(deal={"hands": ["AS 2H 3C 4D", ["5S", "6H", "7C", "8D"]], "stock": "9S 10H", "discard": ["KC"]})
    assert game.players == 2 and game.current_player == 0
    assert game.variant.name == "french"
    table = tamalou.round_of(game)  # the cards themselves
    assert [table.text[c] for c in table.hands[1]] == ["5S", "6H", "7C", "8D"]


def test_what_a_seat_sees(tamalou_game, tamalou_events):
    game = tamalou_game(deal={"hands": ["AS 2H 3C 4D", "5S 6H 7C 8D"], "stock": "9S 10H", "discard": "KC"})
    seat1 = tamalou_events(game, seat=1)
    referee = tamalou_events(game, seat=None)
    assert seat1.types[0] == "dealt"
    drew = seat1.apply(Draw(0, "stock"))
    assert [e.type for e in drew] == ["drew"] and drew[0]["card"] is None  # seat 1 does not see the card
    assert seat1.last == drew and seat1.all[-1] == drew[0]
    game.apply(Discard(0))  # applied to the game directly: the streams follow
    assert "discarded" in seat1.types[-3:]
    assert [e["card"] for e in referee if e.type == "drew"] == ["9S"]  # the referee sees every card
    with pytest.raises(ValueError, match="no seat 5"):
        tamalou_events(game, seat=5)


def test_a_seeded_game_by_default(tamalou_game):
    game = tamalou_game()
    assert game.players == 2 and game.seed == 1 and game.current_player == 0


@pytest.mark.tamalou_variant("house.toml")
def test_the_marker_names_the_ruleset(tamalou_variant, tamalou_game):
    assert tamalou_variant.rules.call.threshold == 7
    assert tamalou_game(players=3).variant.rules.call.threshold == 7
"""

LEAVE_ONE_OUT = '''\
"""A house rule with a bug: its ranking leaves the last player out."""

from tamalou import hookimpl


@hookimpl
def tamalou_rank(variant, tally, tiebreaks):
    return [[p] for p in range(len(tally.totals) - 1)]
'''

BROKEN_RULES = """\
name = "broken"
extends = "french"
plugins = ["leave_one_out"]
"""


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[properties.InvariantRun]:
    """The runs of verify's games the plugin makes (``run_invariants``) in this test's in-process pytest runs."""
    kept: list[properties.InvariantRun] = []

    def run(*args: Any, **kwargs: Any) -> properties.InvariantRun:
        kept.append(run_invariants(*args, **kwargs))
        return kept[-1]

    monkeypatch.setattr(tamalou.testing, "run_invariants", run)  # where the plugin looks it up
    return kept


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makefile(".toml", house=HOUSE)
    pytester.makepyfile(test_scenarios=SCENARIOS)
    return pytester


def test_the_fixtures_in_a_project_without_conftest(project: pytest.Pytester) -> None:
    result = project.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)


#: The items of a ruleset that loads: ``loads``, every invariant of verify, ``small_deals``.
SUITE = 1 + len(INVARIANTS) + 1


def test_the_property_suite_of_a_registered_ruleset(
    project: pytest.Pytester, runs: list[properties.InvariantRun]
) -> None:
    args = ["-p", "no:cacheprovider", "-v", "--tamalou-variant", "french", "--tamalou-examples", "5"]
    result = project.runpytest_inprocess(*args)
    result.stdout.fnmatch_lines(["tamalou[[]french[]]::loads PASSED*", "tamalou[[]french[]]::conservation PASSED*"])
    found = outcomes(result, "french")
    assert set(found) == {"loads", *INVARIANTS, "small_deals"}
    # Every invariant verify checks on these games passes; one that it does not check (none, unless verify leaves
    # one out of its games) is skipped, as its table would have no row for it.
    [run] = runs
    assert run.report.games == 5 and run.report.ok
    checked = run.report.checks
    assert found == {"loads": "PASSED", "small_deals": "PASSED"} | {
        name: "PASSED" if checked.get(name) else "SKIPPED" for name in INVARIANTS
    }
    skipped = sum(outcome == "SKIPPED" for outcome in found.values())
    result.assert_outcomes(passed=4 + SUITE - skipped, skipped=skipped)  # and the scenarios pass


def test_the_suite_named_in_the_project_s_configuration(
    project: pytest.Pytester, runs: list[properties.InvariantRun]
) -> None:
    """A project names its rulesets in its pytest configuration (``tamalou_variants``, one a line; a file is
    found from the configuration's folder) and a plain ``pytest`` runs their suites; ``tamalou_examples`` sets
    the games; the command line wins over both."""
    project.makeini("[pytest]\ntamalou_variants =\n    house.toml\ntamalou_examples = 3\n")
    result = project.runpytest_inprocess("-p", "no:cacheprovider", "-v")
    found = outcomes(result, "house.toml")
    assert set(found) == {"loads", *INVARIANTS, "small_deals"}
    assert "FAILED" not in found.values()
    assert [run.report.games for run in runs] == [3]
    result = project.runpytest_inprocess("-p", "no:cacheprovider", "-v", "--tamalou-variant", "french", "-k", "loads")
    assert outcomes(result, "french") == {"loads": "PASSED"} and not outcomes(result, "house.toml")
    project.makeini("[pytest]\ntamalou_variants = french\ntamalou_examples = many\n")
    result = project.runpytest_inprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*tamalou_examples: expected a number of games, got 'many'*"])


def test_a_house_rule_file_and_a_composition(project: pytest.Pytester) -> None:
    result = project.runpytest(
        "-p",
        "no:cacheprovider",
        "--tamalou-variant",
        "house.toml",
        "--tamalou-variant",
        "cabo,jokers",
        "--tamalou-examples",
        "2",
        "-k",
        "tamalou and (loads or conservation or snapshot)",
        "--collect-only",
        "-q",
    )
    result.stdout.fnmatch_lines(
        [
            "tamalou[[]house.toml[]]::loads",
            "tamalou[[]house.toml[]]::conservation",
            "tamalou[[]house.toml[]]::snapshot",
            "tamalou[[]cabo,jokers[]]::loads",
            "*6/*tests collected*",
        ]
    )
    ran = project.runpytest("-p", "no:cacheprovider", "--tamalou-variant", "house.toml", "--tamalou-examples", "2")
    assert ran.ret == pytest.ExitCode.OK
    assert sum(ran.parseoutcomes().get(k, 0) for k in ("passed", "skipped")) == 4 + SUITE


def test_a_broken_house_rule_fails_readably(pytester: pytest.Pytester) -> None:
    """The ranking that leaves a player out raises in the engine (``PluginError``): verify's ``no_crash``."""
    pytester.makefile(".toml", broken=BROKEN_RULES)
    pytester.makepyfile(leave_one_out=LEAVE_ONE_OUT)
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--tamalou-variant", "broken.toml", "--tamalou-examples", "5", "-k", "loads or crash"
    )
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "tamalou[broken.toml]::no_crash" in out
    assert "InvariantViolation: no_crash: " in out  # the invariant, named as verify names it
    assert "plugin 'leave_one_out', tamalou_rank" in out  # which plugin and which hook
    assert INVARIANTS["no_crash"].description in out  # what the invariant says
    assert "reproduce: tamalou verify broken.toml --games 1 --seed " in out  # how to play the game again
    assert "the state that broke: tamalou.replay(" in out  # how to rebuild the state
    assert "Traceback" not in out


# --------------------------------------------------------------------------------- parity with tamalou verify


def collected(result: pytest.RunResult, spec: str) -> list[str]:
    """The names of the items of ``tamalou[spec]`` a ``--collect-only -q`` run lists, in order."""
    prefix = f"tamalou[{spec}]::"
    return [line[len(prefix) :] for line in result.stdout.lines if line.startswith(prefix)]


def outcomes(result: pytest.RunResult, spec: str) -> dict[str, str]:
    """The outcome of each item of ``tamalou[spec]`` in a ``-v`` run: name -> PASSED, FAILED, SKIPPED."""
    found: dict[str, str] = {}
    for line in result.stdout.lines:
        m = re.match(rf"tamalou\[{re.escape(spec)}\]::(\w+) (PASSED|FAILED|SKIPPED|ERROR)", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def test_one_check_per_invariant_of_verify(pytester: pytest.Pytester) -> None:
    """The items are verify's invariants, by the names of its table and in its order, between ``loads`` and
    ``small_deals``; the old name ``illegal_untouched`` selects the two invariants that check what it did."""
    result = pytester.runpytest("-p", "no:cacheprovider", "--tamalou-variant", "french", "--collect-only", "-q")
    assert collected(result, "french") == ["loads", *INVARIANTS, "small_deals"]
    old = pytester.runpytest(
        "-p", "no:cacheprovider", "--tamalou-variant", "french", "--collect-only", "-q", "-k", "illegal_untouched"
    )
    assert collected(old, "french") == ["listing_complete", "refusals"]


def _always_broken(game: object, rng: object, thorough: bool) -> None:
    raise InvariantViolation("this invariant never holds", invariant="never_holds")


def test_an_invariant_added_to_the_registry_is_collected_and_checked(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``INVARIANTS`` is read when the items are collected, and verify's games check what it holds: an invariant
    added later (here an ``"end"`` one that never holds) becomes an item, which fails as verify does."""
    monkeypatch.setitem(INVARIANTS, "never_holds", Invariant("never_holds", "never holds", "end", _always_broken))
    result = pytester.runpytest_inprocess(
        "-p",
        "no:cacheprovider",
        "-v",
        "--tamalou-variant",
        "french",
        "--tamalou-examples",
        "2",
        "-k",
        "never or crash",
    )
    assert outcomes(result, "french") == {"no_crash": "PASSED", "never_holds": "FAILED"}
    result.stdout.fnmatch_lines(["*InvariantViolation: never_holds: this invariant never holds*"])
    result.stdout.fnmatch_lines(["never_holds failed in 2 of 2 games*"])


@dataclass(frozen=True)
class Bug:
    toml: str  # a file of tests/data/broken/
    invariant: str  # the invariant verify reports broken
    says: str  # words the failure's message must contain (a regular expression)
    games: int  # the fewest of verify's games that catch it


def broken_rulesets() -> dict[str, Bug]:
    """The broken rulesets that ``tamalou verify`` catches, with the invariant it names for each and the fewest
    games that catch it: ``BUGS`` of ``test_verify_catches_bugs.py``, read from its file (one table)."""
    spec = importlib.util.spec_from_file_location("_verify_catches_bugs", Path(__file__).with_name(CATCHES))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # for its dataclasses
    spec.loader.exec_module(module)
    return {name: Bug(b.toml, b.invariant, b.says, b.games) for name, b in module.BUGS.items()}


CATCHES = "test_verify_catches_bugs.py"
BUGS = broken_rulesets()
#: The bugs the plugin is shown to catch as verify does: one of each kind of check (the module's docstring).
PARITY = (
    "duplicated card",
    "card shown to the wrong seat",
    "card looked at told to everybody",
    "ranking without a player",
)


@pytest.mark.parametrize("bug", [BUGS[name] for name in PARITY], ids=PARITY)
def test_it_fails_where_verify_fails(bug: Bug, pytester: pytest.Pytester, runs: list[properties.InvariantRun]) -> None:
    """Each broken ruleset of tests/data/broken/ fails the item of the invariant verify names for it, and the
    items that fail are exactly the invariants that failed in verify's report of the games (the report the items
    read, kept here); the others pass, or are skipped if no game checked them (every one broke another first)."""
    games = bug.games
    path = bug.toml  # copied into the project (its plugin is found on the path: tests/plugins_for_tests)
    (pytester.path / path).write_text((BROKEN / bug.toml).read_text("utf-8"), "utf-8")
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "-v", "--tamalou-variant", path, "--tamalou-examples", str(games), "-k", "not small"
    )
    found = outcomes(result, path)
    assert set(found) == {"loads", *INVARIANTS}
    assert found[bug.invariant] == "FAILED", result.stdout.str()[-3000:]
    [run] = runs
    report = run.report
    assert (report.games, run.seed, run.players) == (games, 0, None)  # verify's games: tamalou verify --games N
    assert {name for name, outcome in found.items() if outcome == "FAILED"} == set(report.failed)
    skipped = {name for name, outcome in found.items() if outcome == "SKIPPED"}
    assert skipped == {name for name in INVARIANTS if not report.checks.get(name)}
    out = result.stdout.str()
    assert f"InvariantViolation: {bug.invariant}: " in out and re.search(bug.says, out)
    assert f"reproduce: tamalou verify {path} --games 1 --seed " in out
    assert "Traceback" not in out


def test_the_first_slot_bug_and_how_to_reproduce_it(pytester: pytest.Pytester) -> None:
    """The scoring rule that reads the first slot passes every check but ``slot_order``; the failure says how to
    play the game again with ``tamalou verify`` (``--tamalou-seed`` and ``--tamalou-players`` choose the games as
    verify's ``--seed`` and ``--players``), and that command fails the same way."""
    (pytester.path / "first_slot.toml").write_text((BROKEN / "first_slot.toml").read_text("utf-8"), "utf-8")
    args = ["-p", "no:cacheprovider", "-v", "--tamalou-variant", "first_slot.toml", "--tamalou-examples", "1"]
    result = pytester.runpytest_inprocess(*args, "--tamalou-seed", "10", "--tamalou-players", "2", "-k", "not small")
    found = outcomes(result, "first_slot.toml")
    assert set(found) == {"loads", *INVARIANTS}
    assert [name for name, outcome in found.items() if outcome == "FAILED"] == ["slot_order"]
    assert found["conservation"] == found["no_leak"] == found["result"] == "PASSED"
    command = "tamalou verify first_slot.toml --games 1 --seed 10 --players 2"
    result.stdout.fnmatch_lines(["*InvariantViolation: slot_order: *depends on the order*", f"reproduce: {command} *"])
    path = os.pathsep.join([str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])])
    again = subprocess.run(
        [*tamalou_command(), *command.split()[1:]],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path, "COLUMNS": "200", "NO_COLOR": "1"},
        timeout=600,
        check=False,
    )
    assert again.returncode == 1, again.stdout + again.stderr
    assert "seed 10, 2 players: slot_order: " in again.stdout


def tamalou_command() -> list[str]:
    script = Path(sys.executable).with_name("tamalou")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from tamalou.cli import main; main()"]


def test_players_the_ruleset_does_not_allow(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--tamalou-variant",
        "french",
        "--tamalou-players",
        "9",
        "-k",
        "conservation or replay",
    )
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*played by 2 to 6 players, got 9*"])
    zero = pytester.runpytest("-p", "no:cacheprovider", "--tamalou-variant", "french", "--tamalou-players", "0")
    assert zero.ret == pytest.ExitCode.USAGE_ERROR


def test_a_random_seed_is_drawn_and_shown(pytester: pytest.Pytester) -> None:
    args = ["-p", "no:cacheprovider", "--tamalou-variant", "french", "--tamalou-examples", "1", "-k", "conservation"]
    result = pytester.runpytest(*args, "--tamalou-seed", "random")
    result.assert_outcomes(passed=1)
    assert re.search(
        r"^tamalou: the games of tamalou verify from seed \d+ \(--tamalou-seed\)$", result.stdout.str(), re.M
    )
    bad = pytester.runpytest(*args, "--tamalou-seed", "-3")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR


def test_a_ruleset_that_does_not_load(pytester: pytest.Pytester) -> None:
    pytester.makefile(".toml", typo='name = "typo"\nextends = "french"\n[rules.call]\nthreshold = "five"\n')
    result = pytester.runpytest("-p", "no:cacheprovider", "--tamalou-variant", "typo.toml")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*VariantError*threshold*"])
    missing = pytester.runpytest("-p", "no:cacheprovider", "--tamalou-variant", "nothere.toml")
    missing.assert_outcomes(failed=1)
    missing.stdout.fnmatch_lines(["*no variant file*nothere.toml*"])


def test_without_hypothesis_the_option_says_what_to_install(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_tamalou_pytest_plugin, "_has_hypothesis", lambda: False)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--tamalou-variant", "french")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(['*pip install "tamalou[[]testing[]]"*'])


def test_a_bad_number_of_examples(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("-p", "no:cacheprovider", "--tamalou-variant", "french", "--tamalou-examples", "0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_the_tamalou_profiles_from_the_command_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_profile="""
        from hypothesis import settings

        def test_profile():
            assert settings.get_current_profile_name() == "tamalou-ci"
            assert settings.default.deadline is None
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "--hypothesis-profile=tamalou-ci")
    result.assert_outcomes(passed=1)


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST"))}


def test_a_fresh_project_outside_the_repository(tmp_path: Path) -> None:
    """Only the installed package's entry point can load the plugin here: no conftest, no
    ``pytest_plugins``, a folder outside the repository, no PYTHONPATH."""
    root = Path(__file__).resolve().parents[2]
    project = tmp_path / "my-rules"
    project.mkdir()
    assert not project.resolve().is_relative_to(root)
    (project / "house.toml").write_text(HOUSE, encoding="utf-8")
    (project / "test_scenarios.py").write_text(SCENARIOS, encoding="utf-8")
    args = [
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-v",
        "--tamalou-variant",
        "house.toml",
        "--tamalou-examples",
        "2",
    ]
    done = subprocess.run(
        [sys.executable, *args], cwd=project, capture_output=True, text=True, env=clean_env(), timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "tamalou-" in done.stdout.split("collected")[0]  # the plugin is listed in the header
    assert "tamalou[house.toml]::conservation PASSED" in done.stdout
    assert "test_scenarios.py::test_what_a_seat_sees PASSED" in done.stdout


def test_the_plugin_imports_nothing_of_tamalou_until_used() -> None:
    """Loading the plugin (what every pytest run where tamalou is installed does) imports neither tamalou nor
    hypothesis."""
    code = "import sys, _tamalou_pytest_plugin; print('hypothesis' in sys.modules, 'tamalou' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean_env(), check=True)
    assert done.stdout.split() == ["False", "False"]


def test_a_run_without_the_plugin_options_is_unchanged(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["test_plain.py::test_plain", "*1 test collected*"])
    assert "tamalou[" not in result.stdout.str()


# --------------------------------------------------------------------------------- the page's examples

SMALL_PROFILE = """\
from hypothesis import settings

settings.register_profile("docs-check", max_examples=3, stateful_step_count=8)
settings.load_profile("docs-check")
"""


def test_the_examples_of_docs_testing_md_run(tmp_path: Path) -> None:
    """Every file of docs/testing.md (the blocks with a title), in a fresh folder, with the plugin's
    suite on its ruleset: everything passes (on a small profile: the page is tested, not the rules)."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "testing.md").read_text(encoding="utf-8")
    files = re.findall(r'^```\w+ title="([^"]+)"\n(.*?)^```', page, re.M | re.S)
    names = [name for name, _ in files]
    assert {"my-rules.toml", "test_scenarios.py", "test_properties.py", "test_machine.py"} <= set(names)
    for name, body in files:
        (tmp_path / name).write_text(body, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(SMALL_PROFILE, encoding="utf-8")
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", "--tamalou-variant", "my-rules.toml"]
    done = subprocess.run(
        [*args, "--tamalou-examples", "2"], cwd=tmp_path, capture_output=True, text=True, env=clean_env(), timeout=600
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
    # The output the page shows for `pytest --tamalou-variant my-rules.toml -v`, line by line.
    from tutorials import assert_shows, blocks, console_commands

    command = "pytest --tamalou-variant my-rules.toml -v"
    consoles = [b.body for b in blocks(page) if b.lang == "console"]
    (shown,) = [lines for body in consoles for said, lines in console_commands(body) if said == command]
    assert len(shown) > 5, shown
    assert_shows(done.stdout, shown, "docs/testing.md's `pytest --tamalou-variant my-rules.toml -v`")


def test_the_failure_shown_in_docs_testing_md_is_what_pytest_prints(tmp_path: Path) -> None:
    """The failure docs/testing.md shows (the house rule of docs/verify.md, its first version) is what the
    command it shows prints, line by line (its folder as the page writes it)."""
    from tutorials import DOCS, assert_shows, blocks

    for block in blocks((DOCS / "verify.md").read_text(encoding="utf-8")):
        if block.title in ("our-rules.toml", "our_rules.py") and not (tmp_path / block.title).exists():
            (tmp_path / block.title).write_text(block.body, encoding="utf-8")  # the first version of each
    (shown,) = [
        b.body
        for b in blocks((DOCS / "testing.md").read_text(encoding="utf-8"))
        if b.lang == "text" and b.body.startswith("$ pytest ")
    ]
    command, *expected = shown.splitlines()
    args = command.removeprefix("$ pytest ").split()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    assert_shows(done.stdout.replace(str(tmp_path), "/home/me/rules"), expected, "docs/testing.md's failure")
