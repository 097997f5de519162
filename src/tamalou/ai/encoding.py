"""A fixed numbering of the actions of a ruleset: ``ActionSpace.of(variant, players)``.

Learning agents pick an integer from a fixed range and need a mask of the legal ones. An
``ActionSpace`` numbers every action a seat of ``variant`` (with ``players`` players) could ever take,
derived from the action classes the variant's rulebook accepts (the core's, its mechanics', a plugin's
new move), so that a plugin power or move is in the space without any code here:

- The action *types* are those the variant's phase table handles (``Tick`` aside: it has no player),
  in the order of their wire names (``call``, ``discard``, ``draw``, ``exchange_equal``...). Each type
  has a block of consecutive ids, its fields numbered in mixed radix (the last field varies fastest).
- An id does not include the acting seat: ``space.action(i, player)`` needs it, and the seats an action
  names (``target``, ``owner``...) are numbered *relative* to it (``+0`` is the acting seat itself,
  ``+1`` the next seat...). So "look at the next player's card 2" has the same id for every seat.
- Each field's range comes from its type and its name: a seat (``target``, ``owner``, ``giver``,
  ``opponent``, ``seat``, ``victim``, or a name ending in ``player``): ``players`` values; a slot (a name
  ending in ``slot``): ``0 .. max_slots - 1``; a group of slots (``tuple[int, ...]`` named ``slots`` or
  ending in ``slots``): distinct slots, none, one or two in any order ("this card, then that one"),
  or three to ``max_group`` in increasing order (``groups``); a ``Literal``: its values; a ``bool``:
  ``False``, ``True``. An optional field (``... | None``) has one more value, ``None``, numbered first.
  A plugin's action class with other fields declares their ranges in a class variable ``ai_fields``
  (``{"field": "seat" | "slot" | "slots" | (value, ...)}``); a field with no known range is an
  ``ActionEncodingError`` when the space is made.
- ``max_slots`` (``default_max_slots``: the deal's cards + 12) bounds the slot numbers: a layout grows
  by penalty cards, and an action on a slot at or beyond it cannot be encoded (``id`` raises
  ``ActionEncodingError``; ``mask`` and ``legal_ids`` leave it out unless ``strict=True``).
  ``max_group`` (``default_max_group``: 4, or more if the ruleset peeks or matches more cards at once)
  bounds the groups of slots.

The same variant, player count and bounds give the same ids in every process (nothing depends on
hashing or on the order plugins were imported in). ``space.size`` is the number of ids;
``space.describe(i)`` and ``space.names`` say what each is; ``space.summary()`` is the table of blocks.

>>> import tamalou
>>> space = ActionSpace.of("french", 2)
>>> space.describe(space.id(tamalou.Draw(0, "discard")))
'draw source=discard'
>>> space.action(space.id(tamalou.Power(1, slot=0, target=0, target_slot=3)), 1)
Power(player=1, slot=0, target=0, target_slot=3, at=None, owner=None)
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from dataclasses import fields
from itertools import combinations, permutations
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from ..actions import Action, Tick, untimed
from ..engine.rulebook import rulebook
from ..errors import ActionEncodingError
from ..resolver import resolve
from ..schema import Variant

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.round import Round

__all__ = [
    "ActionEncodingError",
    "ActionSpace",
    "action_from_id",
    "action_id",
    "default_max_group",
    "default_max_slots",
    "legal_mask",
]

#: Field names read as a seat (besides names ending in "player").
SEAT_NAMES = frozenset({"target", "owner", "giver", "opponent", "seat", "victim"})
#: The field kinds ``ai_fields`` may name.
SEAT, SLOT, SLOTS, VALUES = "seat", "slot", "slots", "values"
#: Groups of slots up to this size are numbered in every order; larger ones in increasing order only.
ORDERED = 2


def default_max_slots(variant: Variant) -> int:
    """The slots an action space numbers by default: the cards dealt to each player, plus 12 for the
    penalty cards and new slots a layout may gain (16 for every built-in ruleset)."""
    return int(variant.rules.deal.cards) + 12


def default_max_group(variant: Variant) -> int:
    """The largest group of slots an action space numbers by default: 4, or the ruleset's chosen
    opening peek or ``matching.max_cards`` if larger."""
    r = variant.rules
    peek = r.peek.count if r.peek.mode == "choose" else 0
    return max(4, int(peek), int(r.matching.max_cards))


class _Field:
    """One encoded field of an action class: its kind, whether ``None`` is allowed, its values."""

    __slots__ = ("index", "kind", "name", "optional", "radix", "stride", "values")

    def __init__(self, name: str, kind: str, optional: bool, values: Sequence[Any]) -> None:
        self.name = name
        self.kind = kind
        self.optional = optional
        self.values: tuple[Any, ...] = tuple(values)
        self.index: dict[Any, int] = {v: i for i, v in enumerate(self.values)}
        self.radix = len(self.values) + (1 if optional else 0)
        self.stride = 1

    def describe(self) -> str:
        what = {
            SEAT: f"a seat relative to the actor (+0 .. +{len(self.values) - 1})",
            SLOT: f"a slot 0 .. {len(self.values) - 1}",
            SLOTS: f"a group of distinct slots ({len(self.values)} groups)",
        }.get(self.kind, "one of " + ", ".join(repr(v) for v in self.values))
        return f"{self.name}: {what}{', or None (first)' if self.optional else ''} — {self.radix} values"


class _Block:
    """The ids of one action class: ``offset .. offset + size - 1``."""

    __slots__ = ("cls", "fields", "offset", "size")

    def __init__(self, cls: type[Action], fields_: list[_Field], offset: int) -> None:
        self.cls = cls
        self.fields = fields_
        self.offset = offset
        size = 1
        for f in reversed(fields_):
            f.stride = size
            size *= f.radix
        self.size = size


def _optional(hint: Any) -> tuple[Any, bool]:
    """``(inner type, True)`` for ``X | None``, else ``(hint, False)``."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(args) < len(typing.get_args(hint)):
            return args[0], True
    return hint, False


def _field(cls: type[Action], name: str, hint: Any, players: int, max_slots: int, max_group: int) -> _Field:
    declared = getattr(cls, "ai_fields", None) or {}
    inner, optional = _optional(hint)
    kind = declared.get(name)
    if kind is None:
        if inner is bool:
            kind = (False, True)
        elif typing.get_origin(inner) is Literal:
            kind = typing.get_args(inner)
        elif inner is int and (name in SEAT_NAMES or name.endswith("player")):
            kind = SEAT
        elif inner is int and name.endswith("slot"):
            kind = SLOT
        elif inner == tuple[int, ...] and name.endswith("slots"):
            kind = SLOTS
        else:
            raise ActionEncodingError(
                f"cannot number field {name!r} of action type {cls.type!r} ({cls.__qualname__}: {hint!r}): "
                f"declare its range in {cls.__qualname__}.ai_fields, e.g. {{{name!r}: 'seat'}} "
                "('seat', 'slot', 'slots' or a tuple of its values)"
            )
    if kind == SEAT:
        return _Field(name, SEAT, optional, range(players))
    if kind == SLOT:
        return _Field(name, SLOT, optional, range(max_slots))
    if kind == SLOTS:
        return _Field(name, SLOTS, optional, groups(max_slots, max_group))
    if isinstance(kind, tuple) and kind:
        return _Field(name, VALUES, optional, kind)
    raise ActionEncodingError(f"{cls.__qualname__}.ai_fields[{name!r}] = {kind!r}: expected 'seat', 'slot', 'slots'")


def groups(max_slots: int, max_group: int) -> list[tuple[int, ...]]:
    """The groups of slots a ``slots`` field may hold, in id order: the empty group; every sequence of
    ``ORDERED`` or fewer distinct slots, in any order (a move may mean "this card, then that one"); every
    set of more (up to ``max_group``), in increasing order."""
    out: list[tuple[int, ...]] = [()]
    for k in range(1, max_group + 1):
        pick = permutations if k <= ORDERED else combinations
        out.extend(pick(range(max_slots), k))
    return out


def _action_classes(variant: Variant) -> list[type[Action]]:
    """The action classes the variant's rulebook accepts from a player, by wire name."""
    rb = rulebook(variant)
    found: set[type[Action]] = set()
    for handlers in rb.flow.dispatch.values():
        found.update(handlers)
    for m in rb.mechanics:
        found.update(m.actions)
    return sorted(
        (c for c in found if c is not Tick and "player" in {f.name for f in fields(c)}),  # type: ignore[arg-type]
        key=lambda c: c.type,
    )


_SPACES: dict[tuple[int, int, int, int], tuple[Variant, ActionSpace]] = {}


class ActionSpace:
    """The numbering of every action of ``variant`` with ``players`` players (see the module's text).

    ``size``: how many ids; ``id(action)``; ``action(i, player)``; ``mask(game, player)`` (a numpy bool
    array of ``size``); ``legal_ids(game, player)``; ``describe(i)``; ``names``; ``summary()``.
    """

    __slots__ = (
        "_blocks",
        "_by_class",
        "_equal",
        "_ids",
        "_names",
        "max_group",
        "max_slots",
        "players",
        "size",
        "variant",
    )

    def __init__(self, variant: Variant, players: int, *, max_slots: int, max_group: int) -> None:
        if type(players) is not int or players < 1:
            raise ActionEncodingError(f"players must be a positive integer, got {players!r}")
        if type(max_slots) is not int or max_slots < 1 or type(max_group) is not int or max_group < 0:
            raise ActionEncodingError(f"max_slots >= 1 and max_group >= 0, got {max_slots!r}, {max_group!r}")
        self.variant = variant
        self.players = players
        self.max_slots = max_slots
        self.max_group = max_group
        blocks: list[_Block] = []
        offset = 0
        for cls in _action_classes(variant):
            hints = typing.get_type_hints(cls)
            fs = [
                _field(cls, f.name, hints[f.name], players, max_slots, max_group)
                for f in fields(cls)  # type: ignore[arg-type]
                if f.name not in ("player", "at")
            ]
            block = _Block(cls, fs, offset)
            blocks.append(block)
            offset += block.size
        self._blocks = blocks
        self._by_class = {b.cls: b for b in blocks}
        self.size = offset
        self._ids: dict[Action, int] = {}
        self._names: list[str] | None = None
        self._equal: Variant | None = None  # a copy of ``variant`` (equal, another object) a game was checked with

    @classmethod
    def of(
        cls,
        variant: Variant | str | Sequence[str],
        players: int,
        *,
        max_slots: int | None = None,
        max_group: int | None = None,
    ) -> ActionSpace:
        """The action space of ``variant`` (a ``Variant``, a name or a composition) for ``players``
        players, made once per process and bounds (``max_slots``, ``max_group``: see the module)."""
        v = resolve(variant)
        slots = default_max_slots(v) if max_slots is None else max_slots
        group = default_max_group(v) if max_group is None else max_group
        key = (id(v), players, slots, group)
        found = _SPACES.get(key)
        if found is not None and found[0] is v:
            return found[1]
        space = cls(v, players, max_slots=slots, max_group=group)
        _SPACES[key] = (v, space)  # the variant is kept alive: its id is never reused for another
        return space

    # ----------------------------------------------------------------------------- ids

    def _code(self, f: _Field, v: Any, player: int, a: Action) -> int:
        if v is None:
            if f.optional:
                return 0
            raise ActionEncodingError(f"{a.type} action: {f.name} is None")
        base = 1 if f.optional else 0
        if f.kind == SEAT:
            if type(v) is int and 0 <= v < self.players:
                return base + (v - player) % self.players
            raise ActionEncodingError(f"{a.type} action: {f.name}={v!r} is not a seat of a {self.players}-player game")
        if f.kind == SLOT:
            if type(v) is int and 0 <= v < self.max_slots:
                return base + v
            if type(v) is int and v >= self.max_slots:
                raise _beyond(a, f.name, v, self.max_slots)
            raise ActionEncodingError(f"{a.type} action: {f.name}={v!r} is not a slot")
        j = f.index.get(v)
        if j is None:
            if f.kind == SLOTS and isinstance(v, tuple) and any(type(s) is int and s >= self.max_slots for s in v):
                raise _beyond(a, f.name, max(v), self.max_slots)
            if f.kind == SLOTS:
                raise ActionEncodingError(
                    f"{a.type} action: {f.name}={v!r}: a group of slots is encoded as up to {ORDERED} distinct "
                    f"slots in any order, or up to {self.max_group} in increasing order "
                    "(ActionSpace.of(..., max_group=...) allows more)"
                )
            raise ActionEncodingError(f"{a.type} action: {f.name}={v!r} is none of {f.values!r}")
        return base + j

    def id(self, action: Action) -> int:
        """The id of ``action`` (its ``at`` ignored). Raises ``ActionEncodingError`` saying why it has none:
        a type this variant does not accept, a slot beyond ``max_slots``, a seat that does not exist..."""
        i = self._ids.get(action)
        if i is not None:
            return i
        a = untimed(action)
        block = self._by_class.get(type(a))
        if block is None:
            known = ", ".join(b.cls.type for b in self._blocks)
            raise ActionEncodingError(
                f"no action type {getattr(a, 'type', type(a).__name__)!r} in the action space of "
                f"{self.variant.name} for {self.players} players (types: {known})"
            )
        player = a.player
        if type(player) is not int or not 0 <= player < self.players:
            raise ActionEncodingError(
                f"{a.type} action: player {player!r} is not a seat of a {self.players}-player game"
            )
        i = block.offset
        for f in block.fields:
            i += self._code(f, getattr(a, f.name), player, a) * f.stride
        if len(self._ids) > 200_000:
            self._ids.clear()
        self._ids[action] = i
        return i

    def encodable(self, action: Action) -> bool:
        """Whether ``action`` has an id (``id`` would not raise)."""
        try:
            self.id(action)
        except ActionEncodingError:
            return False
        return True

    def _block_of(self, i: int) -> _Block:
        if type(i) is not int and not isinstance(i, np.integer):
            raise ActionEncodingError(f"an action id is an integer, got {i!r}")
        if not 0 <= i < self.size:
            raise ActionEncodingError(f"no action id {i!r}: ids go from 0 to {self.size - 1}")
        lo, hi = 0, len(self._blocks) - 1
        while lo < hi:  # the last block whose offset is <= i
            mid = (lo + hi + 1) // 2
            if self._blocks[mid].offset <= i:
                lo = mid
            else:
                hi = mid - 1
        return self._blocks[lo]

    def _values(self, i: int, player: int) -> tuple[_Block, dict[str, Any]]:
        block = self._block_of(i)
        rest = int(i) - block.offset
        values: dict[str, Any] = {}
        for f in block.fields:
            c, rest = divmod(rest, f.stride)
            if f.optional:
                if c == 0:
                    values[f.name] = None
                    continue
                c -= 1
            values[f.name] = (player + c) % self.players if f.kind == SEAT else f.values[c]
        return block, values

    def action(self, i: int, player: int) -> Action:
        """The action with id ``i`` taken by seat ``player`` (``id(action(i, p)) == i``). Whether it is
        legal now is the game's business: see ``mask``."""
        if type(player) is not int or not 0 <= player < self.players:
            raise ActionEncodingError(f"player {player!r} is not a seat of a {self.players}-player game")
        block, values = self._values(i, player)
        return block.cls(player=player, **values)  # type: ignore[call-arg]

    # ----------------------------------------------------------------------------- masks

    def _check_game(self, game: Game | Round) -> None:
        """The game is of this space's ruleset (the same object, or an equal one: a game restored from a snapshot,
        a pickle or a deep copy has its own copy of the ruleset) and player count."""
        v = game.variant
        if v is not self.variant and v is not self._equal and v == self.variant:
            self._equal = v  # the last equal copy seen: its game's next moves are checked by identity
        if (v is not self.variant and v is not self._equal) or game.players != self.players:
            raise ActionEncodingError(
                f"this action space is {self.variant.name} for {self.players} players; the game is "
                f"{game.variant.name} for {game.players}: use ActionSpace.of(game.variant, game.players)"
            )

    def legal_ids(self, game: Game | Round, player: int, *, strict: bool = False) -> list[int]:
        """The ids of ``game.legal_actions(player)``, in its order. An action on a slot beyond
        ``max_slots`` is left out (``strict=True``: raises ``ActionEncodingError``), and so is ``Tick``
        (timed rulesets: time passing is nobody's decision)."""
        self._check_game(game)
        out: list[int] = []
        ids = self._ids
        for a in game.legal_actions(player):
            if type(a) is Tick:  # the clock's, no seat's decision (timed rulesets)
                continue
            i = ids.get(a)
            if i is None:
                try:
                    i = self.id(a)
                except _Beyond:
                    if strict:
                        raise
                    continue
            out.append(i)
        return out

    def mask(self, game: Game | Round, player: int, *, strict: bool = False) -> npt.NDArray[np.bool_]:
        """A bool array of ``size``: ``True`` at the id of each of ``game.legal_actions(player)`` (see
        ``legal_ids`` for actions beyond ``max_slots``)."""
        m = np.zeros(self.size, dtype=np.bool_)
        m[self.legal_ids(game, player, strict=strict)] = True
        return m

    # ----------------------------------------------------------------------------- words

    def describe(self, i: int, player: int | None = None) -> str:
        """What id ``i`` is, in words: ``"power slot=0 target=+1 target_slot=2"`` (seats relative to the
        actor), or with ``player`` the action of that seat in words and as JSON (``Action.describe``: ``"draw from
        the stock {'type': 'draw', 'player': 1, 'source': 'stock'}"``)."""
        if player is not None:
            action = self.action(i, player)
            return f"{action.describe()} {action.to_dict()}"
        block, values = self._values(i, 0)
        parts = [block.cls.type]
        for f in block.fields:
            v = values[f.name]
            if v is None:
                continue
            if f.kind == SEAT:
                v = f"+{v}"
            elif f.kind == SLOTS:
                v = ",".join(map(str, v)) or "()"
            parts.append(f"{f.name}={v}")
        return " ".join(parts)

    @property
    def names(self) -> list[str]:
        """``describe(i)`` of every id, in order (made on first use)."""
        if self._names is None:
            self._names = [self.describe(i) for i in range(self.size)]
        return self._names

    def blocks(self) -> list[tuple[str, int, int, list[str]]]:
        """Per action type: its wire name, first id, number of ids, and its fields' ranges in words."""
        return [(b.cls.type, b.offset, b.size, [f.describe() for f in b.fields]) for b in self._blocks]

    def summary(self) -> str:
        """The blocks as a text table (the documentation shows the French one)."""
        lines = [
            f"{self.variant.name}, {self.players} players: {self.size} ids (max_slots={self.max_slots}, "
            f"max_group={self.max_group})"
        ]
        for kind, offset, size, described in self.blocks():
            lines.append(f"  {offset:>6} .. {offset + size - 1:>6}  {kind}" + "".join(f"; {d}" for d in described))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<ActionSpace {self.variant.name} players={self.players} size={self.size}>"


class _Beyond(ActionEncodingError):
    """An action on a slot at or beyond ``max_slots`` (a layout grown by penalties)."""


def _beyond(a: Action, name: str, v: int, max_slots: int) -> _Beyond:
    return _Beyond(
        f"{a.type} action: {name} names slot {v}, beyond the action space's max_slots={max_slots} "
        "(a layout grown by penalty cards; ActionSpace.of(..., max_slots=...) makes room)"
    )


# ----------------------------------------------------------------------------- a game's ids


def action_id(game: Game | Round, action: Action) -> int:
    """The integer id of ``action`` in ``game``'s action space (``ActionSpace.of(game.variant, game.players)``).
    Raises ``ActionEncodingError`` if it has none. (It was ``game.action_id(action)``, which made the engine
    import this extra.)"""
    return ActionSpace.of(game.variant, game.players).id(action)


def action_from_id(game: Game | Round, i: int, player: int) -> Action:
    """The action with id ``i`` taken by seat ``player`` in ``game``'s action space (``action_id``'s inverse)."""
    return ActionSpace.of(game.variant, game.players).action(i, player)


def legal_mask(game: Game | Round, player: int) -> npt.NDArray[np.bool_]:
    """A numpy bool array over ``game``'s action space: ``True`` at the id of each of ``legal_actions(player)``."""
    return ActionSpace.of(game.variant, game.players).mask(game, player)
