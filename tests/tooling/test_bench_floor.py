"""The benchmark's floor (``benchmarks/floor_french.py``) plays the engine's game, step by step.

The speed ratio printed by ``benchmarks/random_playout.py`` means something only if the hand-written
floor does the same work as the engine: the same legal actions at every step, the same state after each.
Each game starts from the engine's deal (cards mapped to the floor's ints), takes the same choices in
both, and uses the engine's shuffle at a reshuffle; after every step the two must agree on the phase,
the player, every layout, the stock, the discard, who knows each card, the caller, the turn, the matching
window and, at the end, the reason and the scores. This reads engine internals on purpose (the state the
floor mirrors).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import tamalou
from scenario import load_script
from tamalou import actions as A
from tamalou.cards import RANKS
from tamalou.engine import Round, new_round
from tamalou.engine.state import NO_CARD
from tamalou.rng import Rng

pytestmark = pytest.mark.deep  # the benchmark tooling runs in the deep tier (tests/tiers.py)

F: Any = load_script(Path(__file__).resolve().parents[2] / "benchmarks" / "floor_french.py")
FRENCH = tamalou.load_variant("french")


def card_ids(g: Round) -> list[int]:
    """Engine card id -> the floor's card (rank index * 4 + suit index)."""
    return [RANKS.index(c.rank) * 4 + "SHDC".index(c.suit) for c in g.cards]


def layout(g: Round, ids: list[int], p: int) -> list[int]:
    return [ids[c] for c in g.hands[p] if c != NO_CARD]


def place(g: Round, p: int, slot: int | None) -> int | None:
    """The floor keeps no emptied slot: a slot is its place among the occupied ones."""
    return None if slot is None else g.occupied(p).index(slot)


def engine_key(g: Round, a: A.Action) -> tuple[Any, ...]:
    p = getattr(a, "player", -1)
    if isinstance(a, A.Draw):
        return ("draw", a.source)
    if isinstance(a, A.Replace):
        return ("replace", place(g, p, a.slot))
    if isinstance(a, A.Discard):
        return ("discard",)
    if isinstance(a, A.MatchAction):
        assert a.owner in (None, p) and len(a.slots) == 1
        return ("match", place(g, p, a.slots[0]))
    if isinstance(a, A.Call):
        return ("call",)
    if isinstance(a, A.Pass):
        return ("pass",)
    if isinstance(a, A.Power):
        target_slot = place(g, a.target, a.target_slot) if a.target is not None else None
        return ("power", place(g, p, a.slot), a.target, target_slot)
    if isinstance(a, A.Swap):
        return ("swap", place(g, p, a.slot))
    raise AssertionError(a)


def floor_key(a: tuple[int, ...]) -> tuple[Any, ...]:
    kind = a[0]
    simple = {F.A_DRAW_STOCK: ("draw", "stock"), F.A_DRAW_DISCARD: ("draw", "discard"), F.A_THROW: ("discard",)}
    simple |= {F.A_CALL: ("call",), F.A_PASS: ("pass",)}
    if kind in simple:
        return simple[kind]
    if kind in (F.A_REPLACE, F.A_MATCH, F.A_SWAP):
        return ({F.A_REPLACE: "replace", F.A_MATCH: "match", F.A_SWAP: "swap"}[kind], a[1])
    if kind == F.A_PEEK_OWN:
        return ("power", a[1], None, None)
    if kind in (F.A_PEEK_OPPONENT, F.A_LOOK):
        return ("power", None, a[1], a[2])
    if kind == F.A_BLIND_SWAP:
        return ("power", a[1], a[2], a[3])
    raise AssertionError(a)


class EngineShuffle:
    """The floor's ``rng`` at a reshuffle: the engine's own shuffle, on the engine's card ids."""

    def __init__(self, g: Round, ids: list[int]) -> None:
        self.g, self.ids = g, ids

    def shuffle(self, pile: list[int]) -> None:
        back = {f: e for e, f in enumerate(self.ids)}
        engine_ids = [back[c] for c in pile]
        rng = Rng(0)
        rng.state = self.g.rng.state
        rng.shuffle(engine_ids)
        pile[:] = [self.ids[c] for c in engine_ids]


PHASES = {"draw": "DRAW", "hold": "HOLD", "power": "USE", "swap": "SWAP", "call": "CALL", "closing": "CLOSING"}


def floor_from(g: Round, ids: list[int]) -> Any:
    r = F.Round.__new__(F.Round)
    r.rng = EngineShuffle(g, ids)
    r.hands = [layout(g, ids, p) for p in range(4)]
    r.stock = [ids[c] for c in g.stock]
    r.discard = [ids[c] for c in g.discard]
    r.known = [0] * 52
    for c, k in enumerate(g.knowers):
        r.known[ids[c]] = k
    r.held, r.held_from_stock, r.caller, r.turn = -1, False, -1, g.turn
    r.power, r.looked = F.NO_POWER, (-1, -1, -1)
    window = g.ms[0]
    r.win = ids[window.win] if window.win != NO_CARD else -1
    r.win_by, r.tried, r.waiting = window.win_by, list(window.tried), 0
    r.reason, r.scores = "", []
    r.player, r.phase = g.current_player, getattr(F, PHASES[str(g.phase)])
    return r


def assert_same(g: Round, r: Any, ids: list[int], where: str) -> None:
    over = g.is_over
    assert (r.phase == F.OVER) == over, where
    if over:
        result = g.final_result()
        assert (result.reason, list(result.scores)) == (r.reason, r.scores), where
    else:
        assert getattr(F, PHASES[str(g.phase)]) == r.phase, where
    known = [0] * 52
    for c, k in enumerate(g.knowers):
        known[ids[c]] = k
    engine = {
        "player": g.current_player,
        "hands": [layout(g, ids, p) for p in range(4)],
        "discard": [ids[c] for c in g.discard],
        "stock": [ids[c] for c in g.stock],
        "known": known,
        "caller": -1 if g.caller is None else g.caller,
        "turn": g.turn,
        "held": ids[g.held] if g.held != NO_CARD else -1,
    }
    floor = {k: getattr(r, k) for k in engine}
    assert engine == floor, where
    if not over:
        window = g.ms[0]
        assert (ids[window.win] if window.win != NO_CARD else -1, window.win_by, list(window.tried)) == (
            r.win,
            r.win_by,
            r.tried,
        ), where


@pytest.mark.parametrize("call_p", [0.05, 0.0, 0.3])
def test_the_floor_lists_and_plays_exactly_what_the_engine_does(call_p: float) -> None:
    ended = set()
    for seed in range(12):
        choose = random.Random(seed)
        g = new_round(FRENCH, players=4, seed=seed)
        ids = card_ids(g)
        r = floor_from(g, ids)
        assert_same(g, r, ids, f"seed {seed}, the deal")
        step = 0
        while not g.is_over:
            listed = {engine_key(g, a): a for a in g.legal_actions(g.current_player)}
            floor = {floor_key(a): a for a in r.legal()}
            assert set(listed) == set(floor), f"seed {seed}, step {step}"
            keys = sorted(listed, key=str)
            calls = ("call",) in listed and (choose.random() < call_p or len(keys) == 1)
            key = ("call",) if calls else choose.choice([k for k in keys if k != ("call",)])
            r.apply(floor[key])  # first: a reshuffle in it copies the engine's shuffle, from the state before
            g.apply(listed[key])
            step += 1
            assert_same(g, r, ids, f"seed {seed}, step {step}, after {key}")
        ended.add(g.final_result().reason)
    assert ended  # (every game above was played to its end and compared at each step)
