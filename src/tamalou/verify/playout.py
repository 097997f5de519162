"""Random playouts: ``play_out`` plays a game to its end with a ``Chooser``'s random choices (checking
the invariants on the way if asked: ``check_every``), and ``random_playout`` deals a game of a ruleset
and plays it so; ``tamalou verify`` plays its game of seed ``s`` as ``random_playout`` would."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..actions import Action
from ..engine.game import Game, GameOrRound, game_of, round_of
from ..engine.round import new_round
from ..errors import IllegalAction, what_raised
from ..resolver import resolve
from ..schema import Variant
from .bounds import TurnWatch, not_ended, stalled, step_bound, turn_bound
from .checks_cards import check_conservation, check_slot_order
from .checks_knowledge import check_step_knowledge
from .checks_round import check_replay, check_result, check_snapshot_roundtrip
from .chooser import PLAIN, Chooser, PlayStyle, RandomChooser, choose_action
from .registry import check_all
from .violation import InvariantViolation, describe_action, violation_of


def play_out(
    game: GameOrRound,
    chooser: Chooser,
    style: PlayStyle = PLAIN,
    *,
    check_every: int = 0,
    check_rng: random.Random | None = None,
    max_steps: int | None = None,
    on_step: Callable[[GameOrRound, Action], None] | None = None,
) -> GameOrRound:
    """Play ``game`` (a ``Game`` or a ``Round``) to its end with random choices in ``style`` (see ``choose_action``) and
    return it; ``on_step(game, action)`` is called after each action with the object given.

    Conservation and ``knowledge_events`` are checked after every step when ``check_every > 0``,
    and every check of ``check_all`` at the start, every ``check_every`` steps and at the end (with
    ``check_rng``, which never changes the choices: the same chooser plays the same game whatever
    is checked); the snapshot round trip through a fresh load of the variant at the start and the
    end, and ``check_result``, ``check_slot_order`` and ``check_replay`` at the end. The round must
    end within ``max_steps`` actions (default: ``step_bound(game)`` actions in all, no turn longer
    than ``turn_bound(game)`` or coming back to a state it was in, none past ``rules.end.max_turns``).
    A listed action that ``apply`` refuses is a ``listed_accepted`` violation; one that raises anything
    else (a plugin's hook) a ``no_crash`` violation whose ``pending`` is that action.
    """
    rd = round_of(game)
    bound = step_bound(rd) if max_steps is None else max_steps
    per_turn = turn_bound(rd) if max_steps is None else None
    check_rng = check_rng if check_rng is not None else random.Random(0)
    steps = 0
    turn, since = rd.turn, 0
    watch = TurnWatch(rd)
    try:
        if check_every > 0:
            check_all(rd, check_rng)
            check_snapshot_roundtrip(rd, check_rng)
        while not rd.is_over:
            problem = not_ended(rd, bound) if steps >= bound else stalled(rd, since, None, per_turn)
            if problem is not None:
                raise violation_of(rd, problem, "termination")
            try:
                action = choose_action(rd, chooser, style)
            except InvariantViolation:
                raise
            except Exception as exc:
                raise violation_of(rd, f"listing the legal actions raised {what_raised(exc)}", "no_crash") from exc
            before = list(rd.knowers) if check_every > 0 else None
            try:
                events = rd.apply(action)
            except IllegalAction as exc:
                raise violation_of(
                    rd, f"the listed action {describe_action(action)} was refused: {exc}", "listed_accepted"
                ) from None
            except Exception as exc:
                crash = violation_of(
                    rd,
                    f"the listed action {describe_action(action)} crashed: {what_raised(exc)}",
                    "no_crash",
                )
                crash.pending = action
                raise crash from exc
            steps += 1
            turn, since = rd.turn, 0 if rd.turn != turn else since + 1
            cycle = watch.step(rd)
            if cycle is not None:
                raise violation_of(rd, cycle, "termination")
            if on_step is not None:
                on_step(game, action)
            if before is not None:
                check_conservation(rd)
                check_step_knowledge(rd, before, events)
                if steps % check_every == 0 or rd.is_over:
                    check_all(rd, check_rng)
        if check_every > 0:
            check_result(rd)
            check_slot_order(rd, check_rng)
            check_replay(rd)
            check_snapshot_roundtrip(rd, check_rng)
    except InvariantViolation as exc:
        exc.actions = list(rd.actions)
        raise
    return game


def random_playout(
    variant: Variant | str | Sequence[str],
    players: int,
    seed: int,
    style: PlayStyle = PLAIN,
    *,
    rng: random.Random | None = None,
    check_every: int = 0,
    max_steps: int | None = None,
) -> Game:
    """A random game of ``variant`` dealt with ``seed``, played to its end in ``style``, returned finished.

    Each step picks a random player (the current one, or with probability ``out_of_turn`` any
    player who has a legal action) and a random legal action of theirs (see ``choose_action``),
    drawn from ``rng`` (default ``random.Random(seed)``). With ``check_every = k > 0`` every
    invariant is checked every k steps (conservation and ``knowledge_events`` at every step); the
    checks never change the game played: ``tamalou verify`` plays its game of seed ``s`` as
    ``random_playout(v, n, s, style_of(s))``.
    Raises ``InvariantViolation`` if the round does not end within ``step_bound``.

    >>> g = random_playout("french", players=4, seed=1)
    >>> g.is_over
    True
    """
    game = game_of(new_round(resolve(variant), players, seed=seed))
    chooser = RandomChooser(rng if rng is not None else random.Random(seed))
    return play_out(
        game,
        chooser,
        style,
        check_every=check_every,
        check_rng=random.Random(f"checks-{seed}"),
        max_steps=max_steps,
    )
