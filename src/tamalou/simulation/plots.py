"""Plots of simulation reports: each bot's distribution of totals drawn into an image (matplotlib, the
``plot`` extra, imported only when used)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .report import Distribution, SimulationReport


def plot(reports: SimulationReport | Sequence[SimulationReport], path: str | Path) -> Path:
    """Draw, for each report, the distribution of each bot's round totals (and match totals, for a
    ruleset of several rounds) into the image ``path`` (PNG, SVG or PDF, by its suffix). Needs
    matplotlib (the ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'tamalou[plot]'") from None
    rs = [reports] if isinstance(reports, SimulationReport) else list(reports)
    columns = 2 if any(r.matches is not None for r in rs) else 1
    fig, axes = plt.subplots(len(rs), columns, figsize=(7 * columns, 3.6 * len(rs)), squeeze=False)
    for row, r in zip(axes, rs, strict=True):
        panels: list[tuple[str, dict[str, Distribution]]] = [
            ("card total at the end of a round", {b: s.total for b, s in r.rounds.by_bot.items()})
        ]
        if r.matches is not None:
            panels.append(("match total", {b: s.total for b, s in r.matches.by_bot.items()}))
        for ax, (what, by_bot) in zip(row, panels, strict=False):
            for bot, dist in by_bot.items():
                values = list(dist.histogram)
                weights = [k / dist.count for k in dist.histogram.values()] if dist.count else []
                lo, hi = (min(values), max(values)) if values else (0, 1)
                ax.hist(values, bins=range(lo, hi + 2), weights=weights, histtype="step", linewidth=1.5, label=bot)
            ax.set_title(f"{r.variant}, {r.players} players, {r.games} games: {what}", fontsize=9)
            ax.set_xlabel(what)
            ax.set_ylabel("share")
            ax.legend(fontsize=8)
        for ax in row[len(panels) :]:
            ax.axis("off")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
