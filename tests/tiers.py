"""The suite's two tiers, and the sizes a test takes from the tier it runs in.

- **fast** (``pytest``): what every change runs. Every test but those marked ``deep``; the tests marked
  ``scaled`` (the properties over random games, the fuzzers, ``verify`` on broken rulesets) run at their
  small size: a few derandomized examples, a few thousand hostile inputs, the fewest games that still catch
  each bug.
- **deep** (``pytest --deep``): what CI runs as well. Only the tests marked ``deep`` (statistical strength
  tests, the benchmark tooling, the tutorials at their documented sizes...) and the ``scaled`` ones again,
  at full size (25 examples a property and ruleset, 25,000 hostile inputs, ``verify`` at its defaults).

``tests/conftest.py`` sets :data:`DEEP` from the command line before any test module is imported, so a
module may size its constants at import time: ``EXAMPLES = sized(fast=10, deep=200)``.
"""

from __future__ import annotations

#: True in a ``pytest --deep`` run (set by ``tests/conftest.py``, from the command line).
DEEP = False


def sized(fast: int, deep: int) -> int:
    """``deep`` in the deep tier, ``fast`` in the fast one."""
    return deep if DEEP else fast


def tier() -> str:
    """The name of the tier this run is: ``"deep"`` or ``"fast"``."""
    return "deep" if DEEP else "fast"
