"""Random choices of a legal action: the ``Chooser`` protocol (where the choices come from),
``RandomChooser`` (a ``random.Random``) and ``choose_action`` (a random legal action of a random player,
time passing in a timed ruleset, or the move of a player who keeps their total low), and the playing
styles (``PlayStyle``: how often a random player matches, calls, lets time pass...; ``STYLES`` and ``style_of``,
those of ``tamalou verify``'s games). Random playouts,
the checks that play on (snapshot, termination) and ``tamalou.testing`` choose their actions so."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Protocol

from ..actions import Action, Call, MatchAction, Tick
from ..engine import Round
from ..engine.game import Game, round_of
from .violation import violation_of


@dataclass(frozen=True, slots=True)
class PlayStyle:
    """How a random player plays (``choose_action``): one value, handed to ``choose_action``, ``play_out``,
    ``random_playout``, ``check_game`` and ``tamalou.testing.games``.

    ``out_of_turn``: how often any player who has a legal action acts rather than the current player (an
    out-of-turn match, mostly); ``match_probability``: how often a player who could both match and play their
    turn matches; ``call_probability``: how often an offered call is taken, ``right_call_probability`` when the
    caller's true total is at the threshold or under; ``tick_probability`` (timed rulesets): how often time passes
    instead; ``low_total_probability``: how often a player plays to keep their true total low; ``prefer``: action
    types a player always takes when they are listed (``"power"``, ``"discard"``, ``"pass"``...)."""

    call_probability: float = 0.05
    out_of_turn: float = 0.3
    match_probability: float = 0.15
    tick_probability: float = 0.1
    right_call_probability: float = 0.5
    low_total_probability: float = 0.0
    prefer: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The fields that differ from the default style, as JSON values (a counterexample file keeps them)."""
        plain = PlayStyle()
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items() if v != getattr(plain, k)}

    @classmethod
    def of(cls, style: PlayStyle | Mapping[str, Any] | None) -> PlayStyle:
        """``style`` itself; a dict of some of its fields (``to_dict``'s, a counterexample's); ``None``: the default."""
        if style is None:
            return PLAIN
        if isinstance(style, PlayStyle):
            return style
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(style) - known)
        if unknown:
            raise ValueError(f"a play style has no {', '.join(unknown)} (its fields: {', '.join(sorted(known))})")
        values: dict[str, Any] = {k: tuple(v) if k == "prefer" else v for k, v in style.items()}
        return cls(**values)


#: The default style.
PLAIN = PlayStyle()


class Chooser(Protocol):
    """Where random choices come from: ``random.Random`` (``RandomChooser``), or hypothesis's
    ``draw`` in ``tamalou.testing`` (so that failing games shrink)."""

    def below(self, n: int) -> int:
        """A choice in ``range(n)`` (``n >= 1``); 0 should be the simplest."""
        ...

    def chance(self, p: float) -> bool:
        """True with probability ``p``; False should be the simplest."""
        ...


class RandomChooser:
    """A ``Chooser`` on a ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p


def choose_action(
    game: Game | Round,
    chooser: Chooser,
    style: PlayStyle = PLAIN,
) -> Action:
    """One random legal action of a random player, as ``style`` plays: with probability ``out_of_turn`` any player
    who has a legal action (an out-of-turn match, mostly), else the current player. A player who
    could both match and play their turn matches with probability ``match_probability``; an offered
    call (with other choices) is taken with probability ``call_probability``, or
    ``right_call_probability`` if the caller's true total is at the threshold or under (the chooser
    sees everything: it is a test harness, not a player), so that right calls get played too. With
    probability ``low_total_probability`` a player plays to keep their true total low instead (tried
    on copies: another player's match that lowers their total, else the current player's best move;
    a call only at the threshold or under), so that hands get low as in real play and rules about
    low totals (the call) come into play; 0 (the default) never asks the chooser.

    Timed rulesets: with probability ``tick_probability`` time passes instead (a ``Tick`` to the
    next deadline, halfway to it or past it; or a few seconds when none is due), and when nobody
    may act the ``Tick`` goes to the next deadline. The round must not be over.

    ``prefer``: action types (``"power"``, ``"discard"``, ``"pass"``...) the player always takes when they are
    listed, among the actions of the player chosen (a player who always uses their power, always throws the
    card they drew, always passes): a rule that loops when a choice is always made shows, where random choices
    break the loop sooner or later.

    >>> from tamalou import new_game
    >>> g = new_game("french", players=3, seed=1)
    >>> g.apply(choose_action(g, RandomChooser(random.Random(1))))  # doctest: +SKIP
    """
    game = round_of(game)
    if game.is_over:
        raise ValueError("the round is over: no action to choose")
    if game.mechanic("timing") is not None and chooser.chance(style.tick_probability):
        return _tick(game, chooser)
    if style.low_total_probability > 0 and chooser.chance(style.low_total_probability):
        chosen = _low_total(game, chooser, style.right_call_probability)
        if chosen is not None:
            return chosen
    actions: list[Action] = [] if chooser.chance(style.out_of_turn) else game.legal_actions(game.current_player)
    if not actions:
        able = [(p, acts) for p in range(game.players) if (acts := game.legal_actions(p))]
        if not able:
            due = game.deadline
            if due is None:
                raise violation_of(
                    game, "the round is not over, nobody has a legal action and no deadline is due", "listed_accepted"
                )
            return Tick(at=max(due, game.now))
        actions = able[chooser.below(len(able))][1]
    if style.prefer:
        preferred = [a for a in actions if a.type in style.prefer]
        if preferred:
            return preferred[chooser.below(len(preferred))]
    matches = [a for a in actions if isinstance(a, MatchAction)]
    if matches and len(matches) < len(actions):
        keep_matches = chooser.chance(style.match_probability)
        actions = [a for a in actions if isinstance(a, MatchAction) == keep_matches]
    calls = [a for a in actions if isinstance(a, Call)]
    if calls and len(calls) < len(actions):
        right = game.total(calls[0].player) <= game.rb.threshold
        odds = max(style.call_probability, style.right_call_probability) if right else style.call_probability
        keep_calls = chooser.chance(odds)
        actions = [a for a in actions if isinstance(a, Call) == keep_calls]
    return actions[chooser.below(len(actions))]


def _low_total(game: Round, chooser: Chooser, right_call_probability: float) -> Action | None:
    """The move of a player who keeps their total low (and sees everything): another player's match
    that lowers their total, else the current player's action that leaves them the lowest total
    (a call only at the threshold or under, with ``right_call_probability``). Ties at random;
    ``None`` if the current player has nothing to do."""
    p = game.current_player
    listed = game.legal_actions(p)
    calls = [a for a in listed if isinstance(a, Call)]
    if calls and game.total(p) <= game.rb.threshold and chooser.chance(right_call_probability):
        return calls[0]
    candidates: list[tuple[int, Action]] = [(p, a) for a in listed if not isinstance(a, Call)]
    for q in range(game.players):
        if q != p:
            candidates += [(q, a) for a in game.legal_actions(q) if isinstance(a, MatchAction)]
    best: list[Action] = []
    low = 0
    for q, a in candidates:
        trial = game.copy()
        try:
            trial.apply(a)
        except Exception:
            continue  # refused or crashing: found when it is played
        delta = trial.total(q) - game.total(q)
        if q != p and delta >= 0:
            continue  # another player acts only to lower their total
        if not best or delta < low:
            best, low = [a], delta
        elif delta == low:
            best.append(a)
    return best[chooser.below(len(best))] if best else None


def _tick(game: Round, chooser: Chooser) -> Tick:
    """Time passes: to the next deadline (it fires), halfway to it, or past it; a few seconds if
    none is due (lockouts run out)."""
    now = game.now
    due = game.deadline
    if due is not None and due >= now:
        options = [due, now + (due - now) / 2, due + 1.0]
    else:
        options = [now + 1.0, now + 5.0, now + 30.0]
    return Tick(at=options[chooser.below(len(options))])


# ----------------------------------------------------------------------------- the styles of verify's games

#: The playing styles of verify's random games, by name.
STYLES: dict[str, PlayStyle] = {
    "random": PLAIN,
    "matches": PlayStyle(out_of_turn=0.7, match_probability=0.6),  # many matches: penalties, an empty stock
    "no_call": PlayStyle(call_probability=0.0),  # nobody calls: reshuffles, the turn limit
    "low": PlayStyle(low_total_probability=0.8),  # players keep their total low: low hands, right calls
    # Liveness: a player who always takes the same kind of choice when it is offered.
    "use_power": PlayStyle(prefer=("power", "swap")),  # always uses the power on offer (both steps)
    "throw_drawn": PlayStyle(prefer=("discard",)),  # always throws the card they drew
    "always_pass": PlayStyle(prefer=("pass",)),  # always passes when they may
}

_LIVENESS = ("use_power", "throw_drawn", "always_pass")


def style_of(seed: int) -> PlayStyle:
    """The style of the game of ``seed``: one in ten matches a lot (seeds ending in 4), one in ten never
    calls (seeds ending in 9), two in ten play for a low total (seeds ending in 2 or 7), one in ten
    always makes the same kind of choice (seeds ending in 5: in turn always use the power, always throw
    the card drawn, always pass), the others call at random. A game is known by its seed alone, so
    ``tamalou verify --seed S --games 1`` plays game ``S`` of any run again."""
    if seed % 10 == 5:
        return STYLES[_LIVENESS[seed // 10 % len(_LIVENESS)]]
    return STYLES[{2: "low", 4: "matches", 7: "low", 9: "no_call"}.get(seed % 10, "random")]
