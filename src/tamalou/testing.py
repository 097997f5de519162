"""Hypothesis strategies and invariants for testing rulesets (``pip install tamalou[testing]``).

Write property tests for your own house rules with the same tools tamalou tests itself with::

    from hypothesis import given
    from tamalou.testing import check_conservation, check_no_leak, played_games

    @given(played_games("my-house-rules"))
    def test_my_rules_lose_no_card(game):
        check_conservation(game)
        for p in range(game.players):
            check_no_leak(game, p)

The strategies draw the random choices of a game through hypothesis (the first ``budget`` ones
one by one, the rest from a drawn seed), so a failing game shrinks to a short one; each drawn game
is reported (``hypothesis.note``) as the ``tamalou.replay`` call that rebuilds it. The invariant
checks (``check_*``, ``random_playout``, ``verify``) come from ``tamalou.invariants`` and are
re-exported here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

try:
    from hypothesis import note
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tamalou.testing needs hypothesis, which is not installed: pip install 'tamalou[testing]'"
    ) from exc

from .actions import ACTION_TYPES, Action, action_to_dict
from .engine.game import Game, new_game
from .invariants import (
    InvariantViolation,
    RandomChooser,
    VerifyReport,
    check_accepted_is_listed,
    check_all,
    check_conservation,
    check_illegal_leaves_state,
    check_knowledge,
    check_legal_actions_accepted,
    check_no_leak,
    check_replay,
    check_result,
    check_snapshot_roundtrip,
    choose_action,
    exchange_faces,
    play_out,
    random_playout,
    step_bound,
    verify,
)
from .rules import rulebook
from .schema import Variant
from .variant import load_variant, variant_names

__all__ = [
    "DrawChooser",
    "InvariantViolation",
    "RandomChooser",
    "VerifyReport",
    "actions_for",
    "any_action",
    "check_accepted_is_listed",
    "check_all",
    "check_conservation",
    "check_illegal_leaves_state",
    "check_knowledge",
    "check_legal_actions_accepted",
    "check_no_leak",
    "check_replay",
    "check_result",
    "check_snapshot_roundtrip",
    "exchange_faces",
    "games",
    "play_out",
    "played_games",
    "random_playout",
    "stacked_games",
    "step_bound",
    "variants",
    "verify",
]

DrawFn = Callable[[st.SearchStrategy[Any]], Any]
VariantArg = str | Variant | Sequence[str] | st.SearchStrategy[Any] | None
PlayersArg = int | st.SearchStrategy[int] | None


@lru_cache(maxsize=64)
def _load(name: str | tuple[str, ...]) -> Variant:
    return load_variant(list(name) if isinstance(name, tuple) else name)


def _variant(draw: DrawFn, variant: VariantArg) -> Variant:
    chosen = draw(variants()) if variant is None else variant
    if isinstance(chosen, st.SearchStrategy):
        chosen = draw(chosen)
    if isinstance(chosen, Variant):
        return chosen
    if isinstance(chosen, str):
        return _load(chosen)
    return _load(tuple(chosen))


def _players(draw: DrawFn, v: Variant, players: PlayersArg) -> int:
    if players is None:
        return int(draw(st.integers(v.rules.players.min, v.rules.players.max)))
    if isinstance(players, st.SearchStrategy):
        return int(draw(players))
    return players


def _replay_note(game: Game) -> str:
    """The ``tamalou.replay`` call that rebuilds ``game`` (for hypothesis's failure report)."""
    actions = json.dumps([action_to_dict(a) for a in game.actions])
    deal = f", deal={json.dumps(game.deal_spec)}, first_player={game.first_player}" if game.deal_spec else ""
    return f"tamalou.replay({game.variant.name!r}, {game.players}, seed={game.seed}{deal}, actions={actions})"


class DrawChooser:
    """A ``tamalou.invariants.Chooser`` that draws every choice from hypothesis, so that games
    shrink: the simplest choice (0, False) is the first action and "no".

    After ``budget`` choices it goes on with a ``random.Random`` seeded by one more draw, so that a
    long game (nobody calls) does not exhaust hypothesis's data.

    >>> from hypothesis import given
    >>> @given(st.data())
    ... def test_ends(data):
    ...     game = data.draw(games("french"))
    ...     play_out(game, DrawChooser(data.draw))
    ...     assert game.is_over
    """

    def __init__(self, draw: DrawFn, *, budget: int = 600) -> None:
        self.draw = draw
        self.budget = budget
        self.rng: random.Random | None = None

    def _spent(self) -> random.Random | None:
        if self.rng is None:
            if self.budget > 0:
                self.budget -= 1
                return None
            self.rng = random.Random(self.draw(st.integers(0, 2**32 - 1)))
        return self.rng

    def below(self, n: int) -> int:
        if n <= 1:
            return 0
        rng = self._spent()
        return rng.randrange(n) if rng is not None else int(self.draw(st.integers(0, n - 1)))

    def chance(self, p: float) -> bool:
        if p <= 0.0:
            return False
        if p >= 1.0:
            return True
        rng = self._spent()
        if rng is not None:
            return rng.random() < p
        return bool(self.draw(st.integers(0, 999)) >= 1000 - round(p * 1000))


def variants() -> st.SearchStrategy[str]:
    """The name of a built-in (or installed) variant.

    >>> from hypothesis import given
    >>> @given(variants())
    ... def test_every_ruleset_loads(name):
    ...     assert tamalou.load_variant(name).name == name
    """
    return st.sampled_from(variant_names())


@st.composite
def games(draw: DrawFn, variant: VariantArg = None, players: PlayersArg = None) -> Game:
    """A freshly dealt game with a drawn seed: of ``variant`` (a name, a ``Variant``, a strategy,
    or ``None`` for any of ``variants()``) and ``players`` (a count, a strategy, or ``None`` for any
    count the variant allows).

    >>> from hypothesis import given
    >>> @given(games("french", players=st.integers(2, 6)))
    ... def test_deal(game):
    ...     assert all(game.card_count(p) == 4 for p in range(game.players))
    """
    v = _variant(draw, variant)
    n = _players(draw, v, players)
    seed = int(draw(st.integers(0, 2**32 - 1)))
    game = new_game(v, n, seed=seed)
    note(f"game: tamalou.new_game({v.name!r}, {n}, seed={seed})")
    return game


@st.composite
def stacked_games(draw: DrawFn, variant: VariantArg = None, players: PlayersArg = None, *, max_stock: int = 6) -> Game:
    """A game on a small stacked deal: a drawn arrangement of the variant's cards, the usual hands,
    at most ``max_stock`` cards in the stock and at most one on the discard. The universe is that
    small: empty stocks, impossible reshuffles and penalties without a card come quickly.

    >>> from hypothesis import given
    >>> @given(stacked_games("french", max_stock=2), st.randoms())
    ... def test_short_stock_ends(game, rng):
    ...     check_result(play_out(game, RandomChooser(rng), check_every=1))
    """
    v = _variant(draw, variant)
    n = _players(draw, v, players)
    deck = [str(c) for c in rulebook(v).deck]
    k = v.rules.deal.cards
    order = draw(st.permutations(deck))
    stock_size = int(draw(st.integers(0, min(max_stock, len(deck) - k * n))))
    discard_size = int(draw(st.integers(0, min(v.rules.deal.discard, len(deck) - k * n - stock_size))))
    deal: dict[str, Any] = {
        "hands": [list(order[p * k : (p + 1) * k]) for p in range(n)],
        "stock": list(order[k * n : k * n + stock_size]),
        "discard": list(order[k * n + stock_size : k * n + stock_size + discard_size]),
    }
    seed = int(draw(st.integers(0, 2**32 - 1)))
    first = int(draw(st.integers(0, n - 1)))
    game = new_game(v, n, seed=seed, deal=deal, first_player=first)
    note(f"game: tamalou.new_game({v.name!r}, {n}, seed={seed}, deal={json.dumps(deal)}, first_player={first})")
    return game


@st.composite
def played_games(
    draw: DrawFn,
    variant: VariantArg = None,
    players: PlayersArg = None,
    *,
    min_actions: int = 0,
    max_actions: int = 100,
    call_probability: float = 0.05,
    out_of_turn: float = 0.3,
    match_probability: float = 0.15,
    tick_probability: float = 0.1,
    stacked: bool = False,
    budget: int = 600,
) -> Game:
    """A game after a drawn number (``min_actions`` to ``max_actions``) of random legal actions,
    each chosen by hypothesis (see ``tamalou.invariants.choose_action`` for the probabilities), so
    a failing example shrinks to fewer and simpler actions. It may be over if the round ended
    sooner. ``stacked``: start from ``stacked_games`` instead of ``games``. ``budget``: choices
    drawn one by one before a drawn seed takes over (see ``DrawChooser``): lower is faster, higher
    shrinks better.

    >>> from hypothesis import given
    >>> @given(played_games("french", max_actions=60))
    ... def test_conservation(game):
    ...     check_conservation(game)
    """
    start = stacked_games(variant, players) if stacked else games(variant, players)
    game: Game = draw(start)
    count = int(draw(st.integers(min_actions, max_actions)))
    chooser = DrawChooser(draw, budget=budget)
    for _ in range(count):
        if game.is_over:
            break
        action = choose_action(
            game,
            chooser,
            call_probability=call_probability,
            out_of_turn=out_of_turn,
            match_probability=match_probability,
            tick_probability=tick_probability,
        )
        game.apply(action)
    note(f"played: {_replay_note(game)}")
    return game


def actions_for(game: Game, player: int) -> st.SearchStrategy[Action]:
    """One of the legal actions of ``player`` now (``st.nothing()`` if they have none).

    >>> from hypothesis import given
    >>> @given(st.data())
    ... def test_any_listed_action_is_accepted(data):
    ...     game = data.draw(played_games("french"))
    ...     if not game.is_over:
    ...         game.apply(data.draw(actions_for(game, game.current_player)))
    """
    listed = game.legal_actions(player)
    return st.sampled_from(listed) if listed else st.nothing()


_JUNK = st.one_of(
    st.none(), st.booleans(), st.text(max_size=3), st.floats(), st.integers(), st.lists(st.integers(), max_size=2)
)
_KINDS = sorted(ACTION_TYPES)


@lru_cache(maxsize=1024)
def _fuzz(
    n: int, size: int, focus: int
) -> tuple[st.SearchStrategy[int], st.SearchStrategy[int], st.SearchStrategy[object]]:
    """Players (``focus``, the player to move, half of the time) and slots around the valid ranges,
    and well-typed or malformed actions, for a game of ``n`` players whose longest layout has
    ``size`` slots (built once: strategies are not free)."""
    player = st.one_of(st.just(focus), st.integers(-1, n))
    slot = st.integers(-1, size + 1)

    def fields(kind: str) -> st.SearchStrategy[dict[str, Any]]:
        optional: dict[str, st.SearchStrategy[Any]] = {"at": st.floats(-10, 100)}
        required: dict[str, st.SearchStrategy[Any]] = {"type": st.just(kind)}
        if kind != "tick":
            required["player"] = player
        if kind in ("replace", "swap", "give"):
            required["slot"] = slot
        elif kind == "draw":
            required["source"] = st.sampled_from(["stock", "discard"])
        elif kind in ("match", "peek"):
            required["slots"] = st.lists(slot, max_size=4)
            if kind == "match":
                optional["owner"] = player
        elif kind == "power":
            optional.update(slot=slot, target=player, target_slot=slot)
        elif kind == "tick":
            required["at"] = st.floats(-10, 100)
            del optional["at"]
        return st.fixed_dictionaries(required, optional=optional)

    well_typed = st.one_of(*[fields(kind) for kind in _KINDS])
    malformed = st.one_of(
        st.fixed_dictionaries({"type": st.one_of(st.sampled_from(_KINDS), _JUNK)}, optional={"player": _JUNK}),
        st.fixed_dictionaries(
            {"type": st.sampled_from(_KINDS), "player": player},
            optional={"slot": _JUNK, "slots": _JUNK, "source": _JUNK, "target": _JUNK, "owner": _JUNK, "extra": _JUNK},
        ),
        _JUNK,
    )
    return player, slot, st.one_of(well_typed, malformed)


@st.composite
def _mutated(draw: DrawFn, listed: list[dict[str, Any]], n: int, size: int, focus: int) -> dict[str, Any]:
    """A listed action (JSON form) with one field changed."""
    player, slot, _ = _fuzz(n, size, focus)
    d = dict(draw(st.sampled_from(listed)))
    key = draw(st.sampled_from(sorted(d)))
    if key == "type":
        d["type"] = draw(st.sampled_from(_KINDS))
    elif key == "player":
        d["player"] = draw(player)
    elif key == "slots":
        d["slots"] = draw(st.lists(slot, max_size=4))
    elif key in ("slot", "target_slot", "target", "owner"):
        d[key] = draw(slot)
    else:
        d[key] = draw(st.one_of(st.sampled_from(["stock", "discard", "hand"]), _JUNK))
    return d


def any_action(game: Game) -> st.SearchStrategy[object]:
    """An action for robustness tests, most often illegal: a legal action's JSON form, or one with
    a field changed, a well-typed action with random fields (players, slots and targets around the
    valid ranges; the player to move half of the time), or junk (unknown type, missing, extra or
    badly typed fields, not a dict).

    >>> from hypothesis import given
    >>> @given(st.data())
    ... def test_refusals_change_nothing(data):
    ...     game = data.draw(played_games("french"))
    ...     check_illegal_leaves_state(game, data.draw(any_action(game)))
    """
    n = game.players
    size = max((len(h) for h in game.hands), default=0)
    focus = game.current_player
    fuzz = _fuzz(n, size, focus)[2]
    listed = [action_to_dict(a) for p in range(n) for a in game.legal_actions(p)]
    if not listed:
        return fuzz
    return st.one_of(st.sampled_from(listed), _mutated(listed, n, size, focus), fuzz)
