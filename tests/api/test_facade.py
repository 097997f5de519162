"""The ``Game`` users hold is a facade: the public API and its documented extras, nothing of the table.

The table's primitives (``hands``, ``do_draw``...) and the flow's transitions belong to the ``Round`` that
mechanics, powers, hooks and checks are handed; ``tamalou.round_of(game)`` reaches it for tools and tests.
"""

from __future__ import annotations

import copy
import pickle

import pytest

import tamalou
from tamalou.engine.game import PUBLIC_NAMES, game_of

#: The names of the contract (the game section of the public API), which ``PUBLIC_NAMES`` must hold.
CONTRACT = {
    "phase", "current_player", "is_over", "turn", "to_act", "legal_actions", "apply", "view", "result",
    "actions", "to_json", "from_json",
}  # fmt: skip


def public(obj: object) -> set[str]:
    return {name for name in dir(obj) if not name.startswith("_")}


def test_a_game_shows_the_contract_and_the_documented_extras_only() -> None:
    g = tamalou.new_game("french", players=3, seed=1)
    assert public(g) == set(PUBLIC_NAMES)
    assert set(PUBLIC_NAMES) >= CONTRACT
    assert len(PUBLIC_NAMES) == len(set(PUBLIC_NAMES))


@pytest.mark.parametrize("name", ["hands", "stock", "knowers", "do_draw", "end_turn", "place", "rb", "ms", "caller"])
def test_the_table_and_the_flow_are_not_names_of_a_game(name: str) -> None:
    g = tamalou.new_game("french", players=2, seed=1)
    assert not hasattr(g, name)
    assert hasattr(tamalou.round_of(g), name)  # the round that mechanics are handed has them
    with pytest.raises(AttributeError):
        setattr(g, name, [])  # nor can one be set on the game to skip ``apply``


def test_every_public_name_of_a_game_is_documented_in_the_api_reference() -> None:
    from pathlib import Path

    api = (Path(__file__).resolve().parents[2] / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    missing = [name for name in PUBLIC_NAMES if f"`{name}" not in api and f"g.{name}" not in api]
    assert not missing, f"docs/reference/api.md does not name {missing}"


def test_the_facade_and_its_round_are_the_same_game() -> None:
    g = tamalou.new_game("french", players=3, seed=4)
    rd = tamalou.round_of(g)
    assert tamalou.round_of(rd) is rd
    while not g.is_over:
        action = g.legal_actions(g.current_player)[0]
        g.apply(action)
        assert rd.actions[-1] == action and rd.phase == g.phase and rd.turn == g.turn
    assert g.result() == rd.result()
    assert game_of(rd).to_json() == g.to_json()


def test_copies_snapshots_and_pickles_of_a_game_are_games() -> None:
    g = tamalou.new_game("gabo", players=2, seed=2)
    g.apply(g.legal_actions(g.current_player)[0])
    for other in (
        g.copy(),
        copy.copy(g),
        copy.deepcopy(g),
        pickle.loads(pickle.dumps(g)),
        tamalou.Game.from_json(g.to_json()),
    ):
        assert type(other) is tamalou.Game
        assert other.to_json() == g.to_json()
        assert tamalou.round_of(other) is not tamalou.round_of(g)
    assert type(tamalou.replay("gabo", 2, seed=2, actions=g.actions)) is tamalou.Game
    assert type(tamalou.Game("gabo", 2, seed=2)) is tamalou.Game


def test_a_match_hands_out_its_round_as_a_game() -> None:
    m = tamalou.new_match("tamalou-fun", players=2, seed=1)
    assert type(m.game) is tamalou.Game
    assert public(m.game) == set(PUBLIC_NAMES)
