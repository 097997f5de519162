"""tamalou's pytest plugin, as a project that installed tamalou uses it: the fixtures in a test file with
no conftest, ``--tamalou-variant`` on a registered ruleset, on a house-rule file and on a broken one,
and a run from a folder outside this repository where only the entry point can have loaded it.

The property runs are tiny (``--tamalou-examples`` 2 to 5): what is tested is the plugin, not the rules.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import _tamalou_pytest_plugin
import tamalou
import tamalou.testing

pytest_plugins = ["pytester"]

# pytester's in-process runs unload, when they end, every module first imported during them; tamalou's registry
# of action types keeps the classes of its built-in plugin modules (cabo's exchange_equal...), which pydantic
# resolves through their module in sys.modules. So the built-in plugins (and tamalou.testing) are imported here,
# before any inner run: none is first imported by one and unloaded from under tamalou (whichever test ran first).
for _name in tamalou.variant_names():
    tamalou.load_variant(_name)

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

BROKEN = """\
name = "broken"
extends = "french"
plugins = ["leave_one_out"]
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makefile(".toml", house=HOUSE)
    pytester.makepyfile(test_scenarios=SCENARIOS)
    return pytester


def test_the_fixtures_in_a_project_without_conftest(project: pytest.Pytester) -> None:
    result = project.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)


def test_the_property_suite_of_a_registered_ruleset(project: pytest.Pytester) -> None:
    result = project.runpytest("-p", "no:cacheprovider", "-v", "--tamalou-variant", "french", "--tamalou-examples", "5")
    result.assert_outcomes(passed=4 + 1 + len(tamalou.testing.PROPERTIES))
    result.stdout.fnmatch_lines(["tamalou[[]french[]]::loads PASSED*", "tamalou[[]french[]]::conservation PASSED*"])
    for name in ("no_leak", "listed_accepted", "illegal_untouched", "termination", "replay", "snapshot", "result"):
        assert f"tamalou[french]::{name} PASSED" in result.stdout.str()


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
    ran.assert_outcomes(passed=4 + 1 + len(tamalou.testing.PROPERTIES))


def test_a_broken_house_rule_fails_readably(pytester: pytest.Pytester) -> None:
    pytester.makefile(".toml", broken=BROKEN)
    pytester.makepyfile(leave_one_out=LEAVE_ONE_OUT)
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--tamalou-variant", "broken.toml", "--tamalou-examples", "5", "-k", "loads or result"
    )
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "tamalou[broken.toml]::result" in out
    assert "plugin 'leave_one_out', tamalou_rank" in out  # which plugin and which hook
    assert "a finished round's result is consistent" in out  # what the property says
    assert "the round that failed: tamalou.replay(" in out  # how to rebuild the game
    assert "Traceback" not in out


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
    hypothesis; the old path still gives ``EventStream``."""
    code = "import sys, _tamalou_pytest_plugin; print('hypothesis' in sys.modules, 'tamalou' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean_env(), check=True)
    assert done.stdout.split() == ["False", "False"]
    code = "import _tamalou_pytest_plugin as p, tamalou.pytest_plugin as old; print(old.EventStream is p.EventStream)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean_env(), check=True)
    assert done.stdout.split() == ["True"]


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
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--tamalou-variant", "my-rules.toml"]
    done = subprocess.run(
        [*args, "--tamalou-examples", "2"], cwd=tmp_path, capture_output=True, text=True, env=clean_env(), timeout=600
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
