"""The TOML text of a ruleset read into a table: nesting bounded, integers too long to convert kept in range.

``parse_toml(text, file)`` is what every load reads a file (or a text) with: a ``VariantError`` naming the file
for what is not TOML, for tables or lists nested more than ``MAX_NESTING`` levels deep, and an integer of more
digits than Python converts from text read as an integer of that size (its key's checks then refuse it).
"""

from __future__ import annotations

import math
import re
import secrets
import sys
import tomllib
from collections.abc import Mapping
from typing import Any

from ..errors import VariantError

#: How deeply tables and lists may nest in a variant (the format itself needs 4 levels).
MAX_NESTING = 32


def check_nesting(data: Any, file: str | None) -> None:
    """Refuse tables or lists nested more than ``MAX_NESTING`` deep (walked without recursion)."""
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_NESTING:
            raise VariantError(f"tables or lists nested more than {MAX_NESTING} levels deep", file=file)
        if isinstance(value, Mapping):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list | tuple):
            todo.extend((v, depth + 1) for v in value)


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """The table of TOML ``text`` (``file`` is what errors call it), its nesting checked.

    An integer of more digits than Python converts from text (``sys.get_int_max_str_digits()``, 4300 by
    default), which ``tomllib`` refuses with a bare ``ValueError`` that names no key, is read as an integer
    of that size (``_parse_long_integers``): the checks of its key then refuse it as out of bounds, naming
    the file and the key like any other bad value."""
    try:
        raw = _toml_loads(text, file)
    except VariantError:
        raise
    except ValueError:  # int() of a decimal integer too long to convert: tomllib says nothing of where
        raw = _parse_long_integers(text, file)
    check_nesting(raw, file)
    return raw


def _toml_loads(text: str, file: str) -> dict[str, Any]:
    """``tomllib.loads(text)``: a ``VariantError`` for what is not TOML or is nested too deep; the bare
    ``ValueError`` of an integer too long to convert goes through."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"not valid TOML: {exc}", file=file) from None
    except RecursionError:
        raise VariantError(f"tables or lists nested more than {MAX_NESTING} levels deep", file=file) from None


#: What ``_parse_long_integers`` reads: strings and comments (kept as they are), and decimal integers
#: (the value of a key or an item of a list: not part of a key, a float, a date or a name).
_TOML_TOKEN = re.compile(
    r'"""(?:[^\\]|\\[\s\S])*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
    r"|(?<![\w.:+-])(?P<sign>[+-]?)(?P<digits>[1-9](?:_?[0-9])*)(?![\w.:]|[ \t]*[=.])"
)


def _parse_long_integers(text: str, file: str) -> dict[str, Any]:
    """The table of TOML ``text`` whose decimal integers include one too long for ``int()`` to convert.

    Each such integer is written as a hexadecimal marker of the same length (``tomllib`` converts those
    whatever their size, and positions in later syntax errors stay right), then put back in the parsed
    table as an integer of as many digits (its sign kept): made with a shift, never by converting its
    text, so a huge integer costs time linear in its length."""
    limit = sys.get_int_max_str_digits()
    nonce = secrets.randbits(96) | 1 << 96  # markers no file can hold by chance
    found: dict[int, int] = {}  # marker -> the integer put back

    def marker(m: re.Match[str]) -> str:
        digits = m["digits"]
        if digits is None or len(digits) - digits.count("_") <= limit:
            return m[0]
        key = (nonce << 32) + len(found)
        n = len(digits) - digits.count("_")
        magnitude = 1 << math.ceil((n - 1) * math.log2(10))  # n decimal digits
        found[key] = -magnitude if m["sign"] == "-" else magnitude
        return "0x" + format(key, "x").zfill(len(m[0]) - 2)

    try:
        raw = _toml_loads(_TOML_TOKEN.sub(marker, text), file)
    except VariantError:
        raise
    except ValueError:  # an integer the markers missed: the file at least is named
        raise VariantError(
            f"an integer has more than {limit} digits: expected the numbers of a ruleset, within the bounds "
            "of their keys",
            file=file,
        ) from None
    todo: list[Any] = [raw]
    while todo:
        node = todo.pop()
        slots = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in list(slots):
            if type(v) is int and v in found:
                node[k] = found[v]
            elif isinstance(v, dict | list):
                todo.append(v)
    return raw
