"""The optional suites (``tests/extras/``) need an extra of tamalou's each: ``ai``, ``ray``, ``plot``, ``docs``.

A suite calls :func:`require` at its top. Where the extra is installed it returns the module; where it is
not, the suite is skipped with a reason that names the extra and how to install it (the run's summary lists
the reasons: ``-rs`` is in the project's pytest options), so a checkout with only the ``dev`` extra runs the
rest and says what it left out. With ``TAMALOU_REQUIRE_EXTRAS=1`` (CI, which installs every extra) a missing
extra fails the run instead: no suite is ever skipped silently there.

A test module that imports this one is one of the extras' suites: the README's test command (the ``dev`` install)
skips what it cannot run of them, and CI runs every such module again with every extra installed (``.ci/run`` finds
them by that import). A module that checks more where the extras are installed (a walk of every module of the
package, say) imports through :func:`installed_module` for that reason.
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


def installed_module(name: str) -> ModuleType | None:
    """``name`` imported, or ``None`` where it imports an extra that is not installed (a module of ``tamalou.ai``
    without the ``ai`` extra, say): a walk of every module checks the extras' modules where they are installed."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
