"""A mechanic's settings in the variant file: a mechanic declares the model of its settings (``options_model``), a
variant file writes them in the table ``[options.<mechanic name>]``, and the mechanic reads them validated
(``self.options``; ``options_of(variant)`` in ``wanted``). The table is checked at load like ``[rules]``: a wrong
value or an unknown key names the file, the key and what was expected; a table that no mechanic takes is an error;
tables merge key by key through ``extends``; ``tamalou show`` says the settings and ``show --toml`` writes them.

The plugin ``plugins_for_tests.tuned``: a thrown card of rank ``rank`` (default "6") is echoed (event ``echoed``)
``times`` times (default 1, from 1 to 3); ``enabled = false`` leaves the mechanic out. French deals, stacked: 4
cards a seat, seat 0 first; seat 0 draws the stock's top and discards it."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tamalou
from tamalou import Discard, Draw, VariantError
from tamalou.cli import app
from tamalou.engine.rulebook import rulebook
from tamalou.rulesets.effective import effective_rules, variant_to_toml

BASE = """extends = "french"
plugins = ["plugins_for_tests.tuned"]
"""
HANDS = [["AS", "2S", "3S", "5S"], ["2H", "3H", "4H", "5H"]]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def deal(variant: tamalou.Variant, top: str) -> tamalou.Game:
    return tamalou.new_game(
        variant, players=2, seed=1, deal={"hands": HANDS, "stock": [top, "7C", "8C"]}, first_player=0
    )


def echoes(game: tamalou.Game) -> list[str]:
    """The words of the ``echoed`` events when seat 0 draws the stock's top and discards it."""
    game.apply(Draw(0, "stock"))
    return [e.describe() for e in game.apply(Discard(0)) if e.type == "echoed"]


def settings(variant: tamalou.Variant) -> dict[str, object]:
    (echo,) = [m for m in rulebook(variant).mechanics if m.name == "echo"]
    return dict(echo.options.model_dump())


def test_without_a_table_the_mechanic_plays_with_its_model_s_defaults(tmp_path: Path) -> None:
    v = tamalou.load_variant(write(tmp_path, "plain", BASE))
    assert v.options == {}
    assert settings(v) == {"enabled": True, "rank": "6", "times": 1}
    assert echoes(deal(v, "6C")) == ["player 0's 6C echoes"]
    assert echoes(deal(v, "4C")) == []


def test_the_table_sets_what_the_mechanic_does(tmp_path: Path) -> None:
    v = tamalou.load_variant(write(tmp_path, "fours", BASE + '[options.echo]\nrank = "4"\ntimes = 2\n'))
    assert settings(v) == {"enabled": True, "rank": "4", "times": 2}
    assert echoes(deal(v, "4C")) == ["player 0's 4C echoes", "player 0's 4C echoes"]
    assert echoes(deal(v, "6C")) == []


def test_wanted_may_read_the_settings_to_leave_the_mechanic_out(tmp_path: Path) -> None:
    v = tamalou.load_variant(write(tmp_path, "off", BASE + "[options.echo]\nenabled = false\n"))
    assert "echo" not in [m.name for m in rulebook(v).mechanics]
    assert echoes(deal(v, "6C")) == []
    # The settings of a mechanic left out are still checked.
    with pytest.raises(VariantError) as caught:
        tamalou.load_variant(write(tmp_path, "off_wrong", BASE + "[options.echo]\nenabled = false\ntimes = 9\n"))
    assert [(e.file, e.key) for e in caught.value.errors] == [("off_wrong.toml", "options.echo.times")]


def test_every_problem_of_the_table_names_the_file_the_key_and_what_was_expected(tmp_path: Path) -> None:
    text = BASE + "[options.echo]\nrank = 4\ntimes = 0\nloud = true\n"
    with pytest.raises(VariantError) as caught:
        tamalou.load_variant(write(tmp_path, "wrong", text))
    found = {e.key: e.reason for e in caught.value.errors}
    assert {e.file for e in caught.value.errors} == {"wrong.toml"}
    assert found == {
        "options.echo.rank": "expected a string, got 4",
        "options.echo.times": "expected a number greater than or equal to 1, got 0",
        "options.echo.loud": "unknown key",
    }


def test_an_untrusted_load_does_not_echo_the_values(tmp_path: Path) -> None:
    text = BASE + "[options.echo]\nrank = 4\n"
    with pytest.raises(VariantError) as caught:
        tamalou.variant_from_toml(text, file="up.toml", allow_plugins=["plugins_for_tests.tuned"])
    assert [(e.key, e.reason) for e in caught.value.errors] == [("options.echo.rank", "expected a string")]


@pytest.mark.parametrize(
    ("table", "why"),
    [
        (
            "ehco",
            "no mechanic nor power is named 'ehco': expected the name of a mechanic or a power that takes options "
            "(here: draw_up_to, echo)",
        ),
        (
            "matching",
            "mechanic 'matching' takes no options: expected the name of a mechanic or a power that takes options",
        ),
    ],
)
def test_a_table_no_mechanic_takes_is_an_error(tmp_path: Path, table: str, why: str) -> None:
    with pytest.raises(VariantError) as caught:
        tamalou.load_variant(write(tmp_path, "stray", BASE + f'[options.{table}]\nrank = "4"\n'))
    (error,) = caught.value.errors
    assert (error.file, error.key) == ("stray.toml", f"options.{table}")
    assert error.reason.startswith(why)


def test_a_ruleset_without_the_plugin_may_not_set_its_options(tmp_path: Path) -> None:
    with pytest.raises(
        VariantError, match=r"options\.echo: no mechanic nor power is named 'echo'.*\(here: draw_up_to\)"
    ):
        tamalou.load_variant(write(tmp_path, "bare", 'extends = "french"\n[options.echo]\nrank = "4"\n'))


def test_tables_merge_key_by_key_through_extends_and_errors_name_the_file_that_wrote_the_key(tmp_path: Path) -> None:
    write(tmp_path, "fours", BASE + '[options.echo]\nrank = "4"\ntimes = 2\n')
    twice = tamalou.load_variant(write(tmp_path, "once", 'extends = "fours.toml"\n[options.echo]\ntimes = 1\n'))
    assert settings(twice) == {"enabled": True, "rank": "4", "times": 1}
    with pytest.raises(VariantError) as caught:
        tamalou.load_variant(write(tmp_path, "wrong_top", 'extends = "fours.toml"\n[options.echo]\ntimes = "1"\n'))
    assert [(e.file, e.key) for e in caught.value.errors] == [("wrong_top.toml", "options.echo.times")]


def test_show_says_the_settings_and_the_stand_alone_file_keeps_them(tmp_path: Path) -> None:
    path = write(tmp_path, "fours", BASE + '[options.echo]\nrank = "4"\n')
    v = tamalou.load_variant(path)
    assert effective_rules(v).mechanic_options == {"echo": {"enabled": True, "rank": "4", "times": 1}}
    result = CliRunner().invoke(app, ["show", str(path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert '  echo\'s options: enabled = true, rank = "4", times = 1\n' in result.output
    standalone = variant_to_toml(v)
    assert '[options.echo]\nrank = "4"\n' in standalone
    again = tamalou.load_variant(write(tmp_path, "standalone", standalone))
    assert again.options == v.options and settings(again) == settings(v)
    assert "[options]" not in variant_to_toml("french")  # (no settings: no table written)


def test_a_game_with_settings_travels_whole(tmp_path: Path) -> None:
    v = tamalou.load_variant(write(tmp_path, "fours", BASE + '[options.echo]\nrank = "4"\ntimes = 2\n'))
    g = deal(v, "4C")
    for copy in (pickle.loads(pickle.dumps(g)), tamalou.Game.from_json(g.to_json())):
        assert copy.variant.options == {"echo": {"rank": "4", "times": 2}}
        assert echoes(copy) == ["player 0's 4C echoes"] * 2
    with pytest.raises(TypeError, match="read-only"):
        v.options["echo"]["rank"] = "5"  # type: ignore[index]
