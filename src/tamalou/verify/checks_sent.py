"""The check of events once sent (``events_kept``): an event stays as it was when the step returned it, and its JSON
is of a bounded size.

A server sends each event to the seats the moment ``apply`` returns it, and a client, a log or a replay keeps it: an
event whose facts change afterwards (a mechanic that put its own list in an event and appends to it later, or that
shares one list between two events) tells each reader something else. ``SentEvents`` keeps the JSON text of every
event of a round as it was returned, and compares them all at the end of the round; an event's JSON text holds at
most ``event_bound(game)`` characters (``EVENT_CHARS`` plus ``EVENT_CHARS_PER_CARD`` per card of the game: the
biggest event of the built-in rulesets, the end of a round with every layout shown, holds about 10 per card).
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import Round
from ..engine.game import Game, round_of
from ..events import Event
from .violation import dealt_again, value_diff, violation_of

#: The characters of JSON an event may hold besides those per card (``event_bound``).
EVENT_CHARS = 1_000
#: The characters of JSON an event may hold for each card of the game (``event_bound``).
EVENT_CHARS_PER_CARD = 20


def event_bound(game: Game | Round) -> int:
    """How many characters of JSON (``json.dumps(event.to_dict())``) an event of ``game`` may hold."""
    return EVENT_CHARS + EVENT_CHARS_PER_CARD * len(round_of(game).cards)


def _sent_form(e: Event) -> str | None:
    """The event as it is sent: its JSON text and which seats see its secret facts (``None``: not JSON at all,
    which ``event_schema`` reports)."""
    try:
        return json.dumps([e.type, e.data, e.secret, e.seen_by], sort_keys=True)
    except (TypeError, ValueError):
        return None


class SentEvents:
    """The events of one round as they were sent, step by step (``add``), to compare at its end (``check``)."""

    def __init__(self, game: Game | Round) -> None:
        self.bound = event_bound(game)
        self.sent: list[tuple[int, Event, str]] = []

    def add(self, game: Round, events: list[Event]) -> None:
        """The events of the step that led to ``game`` (``len(game.actions)`` actions in; 0: the deal), as sent:
        an ``events_kept`` violation if one holds more than ``bound`` characters of JSON."""
        step = len(game.actions)
        for e in events:
            text = _sent_form(e)
            if text is None:
                continue
            size = len(json.dumps(e.to_dict()))
            if size > self.bound:
                raise violation_of(
                    game,
                    f"the event {e.type!r} of {_step(step)} holds {size} characters of JSON, {self.bound} at most "
                    f"({EVENT_CHARS} and {EVENT_CHARS_PER_CARD} per card of the game)",
                    "events_kept",
                )
            self.sent.append((step, e, text))

    def check(self, game: Round) -> None:
        """Every event added is as it was sent: an ``events_kept`` violation names the first that changed, its step
        and the field."""
        for step, e, text in self.sent:
            now = _sent_form(e)
            if now == text:
                continue
            kind, data, secret, seen_by = json.loads(text)
            then: dict[str, Any] = {"type": kind, "data": data, "secret": secret, "seen_by": seen_by}
            changed = {"type": e.type, "data": e.data, "secret": e.secret, "seen_by": e.seen_by}
            try:
                diff = value_diff(then, json.loads(json.dumps(changed)), "event")
            except (TypeError, ValueError):
                diff = f"its facts are no longer JSON: {e.data!r}"
            raise violation_of(
                game,
                f"the event {kind!r} of {_step(step)} changed after it was sent (a list or a dict a mechanic keeps, "
                f"put in the event: give the event a copy): {diff}",
                "events_kept",
            )


def _step(step: int) -> str:
    return "the deal" if step == 0 else f"action {step - 1}"


def check_events_kept(game: Game | Round) -> None:
    """``events_kept`` over the whole round so far: the round is played again from its deal (it keeps no events),
    every event kept as it was sent and compared at the state reached. O(actions): a check for the end of a game or
    a test (``tamalou verify`` keeps the events of the games it plays as they come).

    >>> from tamalou.verify import random_playout
    >>> check_events_kept(random_playout("french", players=3, seed=2))
    """
    game = round_of(game)
    fresh = dealt_again(game)
    sent = SentEvents(fresh)
    sent.add(fresh, fresh.start())
    for a in game.actions:
        sent.add(fresh, fresh.apply(a))
    sent.check(fresh)
