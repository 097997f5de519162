"""A round's end that is not a call: a mechanic begins the last lap (``g.begin_last_lap(p, reason, events)``);
every other player plays once more, then the round ends with the mechanic's reason. Nobody is the caller: the
result, the tally and the views name the player who began it (``last_lap``), snapshots keep it (and say nothing
of it when there is none), and a search's rebuilt game has it.

French deals (4 cards a seat, slot 0 first, seat 0 first; A = 1, red kings 0) with the plugin
``plugins_for_tests.low_lap``: a player whose cards come to 3 points or less at the end of their turn begins
the last lap, reason "low"."""

from __future__ import annotations

import json
import random

import pytest

import scenario
import tamalou
from tamalou import Call, Discard, Draw, Round, SnapshotError
from tamalou.bots.ismcts import Determinizer
from tamalou.engine import new_round

LOW_LAP = 'name = "low-lap"\nextends = "french"\nplugins = ["plugins_for_tests.low_lap"]\n'
HANDS = [["AS", "2S", "KH", "KD"], ["5H", "6H", "8C", "9C"]]  # seat 0: 1 + 2 + 0 + 0 = 3 points
STOCK = ["5C", "6C", "5D", "6D", "2C", "3C"]


def low_lap() -> Round:
    return scenario.dealt(HANDS, STOCK, variant=tamalou.variant_from_toml(LOW_LAP))


def test_the_last_lap_ends_the_round_with_the_mechanic_s_reason_and_no_caller() -> None:
    g = low_lap()
    assert "last_lap" not in json.loads(g.to_json())  # saved only when there is one
    events = scenario.draw_and_throw(g)
    (lap,) = scenario.of_kind(events, "last_lap")
    assert lap.data == {"player": 0, "reason": "low"}
    assert lap.describe() == "player 0 begins the last lap (low): every other player plays once more"
    assert g.phase == "draw" and g.current_player == 1  # no phase "call": the last lap is no call
    assert (g.view(1).last_lap, g.view(1).last_lap_reason) == (0, "low")
    assert g.seat_view(1).last_lap == 0 and g.caller is None
    assert not any(isinstance(a, Call) for a in g.legal_actions(1))
    scenario.assert_illegal(g, Call(1))
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))
    scenario.close(g)
    assert g.is_over
    result = g.result()
    assert (result.reason, result.caller, result.last_lap) == ("low", None, 0)
    assert "P0 began the last lap" in repr(result)


def test_a_round_in_its_last_lap_is_saved_and_restored() -> None:
    g = low_lap()
    scenario.draw_and_throw(g)
    saved = json.loads(g.to_json())
    assert (saved["last_lap"], saved["last_lap_reason"]) == (0, "low")
    again = Round.from_json(g.to_json())
    assert again.to_json() == g.to_json() and again.last_lap == 0
    scenario.draw_and_throw(again)
    scenario.close(again)
    assert again.is_over and again.result().reason == "low"
    for damage in ({"caller": 1}, {"last_lap": 5}, {"last_lap_reason": ""}, {"last_lap_reason": "x" * 65}):
        with pytest.raises(SnapshotError):
            Round.from_json(json.dumps({**saved, **damage}))


def test_the_first_to_end_the_round_does_and_a_reason_is_words() -> None:
    g = low_lap()
    events: list[tamalou.Event] = []
    with pytest.raises(ValueError, match="a last lap's reason is a few words"):
        g.begin_last_lap(0, "", events)
    assert g.begin_last_lap(1, "first", events) and not g.begin_last_lap(0, "second", events)
    assert (g.last_lap, g.last_lap_reason) == (1, "first") and len(events) == 1


def test_a_search_rebuilds_the_last_lap() -> None:
    """(The determinizer deals the whole deck: a shuffled round, not a stacked one. The last lap is begun with
    the primitive itself, as the plugin would.)"""
    g = new_round(tamalou.variant_from_toml(LOW_LAP), players=3, seed=3)
    if g.phase == "peek":
        scenario.peek_all(g)
    for _ in range(4):
        scenario.quiet_turn(g)
    assert g.begin_last_lap(g.current_player, "low", [])
    me = (g.current_player + 1) % 3
    rebuilt = Determinizer(g.seat_view(me), g.legal_actions(me), g.variant, random.Random(1)).sample(random.Random(2))
    assert (rebuilt.last_lap, rebuilt.last_lap_reason) == (g.last_lap, "low")
    assert rebuilt.first_player == g.first_player  # turns go round from it
    while not rebuilt.is_over:
        scenario.quiet_turn(rebuilt)
    assert rebuilt.result().last_lap == g.last_lap and rebuilt.result().reason == "low"
