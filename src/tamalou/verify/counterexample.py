"""Counterexample files: a ``Counterexample`` (pydantic) is a game that breaks an invariant with all it
takes to play it again anywhere, its ruleset carried whole inside (``EmbeddedVariant``: its stand-alone
TOML text, its name and its plugin modules' names, with the folders of the modules found beside its
file); ``write`` and ``read`` save and load it, ``check`` plays it again, ``counterexample_name`` is the
default file name::

    example = Counterexample.read("counterexample.json")
    outcome = example.check()            # plays the actions again, checks the invariant that broke
    print(outcome.violation or "fixed")  # what ``tamalou replay counterexample.json`` says
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..actions import action_to_dict
from ..engine import Round
from ..schema import Variant
from .reproduction import Reproduction, StepCallback, reproduce


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EmbeddedVariant(_Model):
    """A ruleset carried whole inside a file: its stand-alone TOML text (``tamalou show --toml``), its
    name, its plugin modules, and the folders of the modules its load found beside its file (imported
    again from there; the others must be importable where it is loaded)."""

    name: str
    toml: str = Field(description="Every key as a stand-alone TOML file (no extends).")
    plugins: list[str] = Field(default_factory=list, description="The plugin modules it names.")
    plugin_dirs: dict[str, str] = Field(
        default_factory=dict, description="Plugin modules found beside its file, and their folders."
    )
    loaded_as: str | list[str] | None = Field(None, description="What it was loaded by, for the record.")

    @classmethod
    def of(cls, variant: Variant) -> EmbeddedVariant:
        from ..rulesets.effective import variant_to_toml

        spec = variant.spec
        loaded_as = [str(s) for s in spec] if isinstance(spec, list | tuple) else None if spec is None else str(spec)
        return cls(
            name=variant.name,
            toml=variant_to_toml(variant),
            plugins=list(variant.plugins),
            plugin_dirs=dict(variant._plugin_dirs),
            loaded_as=loaded_as,
        )

    def load(self, *, allow_plugins: bool = True) -> Variant:
        """The ruleset (``VariantError`` if it does not load here: a plugin module missing...).

        ``allow_plugins=False`` is for a file you did not write: nothing it names is imported but tamalou's own
        plugin modules (``tamalou.plugins.*``). The folders of ``plugin_dirs`` are not looked at, and a ruleset
        that names any other module is refused as ``variant_from_dict(..., allow_plugins=False)`` refuses it (a
        ``VariantError`` at the key ``plugins``). ``True`` (the default) imports the modules found beside the
        ruleset's file again, from the folders the file names: for a file you wrote (``tamalou verify``'s)."""
        from ..rulesets.loader import variant_from_dict
        from ..rulesets.plugin_modules import import_plugins_again
        from ..rulesets.toml_text import parse_toml

        file = f"{self.name} (embedded)"
        data = parse_toml(self.toml, file)  # a VariantError if it is not TOML
        if allow_plugins:
            import_plugins_again(self.plugin_dirs)
        v = variant_from_dict(data, file=file, allow_plugins=bool(allow_plugins))
        # (the folders would be imported from where the variant is unpickled: kept only for a trusted file)
        v._plugin_dirs = dict(self.plugin_dirs) if allow_plugins else {}
        return v


def code_fingerprints(variant: Variant) -> dict[str, str]:
    """The fingerprint of the code that plays ``variant``, as ``verify`` records it beside a failure it saw:
    tamalou's own package and each plugin module of the ruleset (``plugin_code``), by name."""
    modules = ["tamalou", *(name for name in variant.plugins if name.split(".")[0] != "tamalou")]
    return {name: plugin_code(name, variant._plugin_dirs.get(name)) for name in modules}


def plugin_code(module: str, folder: str | None = None) -> str:
    """The SHA-256 of a module's code, as a replay compares it: the files of its top-level package (every
    ``.py`` below it, so that a fix in a helper module counts), or its own file; ``folder`` is where it was
    found beside a ruleset file. ``""`` where the code cannot be found here (nothing to compare)."""
    top = module.split(".")[0]
    path: Path | None = None
    if folder is not None:
        for candidate in (Path(folder) / top, Path(folder) / f"{top}.py"):
            if candidate.exists():
                path = candidate
                break
    if path is None:
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            return ""
        if spec.submodule_search_locations:
            path = Path(next(iter(spec.submodule_search_locations)))
        elif spec.origin and spec.origin not in ("built-in", "frozen"):
            path = Path(spec.origin)
        else:
            return ""
    if path.is_dir():  # each file's place in the package counts too (a module moved is code changed)
        files = [(file.relative_to(path).as_posix(), file) for file in sorted(path.rglob("*.py"))]
    else:
        files = [("", path)]
    digest = hashlib.sha256()
    for where, file in files:
        try:
            digest.update(where.encode())
            digest.update(file.read_bytes())
        except OSError:
            return ""
    return digest.hexdigest()


class Counterexample(_Model):
    """A game that breaks an invariant, with all it takes to play it again anywhere: the ruleset
    (embedded), the players, the seed (or stacked deal) and first player, the actions in their JSON
    form, and the invariant that broke with its message. ``tamalou verify`` writes one for its first
    failure, shrunk (``shrink``); ``tamalou replay FILE`` plays it step by step and says whether it
    still fails::

        example = Counterexample.read("tamalou-counterexample-french-41.json")
        outcome = example.check()
        assert outcome.violation is None, outcome.violation   # passes once the rule is fixed
    """

    kind: Literal["tamalou-counterexample"] = "tamalou-counterexample"
    version: Literal[1] = 1
    tamalou: str = Field("", description="The version of tamalou that found it.")
    variant: EmbeddedVariant
    players: int
    seed: int | None
    deal: dict[str, Any] | None = None
    first_player: int | None = None
    actions: list[dict[str, Any]]
    invariant: str = Field(description="The name of the invariant that broke (tamalou.verify.INVARIANTS).")
    message: str
    description: str = Field("", description="What the invariant says.")
    found: dict[str, Any] = Field(
        default_factory=dict, description="The game verify found failing, before shrinking: seed, players, actions."
    )
    code: dict[str, str] = Field(
        default_factory=dict,
        description="The SHA-256 of the code that failed (tamalou's package, each plugin module: "
        "``code_fingerprints``), recorded by verify: what ``tamalou replay`` compares to tell a fix from a rule "
        "that depends on chance. Empty in a file made otherwise.",
    )

    def load_variant(self, *, allow_plugins: bool = True) -> Variant:
        """The embedded ruleset (``EmbeddedVariant.load``): ``allow_plugins=False`` for a file you did not
        write, so that no module it names is imported but tamalou's own plugins (``tamalou replay`` without
        ``--allow-plugins``)."""
        return self.variant.load(allow_plugins=allow_plugins)

    def check(
        self, *, thorough: bool = True, on_step: StepCallback | None = None, allow_plugins: bool = True
    ) -> Reproduction:
        """Play the actions again and check the invariant that broke (see ``reproduce``); ``allow_plugins`` is
        ``load_variant``'s."""
        return reproduce(
            self.load_variant(allow_plugins=allow_plugins),
            self.players,
            self.actions,
            self.invariant or None,
            seed=self.seed,
            deal=self.deal,
            first_player=self.first_player,
            thorough=thorough,
            on_step=on_step,
        )

    def changed_since(self) -> list[str] | None:
        """What differs here from the code that failed (``code``): tamalou's package, each plugin module. ``[]``
        when nothing does (a failure that does not come back then depends on chance or on state outside the
        game); ``None`` when the file records no code (a snapshot, a file made by hand or by an older tamalou)."""
        if not self.code:
            return None
        changes: list[str] = []
        for name, recorded in self.code.items():
            now = plugin_code(name, self.variant.plugin_dirs.get(name))
            if not recorded or not now:
                changes.append(f"the code of {name} {'was not recorded' if not recorded else 'is not found here'}")
            elif now != recorded:
                changes.append(f"the code of {name} changed")
        return changes

    def write(self, path: str | Path) -> Path:
        out = Path(path)
        out.write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")
        return out

    @classmethod
    def read(cls, path: str | Path) -> Counterexample:
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))

    @classmethod
    def from_snapshot(cls, snapshot: str, *, allow_plugins: bool | Iterable[str] = True) -> Counterexample:
        """A game snapshot (``game.to_json()``) as a counterexample of every invariant: replaying it
        checks them all on the way and at the end."""
        game = Round.from_json(snapshot, allow_plugins=allow_plugins, trusted=True)
        return cls(
            variant=EmbeddedVariant.of(game.variant),
            players=game.players,
            seed=game.seed,
            deal=game.deal_spec,
            first_player=game.first_player if game.first_given else None,
            actions=[action_to_dict(a) for a in game.actions],
            invariant="",
            message="a game snapshot",
        )


def counterexample_name(variant: str, seed: int | None) -> str:
    """The default file name of a counterexample: ``tamalou-counterexample-<variant>-<seed>.json``."""
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in variant) or "variant"
    return f"tamalou-counterexample-{safe}-{seed if seed is not None else 'deal'}.json"
