"""The plugin modules a load imports: found beside the files that name them (then on ``sys.path``, left as it
was), imported again where a variant is unpickled, each one's problems for a failed load's report, and nothing
left of a failed load (the modules it imported, the action types they registered).
"""

from __future__ import annotations

import importlib.machinery
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from ..actions import ACTION_TYPES
from ..errors import VariantError
from ..plugin_managers import import_plugin, is_builtin_plugin, rules_manager
from ..schema import Variant
from .files import Loader
from .trust import unique_names

_BESIDE_LOCK = threading.RLock()


def _found_beside(top: str, folder: Path) -> str | None:
    """The file of module (or package) ``top`` in ``folder``, if there is one."""
    cached = sys.path_importer_cache.get(str(folder))
    if cached is not None and hasattr(cached, "invalidate_caches"):
        cached.invalidate_caches()  # a module written since the folder was last looked at
    try:
        spec = importlib.machinery.PathFinder.find_spec(top, [str(folder)])
    except (ImportError, ValueError, OSError):
        return None
    if spec is None or spec.loader is None or not spec.origin:
        return None  # not there, or a namespace portion: left to sys.path
    return spec.origin


def _same_file(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, ValueError):
        return False


def import_beside(
    plugins: Sequence[str], beside: Mapping[str, list[tuple[Path, str]]], found: dict[str, str] | None = None
) -> list[VariantError]:
    """Import the plugin modules found beside the files that name them: the folder of such a file is
    searched first, then ``sys.path``. ``sys.path`` is extended only while the module is imported (so that
    it may import its neighbours), then left as it was. A module of the same name already imported from
    elsewhere is an error, not a silent mix-up. ``found`` gets the folder of each module found so."""
    errors = []
    for name in unique_names(plugins):
        if is_builtin_plugin(name) or name not in beside:
            continue
        top = name.partition(".")[0]
        for folder, file in beside[name]:
            origin = _found_beside(top, folder)
            if origin is None:
                continue
            existing = sys.modules.get(top)
            if existing is not None and not _same_file(getattr(existing, "__file__", None), origin):
                elsewhere = getattr(existing, "__file__", None) or "built in"
                errors.append(
                    VariantError(
                        f"plugin module {top!r} is beside this file ({origin}) but another module named {top!r} "
                        f"is already imported (from {elsewhere}): expected a name of its own (rename one of them)",
                        file=file,
                        key="plugins",
                    )
                )
                break
            entry = str(folder)
            with _BESIDE_LOCK:
                sys.path.insert(0, entry)
                try:
                    import_plugin(name, file=file)
                    if found is not None:
                        found[name] = entry
                except VariantError as exc:
                    errors.append(exc)
                finally:
                    with suppress(ValueError):  # unless the plugin took it away itself
                        sys.path.remove(entry)
            break
    return errors


def plugin_errors(plugins: Sequence[str], file: str | None) -> list[VariantError]:
    """The problems of each plugin module on its own (import, hook names), for a failed load's report: one
    per module, however often it is listed. A module that cannot be imported is told without building a
    plugin manager for it (a list of thousands of unknown names stays cheap)."""
    errors = []
    for name in unique_names(plugins):
        if is_builtin_plugin(name):
            continue
        try:
            import_plugin(name)
            rules_manager(Variant.model_construct(name="-", plugins=(name,)))
        except VariantError as exc:
            errors.append(exc if exc.file else VariantError(exc.reason, file=file, key=exc.key))
        except Exception as exc:  # a plugin's own bug, reported with the others
            errors.append(VariantError(f"plugin {name!r} failed: {exc!r}", file=file, key="plugins"))
    return errors


def import_plugins_again(plugin_dirs: Mapping[str, str]) -> None:
    """Import, where a variant is unpickled (another process), the plugin modules its load found beside
    its files, from the same folders; a problem is left to the rulebook, which says it."""
    todo = [name for name in plugin_dirs if name not in sys.modules]
    if todo:
        import_beside(todo, {name: [(Path(plugin_dirs[name]), "")] for name in todo})


@contextmanager
def rollback(plugins: Sequence[str], loader: Loader | None) -> Iterator[None]:
    """If the block raises, undo what the failed load left behind: the plugin modules it imported (and
    their own modules, beside a file or in a plugin's package) and the action types their mechanics
    registered."""
    fresh = [p for p in plugins if not is_builtin_plugin(p) and p not in sys.modules]
    modules = set(sys.modules) if fresh else set()
    actions = set(ACTION_TYPES)
    try:
        yield
    except BaseException:
        for kind in set(ACTION_TYPES) - actions:
            ACTION_TYPES.pop(kind, None)
        if fresh:
            beside = loader.beside if loader else {}
            folders = {f for p in fresh for f, _ in beside.get(p, [])}
            _forget_modules(set(sys.modules) - modules, {p.partition(".")[0] for p in fresh} - {"tamalou"}, folders)
        raise


def _forget_modules(new: set[str], tops: set[str], folders: set[Path]) -> None:
    """Remove from ``sys.modules`` the modules of ``new`` that a failed load imported: those of the
    packages ``tops`` and those whose file is right in one of ``folders`` (a plugin's neighbours)."""
    for name in sorted(new, key=len, reverse=True):
        if name.partition(".")[0] == "tamalou":
            continue  # tamalou's own, imported on the way: never a plugin's
        module = sys.modules.get(name)
        where = getattr(module, "__file__", None)
        ours = name.partition(".")[0] in tops
        if not ours and where and folders:
            try:
                ours = Path(where).resolve().parent in folders
            except (OSError, ValueError):
                ours = False
        if not ours:
            continue
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent and getattr(sys.modules.get(parent), child, None) is module:
            delattr(sys.modules[parent], child)
