"""The table a mechanic sees (issue 48): ``tamalou.round_table.RoundTable`` is the contract of mechanics, powers and
hooks; every built-in one is annotated with it, and mypy rejects a plugin that reaches for a name of the engine's
``Round`` outside it (here its generator, its action log and its ``apply``), while the same plugin written with the
contract's names only passes. At run time the table is the round itself."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import tamalou
from optional import require
from tamalou.engine.game import round_of
from tamalou.engine.round import Round
from tamalou.round_table import RoundTable

SRC = Path(tamalou.__file__).resolve().parent

PLUGIN = '''
from __future__ import annotations

from typing import TYPE_CHECKING

from tamalou.mechanic import Mechanic

if TYPE_CHECKING:
    from tamalou.events import Event
    from tamalou.round_table import RoundTable


class PeekOnThrow(Mechanic):
    """When a seat throws a card, it looks at its first card: written against the contract."""

    name = "peek-on-throw"

    def thrown(self, g: RoundTable, card: int, how: str, events: list[Event]) -> bool:
        p = g.current_player
        if g.occupied(p):
            g.look(p, p, g.occupied(p)[0], events)
        {extra}
        return False
'''

#: Names of the engine's ``Round`` that are not the contract's, each used as a plugin might.
OUTSIDE = {
    "g.rng.random()": "rng",
    "g.actions.clear()": "actions",
    "g.hands[0].append(3)": "append",  # a layout is a Sequence: change it through the moves
    "g.knowers[0] = 0": "index",  # who knows what changes only through look, show, swap...
}


ALLOWED = "g.phase = g.phase_named('draw')"


def test_mypy_accepts_the_contract_and_rejects_every_name_outside_it(tmp_path: Path) -> None:
    """One mypy run over the same plugin written six ways: with a contract's name only (no error), and with each
    name of ``OUTSIDE`` (an error on that line, naming it)."""
    api = require("lint", "mypy.api")
    modules = {}
    for n, line in enumerate([ALLOWED, *sorted(OUTSIDE)]):
        module = tmp_path / f"peek_on_throw_{n}.py"
        module.write_text(textwrap.dedent(PLUGIN).format(extra=line), encoding="utf-8")
        modules[line] = module
    out, err, status = api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / ".mypy_cache"), *map(str, modules.values())]
    )
    report = out + err
    assert status == 1, report
    errors = [row for row in report.splitlines() if ": error:" in row]
    assert not [row for row in errors if modules[ALLOWED].name in row], report
    for line, word in OUTSIDE.items():
        line_no = textwrap.dedent(PLUGIN).format(extra=line).splitlines().index(f"        {line}") + 1
        found = [row for row in errors if f"{modules[line].name}:{line_no}: error" in row]
        assert len(found) == 1 and word in found[0], report
    assert len(errors) == len(OUTSIDE), report


def test_every_built_in_mechanic_plugin_and_power_is_annotated_with_the_contract() -> None:
    """No module of ``mechanics/``, ``plugins/`` or ``powers.py`` names the engine's ``Round``: each annotates the
    game it is handed with ``RoundTable``."""
    files = [*sorted((SRC / "mechanics").glob("*.py")), *sorted((SRC / "plugins").glob("*.py")), SRC / "powers.py"]
    naming = []
    annotated = 0
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        if "Round" in names | imported or "round" in attrs:
            naming.append(path.name)
        annotated += "RoundTable" in path.read_text(encoding="utf-8")
    assert not naming, f"modules naming the engine's Round: {naming}"
    assert annotated >= 12


def test_at_run_time_the_table_is_the_round_itself() -> None:
    game = tamalou.new_game("french", 3, seed=2)
    seen: list[object] = []

    def look(g: RoundTable) -> None:
        seen.append(g)

    round_ = round_of(game)
    look(round_)
    assert seen == [round_] and type(round_) is Round
    members = {name for name in vars(RoundTable) if not name.startswith("_")}
    assert members <= set(dir(round_)) | set(Round.__annotations__) | {"held_from", "phase", "current_player"}
    assert len(members) > 60
