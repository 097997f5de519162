"""The strategies of games and actions: stacked deals (``deals``), freshly dealt games
(``dealt_games``, ``stacked_games``), games after a random legal prefix (``games``, also
``played_games``), legal actions (``actions``, ``actions_for``) and hostile ones (``any_action``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, overload

from hypothesis import note
from hypothesis import strategies as st

from ..actions import ACTION_TYPES, Action, Tick, action_to_dict
from ..engine.game import Game, new_game, round_of
from ..engine.round import Round
from ..engine.rulebook import rulebook
from ..schema import Variant
from ..verify import PLAIN, PlayStyle, choose_action
from .playing import DrawChooser, replay_note, variant_ref
from .rulesets import DrawFn, VariantArg, load_variant_arg, variants

PlayersArg = int | st.SearchStrategy[int] | None


def draw_variant(draw: DrawFn, variant: VariantArg) -> Variant:
    chosen = draw(variants()) if variant is None else variant
    if isinstance(chosen, st.SearchStrategy):
        chosen = draw(chosen)
    return load_variant_arg(chosen)


def draw_players(draw: DrawFn, v: Variant, players: PlayersArg) -> int:
    if players is None:
        return int(draw(st.integers(v.rules.players.min, v.rules.players.max)))
    if isinstance(players, st.SearchStrategy):
        return int(draw(players))
    return players


# ----------------------------------------------------------------------------- deals and games


@st.composite
def deals(
    draw: DrawFn,
    variant: str | Path | Variant | Sequence[str],
    players: PlayersArg = None,
    *,
    max_stock: int | None = None,
) -> dict[str, list[Any]]:
    """A stacked deal of ``variant`` for ``players`` (a count, a strategy, or ``None``: any count the
    variant allows; the deal's ``hands`` say how many): the deck in a drawn order, the variant's
    hands (slot 0 first), the stock (top first) and the discard (bottom first; the variant's number
    of cards at most). The stock holds the rest of the deck, or at most ``max_stock`` cards: a small
    universe where empty stocks, impossible reshuffles and penalties without a card come quickly.
    Pass it to ``tamalou.new_game(variant, players=len(deal["hands"]), deal=deal)``.

    >>> import tamalou
    >>> from hypothesis import given
    >>> from tamalou.testing import check_conservation, property_settings
    >>> @property_settings(max_examples=10)
    ... @given(deals("french", players=3, max_stock=4))
    ... def test_a_small_stock(deal):
    ...     game = tamalou.new_game("french", players=len(deal["hands"]), deal=deal, first_player=0)
    ...     assert len(tamalou.round_of(game).stock) <= 4  # the table itself
    ...     check_conservation(game)
    >>> test_a_small_stock()
    """
    v = load_variant_arg(variant)
    n = draw_players(draw, v, players)
    deck = [str(c) for c in rulebook(v).deck_for(n)]  # the deck of this table
    k = v.rules.deal.cards
    order = draw(st.permutations(deck))
    rest = len(deck) - k * n
    stock_size = rest if max_stock is None else int(draw(st.integers(0, max(0, min(max_stock, rest)))))
    discard_size = int(draw(st.integers(0, min(v.rules.deal.discard, rest - stock_size))))
    if max_stock is None and discard_size:
        stock_size -= discard_size
    return {
        "hands": [list(order[p * k : (p + 1) * k]) for p in range(n)],
        "stock": list(order[k * n : k * n + stock_size]),
        "discard": list(order[k * n + stock_size : k * n + stock_size + discard_size]),
    }


@st.composite
def dealt_games(draw: DrawFn, variant: VariantArg = None, players: PlayersArg = None) -> Game:
    """A freshly dealt game with a drawn seed: of ``variant`` (a name, a file, a ``Variant``, a
    strategy, or ``None`` for any of ``variants()``) and ``players`` (a count, a strategy, or ``None``
    for any count the variant allows).

    >>> from hypothesis import given
    >>> from tamalou.testing import property_settings
    >>> @property_settings(max_examples=5)
    ... @given(dealt_games("french", players=st.integers(2, 6)))
    ... def test_deal(game):
    ...     assert all(len(game.view(p).hands[p]) == 4 for p in range(game.players))
    >>> test_deal()
    """
    v = draw_variant(draw, variant)
    n = draw_players(draw, v, players)
    seed = int(draw(st.integers(0, 2**32 - 1)))
    game = new_game(v, n, seed=seed)
    note(f"game: tamalou.new_game({variant_ref(v)}, {n}, seed={seed})")
    return game


@st.composite
def stacked_games(draw: DrawFn, variant: VariantArg = None, players: PlayersArg = None, *, max_stock: int = 6) -> Game:
    """A game on a small stacked deal (``deals(variant, players, max_stock=max_stock)``), a drawn seed
    and first player.

    >>> from hypothesis import given
    >>> from tamalou.testing import RandomChooser, check_result, play_out, property_settings
    >>> @property_settings(max_examples=5)
    ... @given(stacked_games("french", max_stock=2), st.randoms())
    ... def test_short_stock_ends(game, rng):
    ...     check_result(play_out(game, RandomChooser(rng), check_every=1))
    >>> test_short_stock_ends()
    """
    v = draw_variant(draw, variant)
    n = draw_players(draw, v, players)
    deal: dict[str, Any] = draw(deals(v, n, max_stock=max_stock))
    seed = int(draw(st.integers(0, 2**32 - 1)))
    first = int(draw(st.integers(0, n - 1)))
    game = new_game(v, n, seed=seed, deal=deal, first_player=first)
    note(f"game: tamalou.new_game({variant_ref(v)}, {n}, seed={seed}, deal={json.dumps(deal)}, first_player={first})")
    return game


@st.composite
def games(
    draw: DrawFn,
    variant: VariantArg = None,
    players: PlayersArg = None,
    *,
    min_actions: int = 0,
    max_actions: int = 100,
    style: PlayStyle = PLAIN,
    stacked: bool = False,
    budget: int = 200,
) -> Game:
    """A game after a random legal prefix: dealt (``dealt_games``; ``stacked``: ``stacked_games``),
    then a drawn number (``min_actions`` to ``max_actions``) of random legal actions of random
    players, each chosen by hypothesis in ``style`` (a ``tamalou.verify.PlayStyle``: see
    ``tamalou.verify.choose_action``), so a failing example shrinks to fewer and simpler actions. It may be over if the
    round ended sooner. ``budget``: choices drawn one by one before a drawn seed takes over (see
    ``DrawChooser``): lower is faster, higher shrinks better. ``played_games`` is the same strategy.

    >>> from hypothesis import given
    >>> from tamalou.testing import check_conservation, property_settings
    >>> @property_settings(max_examples=10)
    ... @given(games("french", max_actions=60))
    ... def test_conservation(game):
    ...     check_conservation(game)
    >>> test_conservation()
    """
    start = stacked_games(variant, players) if stacked else dealt_games(variant, players)
    game: Game = draw(start)
    count = int(draw(st.integers(min_actions, max_actions)))
    chooser = DrawChooser(draw, budget=budget)
    for _ in range(count):
        if game.is_over:
            break
        action = choose_action(game, chooser, style)
        game.apply(action)
    note(f"played: {replay_note(game)}")
    return game


#: The name ``games`` had when it was the only strategy of games in progress (kept: the same strategy).
played_games = games


# ----------------------------------------------------------------------------- actions


def _listed(game: Game | Round, player: int | None) -> list[Action]:
    """The legal actions of ``player`` (``None``: the player to move's, then the others'); when nobody
    may act but a deadline is due, the ``Tick`` to it."""
    if player is not None:
        return game.legal_actions(player)
    order = [game.current_player, *(p for p in range(game.players) if p != game.current_player)]
    listed = [a for p in order for a in game.legal_actions(p)]
    if any(isinstance(a, Tick) for a in listed):  # every seat is offered the same tick
        listed = [a for i, a in enumerate(listed) if not isinstance(a, Tick) or a not in listed[:i]]
    if not listed and not game.is_over and game.deadline is not None:
        listed = [Tick(at=max(game.deadline, game.now))]
    return listed


@overload
def actions(
    game: Game | Round, *, player: int | None = None, hostile: Literal[False] = False
) -> st.SearchStrategy[Action]: ...
@overload
def actions(game: Game | Round, *, player: int | None = None, hostile: bool) -> st.SearchStrategy[Any]: ...
def actions(game: Game | Round, *, player: int | None = None, hostile: bool = False) -> st.SearchStrategy[Any]:
    """An action for ``game`` as it is now: a legal action of ``player`` (``None``: of anybody who
    has one, the player to move's first; when only time can move the round on, the ``Tick`` to the
    deadline). ``hostile``: also, as often, what ``any_action`` draws: mostly illegal actions, JSON
    forms and junk, which ``apply`` must refuse with ``IllegalAction`` and nothing changed. Nothing
    to draw (``st.nothing()``) when nobody may act and ``hostile`` is false.

    >>> from hypothesis import given
    >>> from tamalou.testing import property_settings
    >>> @property_settings(max_examples=10)
    ... @given(st.data())
    ... def test_a_listed_action_is_accepted(data):
    ...     game = data.draw(games("french", max_actions=30))
    ...     if not game.is_over:
    ...         game.apply(data.draw(actions(game)))
    >>> test_a_listed_action_is_accepted()
    """
    listed = _listed(game, player)
    legal: st.SearchStrategy[Any] = st.sampled_from(listed) if listed else st.nothing()
    if not hostile:
        return legal
    return st.one_of(legal, any_action(game)) if listed else any_action(game)


def actions_for(game: Game | Round, player: int) -> st.SearchStrategy[Action]:
    """One of the legal actions of ``player`` now (``st.nothing()`` if they have none): ``actions(game,
    player=player)``.

    >>> import tamalou
    >>> from hypothesis import given
    >>> from tamalou.testing import property_settings
    >>> g = tamalou.new_game("french", 2, seed=1)
    >>> @property_settings(max_examples=5)
    ... @given(actions_for(g, g.current_player))
    ... def test_listed(action):
    ...     assert action in g.legal_actions(g.current_player)
    >>> test_listed()
    """
    return actions(game, player=player)


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


def any_action(game: Game | Round) -> st.SearchStrategy[object]:
    """An action for robustness tests, most often illegal: a legal action's JSON form, or one with
    a field changed, a well-typed action with random fields (players, slots and targets around the
    valid ranges; the player to move half of the time), or junk (unknown type, missing, extra or
    badly typed fields, not a dict). ``actions(game, hostile=True)`` mixes it with legal actions.

    >>> from hypothesis import given
    >>> from tamalou.testing import check_illegal_leaves_state, property_settings
    >>> @property_settings(max_examples=10)
    ... @given(st.data())
    ... def test_refusals_change_nothing(data):
    ...     game = data.draw(games("french", max_actions=30))
    ...     check_illegal_leaves_state(game, data.draw(any_action(game)))
    >>> test_refusals_change_nothing()
    """
    n = game.players
    size = max((len(h) for h in round_of(game).hands), default=0)
    focus = game.current_player
    fuzz = _fuzz(n, size, focus)[2]
    listed = [action_to_dict(a) for p in range(n) for a in game.legal_actions(p)]
    if not listed:
        return fuzz
    return st.one_of(st.sampled_from(listed), _mutated(listed, n, size, focus), fuzz)
