"""A mechanic that gives its own words to an event of tamalou's (``drew``): an error at load
(``tests/api/test_plugin_words.py``)."""

from __future__ import annotations

from typing import ClassVar

import tamalou


class Redraw(tamalou.Mechanic):
    name = "redraw"
    event_texts: ClassVar[dict[str, str]] = {"drew": "{player} draws something"}


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Redraw]
