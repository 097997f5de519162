"""The checks of a round as a whole: ``check_snapshot_roundtrip`` (``from_json(to_json())`` is the same
game and plays on identically), ``check_replay`` (``tamalou.replay`` of the seed and actions rebuilds it),
``check_result`` (a finished round's result is consistent) and ``check_termination`` (the round ends
within ``turn_bound`` and ``step_bound``, and no turn comes back to a state it was in) with
``check_played_turns`` (the same, on the actions already played)."""

from __future__ import annotations

import random

from ..actions import action_to_dict
from ..engine.game import Game, round_of
from ..engine.round import Round, replayed
from ..errors import IllegalAction
from ..schema import Variant
from .bounds import TurnWatch, stalled, step_bound, turn_bound
from .chooser import RandomChooser, choose_action
from .violation import (
    check_rng,
    dealt_again,
    describe_action,
    json_diff,
    state_diff,
    state_of,
    value_diff,
    violation_of,
)


def check_snapshot_roundtrip(
    game: Game | Round,
    rng: random.Random | None = None,
    *,
    steps: int = 3,
    variant: Variant | None = None,
    snapshot: str | None = None,
) -> None:
    """``Round.from_json(g.to_json())`` is the same game: the same JSON, and played on with the same
    next ``steps`` random legal actions (chosen with ``rng``), the same events, views and JSON.
    ``game`` itself is not changed (a copy plays on). ``variant`` is passed to ``from_json``
    (``None``: loaded by the name the snapshot holds, as a fresh process does). ``snapshot``:
    ``game.to_json()`` if the caller has it already.

    >>> from tamalou import new_game
    >>> check_snapshot_roundtrip(new_game("french", players=3, seed=6), random.Random(0))
    """
    game = round_of(game)
    rng = rng if rng is not None else random.Random(0)
    snapshot = game.to_json() if snapshot is None else snapshot
    restored = Round.from_json(snapshot, variant, trusted=True)
    again = restored.to_json()
    if again != snapshot:
        raise violation_of(game, f"from_json(to_json()) is not the same game: {json_diff(snapshot, again)}", "snapshot")
    original = game.copy()
    copied = original.to_json()
    if copied != snapshot:
        raise violation_of(game, f"game.copy() is not the same game: {json_diff(snapshot, copied)}", "snapshot")
    chooser = RandomChooser(rng)
    for step in range(steps):
        if original.is_over:
            break
        action = choose_action(original, chooser)
        e1 = [e.to_dict() for e in original.apply(action)]
        try:
            e2 = [e.to_dict() for e in restored.apply(action)]
        except IllegalAction as exc:
            raise violation_of(
                game, f"after from_json, step {step + 1}: {describe_action(action)} is refused: {exc}", "snapshot"
            ) from None
        if e1 != e2:
            raise violation_of(
                game,
                f"after from_json, step {step + 1}: {describe_action(action)} gives other events: {value_diff(e1, e2)}",
                "snapshot",
            )
    differ = state_diff(state_of(original), state_of(restored))  # ``copy`` was checked above
    if differ is not None:
        raise violation_of(game, f"from_json, then the same {steps} actions: the games differ: {differ}", "snapshot")
    for p in range(game.players):
        v1, v2 = original.view(p).model_dump(mode="json"), restored.view(p).model_dump(mode="json")
        if v1 != v2:
            raise violation_of(
                game, f"after from_json, player {p}'s view differs: {value_diff(v1, v2, 'view')}", "snapshot"
            )


def check_replay(game: Game | Round, *, first_player: int | None = None) -> None:
    """``tamalou.replay`` of the game's seed, deal and actions (in their JSON form, as a client
    would send them) rebuilds exactly the same game. Pass the ``first_player`` the game was
    created with, if one was given; for a stacked deal without it, both ways are tried (the game
    does not record whether its first player was given or drawn).

    >>> from tamalou.verify import random_playout
    >>> check_replay(random_playout("french", players=3, seed=8))
    """
    game = round_of(game)
    actions = [action_to_dict(a) for a in game.actions]
    tries: list[int | None] = [first_player]
    if first_player is None and game.deal_spec is not None:
        tries.append(game.first_player)
    before = game.to_json()
    problems: list[str] = []
    for fp in tries:
        try:
            rebuilt = replayed(
                game.variant, game.players, seed=game.seed, actions=actions, deal=game.deal_spec, first_player=fp
            )
        except IllegalAction as exc:
            problems.append(f"first_player={fp}: an action is refused: {exc}")
            continue
        after = rebuilt.to_json()
        if after == before:
            return
        problems.append(f"first_player={fp}: {json_diff(before, after)}")
    raise violation_of(game, "replay of the same seed and actions differs: " + "; ".join(problems), "replay")


def check_result(game: Game | Round) -> None:
    """A finished round's result is consistent: the totals and card counts are the layouts', the
    ranking places every player exactly once, every winner is in the first place, the caller is
    the game's, every view shows it, nobody may act, and the turn bound holds.

    >>> from tamalou.verify import random_playout
    >>> check_result(random_playout("french", players=2, seed=9))
    """
    game = round_of(game)
    if not game.is_over:
        raise violation_of(game, "the round is not over", "result")
    r = game.result()
    players = list(range(game.players))
    totals = [game.total(p) for p in players]
    if r.totals != totals:
        raise violation_of(game, f"result totals {r.totals} but the layouts add up to {totals}", "result")
    counts = [game.card_count(p) for p in players]
    if r.card_counts != counts:
        raise violation_of(game, f"result card_counts {r.card_counts} but the layouts hold {counts}", "result")
    ranked = sorted(p for place in r.ranking for p in place)
    if ranked != players or any(not place for place in r.ranking):
        raise violation_of(
            game, f"ranking {r.ranking} does not place each of the {game.players} players once", "result"
        )
    if r.winners and not set(r.winners) <= set(r.ranking[0]):
        raise violation_of(game, f"winners {r.winners} are not all in the first place of ranking {r.ranking}", "result")
    if r.caller != game.caller:
        raise violation_of(game, f"result caller {r.caller} but game.caller is {game.caller}", "result")
    if not r.reason:
        raise violation_of(game, "the result gives no reason", "result")
    if len(r.scores) != game.players:
        raise violation_of(game, f"{len(r.scores)} scores for {game.players} players", "result")
    max_turns = game.variant.rules.end.max_turns
    if game.turn > max_turns:
        raise violation_of(game, f"{game.turn} turns played, more than rules.end.max_turns = {max_turns}", "result")
    dumped = r.model_dump(mode="json")
    for p in players:
        seen = game.view(p).result
        if seen is None or seen.model_dump(mode="json") != dumped:
            raise violation_of(game, f"player {p}'s view does not show the result", "result")
        if game.legal_actions(p):
            raise violation_of(game, f"the round is over but player {p} still has legal actions", "result")


def check_termination(
    game: Game | Round, rng: random.Random | None = None, *, bound: int | None = None, turn_actions: int = 0
) -> None:
    """The round ends: played on (a copy) with random legal actions (``choose_action``, drawn with
    ``rng``; default: seeded from the game), no turn takes ``turn_bound(game)`` actions, no turn is
    played past ``rules.end.max_turns``, and the round is over before it has taken ``bound`` actions
    in all (default ``step_bound(game)``); no turn comes back to a state it was in (a cycle: see
    ``TurnWatch``). The actions the game has already played are checked first (``check_played_turns``).
    ``turn_actions``: how many actions the turn in play had taken already, if the caller knows.

    >>> from tamalou import new_game
    >>> check_termination(new_game("french", players=2, seed=3))
    """
    game = round_of(game)
    check_played_turns(game)
    bound = step_bound(game) if bound is None else bound
    per_turn = turn_bound(game)
    g = game.copy()
    chooser = RandomChooser(rng if rng is not None else check_rng(game, "termination"))
    turn, since = g.turn, turn_actions
    watch = TurnWatch(g)
    while not g.is_over:
        problem = stalled(g, since, bound, per_turn)
        if problem is not None:
            raise violation_of(g, problem, "termination")
        g.apply(choose_action(g, chooser))
        turn, since = g.turn, 0 if g.turn != turn else since + 1
        cycle = watch.step(g)
        if cycle is not None:
            raise violation_of(g, cycle, "termination")


def check_played_turns(game: Game | Round) -> None:
    """``termination`` on the actions ``game`` has played: played again from its deal, no turn took
    ``turn_bound(game)`` actions or came back to a state it was in (``TurnWatch``), none was played past
    ``rules.end.max_turns``. A turn that a player kept going by always making the same choice (a "play again"
    power always used) is found so, however a random player would have gone on.

    >>> from tamalou.verify import random_playout
    >>> check_played_turns(random_playout("french", players=3, seed=2))
    """
    game = round_of(game)
    g = dealt_again(game)
    g.start()
    per_turn = turn_bound(g)
    turn, since = g.turn, 0
    watch = TurnWatch(g)
    for action in game.actions:
        g.apply(action)
        turn, since = g.turn, 0 if g.turn != turn else since + 1
        problem = watch.step(g) or (None if g.is_over else stalled(g, since, None, per_turn))
        if problem is not None:
            raise violation_of(g, problem, "termination")
