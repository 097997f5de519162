"""Invariants of a round, checkable on any game: the verification layer of tamalou.

Each ``check_*`` function raises ``InvariantViolation`` (an ``AssertionError``) with a message that
says what broke, where (turn, phase, player to play) and with which cards; it returns ``None`` when
the invariant holds. They need no test framework, so a server can run them on live games, a
ruleset author in plain tests, and ``tamalou verify`` on random play::

    import random
    import tamalou
    from tamalou.invariants import check_conservation, check_no_leak, random_playout

    game = random_playout("french", players=4, seed=7, check_every=1)  # all checks, every step
    check_conservation(game)
    check_no_leak(game, player=0, rng=random.Random(1))

The invariants (the public contract of docs/architecture.md):

- conservation: every card of the universe is in exactly one place (a slot, the stock, the
  discard, or held);
- knowledge: the discard is public, the holder knows the held card, everything is revealed at the end;
- no leak: exchanging two cards a player does not know changes neither their view nor their legal
  actions;
- every listed action is accepted, and an accepted action is listed (a multi-card match as its
  one-card matches);
- a refused action (``IllegalAction``) leaves the game byte-identical, and nothing but
  ``IllegalAction`` is raised for a bad action;
- ``from_json(to_json())`` is the same game and plays on identically; ``replay`` rebuilds the game;
- a round always ends, within a bound derived from ``rules.end.max_turns``, with a consistent result.

``random_playout`` plays random games (random players out of turn, random legal actions) and
``verify`` runs many with every check; ``tamalou.testing`` builds hypothesis strategies on them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .actions import ACTION_TYPES, Action, Call, MatchAction, PeekAction, Tick, action_to_dict, parse_action
from .engine import Game, new_game, replay
from .errors import IllegalAction
from .schema import Variant
from .variant import load_variant

__all__ = [
    "Chooser",
    "InvariantViolation",
    "RandomChooser",
    "VerifyReport",
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
    "choose_action",
    "exchange_faces",
    "play_out",
    "random_action",
    "random_playout",
    "step_bound",
    "verify",
]

_NO_CARD = -1


class InvariantViolation(AssertionError):
    """An invariant of the game does not hold. The message says which one, where, and with what.

    ``actions`` holds the actions applied before the violation when a playout raised it (with the
    game's seed and player count, ``tamalou.replay`` rebuilds the state that broke).
    """

    def __init__(self, message: str, *, actions: Sequence[Action] = ()) -> None:
        super().__init__(message)
        self.actions: list[Action] = list(actions)


# ----------------------------------------------------------------------------- small helpers


def _where(game: Game) -> str:
    return (
        f"[turn {game.turn}, phase {game.phase!r}, player {game.current_player} to play, "
        f"after {len(game.actions)} actions]"
    )


def _fail(game: Game, message: str) -> InvariantViolation:
    return InvariantViolation(f"{message} {_where(game)}")


def _place(game: Game, card: int) -> str:
    """Where card id ``card`` lies, for messages."""
    for p, hand in enumerate(game.hands):
        for s, c in enumerate(hand):
            if c == card:
                return f"player {p} slot {s}"
    if card in game.stock:
        return f"stock (position {len(game.stock) - 1 - game.stock.index(card)} from the top)"
    if card in game.discard:
        return f"discard (position {game.discard.index(card)} from the bottom)"
    if card == game.held:
        return "held"
    return "nowhere"


def _card(game: Game, card: int) -> str:
    text = game.text[card] if 0 <= card < len(game.text) else "?"
    return f"card {card} ({text}, {_place(game, card)})"


def _diff(before: Any, after: Any, path: str = "") -> str:
    """The first difference between two JSON-like values, as ``path: before -> after``."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in list(before) + [k for k in after if k not in before]:
            if key not in after or key not in before or before[key] != after[key]:
                return _diff(before.get(key, "<missing>"), after.get(key, "<missing>"), f"{path}.{key}")
    elif isinstance(before, list) and isinstance(after, list):
        for i, (x, y) in enumerate(zip(before, after, strict=False)):
            if x != y:
                return _diff(x, y, f"{path}[{i}]")
        if len(before) != len(after):
            return f"{path or '<root>'}: length {len(before)} -> {len(after)}"
    return f"{path or '<root>'}: {before!r} -> {after!r}"


def _json_diff(before: str, after: str) -> str:
    try:
        return _diff(json.loads(before), json.loads(after))
    except ValueError:
        return f"{before[:80]!r} -> {after[:80]!r}"


def _describe(action: object) -> str:
    if isinstance(action, tuple(ACTION_TYPES.values())):
        return json.dumps(action_to_dict(action))  # type: ignore[arg-type]
    return repr(action)


def _as_variant(variant: Variant | str | Sequence[str]) -> Variant:
    return variant if isinstance(variant, Variant) else load_variant(variant)


# ----------------------------------------------------------------------------- state invariants


def check_conservation(game: Game) -> None:
    """Every card of the universe is in exactly one place: a layout slot, the stock, the discard,
    or held (``game.held``; ``-1`` if none). Nothing is lost, duplicated or invented.

    >>> check_conservation(new_game("french", players=3, seed=1))
    """
    n = len(game.cards)
    problems: list[str] = []
    for name in ("text", "rank", "value", "knowers"):
        size = len(getattr(game, name))
        if size != n:
            problems.append(f"game.{name} has {size} entries for {n} cards")
    if len(game.hands) != game.players:
        problems.append(f"{len(game.hands)} layouts for {game.players} players")
    seen: dict[int, str] = {}

    def put(card: object, place: str) -> None:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < n:
            problems.append(f"{place} holds {card!r}, which is not a card id (0 to {n - 1})")
        elif card in seen:
            problems.append(f"card {card} ({game.text[card]}) is both at {seen[card]} and at {place}")
        else:
            seen[card] = place

    for p, hand in enumerate(game.hands):
        for s, c in enumerate(hand):
            if c != _NO_CARD:
                put(c, f"player {p} slot {s}")
    for i, c in enumerate(game.stock):
        put(c, f"stock[{i}]")
    for i, c in enumerate(game.discard):
        put(c, f"discard[{i}]")
    if game.held != _NO_CARD:
        put(game.held, "held")
    missing = [c for c in range(n) if c not in seen]
    if missing:
        shown = ", ".join(f"{c} ({game.text[c]})" for c in missing[:8])
        problems.append(f"{len(missing)} card(s) are nowhere: {shown}")
    if problems:
        raise _fail(game, "cards not conserved: " + "; ".join(problems))


def check_knowledge(game: Game) -> None:
    """What everybody must know: the whole discard (it is face up), the held card by its holder,
    and at the end of the round every card of every layout.

    >>> check_knowledge(new_game("french", players=2, seed=3))
    """
    everyone = range(game.players)
    for c in game.discard:
        blind = [p for p in everyone if not game.knows(p, c)]
        if blind:
            raise _fail(game, f"{_card(game, c)} is face up on the discard but unknown to players {blind}")
    if game.held != _NO_CARD and game.phase != "over" and not game.knows(game.holder, game.held):
        raise _fail(game, f"player {game.holder} holds {_card(game, game.held)} without knowing it")
    if game.is_over:
        for hand in game.hands:
            for c in hand:
                blind = [p for p in everyone if c != _NO_CARD and not game.knows(p, c)]
                if blind:
                    raise _fail(game, f"the round is over but {_card(game, c)} is unknown to players {blind}")


def exchange_faces(game: Game, a: int, b: int) -> Game:
    """A copy of ``game`` where card ids ``a`` and ``b`` have exchanged faces (text, rank, value):
    every place and every player's knowledge stay as they are, only what the two cards *are*
    changes. The original game is untouched.

    >>> g = new_game("french", players=2, seed=1)
    >>> exchange_faces(g, g.stock[-1], g.stock[0]).text[g.stock[-1]] == g.text[g.stock[0]]
    True
    """
    g = game.copy()
    # The copy shares the face tables with the original: give it its own before exchanging.
    g.cards, g.text, g.rank, g.value = list(g.cards), list(g.text), list(g.rank), list(g.value)
    g.power_of = list(g.power_of)
    g.power_of[a], g.power_of[b] = g.power_of[b], g.power_of[a]
    g.cards[a], g.cards[b] = g.cards[b], g.cards[a]
    g.text[a], g.text[b] = g.text[b], g.text[a]
    g.rank[a], g.rank[b] = g.rank[b], g.rank[a]
    g.value[a], g.value[b] = g.value[b], g.value[a]
    # A result cached by the copy is only there once the round is over, when every card in a
    # layout is known to all: an exchange of unknown cards cannot change it.
    return g


def _unknown_pairs(game: Game, player: int, rng: random.Random, pairs: int) -> list[tuple[int, int]]:
    """Up to ``pairs`` pairs of different-faced cards unknown to ``player``; half of them involve a
    card in play (a layout or held), where a leak would matter most."""
    unknown = [c for c in range(len(game.cards)) if not game.knows(player, c)]
    if len(unknown) < 2:
        return []
    in_play = set(c for hand in game.hands for c in hand if c != _NO_CARD)
    if game.held != _NO_CARD:
        in_play.add(game.held)
    hot = [c for c in unknown if c in in_play]
    if len(unknown) * (len(unknown) - 1) // 2 <= pairs:
        return [(x, y) for i, x in enumerate(unknown) for y in unknown[i + 1 :] if game.text[x] != game.text[y]]
    out: list[tuple[int, int]] = []
    for i in range(pairs):
        first = rng.choice(hot) if hot and i % 2 == 0 else rng.choice(unknown)
        others = [c for c in unknown if game.text[c] != game.text[first]]
        if others:
            out.append((first, rng.choice(others)))
    return out


def check_no_leak(game: Game, player: int, rng: random.Random | None = None, *, pairs: int = 12) -> None:
    """What ``player`` sees and may do depends only on what they know: for up to ``pairs`` pairs
    of cards unknown to them (sampled with ``rng``; all pairs if there are fewer), exchanging the
    two cards' faces leaves ``view(player)`` and ``legal_actions(player)`` (order included) unchanged.

    >>> check_no_leak(new_game("french", players=4, seed=2), 0, random.Random(0))
    """
    rng = rng if rng is not None else random.Random(0)
    base_view = game.view(player).model_dump(mode="json")
    base_actions = [action_to_dict(a) for a in game.legal_actions(player)]
    for a, b in _unknown_pairs(game, player, rng, pairs):
        swapped = exchange_faces(game, a, b)
        what = f"{_card(game, a)} and {_card(game, b)}, both unknown to player {player}"
        view = swapped.view(player).model_dump(mode="json")
        if view != base_view:
            raise _fail(game, f"leak: exchanging {what}, changes their view: {_diff(base_view, view, 'view')}")
        actions = [action_to_dict(x) for x in swapped.legal_actions(player)]
        if actions != base_actions:
            raise _fail(
                game,
                f"leak: exchanging {what}, changes their legal actions: "
                f"{_diff(base_actions, actions, 'legal_actions')}",
            )


def check_legal_actions_accepted(game: Game, *, snapshot: str | None = None) -> None:
    """Every action that ``legal_actions(p)`` lists, for every player ``p``, is complete (its own
    player, listed once, the same after a trip through its JSON form) and is accepted by ``apply``
    (tried on copies). While the round is not over somebody has an action (or, in a timed
    ruleset, a deadline is due: time will move the round on); once over, nobody.
    ``snapshot``: ``game.to_json()`` if the caller has it already.

    >>> check_legal_actions_accepted(new_game("french", players=3, seed=4))
    """
    before = game.to_json() if snapshot is None else snapshot
    anybody = False
    for p in range(game.players):
        listed = game.legal_actions(p)
        anybody = anybody or bool(listed)
        if game.is_over and listed:
            raise _fail(game, f"the round is over but player {p} is offered {_describe(listed[0])}")
        seen: set[str] = set()
        for a in listed:
            text = _describe(a)
            if not isinstance(a, Tick) and a.player != p:
                raise _fail(game, f"legal_actions({p}) lists an action of another player: {text}")
            if text in seen:
                raise _fail(game, f"legal_actions({p}) lists {text} twice")
            seen.add(text)
            if parse_action(action_to_dict(a)) != a:
                raise _fail(game, f"legal_actions({p}) lists {text}, which changes through its JSON form")
            trial = game.copy()
            try:
                trial.apply(a)
            except IllegalAction as exc:
                raise _fail(game, f"legal_actions({p}) lists {text} but apply refuses it: {exc}") from None
            except Exception as exc:
                raise _fail(
                    game, f"legal_actions({p}) lists {text} and apply crashes: {type(exc).__name__}: {exc}"
                ) from exc
    if not game.is_over and not anybody and game.deadline is None:
        raise _fail(game, "the round is not over, nobody has a legal action and no deadline is due (deadlock)")
    if game.to_json() != before:
        raise _fail(game, f"trying actions on copies changed the game: {_json_diff(before, game.to_json())}")


def _listing_keys(action: Action) -> list[str]:
    """The listed one-card actions an accepted ``action`` stands for (JSON, without ``at``)."""
    d = action_to_dict(action)
    d.pop("at", None)
    if isinstance(action, MatchAction):
        if d.get("owner") == action.player:
            d.pop("owner")
        return [json.dumps({**d, "slots": [s]}, sort_keys=True) for s in action.slots]
    if isinstance(action, PeekAction):
        d["slots"] = sorted(d["slots"])  # the slots peeked at, in any order
    return [json.dumps(d, sort_keys=True)]


def check_illegal_leaves_state(
    game: Game, action: Action | dict[str, Any] | object, *, snapshot: str | None = None
) -> bool:
    """Apply ``action`` (an action, a JSON dict, or any junk) to a copy of ``game``. If it is refused
    with ``IllegalAction``, the copy must be byte-identical (``to_json``) to the game before; any
    other exception is a violation (a bad action is an ``IllegalAction``, never a crash). Returns
    whether the action was refused; ``game`` itself is never changed. ``snapshot``:
    ``game.to_json()`` if the caller has it already.

    >>> g = new_game("french", players=2, seed=5)
    >>> check_illegal_leaves_state(g, {"type": "replace", "player": 0, "slot": 9})
    True
    """
    before = game.to_json() if snapshot is None else snapshot
    trial = game.copy()
    try:
        trial.apply(action)  # type: ignore[arg-type]
    except IllegalAction:
        after = trial.to_json()
        if after != before:
            raise _fail(
                game, f"the refused action {_describe(action)} changed the game: {_json_diff(before, after)}"
            ) from None
        return True
    except Exception as exc:
        raise _fail(
            game,
            f"the action {_describe(action)} raised {type(exc).__name__} instead of IllegalAction: {exc}",
        ) from exc
    return False


def check_accepted_is_listed(game: Game, action: Action | dict[str, Any]) -> bool:
    """If ``apply`` accepts ``action`` (tried on a copy), it was listed by ``legal_actions`` of its
    player: the listing is complete, not a sample. A multi-card match stands for its one-card
    matches, the order of peeked slots, ``at`` and a default ``owner`` are ignored; a late match
    (somebody else already matched the card), a ``tick`` and an action whose ``at`` is past a
    deadline (it is applied after the deadline fired) are not compared. Returns whether it was
    accepted.

    >>> check_accepted_is_listed(new_game("french", 2, seed=1), {"type": "pass", "player": 0})
    False
    """
    try:
        parsed = parse_action(action)
    except IllegalAction:
        return False
    trial = game.copy()
    try:
        trial.apply(parsed)
    except IllegalAction:
        return False
    if isinstance(parsed, Tick):
        return True
    due = game.deadline
    if parsed.at is not None and due is not None and parsed.at >= due:
        return True  # applied after a deadline fired: in another state than this one
    window = game.state_of("matching")
    if isinstance(parsed, MatchAction) and window is not None and window.win_by not in (-1, parsed.player):
        return True  # a late match: accepted (shown and returned), no longer listed
    listed = {k for a in game.legal_actions(parsed.player) for k in _listing_keys(a)}
    missing = [k for k in _listing_keys(parsed) if k not in listed]
    if missing:
        raise _fail(
            game,
            f"apply accepts {_describe(parsed)} but legal_actions({parsed.player}) does not list {missing[0]}",
        )
    return True


def check_snapshot_roundtrip(
    game: Game,
    rng: random.Random | None = None,
    *,
    steps: int = 3,
    variant: Variant | None = None,
    snapshot: str | None = None,
) -> None:
    """``Game.from_json(g.to_json())`` is the same game: the same JSON, and played on with the same
    next ``steps`` random legal actions (chosen with ``rng``), the same events, views and JSON.
    ``game`` itself is not changed (a copy plays on). ``variant`` is passed to ``from_json``
    (``None``: loaded by the name the snapshot holds, as a fresh process does). ``snapshot``:
    ``game.to_json()`` if the caller has it already.

    >>> check_snapshot_roundtrip(new_game("french", players=3, seed=6), random.Random(0))
    """
    rng = rng if rng is not None else random.Random(0)
    snapshot = game.to_json() if snapshot is None else snapshot
    restored = Game.from_json(snapshot, variant)
    again = restored.to_json()
    if again != snapshot:
        raise _fail(game, f"from_json(to_json()) is not the same game: {_json_diff(snapshot, again)}")
    original = game.copy()
    copied = original.to_json()
    if copied != snapshot:
        raise _fail(game, f"game.copy() is not the same game: {_json_diff(snapshot, copied)}")
    chooser = RandomChooser(rng)
    for step in range(steps):
        if original.is_over:
            break
        action = choose_action(original, chooser)
        e1 = [e.to_dict() for e in original.apply(action)]
        try:
            e2 = [e.to_dict() for e in restored.apply(action)]
        except IllegalAction as exc:
            raise _fail(game, f"after from_json, step {step + 1}: {_describe(action)} is refused: {exc}") from None
        if e1 != e2:
            raise _fail(
                game,
                f"after from_json, step {step + 1}: {_describe(action)} gives other events: {_diff(e1, e2)}",
            )
    j1, j2 = original.to_json(), restored.to_json()
    if j1 != j2:
        raise _fail(game, f"from_json, then the same {steps} actions: the games differ: {_json_diff(j1, j2)}")
    for p in range(game.players):
        v1, v2 = original.view(p).model_dump(mode="json"), restored.view(p).model_dump(mode="json")
        if v1 != v2:
            raise _fail(game, f"after from_json, player {p}'s view differs: {_diff(v1, v2, 'view')}")


def check_replay(game: Game, *, first_player: int | None = None) -> None:
    """``tamalou.replay`` of the game's seed, deal and actions (in their JSON form, as a client
    would send them) rebuilds exactly the same game. Pass the ``first_player`` the game was
    created with, if one was given; for a stacked deal without it, both ways are tried (the game
    does not record whether its first player was given or drawn).

    >>> check_replay(random_playout("french", players=3, seed=8))
    """
    actions = [action_to_dict(a) for a in game.actions]
    tries: list[int | None] = [first_player]
    if first_player is None and game.deal_spec is not None:
        tries.append(game.first_player)
    before = game.to_json()
    problems: list[str] = []
    for fp in tries:
        try:
            rebuilt = replay(
                game.variant, game.players, seed=game.seed, actions=actions, deal=game.deal_spec, first_player=fp
            )
        except IllegalAction as exc:
            problems.append(f"first_player={fp}: an action is refused: {exc}")
            continue
        after = rebuilt.to_json()
        if after == before:
            return
        problems.append(f"first_player={fp}: {_json_diff(before, after)}")
    raise _fail(game, "replay of the same seed and actions differs: " + "; ".join(problems))


def check_result(game: Game) -> None:
    """A finished round's result is consistent: the totals and card counts are the layouts', the
    ranking places every player exactly once, every winner is in the first place, the caller is
    the game's, every view shows it, nobody may act, and the turn bound holds.

    >>> check_result(random_playout("french", players=2, seed=9))
    """
    if not game.is_over:
        raise _fail(game, "the round is not over")
    r = game.result()
    players = list(range(game.players))
    totals = [game.total(p) for p in players]
    if r.totals != totals:
        raise _fail(game, f"result totals {r.totals} but the layouts add up to {totals}")
    counts = [game.card_count(p) for p in players]
    if r.card_counts != counts:
        raise _fail(game, f"result card_counts {r.card_counts} but the layouts hold {counts}")
    ranked = sorted(p for place in r.ranking for p in place)
    if ranked != players or any(not place for place in r.ranking):
        raise _fail(game, f"ranking {r.ranking} does not place each of the {game.players} players once")
    if r.winners and not set(r.winners) <= set(r.ranking[0]):
        raise _fail(game, f"winners {r.winners} are not all in the first place of ranking {r.ranking}")
    if r.caller != game.caller:
        raise _fail(game, f"result caller {r.caller} but game.caller is {game.caller}")
    if not r.reason:
        raise _fail(game, "the result gives no reason")
    if len(r.scores) != game.players:
        raise _fail(game, f"{len(r.scores)} scores for {game.players} players")
    max_turns = game.variant.rules.end.max_turns
    if game.turn > max_turns:
        raise _fail(game, f"{game.turn} turns played, more than rules.end.max_turns = {max_turns}")
    dumped = r.model_dump(mode="json")
    for p in players:
        seen = game.view(p).result
        if seen is None or seen.model_dump(mode="json") != dumped:
            raise _fail(game, f"player {p}'s view does not show the result")
        if game.legal_actions(p):
            raise _fail(game, f"the round is over but player {p} still has legal actions")


# ----------------------------------------------------------------------------- random play


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
    game: Game,
    chooser: Chooser,
    *,
    call_probability: float = 0.05,
    out_of_turn: float = 0.3,
    match_probability: float = 0.15,
    tick_probability: float = 0.1,
    right_call_probability: float = 0.5,
) -> Action:
    """One random legal action of a random player: with probability ``out_of_turn`` any player
    who has a legal action (an out-of-turn match, mostly), else the current player. A player who
    could both match and play their turn matches with probability ``match_probability``; an offered
    call (with other choices) is taken with probability ``call_probability``, or
    ``right_call_probability`` if the caller's true total is at the threshold or under (the chooser
    sees everything: it is a test harness, not a player), so that right calls get played too.

    Timed rulesets: with probability ``tick_probability`` time passes instead (a ``Tick`` to the
    next deadline, halfway to it or past it; or a few seconds when none is due), and when nobody
    may act the ``Tick`` goes to the next deadline. The round must not be over.

    >>> g = new_game("french", players=3, seed=1)
    >>> g.apply(choose_action(g, RandomChooser(random.Random(1))))  # doctest: +SKIP
    """
    if game.is_over:
        raise ValueError("the round is over: no action to choose")
    if game.mechanic("timing") is not None and chooser.chance(tick_probability):
        return _tick(game, chooser)
    actions: list[Action] = [] if chooser.chance(out_of_turn) else game.legal_actions(game.current_player)
    if not actions:
        able = [(p, acts) for p in range(game.players) if (acts := game.legal_actions(p))]
        if not able:
            due = game.deadline
            if due is None:
                raise _fail(game, "the round is not over, nobody has a legal action and no deadline is due")
            return Tick(at=max(due, game.now))
        actions = able[chooser.below(len(able))][1]
    matches = [a for a in actions if isinstance(a, MatchAction)]
    if matches and len(matches) < len(actions):
        keep_matches = chooser.chance(match_probability)
        actions = [a for a in actions if isinstance(a, MatchAction) == keep_matches]
    calls = [a for a in actions if isinstance(a, Call)]
    if calls and len(calls) < len(actions):
        right = game.total(calls[0].player) <= game.rb.threshold
        keep_calls = chooser.chance(max(call_probability, right_call_probability) if right else call_probability)
        actions = [a for a in actions if isinstance(a, Call) == keep_calls]
    return actions[chooser.below(len(actions))]


def _tick(game: Game, chooser: Chooser) -> Tick:
    """Time passes: to the next deadline (it fires), halfway to it, or past it; a few seconds if
    none is due (lockouts run out)."""
    now = game.now
    due = game.deadline
    if due is not None and due >= now:
        options = [due, now + (due - now) / 2, due + 1.0]
    else:
        options = [now + 1.0, now + 5.0, now + 30.0]
    return Tick(at=options[chooser.below(len(options))])


def step_bound(game: Game) -> int:
    """How many actions a round may take at most, from ``rules.end.max_turns``: per turn, a few
    draws with their placement, power steps and call, plus every player's match attempts on each
    thrown card; four times that for slack (a play-again power adds draws to a turn)."""
    r = game.variant.rules
    per_turn = r.draw.per_turn
    matches = game.players * r.matching.max_cards * (per_turn + 1)
    return 4 * ((r.end.max_turns + 1) * (6 * per_turn + 4 + matches) + game.players)


def random_action(game: Game, rng: random.Random) -> dict[str, Any] | object:
    """A random, probably illegal, action for robustness checks: a listed action with one field
    changed, a well-typed action with random fields, or a malformed one (missing or extra fields,
    wrong types, unknown type, not a dict at all).

    >>> check_illegal_leaves_state(g, random_action(g, random.Random(3)))  # doctest: +SKIP
    """
    n = game.players
    size = max((len(h) for h in game.hands), default=0)
    junk: list[object] = [None, "x", "0", -1, 10**12, 1.5, [0], {"a": 1}, True]
    kind = rng.random()
    listed = [a for p in range(n) for a in game.legal_actions(p)]
    if kind < 0.35 and listed:
        d = action_to_dict(rng.choice(listed))
        key = rng.choice([k for k in d if k != "type"] or ["type"])
        if key == "player":
            d[key] = rng.randrange(-1, n + 1)
        elif key in ("slot", "target_slot"):
            d[key] = rng.randrange(-1, size + 2)
        elif key == "slots":
            d[key] = [rng.randrange(-1, size + 2) for _ in range(rng.randrange(0, 5))]
        elif key == "source":
            d[key] = rng.choice(["stock", "discard", "hand"])
        else:
            d[key] = rng.choice(junk)
        if rng.random() < 0.3:
            d["type"] = rng.choice(list(ACTION_TYPES))
        return d
    if kind < 0.8:
        t = rng.choice(list(ACTION_TYPES))
        d = {"type": t, "player": rng.randrange(-1, n + 1)}
        if t in ("replace", "swap", "give"):
            d["slot"] = rng.randrange(-1, size + 2)
        elif t == "draw":
            d["source"] = rng.choice(["stock", "discard"])
        elif t == "power":
            for key in ("slot", "target", "target_slot"):
                if rng.random() < 0.6:
                    d[key] = rng.randrange(-1, max(size, n) + 2)
        elif t in ("match", "peek"):
            d["slots"] = [rng.randrange(-1, size + 2) for _ in range(rng.randrange(0, 4))]
            if t == "match" and rng.random() < 0.3:
                d["owner"] = rng.randrange(-1, n + 1)
        elif t == "tick":
            del d["player"]
            d["at"] = rng.choice([0.0, 1.0, 45.0, -1.0])
        if rng.random() < 0.2:
            d["at"] = rng.choice([0.0, 3.5, -2.0])
        return d
    malformed: list[object] = [
        {"type": rng.choice([*ACTION_TYPES, "jump", "", None])},
        {"type": rng.choice(list(ACTION_TYPES)), "player": rng.choice(junk)},
        {"type": "draw", "player": game.current_player, "source": rng.choice(junk)},
        {"type": "replace", "player": game.current_player, "slot": rng.choice(junk)},
        {"type": "pass", "player": game.current_player, "extra": 1},
        {"player": game.current_player},
        rng.choice(["draw", 3, None, ["draw"]]),
    ]
    return rng.choice(malformed)


def check_all(game: Game, rng: random.Random, *, pairs: int = 8, fuzz: int = 3) -> None:
    """Every state check at once: conservation, knowledge, no leak for every player (``pairs``
    exchanges each), every listed action accepted, ``fuzz`` random actions refused cleanly or
    listed, and the snapshot round trip. ``game`` is not changed."""
    check_conservation(game)
    check_knowledge(game)
    for p in range(game.players):
        check_no_leak(game, p, rng, pairs=pairs)
    snapshot = game.to_json()
    check_legal_actions_accepted(game, snapshot=snapshot)
    for _ in range(fuzz):
        action = random_action(game, rng)
        if not check_illegal_leaves_state(game, action, snapshot=snapshot) and isinstance(action, dict):
            check_accepted_is_listed(game, action)
    check_snapshot_roundtrip(game, rng, steps=2, variant=game.variant, snapshot=snapshot)


def play_out(
    game: Game,
    chooser: Chooser,
    *,
    call_probability: float = 0.05,
    out_of_turn: float = 0.3,
    match_probability: float = 0.15,
    tick_probability: float = 0.1,
    check_every: int = 0,
    check_rng: random.Random | None = None,
    max_steps: int | None = None,
    on_step: Callable[[Game, Action], None] | None = None,
) -> Game:
    """Play ``game`` to its end with random choices (see ``choose_action``) and return it.

    Conservation is checked after every step when ``check_every > 0``, and every check of
    ``check_all`` at the start, every ``check_every`` steps and at the end (with ``check_rng``,
    which never changes the choices: the same chooser plays the same game whatever is checked);
    the snapshot round trip through a fresh load of the variant at the start and the end, and
    ``check_result`` and ``check_replay`` at the end. The round must end within ``max_steps``
    (default ``step_bound(game)``) actions.
    """
    bound = step_bound(game) if max_steps is None else max_steps
    check_rng = check_rng if check_rng is not None else random.Random(0)
    steps = 0
    try:
        if check_every > 0:
            check_all(game, check_rng)
            check_snapshot_roundtrip(game, check_rng)
        while not game.is_over:
            if steps >= bound:
                raise _fail(game, f"the round has not ended after {steps} actions (bound {bound})")
            action = choose_action(
                game,
                chooser,
                call_probability=call_probability,
                out_of_turn=out_of_turn,
                match_probability=match_probability,
                tick_probability=tick_probability,
            )
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise _fail(game, f"the listed action {_describe(action)} was refused: {exc}") from None
            except Exception as exc:
                raise _fail(
                    game, f"the listed action {_describe(action)} crashed: {type(exc).__name__}: {exc}"
                ) from exc
            steps += 1
            if on_step is not None:
                on_step(game, action)
            if check_every > 0:
                check_conservation(game)
                if steps % check_every == 0 or game.is_over:
                    check_all(game, check_rng)
        if check_every > 0:
            check_result(game)
            check_replay(game)
            check_snapshot_roundtrip(game, check_rng)
    except InvariantViolation as exc:
        exc.actions = list(game.actions)
        raise
    return game


def random_playout(
    variant: Variant | str | Sequence[str],
    players: int,
    seed: int,
    *,
    rng: random.Random | None = None,
    call_probability: float = 0.05,
    out_of_turn: float = 0.3,
    match_probability: float = 0.15,
    tick_probability: float = 0.1,
    check_every: int = 0,
    max_steps: int | None = None,
) -> Game:
    """A random game of ``variant`` dealt with ``seed``, played to its end, returned finished.

    Each step picks a random player (the current one, or with probability ``out_of_turn`` any
    player who has a legal action) and a random legal action of theirs (see ``choose_action``),
    drawn from ``rng`` (default ``random.Random(seed)``). With ``check_every = k > 0`` every
    invariant is checked every k steps (conservation at every step); the checks never change the
    game played, so ``random_playout(v, n, seed, check_every=1)`` replays a ``verify`` failure.
    Raises ``InvariantViolation`` if the round does not end within ``step_bound``.

    >>> g = random_playout("french", players=4, seed=1)
    >>> g.is_over
    True
    """
    game = new_game(_as_variant(variant), players, seed=seed)
    chooser = RandomChooser(rng if rng is not None else random.Random(seed))
    return play_out(
        game,
        chooser,
        call_probability=call_probability,
        out_of_turn=out_of_turn,
        match_probability=match_probability,
        tick_probability=tick_probability,
        check_every=check_every,
        check_rng=random.Random(f"checks-{seed}"),
        max_steps=max_steps,
    )


@dataclass
class VerifyReport:
    """What ``verify`` found: games played, actions applied, and each failure as
    ``(seed, players, message)``."""

    games: int = 0
    actions: int = 0
    failures: list[tuple[int, int, str]] = field(default_factory=list)
    variant: str = ""
    reasons: dict[str, int] = field(default_factory=dict)  # how the games ended: reason -> count

    @property
    def ok(self) -> bool:
        return not self.failures


# Playing styles ``verify`` mixes: (keyword arguments of random_playout, check stride factor). Long
# games (nobody calls: reshuffles, the turn limit) are checked more sparsely to bound the run time.
_STYLES: tuple[tuple[dict[str, Any], int], ...] = (
    ({}, 1),
    ({"out_of_turn": 0.7, "match_probability": 0.6}, 1),  # many matches: penalties, an empty stock
    ({"call_probability": 0.0}, 40),  # nobody calls: reshuffles, the turn limit
)


def _loadable(v: Variant) -> str:
    """How a reproduction names ``v`` so that ``load_variant`` finds it again from anywhere: the names
    it was loaded by, with files as absolute paths; ``variant`` when it was built from a dict."""
    from .variant import is_registered

    spec = v.spec
    parts = [spec] if isinstance(spec, str | Path) else spec
    if not isinstance(parts, list | tuple) or not parts:
        return "variant"
    names = [str(x) if isinstance(x, str) and is_registered(x) else str(Path(str(x)).resolve()) for x in parts]
    return repr(names[0] if isinstance(spec, str | Path) else names)


def _style(i: int) -> tuple[dict[str, Any], int]:
    """Game ``i``'s style: one in ten games plays match-heavy, one in ten never calls."""
    return _STYLES[{4: 1, 9: 2}.get(i % 10, 0)]


def verify(
    variant: Variant | str | Sequence[str],
    *,
    games: int = 100,
    players: int | Iterable[int] | None = None,
    seed: int = 0,
    check_every: int = 4,
) -> VerifyReport:
    """Play ``games`` random games of ``variant`` with every invariant checked and report.

    Game ``i`` is dealt with seed ``seed + i``; ``players`` is a count, several counts, or ``None``
    for every count the variant allows (in turn). Most games call at random (``random_playout``'s
    defaults); one in ten matches a lot, one in ten never calls (reshuffles, the turn limit; checked
    40 times more sparsely). Every invariant is checked every ``check_every`` steps. A failure never
    stops the run: it is recorded with the call that reproduces it.

    >>> report = verify("french", games=10)
    >>> report.ok, report.games
    (True, 10)
    """
    if check_every < 1:
        raise ValueError(f"check_every must be at least 1, got {check_every}")
    v = _as_variant(variant)
    if players is None:
        counts = list(range(v.rules.players.min, v.rules.players.max + 1))
    elif isinstance(players, int):
        counts = [players]
    else:
        counts = list(players)
    if not counts:
        raise ValueError("no player count to verify")
    report = VerifyReport(variant=v.name)
    for i in range(games):
        s, n = seed + i, counts[i % len(counts)]
        style, stride = _style(i)
        report.games += 1
        try:
            game = random_playout(v, n, s, check_every=check_every * stride, **style)
        except Exception as exc:  # every failure is reported, none stops the run
            actions = exc.actions if isinstance(exc, InvariantViolation) else []
            report.actions += len(actions)
            kind = "" if isinstance(exc, InvariantViolation) else f"{type(exc).__name__}: "
            args = "".join(f", {k}={x!r}" for k, x in style.items())
            again = f"tamalou.invariants.random_playout({_loadable(v)}, {n}, {s}{args}, check_every=1)"
            report.failures.append((s, n, f"{kind}{exc} -- reproduce: {again}"))
            continue
        report.actions += len(game.actions)
        reason = game.result().reason
        report.reasons[reason] = report.reasons.get(reason, 0) + 1
    return report
