"""The package as a tamalou plugin: its rulesets are found and set tamalou's keys and the mechanic in their TOML
(the grid, the public opening, cards placed face up, the flip, the table ``[options.golf]``), its moves are
tamalou's own (refusals, snapshots), what a seat sees is public, a search rebuilds the face-up cards, and random
games keep every invariant of ``tamalou verify``."""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path

import pytest
import tamalou
from pydantic import ValidationError
from tamalou import Discard, Draw, Flip, IllegalAction, PeekAction, Replace, Round
from tamalou.bots import GreedyBot, make_bot
from tamalou.bots.ismcts import Determinizer
from tamalou.cli import app
from tamalou.engine import new_round
from tamalou.rulesets.effective import effective_rules
from tamalou.verify import check_replay, check_result, random_playout
from typer.testing import CliRunner

import tamalou_golf
from tamalou_golf import OUT, VARIANTS, Golf, GolfOptions

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


def test_the_package_exports_the_mechanic_and_its_scoring_alone() -> None:
    """The moves and the face-up state are tamalou's: the package exports no action and no state of its own."""
    assert sorted(tamalou_golf.__all__) == sorted(
        ["OUT", "VARIANTS", "Golf", "GolfOptions", "golf_scores", "tamalou_variant_paths"]
    )
    assert OUT == "out"
    assert Golf.actions == () and Golf(tamalou.load_variant("golf-6")).phases() == {}


#: Each ruleset's keys (the module's table in ``tamalou_golf.mechanic``): its grid (``rules.deal.grid``), its
#: opening (``rules.peek``: mode, the slots or the count, public), the flip (``rules.draw.discard_turns_up``) and its
#: table ``[options.golf]``; every one places cards face up (``rules.draw.placed``).
SETTINGS = {
    "golf-4": ((2, 2), ("fixed", (2, 3), False), False, {"go_out": False}),
    "golf-6": ((2, 3), ("choose", 2, True), True, {"go_out": True}),
    "golf-6-knock": ((2, 3), ("choose", 2, True), True, {"go_out": True}),
    "golf-9": ((3, 3), ("choose", 3, True), True, {"go_out": True}),
}


@pytest.mark.parametrize("name", RULESETS)
def test_each_ruleset_sets_the_one_mechanic_in_its_toml(name: str) -> None:
    """One plugin module, one mechanic: a ruleset says its layout's shape (``rules.deal.grid``), its opening,
    its face-up cards and its flip in tamalou's keys, and the mechanic's settings (``[options.golf]``, validated
    by ``GolfOptions``). golf-6-knock writes no settings of its own: golf-6's come through ``extends``."""
    variant = tamalou.load_variant(name)
    grid, (mode, which, public), flip, options = SETTINGS[name]
    assert variant.plugins == ("tamalou_golf.mechanic",)
    assert variant.rules.deal.grid == grid
    peek, draw = variant.rules.peek, variant.rules.draw
    assert (peek.mode, peek.slots if mode == "fixed" else peek.count, peek.public) == (mode, which, public)
    assert (draw.placed, draw.discard_turns_up, draw.discard_must_replace) == ("face_up", flip, True)
    rules = effective_rules(variant)
    assert rules.mechanic_options == {"golf": options}
    assert ("flip" in rules.mechanic_titles) is flip  # tamalou's own mechanic plays the flip
    assert variant.options == {"golf": options}
    with (VARIANTS / f"{name}.toml").open("rb") as f:
        written = tomllib.load(f)
    assert ("options" in written) is (name != "golf-6-knock")  # golf-6-knock: golf-6's, through extends


def test_the_settings_are_strict_and_default_to_golf_6() -> None:
    """``GolfOptions``: a ruleset without the table plays golf-6's settings (the usual game); the settings are
    frozen (one mechanic is shared by every game of its ruleset) and strict (TOML values are typed)."""
    assert GolfOptions() == GolfOptions(go_out=True) != GolfOptions(go_out=False)
    assert list(GolfOptions.model_fields) == ["go_out"]
    with pytest.raises(ValidationError, match="frozen"):
        GolfOptions().go_out = False  # type: ignore[misc]
    with pytest.raises(ValidationError, match="valid boolean"):
        GolfOptions.model_validate({"go_out": 1})
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        GolfOptions.model_validate({"turn_up": 2})  # the opening is tamalou's rules.peek now


def test_show_prints_the_golf_options() -> None:
    """``tamalou show`` says the mechanic's settings beside what it does."""
    result = CliRunner().invoke(app, ["show", "golf-6"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "  golf's options: go_out = true\n" in result.output
    assert "  tamalou_golf.mechanic: The Golf mechanic" in result.output
    assert "mechanics in play: golf, opening, flip" in result.output  # the opening and the flip: tamalou's


def ruleset(tmp_path: Path, text: str) -> tamalou.Variant:
    """The ruleset ``text`` (a file of its own, ``mine.toml``), loaded."""
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return tamalou.load_variant(path)


@pytest.mark.parametrize(
    ("table", "key", "why"),
    [
        ("go_out = 1", "options.golf.go_out", "expected true or false"),
        ('go_out = "yes"', "options.golf.go_out", "expected true or false"),
        ("turn_up = 2", "options.golf.turn_up", "unknown key"),  # the opening: tamalou's rules.peek
        ("flip = true", "options.golf.flip", "unknown key"),  # the flip: tamalou's rules.draw.discard_turns_up
        ("knock = true", "options.golf.knock", "unknown key"),
    ],
)
def test_a_wrong_option_is_a_variant_error_naming_its_key(tmp_path: Path, table: str, key: str, why: str) -> None:
    """A ruleset's ``[options.golf]`` is checked when it loads: a wrong value or an unknown key is a
    ``VariantError`` naming the file and ``options.golf.<key>`` (here in a ruleset extending golf-6)."""
    with pytest.raises(tamalou.VariantError) as caught:
        ruleset(tmp_path, f'extends = "golf-6"\n\n[options.golf]\n{table}\n')
    (error,) = caught.value.errors
    assert (error.file, error.key) == ("mine.toml", key)
    assert error.reason is not None
    assert re.search(why, error.reason), error.reason


def test_without_go_out_a_layout_all_face_up_ends_nothing() -> None:
    """``go_out = false`` (golf-4): a player whose cards are all face up does not end the round; the knock does.
    Player 0 places a stock card in each of their four slots; player 1 draws and discards."""
    deal = {
        "hands": [["AS", "3H", "4C", "KD"], ["2S", "9H", "QC", "6D"]],
        "stock": ["4H", "5H", "6H", "7H", "8H", "9C", "10C", "JC"],
        "discard": ["QS"],
    }
    g = new_round("golf-4", players=2, deal=deal, first_player=0, seed=1)
    for slot in range(4):
        g.apply(Draw(0, "stock"))
        g.apply(Replace(0, slot))
        g.apply(Draw(1, "stock"))
        g.apply(Discard(1))
    assert Golf(g.variant).face_down(g, 0) == [] and all(g.is_up(0, s) for s in range(4))
    assert not g.is_over and g.last_lap is None and g.current_player == 0
    assert "last_lap" not in [e.type for e in g.events_so_far()]


def test_a_grid_of_another_shape_plays_its_columns(tmp_path: Path) -> None:
    """The shape is the ruleset's: golf-6 on 3 rows of 2 has columns of three cards."""
    v = ruleset(tmp_path, 'extends = "golf-6"\n\n[rules.deal]\ngrid = [3, 2]\n')
    assert Golf(v).column_slots(1) == [1, 3, 5]
    assert new_round(v, players=2, seed=1).view(0).grid == [3, 2]


@pytest.mark.parametrize(
    ("text", "key", "why"),
    [
        ('extends = "french"\nplugins = ["tamalou_golf.mechanic"]\n', "rules.deal.grid", "rules.deal.grid = \\[rows"),
        (
            'extends = "golf-6"\n\n[rules.peek]\ncount = 6\n',
            "rules.peek.count",
            r"expected at most 5 \(one of a layout's 6 cards at least stays face down at the opening\), got 6",
        ),
    ],
)
def test_a_ruleset_the_mechanic_cannot_play_is_refused(tmp_path: Path, text: str, key: str, why: str) -> None:
    """Golf scores columns: a ruleset without ``rules.deal.grid`` is refused, naming it; and a public opening
    that turns up every card (``rules.peek.count``) would leave nothing to flip: one card at least stays face
    down."""
    with pytest.raises(tamalou.VariantError) as caught:
        ruleset(tmp_path, text)
    assert [(e.file, e.key) for e in caught.value.errors] == [("mine.toml", key)]
    assert re.search(why, caught.value.errors[0].reason or ""), caught.value.errors[0].reason


def test_an_opening_that_leaves_a_card_face_down_is_played(tmp_path: Path) -> None:
    """The limit is one card face down: five of golf-6's six cards may be turned up at the opening, and a
    private opening (``public = false``) may look at all six, none of them face up."""
    five = ruleset(tmp_path, 'extends = "golf-6"\n\n[rules.peek]\ncount = 5\n')
    g = new_round(five, players=2, seed=1, first_player=0)
    g.apply(PeekAction(0, (0, 1, 2, 3, 4)))
    assert Golf(five).face_down(g, 0) == [5]
    private = ruleset(tmp_path, 'extends = "golf-6"\n\n[rules.peek]\ncount = 6\npublic = false\n')
    g = new_round(private, players=2, seed=1, first_player=0)
    g.apply(PeekAction(0, tuple(range(6))))
    assert Golf(private).face_down(g, 0) == list(range(6)) and g.face_up == 0


def test_refusals_leave_the_round_as_it_was() -> None:
    """Golf's moves are tamalou's (``PeekAction`` at the opening, ``Flip`` after a stock card discarded): a
    move refused is an ``IllegalAction`` that leaves the round exactly as it was."""
    g = golf6()
    assert_refused(g, PeekAction(0, (1, 1)), "choose 2 different slots of your own to peek at")
    assert_refused(g, PeekAction(0, (1, 6)), "choose 2 different slots of your own")
    assert_refused(g, PeekAction(0, (1, 2, 3)), "choose 2 different slots of your own")
    assert_refused(g, Flip(0, 2), "not possible in phase 'peek'")
    g.apply(PeekAction(0, (0, 1)))
    assert_refused(g, PeekAction(0, (2, 3)), "player 0 has already peeked")
    g.apply(PeekAction(1, (0, 1)))
    assert_refused(g, Replace(0, 1), "not possible in phase 'draw'")
    assert_refused(g, Flip(0, 2), "not possible in phase 'draw'")  # no flip without a stock card discarded
    g.apply(Draw(0, "stock"))
    assert_refused(g, Replace(0, 9), "holds no card")
    g.apply(Discard(0))
    assert_refused(g, Flip(0, 0), "slot 0 is face up already")
    assert_refused(g, Flip(0, 6), "holds no card")
    assert_refused(g, Flip(1, 2), "it is player 0's turn")
    assert g.phase == "flip" and not g.is_up(0, 2)


def test_snapshots_in_the_opening_and_the_flip() -> None:
    """A round saved in the phase ``peek`` (the opening) or ``flip`` is restored with its face-up cards (tamalou's
    ``face_up``, saved once a card is face up) and plays on the same. The mechanic saves nothing of its own."""
    g = golf6()
    assert "face_up" not in json.loads(g.to_json())
    g.apply(PeekAction(1, (2, 5)))
    saved = json.loads(g.to_json())
    assert saved["face_up"] == 1 << g.card_at(1, 2) | 1 << g.card_at(1, 5)
    assert "golf" not in saved["m"]
    again = Round.from_json(g.to_json())
    assert again.to_json() == g.to_json() and again.phase == "peek" and again.to_act == [0]
    assert again.is_up(1, 2) and again.is_up(1, 5) and not again.is_up(1, 0)
    assert again.view(0) == g.view(0)
    g.apply(PeekAction(0, (0, 1)))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    again = Round.from_json(g.to_json())
    assert again.phase == "flip" and again.legal_actions(0) == g.legal_actions(0) == [Flip(0, s) for s in (2, 3, 4, 5)]
    assert again.apply(Flip(0, 3)) == g.apply(Flip(0, 3))
    assert again.to_json() == g.to_json() and again.is_up(0, 3)


def test_the_view_shows_only_public_facts() -> None:
    """Which slots are face up (each slot's ``face_up``) is the same for every seat, and the mechanic shows
    nothing of its own (``extra`` is empty, and so is what the JSON Schema of the ruleset's views says of it).
    The layout's shape is tamalou's ``view.grid``, not Golf's."""
    g = golf6()
    g.apply(PeekAction(0, (0, 1)))
    shown = [[[s.face_up for s in hand] for hand in g.view(seat).hands] for seat in (0, 1)]
    assert shown[0] == shown[1] == [[True, True, False, False, False, False], [False] * 6]
    assert [s.face_up for s in g.seat_view(1).hands[0]] == shown[0][0]
    assert g.view(0).extra == g.view(1).extra == {}
    assert g.view(0).grid == g.view(1).grid == g.seat_view(1).grid == [2, 3]
    schema = tamalou.view_json_schema(g.variant)
    assert schema["properties"]["extra"]["properties"] == {}
    assert schema["$defs"]["SlotView"]["properties"]["face_up"]["type"] == "boolean"


def test_a_search_rebuilds_the_face_up_cards() -> None:
    """A game rebuilt from one seat's view (the ISMCTS bot's determinization) has the same face-up slots,
    with the same cards, known to every seat there too. (The determinizer deals the whole deck: a shuffled
    round, not a stacked one.)"""
    g = new_round("golf-6", players=2, seed=3, first_player=0)
    g.apply(PeekAction(0, (0, 1)))
    g.apply(PeekAction(1, (3, 4)))
    g.apply(Draw(0, "stock"))
    g.apply(Replace(0, 5))
    view = g.seat_view(1)
    rebuilt = Determinizer(view, g.legal_actions(1), g.variant, random.Random(1)).sample(random.Random(2))
    golf = Golf(g.variant)
    for p, up in enumerate([[0, 1, 5], [3, 4]]):
        assert [s for s in range(6) if rebuilt.is_up(p, s)] == [s for s in range(6) if g.is_up(p, s)] == up
        assert golf.face_down(rebuilt, p) == golf.face_down(g, p)
        for s in up:
            assert rebuilt.knowers[rebuilt.card_at(p, s)] == (1 << rebuilt.players) - 1
            assert rebuilt.text[rebuilt.card_at(p, s)] == g.text[g.card_at(p, s)]
    assert rebuilt.view(1) == g.view(1)


def test_the_events_read_in_golf_s_words() -> None:
    """Golf's event is worded by the mechanic (``event_texts``) for ``describe`` and the log of ``tamalou
    play``; the cards turned up are tamalou's ``turned_up``, in its words; and ``tamalou show`` says what the
    mechanic does (``title``)."""
    g = golf6()
    turned = g.apply(PeekAction(0, (0, 4)))
    assert [e.describe() for e in turned] == ["player 0 turns up slot 0: 7S", "player 0 turns up slot 4: 2D"]
    g.apply(PeekAction(1, (0, 1)))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    (flipped,) = g.apply(Flip(0, 2))[:1]
    assert flipped.describe() == "player 0 turns up slot 2: 9D"
    deal = {"hands": [["8S", "3H", "8C", "KD"], ["9S", "9H", "QC", "6D"]], "stock": ["4C"], "discard": ["QS"]}
    g4 = new_round("golf-4", players=2, deal=deal, first_player=0, seed=1)
    g4.apply(tamalou.Call(0))
    g4.apply(Draw(1, "stock"))
    (cancelled,) = [e for e in g4.apply(Discard(1)) if e.type == "column_cancelled"]
    assert cancelled.describe() == "player 0's column of slots 0, 2 is one rank (8S 8C): it counts 0"
    rules = effective_rules("golf-6")
    assert rules.mechanic_titles["golf"].startswith("going out when every card is face up, and columns")


@pytest.mark.parametrize("bot", ["greedy", "cautious"])
def test_the_bots_turn_cards_up_by_the_mechanic_s_hint(bot: str) -> None:
    """The built-in bots have no rule for the flip: they play it by the mechanic's hint (tamalou's bots
    contract), turning a card up in a column with no face-up card first (the hint: 2 there, 1 elsewhere, no
    opinion on other moves). Columns of golf-6: slots 0 and 3, 1 and 4, 2 and 5. At random, a bot would flip
    a card of a column it has a face-up card in one time in two; the first move listed would flip slot 1. (The
    opening's choice is the bots' own: the first slots, a row, each card in a column of its own.)"""
    for seed in range(20):
        g = golf6()
        seat = make_bot(bot, seed)
        seat.setup(g.variant, 0)
        action = seat.act(g.seat_view(0), g.legal_actions(0))
        assert isinstance(action, PeekAction) and len({s % 3 for s in action.slots}) == 2, action
        g.apply(PeekAction(0, (0, 4)))  # columns 0 and 1 have a face-up card; face down: 1, 2, 3, 5
        g.apply(PeekAction(1, (0, 1)))
        g.apply(Draw(0, "stock"))
        g.apply(Discard(0))
        action = seat.act(g.seat_view(0), g.legal_actions(0))
        assert isinstance(action, Flip) and action.slot in (2, 5), action
    view = g.seat_view(0)
    worth = GreedyBot(0).card_worth(view)
    golf = Golf(g.variant)
    assert [(a.slot, golf.hint(view, a, worth)) for a in g.legal_actions(0) if isinstance(a, Flip)] == [
        (1, 1.0),
        (2, 2.0),
        (3, 1.0),
        (5, 2.0),
    ]
    assert golf.hint(view, Draw(0, "stock"), worth) is None


@pytest.mark.parametrize("name", RULESETS)
def test_random_games_keep_every_invariant(name: str) -> None:
    """A few random rounds of each ruleset, every invariant checked at every step (``tamalou verify`` plays
    more: see the README)."""
    for seed in range(2):
        g = random_playout(name, players=2 + seed, seed=seed, check_every=1)
        check_result(g)
        check_replay(g)


def test_a_forged_snapshot_is_refused() -> None:
    """A snapshot that says a card is face up that a seat does not know is refused (snapshots from storage may
    be damaged or forged); the snapshot as saved is restored, its face-up cards with it."""
    g = golf6()
    g.apply(PeekAction(0, (0, 1)))
    state = json.loads(g.to_json())
    state["face_up"] |= 1 << g.card_at(1, 2)  # player 1's slot 2 "face up": face down, and unknown to player 0
    with pytest.raises(tamalou.SnapshotError, match="face up that a seat does not know"):
        Round.from_json(json.dumps(state))
    restored = Round.from_json(g.to_json())
    assert restored.is_up(0, 0) and restored.is_up(0, 1) and not restored.is_up(1, 2)
