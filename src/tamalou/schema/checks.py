"""The checks the sections of ``[rules]`` share: tables keyed by cards or by ranks (each card or rank
named once), lists without repeats, a rank the deck lacks, and the error details they raise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..cards import JOKER, parse_card


def card_keys(value: Any) -> Any:
    """A table keyed by cards (``values.cards``, ``powers.cards``), its keys written the standard way
    (``kh`` is ``KH``). Every key that is no card is an error, and so are two keys naming one card."""
    if not isinstance(value, Mapping):
        return value
    out: dict[str, object] = {}
    first: dict[str, object] = {}
    errors: list[InitErrorDetails] = []
    for key, v in value.items():
        try:
            card = parse_card(key)
        except ValueError as exc:
            errors.append(error_details("card_key", (str(key),), f"{key!r} is not a card: {exc}", key))
            continue
        text = str(card)
        if text in first:
            errors.append(
                error_details("key_collision", (), f"{first[text]!r} and {key!r} both name the card {text}", key)
            )
            continue
        first[text] = key
        out[text] = v
    if errors:
        raise ValidationError.from_exception_data("cards", errors)
    return out


def rank_keys(value: Any) -> Any:
    """A table keyed by ranks: two keys naming one rank (``a`` and ``A``) are an error. The keys are
    upper-cased by ``RankName`` afterwards."""
    if not isinstance(value, Mapping):
        return value
    first: dict[str, object] = {}
    errors: list[InitErrorDetails] = []
    for key in value:
        if not isinstance(key, str):
            continue
        name = key.upper()
        if name in first:
            errors.append(
                error_details("key_collision", (), f"{first[name]!r} and {key!r} both name the rank {name}", key)
            )
        else:
            first[name] = key
    if errors:
        raise ValidationError.from_exception_data("ranks", errors)
    return value


def named_twice(items: tuple[Any, ...]) -> list[Any]:
    """The items listed more than once, in the order of their first place (in linear time)."""
    return [x for x, k in Counter(items).items() if k > 1]  # (a Counter keeps the order items come in)


def once_each(items: tuple[Any, ...]) -> tuple[Any, ...]:
    """A list whose items are all different (an ``AfterValidator``)."""
    twice = named_twice(items)
    if twice:
        raise PydanticCustomError("listed_twice", "{items} listed more than once", {"items": repr(twice[0])})
    return items


def error_details(kind: str, loc: tuple[str | int, ...], message: str, value: Any) -> InitErrorDetails:
    """One error at ``loc`` (relative to the model that raises it), for ``ValidationError.from_exception_data``.
    ``cross_field`` errors are checked on the merged variant only (see
    ``tamalou.rulesets.problems._partial_errors``)."""
    return {"type": PydanticCustomError(kind, "{message}", {"message": message}), "loc": loc, "input": value}


def not_in_deck(rank: str, ranks: tuple[str, ...], *, joker: bool = True) -> str:
    expected = [r for r in ranks if r != JOKER] + ([JOKER] if joker else [])
    return f"rank {rank!r} is not in the deck (expected one of {' '.join(expected)})"
