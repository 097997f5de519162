"""The catalogue of card powers (``tamalou.power_catalogue``): every power a ruleset can name, what it does and the
cards that give it in each ruleset, the same in ``tamalou show --powers`` and in the documentation's page."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import tamalou
from tamalou.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_the_catalogue_lists_each_built_in_power_with_its_words_and_its_rulesets() -> None:
    entries = {e.name: e for e in tamalou.power_catalogue()}
    assert {"peek_own", "peek_opponent", "blind_swap", "look_and_swap", "play_again", "give_stock_card"} <= set(entries)
    peek = entries["peek_own"]
    assert peek.title == "Look at one of your own cards" and peek.plugin == "tamalou.plugins.powers"
    assert peek.used_by["french"] == "7 8" and peek.used_by["dutch"] == "Q" and peek.used_by["tamalou-fun"] == "K"
    assert entries["look_and_swap"].used_by["french"] == "KS KC"  # two cards of a rank: named one by one
    assert "gabo" not in peek.used_by  # a modifier alone is French again: not a ruleset of its own here
    assert all(e.title for e in entries.values())


def test_a_ruleset_s_own_catalogue_and_the_command() -> None:
    (only,) = [e for e in tamalou.power_catalogue(["dutch"]) if e.name == "give_stock_card"]
    assert only.used_by == {"dutch": "A"}
    result = CliRunner().invoke(app, ["show", "dutch", "--powers"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "give_stock_card" in text and "dutch: A" in text and "look_and_swap" not in text  # dutch's powers
    everything = " ".join(CliRunner().invoke(app, ["show", "--powers"], env={"COLUMNS": "120"}).output.split())
    assert "look_and_swap" in everything and "KS KC" in everything and "kaboo: K" in everything


def test_the_documentation_page_lists_every_built_in_power() -> None:
    page = (ROOT / "docs" / "powers.md").read_text(encoding="utf-8")
    for e in tamalou.power_catalogue():
        if e.plugin == "tamalou.plugins.powers":
            assert f"| `{e.name}` | {e.title} |" in page
