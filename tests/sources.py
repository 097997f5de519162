"""The library's sources as modules, for the tests that read them (``tests/tooling/test_privacy.py``,
``tests/tooling/test_imports.py``): a file's dotted module name, and the module a ``from ... import`` names."""

from __future__ import annotations

import ast
from pathlib import Path

import tamalou

#: The folder that holds the package and the two top-level modules (``src/``).
SRC = Path(tamalou.__file__).resolve().parent.parent
#: The top-level names of the library: the package, the pytest plugin, the gymnasium hook.
ROOTS = ("tamalou", "_tamalou_pytest_plugin", "_tamalou_gymnasium")


def module_name(path: Path, src: Path = SRC) -> tuple[str, bool]:
    """The dotted name of the module at ``path`` under ``src``, and whether it is a package's ``__init__``."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if package else parts), package


def modules(src: Path = SRC) -> dict[str, Path]:
    """Every module of the library under ``src``, by its dotted name."""
    found = {}
    for path in sorted(src.rglob("*.py")):
        name, _ = module_name(path, src)
        if name.split(".")[0] in ROOTS:
            found[name] = path
    return found


def imported_from(node: ast.ImportFrom, module: str, package: bool) -> str:
    """The absolute name of the module a ``from ... import`` in ``module`` (a package's ``__init__`` if
    ``package``) imports from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))
