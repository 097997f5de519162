"""``Game.push`` / ``Game.pop``: exact undo, for tree searches.

Random games of every built-in ruleset are played with ``push``; now and then the last one to three
actions are taken back with ``pop`` and the game must be exactly what it was (its snapshot, which holds
the generator's state and every mechanic's state, its listed actions and views), and play then goes
on down another branch. The games as finally played must be the games their seed and action log make,
and popping everything must give back the deal.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import tamalou
from tamalou import Game, GameStateError, IllegalAction
from tamalou.verify import PlayStyle, RandomChooser, choose_action

RULESETS = tamalou.variant_names()


def _same(game: Game, snapshot: str, players: int, deep: bool = True) -> None:
    """``game`` is exactly the game of ``snapshot``: its state, and (``deep``) what each seat sees and may do."""
    assert game.to_json() == snapshot
    if not deep:
        return
    again = Game.from_json(snapshot)
    for p in range(players):
        assert game.legal_actions(p) == again.legal_actions(p)
        assert game.seat_view(p) == again.seat_view(p)
    if game.is_over:
        assert game.result() == again.result()


def _walk(variant: str, players: int, seed: int, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    chooser = RandomChooser(rng)
    game = tamalou.new_game(variant, players=players, seed=seed)
    snapshots = [game.to_json()]
    low = 0.8 if seed % 2 else 0.2  # half the games played towards low totals: right calls, quick ends
    steps = 0
    while steps < 800:
        steps += 1
        if game.is_over and rng.random() < 0.4:
            break
        if game.pushed and (game.is_over or rng.random() < 0.1):
            for _ in range(rng.randint(1, min(3, game.pushed))):
                expected = game.actions[-1]
                assert game.pop() == expected
                snapshots.pop()
                _same(game, snapshots[-1], players, deep=rng.random() < 0.2)
            continue
        action = choose_action(
            game, chooser, PlayStyle(match_probability=0.4, call_probability=0.25, low_total_probability=low)
        )
        events = game.push(action)
        seen.update(e.type for e in events)
        snapshots.append(game.to_json())
        if game.is_over:  # the result, worked out again on this branch, is this branch's
            _same(game, snapshots[-1], players)
    # Whatever was taken back, the game is the one its seed and log make (generator included).
    rebuilt = tamalou.replay(variant, players, seed=seed, actions=game.actions)
    assert rebuilt.to_json() == game.to_json()
    while game.pushed:
        game.pop()
        snapshots.pop()
    _same(game, snapshots[0], players)
    assert game.actions == []


@pytest.mark.parametrize("variant", RULESETS)
def test_pop_restores_exactly(variant: str) -> None:
    seen: Counter[str] = Counter()
    v = tamalou.load_variant(variant)
    counts = sorted({v.rules.players.min, min(4, v.rules.players.max)})
    for seed in range(6):
        _walk(variant, counts[seed % len(counts)], seed, seen)
    assert seen["round_over"] > 0  # undone from the round's end too
    if v.rules.matching.enabled:
        assert seen["matched"] > 0 and seen["penalty"] > 0


def test_every_mechanic_is_undone() -> None:
    """Across the rulesets, the walks went through every kind of change the rules make."""
    seen: Counter[str] = Counter()
    for variant in ("french", "cambia", "opponent-matching", "cabo", "tamalou-fun"):
        for seed in range(6):
            _walk(variant, 2 + seed % 3, 100 + seed, seen)
    for kind in ("penalty", "reshuffled", "looked", "swapped", "matched", "gave", "called", "round_over"):
        assert seen[kind] > 0, (kind, seen)


def test_refused_push_pushes_nothing() -> None:
    game = tamalou.new_game("french", players=2, seed=1)
    before = game.to_json()
    other = 1 - game.current_player
    with pytest.raises(IllegalAction):
        game.push({"type": "draw", "player": other, "source": "stock"})
    assert game.pushed == 0 and game.to_json() == before
    with pytest.raises(GameStateError):
        game.pop()


def test_pop_takes_back_applies_made_since_the_push() -> None:
    game = tamalou.new_game("french", players=3, seed=2)
    before = game.to_json()
    p = game.current_player
    game.push(game.legal_actions(p)[0])
    game.apply(game.legal_actions(p)[0])
    game.pop()
    assert game.to_json() == before


def test_pop_puts_back_the_tick_a_quiet_tick_took_the_place_of() -> None:
    """A tick that fires nothing, after a tick, takes that tick's place in the log (``Game.apply``): ``pop``
    returns the tick pushed and puts the earlier one back."""
    game = tamalou.new_game("french", players=2, seed=3)
    game.apply(tamalou.Tick(at=1.0))
    before = game.to_json()
    game.push(tamalou.Tick(at=2.5))
    assert game.actions == [tamalou.Tick(at=2.5)]
    game.push(game.legal_actions(game.current_player)[0])
    game.push(tamalou.Tick(at=3.0))
    game.push(tamalou.Tick(at=4.0))
    assert game.actions[-1] == tamalou.Tick(at=4.0) and len(game.actions) == 3
    assert game.pop() == tamalou.Tick(at=4.0)
    assert game.actions[-1] == tamalou.Tick(at=3.0) and game.now == 3.0
    assert game.pop() == tamalou.Tick(at=3.0)
    game.pop()
    assert game.pop() == tamalou.Tick(at=2.5)
    assert game.to_json() == before and game.actions == [tamalou.Tick(at=1.0)]


def test_a_copy_has_its_own_undo() -> None:
    game = tamalou.new_game("cabo", players=3, seed=4)
    while game.phase == "peek":
        game.apply(game.legal_actions(game.to_act[0])[0])
    start = game.to_json()
    game.push(game.legal_actions(game.current_player)[0])
    after_one = game.to_json()
    copy = game.copy()
    assert copy.pushed == 0 and copy.to_json() == after_one
    copy.push(copy.legal_actions(copy.current_player)[0])
    game.pop()
    assert game.to_json() == start
    copy.pop()
    assert copy.to_json() == after_one
