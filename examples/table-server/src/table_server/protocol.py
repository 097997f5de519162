"""The JSON messages of the websocket, built for one seat at a time.

Everything a seat receives is made here from what tamalou gives that seat: ``game.view(seat)``,
``game.legal_actions(seat)`` and ``event.for_player(seat)``. Nothing here reads a hidden card.
"""

from __future__ import annotations

import json
from typing import Any

import tamalou

#: The longest message a client may send (an action is well under 1 KB).
MAX_MESSAGE_CHARS = 4096
#: The most events one message carries: a welcome that would hold more holds the first ones, and the rest follow
#: in updates of as many (``Room.connect``). A thousand events are about 50 KB of JSON, a few milliseconds to make.
PIECE_EVENTS = 1000
#: The deepest nesting of a client's JSON (an action is 3 deep: the message, the action, a list of slots).
MAX_DEPTH = 8


class BadMessage(ValueError):
    """A client message that is not JSON, not an object, or not of a known type."""


def state(match: tamalou.Match, seat: int, now: float, busy: bool = False) -> dict[str, Any]:
    """What ``seat`` sees of the room now (the ``state`` of ``welcome`` and ``update`` messages). ``busy``: the
    room's bots are answering (more updates come at once): wait for a state that is not busy to act."""
    game = match.game
    over = match.is_over
    view = game.view(seat)
    # Time is the server's: ticks are not offered to clients.
    legal = [a for a in game.legal_actions(seat) if not isinstance(a, tamalou.Tick)]
    return {
        "view": view.model_dump(mode="json"),
        "legal": [a.to_dict() for a in legal],
        # Each legal action in words, as the library says it to the seat (``Action.describe``): the page's buttons.
        "words": [a.describe(view) for a in legal],
        "to_act": game.to_act,
        "now": now,
        "deadline": game.deadline,
        "over": over,  # the whole match
        "result": game.result().model_dump(mode="json") if game.is_over else None,  # the round's
        "round": match.round,
        "rounds": [list(scores) for scores in match.scores],  # the scores of each round scored
        "match": match.result().model_dump(mode="json") if over else None,
        "busy": busy,
    }


def events_for(seat: int, events: list[tamalou.Event]) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them."""
    return [e.for_player(seat).to_dict() for e in events]


def welcome(
    room: str,
    ruleset: str,
    match: tamalou.Match,
    seat: int,
    seq: int,
    missed: list[tamalou.Event],
    now: float,
    busy: bool = False,
) -> dict[str, Any]:
    return {
        "type": "welcome",
        "seat": seat,
        "room": room,
        "ruleset": ruleset,
        "players": match.players,
        "seq": seq,
        "events": events_for(seat, missed),
        "state": state(match, seat, now, busy),
    }


def update(
    match: tamalou.Match, seat: int, seq: int, new: list[tamalou.Event], now: float, busy: bool = False
) -> dict[str, Any]:
    return {"type": "update", "seq": seq, "events": events_for(seat, new), "state": state(match, seat, now, busy)}


def error(reason: str) -> dict[str, Any]:
    return {"type": "error", "reason": reason}


def notice(text: str) -> dict[str, Any]:
    """Something every seat is told that is not an event of the game (a bot that played the fallback move)."""
    return {"type": "notice", "text": text}


def depth(data: Any) -> int:
    """How deep lists and objects nest in parsed JSON (a number or a text is 0 deep)."""
    most, stack = 0, [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            most = max(most, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return most


def loads(text: str | bytes) -> Any:
    """JSON nested ``MAX_DEPTH`` deep at most; ``BadMessage`` for anything else (JSON so deep that Python's
    parser gives up with a ``RecursionError`` too)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("not JSON (or nested too deep)") from None
    if depth(data) > MAX_DEPTH:
        raise BadMessage(f"JSON nested more than {MAX_DEPTH} deep")
    return data


def parse(text: str) -> dict[str, Any]:
    """A client message as a dict with a ``type``; ``BadMessage`` for anything else."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise BadMessage(f"a message is at most {MAX_MESSAGE_CHARS} characters")
    message = loads(text)
    if not isinstance(message, dict) or message.get("type") not in ("hello", "action"):
        raise BadMessage('expected {"type": "hello", ...} or {"type": "action", ...}')
    return message
