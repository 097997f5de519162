"""The compiled core (docs/compiled.md) plays the very games of the Python one.

Against a wheel built with ``TAMALOU_COMPILE=1`` (``.ci/run`` installs one in a venv of its own and runs there,
with ``TAMALOU_EXPECT_COMPILED=1``, this file and the plugins' tests, Python subclasses of its classes), seeded
games of every ruleset are played here, by the compiled core, and in a child process by the Python sources of this
checkout (``PYTHONPATH=src``): the actions chosen, every event, every seat's legal actions and view, the
snapshots (and games restored from them), the results and the events replayed for each seat must be the
same, step by step. Where the core runs from its Python sources (an editable install, the plain wheel) there
is nothing to compare and that test is skipped, unless ``TAMALOU_EXPECT_COMPILED=1`` says the compiled core
was asked for: then every test here fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

import tamalou
import tamalou.engine
from tamalou.engine import round as round_module
from tamalou.events import Event
from tamalou.verify import PlayStyle, random_playout

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
EXPECTED = os.environ.get("TAMALOU_EXPECT_COMPILED", "") == "1"
#: The modules the build compiles (pyproject.toml: the compile hook's ``compile`` patterns).
CORE = (
    "clock", "copying", "deal", "flow", "phases", "round", "round_state", "rules_face", "seat_deal", "seats",
    "snapshot", "state", "table", "view",
)  # fmt: skip

#: The games compared: every ruleset, and compositions that bring several mechanics together.
RULESETS: list[str | tuple[str, ...]] = [
    *tamalou.variant_names(),
    ("tamalou-fun", "opponent-matching"),
    ("french", "gabo", "jokers", "multi-round"),
]
SEEDS = (0, 1, 2)


def _is_extension(path: str | None) -> bool:
    return (path or "").endswith(tuple(EXTENSION_SUFFIXES))


def transcript() -> list[str]:
    """The games below, one JSON line per fact: whatever differs between two cores shows as a line."""
    lines: list[str] = []

    def out(*fact: Any) -> None:
        lines.append(json.dumps(fact, sort_keys=True, default=repr))

    for name in RULESETS:
        variant = tamalou.load_variant(list(name) if isinstance(name, tuple) else name)
        low, high = variant.rules.players.min, min(variant.rules.players.max, 6)
        for seed in SEEDS:
            players = low + seed * (high - low) // 2
            played = random_playout(variant, players, seed, PlayStyle(call_probability=0.08))
            out("game", name, players, seed, len(played.actions))
            g = tamalou.new_game(variant, players, seed=seed)
            out("deal", g.to_json(), [[e.to_dict() for e in g.events_so_far(p)] for p in range(players)])
            for step, action in enumerate(played.actions):
                out("legal", step, [[a.to_dict() for a in g.legal_actions(p)] for p in range(players)], g.to_act)
                events = g.apply(action.to_dict() if step % 2 else action)
                out("apply", step, action.to_dict(), [e.to_dict() for e in events], g.deadline)
                if step % 7 == 0:
                    views = [g.seat_view(p).model_dump() for p in range(players)]
                    out("views", step, views, g.view(step % players).model_dump())
                if step % 11 == 5:  # go on with a game restored from the snapshot
                    snapshot = g.to_json()
                    g = tamalou.Game.from_json(snapshot, variant)
                    out("snapshot", step, snapshot, g.to_json() == snapshot, g.copy().to_json() == snapshot)
            out("result", g.result().model_dump(), repr(g), g.to_json())
            out("events", [[e.for_player(p).to_dict() for e in g.events_so_far(p)] for p in range(players)])
    return lines


def test_compiled_tells_the_truth() -> None:
    """``tamalou.engine.compiled()`` says whether the core's modules are extension modules."""
    modules = {name: sys.modules.get(f"tamalou.engine.{name}") for name in CORE}
    for name in CORE:
        if modules[name] is None:
            __import__(f"tamalou.engine.{name}")
            modules[name] = sys.modules[f"tamalou.engine.{name}"]
    kinds = {name: _is_extension(module.__file__) for name, module in modules.items() if module is not None}
    import tamalou.mechanic  # the base class of mechanics and the phase table's rows: compiled with the core

    kinds["tamalou.mechanic"] = _is_extension(tamalou.mechanic.__file__)
    assert tamalou.engine.compiled() == _is_extension(round_module.__file__)
    assert len(set(kinds.values())) == 1, f"some of the core compiled, some not: {kinds}"
    if EXPECTED:
        assert tamalou.engine.compiled(), (
            f"TAMALOU_EXPECT_COMPILED=1 but the core runs from {round_module.__file__}: not the compiled wheel"
        )
        assert not Path(tamalou.__file__).resolve().is_relative_to(SRC), "tests import the checkout's src/"


class Traced(tamalou.Round):
    """A subclass in Python of the (maybe compiled) ``Round``: the core calls its override."""

    def start_turn(self, p: int, events: list[Event]) -> None:
        self.asked = [*getattr(self, "asked", []), p]
        super().start_turn(p, events)


def test_a_game_subclassed_in_python_is_called_by_the_core() -> None:
    g = Traced(tamalou.load_variant("french"), 3, seed=4, first_player=1)
    g.start()
    assert g.asked == [1]
    while len(g.asked) < 3:  # the core starts each turn through it
        g.apply(next(a for a in g.legal_actions(g.current_player) if a.type in ("draw", "discard", "pass")))
    assert g.asked == [1, 2, 0]
    assert type(g.copy()) is tamalou.Round  # as in Python: a copy is a plain round


def test_the_compiled_core_plays_the_games_of_the_python_one() -> None:
    if not tamalou.engine.compiled() and not EXPECTED:
        pytest.skip("the core runs from its Python sources here: nothing to compare (docs/compiled.md)")
    assert tamalou.engine.compiled(), "TAMALOU_EXPECT_COMPILED=1 but the core is not compiled"
    assert (SRC / "tamalou" / "engine" / "game.py").is_file(), f"no Python sources at {SRC} to compare with"
    child = (
        "import json, sys, tamalou, tamalou.engine\n"
        "from test_compiled import transcript\n"
        f"assert not tamalou.engine.compiled() and tamalou.__file__.startswith({str(SRC)!r}), tamalou.__file__\n"
        "json.dump(transcript(), sys.stdout)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(Path(__file__).resolve().parent)])}
    done = subprocess.run(
        [sys.executable, "-c", child], cwd=REPO, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    python: list[str] = json.loads(done.stdout)
    compiled = transcript()
    for i, (a, b) in enumerate(zip(compiled, python, strict=False)):
        assert a == b, f"line {i}: the compiled core\n{a[:1500]}\nthe Python one\n{b[:1500]}"
    assert len(compiled) == len(python)
    assert sum(1 for line in compiled if line.startswith('["apply"')) > 2000  # a real comparison
