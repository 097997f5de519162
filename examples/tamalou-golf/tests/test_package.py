"""The package as a tamalou plugin: its rulesets are found and set the mechanic in their TOML (the grid, the
table ``[options.golf]``), its moves are actions like tamalou's (JSON, refusals, snapshots), what it shows a seat
is public, a search rebuilds its state, and random games keep every invariant of ``tamalou verify``."""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path

import pytest
import tamalou
from pydantic import ValidationError
from tamalou import Discard, Draw, IllegalAction, Replace, Round
from tamalou.bots import make_bot
from tamalou.bots.ismcts import Determinizer
from tamalou.cli import app
from tamalou.engine import new_round
from tamalou.rulesets.effective import effective_rules
from tamalou.verify import check_replay, check_result, random_playout
from typer.testing import CliRunner

from tamalou_golf import VARIANTS, Flip, Golf, GolfOptions, TurnUp

RULESETS = ("golf-4", "golf-6", "golf-6-knock", "golf-9")  # in the order tamalou lists them
G6 = {
    "hands": [["7S", "2C", "9D", "7H", "2D", "KC"], ["5S", "5H", "QD", "3C", "8S", "JC"]],
    "stock": ["4C", "6C", "8C"],
}


def golf6() -> Round:
    return new_round("golf-6", players=2, deal={**G6, "discard": ["QS"]}, first_player=0, seed=1)


def assert_refused(g: Round, action: object, why: str) -> None:
    before = g.to_json()
    with pytest.raises(IllegalAction, match=why):
        g.apply(action)  # type: ignore[call-overload]
    assert g.to_json() == before


def test_the_rulesets_are_registered() -> None:
    names = tamalou.variant_names()
    assert [name for name in names if name.startswith("golf")] == list(RULESETS)
    assert tamalou.load_variant("golf").name == "golf-6"


#: Each ruleset's settings of the mechanic: its grid (``rules.deal.grid``) and its table ``[options.golf]``.
SETTINGS = {
    "golf-4": ((2, 2), {"turn_up": 0, "flip": False, "go_out": False}),
    "golf-6": ((2, 3), {"turn_up": 2, "flip": True, "go_out": True}),
    "golf-6-knock": ((2, 3), {"turn_up": 2, "flip": True, "go_out": True}),
    "golf-9": ((3, 3), {"turn_up": 3, "flip": True, "go_out": True}),
}


@pytest.mark.parametrize("name", RULESETS)
def test_each_ruleset_sets_the_one_mechanic_in_its_toml(name: str) -> None:
    """One plugin module, one mechanic: a ruleset says its layout's shape (``rules.deal.grid``) and the
    mechanic's settings (``[options.golf]``, validated by ``GolfOptions``). golf-6-knock writes no settings of
    its own: golf-6's come through ``extends``."""
    variant = tamalou.load_variant(name)
    grid, options = SETTINGS[name]
    assert variant.plugins == ("tamalou_golf.mechanic",)
    assert variant.rules.deal.grid == grid
    assert effective_rules(variant).mechanic_options == {"golf": options}
    assert variant.options == {"golf": options}
    with (VARIANTS / f"{name}.toml").open("rb") as f:
        written = tomllib.load(f)
    assert ("options" in written) is (name != "golf-6-knock")  # golf-6-knock: golf-6's, through extends


def test_the_settings_are_strict_and_default_to_golf_6() -> None:
    """``GolfOptions``: a ruleset without the table plays golf-6's settings (the usual game); the settings are
    frozen (one mechanic is shared by every game of its ruleset) and strict (TOML values are typed)."""
    assert GolfOptions() == GolfOptions(turn_up=2, flip=True, go_out=True)
    with pytest.raises(ValidationError, match="frozen"):
        GolfOptions().turn_up = 3  # type: ignore[misc]
    with pytest.raises(ValidationError, match="valid integer"):
        GolfOptions.model_validate({"turn_up": "2"})


def test_show_prints_the_golf_options() -> None:
    """``tamalou show`` says the mechanic's settings beside what it does."""
    result = CliRunner().invoke(app, ["show", "golf-6"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "  golf's options: turn_up = 2, flip = true, go_out = true\n" in result.output
    assert "  tamalou_golf.mechanic: The Golf mechanic" in result.output


def ruleset(tmp_path: Path, text: str) -> tamalou.Variant:
    """The ruleset ``text`` (a file of its own, ``mine.toml``), loaded."""
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return tamalou.load_variant(path)


@pytest.mark.parametrize(
    ("table", "key", "why"),
    [
        ("turn_up = 9", "options.golf.turn_up", r"expected at most 5 \(one of a layout's 6 cards at least stays"),
        ("turn_up = 6", "options.golf.turn_up", "expected at most 5"),
        ("turn_up = -1", "options.golf.turn_up", "greater than or equal to 0"),
        ('turn_up = "2"', "options.golf.turn_up", "expected an integer"),
        ("flip = 1", "options.golf.flip", "expected true or false"),
        ("knock = true", "options.golf.knock", "unknown key"),
    ],
)
def test_a_wrong_option_is_a_variant_error_naming_its_key(tmp_path: Path, table: str, key: str, why: str) -> None:
    """A ruleset's ``[options.golf]`` is checked when it loads: a wrong value or an unknown key is a
    ``VariantError`` naming the file and ``options.golf.<key>`` (here in a ruleset extending golf-6, 6 cards)."""
    with pytest.raises(tamalou.VariantError) as caught:
        ruleset(tmp_path, f'extends = "golf-6"\n\n[options.golf]\n{table}\n')
    (error,) = caught.value.errors
    assert (error.file, error.key) == ("mine.toml", key)
    assert error.reason is not None
    assert re.search(why, error.reason), error.reason


def test_a_grid_of_another_shape_plays_its_columns(tmp_path: Path) -> None:
    """The shape is the ruleset's: golf-6 on 3 rows of 2 has columns of three cards."""
    v = ruleset(tmp_path, 'extends = "golf-6"\n\n[rules.deal]\ngrid = [3, 2]\n')
    assert Golf(v).column_slots(1) == [1, 3, 5]
    assert new_round(v, players=2, seed=1).view(0).grid == [3, 2]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            'extends = "french"\nplugins = ["tamalou_golf.mechanic"]\n\n[rules.draw]\ndiscard_must_replace = true\n',
            "rules.deal.grid",
        ),
        ('extends = "golf-6"\n\n[rules.draw]\ndiscard_must_replace = false\n', "rules.draw.discard_must_replace"),
    ],
)
def test_a_ruleset_the_mechanic_cannot_play_is_refused(tmp_path: Path, text: str, key: str) -> None:
    """Golf scores columns: a ruleset without ``rules.deal.grid`` is refused, naming it; and a card taken from
    the discard must be placed (``rules.draw.discard_must_replace``)."""
    with pytest.raises(tamalou.VariantError) as caught:
        ruleset(tmp_path, text)
    assert [(e.file, e.key) for e in caught.value.errors] == [("mine.toml", key)]


def test_the_moves_are_actions_on_the_wire() -> None:
    for action in (TurnUp(0, (1, 4)), Flip(1, 3)):
        assert tamalou.parse_action(action.to_dict()) == action
    assert TurnUp(0, (1, 4)).to_dict() == {"type": "turn_up", "player": 0, "slots": [1, 4]}
    assert Flip(1, 3).to_dict() == {"type": "flip", "player": 1, "slot": 3}
    golf_actions = tamalou.action_json_schema()
    assert "turn_up" in str(golf_actions) and "flip" in str(golf_actions)


def test_refusals_leave_the_round_as_it_was() -> None:
    g = golf6()
    assert TurnUp(0, (4, 1)) == TurnUp(0, (1, 4))  # a set of slots (tamalou's Action.unordered)
    assert tamalou.parse_action({"type": "turn_up", "player": 0, "slots": [4, 1]}) == TurnUp(0, (1, 4))
    assert_refused(g, TurnUp(0, (1, 1)), "name each slot to turn up once")
    assert_refused(g, TurnUp(0, (1, 6)), "turn up 2 of your own cards")
    assert_refused(g, Flip(0, 2), "not possible in phase 'reveal'")
    g.apply(TurnUp(0, (0, 1)))
    assert_refused(g, TurnUp(0, (2, 3)), "already turned their cards up")
    g.apply(TurnUp(1, (0, 1)))
    assert_refused(g, Replace(0, 1), "not possible in phase 'draw'")
    g.apply(Draw(0, "stock"))
    assert_refused(g, Replace(0, 9), "holds no card")  # the slot noted for the placing is forgotten
    g.apply(Discard(0))
    assert_refused(g, Flip(0, 0), "face up already")
    assert_refused(g, Flip(0, 6), "holds no card")


def test_snapshots_in_golfs_own_phases() -> None:
    """A round saved in the phase ``reveal`` or ``flip`` is restored and plays on the same."""
    g = golf6()
    g.apply(TurnUp(1, (2, 5)))
    again = Round.from_json(g.to_json())
    assert again.to_json() == g.to_json() and again.phase == "reveal" and again.to_act == [0]
    g.apply(TurnUp(0, (0, 1)))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    again = Round.from_json(g.to_json())
    assert again.phase == "flip" and again.legal_actions(0) == g.legal_actions(0)
    assert again.apply(Flip(0, 3)) == g.apply(Flip(0, 3))
    assert again.to_json() == g.to_json()


def test_the_view_shows_only_public_facts() -> None:
    """``extra["golf"]`` is the same for every seat (the face-up slots are public), and is what the
    JSON Schema of the ruleset's views says. The layout's shape is tamalou's ``view.grid``, not Golf's."""
    g = golf6()
    g.apply(TurnUp(0, (0, 1)))
    assert g.view(0).extra == g.view(1).extra == {"golf": {"face_up": [[0, 1], []]}}
    assert g.view(0).grid == g.view(1).grid == g.seat_view(1).grid == [2, 3]
    schema = tamalou.view_json_schema(g.variant)
    assert set(schema["properties"]["extra"]["properties"]) == {"golf"}
    assert set(schema["properties"]["extra"]["properties"]["golf"]["properties"]) == {"face_up"}


def test_a_search_rebuilds_the_face_up_cards() -> None:
    """A game rebuilt from one seat's view (the ISMCTS bot's determinization) has the same face-up slots,
    and their cards are known to every seat there too. (The determinizer deals the whole deck: a shuffled
    round, not a stacked one.)"""
    g = new_round("golf-6", players=2, seed=3, first_player=0)
    g.apply(TurnUp(0, (0, 1)))
    g.apply(TurnUp(1, (3, 4)))
    g.apply(Draw(0, "stock"))
    g.apply(Replace(0, 5))
    view = g.seat_view(1)
    rebuilt = Determinizer(view, g.legal_actions(1), g.variant, random.Random(1)).sample(random.Random(2))
    assert rebuilt.state_of("golf").up == g.state_of("golf").up
    for p, slots in enumerate(view.extra["golf"]["face_up"]):
        for s in slots:
            assert rebuilt.knowers[rebuilt.card_at(p, s)] == (1 << rebuilt.players) - 1
    assert rebuilt.view(1).extra == g.view(1).extra


def test_the_events_read_in_golf_s_words() -> None:
    """Golf's events are worded by the mechanic (``event_texts``) for ``describe`` and the log of ``tamalou
    play``, and ``tamalou show`` says what the mechanic does (``title``)."""
    g = golf6()
    (turned,) = g.apply(TurnUp(0, (0, 4)))
    assert turned.describe() == "player 0 turns up slots [0, 4]: ['7S', '2D']"
    g.apply(TurnUp(1, (0, 1)))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    (flipped,) = g.apply(Flip(0, 2))[:1]
    assert flipped.describe() == "player 0 turns up slot 2: 9D"
    rules = effective_rules("golf-6")
    assert rules.mechanic_titles["golf"].startswith("face-up cards, the opening turn-up, the flip")


@pytest.mark.parametrize("bot", ["greedy", "cautious"])
def test_the_bots_turn_cards_up_by_the_mechanic_s_hint(bot: str) -> None:
    """The built-in bots have no rule for Golf's phases: they play them by the mechanic's hint (tamalou's bots
    contract), turning cards up in columns with no face-up card first. Columns of golf-6: slots 0 and 3, 1 and
    4, 2 and 5. At random, a bot would turn up a column's two cards one time in five, and flip a card of a
    column it has a face-up card in one time in two; the first move listed would flip slot 1."""
    for seed in range(20):
        g = golf6()
        seat = make_bot(bot, seed)
        seat.setup(g.variant, 0)
        action = seat.act(g.seat_view(0), g.legal_actions(0))
        assert isinstance(action, TurnUp) and len({s % 3 for s in action.slots}) == 2, action
        g.apply(TurnUp(0, (0, 4)))  # columns 0 and 1 have a face-up card; face down: 1, 2, 3, 5
        g.apply(TurnUp(1, (0, 1)))
        g.apply(Draw(0, "stock"))
        g.apply(Discard(0))
        action = seat.act(g.seat_view(0), g.legal_actions(0))
        assert isinstance(action, Flip) and action.slot in (2, 5), action


@pytest.mark.parametrize("name", RULESETS)
def test_random_games_keep_every_invariant(name: str) -> None:
    """A few random rounds of each ruleset, every invariant checked at every step (``tamalou verify`` plays
    more: see the README)."""
    for seed in range(2):
        g = random_playout(name, players=2 + seed, seed=seed, check_every=1)
        check_result(g)
        check_replay(g)


def test_a_forged_snapshot_is_refused() -> None:
    """A snapshot whose Golf state says a card is face up that a seat does not know is refused (snapshots
    from storage may be damaged or forged)."""
    g = golf6()
    g.apply(TurnUp(0, (0, 1)))
    state = json.loads(g.to_json())
    up = state["m"]["golf"][2]  # GolfState's slots in order: placing, turned, up
    up[1] = 0b100  # player 1's slot 2 "face up": face down, and unknown to player 0
    with pytest.raises(tamalou.SnapshotError, match="face-up card of player 1"):
        Round.from_json(json.dumps(state))
