"""The hatch build hook of the compiled core (docs/compiled.md).

With ``TAMALOU_COMPILE=1`` in the environment, building the wheel (``pip install .``, ``pip wheel .``,
``python -m build``) compiles the modules that ``pyproject.toml`` lists under this hook's ``compile`` with
mypyc into C extensions, and the wheel carries them beside the Python sources (an extension module is
imported before a ``.py`` file of the same name). Without the variable, the hook does nothing: the wheel
is the pure-Python package, and building it needs neither mypy nor a C compiler.

The compile runs in a scratch directory (nothing is written into the source tree) with the project's own
mypy settings (``[tool.mypy]``: strict, the pydantic plugin), so what ``mypy`` accepts is what is compiled.
It needs a C compiler and the Python headers: without them the build stops with a message that says so
(it never quietly falls back to the pure package: whoever asked for the compiled core would not get it).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENV = "TAMALOU_COMPILE"
#: The package's shared library of compiled code (mypyc's runtime and every compiled module): one
#: extension module inside the package, beside which each compiled module is a small extension shim.
GROUP = "tamalou._core"


def wanted() -> bool:
    """Whether ``TAMALOU_COMPILE`` asks for the compiled core."""
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{ENV}={value!r}: set it to 1 to compile the core, or to 0 (or unset it) for the pure package")


#: The C compiler's optimization level for the compiled core (``-O3`` unless ``TAMALOU_COMPILE_OPT`` says 0 to 3).
#: A wheel for use is built at 3; a build only to test (CI's compiled pass) may take a lower level, which gcc
#: compiles several times faster, for a core that runs slower and behaves the same.
OPT_ENV = "TAMALOU_COMPILE_OPT"


def opt_level() -> str:
    """The optimization level ``TAMALOU_COMPILE_OPT`` asks for (``"3"`` when unset)."""
    value = os.environ.get(OPT_ENV, "").strip() or "3"
    if value not in ("0", "1", "2", "3"):
        raise ValueError(f"{OPT_ENV}={value!r}: the C compiler's optimization level is 0, 1, 2 or 3 (3 when unset)")
    return value


def missing_toolchain() -> str | None:
    """What the compile needs and this machine lacks (a C compiler, the Python headers), or ``None``."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    compiler = os.environ.get("CC", "").split()[:1] or [cc]
    problems = []
    if shutil.which(compiler[0]) is None:
        problems.append(f"the C compiler {compiler[0]!r} (install gcc or clang, or set CC)")
    headers = os.path.join(sysconfig.get_paths()["include"], "Python.h")
    if not os.path.isfile(headers):
        problems.append(f"the Python headers ({headers}; on Debian or Ubuntu: the python3-dev package)")
    return " and ".join(problems) or None


#: The contracts' Protocols (``tamalou.round_table``), and the engine's classes that are them at run time. mypyc
#: reads an attribute of a value typed with a Protocol through Python's generic lookup, and one typed with a
#: compiled class straight from the object's struct: the compiled core is compiled against the classes.
#: (benchmarks/random_playout.py, compiled: the mechanics' listing and matching read the round a few dozen times
#: an action.)
CONCRETE = {
    "RoundTable": ("engine.flow", "Flow"),
    "RulesTable": ("engine.rulebook", "Rulebook"),
    "PhaseRows": ("engine.phases", "PhaseTable"),
    "PhaseRow": ("mechanic", "PhaseEntry"),
}


def concrete_tree(root: str, tree: str) -> str:
    """A copy of the sources to compile (``src/``, ``pyproject.toml`` for mypy's settings) in which
    ``tamalou/round_table.py`` names the engine's classes for its Protocols: mypy then checks the mechanics
    against the round's flow (``Flow``, the class the core hands them: it has every member of the Protocol, as
    mypy checks where the core passes it), and mypyc compiles their reads of it as a compiled class's. The shipped
    ``round_table.py`` is the Protocols' (it is not compiled; the compiled modules import it for types only)."""
    shutil.copytree(os.path.join(root, "src"), os.path.join(tree, "src"), ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(root, "pyproject.toml"), tree)
    imports = "".join(f"    from .{module} import {cls} as {name}\n" for name, (module, cls) in CONCRETE.items())
    with open(os.path.join(tree, "src", "tamalou", "round_table.py"), "w", encoding="utf-8") as f:
        f.write(f"from typing import TYPE_CHECKING\n\n__all__ = {sorted(CONCRETE)!r}\n\nif TYPE_CHECKING:\n{imports}")
    return tree


class CompileHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """What the compile needs in the build environment: mypy and setuptools (``compile-requires``), and
        the package's own dependencies, which mypy reads the types of. Nothing without ``TAMALOU_COMPILE``."""
        if not wanted():
            return []
        return [*self.config.get("compile-requires", []), *self.metadata.core.dependencies]

    def _sources(self) -> list[str]:
        """The files to compile, relative to the project's root (``compile`` minus ``compile-exclude``)."""
        found: set[str] = set()
        for pattern in self.config.get("compile", []):
            found.update(glob.glob(pattern, root_dir=self.root))
        for pattern in self.config.get("compile-exclude", []):
            found.difference_update(glob.glob(pattern, root_dir=self.root))
        if not found:
            raise ValueError(f"{ENV}: no file matches the compile hook's 'compile' patterns in pyproject.toml")
        return sorted(p.replace(os.sep, "/") for p in found)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or not wanted():
            return
        if version == "editable":
            raise RuntimeError(
                f"{ENV}=1 builds a regular wheel: an editable install always runs the Python sources "
                f"(unset {ENV}, or install without -e)"
            )
        missing = missing_toolchain()
        if missing is not None:
            raise RuntimeError(
                f"{ENV}=1: compiling the core needs {missing}. Build without {ENV} for the pure-Python "
                "package (the same library, only slower)."
            )
        sources = self._sources()
        level = opt_level()
        self._scratch = tempfile.mkdtemp(prefix="tamalou-compile-")
        out, temp = os.path.join(self._scratch, "lib"), os.path.join(self._scratch, "temp")
        tree = concrete_tree(self.root, os.path.join(self._scratch, "tree"))
        setup = os.path.join(self._scratch, "setup.py")
        with open(setup, "w", encoding="utf-8") as f:
            f.write(
                "import os\n"
                "from mypyc.build import mypycify\n"
                "from setuptools import setup\n"
                f"os.chdir({tree!r})\n"
                "setup(\n"
                "    name='tamalou-compiled-core',\n"
                "    ext_modules=mypycify(\n"
                f"        ['--config-file', 'pyproject.toml', *{sources!r}],\n"
                f"        opt_level={level!r}, group_name={GROUP!r}, target_dir={os.path.join(self._scratch, 'c')!r},\n"
                "    ),\n"
                ")\n"
            )
        env = {**os.environ, "MYPY_CACHE_DIR": os.path.join(self._scratch, "mypy_cache")}
        command = [sys.executable, setup, "build_ext", "--build-lib", out, "--build-temp", temp]
        done = subprocess.run(command, cwd=self._scratch, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{ENV}=1: mypyc could not compile the core:\n{done.stdout}\n{done.stderr}")
        built = sorted(glob.glob("**/*" + sysconfig.get_config_var("EXT_SUFFIX"), root_dir=out, recursive=True))
        expected = {s.removeprefix("src/").removesuffix(".py") for s in sources} | {GROUP.replace(".", "/") + "__mypyc"}
        got = {b.removesuffix(sysconfig.get_config_var("EXT_SUFFIX")).replace(os.sep, "/") for b in built}
        if got != expected:
            raise RuntimeError(f"{ENV}=1: mypyc built {sorted(got)}, expected {sorted(expected)}")
        for path in built:
            build_data["force_include"][os.path.join(out, path)] = path.replace(os.sep, "/")
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # cp311-cp311-<platform>: the extensions fit this interpreter only

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
