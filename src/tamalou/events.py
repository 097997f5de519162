"""Events: what happened, as each seat may see it.

``Game.apply`` returns a list of ``Event``. An event has public facts (``data``) and, for some,
secret facts (``secret``: e.g. the card a player drew) that only the players of ``seen_by`` see.
``event.for_player(p)`` is the event as player ``p`` sees it: the secret fields are present for
those who saw them and ``None`` for the others. A server sends ``for_player(p).to_dict()`` to
each seat and the full event to nobody.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any


class Event:
    """One thing that happened. ``type`` names it; ``to_dict()`` is its JSON form."""

    __slots__ = ("data", "secret", "seen_by", "type")

    def __init__(self, type: str, data: dict[str, Any], secret: dict[str, Any] | None = None, seen_by: int = 0) -> None:
        self.type = type
        self.data = data
        self.secret = secret
        self.seen_by = seen_by  # bit p set: player p sees the secret fields

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.type, self.data, self.secret, self.seen_by))

    def __getitem__(self, key: str) -> Any:
        if key == "type":
            return self.type
        if key in self.data:
            return self.data[key]
        if self.secret is not None and key in self.secret:
            return self.secret[key]
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def sees(self, player: int) -> bool:
        """Whether ``player`` sees this event's secret fields."""
        return bool(self.seen_by >> player & 1)

    def for_player(self, player: int) -> Event:
        """The event as ``player`` may see it: secret fields hidden (``None``) unless they saw them."""
        if self.secret is None or self.seen_by >> player & 1:
            return Event(self.type, dict(self.data), dict(self.secret) if self.secret else None, 1 << player)
        return Event(self.type, dict(self.data), dict.fromkeys(self.secret), 0)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``type``, then the facts (secret ones included as this event holds them)."""
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.secret:
            out.update(self.secret)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], secret: tuple[str, ...] = (), seen_by: int = 0) -> Event:
        """An event from its JSON form (``to_dict``, as a seat receives it): ``Event.from_dict(e.to_dict()) == e``,
        and it describes itself as ``e`` does. The JSON form does not say which facts were secret: they are
        public facts here, but those named in ``secret``, seen by the seats of the bitmask ``seen_by`` (a client
        that reads back an event it received needs neither: the facts it was not shown are already ``null``).
        Raises ``ValueError`` for a form without a ``type``."""
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str) or not data["type"]:
            raise ValueError(f"an event's JSON form is an object with a non-empty 'type', got {data!r:.100}")
        facts = {k: v for k, v in data.items() if k != "type"}
        hidden = {k: facts.pop(k) for k in secret if k in facts}
        return cls(data["type"], facts, hidden or None, seen_by)

    def describe(self, seat: Callable[[int], str] = "player {}".format) -> str:
        """One line of English for a log (hidden fields read as "a card"); ``seat`` names a player. A plugin's
        event is worded by its plugin (``EVENT_TEXTS``), else listed as its facts."""
        d = {**self.data, **(self.secret or {})}
        for key in ("player", "owner", "target", "by", "first_player"):
            if isinstance(d.get(key), int):
                d[key] = seat(d[key])
        for key in ("players", "winners"):  # lists of seats: named as seats (a count of players stays a number)
            if isinstance(d.get(key), list):
                d[key] = [seat(p) if isinstance(p, int) else p for p in d[key]] or ["nobody"]
        if self.type == "turn" and isinstance(d.get("turn"), int):
            d["turn"] += 1  # the JSON counts turns played before this one; players count from 1
        if isinstance(d.get("power"), str):
            title, words = power_title(d["power"]), d["power"].replace("_", " ")
            # (a power without a title of its own is called by its name in words: said once, not twice)
            d["power"] = words if title.lower() == words else f"{words} ({title[:1].lower()}{title[1:]})"
        template = _TEXT.get(self.type) or EVENT_TEXTS.get(self.type)
        if self.type == "swapped" and "owner" in d:  # two cards of which neither need be the player's
            template = "{player} swaps {owner}'s slot {slot} with {target}'s slot {target_slot}"
        if self.type == "turned_up" and "by" in d:  # turned up by another player
            template = "{by} turns up {player}'s slot {slot}: {card}"
        if self.type == "replaced_from_stock" and "card" in d:  # the new card lies face up
            template = "{player}'s slot {slot}: {thrown} is thrown and replaced from the stock by {card}, face up"
        if self.type == "looked" and self.data.get("owner") == self.data.get("player"):  # one's own card
            template = "{player} looks at own slot {slot}: {card}"
        if template is None:
            facts = ", ".join(f"{k}={v}" for k, v in d.items())
            return f"{self.type}: {facts}" if facts else self.type
        if "card" in d and d["card"] is None:
            d["card"] = "a card"
        if "cards" in d and d["cards"] is None:  # hidden from this seat: as many as the slots named
            count = len(d["slots"]) if isinstance(d.get("slots"), list) else 0
            d["cards"] = f"{count} cards" if count > 1 else "a card"
        if self.type == "dealt" and isinstance(d.get("slots"), list) and len(set(d["slots"])) == 1:
            d["slots"] = d["slots"][0]  # "4 cards each" (a list only when the layouts differ)
        for key, value in d.items():
            if isinstance(value, list | tuple):  # lists in words: slots 0, 1; cards 7C 2S (no Python reprs)
                d[key] = (" " if key in _SPACED else ", ").join("a card" if v is None else str(v) for v in value)
        try:
            return template.format(**d)
        except (KeyError, IndexError):
            return f"{self.type}: {d}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Event({self.to_dict()!r})"


#: The words for each card power's name, as its class gives them (``CardPower.title``; the name in words when it
#: gives none): the one vocabulary of ``describe``, the command line's log and the reference pages. Filled as
#: power classes are defined.
POWER_TITLES: dict[str, str] = {}


def power_title(name: str) -> str:
    """The words for a power's name (``power_title("blind_swap")``: "Swap one of your cards with one of an
    opponent's, nobody looking"), for any power class defined so far; the name in words for an unknown one."""
    return POWER_TITLES.get(name, name.replace("_", " "))


#: The facts listed with spaces (cards: ``7C 2S``); other lists take commas (slots: ``0, 1``).
_SPACED = frozenset(("cards", "hands"))

_TEXT = {
    "dealt": "{players} players, {slots} cards each; discard shows {discard_top}; {first_player} starts",
    "peeked": "{player} looks at slots {slots}: {cards}",
    "turn": "-- turn {turn}: {player}",
    "drew": "{player} draws {card} from the {source}",
    "replaced": "{player} puts it in slot {slot} and throws {card}",
    "discarded": "{player} throws {card}",
    "power_offered": "{player} may use {power}",
    "power_passed": "{player} may use the passed-on {power} instead of drawing",
    "looked": "{player} looks at {owner}'s slot {slot}: {card}",
    "swapped": "{player} swaps own slot {slot} with {target}'s slot {target_slot}",
    "turned_up": "{player} turns up slot {slot}: {card}",
    "passed": "{player} passes ({phase})",
    "called": "{player} calls Tamalou!",
    "last_lap": "{player} begins the last lap ({reason}): every other player plays once more",
    "matched": "{player} matches {owner}'s {card} (slot {slot})",
    "missed": "{player} misses with {owner}'s {card} (slot {slot}): it goes back",
    "late": "{player} is too late with {card} (slot {slot}): it goes back",
    "penalty": "{player} takes a penalty card into slot {slot}",
    "no_penalty_card": "no card left for {player}'s penalty",
    "give_owed": "{player} owes {owner} {count} card(s)",
    "gave": "{player} gives own slot {slot} to {target}'s slot {target_slot}",
    "reshuffled": "the discard is shuffled into a new stock of {stock_size} cards",
    "skipped": "{player} misses the turn ({reason})",
    "draw_offered": "{player} may draw again",
    "play_again": "{player} plays again",
    "draw_up_to": "{player} may draw up to {draws} cards",
    "draw_again": "{player} threw it and draws again ({left} more after this one at most)",
    "opening": "the opening peek lasts until {until} s",
    "opening_over": "the opening peek is over ({at} s)",
    "countdown": "last chance to match, until {until} s",
    "timeout": "{player} ran out of time ({phase}, {at} s)",
    "left": "{player} ran out of clock and leaves the round",
    "closing": "last chance to match the last card thrown: {players}",
    "window": "the window on {card} is open: {players} match or pass",
    "window_closed": "the window is closed",
    "penalty_capped": "{player} is spared {spared} penalty card(s): at most {cap} cards in a layout",
    "no_card": "no card left to deal to {player}",
    "redrawn": "{card} may not start the discard: it is buried in the stock and {discard_top} is turned up",
    "replaced_from_stock": "{player}'s slot {slot}: {thrown} is thrown and replaced from the stock",
    "given": "{by} gives {player} the stock's top card, unseen, into slot {slot}",
    "round_over": "round over ({reason}): totals {totals}; winners {winners}",
}


#: The words of the events that plugins emit, by event type: the templates their mechanics and powers give
#: (``Mechanic.event_texts``, ``CardPower.event_texts``), recorded when a ruleset that plays them is loaded
#: (``register_event_texts``). ``describe`` formats one with the event's facts as it formats tamalou's own.
EVENT_TEXTS: dict[str, str] = {}
#: Who gave the words of each type of ``EVENT_TEXTS`` (a class and its plugin).
_EVENT_TEXT_OWNERS: dict[str, str] = {}


def register_event_texts(texts: Mapping[str, str], owner: str) -> str | None:
    """Record ``texts`` (event type -> a ``str.format`` template over the event's facts), given by ``owner`` (in
    words, for messages); ``None`` when done, else why they cannot be: a type of tamalou's own, a type another
    owner gave other words, or a template that is not one. Nothing is recorded then."""
    for kind, template in texts.items():
        if not isinstance(kind, str) or not isinstance(template, str) or not kind or not template:
            return f"{owner}: event_texts maps event types to templates (two non-empty strings), not {kind!r}"
        if kind in _TEXT:
            return f"{owner}: event_texts: {kind!r} is an event of tamalou's own, worded by tamalou"
        before = _EVENT_TEXT_OWNERS.get(kind)
        if before is not None and before != owner and EVENT_TEXTS.get(kind) != template:
            return f"{owner}: event_texts: {before} gives other words to the event {kind!r}"
        try:
            fields = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
        except ValueError as exc:
            return f"{owner}: event_texts: the template of {kind!r} is not a str.format template ({exc})"
        if any(not name.isidentifier() for name in fields):
            return f"{owner}: event_texts: the template of {kind!r} names its fields by name only ({template!r})"
    for kind, template in texts.items():
        EVENT_TEXTS[kind] = template
        _EVENT_TEXT_OWNERS.setdefault(kind, owner)  # the same words again by another owner: the first keeps them
    return None
