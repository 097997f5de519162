"""Plots of simulation reports: each bot's distribution of totals and the rounds' lengths drawn into an image, on
shared scales when reports are compared (matplotlib, the ``plot`` extra, imported only when used)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from .report import Distribution, SimulationReport

#: The panels of a report, one column each: a title, and a report's distributions by label (``None``: no panel).
_PANELS: tuple[tuple[str, Callable[[SimulationReport], dict[str, Distribution] | None]], ...] = (
    ("card total at the end of a round", lambda r: {b: s.total for b, s in r.rounds.by_bot.items()}),
    ("round length (turns)", lambda r: {"every round": r.rounds.turns}),
    ("match total", lambda r: {b: s.total for b, s in r.matches.by_bot.items()} if r.matches is not None else None),
)


def plot(reports: SimulationReport | Sequence[SimulationReport], path: str | Path) -> Path:
    """Draw each report as a row of panels into the image ``path`` (any format matplotlib writes, by its
    suffix): each bot's distribution of round totals, the length of the rounds and, for a ruleset of several
    rounds, each bot's match totals. Reports compared are drawn on the same scales, column by column, so that
    their rows can be read against each other. Needs matplotlib (the ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'tamalou[plot]'") from None
    rs = [reports] if isinstance(reports, SimulationReport) else list(reports)
    panels = [(what, get) for what, get in _PANELS if any(get(r) is not None for r in rs)]
    fig, axes = plt.subplots(
        len(rs), len(panels), figsize=(5.5 * len(panels), 3.4 * len(rs)), squeeze=False, sharex="col", sharey="col"
    )
    for row, r in zip(axes, rs, strict=True):
        for ax, (what, get) in zip(row, panels, strict=True):
            by_label = get(r)
            if by_label is None:
                ax.axis("off")
                continue
            for label, dist in by_label.items():
                values = list(dist.histogram)
                weights = [k / dist.count for k in dist.histogram.values()] if dist.count else []
                lo, hi = (min(values), max(values)) if values else (0, 1)
                ax.hist(values, bins=range(lo, hi + 2), weights=weights, histtype="step", linewidth=1.5, label=label)
            ax.set_title(f"{r.variant}, {r.players} players, {r.games} games: {what}", fontsize=9)
            ax.set_xlabel(what)
            ax.set_ylabel("share")
            ax.tick_params(labelbottom=True, labelleft=True)  # (shared scales: every panel keeps its numbers)
            ax.legend(fontsize=8)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
