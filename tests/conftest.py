"""The suite's tiers (``tests/tiers.py``): ``pytest`` runs the fast tier, ``pytest --deep`` the deep one.

Three markers place a test:

- ``@pytest.mark.deep``: the deep tier only (statistical strength tests, the benchmark tooling, tutorials at
  their documented sizes, ``verify`` at its defaults);
- ``@pytest.mark.scaled``: both tiers, at the size :func:`tiers.sized` gives it in each;
- ``@pytest.mark.timing``: a test whose verdict depends on wall-clock time (a time limit that must stop a game,
  a hook slow enough to be named, a process that must be gone within a bound). Neither tier runs it:
  ``pytest --timing`` runs these alone, one after another in one process (CI does, in a step of its own), each
  with a generous bound, so that no verdict of the other tiers depends on how loaded the host is.

Every other test is the fast tier's. A run deselects (and counts, in its last line) the tests of the other
tier; the header says which tier runs.

Every test also sees the same terminal whatever the shell that runs the suite (:func:`same_terminal`): what
the command line prints is laid out for the terminal's width, so a test of it must not read the width of the
terminal it happens to run in. CI runs the fast tier in an odd environment (a narrow terminal, colours forced,
a ``PYTHONPATH``, the C locale) to prove that nothing else leaks in.
"""

from __future__ import annotations

import os
import sys

import pytest

import tiers

# The suite writes bytecode whatever the host says (a host may set PYTHONDONTWRITEBYTECODE, as this project's
# machines do): each worker would otherwise rewrite the assertions of every test module again (about 7 s of CPU a
# process), and each of the hundreds of processes the suite starts (the command line, verify's workers and fresh
# processes, pytest run in a project) compile the modules it imports again. Set here, before any test module is
# imported, and in the environment of the processes started from now on (xdist's workers included).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep",
        action="store_true",
        default=False,
        help="run the deep tier (tests marked deep, and those marked scaled at full size) instead of the fast one",
    )
    parser.addoption(
        "--timing",
        action="store_true",
        default=False,
        help="run only the tests whose verdict depends on wall-clock time (marked timing), alone: without -n",
    )


def pytest_configure(config: pytest.Config) -> None:
    tiers.DEEP = bool(config.getoption("--deep"))
    config.addinivalue_line("markers", "deep: in the deep tier only (pytest --deep)")
    config.addinivalue_line("markers", "scaled: in both tiers, sized by tiers.sized (small in the fast one)")
    config.addinivalue_line("markers", "timing: its verdict depends on wall-clock time: run alone (pytest --timing)")
    if config.getoption("--timing") and getattr(config.option, "numprocesses", None):
        raise pytest.UsageError("pytest --timing runs the timing tests alone: without -n")


@pytest.fixture(autouse=True)
def same_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """An 80 by 24 terminal without forced colours (what a program sees with no terminal at all); a test that is
    about another terminal sets its own."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    for name in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--timing"):
        return "tamalou tier: timing (the tests whose verdict depends on wall-clock time, alone)"
    if tiers.DEEP:
        return "tamalou tier: deep (the tests marked deep, and those marked scaled at full size)"
    return "tamalou tier: fast (pytest --deep runs the deep tier: strength tests, full-size properties and fuzzing)"


def in_tier(item: pytest.Item) -> bool:
    timing = item.get_closest_marker("timing") is not None
    if item.config.getoption("--timing"):
        return timing
    if timing:
        return False
    if tiers.DEEP:
        return item.get_closest_marker("deep") is not None or item.get_closest_marker("scaled") is not None
    return item.get_closest_marker("deep") is None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kept = [item for item in items if in_tier(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if not in_tier(item)])
        items[:] = kept
