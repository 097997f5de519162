"""``tamalou.ai.conformance`` and the pytest plugin's ``--tamalou-adapters``: an outside package runs the adapters'
conformance checks (the action numbering, PettingZoo's ``api_test`` and ``seed_test``, OpenSpiel's
``random_sim_test``) on its own ruleset, written here as a package would write it: a plugin module (a move of its
own, a view field of its own) and a TOML file beside it, and a test module that calls the helper."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from optional import require

require("ai", "numpy")
require("ai", "pettingzoo")
require("ai", "pyspiel")

import tamalou  # noqa: E402
from tamalou.ai.conformance import (  # noqa: E402
    check_action_encoding,
    check_adapters,
    check_openspiel,
    check_pettingzoo,
)
from train_a_bot_page import run_sections  # noqa: E402

#: An outside plugin: a move of its own in the draw phase (knock the table: the turn passes after drawing nothing,
#: at most once a round for each seat) and a view field counting the knocks (an int the observation encodes).
PLUGIN = '''
"""Knock: instead of drawing, a player may knock once a round; the turn passes."""
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

import tamalou


@dataclass(frozen=True, slots=True)
class Knock(tamalou.Action):
    player: int
    at: float | None = None
    type: ClassVar[str] = "knock"


class KnockState:
    __slots__ = ("knocked",)

    def __init__(self):
        self.knocked = 0


class KnocksView(BaseModel):
    knocks: int = Field(ge=0, le=8)


class Knocking(tamalou.Mechanic):
    name = "knocking"
    actions = (Knock,)
    view_model = KnocksView

    def new_state(self, g):
        return KnockState()

    def phases(self):
        return {tamalou.Phase.DRAW: tamalou.PhaseSpec(self.list_knocks, {Knock: self.do_knock})}

    def list_knocks(self, g, p, out):
        if p == g.current_player and g.draws == 0 and not g.ms[self.index].knocked >> p & 1:
            out.append(Knock(p))

    def do_knock(self, g, a):
        st = g.ms[self.index]
        p = g.turn_check(a)
        if g.draws or st.knocked >> p & 1:
            raise tamalou.IllegalAction("a knock comes instead of a draw, once a round", a)
        st.knocked |= 1 << p
        events = [tamalou.Event("knocked", {"player": p})]
        g.end_turn(events)
        return events

    def view_extra(self, g, p):
        return {"knocks": bin(g.ms[self.index].knocked).count("1")}


@tamalou.hookimpl
def tamalou_mechanics():
    return [Knocking]
'''

RULES = 'name = "knock-rules"\nextends = "french"\nplugins = ["knocking"]\n[rules.players]\nmin = 2\nmax = 3\n'

#: The package's own test module: the helper on its ruleset.
PACKAGE_TEST = """
from tamalou.ai.conformance import check_adapters


def test_my_rules_work_with_the_machine_learning_adapters():
    check_adapters("knock-rules.toml", games=1)
"""


def package(tmp_path: Path, plugin: str = PLUGIN, module: str = "knocking") -> Path:
    (tmp_path / f"{module}.py").write_text(plugin, encoding="utf-8")
    (tmp_path / "knock-rules.toml").write_text(RULES.replace('"knocking"', f'"{module}"'), encoding="utf-8")
    (tmp_path / "test_my_rules.py").write_text(PACKAGE_TEST, encoding="utf-8")
    return tmp_path


def test_the_helper_checks_an_outside_ruleset(tmp_path: Path) -> None:
    """Every check passes on the package's ruleset, its own move numbered and its view field observed."""
    path = package(tmp_path) / "knock-rules.toml"
    assert check_action_encoding(path, games=2) > 100
    check_pettingzoo(path, 2, cycles=30)
    check_openspiel(path, 3, sims=2)
    check_adapters(path, 2, games=1, cycles=20, sims=1)
    space = tamalou.ai.ActionSpace.of(tamalou.load_variant(path), 2)
    assert "knock" in [kind for kind, *_ in space.blocks()]


def test_a_ruleset_whose_moves_cannot_be_numbered_fails_with_its_name(tmp_path: Path) -> None:
    """A move with a field of no known range (an amount) cannot be numbered: the check says which ruleset, how many
    players and which field, as an ``AdapterError`` (an ``AssertionError``)."""
    broken = PLUGIN.replace("    player: int\n    at:", "    player: int\n    amount: int = 1\n    at:")
    broken = broken.replace('type: ClassVar[str] = "knock"', 'type: ClassVar[str] = "knock_for"')
    package(tmp_path, broken, "knocking_for")
    with pytest.raises(
        tamalou.AdapterError, match=r"knock-rules, 2 players: .*field 'amount' of action type 'knock_for'"
    ):
        check_action_encoding(tmp_path / "knock-rules.toml")


@pytest.mark.deep  # a pytest in a fresh process: a few seconds (the helper itself is checked above, in the fast tier)
def test_a_packages_pytest_runs_the_adapters_suites_on_its_own_ruleset(tmp_path: Path) -> None:
    """``pytest --tamalou-variant RULES --tamalou-adapters`` in the package: the three adapter items pass, beside the
    package's own test calling the helper."""
    folder = package(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(folder), "NO_COLOR": "1", "COLUMNS": "200"}
    done = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--tamalou-variant", "knock-rules.toml", "--tamalou-adapters", "--tamalou-examples", "2",
            "-k", "action_encoding or pettingzoo or openspiel or my_rules",
        ],
        cwd=folder, capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "4 passed" in out, out


def test_the_page_section_runs(tmp_path: Path) -> None:
    run_sections(("Check the adapters on your own ruleset",), tmp_path)
