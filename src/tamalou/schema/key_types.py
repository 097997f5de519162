"""The types the keys of the variant format are made of: ranks (``RankName``), times (``Seconds``), points
(``Points``), power names, TOML arrays kept as tuples (``Tup``) and tables kept read-only (``Table``); the text
checks of what is shown on one line and of a description (``CONTROL``); and ``Section``, the base of every
section of ``[rules]`` (strict, frozen, no unknown key).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer
from pydantic_core import PydanticCustomError

from ..cards import is_rank_name
from .bounds import MAX_NAME_LENGTH, MAX_POINTS, MAX_SECONDS

TieBreak = Literal["fewer_cards", "caller_ahead", "caller_behind"]
SuitName = Literal["S", "H", "D", "C"]


def _rank_name(value: Any) -> Any:
    """A rank name: 1 to 3 letters or digits, upper-cased (``a`` is ``A``), or a negative number (``-2``)."""
    if not isinstance(value, str):
        return value  # the str validation that follows says "expected a string"
    name = value.upper()
    if not is_rank_name(name):
        raise PydanticCustomError(
            "rank_name",
            "expected a rank name of 1 to 3 letters or digits, or a negative number (like A, 10, K, 13 or -2), "
            "got {got}",
            {"got": repr(value)},
        )
    return name


#: A rank: A 2 ... 10 J Q K (and JK for jokers) in a deck with suits; any name of 1 to 3 letters or
#: digits (e.g. 0 to 13), or a negative number (-2), in a deck without suits.
RankName = Annotated[str, BeforeValidator(_rank_name)]


_MAX_S = int(MAX_SECONDS)


def _int_seconds(value: Any) -> Any:
    """An integer of seconds out of bounds is refused as such (one too large for a float would otherwise
    be "not a number")."""
    if type(value) is int and value > MAX_SECONDS:
        raise PydanticCustomError("less_than_equal", "Input should be less than or equal to {le}", {"le": _MAX_S})
    if type(value) is int and value < 0:
        raise PydanticCustomError("greater_than_equal", "Input should be greater than or equal to {ge}", {"ge": 0})
    return value


#: A time of ``rules.timing``: a finite number of seconds, from 0 to ``MAX_SECONDS``.
Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False), BeforeValidator(_int_seconds)]
#: Points of a card, a threshold or a penalty: an integer from ``-MAX_POINTS`` to ``MAX_POINTS``.
Points = Annotated[int, Field(ge=-MAX_POINTS, le=MAX_POINTS)]

#: Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: none is allowed in a text
#: shown on one line.
_NOT_ON_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: The control characters a terminal may take for a command: C0 but newline and tab, DEL, C1 (ESC and CSI, OSC,
#: DCS... begin the escape sequences). A description may hold none of them; the command line prints each one
#: it is given as a visible escape (``cli.printable``).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _refuse(found: re.Match[str] | None, what: str) -> None:
    """A ``PydanticCustomError`` naming the character ``found`` (by its code, never the text around it)."""
    if found is not None:
        raise PydanticCustomError(
            "control_character",
            "expected {what}, found U+{code} at character {at}",
            {"what": what, "code": f"{ord(found.group()):04X}", "at": found.start() + 1},
        )


def one_line(text: str) -> str:
    """A text shown on one line: no control character, no line break (an ``AfterValidator``)."""
    _refuse(_NOT_ON_ONE_LINE.search(text), "one line without control characters")
    return text


def description_text(text: str) -> str:
    """A description: lines (newlines and tabs allowed), no other control character (an ``AfterValidator``)."""
    _refuse(CONTROL.search(text), "text without control characters (but newlines and tabs)")
    return text


#: A power's name (at most ``MAX_NAME_LENGTH`` characters, on one line). Powers are registered by plugins and
#: checked when a variant is compiled, not here.
PowerName = Annotated[str, Field(max_length=MAX_NAME_LENGTH), AfterValidator(one_line)]

K = TypeVar("K")
V = TypeVar("V")


def as_tuple(value: Any) -> Any:
    """TOML arrays arrive as lists; the variant keeps immutable tuples."""
    return tuple(value) if isinstance(value, list) else value


class FrozenTable(dict[Any, Any]):
    """A read-only dict: a variant's tables cannot be changed after validation."""

    def read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a variant's tables are read-only; build a new variant instead")

    __setitem__ = __delitem__ = __ior__ = read_only
    clear = pop = popitem = setdefault = update = read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenTable, (dict(self),))

    def __copy__(self) -> FrozenTable:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenTable:
        return self


def read_only(value: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return FrozenTable(value)


#: A TOML array kept as a tuple (items validated strictly: no "1" for 1).
Tup = Annotated[tuple[V, ...], BeforeValidator(as_tuple)]
#: A TOML table kept read-only.
Table = Annotated[Mapping[K, V], AfterValidator(read_only), PlainSerializer(dict)]


class Section(BaseModel):
    # strict: TOML values are typed, so "7" or true is never taken for 7.
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True, strict=True)
