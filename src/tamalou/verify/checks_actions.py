"""The checks of actions: every listed action is complete and accepted (``check_legal_actions_accepted``),
a refused action raises ``IllegalAction`` and leaves the game as it was (``check_illegal_leaves_state``,
``check_refusals``), an action ``apply`` accepts is listed (``check_accepted_is_listed``,
``check_listing_complete``), and nothing a client may ask crashes (``check_no_crash``); with
``random_action``, the random, mostly illegal, actions the refusal and listing checks try besides every
near action of the state (``tamalou.verify.neighbourhood``: the listed actions with a seat, a slot or a
target moved, which a client could plausibly send)."""

from __future__ import annotations

import random
from typing import Any

from ..actions import ACTION_TYPES, Action, Tick, action_to_dict, parse_action
from ..engine import Round
from ..engine.game import Game, round_of
from ..errors import IllegalAction, what_raised
from .neighbourhood import check_near_actions, first_unlisted, is_compared
from .violation import StateKey, check_rng, describe_action, json_diff, state_diff, state_of, violation_of


def check_legal_actions_accepted(
    game: Game | Round, *, snapshot: str | None = None, limit: int | None = None, rng: random.Random | None = None
) -> None:
    """Every action that ``legal_actions(p)`` lists, for every player ``p``, is complete (its own
    player, listed once, the same after a trip through its JSON form) and is accepted by ``apply``
    (tried on copies). While the round is not over somebody has an action (or, in a timed
    ruleset, a deadline is due: time will move the round on); once over, nobody.
    ``snapshot``: ``game.to_json()`` if the caller has it already. ``limit``: at most so many of
    each player's listed actions go through JSON and ``apply``, drawn with ``rng`` (default: seeded
    from the game); ``None``: all of them (a ruleset may list hundreds of exchanges).

    >>> from tamalou import new_game
    >>> check_legal_actions_accepted(new_game("french", players=3, seed=4))
    """
    game = round_of(game)
    before = state_of(game) if snapshot is None else snapshot
    anybody = False
    for p in range(game.players):
        listed = game.legal_actions(p)
        anybody = anybody or bool(listed)
        if game.is_over and listed:
            raise violation_of(
                game, f"the round is over but player {p} is offered {describe_action(listed[0])}", "listed_accepted"
            )
        seen: set[Action] = set()
        for a in listed:
            if not isinstance(a, Tick) and a.player != p:
                raise violation_of(
                    game,
                    f"legal_actions({p}) lists an action of another player: {describe_action(a)}",
                    "listed_accepted",
                )
            if a in seen:
                raise violation_of(game, f"legal_actions({p}) lists {describe_action(a)} twice", "listed_accepted")
            seen.add(a)
        tried = listed
        if limit is not None and len(listed) > limit:
            rng = rng if rng is not None else check_rng(game, "listed_accepted")
            tried = rng.sample(listed, limit)
        for a in tried:
            text = describe_action(a)
            if parse_action(action_to_dict(a)) != a:
                raise violation_of(
                    game, f"legal_actions({p}) lists {text}, which changes through its JSON form", "listed_accepted"
                )
            trial = game.copy()
            try:
                trial.apply(a)
            except IllegalAction as exc:
                raise violation_of(
                    game, f"legal_actions({p}) lists {text} but apply refuses it: {exc}", "listed_accepted"
                ) from None
            except Exception as exc:
                raise violation_of(
                    game,
                    f"legal_actions({p}) lists {text} and apply crashes: {what_raised(exc)}",
                    "no_crash",
                ) from exc
    if not game.is_over and not anybody and game.deadline is None:
        raise violation_of(
            game,
            "the round is not over, nobody has a legal action and no deadline is due (deadlock)",
            "listed_accepted",
        )
    if isinstance(before, str):
        changed = None if game.to_json() == before else json_diff(before, game.to_json())
    else:
        changed = state_diff(before, state_of(game))
    if changed is not None:
        raise violation_of(game, f"trying actions on copies changed the game: {changed}", "listed_accepted")


def check_illegal_leaves_state(
    game: Game | Round, action: Action | dict[str, Any] | object, *, snapshot: str | None = None
) -> bool:
    """Apply ``action`` (an action, a JSON dict, or any junk) to a copy of ``game``. If it is refused
    with ``IllegalAction``, the copy must be byte-identical (``to_json``) to the game before; any
    other exception is a violation (a bad action is an ``IllegalAction``, never a crash). Returns
    whether the action was refused; ``game`` itself is never changed. ``snapshot``:
    ``game.to_json()`` if the caller has it already.

    >>> from tamalou import new_game
    >>> g = new_game("french", players=2, seed=5)
    >>> check_illegal_leaves_state(g, {"type": "replace", "player": 0, "slot": 9})
    True
    """
    game = round_of(game)
    return _refusal(game, action, snapshot, None)


def _refusal(game: Round, action: object, snapshot: str | None, base: StateKey | None) -> bool:
    trial = game.copy()
    try:
        trial.apply(action)  # type: ignore[call-overload]
    except IllegalAction:
        if snapshot is not None:
            after = trial.to_json()
            changed = None if after == snapshot else json_diff(snapshot, after)
        else:
            changed = state_diff(base if base is not None else state_of(game), state_of(trial))
        if changed is not None:
            raise violation_of(
                game, f"the refused action {describe_action(action)} changed the game: {changed}", "refusals"
            ) from None
        return True
    except Exception as exc:
        raise violation_of(
            game,
            f"the action {describe_action(action)} raised {type(exc).__name__} instead of IllegalAction: {exc}",
            "refusals",
        ) from exc
    return False


def check_accepted_is_listed(game: Game | Round, action: Action | dict[str, Any]) -> bool:
    """If ``apply`` accepts ``action`` (tried on a copy), it was listed by ``legal_actions`` of its
    player: the listing is complete, not a sample. A multi-card match stands for its one-card
    matches, the order of peeked slots, ``at`` and a default ``owner`` are ignored; a late match
    (somebody else already matched the card), a ``tick`` and an action whose ``at`` is past a
    deadline (it is applied after the deadline fired) are not compared. Returns whether it was
    accepted.

    >>> from tamalou import new_game
    >>> check_accepted_is_listed(new_game("french", 2, seed=1), {"type": "pass", "player": 0})
    False
    """
    game = round_of(game)
    try:
        parsed = parse_action(action)
    except IllegalAction:
        return False
    trial = game.copy()
    try:
        trial.apply(parsed)
    except IllegalAction:
        return False
    if not is_compared(game, parsed):
        return True  # a tick, a late match, or applied after a deadline fired (in another state)
    missing = first_unlisted(game, parsed, {})
    if missing is not None:
        raise violation_of(
            game,
            f"apply accepts {describe_action(parsed)} but legal_actions({parsed.player}) does not list {missing}",
            "listing_complete",
        )
    return True


def _fuzz(game: Round, rng: random.Random, count: int, *, refusals: bool, listing: bool) -> None:
    base = state_of(game) if refusals else None
    for _ in range(count):
        action = random_action(game, rng)
        refused = _refusal(game, action, None, base) if refusals else _refused(game, action)
        if listing and not refused and isinstance(action, dict):
            check_accepted_is_listed(game, action)


def _refused(game: Round, action: object) -> bool:
    try:
        game.copy().apply(action)  # type: ignore[call-overload]
    except IllegalAction:
        return True
    except Exception:
        return False  # not this check's business (``refusals`` says it)
    return False


def check_refusals(
    game: Game | Round, rng: random.Random | None = None, *, actions: int = 3, exhaustive: bool = True
) -> None:
    """Actions tried on copies are refused with ``IllegalAction`` (never another exception), leaving
    the copy byte-identical (``check_illegal_leaves_state``), or accepted: ``actions`` random, mostly
    illegal or malformed, actions (``random_action``, drawn with ``rng``; default: seeded from the game)
    and, with ``exhaustive`` (the default), every near action of the state
    (``tamalou.verify.neighbourhood.near_actions``: the listed actions with a seat, a slot or a target
    moved), so that a refusal that changes the game for one rare slot or target is found.

    >>> from tamalou import new_game
    >>> check_refusals(new_game("french", players=3, seed=1))
    """
    game = round_of(game)
    _fuzz(game, rng if rng is not None else check_rng(game, "refusals"), actions, refusals=True, listing=False)
    if exhaustive:
        check_near_actions(game, listing=False)


def check_listing_complete(
    game: Game | Round, rng: random.Random | None = None, *, actions: int = 3, exhaustive: bool = True
) -> None:
    """Each action ``apply`` accepts (tried on copies) is listed (``check_accepted_is_listed``): of
    ``actions`` random actions (``random_action``, drawn with ``rng``; default: seeded from the game)
    and, with ``exhaustive`` (the default), of every near action of the state
    (``tamalou.verify.neighbourhood.near_actions``), so that a handler accepting a slot one past the
    end, or an opponent's slot the listing never offers, is found. With ``check_refusals`` at the same
    state, the near actions are tried once for both.

    >>> from tamalou import new_game
    >>> check_listing_complete(new_game("french", players=3, seed=1))
    """
    game = round_of(game)
    _fuzz(game, rng if rng is not None else check_rng(game, "listing_complete"), actions, refusals=False, listing=True)
    if exhaustive:
        check_near_actions(game, refusals=False)


def check_no_crash(game: Game | Round) -> None:
    """Nothing a client may ask raises but ``IllegalAction``: every seat's ``legal_actions`` and
    ``view``, every listed action applied (on copies: a refusal is ``listed_accepted``'s business),
    and the result once the round is over. A plugin's hook that raises is turned by the engine into
    ``PluginError``: here it is a violation that names the action.

    >>> from tamalou import new_game
    >>> check_no_crash(new_game("french", players=3, seed=1))
    """
    game = round_of(game)
    for p in range(game.players):
        try:
            listed = game.legal_actions(p)
            game.view(p)
        except Exception as exc:
            raise violation_of(game, f"legal_actions({p}) or view({p}) raised {what_raised(exc)}", "no_crash") from exc
        for a in listed:
            try:
                game.copy().apply(a)
            except IllegalAction:
                continue
            except Exception as exc:
                raise violation_of(
                    game,
                    f"the listed action {describe_action(a)} crashed: {what_raised(exc)}",
                    "no_crash",
                ) from exc
    if game.is_over:
        try:
            game.result()
        except Exception as exc:
            raise violation_of(game, f"result() raised {what_raised(exc)}", "no_crash") from exc


# ----------------------------------------------------------------------------- random actions


def random_action(game: Game | Round, rng: random.Random) -> dict[str, Any] | object:
    """A random, probably illegal, action for robustness checks: a listed action with one field
    changed, a well-typed action with random fields, or a malformed one (missing or extra fields,
    wrong types, unknown type, not a dict at all).

    >>> check_illegal_leaves_state(g, random_action(g, random.Random(3)))  # doctest: +SKIP
    """
    game = round_of(game)
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
