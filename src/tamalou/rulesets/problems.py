"""A ruleset's problems put in words: pydantic's validation errors as ``VariantError``s naming the file, the key
path and what was expected (the value found too, for trusted rules), and values described briefly.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import VariantError
from ..schema import Variant


def short(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut to about ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def short_path(text: str, limit: int = 120) -> str:
    """``repr(text)`` of a path, cut in the middle to about ``limit`` characters: its end, the file's name,
    stays (a deep folder must not hide which file is meant)."""
    if len(text) <= limit:
        return repr(text)
    head = limit // 3
    return repr(text[:head] + "…" + text[head - limit :]) + f" ({len(text)} characters)"


def describe_problem(value: Any, limit: int = 80) -> str:
    """``value`` as JSON (else its ``repr``), cut to about ``limit`` characters. An integer too long to
    write in decimal (``sys.get_int_max_str_digits()``) is told by its size."""
    if type(value) is int and _too_long(value):
        return f"an integer of {_digits(value)} digits"
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # an integer too long to write, in a list or a table
            text = f"a {type(value).__name__} holding an integer too long to write"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _too_long(value: int) -> bool:
    """Whether ``str(value)`` would raise (more digits than ``sys.get_int_max_str_digits()``)."""
    limit = sys.get_int_max_str_digits()
    return limit > 0 and value.bit_length() > limit * math.log2(10)  # (10**limit has more bits)


def _digits(value: int) -> str:
    """About how many decimal digits ``value`` has, worked out from its size in bits."""
    n = int((abs(value).bit_length() - 1) * math.log10(2)) + 1
    return f"about {n}"


#: At most this many problems are listed in one error's message (``VariantError.errors`` has them all).
MAX_LISTED_ERRORS = VariantError.MAX_LISTED


_EXPECTED = {
    "int_type": "expected an integer",
    "int_parsing": "expected an integer",
    "int_from_float": "expected an integer",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "string_type": "expected a string",
    "float_type": "expected a number",
    "float_parsing": "expected a number",
    "tuple_type": "expected a list",
    "list_type": "expected a list",
    "dict_type": "expected a table",
    "model_type": "expected a table",
    "model_attributes_type": "expected a table",
    "none_required": "expected nothing",
}

# How pydantic names the member of a union that failed (``int``, ``literal['threshold']``...): dropped
# from key paths, the members' expectations are joined ("expected an integer or one of 'threshold'").
_UNION_TAG = re.compile(r"(int|str|float|bool|none|constrained-[a-z]+|[a-z-]+\[.*\])")


def errors_of(
    exc: ValidationError, file: str | None, *, echo: bool = True, skip_cross: bool = False
) -> list[VariantError]:
    """One ``VariantError`` per problem of ``exc``; with ``echo=False`` (untrusted variants) the message
    says the key and what was expected, never the value found. ``skip_cross`` leaves out the checks
    between sections (``cross_field``), made on the merged variant only."""

    def got(value: Any) -> str:
        return f", got {describe_problem(value)}" if echo else ""

    errs = [e for e in exc.errors() if not (skip_cross and e["type"] == "cross_field")]
    locs = [[str(x) for x in e["loc"] if x != "[key]"] for e in errs]
    # A union's members fail together: two errors or more at one place, each under a member's tag.
    tags = Counter(tuple(loc[:-1]) for loc in locs if len(loc) > 1 and _UNION_TAG.fullmatch(loc[-1]))
    found: list[tuple[str, str, str, bool]] = []  # key, expectation, ", got ...", whether in a union
    for err, loc in zip(errs, locs, strict=True):
        kind = err["type"]
        tagged = len(loc) > 1 and tags[tuple(loc[:-1])] > 1 and _UNION_TAG.fullmatch(loc[-1]) is not None
        if tagged:
            loc = loc[:-1]
        suffix = ""
        if kind == "extra_forbidden":
            what = "unknown key" + _did_you_mean(loc)
        elif kind == "missing":
            what = "required key is missing"
        elif kind == "literal_error":
            what, suffix = f"expected one of {err.get('ctx', {}).get('expected', '')}", got(err["input"])
        elif kind in _EXPECTED:
            what, suffix = _EXPECTED[kind], got(err["input"])
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            what = err["msg"].replace("Input should be", "expected a number")
            suffix = got(err["input"])
        elif kind == "finite_number":
            what, suffix = "expected a finite number", got(err["input"])
        elif kind == "too_long":
            ctx = err.get("ctx", {})
            what = f"expected at most {ctx.get('max_length')} items"
            suffix = f", got {ctx.get('actual_length')}" if echo else ""
        elif kind == "string_too_long":
            ctx, text = err.get("ctx", {}), err["input"]
            what = f"expected at most {ctx.get('max_length')} characters"
            suffix = f", got {len(text)}" if echo and isinstance(text, str) else ""
        else:
            msg = err["msg"].removeprefix("Value error, ")
            what = msg[:1].lower() + msg[1:]
        found.append((".".join(loc), what, suffix, tagged))
    out: list[VariantError] = []
    done: dict[str, VariantError] = {}
    for key, what, suffix, tagged in found:
        if tagged:  # every member of a union failed: one problem, each member's expectation
            if key in done:
                continue
            members = [(w, s) for k, w, s, t in found if t and k == key]
            whats = [members[0][0]] + [w.removeprefix("expected ") for w, _ in members[1:]]
            what, suffix = " or ".join(whats), members[0][1]
        error = VariantError(what + suffix, file=file, key=key or None)
        done[key] = error
        out.append(error)
    return out


def _keys_at(path: list[str]) -> list[str]:
    """The keys a variant file may write in the table at ``path`` (``["rules", "call"]``), or none when the path
    does not lead to a section of the schema (a table keyed by cards, a plugin's settings)."""
    model: Any = Variant
    for part in path:
        field = model.model_fields.get(part) if isinstance(model, type) and issubclass(model, BaseModel) else None
        if field is None:
            return []
        model = field.annotation
    if isinstance(model, type) and issubclass(model, BaseModel):
        return list(model.model_fields)
    return []


def did_you_mean(word: str, choices: list[str]) -> str:
    """`` (did you mean X?)`` for the choice nearest ``word`` (difflib's ratio of at least 0.7), else ``""``."""
    near = difflib.get_close_matches(word, choices, n=1, cutoff=0.7)
    return f" (did you mean {near[0]}?)" if near else ""


def _did_you_mean(loc: list[str]) -> str:
    """A near key of the same table, for an unknown key at ``loc``."""
    return did_you_mean(loc[-1], _keys_at(loc[:-1])) if loc else ""


def partial_errors(
    raw: Mapping[str, Any], file: str, *, echo: bool = True, name: str | None = ""
) -> list[VariantError]:
    """The problems of the keys of one file on their own, so that each error names the file that wrote
    it (the checks between sections are made on the merged variant). A file's name defaults to its stem
    (``name=""``), a text's to ``name`` (``None``: it has to say it)."""
    data = {k: v for k, v in raw.items() if k not in ("extends",)}
    default = Path(file).stem if name == "" else name
    if default is not None:
        data.setdefault("name", default)
    try:
        Variant.model_validate(data)
    except ValidationError as exc:
        return errors_of(exc, file, echo=echo, skip_cross=True)
    return []
