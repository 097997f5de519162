"""The optional suites skip themselves where their extra is not installed (``pytest.importorskip``): a
user's checkout with only some extras still runs the rest. CI installs every extra (``dev``) and sets
``TAMALOU_REQUIRE_EXTRAS=1``: then each extra must import, so that a broken install fails the run instead
of skipping those suites quietly."""

from __future__ import annotations

import importlib
import os

import pytest

#: The module each suite skips without, by extra.
EXTRAS = {
    "ai": ["numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel.python.algorithms.ismcts"],
    "ray": ["ray"],
    "plot": ["matplotlib"],
    "cli": ["typer", "rich"],
    "testing": ["hypothesis"],
}


@pytest.mark.skipif(os.environ.get("TAMALOU_REQUIRE_EXTRAS") != "1", reason="TAMALOU_REQUIRE_EXTRAS=1 is not set")
@pytest.mark.parametrize("module", [m for modules in EXTRAS.values() for m in modules])
def test_every_extra_imports(module: str) -> None:
    importlib.import_module(module)
