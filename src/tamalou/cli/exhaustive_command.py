"""``tamalou verify RULESET --exhaustive``: every sequence of legal actions of the ruleset's small deals, up to a
depth, the invariants checked at every node, and the node counts by depth (``tamalou.verify.exhaustive``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from ._options import console_out

if TYPE_CHECKING:
    from ..schema import Variant


def run_exhaustive(v: Variant, depth: int, players: int | None, thorough: bool) -> None:
    """Walk the small deals of ``v`` (of ``players`` only, if given) and print the counts; exit 1 on a failure."""
    from ..verify import InvariantViolation, exhaustive

    say = console_out().print
    try:
        report = exhaustive(v, depth, players=None if players is None else [players], thorough=thorough)
    except InvariantViolation as failure:
        say(f"{v.name}: exhaustive walk to depth {depth}: a failure", soft_wrap=True)
        say(f"  {failure}", soft_wrap=True)
        say(f"  after the actions: {json.dumps(getattr(failure, 'actions', []))}", soft_wrap=True)
        raise typer.Exit(1) from None
    checks = "every invariant" if thorough else "the invariants of a step, knowledge, result and slot order"
    say(
        f"{v.name}: every sequence of legal actions of its small deals, to depth {depth}; {checks} at every node",
        soft_wrap=True,
    )
    table = Table(title=f"nodes by depth ({report.variant})")
    table.add_column("depth", justify="right")
    for walk in report.walks:
        table.add_column(f"{walk.deal.players} players", justify="right")
    table.add_column("all", justify="right")
    for d in range(depth + 1):
        table.add_row(str(d), *(str(w.nodes[d]) for w in report.walks), str(report.nodes[d]))
    say(table)
    total = sum(report.nodes)
    rate = total / report.seconds if report.seconds > 0 else 0.0
    ends = sum(w.ends for w in report.walks)
    say(f"{total} nodes ({ends} rounds ended) in {report.seconds:.1f} s: {rate:.0f} nodes/s; no invariant broken")
