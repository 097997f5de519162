"""The near neighbourhood of a state (``tamalou.verify.neighbourhood``) and the thorough ``refusals`` and
``listing_complete`` checks over it.

- ``near_actions`` is deterministic, free of duplicates and of listed actions, holds the actions a client
  could plausibly send (every seat, -1 and one past the table; every slot of every layout from -1 to one
  past the end, emptied slots included), and stays bounded on French and Cabo states;
- the built-in rulesets hold both checks over every near action;
- two plugins broken on purpose (``tests/plugins_for_tests/near_*.py``, with their rulesets
  ``tests/data/broken/near_*.toml``) are caught by a short ``verify`` run, naming the invariant, while the
  same run with the old check (3 random actions per sampled state) passes them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import tamalou
from tamalou.engine import Round
from tamalou.engine.game import round_of
from tamalou.verify import INVARIANTS, check_listing_complete, check_refusals, random_playout, verify
from tamalou.verify.neighbourhood import check_near_actions, near_actions

BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken"


def states(variant: str, players: int, seeds: range, every: int = 7) -> Iterator[Round]:
    """States of random games of ``variant``: every ``every`` actions, and the end."""
    for seed in seeds:
        game = random_playout(variant, players, seed)
        again = Round(game.variant, players, seed=seed)
        again.start()
        for k, action in enumerate(game.actions):
            if k % every == 0:
                yield again.copy()
            again.apply(action)
        yield again


def test_near_actions_are_deterministic_new_and_distinct() -> None:
    for game in states("french", 3, range(2), every=11):
        near = near_actions(game)
        assert near == near_actions(game.copy())
        texts = [json.dumps(a, sort_keys=True) for a in near]
        assert len(texts) == len(set(texts))
        listed = {
            json.dumps(tamalou.action_to_dict(a), sort_keys=True) for p in range(3) for a in game.legal_actions(p)
        }
        assert not listed & set(texts)


def test_near_actions_reach_every_seat_and_every_slot() -> None:
    game = round_of(tamalou.new_game("french", players=3, seed=1))
    p = game.current_player
    near = near_actions(game)
    for q in (-1, 0, 1, 2, 3):
        if q != p:
            assert {"type": "draw", "player": q, "source": "stock"} in near
    # matches: each slot of one's own layout, -1 and one past the end; the seat to play's, of every layout
    q = (p + 1) % 3
    assert {"type": "match", "player": q, "slots": [-1]} in near
    assert {"type": "match", "player": q, "slots": [4]} in near
    assert {"type": "match", "player": p, "slots": [2], "owner": q} in near  # the seat to play: every layout
    assert {"type": "match", "player": q, "slots": []} in near
    # once a card is held: replace at every slot of the layout, -1 and one past the end
    game.apply({"type": "draw", "player": p, "source": "stock"})
    near = near_actions(game)
    assert {"type": "replace", "player": p, "slot": -1} in near
    assert {"type": "replace", "player": p, "slot": 4} in near
    assert {"type": "replace", "player": q, "slot": 0} in near  # another seat


def test_near_actions_include_emptied_slots() -> None:
    game = round_of(tamalou.new_game("french", players=2, seed=2))
    p = game.current_player
    game.hands[p][1] = -1  # an emptied slot (a state made by hand: only near_actions reads it)
    game.apply({"type": "draw", "player": p, "source": "stock"})
    assert {"type": "replace", "player": p, "slot": 1} in near_actions(game)


@pytest.mark.parametrize("variant", ["french", "cabo"])
def test_near_actions_stay_bounded(variant: str) -> None:
    sizes = [
        len(near_actions(g)) for n in (2, 4, 6) if n <= 4 or variant == "french" for g in states(variant, n, range(2))
    ]
    assert max(sizes) <= 2000, max(sizes)
    assert sorted(sizes)[len(sizes) // 2] <= 500


@pytest.mark.parametrize("variant", tamalou.variant_names())
def test_builtin_rulesets_hold_over_every_near_action(variant: str) -> None:
    v = tamalou.load_variant(variant)
    for game in states(variant, v.rules.players.min + 1 if v.rules.players.max > 2 else 2, range(1), every=9):
        check_near_actions(game)


def test_the_old_signatures_still_work() -> None:
    game = tamalou.new_game("french", players=3, seed=1)
    check_refusals(game, actions=5)
    check_refusals(game, actions=5, exhaustive=False)
    check_listing_complete(game, actions=5)
    check_listing_complete(game, actions=5, exhaustive=False)


# ----------------------------------------------------------------------------- plugins broken on purpose

#: Each broken ruleset, the invariant it breaks, words of the failure, and the run's games: one game, of seed 12 (two
#: players), which reaches the peek power in a state the near neighbourhood samples (the first seed that catches
#: both, of seeds 0 to 119 tried one game each: 12, 27, 45, 57, 78).
NEAR_BUGS = {
    "a refusal that marks a card seen for slot -1": ("near_refusal.toml", "refusals", "changed the game: .knowers"),
    "a power accepting the slot one past the end": ("near_listing.toml", "listing_complete", "does not list"),
}
GAMES, SEED = 1, 12


def old_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry's ``refusals`` and ``listing_complete`` as they were: 3 random actions per sampled state."""
    for name, check in (("refusals", check_refusals), ("listing_complete", check_listing_complete)):
        old = dataclasses.replace(
            INVARIANTS[name], check=lambda g, rng, thorough, check=check: check(g, rng, actions=3, exhaustive=False)
        )
        monkeypatch.setitem(INVARIANTS, name, old)


@pytest.mark.parametrize("bug", list(NEAR_BUGS.values()), ids=list(NEAR_BUGS))
def test_verify_catches_the_near_bug(bug: tuple[str, str, str]) -> None:
    toml, invariant, says = bug
    report = verify(str(BROKEN / toml), games=GAMES, seed=SEED, workers=1)
    assert not report.ok
    assert report.failed.get(invariant, 0) >= 1, report.failed
    assert any(f.invariant == invariant and says in f.message for f in report.details), report.details


@pytest.mark.parametrize("bug", list(NEAR_BUGS.values()), ids=list(NEAR_BUGS))
def test_the_old_check_misses_the_near_bug(bug: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    toml, _, _ = bug
    old_checks(monkeypatch)
    report = verify(str(BROKEN / toml), games=GAMES, seed=SEED, workers=1)
    assert report.ok, report.details
