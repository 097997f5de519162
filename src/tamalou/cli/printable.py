"""What the command line prints is made safe for a terminal here, in one place: ``printable``.

A ruleset's title, name, description and key names, a counterexample's messages, a plugin's words, the
command's own arguments: any of them may come from a file someone else wrote, and a terminal obeys the
control characters it is sent (``ESC [ 2 J`` clears the screen, ``ESC ] 0 ; ... BEL`` sets the window's
title, some terminals answer queries by typing into the shell). Every string ``tamalou`` prints goes through
``printable``: the consoles of ``tamalou.cli.application`` apply it to every string they render (lines, table
cells and titles, tree labels), and the documents it prints whole (``--json``, ``--toml``) are passed through
it before they are written.
"""

from __future__ import annotations

import re

from ..schema import CONTROL

__all__ = ["printable"]


def _visible(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]  # \x1b, \x07, \r, \x9b...


def _unicode_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def printable(text: object, *, document: bool = False) -> str:
    """``text`` (``str()`` of it) with every control character but newline and tab replaced by a visible
    escape, so that a terminal shows it instead of obeying it: C0 (``\\x00``-``\\x1f``), DEL and C1
    (``\\x80``-``\\x9f``). Each is written as ``repr`` writes it (``"\\x1b[2J"`` prints as the eight
    characters ``\\x1b[2J``, a bell as ``\\x07``, a carriage return as ``\\r``). An escape sequence is thus
    left as harmless text: its introducer (ESC, or CSI, OSC... in C1) is what is replaced, the rest of it
    was plain characters already. Nothing else changes (rich markup is not escaped here: the consoles of the
    command line never interpret it).

    ``document=True`` is for a JSON or TOML document printed whole (``show --json``, ``show --toml``,
    ``play --json``...), where such a character can only be inside a string: it is written as a ``\\u``
    escape (``\\u001b``, ``\\u009b``), which both formats read back as the same character, so the document
    still parses to the same values."""
    return CONTROL.sub(_unicode_escape if document else _visible, str(text))
