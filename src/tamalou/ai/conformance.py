"""The adapters' conformance checks, for any ruleset: what tamalou's own tests run on its built-in rulesets, for an
outside package to run on its own (the ``ai`` extra; PettingZoo's and OpenSpiel's suites need their packages).

- ``check_action_encoding``: in random games of the ruleset, every action listed to every seat has an id
  (``action_id``) that gives it back (``action_from_id``), ids are unique, the legal mask is exactly the listing
  (an action naming a slot beyond ``max_slots`` is the one kind left out), and the observation has its size and
  holds values in [-1, 1];
- ``check_pettingzoo``: PettingZoo's ``api_test`` and ``seed_test`` on the AEC environment
  (``tamalou.ai.pettingzoo.env``); a warning other than those PettingZoo gives for any environment whose
  observations are dicts with an action mask fails it;
- ``check_openspiel``: OpenSpiel's ``random_sim_test`` on the game (``tamalou.ai.openspiel.load``): legal actions,
  chance outcomes, observations, information states, returns, clones and serialisation;
- ``check_adapters``: the three, for the player counts given (default: the fewest and the most the ruleset allows).

Each raises ``AdapterError`` (an ``AssertionError``: a test framework reports a failed check) naming the ruleset,
the player count and what failed. In a package's tests::

    from tamalou.ai.conformance import check_adapters

    def test_my_rules_work_with_pettingzoo_and_openspiel():
        check_adapters("my-rules.toml")

or, with the pytest plugin, ``pytest --tamalou-variant my-rules.toml --tamalou-adapters``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..actions import Action, Tick
from ..engine.game import Game, new_game
from ..errors import AdapterError
from ..rulesets.loader import load_variant
from ..schema import Variant
from ..verify import random_playout
from .encoding import ActionEncodingError, ActionSpace, action_from_id, action_id, legal_mask
from .observation import Observer, observation

__all__ = ["AdapterError", "check_action_encoding", "check_adapters", "check_openspiel", "check_pettingzoo"]

#: What PettingZoo's ``api_test`` says of any environment whose observations are dicts with an action mask.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably")

VariantLike = Variant | str | Path | Sequence[str]


def _variant(variant: VariantLike) -> Variant:
    if isinstance(variant, Variant):
        return variant
    return load_variant(str(variant) if isinstance(variant, Path) else variant)


def _spec(variant: VariantLike, v: Variant) -> str:
    """What the adapters load the ruleset by: its path or name (a composition joined with ``+``)."""
    if isinstance(variant, Path):
        return str(variant)
    if isinstance(variant, str):
        return variant
    if isinstance(variant, Variant):
        spec = v.spec
        if isinstance(spec, str):
            return spec
        if isinstance(spec, list) and spec:
            return "+".join(str(s) for s in spec)
        raise AdapterError(f"{v.name}: give the ruleset by its file or name (the adapters load it by its spec)")
    return "+".join(variant)


def _counts(v: Variant, players: int | Iterable[int] | None) -> list[int]:
    if players is None:
        return sorted({v.rules.players.min, v.rules.players.max})
    return [players] if isinstance(players, int) else sorted(set(players))


def _beyond(a: Action, max_slots: int) -> bool:
    """Whether ``a`` names a slot at or beyond ``max_slots`` (the one reason an action has no id)."""
    for f in fields(a):  # type: ignore[arg-type]
        value = getattr(a, f.name)
        if f.name.endswith("slot") and type(value) is int and value >= max_slots:
            return True
        if f.name.endswith("slots") and isinstance(value, tuple) and any(s >= max_slots for s in value):
            return True
    return False


def _states(v: Variant, players: int, seed: int) -> Iterator[Game]:
    """Every state of a random game of ``seed`` (``random_playout``'s play), replayed."""
    done = random_playout(v, players, seed)
    game = new_game(v, players, seed=seed)
    for a in done.actions:
        yield game
        game.apply(a)
    yield game


def check_action_encoding(variant: VariantLike, players: int | Iterable[int] | None = None, *, games: int = 2) -> int:
    """Every listed action of every seat, at every state of ``games`` random games per player count, round-trips
    through its id; the mask and ``legal_ids`` are the listing; the observation has its size and bounds. Returns the
    number of actions checked."""
    v = _variant(variant)
    checked = 0
    for n in _counts(v, players):
        try:
            space = ActionSpace.of(v, n)
        except ActionEncodingError as exc:
            raise AdapterError(f"{v.name}, {n} players: its actions cannot all be numbered: {exc}") from exc
        size = Observer.of(v, n).size
        for seed in range(games):
            for game in _states(v, n, seed):
                where = f"{v.name}, {n} players, seed {seed}, after {len(game.actions)} actions"
                for p in range(n):
                    ids = []
                    for a in game.legal_actions(p):
                        if type(a) is Tick:
                            continue
                        try:
                            i = action_id(game, a)
                        except ActionEncodingError as exc:
                            if not _beyond(a, space.max_slots):
                                raise AdapterError(f"{where}: the listed action {a} has no id: {exc}") from exc
                            continue
                        back = action_from_id(game, i, p)
                        if back != a or type(back) is not type(a):
                            raise AdapterError(f"{where}: the action {a} has id {i}, which gives back {back}")
                        ids.append(i)
                    if len(set(ids)) != len(ids):
                        raise AdapterError(f"{where}: two actions listed to seat {p} share an id")
                    mask = legal_mask(game, p)
                    if sorted(int(i) for i in mask.nonzero()[0]) != sorted(ids) or space.legal_ids(game, p) != ids:
                        raise AdapterError(f"{where}: the legal mask of seat {p} is not its listing")
                    x = observation(game.seat_view(p), v)
                    if x.shape != (size,) or not (x.min() >= -1.0 and x.max() <= 1.0):
                        raise AdapterError(
                            f"{where}: the observation of seat {p} has shape {x.shape} (expected ({size},)) or values "
                            f"outside [-1, 1] ({x.min()} to {x.max()})"
                        )
                    checked += len(ids)
    return checked


def check_pettingzoo(variant: VariantLike, players: int | Iterable[int] | None = None, *, cycles: int = 60) -> None:
    """PettingZoo's ``api_test`` and ``seed_test`` on the environment of the ruleset, at each player count."""
    try:
        from pettingzoo.test import api_test, seed_test
    except ImportError as exc:  # pragma: no cover - the ai extra installs it
        raise ImportError(f"PettingZoo's tests need the ai extra: pip install 'tamalou[ai]' ({exc})") from exc
    from .pettingzoo import env

    v = _variant(variant)
    spec = _spec(variant, v)
    for n in _counts(v, players):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                api_test(env(spec, players=n), num_cycles=cycles)
                seed_test(lambda n=n: env(spec, players=n), num_cycles=cycles)
            except Exception as exc:
                raise AdapterError(
                    f"{v.name}, {n} players: PettingZoo's tests fail: {type(exc).__name__}: {exc}"
                ) from exc
        unexpected = sorted({str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)})
        if unexpected:
            raise AdapterError(f"{v.name}, {n} players: PettingZoo's tests warn: {'; '.join(unexpected)}")


def check_openspiel(variant: VariantLike, players: int | Iterable[int] | None = None, *, sims: int = 3) -> None:
    """OpenSpiel's ``random_sim_test`` (with serialisation) on the game of the ruleset, at each player count."""
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - the ai extra installs it
        raise ImportError(f"OpenSpiel's tests need the ai extra: pip install 'tamalou[ai]' ({exc})") from exc
    from . import openspiel

    v = _variant(variant)
    spec = _spec(variant, v)
    for n in _counts(v, players):
        try:
            game = openspiel.load(spec, n)
            pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
        except Exception as exc:
            raise AdapterError(
                f"{v.name}, {n} players: OpenSpiel's random_sim_test fails: {type(exc).__name__}: {exc}"
            ) from exc


def check_adapters(variant: VariantLike, players: int | Iterable[int] | None = None, **options: Any) -> None:
    """``check_action_encoding``, ``check_pettingzoo`` and ``check_openspiel`` on the ruleset (``options``: their
    ``games``, ``cycles`` and ``sims``)."""
    check_action_encoding(variant, players, **{k: v for k, v in options.items() if k == "games"})
    check_pettingzoo(variant, players, **{k: v for k, v in options.items() if k == "cycles"})
    check_openspiel(variant, players, **{k: v for k, v in options.items() if k == "sims"})
