"""One game of ``tamalou verify``, checked against every invariant: ``check_game`` and its ``GameReport``
(a ``Failure`` if it broke an invariant), and the playing styles of the random games (``style_of``).

**How a game is checked** (``check_game``). The game of seed ``s`` is played as
``random_playout(variant, players, s, style_of(s))`` would (the style: one game in ten matches a lot,
one in ten never calls, two in ten play for a low total, one in ten always makes the same kind of
choice, the others call at random), with conservation, ``knowledge_events``, ``event_schema``,
``knowledge_follows_moves`` and ``no_crash`` checked after every action, ``termination`` over the whole
game (a turn too long, or one that comes back to a state it was in: ``TurnWatch``), and ``events_kept``
(every event as it was sent, compared at the end). Then it is played
again from its seed, the actions in their JSON form (the ``replay`` check compares the two), and the
``"sample"`` invariants are checked at ``samples`` states drawn at random (and at the start and the
end): the cost of a game is linear in its actions, however long it runs. The ``"end"`` invariants
check the finished round. For a ruleset of several rounds, one game in ``MATCH_EVERY`` then plays the whole match
of its seed (the invariant ``match``: ``match_check``). A game stops at its first failure.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, action_to_dict
from ..engine import Round
from ..errors import IllegalAction
from ..resolver import resolve
from ..schema import Variant
from .bounds import TurnWatch, stalled, step_bound, turn_bound
from .checks_cards import check_conservation
from .checks_events import check_event_schema, check_moves_known, places
from .checks_knowledge import check_step_knowledge
from .checks_round import check_snapshot_roundtrip, check_termination
from .checks_sent import SentEvents
from .chooser import PLAIN, PlayStyle, RandomChooser, choose_action, style_of
from .determinism import game_digest
from .match_check import plays_matches
from .registry import INVARIANTS
from .violation import InvariantViolation, violation_of

#: States of each game at which the ``"sample"`` invariants are checked (besides the start and the end).
SAMPLES = 12

#: For a ruleset of several rounds, one game in how many (those whose number is a multiple: the first always) also
#: plays the whole match of its seed (the invariant ``match``).
MATCH_EVERY = 4


@dataclass
class Failure:
    """One failing game of ``verify``: game number ``index`` of the run, dealt with ``seed`` for
    ``players``, played in ``style`` (a ``PlayStyle``; a dict of its fields is read as one); the ``invariant`` that
    broke (a key of ``INVARIANTS``) and the ``message``; ``actions``: the game's actions (their JSON
    form) up to the state that broke it, and for ``no_crash`` the action that crashed last."""

    seed: int
    players: int
    invariant: str
    message: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    style: PlayStyle = PLAIN
    index: int = 0

    def __post_init__(self) -> None:
        self.style = PlayStyle.of(self.style)


@dataclass
class GameReport:
    """What checking one game found: its ``actions``, how the round ended (``reason``; ``None`` if it
    failed first), the checks run by invariant name, its ``failure`` if any, and the ``digest`` of the
    game played (``determinism.game_digest``: compared with the same game played in a fresh process)."""

    index: int
    seed: int
    players: int
    actions: int = 0
    reason: str | None = None
    checks: dict[str, int] = field(default_factory=dict)
    failure: Failure | None = None
    digest: str = ""
    #: The moves played (action type -> count) and the card powers used (name -> count: a first step each).
    moves: dict[str, int] = field(default_factory=dict)
    powers: dict[str, int] = field(default_factory=dict)


#: The actions of every turn: the states before the others (a power, its second step, a give, a plugin's own move)
#: are where a rule of a plugin acts, and are checked besides the sampled ones (``Invariant.before_rare``).
COMMON_ACTIONS = frozenset(("draw", "discard", "replace", "pass", "match", "call", "tick", "peek"))

#: At most how many states before a rarer action are checked in one game.
RARE_SAMPLES = 8


def _rare_positions(actions: Sequence[Action], seed: int) -> set[int]:
    """The numbers of actions after which a rarer action (not of ``COMMON_ACTIONS``) was played: at most
    ``RARE_SAMPLES``, drawn from the game's seed."""
    rare = [k for k, a in enumerate(actions) if a.type not in COMMON_ACTIONS]
    if len(rare) <= RARE_SAMPLES:
        return set(rare)
    return set(random.Random(f"rare/{seed}").sample(rare, RARE_SAMPLES))


def _sample_positions(length: int, seed: int, samples: int, check_every: int | None) -> set[int]:
    """The numbers of actions after which the ``"sample"`` invariants are checked."""
    if check_every is not None:
        return set(range(0, length + 1, check_every)) | {length}
    rng = random.Random(f"samples/{seed}")
    return set(rng.sample(range(length + 1), min(samples, length + 1))) | {0, length}


def check_game(
    variant: Variant | str | Sequence[str],
    players: int,
    seed: int,
    *,
    style: PlayStyle | Mapping[str, Any] | None = None,
    samples: int = SAMPLES,
    check_every: int | None = None,
    index: int = 0,
) -> GameReport:
    """Play the game of ``seed`` for ``players`` (in ``style``; default ``style_of(seed)``) and check
    every invariant on it (see the module's documentation). Never raises for a broken rule: the
    failure is in the report, with the actions that lead to it."""
    v = resolve(variant)
    style = style_of(seed) if style is None else PlayStyle.of(style)
    report = GameReport(index, seed, players)
    moves: Counter[str] = Counter()
    powers: Counter[str] = Counter()
    offered = ""  # the power last offered (its events say which)
    checks: Counter[str] = Counter()

    def failed(invariant: str, message: str, actions: Iterable[Action | dict[str, Any]]) -> GameReport:
        report.checks = dict(checks)
        report.moves, report.powers = dict(moves), dict(powers)
        dicts = [a if isinstance(a, dict) else action_to_dict(a) for a in actions]
        report.actions = len(dicts)
        report.failure = Failure(seed, players, invariant, message, dicts, style, index)
        return report

    # Pass 1: play, checking every step.
    try:
        game = Round(v, players, seed=seed)
        events = game.start()
    except Exception as exc:
        checks["no_crash"] += 1
        return failed("no_crash", f"new_game raised {type(exc).__name__}: {exc}", [])
    chooser = RandomChooser(random.Random(seed))
    bound, per_turn = step_bound(game), turn_bound(game)
    turn, since = game.turn, 0
    before = [0] * len(game.knowers)
    where = places(game)
    watch = TurnWatch(game)
    sent = SentEvents(game)
    try:
        while True:
            sent.add(game, events)
            checks["conservation"] += 1
            check_conservation(game)
            checks["knowledge_events"] += 1
            check_step_knowledge(game, before, events)
            checks["event_schema"] += 1
            check_event_schema(game, events)
            checks["knowledge_follows_moves"] += 1
            check_moves_known(game, where, before, events)
            if game.is_over:
                break
            if stalled(game, since, bound, per_turn) is not None:
                checks["termination"] += 1
                check_termination(game, bound=bound, turn_actions=since)  # raises: the round does not end
            checks["no_crash"] += 1
            try:
                action = choose_action(game, chooser, style)
            except InvariantViolation:
                raise
            except Exception as exc:
                raise InvariantViolation(
                    f"listing the legal actions raised {type(exc).__name__}: {exc}", invariant="no_crash"
                ) from exc
            before, where = list(game.knowers), places(game)
            moves[action.type] += 1
            if action.type == "power" and game.phase != "swap":  # a power's first step: the power on offer
                powers[offered] += 1
            try:
                events = game.apply(action)
            except IllegalAction as exc:
                checks["listed_accepted"] += 1
                raise InvariantViolation(
                    f"the listed action {json.dumps(action_to_dict(action))} was refused: {exc}",
                    invariant="listed_accepted",
                ) from None
            except Exception as exc:
                raise InvariantViolation(
                    f"the listed action {json.dumps(action_to_dict(action))} crashed: {type(exc).__name__}: {exc}",
                    invariant="no_crash",
                    pending=action,
                ) from exc
            for e in events:
                if e.type in ("power_offered", "power_passed"):
                    offered = e.data["power"]
            turn, since = game.turn, 0 if game.turn != turn else since + 1
            cycle = watch.step(game)
            if cycle is not None:
                checks["termination"] += 1
                raise violation_of(game, cycle, "termination")
        checks["termination"] += 1
        checks["events_kept"] += 1
        sent.check(game)
    except InvariantViolation as exc:
        pending = [exc.pending] if exc.pending is not None else []
        return failed(exc.invariant or "no_crash", str(exc), [*game.actions, *pending])
    report.actions = len(game.actions)
    report.reason = game.reason
    report.digest = game_digest(game)
    report.moves, report.powers = dict(moves), dict(powers)

    # Pass 2: play it again from its seed, the actions in their JSON form, checking sampled states.
    positions = _sample_positions(len(game.actions), seed, samples, check_every)
    rare = _rare_positions(game.actions, seed) - positions
    sampled = [inv for inv in INVARIANTS.values() if inv.when == "sample"]
    before_rare = [inv for inv in sampled if inv.before_rare]
    again = Round(v, players, seed=seed)
    again.start()
    played: list[Action | None] = [*game.actions, None]
    for k, step in enumerate(played):
        if k in positions or k in rare:
            for inv in sampled if k in positions else before_rare:
                checks[inv.name] += 1
                try:
                    inv(again)
                except InvariantViolation as exc:
                    return failed(exc.invariant or inv.name, str(exc), again.actions)
                except Exception as exc:
                    return failed(inv.name, f"checking {inv.name} raised {type(exc).__name__}: {exc}", again.actions)
        if step is not None:
            try:
                again.apply(action_to_dict(step))
            except Exception as exc:
                checks["replay"] += 1
                message = f"replaying the game from its seed, action {k} ({action_to_dict(step)}) raised {exc!r}"
                return failed("replay", message, game.actions)
    checks["replay"] += 1
    if again.to_json() != game.to_json():
        return failed("replay", "the game played again from its seed and actions differs", game.actions)

    # The finished round.
    for inv in INVARIANTS.values():
        if inv.when == "end" and inv.name != "replay":
            checks[inv.name] += 1
            try:
                inv(game)
            except InvariantViolation as exc:
                return failed(exc.invariant or inv.name, str(exc), game.actions)
            except Exception as exc:
                return failed(inv.name, f"checking {inv.name} raised {type(exc).__name__}: {exc}", game.actions)
    checks["snapshot"] += 1
    try:
        check_snapshot_roundtrip(game, random.Random(seed))  # the variant loaded again, as a fresh process does
    except InvariantViolation as exc:
        return failed(exc.invariant or "snapshot", str(exc), game.actions)
    except Exception as exc:
        return failed("snapshot", f"restoring the finished game raised {type(exc).__name__}: {exc}", game.actions)

    # The whole match of its seed, for a ruleset of several rounds.
    if plays_matches(v) and index % MATCH_EVERY == 0:
        checks["match"] += 1
        try:
            INVARIANTS["match"](game)
        except InvariantViolation as exc:
            return failed("match", str(exc), [])
        except Exception as exc:
            return failed("match", f"playing the match raised {type(exc).__name__}: {exc}", [])
    report.checks = dict(checks)
    return report
