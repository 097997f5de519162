"""The optional suites (``tests/extras/``) need an extra of tamalou's each: ``ai``, ``ray``, ``plot``, ``docs``.

A suite calls :func:`require` at its top. Where the extra is installed it returns the module; where it is
not, the suite is skipped with a reason that names the extra and how to install it (the run's summary lists
the reasons: ``-rs`` is in the project's pytest options), so a checkout with only the ``dev`` extra runs the
rest and says what it left out. With ``TAMALOU_REQUIRE_EXTRAS=1`` (CI, which installs every extra) a missing
extra fails the run instead: no suite is ever skipped silently there.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

import pytest

#: The install command of each extra, as the skip reason gives it.
INSTALL = "pip install '.[{extra}]'"


def required() -> bool:
    """Whether a missing extra fails the run (``TAMALOU_REQUIRE_EXTRAS=1``) rather than skipping its suite."""
    return os.environ.get("TAMALOU_REQUIRE_EXTRAS") == "1"


def require(extra: str, module: str) -> ModuleType:
    """``module``, imported; else the calling test module is skipped (or fails, where extras are required)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        suite = sys._getframe(1).f_globals.get("__name__", "?")  # the test module (or fixture's) that needs it
        reason = f"{suite}: the {extra} extra is not installed ({module}: {exc}): {INSTALL.format(extra=extra)}"
        if required():
            pytest.fail(f"TAMALOU_REQUIRE_EXTRAS=1 but {reason}", pytrace=False)
        pytest.skip(reason, allow_module_level=True)
