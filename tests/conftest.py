"""The suite's tiers (``tests/tiers.py``): ``pytest`` runs the fast tier, ``pytest --deep`` the deep one.

Two markers place a test:

- ``@pytest.mark.deep``: the deep tier only (statistical strength tests, the benchmark tooling, tutorials at
  their documented sizes, ``verify`` at its defaults);
- ``@pytest.mark.scaled``: both tiers, at the size :func:`tiers.sized` gives it in each.

Every other test is the fast tier's. A run deselects (and counts, in its last line) the tests of the other
tier; the header says which tier runs.
"""

from __future__ import annotations

import pytest

import tiers


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep",
        action="store_true",
        default=False,
        help="run the deep tier (tests marked deep, and those marked scaled at full size) instead of the fast one",
    )


def pytest_configure(config: pytest.Config) -> None:
    tiers.DEEP = bool(config.getoption("--deep"))
    config.addinivalue_line("markers", "deep: in the deep tier only (pytest --deep)")
    config.addinivalue_line("markers", "scaled: in both tiers, sized by tiers.sized (small in the fast one)")


def pytest_report_header(config: pytest.Config) -> str:
    if tiers.DEEP:
        return "tamalou tier: deep (the tests marked deep, and those marked scaled at full size)"
    return "tamalou tier: fast (pytest --deep runs the deep tier: strength tests, full-size properties and fuzzing)"


def in_tier(item: pytest.Item) -> bool:
    if tiers.DEEP:
        return item.get_closest_marker("deep") is not None or item.get_closest_marker("scaled") is not None
    return item.get_closest_marker("deep") is None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kept = [item for item in items if in_tier(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if not in_tier(item)])
        items[:] = kept
