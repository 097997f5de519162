"""tamalou's property suite on golf-6, through its pytest plugin (``pytest --tamalou-variant golf-6``).

The plugin adds the suite's tests (``tamalou[golf-6]::loads``, one test per invariant of ``tamalou verify``,
``small_deals``) only from the command line: a test module cannot ask for them. So this module runs pytest
once more, in a fresh process (pytest's own ``pytester``), with the option, and checks that every test of the
suite passed. A few games keep it quick; run the suite itself for more::

    pytest --tamalou-variant golf-6 --tamalou-examples 100
"""

from __future__ import annotations

import pytest
from tamalou.verify import INVARIANTS

pytest_plugins = ["pytester"]

GAMES = 8


@pytest.mark.parametrize("ruleset", ["golf-6"])
def test_the_property_suite_passes(pytester: pytest.Pytester, ruleset: str) -> None:
    options = ["--tamalou-variant", ruleset, "--tamalou-examples", str(GAMES), "--tamalou-workers", "1"]
    result = pytester.runpytest_subprocess(*options, "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    suite = 1 + len(INVARIANTS) + 1  # loads, each invariant, small_deals
    assert outcomes.get("failed", 0) == 0 and outcomes.get("errors", 0) == 0, result.stdout.str()
    assert outcomes.get("passed", 0) == suite, result.stdout.str()  # none skipped: every invariant was checked
