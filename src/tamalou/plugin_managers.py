"""Plugin managers: which hook implementations apply (the built-in plugins themselves are ``tamalou.plugins``).

Two kinds of plugin manager, both built on pluggy:

- the *discovery* manager (``discovery_manager()``), one per process: the built-in plugins of
  ``BUILTIN_PLUGINS`` plus every module of the entry-point group ``tamalou``. It is asked for
  variant files (``tamalou_variant_paths``).
- a *rules* manager per variant (``rules_manager(variant)``): the built-in plugins, then the
  modules the variant names in ``plugins``. An installed package therefore changes only the
  games whose variant names it, never another ruleset's game by surprise.

Two switches, read when tamalou is imported (as datasette's ``DATASETTE_TRACE_PLUGINS``):

- ``TAMALOU_TRACE_PLUGINS=1``: every hook call is written to standard error with the plugin that answered
  (``first_result`` below for the *first result wins* hooks, pluggy's monitoring for the others);
- ``TAMALOU_NO_PLUGINS=1``: the entry-point group ``tamalou`` is not loaded (only the built-in plugins and the
  modules a ruleset names itself), to tell whether an installed package is behind a surprise.
"""

from __future__ import annotations

import difflib
import importlib
import os
import pkgutil
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pluggy

from . import hookspecs
from .errors import PluginError, VariantError, raised_at

if TYPE_CHECKING:
    from .schema import Variant

ENTRY_POINT_GROUP = "tamalou"
#: The package of the built-in plugins (imported by name: they are a layer above the engine).
PACKAGE = "tamalou.plugins"
#: ``TAMALOU_TRACE_PLUGINS``: write every hook call, and the plugin that answered, to standard error.
TRACE = os.environ.get("TAMALOU_TRACE_PLUGINS", "") not in ("", "0")
#: ``TAMALOU_NO_PLUGINS``: do not load the entry-point group (installed packages' plugins).
NO_PLUGINS = os.environ.get("TAMALOU_NO_PLUGINS", "") not in ("", "0")


def trace(hook: str, plugin: str, answer: object) -> None:
    """One line on standard error: which plugin answered ``hook``, and what (``TRACE``)."""
    text = repr(answer)
    shown = text if len(text) <= 200 else text[:197] + "..."
    print(f"tamalou: {hook}: {plugin or 'no plugin'} answered {shown}", file=sys.stderr)


def _monitor(pm: pluggy.PluginManager) -> None:
    """Trace the hooks pluggy calls (those tamalou does not call one plugin at a time)."""

    def after(outcome: Any, hook_name: str, impls: Any, kwargs: Any) -> None:
        names = ", ".join(impl.plugin_name for impl in impls)
        trace(hook_name, f"[{names}]", outcome.get_result() if outcome.exception is None else outcome.exception)

    pm.add_hookcall_monitoring(lambda hook_name, impls, kwargs: None, after)


#: The plugins every game uses, loaded like third-party ones.
BUILTIN_PLUGINS: tuple[str, ...] = (
    "tamalou.plugins.defaults",
    "tamalou.plugins.powers",
    "tamalou.plugins.mechanics",
)


def _new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in BUILTIN_PLUGINS:
        pm.register(importlib.import_module(name), name=name)
    if TRACE:
        _monitor(pm)
    return pm


@lru_cache(maxsize=1)
def discovery_manager() -> pluggy.PluginManager:
    """The process-wide manager: built-ins plus the entry-point group ``tamalou`` (not with ``NO_PLUGINS``)."""
    pm = _new_manager()
    if not NO_PLUGINS:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    return pm


@lru_cache(maxsize=1)
def _builtin_modules() -> frozenset[str]:
    """The modules of this package (``tamalou.plugins.*``), found without importing any of them."""
    return frozenset(f"{PACKAGE}.{m.name}" for m in pkgutil.iter_modules([str(Path(__file__).parent / "plugins")]))


def is_builtin_plugin(name: str) -> bool:
    """Whether ``name`` is one of tamalou's own plugin modules (``tamalou.plugins.*``, e.g. the
    ``tamalou.plugins.french`` that the built-in French ruleset names): safe for an untrusted variant."""
    return name in BUILTIN_PLUGINS or name in _builtin_modules()


def import_plugin(name: str, *, file: str | None = None) -> ModuleType:
    """Import a plugin module named in a variant, with an error that says which and why.

    Whatever the import raises (``SystemExit`` included; only ``KeyboardInterrupt`` goes through) is a
    ``VariantError`` naming the module, the original exception chained."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise VariantError(f"cannot import plugin module {name!r}: {exc}", file=file, key="plugins") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit too: a module that exits at import is a bad variant
        raise VariantError(f"plugin module {name!r} failed when imported: {exc!r}", file=file, key="plugins") from exc


def rules_manager(variant: Variant) -> pluggy.PluginManager:
    """A manager with the built-ins and the variant's own plugins (the last named is asked first)."""
    pm = _new_manager()
    for name in variant.plugins:
        if pm.has_plugin(name):
            continue
        module = import_plugin(name)
        _check_names(pm, module, name)
        try:
            pm.register(module, name=name)
        except (pluggy.PluginValidationError, ValueError) as exc:
            raise VariantError(f"plugin {name!r} is not valid: {exc}", key="plugins") from None
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise VariantError(f"plugin {exc.plugin!r}: {exc}", key="plugins") from None
    return pm


def _check_names(pm: pluggy.PluginManager, module: ModuleType, name: str) -> None:
    """A function named like a hook must be one, and be marked: a typo (``tamalou_card_vlaue``) or a
    forgotten ``@tamalou.hookimpl`` is an error, not a rule silently left out."""
    specs = sorted(n for n in dir(hookspecs) if n.startswith("tamalou_"))
    for attr in dir(module):
        if not attr.startswith("tamalou_") or not callable(getattr(module, attr)):
            continue
        if attr not in specs:
            near = difflib.get_close_matches(attr, specs, n=1)
            hint = f" (did you mean {near[0]}?)" if near else f" (hooks: {', '.join(specs)})"
            raise VariantError(f"plugin {name!r}: {attr} is not a tamalou hook{hint}", key="plugins")
        if pm.parse_hookimpl_opts(module, attr) is None:
            raise VariantError(f"plugin {name!r}: {attr} is not marked @tamalou.hookimpl", key="plugins")


# ----------------------------------------------------------------------------- calling the hooks


def first_result(hook: Any, **kwargs: Any) -> tuple[Any, str]:
    """Call a *first result wins* hook one implementation at a time, in pluggy's order; return the
    first answer that is not ``None`` and the name of the plugin that gave it. A hook that raises is a
    ``PluginError`` naming the plugin and the hook. (``TAMALOU_TRACE_PLUGINS=1``: each answer and its plugin
    are written to standard error.)"""
    return first_answer(hook.name, list(reversed(hook.get_hookimpls())), kwargs)


def first_answer(name: str, impls: list[Any], kwargs: dict[str, Any]) -> tuple[Any, str]:
    """The first answer that is not ``None`` of ``impls`` (in calling order), then passed through the
    wrappers among them (``@hookimpl(wrapper=True)``, innermost first): a wrapper receives the answer
    from its ``yield`` and returns it, changed or not, as pluggy's own wrappers do. The one place where
    tamalou calls a *first result wins* hook itself (pluggy's call does not say which plugin answered)."""
    answer: Any = None
    plugin = ""
    wrappers = [impl for impl in impls if impl.wrapper or impl.hookwrapper]
    for impl in impls:
        if impl.wrapper or impl.hookwrapper:
            continue
        try:
            answer = impl.function(*[kwargs[arg] for arg in impl.argnames])
        except PluginError:  # (another plugin's code it called, a tie-break's key: that one is named)
            raise
        except Exception as exc:
            raise PluginError(f"raised {exc!r}{raised_at(exc)}", plugin=impl.plugin_name, hook=name) from exc
        if answer is not None:
            plugin = impl.plugin_name
            break
    for impl in reversed(wrappers):  # the first in calling order is the outermost
        answer, plugin = _wrapped(name, impl, kwargs, answer), impl.plugin_name
    if TRACE:
        trace(name, plugin, answer)
    return answer, plugin


def _wrapped(name: str, impl: Any, kwargs: dict[str, Any], answer: Any) -> Any:
    """``answer`` passed through the wrapper ``impl`` (``@hookimpl(wrapper=True)``)."""
    if impl.hookwrapper:
        raise PluginError(
            "old-style hookwrapper=True is not supported: use wrapper=True", plugin=impl.plugin_name, hook=name
        )
    try:
        gen = impl.function(*[kwargs[arg] for arg in impl.argnames])
        next(gen)
        gen.send(answer)
    except StopIteration as stop:
        return stop.value
    except Exception as exc:
        raise PluginError(f"raised {exc!r}{raised_at(exc)}", plugin=impl.plugin_name, hook=name) from exc
    raise PluginError("a wrapper must yield exactly once", plugin=impl.plugin_name, hook=name)


def all_results(hook: Any) -> list[tuple[Any, str]]:
    """Every answer that is not ``None`` of a hook without arguments (a "register" hook), in calling order, each with
    the plugin that gave it; a hook that raises is a ``VariantError`` naming the plugin."""
    out = []
    for impl in reversed(hook.get_hookimpls()):
        try:
            answer = impl.function()
        except Exception as exc:
            raise VariantError(
                f"{hook.name} of plugin {impl.plugin_name!r} raised {exc!r}{raised_at(exc)}", key="plugins"
            ) from exc
        if answer is not None:
            out.append((answer, impl.plugin_name))
    return out
