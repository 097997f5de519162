"""tamalou's Gymnasium environment, known to ``gymnasium.make`` in any interpreter where tamalou is installed.

``gymnasium.make("tamalou/Tamalou-v0", variant="french", players=4)`` works without importing ``tamalou.ai.gym``
first: the id is registered (with its entry point as a string: nothing of tamalou, numpy or PettingZoo is imported
until an environment is made) as soon as gymnasium itself is imported. Two ways lead here:

- older Gymnasium releases (0.26 to 0.29) load the entry points of the group ``gymnasium.envs`` when they are
  imported: tamalou's (``tamalou = "_tamalou_gymnasium:register"``) calls ``register``;
- Gymnasium 1.x reads no entry point: ``_tamalou_gymnasium.pth``, installed beside this module, calls ``install``
  when the interpreter starts, which adds a finder to ``sys.meta_path`` that waits for gymnasium's import and
  registers the id once gymnasium's own module has run. The finder looks at one name, ``gymnasium``, and
  leaves ``sys.meta_path`` once it has. It imports nothing at start-up.

A top-level module (as the pytest plugin is), so that nothing of the package is imported at start-up.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (not typing's: importing typing at every start-up costs more than all the rest)
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any

#: The id ``tamalou.ai.gym`` registers the environment under (the same, whichever registers it first).
ENV_ID = "tamalou/Tamalou-v0"
ENTRY_POINT = "tamalou.ai.gym:TamalouGymEnv"


def register(gymnasium: Any = None) -> None:
    """Register ``ENV_ID`` with gymnasium (imported here unless given), once."""
    if gymnasium is None:
        import gymnasium
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point=ENTRY_POINT)


class _Loader:
    """gymnasium's own loader, then ``register`` (a loader by its two methods: nothing imported at start-up)."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self.loader.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        try:  # noqa: SIM105 (contextlib.suppress: one import more at every start-up)
            register(module)
        except Exception:
            pass  # a gymnasium that cannot take it: make() says the id is unknown, as without tamalou


class _Finder:
    """Waits for ``import gymnasium``: finds it as the other finders would, with ``_Loader`` around its loader (a
    meta path finder by its one method)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if name != "gymnasium":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)  # once: the real spec is found without this finder
        from importlib.util import find_spec

        spec = find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _Loader(spec.loader)  # type: ignore[assignment]  # (a loader by its methods, see _Loader)
        return spec


def install() -> None:
    """Register the id when gymnasium is imported (at once if it already is)."""
    if "gymnasium" in sys.modules:
        register(sys.modules["gymnasium"])
    elif not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
