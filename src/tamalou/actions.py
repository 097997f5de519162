"""Actions: what a player (or the clock) does. Their JSON form is the wire protocol.

Each action is a small frozen dataclass deriving from ``Action``; ``to_dict()`` gives its JSON form and
``parse_action(d)`` reads one back, validated by pydantic (the boundary). An action built in Python is
checked the same way when it is made (``Replace(0, True)`` raises ``IllegalAction``: a slot is an
integer, not a boolean). Inside the engine no validation library runs: the classes are plain slotted
Python, and the engine hands out the same action objects again and again.

| type    | fields                                   |
|---------|------------------------------------------|
| peek    | player, slots                            |
| draw    | player, source ("stock" or "discard")    |
| replace | player, slot                             |
| discard | player                                   |
| power   | player, slot, target, target_slot, owner |
| swap    | player, slot                             |
| pass    | player                                   |
| call    | player                                   |
| match   | player, slots, owner (default: player)   |
| give    | player, slot                             |
| tick    | at                                       |

Every action may carry ``at`` (seconds), used by timed rulesets. A plugin adds an action type by
subclassing ``Action`` the same way (a frozen slotted dataclass with a ``type`` class variable) and
naming it in its mechanic's ``actions`` (see ``tamalou.mechanics``): it is then parsed, validated and
described in the JSON Schema like the built-in ones.

Every action says itself in words, in the events' vocabulary, addressed to the player who takes it:
``Draw(0).describe()`` is "draw from the stock"; given the seat's view, ``describe(view)`` names the cards the
seat sees ("match the 7H with your slot 3 (7C)"). A plugin's action class gives its words as ``text``, a
``str.format`` template over its fields (and the phrases below); a card power gives the words of its uses as
``CardPower.use_text``.
"""

from __future__ import annotations

import itertools
import typing
from collections.abc import Callable
from dataclasses import dataclass, fields
from types import MemberDescriptorType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError

from .action_words import PASS_WORDS, POWER_USE_TEXTS, Words
from .errors import IllegalAction

if TYPE_CHECKING:
    from .views import PlayerView, SeatView

    #: A seat's view, of either kind (``Game.view``, ``Game.seat_view``), or none.
    SomeView: TypeAlias = PlayerView | SeatView | None

_FORBID = ConfigDict(extra="forbid", strict=False)

A = TypeVar("A", bound="Action")


class Action:
    """Base class of every action. ``type`` names it on the wire; ``to_dict()`` is its JSON form."""

    __slots__ = ()
    type: ClassVar[str] = ""
    #: Fields that hold a set of slots (a ``tuple[int, ...]`` whose order means nothing): the action is made with
    #: them in increasing order however they are given, in Python or in JSON, so that it equals the one listed
    #: (for a class ``Reveal`` declaring ``unordered = ("slots",)``: ``Reveal(0, (4, 1)) == Reveal(0, (1, 4))``).
    #: Checked when the class is registered.
    unordered: ClassVar[tuple[str, ...]] = ()
    #: The action in words, for a plugin's action class: a ``str.format`` template over its fields and the phrases
    #: of ``Action.describe`` (``{mine}``: "your slot 2", ``{top}``: the card on the discard...). Empty: the type
    #: and the fields, in words ("sum match: slots 0, 3").
    text: ClassVar[str] = ""
    player: int
    at: float | None

    def __post_init__(self) -> None:
        _check(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """An action from its JSON form (as ``parse_action``); on a subclass, one of that type only
        (``Draw.from_dict({"type": "call", ...})`` raises ``IllegalAction``)."""
        action = parse_action(data)
        if cls is not Action and not isinstance(action, cls):
            raise IllegalAction(f"expected a {cls.type!r} action, got {short(data.get('type'))}")
        return action

    def describe(self, view: SomeView = None, seat: Callable[[int], str] = "player {}".format) -> str:
        """The action in words, addressed to the player who takes it ("draw from the stock", "swap your slot 2
        with player 1's slot 1", "match the 7H with your slot 3"). With the seat's ``view``, the cards it sees are
        named (the discard's top, the card held, its own known cards, the power on offer); ``seat`` names a
        player, as in ``Event.describe``. Never a class name: a plugin's action without ``text`` is its type and
        fields in words."""
        words = Words(self, view, seat)
        if self.text:
            return words.format(self.text)
        facts = [
            f"{name.replace('_', ' ')} {words.listed(getattr(self, name))}"
            for name in field_names(type(self))
            if name not in ("player", "at") and getattr(self, name) is not None
        ]
        kind = self.type.replace("_", " ")
        return f"{kind}: {', '.join(facts)}" if facts else kind

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``type`` first, then the fields that are set."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if v is None:
                continue
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out


@dataclass(frozen=True, slots=True)
class PeekAction(Action):
    """Opening peek where the ruleset lets the player choose which slots."""

    player: int
    slots: tuple[int, ...]
    at: float | None = None
    type: ClassVar[str] = "peek"
    text: ClassVar[str] = "look at {my_slots}"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Take the top card of the stock or of the discard."""

    player: int
    source: Literal["stock", "discard"] = "stock"
    at: float | None = None
    type: ClassVar[str] = "draw"
    text: ClassVar[str] = "draw from the stock"

    def describe(self, view: SomeView = None, seat: Callable[[int], str] = "player {}".format) -> str:
        if self.source == "stock":
            return self.text
        top = view.discard_top if view is not None else None
        return f"take the {top} from the discard" if top else "take the discard's top card"

    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Replace(Action):
    """Put the held card in ``slot``; the card that was there goes face up on the discard."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "replace"

    def describe(self, view: SomeView = None, seat: Callable[[int], str] = "player {}".format) -> str:
        words = Words(self, view, seat)
        there = words.card(self.player, self.slot)
        thrown = f"the {there}" if there else "the card there"
        return f"put {words.held} in your slot {self.slot} and throw {thrown}"

    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Throw the held card onto the discard."""

    player: int
    at: float | None = None
    type: ClassVar[str] = "discard"
    text: ClassVar[str] = "throw {held}"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Power(Action):
    """Use the power on offer, with the targets it needs (each power says which; see its ``uses``).

    The built-in powers: peek_own: ``slot``; peek_opponent and the look of look_and_swap: ``target``,
    ``target_slot``; blind_swap, swap_then_look, look_both_and_swap: ``slot``, ``target``,
    ``target_slot``; swap_any_blind, look_any_two_and_swap: ``owner``, ``slot``, ``target``,
    ``target_slot`` (two cards of two layouts, ``owner < target``); give_stock_card: ``target``.
    ``owner`` is the owner of ``slot`` for powers that pick any card on the table (default: the player).
    """

    player: int
    slot: int | None = None
    target: int | None = None
    target_slot: int | None = None
    at: float | None = None
    owner: int | None = None
    type: ClassVar[str] = "power"

    def describe(self, view: SomeView = None, seat: Callable[[int], str] = "player {}".format) -> str:
        words = Words(self, view, seat)
        if view is not None and view.phase == "swap":  # the second step of a look-at-two power: the swap itself
            return words.format("swap {picked} with {theirs}")
        template = POWER_USE_TEXTS.get(view.power or "") if view is not None else None
        if template:
            return words.format(template)
        parts = []
        if self.slot is not None:
            parts.append(words.format("{picked}"))
        if self.target is not None:
            parts.append(words.format("{theirs}" if self.target_slot is not None else "{target}"))
        power = f"the power ({view.power.replace('_', ' ')})" if view is not None and view.power else "the power"
        return f"use {power} on {' and '.join(parts)}" if parts else f"use {power}"

    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Second step of a look-then-swap power: swap the looked-at card with own ``slot``."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "swap"
    text: ClassVar[str] = "swap the card you looked at with {mine}"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline what is on offer: a power, the swap, a second draw, the end-of-turn call, the closing window."""

    player: int
    at: float | None = None
    type: ClassVar[str] = "pass"
    text: ClassVar[str] = "pass"

    def describe(self, view: SomeView = None, seat: Callable[[int], str] = "player {}".format) -> str:
        if view is None:
            return self.text
        if view.phase == "power" and view.power:
            return f"pass: do not use the power ({view.power.replace('_', ' ')})"
        return PASS_WORDS.get(view.phase, self.text)

    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Call Tamalou."""

    player: int
    at: float | None = None
    type: ClassVar[str] = "call"
    text: ClassVar[str] = "call Tamalou"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class MatchAction(Action):
    """Throw cards of the discard top's rank from ``owner``'s layout (default: one's own)."""

    player: int
    slots: tuple[int, ...]
    owner: int | None = None
    at: float | None = None
    type: ClassVar[str] = "match"
    text: ClassVar[str] = "match {top} with {owner_slots}"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Give(Action):
    """Opponent-matching: fill the opponent's emptied slot with own ``slot``, unseen."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "give"
    text: ClassVar[str] = "give {mine}, unseen, to fill the slot you emptied"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """Turn one of one's own face-down cards face up (``rules.draw.discard_turns_up``: after throwing away the card
    drawn from the stock)."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "flip"
    text: ClassVar[str] = "turn up {mine}"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Tick(Action):
    """Time passes (timed rulesets)."""

    at: float
    type: ClassVar[str] = "tick"
    text: ClassVar[str] = "wait until {at} s"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


BUILTIN_ACTIONS: tuple[type[Action], ...] = (
    PeekAction,
    Draw,
    Replace,
    Discard,
    Power,
    Swap,
    Pass,
    Call,
    MatchAction,
    Give,
    Flip,
    Tick,
)

#: Every action type known to this process, by its wire name (plugins' action types are added when a
#: variant that uses them is loaded).
ACTION_TYPES: dict[str, type[Action]] = {cls.type: cls for cls in BUILTIN_ACTIONS}


def register_action(cls: type[Action]) -> None:
    """Make a plugin's action type known (parsing, JSON Schema, snapshots). Idempotent."""
    kind = getattr(cls, "type", "")
    if not isinstance(cls, type) or not issubclass(cls, Action) or not kind:
        raise TypeError(f"{cls!r} is not an action class (a subclass of tamalou.Action with a 'type')")
    known = ACTION_TYPES.get(kind)
    if known is not None and known is not cls:
        raise ValueError(f"two action classes are named {kind!r}: {known.__qualname__} and {cls.__qualname__}")
    kinds = dict(_kinds(cls))
    for name in cls.unordered:
        if kinds.get(name) != _INTS:
            raise TypeError(f"{cls.__qualname__}.unordered names {name!r}: expected fields of type tuple[int, ...]")
    ACTION_TYPES[kind] = cls


# ----------------------------------------------------------------------------- validation

_INT, _OPT_INT, _INTS, _TIME, _OPT_TIME, _SOURCE, _OTHER = range(7)
_KINDS: dict[type, tuple[tuple[str, int], ...]] = {}


def _kind_of(hint: object) -> int:
    if hint is int:
        return _INT
    if hint is float:
        return _TIME
    if hint == int | None:
        return _OPT_INT
    if hint == float | None:
        return _OPT_TIME
    if hint == tuple[int, ...]:
        return _INTS
    if typing.get_origin(hint) is Literal and set(typing.get_args(hint)) == {"stock", "discard"}:
        return _SOURCE
    return _OTHER


def _kinds(cls: type) -> tuple[tuple[str, int], ...]:
    kinds = _KINDS.get(cls)
    if kinds is None:
        hints = typing.get_type_hints(cls)
        kinds = _KINDS[cls] = tuple((f.name, _kind_of(hints[f.name])) for f in fields(cls))
    return kinds


def _is_int(v: object) -> bool:
    return type(v) is int


#: The ceiling of every time the engine keeps, in seconds (about 31,700 years): an action's ``at`` (a ``Tick``'s
#: too) is below it, and a snapshot (``Game.from_json``) refuses a clock (``now``) or a deadline from it on, so
#: every time an action may carry can be saved and restored. Rulesets' own times are bounded far lower
#: (``schema``: a year each).
MAX_TIME = 1e12
#: The furthest an action moves the clock of a round that keeps deadlines (half ``MAX_TIME``, some 15,800 years):
#: past it, only the deadlines move that clock (a ``Tick`` to one, or an action whose time fires it), or an action
#: once the round is over. A deadline is the clock plus one ruleset time (``schema.MAX_SECONDS`` at most), and a
#: round's deadlines follow one another at most ``MAX_TURNS`` + 3 times (its turns, its opening, its countdown), so
#: from here they stay below ``MAX_TIME``: whatever the clock holds, its snapshot restores. (Without it, a time near
#: ``MAX_TIME`` taken while no deadline ran, in an opening peek of chosen slots, put the next deadline past it.)
CLOCK_REACH = MAX_TIME / 2


def _is_time(v: object) -> bool:
    if type(v) is int:
        return 0 <= v < MAX_TIME
    return type(v) is float and 0 <= v < MAX_TIME  # (NaN fails both comparisons, infinity the second)


#: The largest integer an action field may hold (JSON's safe integers): anything larger is no seat or slot.
_BIG = 2**53


def _fits(kind: int, v: object) -> bool:
    """Whether ``v`` is of the field's kind, strictly (no bool for an int, no text for a number)."""
    if kind == _INT:
        return _is_int(v) and -_BIG < v < _BIG  # type: ignore[operator]
    if kind == _OPT_INT:
        return v is None or (_is_int(v) and -_BIG < v < _BIG)  # type: ignore[operator]
    if kind == _INTS:
        return isinstance(v, list | tuple) and len(v) <= 64 and all(_is_int(x) and -_BIG < x < _BIG for x in v)
    if kind == _TIME:
        return _is_time(v)
    if kind == _OPT_TIME:
        return v is None or _is_time(v)
    if kind == _SOURCE:
        return v == "stock" or v == "discard"
    return True  # a plugin's own field type: checked by pydantic


_EXPECTED = {
    _INT: "an integer",
    _OPT_INT: "an integer or null",
    _INTS: "a list of at most 64 integers",
    _TIME: f"a finite number of seconds, from 0 to below {MAX_TIME:.0e}",
    _OPT_TIME: f"a finite number of seconds, from 0 to below {MAX_TIME:.0e}, or null",
    _SOURCE: "'stock' or 'discard'",
}


def short(value: object, limit: int = 100) -> str:
    """``repr(value)`` cut to about ``limit`` characters (an error never echoes a huge input whole)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _check(action: Action) -> None:
    """Check the fields of an action made in Python as ``parse_action`` checks a dict's."""
    for name, kind in _kinds(type(action)):
        v = getattr(action, name)
        if kind == _INTS and isinstance(v, list):
            v = tuple(v)
            object.__setattr__(action, name, v)
        if not _fits(kind, v) or (kind == _INTS and not isinstance(v, tuple)):
            raise IllegalAction(f"bad {action.type} action: {name}: expected {_EXPECTED[kind]}, got {short(v)}")
    for name in type(action).unordered:  # a set of slots: in increasing order
        v = getattr(action, name)
        if any(a > b for a, b in itertools.pairwise(v)):
            object.__setattr__(action, name, tuple(sorted(v)))


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type[Action]) -> tuple[str, ...]:
    """The field names of an action class, in order (``dataclasses.fields``, looked up once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    return names


#: Per action class whose fields are all slots: the slots' descriptors but ``at``'s, and ``at``'s (``None`` for a
#: class with a field kept elsewhere, e.g. a plugin's dataclass without ``slots=True``).
_SLOTS: dict[type, tuple[tuple[MemberDescriptorType, ...], MemberDescriptorType] | None] = {}


def _slots_of(cls: type) -> tuple[tuple[MemberDescriptorType, ...], MemberDescriptorType] | None:
    found: dict[str, Any] = {name: getattr(cls, name, None) for name in field_names(cls)}
    slots = None
    if "at" in found and all(type(d) is MemberDescriptorType for d in found.values()):
        at = found.pop("at")
        slots = (tuple(found.values()), at)
    _SLOTS[cls] = slots
    return slots


def timed(action: A, at: float | None) -> A:
    """``action`` at the time ``at`` (``dataclasses.replace(action, at=at)`` without checking the other
    fields again: they were checked when ``action`` was made). A timed game's every action goes through
    here: a function made once per class copies the fields slot to slot (past the frozen dataclass's
    ``__setattr__``)."""
    copy = _COPIES.get(type(action))
    if copy is None:
        copy = _copy_for(type(action))
    return copy(action, at)  # type: ignore[no-any-return]


#: Per action class, the function that copies an action of it with another ``at`` (see ``timed``).
_COPIES: dict[type, Callable[[Any, float | None], Any]] = {}


def _copy_for(cls: type) -> Callable[[Any, float | None], Any]:
    slots = _SLOTS[cls] if cls in _SLOTS else _slots_of(cls)
    names = [name for name in field_names(cls) if name != "at"]
    if slots is None:  # a field kept elsewhere than in a slot (a plugin's dataclass without ``slots=True``)

        def copy(action: Any, at: float | None) -> Any:
            new: Any = object.__new__(cls)
            for name in names:
                object.__setattr__(new, name, getattr(action, name))
            object.__setattr__(new, "at", at)
            return new

    else:
        # Written out for the class's fields (as ``dataclasses`` writes a class's ``__init__``): each field read
        # as an attribute and set through its slot's descriptor, with no loop.
        others, at_slot = slots
        params = "".join(f", _s{i}=_others[{i}].__set__" for i in range(len(others)))
        body = "".join(f"    _s{i}(new, action.{name})\n" for i, name in enumerate(names))
        source = (
            f"def copy(action, at, _new=object.__new__, _cls=_cls{params}, _at=_at_slot.__set__):\n"
            f"    new = _new(_cls)\n{body}    _at(new, at)\n    return new\n"
        )
        scope: dict[str, Any] = {"_cls": cls, "_others": others, "_at_slot": at_slot}
        exec(source, scope)
        copy = scope["copy"]
    _COPIES[cls] = copy
    return copy


def made(cls: type[A], *values: Any) -> A:
    """An action of ``cls`` from the values of its fields but ``at`` (left ``None``), in field order, set slot
    to slot and not checked: for values the caller counts itself (seats, slot numbers), where thousands are
    made at once (a power's grid of uses). ``cls``'s fields must all be slots."""
    slots = _SLOTS[cls] if cls in _SLOTS else _slots_of(cls)
    if slots is None or len(values) != len(slots[0]):
        raise TypeError(f"made({cls.__name__}, ...): expected one value per field but at, all slots, got {values!r}")
    others, at_slot = slots
    new = object.__new__(cls)
    for d, v in zip(others, values, strict=True):
        d.__set__(new, v)
    at_slot.__set__(new, None)
    return new


def untimed(action: Action) -> Action:
    """``action`` without its ``at`` (to compare it with the listed actions, which carry none)."""
    return action if action.at is None else timed(action, None)


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form: ``type`` first, then the fields that are set (same as ``action.to_dict()``)."""
    return action.to_dict()


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(cls: type) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


def _strict(cls: type[Action], body: dict[str, Any]) -> None:
    """The JSON values checked strictly before pydantic (whose lax mode would read ``true`` as 1 and
    ``"5"`` as 5)."""
    kinds = dict(_kinds(cls))
    for key, v in body.items():
        kind = kinds.get(key)
        if kind is not None and not _fits(kind, v):
            raise IllegalAction(f"bad {cls.type} action: {key}: expected {_EXPECTED[kind]}, got {short(v)}")


def parse_action(data: Action | dict[str, Any]) -> Action:
    """An action from its JSON form (a dict). Raises ``IllegalAction`` saying what is wrong."""
    if isinstance(data, Action):
        return data
    if not isinstance(data, dict):
        raise IllegalAction(f"an action is an object with a 'type', got {short(data)}")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(f"unknown action type {short(kind)} (types: {', '.join(ACTION_TYPES)})")
    body = {k: v for k, v in data.items() if k != "type"}
    _strict(cls, body)
    try:
        return _adapter(cls).validate_python(body)  # type: ignore[no-any-return]
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or kind
        raise IllegalAction(f"bad {kind} action: {short(where, 60)}: {short(err['msg'], 200)}") from None


def action_json_schema() -> dict[str, Any]:
    """JSON Schema of every action, keyed by type (for clients of the wire protocol)."""
    out: dict[str, Any] = {}
    for kind, cls in ACTION_TYPES.items():
        schema = _adapter(cls).json_schema()
        schema.setdefault("properties", {})["type"] = {"const": kind}
        schema.setdefault("required", []).append("type")
        out[kind] = schema
    return out
