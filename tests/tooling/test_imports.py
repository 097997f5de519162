"""The import graph of the library (issue 48), built here from the sources: every import counts, those made for
annotations only (``if TYPE_CHECKING:``) and those inside functions included.

- No circle of any kind: no module reaches itself through its imports (import-linter's ``acyclic_siblings``, in
  ``pyproject.toml``, checks the packages; this checks the modules, which it does not).
- The tools built on the engine (``ai``, ``simulation``, ``testing``, ``cli``, ``verify``, ``bots``) meet only
  through their packages' APIs: one imports another's package (its ``__init__``), never a module inside it.
- The two top-level modules (the pytest plugin, the gymnasium hook) use the library through its packages' APIs, and
  the library never imports them (import-linter takes packages only: they are checked here).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from sources import ROOTS, imported_from, modules

TOP_LEVEL = ROOTS[1:]
TOOLS = ("tamalou.ai", "tamalou.simulation", "tamalou.testing", "tamalou.cli", "tamalou.verify", "tamalou.bots")
MODULES = modules()


def _target(name: str, known: set[str]) -> str | None:
    """The module an import of ``name`` runs last: ``name`` itself, else the package that holds it."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str, path: Path, names: Iterable[str] = MODULES) -> set[str]:
    """The modules of the library ``module`` (at ``path``) imports: ``from X import y`` counts as an import of
    ``X.y`` where that is a module, else of ``X`` (``names``: the modules there are)."""
    known = set(names)
    package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = imported_from(node, module, package)
            names = [f"{source}.{a.name}" if f"{source}.{a.name}" in known else source for a in node.names]
        else:
            continue
        for name in names:
            target = _target(name, known)
            if target is not None and target != module:
                found.add(target)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


GRAPH = {name: imports(name, path) for name, path in MODULES.items()}


def test_the_graph_holds_every_module_and_the_type_only_imports() -> None:
    assert len(GRAPH) > 140
    assert "tamalou.engine.rules_face" in GRAPH["tamalou.engine.round_state"]  # under TYPE_CHECKING only
    assert "tamalou.round_table" in GRAPH["tamalou.mechanics.matching"]


def test_no_module_reaches_itself_through_its_imports() -> None:
    assert cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_circle_closed_by_an_annotation(tmp_path: Path) -> None:
    """The check itself: two modules, one importing the other for a type only, are a circle."""
    (tmp_path / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from b import B\n")
    (tmp_path / "b.py").write_text("import c\n")
    (tmp_path / "c.py").write_text("def f():\n    from a import A\n")
    names = ("a", "b", "c")
    graph = {n: imports(n, tmp_path / f"{n}.py", names) for n in names}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({**graph, "c": set()}) == []


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_the_tools_meet_only_through_their_packages_apis() -> None:
    deep = sorted(
        f"{source} imports {target}"
        for source, targets in GRAPH.items()
        if _package(source) in TOOLS
        for target in targets
        if _package(target) in TOOLS and _package(target) != _package(source) and target != _package(target)
    )
    assert deep == []


def test_the_top_level_modules_use_the_packages_apis_and_the_library_never_imports_them() -> None:
    for top in TOP_LEVEL:
        deep = sorted(t for t in GRAPH[top] if t.count(".") > 1 or t.split(".")[-1].startswith("_"))
        assert deep == [], f"{top} imports modules inside the packages: {deep}"
    assert GRAPH["_tamalou_pytest_plugin"] >= {"tamalou", "tamalou.testing", "tamalou.verify"}
    importing = sorted(
        name for name, targets in GRAPH.items() if name.startswith("tamalou") and set(TOP_LEVEL) & targets
    )
    assert importing == []
