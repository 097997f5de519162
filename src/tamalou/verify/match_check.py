"""Whole matches of a ruleset of several rounds (``rules.rounds.form`` other than ``"single"``), checked: the
invariant ``match`` (``check_match``, ``check_match_result``).

``tamalou verify`` checks each round of its games with every invariant of a round; a match ruleset's rules between
rounds (the match hooks ``tamalou_match_adjust``, ``tamalou_match_rank``, ``tamalou_round_first_player``, the
points form and its limit) are only exercised by a whole match. ``check_match`` plays the match of a seed with the
same random players as the game of that seed (every round checked for conservation at each step, for the end
invariants of a round once over, and bounded as a round is), then ``check_match_result`` checks the match:

- **the rounds add up**: each round's recorded scores are its ``Result``'s, and the round played again from its
  seed, first player and actions scores the same (a hook that changes a result it was handed, or one that keeps
  state between rounds, shows here); each total is its rounds' scores plus the match's adjustments (the rounds won,
  in the ``"wins"`` form);
- **the end**: the match ends exactly when its form says (``count`` rounds; ``"points"``: the first round after
  which a total passes ``limit``, or the ``max_rounds``-th; one round for ``"single"``), and not before;
- **the hooks' answers**: the ranking places every seat once, its first place is the winners, and without a
  ``tamalou_match_rank`` it orders the totals; the first player of each round is a seat, the next seat each round
  without a ``tamalou_round_first_player``;
- **snapshots**: the finished match restored from its snapshot, and played again from its seed and actions
  (``tamalou.replay_match``), is the same match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine import Round
from ..engine.game import round_of
from ..engine.rulebook import rulebook
from ..errors import IllegalAction, InvariantViolation, PluginError
from ..match import Match, new_match, replay_match
from ..resolver import resolve
from ..schema import Variant
from .bounds import step_bound
from .checks_cards import check_conservation
from .chooser import PlayStyle, RandomChooser, choose_action, style_of

__all__ = ["check_match", "check_match_result", "plays_matches"]


def plays_matches(variant: Variant) -> bool:
    """Whether ``variant`` is played as a match of several rounds (``rules.rounds.form`` is not ``"single"``)."""
    return variant.rules.rounds.form != "single"


def _broken(where: str, message: str) -> InvariantViolation:
    return InvariantViolation(f"{where}: {message}", invariant="match")


def check_match(
    variant: Variant | str | Sequence[str],
    players: int,
    seed: int,
    *,
    style: PlayStyle | Mapping[str, Any] | None = None,
    ends: Mapping[str, Callable[[Round], None]] | None = None,
) -> int:
    """Play the match of ``seed`` (``tamalou.new_match(variant, players, seed=seed)``) with random players in
    ``style`` (default ``style_of(seed)``), checking each round (conservation at each step, the checks ``ends``, by
    name, once it is over: ``verify`` gives the invariants of a finished round) and then the match (the module's
    documentation). Returns the number of rounds played; raises ``InvariantViolation`` (invariant ``match``) saying
    which round and what."""
    v = resolve(variant)
    style = style_of(seed) if style is None else PlayStyle.of(style)
    chooser = RandomChooser(random.Random(f"match/{seed}"))
    try:
        match = new_match(v, players, seed=seed)
    except Exception as exc:
        raise _broken("dealing the first round", f"{type(exc).__name__}: {exc}") from exc
    while True:
        number = match.round + 1
        game = round_of(match.game)
        bound = step_bound(game)
        while not game.is_over:
            if len(game.actions) > bound:
                raise _broken(f"round {number}", f"the round takes more than {bound} actions")
            try:
                action = choose_action(game, chooser, style)
                game.apply(action)
            except IllegalAction as exc:
                raise _broken(f"round {number}", f"a listed action was refused: {exc}") from exc
            except InvariantViolation:
                raise
            except Exception as exc:
                raise _broken(f"round {number}", f"playing raised {type(exc).__name__}: {exc}") from exc
            check_conservation(game)
        for name, check in (ends or {}).items():
            try:
                check(game)
            except InvariantViolation as exc:
                raise _broken(f"round {number}", f"{name}: {exc}") from exc
        try:
            match.next_round()
        except PluginError as exc:
            raise _broken(f"scoring round {number}", str(exc)) from exc
        if match.is_over:
            break
    check_match_result(match)
    return len(match.scores)


def check_match_result(match: Match) -> None:
    """The match invariants on a finished match (the module's documentation); raises ``InvariantViolation``."""
    v, n = match.variant, match.players
    rules = v.rules.rounds
    result = match.result()
    rounds = len(result.rounds)
    counts = {len(result.results), len(result.adjustments), len(result.first_players), len(match.history)}
    if counts != {rounds}:
        raise _broken(
            "its records",
            f"{rounds} rounds scored, {len(result.results)} results, {len(result.adjustments)} adjustments, "
            f"{len(result.first_players)} first players, {len(match.history)} rounds of actions",
        )
    for i, (scores, kept) in enumerate(zip(result.rounds, result.results, strict=True)):
        if list(kept.scores) != list(scores):
            raise _broken(f"round {i + 1}", f"its result scores {kept.scores} but the match recorded {scores}")
        again = match.scored_round(i)
        if not again.is_over or list(again.judged()[4]) != list(scores):
            played = again.judged()[4] if again.is_over else "a round not over"
            raise _broken(
                f"round {i + 1}",
                f"played again from its seed and actions it scores {played}, not {scores} (a hook that changes a "
                "result it is handed, or keeps state from one round to the next?)",
            )
    totals = result.totals
    if rules.form == "wins":
        expected = [sum(1 for w in result.results if p in w.winners) for p in range(n)]
        what = "the rounds it won"
    else:
        expected = [sum(r[p] for r in result.rounds) + sum(a[p] for a in result.adjustments) for p in range(n)]
        what = "its rounds' scores plus the match's adjustments"
    if list(totals) != expected:
        raise _broken("the totals", f"{totals} are not {what}: {expected}")
    _check_end(match, rounds)
    _check_ranking(match, result.ranking, result.winners, totals)
    _check_first_players(match, result.first_players)
    restored = Match.from_json(match.to_json())
    if restored.to_json() != match.to_json() or restored.result() != result:
        raise _broken("its snapshot", "Match.from_json(to_json()) is not the same match")
    replayed = replay_match(v, n, seed=match.seed, actions=match.history, deals=list(match.deals) or None)
    if replayed.to_json() != match.to_json():
        raise _broken("replay", "replay_match of its seed and actions is not the same match")


def _check_end(match: Match, rounds: int) -> None:
    rules = match.variant.rules.rounds
    if rules.form == "single":
        ends_after = 1
    elif rules.form in ("fixed", "wins"):
        ends_after = rules.count
    else:
        ends_after = rules.max_rounds
        running = [0] * match.players
        for k, (scores, adjust) in enumerate(zip(match.scores, match.adjust, strict=True), 1):
            running = [t + s + a for t, s, a in zip(running, scores, adjust, strict=True)]
            if any(t > rules.limit for t in running):
                ends_after = min(ends_after, k)
                break
    if rounds != ends_after:
        raise _broken("its end", f"it ended after {rounds} rounds; its form ({rules.form}) ends it after {ends_after}")


def _check_ranking(match: Match, ranking: list[list[int]], winners: list[int], totals: list[int]) -> None:
    n = match.players
    placed = sorted(p for place in ranking for p in place)
    if placed != list(range(n)) or any(not place for place in ranking):
        raise _broken("its ranking", f"{ranking} does not place every seat once")
    if sorted(winners) != sorted(ranking[0]):
        raise _broken("its winners", f"{winners} are not the first place of its ranking {ranking}")
    if rulebook(match.variant).pm.hook.tamalou_match_rank.get_hookimpls():
        return  # a plugin ranks the match: its own order
    order = [totals[place[0]] for place in ranking]
    best_first = sorted(order, reverse=match.variant.rules.rounds.form == "wins")
    if order != best_first or any(totals[p] != totals[place[0]] for place in ranking for p in place):
        raise _broken("its ranking", f"{ranking} does not order the totals {totals}")


def _check_first_players(match: Match, firsts: list[int]) -> None:
    n = match.players
    if not firsts or firsts[0] != match.first_player or not all(type(f) is int and 0 <= f < n for f in firsts):
        raise _broken("its first players", f"{firsts} (the match's first player: {match.first_player})")
    if rulebook(match.variant).pm.hook.tamalou_round_first_player.get_hookimpls():
        return
    for i in range(1, len(firsts)):
        if firsts[i] != (firsts[i - 1] + 1) % n:
            raise _broken("its first players", f"round {i + 1} is played first by {firsts[i]}, not the next seat")
