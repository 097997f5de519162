"""The plot of ``tamalou.simulate``'s reports (the ``plot`` extra: matplotlib), from the library and from
``tamalou simulate --plot``."""

from __future__ import annotations

from pathlib import Path

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
