"""Privacy by package (issue 48): a name with a leading underscore is private to its module. No module of the
library imports one from another module, nor reads one as an attribute of an imported module: what a package's
modules share has a name without underscore (in a module whose own name starts with ``_`` when it is
package-internal, as ``tamalou.cli._options``), and what users may use is re-exported from the package's
``__init__``. ruff's ``PLC2701`` would say the same, but it lets a package import its own private names."""

from __future__ import annotations

import ast
from pathlib import Path

from sources import ROOTS, SRC, imported_from, module_name, modules


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(path: Path, module: tuple[str, bool] | None = None) -> list[str]:
    """Where ``path`` (the module ``module``: its dotted name, and whether it is a package's ``__init__``) imports
    an underscore name from another module of the library, or reads one from a module of the library it imported
    (``module._name``)."""
    name, package = module or module_name(path)
    where = path.name if module else str(path.relative_to(SRC))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    modules: set[str] = set()  # local names bound to a module of the library
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = imported_from(node, name, package)
            if not source.startswith(ROOTS):
                continue
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{where}:{node.lineno} imports {alias.name} from {source}")
                elif not (SRC / Path(*source.split("."))).with_suffix(".py").exists():
                    modules.add(alias.asname or alias.name)  # ``from tamalou import engine`` binds a package
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(ROOTS):
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        name_read = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        if name_read and _private(node.attr) and node.value.id in modules:  # type: ignore[attr-defined]
            found.append(f"{where}:{node.lineno} reads {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_name() -> None:
    files = list(modules().values())
    assert len(files) > 100
    found = [line for p in files for line in private_uses(p)]
    assert not found, "\n".join(found)


def test_the_check_finds_an_import_and_a_read(tmp_path: Path) -> None:
    """The check itself: an underscore name imported from a library module, or read from one, is found."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from tamalou.rng import _helper\nfrom . import rng\nimport tamalou.cards\nrng._seed\ntamalou._x\nrng.ok\n"
    )
    found = private_uses(probe, ("tamalou.probe", False))
    assert [f.split(" ", 1)[1] for f in found] == [
        "imports _helper from tamalou.rng",
        "reads rng._seed",
        "reads tamalou._x",
    ]
