"""Fuzzing: what a game server meets from untrusted clients and storage.

Three kinds of hostile input, sized by the tier (``tests/tiers.py``): a few thousand in the fast tier
(``pytest``), 25,000 and more in the deep one (``pytest --deep``; 50,000 took CI past its budget). Only the
random bulk shrinks in the fast tier: it still tries every ruleset, every kind of input and every hand-picked
edge input (the junk seats, the hostile variant files, the garbage match snapshots...).

1. **actions** (JSON-shaped garbage, listed actions with one field off, non-dicts, Python-built
   actions with junk fields) applied to games of every built-in ruleset and a few compositions, in
   every stage of a round; ``legal_actions(x)`` / ``view(x)`` with junk seats;
2. **snapshots**: real ``Game.to_json()`` texts, damaged (keys deleted, types changed, card ids
   duplicated or swapped, text truncated, the player count or the variant replaced), and garbage
   ``Match.from_json`` input;
3. **variant files**: TOML with unknown keys, wrong types, huge numbers, deep nesting, hostile
   ``extends`` and ``plugins``, loaded untrusted; and ``variant_from_dict`` with junk.

For every input: only a ``tamalou.TamalouError`` may escape (never a raw ``KeyError``,
``TypeError``, ``RecursionError``...); a refused action leaves the game byte-identical
(``to_json()``); each input is handled in under ``TIME_LIMIT`` seconds of CPU time (``time.process_time``;
a watchdog turns a hang into a failure). Failures are collected and grouped by exception type and the engine line that
raised, so one failing test reports every distinct bug with an example input. The inputs are seeded:
a run is reproducible. Run with ``-s`` to see the counts.

Each test checks, on its own, that it tried at least its planned share of the inputs (computed from the sized
constants below: it reads nothing another test filled), so the tests pass alone and in any order;
``test_the_planned_shares_reach_the_total`` checks that the shares add up to ``TOTAL_WANTED``.
"""

from __future__ import annotations

import copy
import inspect
import json
import math
import random
import signal
import sys
import time
import tomllib
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tamalou
from tamalou import TamalouError
from tamalou.testing import any_action, check_conservation, played_games
from tiers import sized, tier

ROOT = Path(__file__).resolve().parents[2]
VARIANTS_DIR = ROOT / "variants"

pytestmark = pytest.mark.scaled

#: Inputs that the tests' planned shares add up to at least (``test_the_planned_shares_reach_the_total``).
TOTAL_WANTED = sized(fast=3_500, deep=25_000)

#: CPU seconds per input (the process's own time: other work on the machine does not count). It catches an
#: input that costs far more than its size (the watchdog below catches hangs); the largest legitimate
#: inputs (a ruleset extending French five thousand times) take 0.5 to 1 s on a 2-core host whose speed
#: halves for stretches.
TIME_LIMIT = 2.0
HANG_LIMIT = 20.0  # the watchdog: an input still running after this is a hang

RULESETS: list[str | tuple[str, ...]] = [
    *tamalou.variant_names(),
    ("tamalou-fun", "opponent-matching"),
    ("cartalogue", "jokers", "opponent-matching"),
    ("french", "gabo", "jokers", "multi-round"),
    ("tamalou-fun", "jokers"),
]
ACTION_KINDS = ["peek", "draw", "replace", "discard", "power", "swap", "pass", "call", "match", "give", "tick"]
FIELDS = ["type", "player", "slot", "slots", "target", "target_slot", "owner", "source", "at"]
ACTION_CLASSES: list[tuple[type[tamalou.Action], int]] = [
    (tamalou.PeekAction, 2),
    (tamalou.Draw, 2),
    (tamalou.Replace, 2),
    (tamalou.Discard, 1),
    (tamalou.Power, 5),
    (tamalou.Swap, 2),
    (tamalou.Pass, 1),
    (tamalou.Call, 1),
    (tamalou.MatchAction, 3),
    (tamalou.Give, 2),
    (tamalou.Tick, 1),
]
JUNK_SEATS: list[Any] = [True, False, "0", -1, 10**9, None, 1.0, 2**64, -(2**63), [0], {"p": 0}, math.nan, "", b"0"]
UNTRUSTED_KEYWORD = "allow_plugins" in inspect.signature(tamalou.load_variant).parameters

ruleset_ids = pytest.mark.parametrize("name", RULESETS, ids=lambda v: v if isinstance(v, str) else "+".join(v))


# ============================================================================== findings


class _Hang(BaseException):
    """Raised by the watchdog in an input that ran past ``HANG_LIMIT``."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Hang(f"still running after {HANG_LIMIT:g} s")


def short(value: Any, limit: int = 300) -> str:
    try:
        text = repr(value)
    except BaseException as exc:  # a nested structure too deep to print
        text = f"<unprintable {type(value).__name__}: {type(exc).__name__}>"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def _where(exc: BaseException) -> str:
    """The deepest frame in tamalou's sources that the exception went through (else the deepest)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/src/tamalou/" in f.filename or "/site-packages/tamalou/" in f.filename]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return "?"
    path = frame.filename.split("/src/", 1)[-1]
    return f"{path}:{frame.lineno} in {frame.name}"


@dataclass
class Finding:
    problem: str
    where: str
    message: str
    example: str
    context: str
    count: int = 1
    seconds: float = 0.0


@dataclass
class Findings:
    """Failures, grouped by (problem, where): one example each."""

    kind: str
    groups: dict[tuple[str, str], Finding] = field(default_factory=dict)
    tried: int = 0

    def add(
        self, problem: str, where: str, message: str, example: Callable[[], str], context: str, seconds: float = 0.0
    ) -> None:
        key = (problem, where)
        found = self.groups.get(key)
        if found is not None:
            found.count += 1
            if seconds > found.seconds:  # a slow input: keep the slowest example
                found.seconds, found.message, found.example, found.context = seconds, message, example(), context
            return
        self.groups[key] = Finding(problem, where, short(message, 400), example(), context, seconds=seconds)

    def summary(self) -> str:
        lines = [f"{len(self.groups)} distinct problem(s) in {self.tried} {self.kind} inputs:"]
        for f in sorted(self.groups.values(), key=lambda f: -f.count):
            lines.append(f"- {f.problem} x{f.count} at {f.where}: {f.message}")
            lines.append(f"    input: {f.example}")
            lines.append(f"    context: {f.context}")
        return "\n".join(lines)

    def check(self, planned: int) -> None:
        """No problem found, in at least ``planned`` inputs (the test's share)."""
        print(f"\n[fuzz] {self.kind}: {self.tried} inputs (planned {planned}), {len(self.groups)} distinct problem(s)")
        assert not self.groups, self.summary()
        assert self.tried >= planned, f"only {self.tried} {self.kind} inputs tried, {planned} planned"


@contextmanager
def watchdog() -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


ACCEPTED, REFUSED, RAW = "accepted", "refused", "raw"


def attempt(
    findings: Findings,
    fn: Callable[[], Any],
    example: Callable[[], str],
    context: Callable[[str | None], str],
    game: tamalou.Game | None = None,
    refusal: type[TamalouError] | None = None,
) -> str:
    """Run one hostile input: only a TamalouError may escape, in under ``TIME_LIMIT``; if refused,
    ``game`` (when given) must be byte-identical. ``context`` gets the game's snapshot from before the
    input (or ``None``) and says where the input was tried. ``refusal``: the input must be refused
    with this error (and nothing else). Run inside ``watchdog()``."""
    findings.tried += 1
    before = game.to_json() if game is not None else None
    start = time.process_time()
    signal.setitimer(signal.ITIMER_REAL, HANG_LIMIT)
    try:
        fn()
        outcome = ACCEPTED
    except TamalouError as exc:
        outcome = REFUSED
        if refusal is not None and not isinstance(exc, refusal):
            findings.add(
                f"{type(exc).__name__}, not {refusal.__name__}", _where(exc), str(exc), example, context(before)
            )
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        signal.setitimer(signal.ITIMER_REAL, 0)
        outcome = RAW
        findings.add(f"raw {type(exc).__name__}", _where(exc), str(exc), example, context(before))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    elapsed = time.process_time() - start
    if outcome == ACCEPTED and refusal is not None:
        findings.add(f"accepted, not {refusal.__name__}", "", "no error raised", example, context(before))
    if elapsed >= TIME_LIMIT:
        message = f"took {elapsed:.2f} s (the slowest such input; limit {TIME_LIMIT:g} s)"
        findings.add("too slow", outcome, message, example, context(before), seconds=elapsed)
    if outcome == REFUSED and game is not None:
        after = game.to_json()
        if after != before:
            assert before is not None
            diff = [k for k, v in json.loads(before).items() if json.loads(after).get(k) != v]
            findings.add("refused but the game changed", f"keys {diff}", f"changed: {diff}", example, context(before))
            return RAW  # the caller starts a fresh game
    return outcome


def _text(call: str, value: Any, limit: int = 2000) -> Callable[[], str]:
    return lambda: f"{call} {short(value, limit)}"


def _fixed(text: str) -> Callable[[str | None], str]:
    return lambda _before: text


def _then(seed: int) -> Callable[[str | None], str]:
    return lambda _before: f"restored, then use_restored(g, random.Random({seed}))"


# ============================================================================== games


@cache
def variant_of(name: str | tuple[str, ...]) -> tamalou.Variant:
    return tamalou.load_variant(list(name) if isinstance(name, tuple) else name)


def label(name: str | tuple[str, ...]) -> str:
    return name if isinstance(name, str) else "+".join(name)


def play_random(g: tamalou.Game, rng: random.Random, steps: int) -> None:
    """``steps`` random legal actions (the players to act mostly, out-of-turn ones sometimes; calls
    are rare, so that rounds reach every phase)."""
    for _ in range(steps):
        if g.is_over:
            return
        seats = g.to_act or [g.current_player]
        p = rng.choice(seats) if rng.random() < 0.8 else rng.randrange(g.players)
        acts = g.legal_actions(p)
        if not acts:
            p = seats[0]
            acts = g.legal_actions(p)
        if not acts:
            return
        if len(acts) > 1 and rng.random() < 0.9:
            acts = [a for a in acts if a.type != "call"] or acts
        g.apply(rng.choice(acts))


def fresh_game(name: str | tuple[str, ...], rng: random.Random, max_steps: int = 80) -> tamalou.Game:
    v = variant_of(name)
    g = tamalou.new_game(v, rng.randint(v.rules.players.min, v.rules.players.max), seed=rng.randrange(2**32))
    play_random(g, rng, rng.randint(0, max_steps))
    return g


# ============================================================================== junk values

NAN, INF = math.nan, math.inf


def nested_list(depth: int) -> Any:
    out: Any = 0
    for _ in range(depth):
        out = [out]
    return out


def nested_dict(depth: int) -> Any:
    out: Any = {"player": 0}
    for _ in range(depth):
        out = {"type": out}
    return out


LONG_TEXT = "x" * 10_000
JUNK_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    -7,
    1,
    2,
    63,
    64,
    2**31,
    2**53 - 1,
    2**53,
    -(2**53),
    2**63,
    2**64 + 1,
    10**100,
    -(10**100),
    0.0,
    -0.0,
    0.5,
    1.0,
    -1.5,
    1e308,
    -1e308,
    5e-324,
    NAN,
    INF,
    -INF,
    "",
    "0",
    "1",
    "-1",
    "stock",
    "discard",
    "STOCK",
    "draw",
    "null",
    "\x00",
    "é\u202e",
    LONG_TEXT,
    [],
    [0],
    [0, 1],
    [0, 0, 0],
    [True],
    ["0"],
    [None],
    [NAN],
    [2**64],
    [-1],
    list(range(65)),
    list(range(10_000)),
    [[0]],
    nested_list(50),
    nested_list(200),
    {},
    {"a": 1},
    {"type": "draw", "player": 0},
    nested_dict(50),
    (0,),
    {0, 1},
    b"0",
]


def junk(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.6:
        return rng.choice(JUNK_VALUES)
    if r < 0.75:
        return rng.randint(-(2**70), 2**70)
    if r < 0.85:
        return rng.uniform(-1e6, 1e6)
    if r < 0.95:
        return [junk(rng) for _ in range(rng.randint(0, 4))]
    return {rng.choice(FIELDS): junk(rng) for _ in range(rng.randint(0, 3))}


def plausible(rng: random.Random, g: tamalou.Game, key: str) -> Any:
    """A value of the right type for ``key``, around the valid range."""
    n = g.players
    ints = [-1, 0, 1, 2, 3, 4, 5, n - 1, n, n + 1, 7, 12, 63, 64, 2**31, 2**53 - 1, -(2**53 - 1)]
    if key == "slots":
        return [rng.choice(ints) for _ in range(rng.randint(0, 5))]
    if key == "source":
        return rng.choice(["stock", "discard"])
    if key == "at":
        return rng.choice([0, 0.0, g.now, g.now + 0.5, g.now + 45.0, g.now + 1e4, g.now + 1e12, 1e300, g.now - 1.0])
    if key == "type":
        return rng.choice(ACTION_KINDS)
    return rng.choice(ints)


def listed_dicts(g: tamalou.Game, rng: random.Random) -> list[dict[str, Any]]:
    seats = list(range(g.players))
    rng.shuffle(seats)
    for p in seats[:2]:
        acts = g.legal_actions(p) if not g.is_over else []
        if acts:
            return [a.to_dict() for a in acts]
    return []


PYTHON = object()  # marker: an action built in Python


def hostile_action(rng: random.Random, g: tamalou.Game) -> Any:
    """One hostile action for ``g``: a dict, mostly, or something else."""
    r = rng.random()
    if r < 0.25:  # a dict of real field names and junk
        keys = rng.sample(FIELDS, rng.randint(0, len(FIELDS)))
        d: dict[Any, Any] = {k: junk(rng) if rng.random() < 0.6 else plausible(rng, g, k) for k in keys}
        if rng.random() < 0.7:
            d["type"] = rng.choice(ACTION_KINDS)
        if rng.random() < 0.1:
            d[rng.choice(["extra", "Type", "", "__class__", "player ", 0, None])] = junk(rng)
        return d
    if r < 0.75:  # a listed action with one thing off
        listed = listed_dicts(g, rng)
        if not listed:
            return {"type": rng.choice(ACTION_KINDS), "player": plausible(rng, g, "player")}
        d = dict(rng.choice(listed))
        op = rng.random()
        keys = list(d)
        if op < 0.4:
            key = rng.choice(keys)
            d[key] = junk(rng)
        elif op < 0.6:
            key = rng.choice(keys)
            d[key] = plausible(rng, g, key)
        elif op < 0.7:
            del d[rng.choice(keys)]
        elif op < 0.8:
            key = rng.choice([k for k in FIELDS if k not in d] or FIELDS)
            d[key] = junk(rng) if rng.random() < 0.5 else plausible(rng, g, key)
        elif op < 0.9:
            d["at"] = rng.choice([NAN, INF, -1.0, -(10**9), True, "1", g.now - 1e-9, 1e308, 2**1030, None])
        else:
            d["type"] = rng.choice(ACTION_KINDS)
        return d
    if r < 0.9:  # well-typed fields around the valid ranges
        kind = rng.choice(ACTION_KINDS)
        d = {"type": kind}
        for key in rng.sample(FIELDS[1:], rng.randint(1, 4)):
            d[key] = plausible(rng, g, key)
        return d
    if r < 0.97:  # not a dict
        return rng.choice(
            [
                junk(rng),
                [{"type": "draw", "player": 0}],
                '{"type": "draw", "player": 0}',
                ("draw", 0),
                object(),
                Ellipsis,
                json,
                {"type": "draw", "player": 0}.items(),
            ]
        )
    return PYTHON  # an action object built in Python with junk fields


# ============================================================================== 1. actions

ACTION_GAMES = sized(fast=2, deep=8)  # games per ruleset, each asked about every junk seat
ACTIONS_PER_GAME = sized(fast=50, deep=132)  # hostile actions per game (a game that ends hands on to a fresh one)


def actions_share() -> int:
    """The inputs that ``test_hostile_actions_only_raise_library_errors_and_change_nothing`` tries, per ruleset."""
    return ACTION_GAMES * (2 * len(JUNK_SEATS) - JUNK_SEATS.count(None) + ACTIONS_PER_GAME)


def _game_context(name: str | tuple[str, ...], g: tamalou.Game) -> Callable[[str | None], str]:
    def context(before: str | None) -> str:
        return f"{label(name)}, {g.players} players, phase {g.phase}; before: tamalou.Game.from_json({before!r})"

    return context


def _apply(g: tamalou.Game, x: Any) -> tuple[Callable[[], Any], Callable[[], str]]:
    return (lambda: g.apply(x)), (lambda: f"g.apply({short(x)})")


def _ask(method: Callable[[Any], Any], x: Any) -> tuple[Callable[[], Any], Callable[[], str]]:
    return (lambda: method(x)), (lambda: f"g.{method.__name__}({short(x)})")


def _python_action(rng: random.Random, g: tamalou.Game) -> tuple[Callable[[], Any], Callable[[], str]]:
    """An action object built in Python with junk fields (refused when made, or by ``apply``)."""
    cls, arity = rng.choice(ACTION_CLASSES)
    args = [junk(rng) if rng.random() < 0.5 else plausible(rng, g, "slot") for _ in range(arity)]
    return (lambda: g.apply(cls(*args))), (lambda: f"g.apply(tamalou.{cls.__name__}(*{short(args)}))")


@ruleset_ids
def test_hostile_actions_only_raise_library_errors_and_change_nothing(name: str | tuple[str, ...]) -> None:
    findings = Findings(f"actions on {label(name)}")
    rng = random.Random(f"actions-{label(name)}")
    with watchdog():
        for _ in range(ACTION_GAMES):
            g = fresh_game(name, rng)
            for x in JUNK_SEATS:
                # (``legal_actions(None)`` is the player to move's: no junk there)
                for method in (g.legal_actions, g.view) if x is not None else (g.view,):
                    attempt(findings, *_ask(method, x), _game_context(name, g), game=g, refusal=tamalou.IllegalAction)
            for _ in range(ACTIONS_PER_GAME):
                while g.is_over:  # the game ended: the next inputs go to a fresh one
                    g = fresh_game(name, rng)
                x = hostile_action(rng, g)
                fn, example = _python_action(rng, g) if x is PYTHON else _apply(g, x)
                if attempt(findings, fn, example, _game_context(name, g), game=g) == RAW:
                    g = fresh_game(name, rng)
                elif rng.random() < 0.15:
                    play_random(g, rng, 1)  # move on to other states
    findings.check(actions_share())


# A hypothesis test for structure: games drawn by tamalou.testing, actions drawn as JSON values.

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-3, 8),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["stock", "discard", *ACTION_KINDS]),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=10,
)
json_action = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), json_value, max_size=6),
    st.fixed_dictionaries(
        {"type": st.sampled_from(ACTION_KINDS)},
        optional={k: st.one_of(json_value, st.integers(-2, 8)) for k in FIELDS[1:]},
    ),
    json_value,
)
HYPOTHESIS_EXAMPLES = sized(fast=30, deep=150)
HYPOTHESIS_ACTIONS = 3  # actions drawn per example (a game that has ended must refuse them too)


def hypothesis_share() -> int:
    """The inputs that ``test_hostile_actions_drawn_by_hypothesis`` tries."""
    return HYPOTHESIS_EXAMPLES * HYPOTHESIS_ACTIONS


def test_hostile_actions_drawn_by_hypothesis() -> None:
    tried = Counter[str]()

    @settings(
        max_examples=HYPOTHESIS_EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
    )
    @given(data=st.data())
    def hostile_actions(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(RULESETS), label="ruleset")
        g = data.draw(played_games(name, max_actions=40, budget=10), label="game")
        findings = Findings("actions drawn by hypothesis")
        with watchdog():
            for _ in range(HYPOTHESIS_ACTIONS):
                x = data.draw(st.one_of(json_action, any_action(g)), label="action")
                attempt(findings, *_apply(g, x), _game_context(name, g), game=g)
        tried["examples"] += 1
        tried["inputs"] += findings.tried
        assert not findings.groups, findings.summary()

    hostile_actions()
    print(f"\n[fuzz] actions drawn by hypothesis: {tried['inputs']} inputs in {tried['examples']} examples")
    assert tried["inputs"] >= hypothesis_share(), f"only {tried['inputs']} inputs tried, {hypothesis_share()} planned"


# ============================================================================== 2. snapshots


@cache
def base_snapshots() -> tuple[str, ...]:
    """Real snapshots: every ruleset at several stages (the deal, mid-play, the end), and a game on
    a variant that is not registered (the snapshot embeds it whole)."""
    rng = random.Random("snapshots")
    out: list[str] = []
    embedded = tamalou.load_variant("french").model_dump(mode="json")
    embedded["name"] = "house-rules"
    embedded.pop("aliases", None)
    house = tamalou.variant_from_dict(embedded)
    for name in [*RULESETS, house]:
        for steps in (0, 3, 8, 20, 45, 90, 10_000):
            v = house if isinstance(name, tamalou.Variant) else variant_of(name)
            g = tamalou.new_game(v, rng.randint(v.rules.players.min, v.rules.players.max), seed=rng.randrange(2**32))
            play_random(g, rng, steps)
            out.append(g.to_json())
    return tuple(out)


def paths(data: Any, limit: int = 2000) -> list[list[Any]]:
    """Every path (keys and indexes) into a JSON value, breadth first, at most ``limit``."""
    out: list[list[Any]] = []
    todo: list[tuple[list[Any], Any]] = [([], data)]
    while todo and len(out) < limit:
        path, value = todo.pop(0)
        if path:
            out.append(path)
        if isinstance(value, dict):
            todo.extend(([*path, k], v) for k, v in value.items())
        elif isinstance(value, list):
            todo.extend(([*path, i], v) for i, v in enumerate(value))
    return out


def at_path(data: Any, path: list[Any]) -> Any:
    for k in path:
        data = data[k]
    return data


FIVE_THOUSAND_NAMES = ["french", "gabo", "jokers", "cartalogue", "multi-round"] * 1000
PHASES = [str(p) for p in tamalou.Phase] + ["", "Draw", "nope", "over "]


BAD_VARIANT_REFS: list[Any] = [
    FIVE_THOUSAND_NAMES,
    ["french"] * 5000,
    {"plugins": ["os"]},
    {**tamalou.load_variant("french").model_dump(mode="json"), "plugins": ["os"]},
    {"name": "x", "plugins": ["os"], "rules": {"players": {"min": 1, "max": 12}}},
    3,
    "",
    "nope",
    "/etc/passwd",
    "../variants/french.toml",
    str(VARIANTS_DIR / "french.toml"),
    ["french", 3],
    [],
    {},
    None,
    LONG_TEXT,
    nested_list(100),
    {"name": nested_list(100)},
    ["french", "french"],
    ["opponent-matching", "tamalou-fun"],
]


def snapshot_junk(rng: random.Random) -> Any:
    """A JSON value of any type."""
    return rng.choice(
        [
            "x",
            "",
            LONG_TEXT,
            True,
            False,
            None,
            1.5,
            -0.0,
            NAN,
            INF,
            10**30,
            2**64,
            -(2**63) - 1,
            -1,
            -7,
            0,
            1,
            [],
            [[1, 2], [3]],
            nested_list(30),
            {},
            {"k": [1]},
            list(range(100)),
        ]
    )


def damage_snapshot(rng: random.Random, text: str) -> Any:
    """A damaged copy of a snapshot: most often still JSON, sometimes cut or not a string at all."""
    r = rng.random()
    if r < 0.06:
        return text[: rng.randrange(len(text))]
    if r < 0.08:
        i = rng.randrange(len(text))
        return (
            text[:i]
            + rng.choice(["}", "]", ",", '"', "\\", "\x00", "9" * 400, "9" * 5000, "NaN", "[" * 3000, '{"a":' * 3000])
            + text[i + 1 :]
        )
    if r < 0.09:
        return rng.choice([None, 3, b"{}", text.encode(), [text], "", " ", "null", "[]", "{}", '"x"', "\ufeff" + text])
    state = json.loads(text)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        damage_state(rng, state)
    return json.dumps(state)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def damage_state(rng: random.Random, state: dict[str, Any]) -> None:
    op = rng.randrange(14)
    everywhere = paths(state)
    if op == 0:  # delete a key or an item, anywhere
        path = rng.choice(everywhere)
        parent = at_path(state, path[:-1])
        del parent[path[-1]]
    elif op in (1, 2):  # change a value's type, anywhere
        path = rng.choice(everywhere)
        at_path(state, path[:-1])[path[-1]] = snapshot_junk(rng)
    elif op == 3:  # a number off by a little or a lot
        numbers = [p for p in everywhere if type(at_path(state, p)) in (int, float)]
        if numbers:
            path = rng.choice(numbers)
            old = at_path(state, path)
            at_path(state, path[:-1])[path[-1]] = rng.choice([old + 1, old - 1, -old - 1, old * 1000, 2**53, 52, 53])
    elif op == 4:  # a card id twice
        hands = [h for h in _list(state.get("hands")) if isinstance(h, list) and h]
        if hands:
            a, b = rng.choice(hands), rng.choice(hands)
            a[rng.randrange(len(a))] = b[rng.randrange(len(b))]
    elif op == 5:  # two card ids swapped between places
        places = [(h, i) for h in _list(state.get("hands")) if isinstance(h, list) for i in range(len(h))]
        places += [
            (state[k], i) for k in ("stock", "discard") if isinstance(state.get(k), list) for i in range(len(state[k]))
        ]
        if len(places) >= 2:
            (la, ia), (lb, ib) = rng.sample(places, 2)
            la[ia], lb[ib] = lb[ib], la[ia]
    elif op == 6:  # keys added
        target = rng.choice([state, state.get("m", state)])
        if isinstance(target, dict):
            target[rng.choice(["extra", "x", "players ", "__proto__", "phase2", "timing", "powers"])] = snapshot_junk(
                rng
            )
    elif op == 7:
        state["players"] = rng.choice([0, 1, 13, 10**6, True, False, -1, 2.0, "3", None, 2**64])
    elif op == 8:
        state["variant"] = copy.deepcopy(rng.choice(BAD_VARIANT_REFS))
    elif op == 9:
        state["phase"] = rng.choice(PHASES)
    elif op == 10:  # a mechanic's state: an item removed, added or retyped
        m = state.get("m")
        if isinstance(m, dict) and m:
            key = rng.choice(list(m))
            values = m[key]
            if isinstance(values, list) and values and rng.random() < 0.5:
                values.pop(rng.randrange(len(values)))
            elif isinstance(values, list):
                values.append(snapshot_junk(rng))
            else:
                m[key] = snapshot_junk(rng)
    elif op == 11:  # the action log
        log = state.get("actions")
        if isinstance(log, list):
            log.append(
                rng.choice(
                    [
                        [],
                        [1],
                        ["zz"],
                        ["d", 99, "x"],
                        ["d", True],
                        ["m", 0, [999]],
                        ["t", -1.0],
                        ["t", NAN],
                        ["w", 0, None, None, None, None, None, None],
                        ["r"],
                        "draw",
                        {"type": "draw"},
                    ]
                )
            )
    elif op == 12:  # the layouts: a hand removed or added, a card out of the universe
        hands = state.get("hands")
        if isinstance(hands, list) and hands:
            choice = rng.randrange(4)
            if choice == 0:
                hands.pop()
            elif choice == 1:
                hands.append([rng.choice([-1, 0, 200])])
            else:
                h = rng.choice(hands)
                if isinstance(h, list):
                    h.append(rng.choice([-1, -2, 51, 52, 53, 54, 10**6, 2**63]))
    else:  # the universe, the generator, the clock, the version
        key, value = rng.choice(
            [
                ("cards", "AS AS"),
                ("cards", "ZZ"),
                ("cards", ""),
                ("cards", " ".join(["AS"] * 5000)),
                ("cards", "JK1 JK2 JK3"),
                ("cards", None),
                ("rng", -1),
                ("rng", 2**64),
                ("rng", 2**200),
                ("rng", 0),
                ("now", -1.0),
                ("now", INF),
                ("now", NAN),
                ("now", 1e308),
                ("v", 1),
                ("v", 3),
                ("v", 2.0),
                ("v", True),
                ("deal", {"hands": [["AS"]]}),
                ("deal", {"x": 1}),
                ("knowers", [-1] * 60),
                ("knowers", [2**200] * 52),
                ("held", 10**6),
                ("holder", 12),
                ("current_player", -1),
                ("caller", 99),
                ("turn", -5),
                ("left", 2**70),
                ("locked", -1),
            ]
        )
        state[key] = copy.deepcopy(value)


def use_restored(g: tamalou.Game, rng: random.Random) -> None:
    """What a server does with a restored game: save it again, list and apply an action, show it.
    A restored game is a real one: applying a listed action loses, duplicates or invents no card
    (``check_conservation`` raises ``InvariantViolation``, an ``AssertionError``, if it does)."""
    g.to_json()
    check_conservation(g)
    if g.is_over:
        g.result()
        return
    p = g.current_player
    acts = g.legal_actions(p)
    g.view(p)
    if acts:
        g.apply(rng.choice(acts))
        g.to_json()
        check_conservation(g)


SNAPSHOT_INPUTS = sized(fast=500, deep=2_500)


def test_damaged_snapshots_restore_or_raise_a_snapshot_error() -> None:
    findings = Findings("damaged snapshots")
    rng = random.Random("damaged-snapshots")
    bases = base_snapshots()
    restored = Counter[str]()
    with watchdog():
        for _ in range(SNAPSHOT_INPUTS):
            text = damage_snapshot(rng, rng.choice(bases))
            seed = rng.randrange(2**32)

            def restore(text: Any = text, seed: int = seed) -> None:
                g = tamalou.Game.from_json(text)
                restored["restored"] += 1
                use_restored(g, random.Random(seed))

            outcome = attempt(findings, restore, _text("tamalou.Game.from_json", text, 3000), _then(seed))
            restored[outcome] += 1
    print(f"\n[fuzz] damaged snapshots: {dict(restored)}")
    findings.check(SNAPSHOT_INPUTS)


def test_a_snapshot_never_imports_the_plugin_modules_it_names() -> None:
    """A snapshot comes from storage, which a server does not trust more than a client: restoring one
    whose embedded variant names a plugin module must not import it (``variant_from_dict``'s own
    doc: "pass False for data you do not trust (a snapshot received from elsewhere)")."""
    module = "fuzz_data.snapshot_plugin"
    state = json.loads(tamalou.new_game("french", 2, seed=1).to_json())
    variant = tamalou.load_variant("french").model_dump(mode="json")
    variant["plugins"] = [*variant["plugins"], module]
    state["variant"] = variant
    sys.modules.pop(module, None)
    with suppress(TamalouError):
        tamalou.Game.from_json(json.dumps(state))
    imported = module in sys.modules
    sys.modules.pop(module, None)
    assert not imported, f"Game.from_json imported the plugin module {module!r} named by the snapshot"


#: Hand-picked garbage for ``Match.from_json``, each tried first, before the damaged real snapshots.
MATCH_GARBAGE: list[Any] = [
    "[]",
    "{}",
    "null",
    "",
    "x",
    "3",
    '"multi-round"',
    '{"v": 1}',
    '{"v": 2}',
    None,
    b"{}",
    "[" * 100_000,
    '{"v": 1, "game": ' + "[" * 100_000,
    "9" * 100_000,
]
MATCH_INPUTS = sized(fast=150, deep=500)  # MATCH_GARBAGE included


#: Two stacked deals of ``multi-round`` for 2 players (``new_match(deals=...)``): the snapshots of such a match hold
#: them, to be damaged too.
MATCH_DEALS = [
    {
        "hands": [["AS", "2S", "KH", "KD"], ["5H", "6H", "8C", "9C"]],
        "stock": ["5C", "6C", "7D", "QH"],
        "discard": ["3D"],
    },
    {"hands": [["QS", "JS", "10S", "9S"], ["AH", "AD", "2H", "2D"]], "stock": ["5C", "KS"], "discard": []},
]


@cache
def match_snapshots() -> tuple[str, ...]:
    out = [tamalou.new_match("multi-round", 3, seed=1).to_json()]
    m = tamalou.new_match("multi-round", 4, seed=2)
    rng = random.Random("match")
    while not m.is_over and len(out) < 4:
        play_random(m.game, rng, 10_000)
        m.next_round()
        out.append(m.to_json())
    stacked = tamalou.new_match("multi-round", 2, seed=3, deals=MATCH_DEALS)
    for steps in (3, 10_000, 10_000):  # the first stacked round begun; the second just dealt; then one of the seed
        play_random(stacked.game, rng, steps)
        if stacked.game.is_over:
            stacked.next_round()
        out.append(stacked.to_json())
    return tuple(out)


def test_garbage_match_snapshots_raise_only_library_errors() -> None:
    findings = Findings("match snapshots")
    rng = random.Random("match-snapshots")
    real = match_snapshots()
    with watchdog():
        for i in range(MATCH_INPUTS):
            if i < len(MATCH_GARBAGE):
                text = MATCH_GARBAGE[i]
            else:
                base = rng.choice(real)
                r = rng.random()
                if r < 0.4:
                    text = base[: rng.randrange(len(base))]
                else:
                    state = json.loads(base)
                    if r < 0.6:
                        del state[rng.choice(list(state))]
                    elif r < 0.9:
                        state[rng.choice(list(state))] = snapshot_junk(rng)
                    else:
                        target = state.get("game")
                        if isinstance(state.get("deals"), list) and state["deals"] and rng.random() < 0.5:
                            target = rng.choice(state["deals"])  # a stacked deal: piles of card texts
                        damage_state(rng, target) if isinstance(target, dict) else None
                    text = json.dumps(state)

            def restore(text: Any = text) -> None:
                m = tamalou.Match.from_json(text)
                m.to_json()

            attempt(findings, restore, _text("tamalou.Match.from_json", text, 600), _fixed("Match.from_json"))
    findings.check(MATCH_INPUTS)


# ============================================================================== 3. variant files


@cache
def base_variant_tables() -> tuple[dict[str, Any], ...]:
    tables = [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(VARIANTS_DIR.glob("*.toml"))]
    tables += [{"extends": "french"}, {"extends": ["gabo", "jokers"], "rules": {"end": {"max_turns": 50}}}]
    return tuple(tables)


TOML_JUNK: list[Any] = [
    "x",
    "",
    LONG_TEXT,
    True,
    False,
    1.5,
    NAN,
    INF,
    -INF,
    10**18,
    2**63 - 1,
    -(2**63),
    -1,
    0,
    10**6,
    [],
    [1, "a"],
    [[1]],
    {},
    {"x": 1},
]
TOML_HEAVY_JUNK: list[Any] = [list(range(10_000)), ["french"] * 5000, [str(i) for i in range(2000)]]


def toml_junk(rng: random.Random) -> Any:
    import datetime

    if rng.random() < 0.01:
        return copy.deepcopy(rng.choice(TOML_HEAVY_JUNK))
    if rng.random() < 0.05:
        return rng.choice([datetime.date(2024, 1, 1), datetime.time(12, 0), datetime.datetime(2024, 1, 1, 0, 0)])
    return copy.deepcopy(rng.choice(TOML_JUNK))


def nested_table(depth: int) -> dict[str, Any]:
    out: dict[str, Any] = {"leaf": 1}
    for i in range(depth):
        out = {f"t{i}": out}
    return out


PLUGIN_LISTS: list[Any] = [
    ["os"],
    ["unittest.__main__"],
    ["os", "unittest.__main__"],
    "os",
    [3],
    ["tamalou.plugins.nope"],
]


def damage_variant(rng: random.Random, data: dict[str, Any], *, plugins: bool) -> dict[str, Any]:
    """A damaged copy of a variant table (``plugins``: whether hostile plugin lists may be set)."""
    data = copy.deepcopy(data)
    for _ in range(rng.choice([1, 1, 2, 3])):
        op = rng.choices(range(10), weights=[2, 2, 2, 1.5, 1.5, 0.6, 1, 0.5, 0.15, 1 if plugins else 0])[0]
        everywhere = paths(data)
        if op == 0 and everywhere:  # delete a key or an item
            path = rng.choice(everywhere)
            del at_path(data, path[:-1])[path[-1]]
        elif op in (1, 2) and everywhere:  # change a value's type
            path = rng.choice(everywhere)
            at_path(data, path[:-1])[path[-1]] = toml_junk(rng)
        elif op == 3:  # an unknown key in some table
            tables = [data] + [at_path(data, p) for p in everywhere if isinstance(at_path(data, p), dict)]
            rng.choice(tables)[rng.choice(["unknown", "Name", "rule", "players", "max", "x" * 300])] = toml_junk(rng)
        elif op == 4:  # a huge or negative number where a small one is expected
            section, key = rng.choice(
                [
                    ("players", "max"),
                    ("players", "min"),
                    ("deal", "cards"),
                    ("deal", "discard"),
                    ("deck", "copies"),
                    ("deck", "jokers"),
                    ("end", "max_turns"),
                    ("matching", "max_cards"),
                    ("call", "threshold"),
                    ("timing", "turn_seconds"),
                    ("timing", "countdown_seconds"),
                    ("rounds", "count"),
                    ("rounds", "max_rounds"),
                    ("rounds", "limit"),
                    ("peek", "count"),
                ]
            )
            rules = data.setdefault("rules", {})
            if isinstance(rules, dict):
                table = rules.setdefault(section, {})
                if isinstance(table, dict):
                    table[key] = rng.choice([10**6, 10**9, 2**63 - 1, -(2**63), -1, 0, 1e308, INF, NAN, 10**18])
        elif op == 5:  # deeply nested tables
            data[rng.choice(["rules", "deep", "values"])] = nested_table(rng.choice([5, 31, 33, 50, 100, 200]))
        elif op == 6:  # hostile extends
            data["extends"] = rng.choice(
                [
                    "/etc/passwd",
                    "../../../../etc/hosts",
                    "self.toml",
                    "other.toml",
                    "missing.toml",
                    str(VARIANTS_DIR / "french.toml"),
                    ["french", "other.toml"],
                    ["french", "gabo"] * 20,
                    3,
                    {"x": "french"},
                    [],
                    "",
                    "FRENCH",
                ]
            )
        elif op == 7:
            data["base"] = rng.choice(["french", "self.toml", "/etc/passwd", 3, "", "nope"])
        elif op == 8:  # long lists
            rules = data.setdefault("rules", {})
            if isinstance(rules, dict):
                rules[rng.choice(["timing", "deck", "peek"])] = rng.choice(
                    [
                        {"lockouts": [1.0] * 2000},
                        {"ranks": [str(i % 100) for i in range(1000)]},
                        {"slots": list(range(2000)), "mode": "fixed"},
                        {"counts": {str(i): 16 for i in range(500)}, "suits": []},
                    ]
                )
        else:
            data["plugins"] = copy.deepcopy(rng.choice(PLUGIN_LISTS))
    return data


def variant_text(rng: random.Random, data: dict[str, Any]) -> bytes:
    try:
        text = tomli_w.dumps(data)
    except (TypeError, ValueError):
        text = 'extends = "french"\n'
    r = rng.random()
    if r < 0.05:
        text = text[: rng.randrange(len(text) + 1)]
    elif r < 0.08:
        text += rng.choice(["\nname = 'twice'\nname = 'twice'\n", "\n[rules\n", "\nx = [" * 500, "\n= 3\n"])
    elif r < 0.10:
        text = "x = " + "[" * 300 + "]" * 300 + "\n"
    elif r < 0.11:
        return b"\xff\xfe" + text.encode()
    return text.encode()


VARIANT_FILES = sized(fast=150, deep=600)  # random damaged files, after the edge ones (edge_variant_files)
#: Not tables at all, each tried first by ``variant_from_dict``, before the damaged real variants.
NOT_TABLES: list[Any] = [None, 3, "french", ["french"], [], b"x", 1.5, True, nested_list(300)]
VARIANT_DICTS = sized(fast=150, deep=400)  # NOT_TABLES included


def load_untrusted(path: Path) -> tamalou.Variant:
    if UNTRUSTED_KEYWORD:
        return tamalou.load_variant(path, allow_plugins=False)
    return tamalou.load_variant(path)


def use_variant(v: tamalou.Variant) -> None:
    """What a server does with a ruleset it accepted: deal a game and play a listed action."""
    g = tamalou.new_game(v, v.rules.players.min, seed=0)
    if not g.is_over:
        g.apply(g.legal_actions(g.to_act[0] if g.to_act else g.current_player)[0])


def edge_variant_files(tmp_path: Path) -> list[tuple[str, bytes, bool]]:
    """Hand-picked hostile files, each tried once: (file name, content, also load it trusted)."""
    chain = 40  # longer than an extends chain may be
    for k in range(chain):
        parent = "french" if k == chain - 1 else f"chain{k + 1}.toml"
        (tmp_path / f"chain{k}.toml").write_text(f'extends = "{parent}"\n', encoding="utf-8")
    deep_tables = "".join(f"[{'.'.join(f't{i}' for i in range(depth))}]\nx = 1\n" for depth in (33, 100, 200))

    def toml(data: dict[str, Any]) -> bytes:
        return tomli_w.dumps(data).encode()

    return [
        ("many-extends.toml", toml({"extends": ["french"] * 5000}), True),
        ("five-thousand.toml", toml({"extends": FIVE_THOUSAND_NAMES}), True),
        (
            "ranks.toml",
            toml({"extends": "french", "rules": {"deck": {"ranks": [str(i % 1000) for i in range(16_000)]}}}),
            False,
        ),
        ("lockouts.toml", toml({"extends": "tamalou-fun", "rules": {"timing": {"lockouts": [1.0] * 100_000}}}), True),
        ("deep-tables.toml", deep_tables.encode(), True),
        ("deep-arrays.toml", ("x = " + "[" * 200 + "]" * 200 + "\n").encode(), True),
        ("deeper-arrays.toml", ("x = " + "[" * 5000 + "]" * 5000 + "\n").encode(), True),
        ("plugins.toml", toml({"extends": "french", "plugins": ["os", "unittest.__main__"]}), False),
        ("passwd.toml", toml({"extends": "/etc/passwd"}), True),
        ("dev.toml", toml({"extends": "/dev/zero"}), False),
        ("dir.toml", toml({"extends": str(tmp_path)}), True),
        ("long-name.toml", toml({"extends": "x" * 10_000}), True),
        ("long-base.toml", toml({"base": "y" * 10_000}), True),
        ("long-path.toml", toml({"extends": "z" * 300 + ".toml"}), True),
        ("nul.toml", toml({"extends": "french\x00.toml"}), True),
        ("self.toml", toml({"extends": "other.toml"}), True),
        ("cycle.toml", toml({"extends": "cycle.toml"}), True),
        ("chain.toml", toml({"extends": "chain0.toml"}), True),
        ("huge.toml", toml({"extends": "french", "rules": {"end": {"max_turns": 2**63 - 1}}}), True),
        (
            "huge-deal.toml",
            toml({"extends": "french", "rules": {"deal": {"cards": 10**6}, "deck": {"copies": 10**6}}}),
            True,
        ),
        ("bom.toml", b"\xef\xbb\xbfextends = 'french'\n", True),
        ("utf16.toml", 'extends = "french"\n'.encode("utf-16"), True),
    ]


def variant_files_share(edge: list[tuple[str, bytes, bool]]) -> int:
    """The inputs that ``test_hostile_variant_files_raise_only_variant_errors`` tries at least: the ``edge``
    files (twice for those also loaded trusted) and ``VARIANT_FILES`` random ones (some also loaded trusted)."""
    return sum(2 if trusted else 1 for _name, _content, trusted in edge) + VARIANT_FILES


def test_hostile_variant_files_raise_only_variant_errors(tmp_path: Path) -> None:
    findings = Findings("variant files")
    rng = random.Random("variant-files")
    outcomes = Counter[str]()
    # A cycle for the trusted loads to follow: "self.toml" (written below) and "other.toml" extend each other.
    (tmp_path / "other.toml").write_text('extends = "self.toml"\n', encoding="utf-8")
    files = edge_variant_files(tmp_path)
    planned = variant_files_share(files)
    for i in range(VARIANT_FILES):
        table = damage_variant(rng, rng.choice(base_variant_tables()), plugins=UNTRUSTED_KEYWORD)
        content = variant_text(rng, table)
        # Each file its own name (the loader caches by path); "self.toml" extends "other.toml".
        trusted = b"plugins" not in content and rng.random() < 0.3  # trusted: paths and cycles are followed
        files.append((f"v{i}.toml" if rng.random() < 0.9 else "self.toml", content, trusted))
    with watchdog():
        for file_name, content, trusted in files:
            path = tmp_path / file_name
            path.write_bytes(content)

            def load(path: Path = path) -> None:
                use_variant(load_untrusted(path))

            example = _text(f"load_variant({file_name!r}, allow_plugins=False); file:", content)
            outcomes[attempt(findings, load, example, _fixed("untrusted load"))] += 1
            if "unittest.__main__" in sys.modules:
                sys.modules.pop("unittest.__main__")
                findings.add("plugin imported", "unittest.__main__", "an untrusted load imported it", example, "")
            if trusted:

                def load_trusted(path: Path = path) -> None:
                    use_variant(tamalou.load_variant(path))

                example = _text(f"load_variant({file_name!r}); file:", content)
                attempt(findings, load_trusted, example, _fixed("trusted load"))
    print(f"\n[fuzz] variant files: {dict(outcomes)}")
    findings.check(planned)


def test_variant_from_dict_with_junk_raises_only_variant_errors() -> None:
    findings = Findings("variant dicts")
    rng = random.Random("variant-dicts")
    dumps = [variant_of(name).model_dump(mode="json") for name in RULESETS]
    kwargs: dict[str, Any] = {"allow_plugins": False} if UNTRUSTED_KEYWORD else {}
    with watchdog():
        for i in range(VARIANT_DICTS):
            if i < len(NOT_TABLES):
                data: Any = NOT_TABLES[i]
            elif rng.random() < 0.1:
                data = {rng.choice(["name", "rules", "plugins", "x"]): toml_junk(rng) for _ in range(3)}
            else:
                data = damage_variant(rng, rng.choice(dumps), plugins=UNTRUSTED_KEYWORD)
                data.pop("extends", None) if rng.random() < 0.8 else None
                if rng.random() < 0.1:
                    data["rules"] = nested_table(200)

            def load(data: Any = data) -> None:
                use_variant(tamalou.variant_from_dict(data, **kwargs))

            attempt(findings, load, _text(f"tamalou.variant_from_dict(**{kwargs})", data), _fixed("variant_from_dict"))
    findings.check(VARIANT_DICTS)


# ============================================================================== totals


def test_the_planned_shares_reach_the_total(tmp_path: Path) -> None:
    """The shares that the tests above check, each on its own, add up to ``TOTAL_WANTED`` inputs; and the
    bulk of each kind is large enough to try every hand-picked input first."""
    shares = {f"actions on {label(name)}": actions_share() for name in RULESETS}
    shares["actions drawn by hypothesis"] = hypothesis_share()
    shares["damaged snapshots"] = SNAPSHOT_INPUTS
    shares["match snapshots"] = MATCH_INPUTS
    shares["variant files"] = variant_files_share(edge_variant_files(tmp_path))
    shares["variant dicts"] = VARIANT_DICTS
    total = sum(shares.values())
    print(f"\n[fuzz] planned shares ({tier()} tier): {shares}, all kinds: {total}")
    assert total >= TOTAL_WANTED, f"the planned shares add up to {total} inputs, not {TOTAL_WANTED}"
    assert len(MATCH_GARBAGE) < MATCH_INPUTS, "the match snapshots: no room for damaged real ones"
    assert len(NOT_TABLES) < VARIANT_DICTS, "variant_from_dict: no room for damaged real variants"
