"""Actions: what a player (or the clock) does. Their JSON form is the wire protocol.

Each action is a small frozen dataclass; ``to_dict()`` gives its JSON form and
``parse_action(d)`` reads one back, validated by pydantic (the boundary). Inside the engine no
validation library runs: the classes are plain slotted Python.

| type    | fields                                   |
|---------|------------------------------------------|
| peek    | player, slots                            |
| draw    | player, source ("stock" or "discard")    |
| replace | player, slot                             |
| discard | player                                   |
| power   | player, slot, target, target_slot        |
| swap    | player, slot                             |
| pass    | player                                   |
| call    | player                                   |
| match   | player, slots, owner (default: player)   |
| give    | player, slot                             |
| tick    | at                                       |

Every action may carry ``at`` (seconds), used by timed rulesets.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, TypeAdapter, ValidationError

from .errors import IllegalAction

_FORBID = ConfigDict(extra="forbid", strict=False)


@dataclass(frozen=True, slots=True)
class PeekAction:
    """Opening peek where the ruleset lets the player choose which slots."""

    player: int
    slots: tuple[int, ...]
    at: float | None = None
    type: ClassVar[str] = "peek"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock or of the discard."""

    player: int
    source: Literal["stock", "discard"] = "stock"
    at: float | None = None
    type: ClassVar[str] = "draw"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Replace:
    """Put the held card in ``slot``; the card that was there goes face up on the discard."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "replace"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Discard:
    """Throw the held card onto the discard."""

    player: int
    at: float | None = None
    type: ClassVar[str] = "discard"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Power:
    """Use the power on offer, with the targets it needs.

    peek_own: ``slot``; peek_opponent and the look of look_and_swap: ``target``, ``target_slot``;
    blind_swap: ``slot``, ``target``, ``target_slot``.
    """

    player: int
    slot: int | None = None
    target: int | None = None
    target_slot: int | None = None
    at: float | None = None
    type: ClassVar[str] = "power"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Swap:
    """Second step of look-and-swap: swap the looked-at card with own ``slot``."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "swap"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline what is on offer: a power, the swap, a second draw, the end-of-turn call."""

    player: int
    at: float | None = None
    type: ClassVar[str] = "pass"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Call:
    """Call Tamalou."""

    player: int
    at: float | None = None
    type: ClassVar[str] = "call"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class MatchAction:
    """Throw cards of the discard top's rank from ``owner``'s layout (default: one's own)."""

    player: int
    slots: tuple[int, ...]
    owner: int | None = None
    at: float | None = None
    type: ClassVar[str] = "match"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Give:
    """Opponent-matching: fill the opponent's emptied slot with own ``slot``, unseen."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "give"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes (timed rulesets)."""

    at: float
    type: ClassVar[str] = "tick"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


Action = PeekAction | Draw | Replace | Discard | Power | Swap | Pass | Call | MatchAction | Give | Tick

ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls for cls in (PeekAction, Draw, Replace, Discard, Power, Swap, Pass, Call, MatchAction, Give, Tick)
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form: ``type`` first, then the fields that are set."""
    out: dict[str, Any] = {"type": action.type}
    for f in fields(action):
        v = getattr(action, f.name)
        if v is None:
            continue
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def _adapter(cls: Any) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(cls.type)
    if adapter is None:
        adapter = _ADAPTERS[cls.type] = TypeAdapter(cls)
    return adapter


def parse_action(data: Action | dict[str, Any]) -> Action:
    """An action from its JSON form (a dict). Raises ``IllegalAction`` saying what is wrong."""
    if isinstance(data, tuple(ACTION_TYPES.values())):
        return data  # type: ignore[return-value]
    if not isinstance(data, dict):
        raise IllegalAction(f"an action is an object with a 'type', got {data!r}")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(f"unknown action type {kind!r} (types: {', '.join(ACTION_TYPES)})")
    body = {k: v for k, v in data.items() if k != "type"}
    try:
        return _adapter(cls).validate_python(body)  # type: ignore[no-any-return]
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or kind
        raise IllegalAction(f"bad {kind} action: {where}: {err['msg']}") from None


def action_json_schema() -> dict[str, Any]:
    """JSON Schema of every action, keyed by type (for clients of the wire protocol)."""
    out: dict[str, Any] = {}
    for kind, cls in ACTION_TYPES.items():
        schema = _adapter(cls).json_schema()
        schema.setdefault("properties", {})["type"] = {"const": kind}
        schema.setdefault("required", []).append("type")
        out[kind] = schema
    return out
