"""What ``pytest --tamalou-variant`` runs on a ruleset, and the standard hypothesis properties.

- ``run_invariants``: ``tamalou verify``'s games of a ruleset (``tamalou.verify.verify``, every invariant of
  ``INVARIANTS`` checked the way verify checks it: ``check_game``), read back by invariant name
  (``InvariantRun``): the plugin collects one item per name of ``INVARIANTS`` and each fails with the
  simplest game that broke its invariant, the command that plays that game again, and the
  ``tamalou.replay`` call that rebuilds the state.
- the ``small_deals`` property (``check_property("small_deals", ...)``): what verify does not deal, tiny
  stacked deals (empty stocks, penalties with no card left) and their rounds drawn by hypothesis, checked
  against every invariant of ``INVARIANTS`` as ``tamalou replay`` checks a recorded game
  (``tamalou.verify.reproduce``); a failure shrinks to a small deal. The plugin's ``small_deals`` item.
- the ``matches`` property: whole matches of a ruleset of several rounds (``tamalou.verify.check_match``); the
  plugin runs the same check as verify's invariant ``match``.
- ``PROPERTIES`` and ``check_property``: the standard properties of a ruleset as hypothesis tests (each a
  function of hypothesis's data), for a project's own tests; ``pytest --tamalou-variant`` collected them
  before it ran verify's invariants (it still runs ``small_deals``).
"""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from ..actions import Action
from ..engine.game import Game, new_game, round_of
from ..schema import Variant
from ..verify import (
    GAME_TIMEOUT,
    INVARIANTS,
    TIMEOUT_INVARIANT,
    TIMEOUT_WORDS,
    Failure,
    GameTimeout,
    InvariantViolation,
    VerifyReport,
    alarm,
    available,
    check_accepted_is_listed,
    check_conservation,
    check_illegal_leaves_state,
    check_knowledge,
    check_legal_actions_accepted,
    check_match,
    check_no_leak,
    check_replay,
    check_result,
    check_snapshot_roundtrip,
    reproduce,
    shortest,
    step_bound,
    verify,
)
from .playing import BUDGET, MATCH_STYLES, moves, replay_note, variant_ref
from .profiles import property_settings
from .rulesets import VariantArg, load_variant_arg
from .strategies import any_action, dealt_games, draw_players, draw_variant, games, stacked_games


def _played(data: st.DataObject, v: VariantArg, players: int | None, max_actions: int = 80) -> Game:
    style = replace(data.draw(MATCH_STYLES), call_probability=data.draw(st.sampled_from([0.05, 0.2])))
    game: Game = data.draw(
        games(
            v,
            players,
            max_actions=max_actions,
            style=style,
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
    played: Game = data.draw(moves(game, calls=calls, on_step=on_step), label="the end of the round")
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
    """Tiny stacked deals, played to the end by hypothesis, then checked against every invariant of
    ``INVARIANTS`` as ``tamalou replay`` checks a recorded game (``tamalou.verify.reproduce``): the ``"step"``
    ones after every action, the others on the state reached, at a drawn step and at the end (the ``"end"``
    ones there; not the ``"run"`` ones, which ``tamalou verify`` checks once per run: they start processes)."""
    game: Game = data.draw(stacked_games(v, players, max_stock=6), label="game")
    _to_the_end(data, game)
    table = round_of(game)
    at = data.draw(st.integers(0, len(table.actions)), label="the sampled step")
    first = table.first_player if table.first_given else None
    for actions in (table.actions[:at], table.actions):
        found = reproduce(
            table.variant,
            table.players,
            actions,
            None,
            seed=table.seed,
            deal=table.deal_spec,
            first_player=first,
            thorough=False,
        )
        broken = found.violation
        if found.refused is not None and broken is None:
            i, reason = found.refused
            broken = InvariantViolation(
                f"the recorded action {i} was refused when played again: {reason}", invariant="replay"
            )
        if broken is not None:
            from hypothesis import note

            note(f"the round: {replay_note(game)}")
            note(f"the state that broke: after {found.applied} of its actions")
            name = broken.invariant
            message = str(broken) if not name or str(broken).startswith(f"{name}: ") else f"{name}: {broken}"
            raise InvariantViolation(message, invariant=name, actions=actions) from broken


def _p_matches(data: st.DataObject, v: VariantArg, players: int | None) -> None:
    """Whole matches (``tamalou.verify.check_match``): a match of the ruleset dealt from a drawn seed, played by
    random players, each round checked when it ends, then the match (its totals add up, it ends as its form says,
    its hooks' answers, its snapshot and replay). A ruleset of one round plays a match of one round."""
    variant = draw_variant(data.draw, v)
    n = draw_players(data.draw, variant, players)
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    ends = {inv.name: inv for inv in INVARIANTS.values() if inv.when == "end" and inv.name != "replay"}
    try:
        check_match(variant, n, seed, ends=ends)
    except InvariantViolation:
        from hypothesis import note

        note(f"the match: tamalou.new_match({variant_ref(variant)}, {n}, seed={seed})")
        raise


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
    "matches": _p_matches,
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
        "matches": "whole matches add up, end as their form says and restore: the match hooks' answers are sound",
    }
)


def check_property(
    name: str,
    variant: str | Path | Variant | Sequence[str],
    *,
    max_examples: int | None = None,
    players: int | None = None,
    profile: str | None = None,
    seed: int | None = 0,
    timeout: float | None = GAME_TIMEOUT,
) -> None:
    """Run the standard property ``name`` (a key of ``PROPERTIES``) on ``variant`` with hypothesis:
    ``max_examples`` random games (default: the profile's), ``players`` a count or ``None`` for
    every count the ruleset allows, with the settings of ``profile`` (see ``property_settings``).
    Raises the shrunk failure (an ``InvariantViolation``, with hypothesis's notes: the
    ``tamalou.replay`` call that rebuilds the game).

    The examples are drawn from ``seed`` (``hypothesis.seed``: the same on every run, as ``tamalou verify``'s games
    are; ``None``: hypothesis draws them at random), and each runs within ``timeout`` seconds, as a game of
    ``tamalou verify`` (``None``: no limit; the limit needs ``signal.setitimer`` and the main thread): an example
    stopped by it fails the property at once (``termination``, the hook or the plugin's line where it was stuck),
    unshrunk, since each try could take as long.

    >>> check_property("conservation", "french", max_examples=5)
    >>> sorted(PROPERTIES)[:3]
    ['conservation', 'illegal_untouched', 'knowledge']
    """
    if name not in _PROPERTY_FUNCTIONS:
        raise ValueError(f"unknown property {name!r}: expected one of {', '.join(PROPERTIES)}")
    v = load_variant_arg(variant)
    body = _PROPERTY_FUNCTIONS[name]
    changes: dict[str, Any] = {} if max_examples is None else {"max_examples": max_examples}

    # The strategies get the spec the ruleset was loaded by, when it has one: a short repr in reports.
    spec: Any = v.spec if isinstance(v.spec, str) or (isinstance(v.spec, list) and v.spec) else v

    limited = timeout is not None and available()

    def run(data: st.DataObject) -> None:
        if not limited:
            body(data, spec, players)
            return
        assert timeout is not None
        with alarm(timeout, tuple(v.plugins), None):
            body(data, spec, players)

    run.__name__ = run.__qualname__ = name
    test = property_settings(profile, **changes)(_given(run))
    if seed is not None:
        from hypothesis import seed as seeded

        test = seeded(seed)(test)
    # One database key per property and ruleset: a failure is replayed first on the next run.
    inner = getattr(getattr(test, "hypothesis", None), "inner_test", None)
    if inner is not None:
        inner._hypothesis_internal_add_digest = f"tamalou:{name}:{json.dumps(v.model_dump(mode='json'))}".encode()
    try:
        test()
    except GameTimeout as stop:  # (a BaseException: hypothesis lets it through, unshrunk)
        said = f"{name}: {TIMEOUT_WORDS} ({timeout:g} s a game): {stop.where}"
        raise InvariantViolation(said, invariant=TIMEOUT_INVARIANT) from None


def _given(fn: Callable[[st.DataObject], None]) -> Callable[[], None]:
    from hypothesis import given

    wrapped: Callable[[], None] = given(data=st.data())(fn)
    return wrapped


# ----------------------------------------------------------------------------- verify's invariants, by name


#: The longest failing game an ``InvariantRun`` prints as a ``tamalou.replay`` call (a longer one is left to
#: ``tamalou verify``, which shrinks it).
REPLAY_ACTIONS = 120


@dataclass
class InvariantRun:
    """``tamalou verify``'s games of a ruleset (``report``: ``games`` games from ``seed``, for ``players`` or
    every count in turn), read by invariant name: what the items of ``pytest --tamalou-variant`` report.
    ``command`` names the ruleset in the ``tamalou verify`` command that plays a failing game again,
    ``ref`` in the ``tamalou.replay`` call that rebuilds its state."""

    report: VerifyReport
    games: int
    seed: int
    players: int | None
    command: str
    ref: str

    def checks(self, name: str) -> int:
        """How many times ``name`` was checked, over every game."""
        return self.report.checks.get(name, 0)

    def failures(self, name: str) -> list[Failure]:
        """The games that broke ``name``, in their order."""
        return [f for f in self.report.details if f.invariant == name]

    def reproduce(self, failure: Failure) -> str:
        """The command that plays the game of ``failure`` again, alone (verify's games are known by
        their seed and player count: the style of play follows from the seed)."""
        return f"tamalou verify {shlex.quote(self.command)} --games 1 --seed {failure.seed} --players {failure.players}"

    def violation(self, name: str) -> InvariantViolation | None:
        """``None`` if ``name`` held in every game; else the failure of its simplest failing game (the fewest
        actions, then the fewest players: the game ``tamalou verify`` would shrink, ``shortest``), with notes: how many
        games broke it, the command that plays that game again, and the ``tamalou.replay`` call that
        rebuilds the state that broke."""
        failed = self.failures(name)
        if not failed:
            return None
        first = shortest(failed)
        exc = InvariantViolation(f"{name}: {first.message}", invariant=name)
        others = ", ".join(f"seed {f.seed} ({f.players} players)" for f in failed if f is not first)
        exc.add_note(
            f"{name} failed in {len(failed)} of {self.report.games} games"
            + (f" (also {_shorten(others)})" if others else "")
            + f"; this one: seed {first.seed}, {first.players} players, after {len(first.actions)} actions"
        )
        exc.add_note(f"reproduce: {self.reproduce(first)} (it writes the game shrunk, for tamalou replay)")
        if len(first.actions) <= REPLAY_ACTIONS:
            actions = json.dumps(first.actions)
            call = f"tamalou.replay({self.ref}, {first.players}, seed={first.seed}, actions={actions})"
            exc.add_note(f"the state that broke: {call}")
        return exc

    def unchecked(self, name: str) -> str | None:
        """Why ``name`` was never checked (every game broke another invariant first, or no game was played),
        or ``None`` if it was."""
        if self.checks(name):
            return None
        if not self.report.games:
            return "no game was played"
        before = sorted({f.invariant for f in self.report.details})
        if len(self.report.details) == self.report.games and before:
            return f"not checked: every game broke {', '.join(before)} before {name} was checked"
        return f"not checked: none of the {self.report.games} games checked it"


def _shorten(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3].rsplit(", ", 1)[0] + ", ..."


def run_invariants(
    variant: str | Path | Variant | Sequence[str],
    *,
    games: int = 100,
    seed: int = 0,
    players: int | None = None,
    workers: int = 1,
    command: str | None = None,
) -> InvariantRun:
    """Play ``games`` games of ``variant`` as ``tamalou verify`` does (``tamalou.verify.verify``: game ``i``
    dealt with seed ``seed + i`` for ``players``, else every count the ruleset allows in turn; every invariant
    of ``INVARIANTS`` checked by ``check_game``: the ``"step"`` ones after every action, the ``"sample"`` ones
    at sampled states, the ``"end"`` ones on the finished round, the ``"game"`` ones over the whole game),
    with every failing game kept (no ``max_failures``). ``command`` is how the reproduce command names the
    ruleset (default: its file or names, ``a+b`` for a composition).

    >>> run = run_invariants("french", games=3)
    >>> run.checks("conservation") > 0, run.violation("slot_order") is None
    (True, True)
    """
    v = load_variant_arg(variant)
    spec = v.spec
    if command is None:
        if isinstance(spec, str | Path):
            command = str(spec)
        elif isinstance(spec, list | tuple) and spec:
            command = "+".join(str(s) for s in spec)
        else:
            command = v.name
    ref = variant_ref(v, repr(v.name))  # how a tamalou.replay call names it
    report = verify(
        v, games=games, seed=seed, players=players, workers=workers, max_failures=None, timeout=GAME_TIMEOUT
    )
    return InvariantRun(report, games, seed, players, command, ref)
