"""The package's layout (issue 27): every module one subject, under 600 lines; every public error declared in
``tamalou.errors``; the old import paths of the modules that moved keep working for this release."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import tamalou
from optional import installed_module

SRC = Path(tamalou.__file__).resolve().parent
#: The most lines of a module.
MOST_LINES = 600


def test_no_module_is_over_600_lines() -> None:
    sizes = {str(p.relative_to(SRC)): len(p.read_text(encoding="utf-8").splitlines()) for p in SRC.rglob("*.py")}
    assert len(sizes) > 80
    long = {name: n for name, n in sizes.items() if n > MOST_LINES}
    assert not long, f"modules over {MOST_LINES} lines: {long}"


def _modules() -> Iterator[ModuleType]:
    """Every module of the package that imports here (a module of an extra that is not installed is left out: CI runs
    this module again with every extra, tests/optional.py)."""
    for info in pkgutil.walk_packages(tamalou.__path__, "tamalou."):
        module = installed_module(info.name)
        if module is not None:
            yield module


#: Signals shared inside one package (their names without underscore: the package's modules import them), never
#: errors for a user: ``verify``'s alarm that stops a game past its time limit and its stop at a hook over its budget
#: (``BaseException``s, so that no ``except Exception`` of a plugin swallows them), and the search bot's CPU limit
#: reached inside a sample.
PACKAGE_SIGNALS = {
    "tamalou.verify.limits.GameTimeout",
    "tamalou.verify.hook_timing.HookOverBudget",
    "tamalou.bots.ismcts.rollout.OutOfTime",
}


def test_every_public_error_is_declared_in_errors() -> None:
    """An exception a user may catch is declared in ``tamalou.errors`` (and importable from ``tamalou``); a module
    that raises it imports it from there. Private ones (``_Beyond``) may stay where they are used, and so may the
    signals of ``PACKAGE_SIGNALS``: ``BaseException``s no user catches, shared by the modules of one package."""
    elsewhere = {
        f"{module.__name__}.{name}"
        for module in _modules()
        for name, obj in vars(module).items()
        if inspect.isclass(obj)
        and issubclass(obj, BaseException)
        and obj.__module__.startswith("tamalou.")
        and obj.__module__ != "tamalou.errors"
        and not obj.__name__.startswith("_")
        and f"{obj.__module__}.{obj.__name__}" not in PACKAGE_SIGNALS
    }
    assert not elsewhere, f"public errors declared outside tamalou.errors: {sorted(elsewhere)}"
    errors = importlib.import_module("tamalou.errors")
    declared = [n for n, obj in vars(errors).items() if inspect.isclass(obj) and issubclass(obj, BaseException)]
    assert len(declared) >= 12
    assert all(getattr(tamalou, n) is getattr(errors, n) for n in declared if not n.startswith("_"))


#: A package's name -> its home, for names a package re-exports from the module that holds them.
MOVED = [
    ("tamalou.bots", "GreedyBot", "tamalou.bots.greedy"),
    ("tamalou.simulation", "simulate", "tamalou.simulation.run"),
    ("tamalou.testing", "RoundMachine", "tamalou.testing.machine"),
    ("tamalou.cli.commands", "app", "tamalou.cli.application"),
    ("tamalou.plugins", "rules_manager", "tamalou.plugin_managers"),
    ("tamalou.powers", "power_title", "tamalou.events"),
]


@pytest.mark.parametrize(("old", "name", "home"), MOVED)
def test_a_package_re_exports_what_its_modules_hold(old: str, name: str, home: str) -> None:
    if old.startswith("tamalou.cli"):
        pytest.importorskip("typer")
    if old == "tamalou.testing":
        pytest.importorskip("hypothesis")
    assert getattr(importlib.import_module(old), name) is getattr(importlib.import_module(home), name)


#: The compatibility modules of moved code, gone (the version is 0.1: nothing outside used the old paths).
GONE = ["invariants", "verification", "ismcts", "authoring", "effective", "variant", "rules", "pytest_plugin"]


@pytest.mark.parametrize("name", GONE)
def test_no_compatibility_shim_is_left(name: str) -> None:
    """The old paths are gone, not kept: ``tamalou.verify``, ``tamalou.bots.ismcts``, ``tamalou.rulesets``
    (``authoring``, ``effective``, ``loader``, ``registry``), ``tamalou.engine.rulebook`` and the pytest plugin
    ``_tamalou_pytest_plugin`` are the homes."""
    assert importlib.util.find_spec(f"tamalou.{name}") is None


def test_the_engine_reaches_the_ruleset_loader_through_the_resolver() -> None:
    """The engine takes a ``Variant``; a name goes to the loader registered with ``tamalou.resolver`` (the ruleset
    loader, when tamalou is imported), and a program may put its own in its place: here one that knows a name
    of its own, and asks the usual loader for the rest."""
    from tamalou import resolver

    usual = resolver.resolver()
    french = tamalou.load_variant("french")

    class Ours:
        def load(self, spec: object, allow_plugins: object = True) -> tamalou.Variant:
            return french if spec == "our-house-game" else usual.load(spec, allow_plugins)  # type: ignore[arg-type]

        def from_dict(self, data: dict[str, object], allow_plugins: object = True) -> tamalou.Variant:
            return usual.from_dict(data, allow_plugins)

        def is_registered(self, name: str) -> bool:
            return name == "our-house-game" or usual.is_registered(name)

        def import_again(self, dirs: object) -> None:
            usual.import_again(dirs)

    resolver.set_resolver(Ours())
    try:
        game = tamalou.new_game("our-house-game", 2, seed=1)
        assert game.variant is french
        assert tamalou.card_value("our-house-game", "KS") == 15
        assert tamalou.new_match("our-house-game", 2, seed=1).variant is french
    finally:
        resolver.set_resolver(usual)
    assert resolver.resolver() is usual
