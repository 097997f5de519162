"""A plugin's words: the events its mechanics and powers emit are worded by the plugin (``event_texts``, read by
``Event.describe`` and the log of ``tamalou play``), and a mechanic's ``title`` is what ``tamalou show`` says of it.
Words a plugin cannot give (to an event of tamalou's, to one another plugin words otherwise, a template that is
none) are an error at load, naming the plugin.

The plugin ``plugins_for_tests.worded``: a six thrown is announced (``six_thrown``); the power ``shout`` (on the 4s
here) emits ``shouted``. French deals as in ``test_plugins.py``: 4 cards a seat, seat 0 first, slots 0 and 1
known."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import tamalou
from tamalou import Discard, Draw, Power, VariantError
from tamalou.cli import app
from tamalou.cli.log import Narrator
from tamalou.engine.game import round_of
from tamalou.events import EVENT_TEXTS, Event, register_event_texts
from tamalou.rulesets.effective import effective_rules

TESTS = Path(__file__).resolve().parents[1]
WORDED = """extends = "french"
name = "worded"
plugins = ["plugins_for_tests.worded"]

[rules.powers.ranks]
"4" = "shout"
"""


def worded(tmp_path: Path) -> tamalou.Variant:
    path = tmp_path / "worded.toml"
    path.write_text(WORDED, encoding="utf-8")
    return tamalou.load_variant(path)


def test_a_plugin_s_events_read_in_its_words(tmp_path: Path) -> None:
    v = worded(tmp_path)
    hands = [["AS", "2S", "3S", "5S"], ["2H", "3H", "4H", "5H"]]
    g = tamalou.new_game(v, players=2, seed=1, deal={"hands": hands, "stock": ["6C", "4D", "7C"]}, first_player=0)
    g.apply(Draw(0, "stock"))
    (six,) = [e for e in g.apply(Discard(0)) if e.type == "six_thrown"]
    assert six.describe() == "player 0 throws a six (6C, discarded)"
    assert Narrator(round_of(g)).line(six) == "P0 throws a six (6C, discarded)"  # the log of tamalou play
    g.apply(tamalou.Pass(0))  # no call
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))  # the 4D: shout
    use = next(a for a in g.legal_actions(1) if isinstance(a, Power))
    (shout,) = g.apply(use)
    assert shout.type == "shouted" and shout.describe() == "player 1 shouts"
    # Without words, an event is listed by its facts.
    assert Event("unworded", {"player": 0, "slot": 2}).describe() == "unworded: player=player 0, slot=2"


def test_show_says_what_a_plugin_s_mechanic_does(tmp_path: Path) -> None:
    worded(tmp_path)
    result = CliRunner().invoke(app, ["show", str(tmp_path / "worded.toml")], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "mechanics in play: matching, powers, calling, sixes\n" in result.output
    assert "  sixes: a six thrown is announced to the table" in result.output
    assert effective_rules(tamalou.load_variant(tmp_path / "worded.toml")).mechanic_titles == {
        "sixes": "a six thrown is announced to the table"
    }


def test_words_a_plugin_may_not_give_are_an_error_at_load(tmp_path: Path) -> None:
    path = tmp_path / "misworded.toml"
    path.write_text('extends = "french"\nplugins = ["plugins_for_tests.misworded"]\n', encoding="utf-8")
    with pytest.raises(VariantError, match=r"Redraw of plugin 'plugins_for_tests\.misworded'.*'drew' is an event of"):
        tamalou.load_variant(path)
    assert "drew" not in EVENT_TEXTS


@pytest.mark.parametrize(
    ("texts", "why"),
    [
        ({"drew": "{player}"}, "an event of tamalou's own"),
        ({"six_thrown": "{player} throws"}, "Sixes of plugin 'plugins_for_tests.worded' gives other words"),
        ({"odd": "{player"}, "not a str.format template"),
        ({"odd": "{0} did it"}, "names its fields by name only"),
        ({"": "words"}, "two non-empty strings"),
    ],
)
def test_register_event_texts_says_why_it_refuses(tmp_path: Path, texts: dict[str, str], why: str) -> None:
    worded(tmp_path)  # the six's words are recorded
    before = dict(EVENT_TEXTS)
    assert why in (register_event_texts(texts, "Other of plugin 'other'") or "")
    assert before == EVENT_TEXTS
    # The same words again, by the same class or another, are no conflict.
    assert register_event_texts({"six_thrown": EVENT_TEXTS["six_thrown"]}, "Other of plugin 'other'") is None
