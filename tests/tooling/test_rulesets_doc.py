"""docs/rulesets.md is generated from the variant files by scripts/rulesets_table.py: the committed
page must be what the script writes now, and it must show every ruleset."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tamalou
from scenario import load_script
from tamalou.schema import Rules

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "rulesets_table.py"
DOC = ROOT / "docs" / "rulesets.md"
REGENERATE = "regenerate it with `python scripts/rulesets_table.py` (from the repository root) and commit it"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script(SCRIPT)


@pytest.fixture(scope="module")
def page(script: ModuleType) -> str:
    text: str = script.render()
    return text


def table_rows(page: str) -> list[list[str]]:
    """Every row of every Markdown table of the page, as stripped cells (separator rows left out)."""
    rows = []
    for line in page.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
    return rows


def key_row(page: str, key: str) -> dict[str, str]:
    """The row of ``key`` as {column header: cell} (headers are the variant names)."""
    header: list[str] = []
    for cells in table_rows(page):
        if cells[0] == "key":
            header = [h.split("`")[1] if "`" in h else h for h in cells]
        elif cells[0] == f"`{key}`":
            return dict(zip(header, cells, strict=True))
    raise AssertionError(f"no row for {key}")


def test_committed_page_is_up_to_date(page: str) -> None:
    assert DOC.exists(), f"{DOC.relative_to(ROOT)} is missing: {REGENERATE}"
    assert DOC.read_text(encoding="utf-8") == page, f"{DOC.relative_to(ROOT)} is stale: {REGENERATE}"


def test_output_is_deterministic(script: ModuleType, page: str) -> None:
    assert script.render() == page
    assert page.endswith("\n") and not page.endswith("\n\n")


def test_every_variant_has_a_column_in_every_table_and_a_section(page: str) -> None:
    names = tamalou.variant_names()
    headers = [cells for cells in table_rows(page) if cells[0] == "key"]
    assert len(headers) >= 8  # players/deck/deal/peek, values, draw, powers, matching, call, end, scoring/rounds
    for cells in headers:
        assert cells[1:-1] == [f"`{n}` (modifier)" if tamalou.load_variant(n).base else f"`{n}`" for n in names]
    for n in names:
        v = tamalou.load_variant(n)
        assert f"### `{n}`: {v.title}" in page
        assert " ".join(v.description.split()) in page
        for item in (*v.aliases, *v.sources):
            assert f"`{item}`" in page


def test_every_key_of_the_format_has_a_row(page: str) -> None:
    """A key added to the variant format shows up in the page by itself."""
    for section, field in Rules.model_fields.items():
        model = field.annotation
        assert model is not None
        for name in model.model_fields:
            if (section, name) == ("values", "ranks"):
                keys = [f"values.ranks.{r}" for r in ("A", "10", "K", "JK")]
            elif (section, name) == ("powers", "ranks"):
                keys = [f"powers.ranks.{r}" for r in ("7", "J", "K")]
            else:
                keys = [f"{section}.{name}"]
            for key in keys:
                key_row(page, key)


def test_cells_are_the_loaded_values(page: str) -> None:
    """A few cells read back against the loaded variants (the page is not a copy of itself)."""
    for n in ("french", "cartalogue", "cartalogue-rapide"):
        v = tamalou.load_variant(n)
        assert key_row(page, "call.threshold")[n] == str(v.rules.call.threshold)
        assert key_row(page, "values.ranks.10")[n] == str(v.rules.values.ranks["10"])
        assert key_row(page, "draw.per_turn")[n] == str(v.rules.draw.per_turn)
        assert key_row(page, "matching.max_cards")[n] == str(v.rules.matching.max_cards)
    assert key_row(page, "values.cards")["french"] == "KS 15, KC 15, KH 0, KD 0"
    assert key_row(page, "values.ranks.JK")["french"] == "not in the deck"


def test_modifiers_show_only_the_change_they_make(page: str) -> None:
    """gabo: the threshold ("Le Tamalou", Variantes 1); jokers: two jokers at -1 with no power; opponent-matching:
    the opponents key; multi-round: the rounds and the scoring it brings to any base (Cartalogue's
    differs), though French's scoring is the same."""
    assert key_row(page, "call.threshold")["gabo"] == "7"
    assert key_row(page, "deck.jokers")["jokers"] == "2"
    assert key_row(page, "values.ranks.JK")["jokers"] == "-1"
    assert key_row(page, "powers.ranks.JK")["jokers"] == "none"
    assert key_row(page, "matching.opponents")["opponent-matching"] == "yes"
    assert key_row(page, "rounds.form")["multi-round"] == "fixed"
    assert key_row(page, "scoring.caller_won")["multi-round"] == "zero"
    assert key_row(page, "scoring.caller_lost_penalty")["multi-round"] == "10"
    unchanged = {
        "gabo": ["call.when", "deck.jokers", "matching.opponents", "plugins"],
        "jokers": ["call.threshold", "values.ranks.A", "rounds.form"],
        "opponent-matching": ["matching.max_cards", "call.threshold", "plugins"],
        "multi-round": ["call.threshold", "matching.opponents", "values.ranks.10"],
    }
    for name, keys in unchanged.items():
        for key in keys:
            assert key_row(page, key)[name] == "·", (name, key)


def test_check_flag_exits_1_on_a_stale_page(script: ModuleType, tmp_path: Path) -> None:
    target = tmp_path / "rulesets.md"
    assert script.main(["--check", "--output", str(target)]) == 1  # missing
    target.write_text("stale\n", encoding="utf-8")
    assert script.main(["--check", "--output", str(target)]) == 1
    assert target.read_text(encoding="utf-8") == "stale\n"  # --check changes nothing
    assert script.main(["--output", str(target)]) == 0
    assert script.main(["--check", "--output", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == script.render()


def test_script_runs_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{done.stderr}\n{REGENERATE}"
