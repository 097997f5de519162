"""The plot of ``tamalou.simulate``'s reports (the ``plot`` extra: matplotlib), from the library and from
``tamalou simulate --plot``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from optional import require
from tamalou.cli import app
from tamalou.simulation import plot, simulate

require("plot", "matplotlib")


def test_plot_draws_an_image(tmp_path: Path) -> None:
    a = simulate("french", ["cautious", "random"], games=6, backend="inline")
    b = simulate(["french", "multi-round"], "random", games=2, backend="inline")
    out = plot([a, b], tmp_path / "totals.png")
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_simulate_plot(tmp_path: Path) -> None:
    image = tmp_path / "totals.png"
    result = CliRunner().invoke(
        app, ["simulate", "-n", "4", "-b", "cautious,random", "--backend", "inline", "--plot", str(image)]
    )
    assert result.exit_code == 0, result.output
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_reports_compared_share_their_scales_and_show_the_rounds_lengths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rulesets: a row each, the same columns (totals, round lengths, match totals for the one of several
    rounds), each column on one scale."""
    import matplotlib.pyplot as plt

    a = simulate("french", "random", games=6, backend="inline")
    b = simulate(["french", "multi-round"], "random", games=2, backend="inline")
    created: list[tuple[Any, dict[str, Any]]] = []
    real = plt.subplots

    def spy(*args: Any, **kwargs: Any) -> Any:
        fig, axes = real(*args, **kwargs)
        created.append((axes, kwargs))
        return fig, axes

    monkeypatch.setattr(plt, "subplots", spy)
    plot([a, b], tmp_path / "balance.svg")
    ((axes, kwargs),) = created
    assert axes.shape == (2, 3) and kwargs["sharex"] == "col" and kwargs["sharey"] == "col"
    titles = [ax.get_title() for ax in axes[0]]
    assert "card total" in titles[0] and "round length" in titles[1] and titles[2] == ""  # french: no match
    assert "match total" in axes[1][2].get_title()
    assert axes[0][0].get_xlim() == axes[1][0].get_xlim()
    assert (tmp_path / "balance.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
