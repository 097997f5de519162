"""The standard properties of a ruleset (``PROPERTIES``: conservation, no leak, termination...),
each a function of hypothesis's data, and ``check_property``, which runs one on a ruleset (what
``pytest --tamalou-variant`` collects).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from ..actions import Action
from ..engine.game import Game, new_game
from ..invariants import (
    InvariantViolation,
    check_accepted_is_listed,
    check_conservation,
    check_illegal_leaves_state,
    check_knowledge,
    check_legal_actions_accepted,
    check_no_leak,
    check_replay,
    check_result,
    check_snapshot_roundtrip,
    step_bound,
)
from ..schema import Variant
from .playing import _MATCH_STYLES, BUDGET, _moves
from .profiles import property_settings
from .rulesets import VariantArg, _load
from .strategies import any_action, dealt_games, games, stacked_games


def _played(data: st.DataObject, v: VariantArg, players: int | None, max_actions: int = 80) -> Game:
    out_of_turn, match_probability = data.draw(_MATCH_STYLES)
    game: Game = data.draw(
        games(
            v,
            players,
            max_actions=max_actions,
            out_of_turn=out_of_turn,
            match_probability=match_probability,
            call_probability=data.draw(st.sampled_from([0.05, 0.2])),
            budget=BUDGET,
        ),
        label="game",
    )
    return game


def _to_the_end(
    data: st.DataObject,
    game: Game,
    calls: Sequence[float] = (0.05, 0.2),
    on_step: Callable[[Game, Action], None] | None = None,
) -> Game:
    played: Game = data.draw(_moves(game, calls=calls, on_step=on_step), label="the end of the round")
    return played


def _dealt(data: st.DataObject, v: VariantArg, players: int | None) -> Game:
    game: Game = data.draw(dealt_games(v, players), label="game")
    return game


def _p_conservation(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game = _dealt(data, v, players)
    check_conservation(game)
    _to_the_end(data, game, on_step=lambda g, _a: check_conservation(g))


def _p_knowledge(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game = _dealt(data, v, players)
    check_knowledge(game)
    _to_the_end(data, game, on_step=lambda g, _a: check_knowledge(g))


def _p_no_leak(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game = _played(data, v, players)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    for p in range(game.players):
        check_no_leak(game, p, rng, pairs=8)


def _p_listed_accepted(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    check_legal_actions_accepted(_played(data, v, players))


def _p_illegal_untouched(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game = _played(data, v, players)
    snapshot = game.to_json()
    for _ in range(3):
        action = data.draw(any_action(game), label="hostile action")
        if not check_illegal_leaves_state(game, action, snapshot=snapshot) and isinstance(action, dict):
            check_accepted_is_listed(game, action)


def _p_termination(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game = _to_the_end(data, _dealt(data, v, players), calls=(0.05, 0.05, 0.2, 0.0))
    if not game.is_over or len(game.actions) > step_bound(game):  # pragma: no cover - play_out raises first
        raise InvariantViolation(f"the round has not ended after {len(game.actions)} actions")


def _p_replay(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game = _played(data, v, players)
    again = new_game(game.variant, game.players, seed=game.seed)
    if again.to_json() != new_game(game.variant, game.players, seed=game.seed).to_json():
        raise InvariantViolation(f"two deals with seed {game.seed} differ")
    check_replay(game)


def _p_snapshot(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game = _played(data, v, players)
    check_snapshot_roundtrip(game, random.Random(data.draw(st.integers(0, 2**32 - 1))), steps=6)


def _p_result(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game = _to_the_end(data, _dealt(data, v, players))
    check_result(game)


def _p_small_deals(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    game: Game = data.draw(stacked_games(v, players, max_stock=6), label="game")

    def each(g: Game, _a: Action) -> None:
        check_conservation(g)
        check_knowledge(g)

    _to_the_end(data, game, on_step=each)
    check_result(game)
    check_replay(game)


Property = Callable[[st.DataObject, Any, "int | None"], None]
_PROPERTY_FUNCTIONS: dict[str, Property] = {
    "conservation": _p_conservation,
    "knowledge": _p_knowledge,
    "no_leak": _p_no_leak,
    "listed_accepted": _p_listed_accepted,
    "illegal_untouched": _p_illegal_untouched,
    "termination": _p_termination,
    "replay": _p_replay,
    "snapshot": _p_snapshot,
    "result": _p_result,
    "small_deals": _p_small_deals,
}


class _Properties(dict[str, str]):
    """The standard properties of a ruleset, name -> what holds: what ``check_property`` runs and
    ``pytest --tamalou-variant`` collects (``conservation``, ``no_leak``, ``termination``...)."""


PROPERTIES: Mapping[str, str] = _Properties(
    {
        "conservation": "every card is in exactly one place, at every step of whole rounds",
        "knowledge": "the discard is known to all, the held card to its holder, everything at the end",
        "no_leak": "exchanging two cards a player does not know changes neither their view nor their legal actions",
        "listed_accepted": "every listed action is accepted, and somebody may act until the round is over",
        "illegal_untouched": "a hostile action is refused with IllegalAction and the game unchanged, or was listed",
        "termination": "every round ends within step_bound actions, even when nobody calls",
        "replay": "the same seed deals the same cards; replaying the actions rebuilds the same game",
        "snapshot": "from_json(to_json()) is the same game and plays on identically",
        "result": "a finished round's result is consistent: totals, a ranking of every player, winners first",
        "small_deals": "tiny stacked deals (empty stocks, penalties with no card left) keep every invariant",
    }
)


def check_property(
    name: str,
    variant: str | Path | Variant | Sequence[str],
    *,
    max_examples: int | None = None,
    players: int | None = None,
    profile: str | None = None,
) -> None:
    """Run the standard property ``name`` (a key of ``PROPERTIES``) on ``variant`` with hypothesis:
    ``max_examples`` random games (default: the profile's), ``players`` a count or ``None`` for
    every count the ruleset allows, with the settings of ``profile`` (see ``property_settings``).
    Raises the shrunk failure (an ``InvariantViolation``, with hypothesis's notes: the
    ``tamalou.replay`` call that rebuilds the game).

    >>> check_property("conservation", "french", max_examples=5)
    >>> sorted(PROPERTIES)[:3]
    ['conservation', 'illegal_untouched', 'knowledge']
    """
    if name not in _PROPERTY_FUNCTIONS:
        raise ValueError(f"unknown property {name!r}: expected one of {', '.join(PROPERTIES)}")
    v = _load(variant)
    body = _PROPERTY_FUNCTIONS[name]
    changes: dict[str, Any] = {} if max_examples is None else {"max_examples": max_examples}

    # The strategies get the spec the ruleset was loaded by, when it has one: a short repr in reports.
    spec: Any = v.spec if isinstance(v.spec, str) or (isinstance(v.spec, list) and v.spec) else v

    def run(data: st.DataObject) -> None:
        body(data, spec, players)

    run.__name__ = run.__qualname__ = name
    test = property_settings(profile, **changes)(_given(run))
    # One database key per property and ruleset: a failure is replayed first on the next run.
    inner = getattr(getattr(test, "hypothesis", None), "inner_test", None)
    if inner is not None:
        inner._hypothesis_internal_add_digest = f"tamalou:{name}:{json.dumps(v.model_dump(mode='json'))}".encode()
    test()


def _given(fn: Callable[[st.DataObject], None]) -> Callable[[], None]:
    from hypothesis import given

    wrapped: Callable[[], None] = given(data=st.data())(fn)
    return wrapped
