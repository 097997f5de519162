"""Behaviours of the mechanics that no other test pinned, found by mutation testing (docs/mutation.md).

Each test is a scenario of its own, named for the rule or the promise it pins; the mutation run showed
that a mechanic could break it with every other test still passing. Stacked deals as in
``tests/scenario.py``: ``hands`` per seat (slot 0 first), ``stock`` top first, ``discard`` bottom first,
and seat 0 plays first. In tamalou-fun the opening lasts 5 s and a turn 45 s; timed actions carry ``at``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

import scenario
import tamalou
from scenario import kinds, of_kind
from tamalou import Call, Discard, Draw, Game, Give, IllegalAction, MatchAction, Pass, PeekAction, Tick
from tamalou.engine.snapshot import _slots

FUN = "tamalou-fun"
OPEN = 5.0  # tamalou-fun: the opening ends
TURN = 45.0  # tamalou-fun: a turn
COUNTDOWN = 5.0  # tamalou-fun: the countdown after a call
TWO = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]]


def fun_with(**changes: Any) -> tamalou.Variant:
    """tamalou-fun with some rules changed: ``fun_with(call={"when": "end_of_turn"})``."""
    d = tamalou.load_variant(FUN).model_dump(mode="json")
    for table, keys in changes.items():
        d["rules"][table].update(keys)
    d["name"] = "tamalou-fun-changed"
    d["aliases"] = []
    return tamalou.variant_from_dict(d)


def stacked(variant: Any, hands: Sequence[Sequence[str]], stock: Sequence[str], discard: Sequence[str]) -> Game:
    spec = {"hands": [list(h) for h in hands], "stock": list(stock), "discard": list(discard)}
    return tamalou.new_game(variant, players=len(hands), deal=spec, first_player=0, seed=1)


def restore_tampered(g: Game, mechanic: str, **values: Any) -> Game:
    """``g``'s snapshot with some fields of a mechanic's state changed, restored (or refused)."""
    d = json.loads(g.to_json())
    names = _slots(g.state_of(mechanic))
    for name, value in values.items():
        d["m"][mechanic][names.index(name)] = value
    return Game.from_json(json.dumps(d))


def thrown_after_the_opening(variant: Any, top: str) -> Game:
    """tamalou-fun-like: after the opening, seat 0 draws ``top`` from the stock at 6 s and throws it."""
    g = stacked(variant, TWO, stock=[top, "6C", "5D"], discard=["3C"])
    g.apply(Tick(at=OPEN))
    g.apply(Draw(0, "stock", at=6))
    g.apply(Discard(0, at=6))
    return g


# --------------------------------------------------------------------------------- the clock plays for you


def test_the_clock_running_out_in_an_end_of_turn_call_declines_the_call() -> None:
    """tamalou-fun with the call offered at the end of a turn: time running out while the call is on
    offer declines it, as a pass would; nobody called."""
    g = thrown_after_the_opening(fun_with(call={"when": "end_of_turn"}), "5C")
    assert g.phase == "call"
    events = g.apply(Tick(at=OPEN + TURN))
    assert kinds(events) == ["timeout", "passed", "turn"]
    assert (g.current_player, g.caller) == (1, None)


def test_the_clock_running_out_on_a_power_that_may_not_be_declined_uses_it() -> None:
    """tamalou-fun with powers that may not be declined: time running out on a King's peek uses it on
    the first slot it may look at (the player's slot 0)."""
    g = thrown_after_the_opening(fun_with(powers={"optional": False}), "KC")
    assert g.phase == "power"
    events = g.apply(Tick(at=OPEN + TURN))
    (looked,) = of_kind(events, "looked")
    assert (looked["player"], looked["owner"], looked["slot"], looked["card"]) == (0, 0, 0, "AS")
    assert g.current_player == 1


def test_the_clock_running_out_in_a_look_and_swap_passes_the_swap() -> None:
    """tamalou-fun with a King that looks then may swap: time running out after the look, before the
    swap is chosen, passes it; nothing moves."""
    d = tamalou.load_variant(FUN).model_dump(mode="json")
    d["rules"]["powers"]["ranks"]["K"] = "look_and_swap"
    d["name"], d["aliases"] = "tamalou-fun-look-and-swap", []
    g = thrown_after_the_opening(tamalou.variant_from_dict(d), "KC")
    g.apply(g.legal_actions(0)[0])  # look at p1's slot 0
    assert g.phase == "swap"
    events = g.apply(Tick(at=OPEN + TURN))
    assert kinds(events)[:3] == ["timeout", "passed", "turn"]
    assert [g.layout(0), g.layout(1)] == TWO


def test_the_countdown_after_a_call_waits_only_on_the_players_still_in_the_round() -> None:
    """tamalou-fun: a player whose clock ran out has left the round; after a call, the final countdown
    is time the others may still use (to double), not the one who left."""
    g = scenario.deal(
        [["AS", "2S", "10S", "10C"], ["9S", "9H", "9D", "9C"], ["10H", "10D", "AH", "AD"]],
        stock=["5C", "6C", "7C", "8C", "5D", "6D", "7D", "8D", "5H", "6H"],
        variant=FUN,
    )
    t = 6.0
    while not g.left:  # p2 never plays: three turns gone by and it leaves
        if g.current_player == 2:
            g.apply(Tick(at=g.deadline))
        else:
            g.apply(Draw(g.current_player, "stock", at=t))
            g.apply(Discard(g.current_player, at=t))
        t = g.now + 1
    while g.current_player != 0:
        g.apply(Draw(g.current_player, "stock", at=t))
        g.apply(Discard(g.current_player, at=t))
    g.apply(Call(0, at=t + 1))
    g.apply(Draw(1, "stock", at=t + 2))
    g.apply(Discard(1, at=t + 2))
    assert g.phase == "countdown"
    assert g.to_act == [0, 1]


def test_a_give_owed_that_times_out_is_reported_with_its_time() -> None:
    """tamalou-fun with opponent matching: a card owed to an opponent and not given in time is given
    for the player; the timeout says who and when, like every timeout."""
    g = stacked(
        fun_with(matching={"opponents": True}),
        [["AS", "2S", "3S", "4S"], ["6H", "7H", "5H", "8H"]],
        stock=["6C", "2C", "3C"],
        discard=["5D"],
    )
    g.apply(Tick(at=OPEN))
    g.apply(MatchAction(0, (2,), owner=1, at=6))  # p0 throws p1's 5H on the 5D and owes a card
    assert g.phase == "give"
    events = g.apply(Tick(at=OPEN + TURN))
    timeout = of_kind(events, "timeout")[0]
    assert (timeout["player"], timeout["at"], timeout["phase"]) == (0, OPEN + TURN, "give")
    assert of_kind(events, "gave")[0]["player"] == 0


# --------------------------------------------------------------------------------- matching by points


def test_matching_by_points_takes_a_card_of_another_rank_with_the_same_points() -> None:
    """``rules.matching.by = "value"``: in French a Jack and a Queen are both worth 10, so a Jack
    matches a Queen on the discard (by rank it would be a miss)."""
    d = tamalou.load_variant("french").model_dump(mode="json")
    d["rules"]["matching"]["by"] = "value"
    d["name"], d["aliases"] = "french-by-points", []
    g = stacked(tamalou.variant_from_dict(d), [["JS", "2S", "3S", "4S"], TWO[1]], stock=["5C", "6C"], discard=["QC"])
    events = g.apply(MatchAction(0, (0,)))
    assert kinds(events) == ["matched"]
    assert g.view(1).discard == ["QC", "JS"]


# --------------------------------------------------------------------------------- refusals say why


def test_refusals_of_matches_peeks_and_gives_say_what_the_rule_is() -> None:
    """A refused action carries the action and a reason a player can act on."""
    g = scenario.deal(TWO, stock=["5C", "6C"], discard=["3C"], variant="cartalogue")  # each chooses a peek
    g.apply(PeekAction(0, (0, 1)))
    with pytest.raises(IllegalAction, match="player 0 has already peeked"):
        g.apply(PeekAction(0, (2, 3)))
    g = scenario.deal(TWO, stock=["5C", "6C"], discard=["3C"], variant="french")
    with pytest.raises(IllegalAction, match="this ruleset lets you match only your own cards") as info:
        g.apply(MatchAction(0, (2,), owner=1))
    assert info.value.action == MatchAction(0, (2,), owner=1)

    hands = [["AS", "2S", "3S", "4S"], ["6H", "7H", "5H", "8H"], ["9D", "2D", "3D", "4D"]]
    g = scenario.deal(hands, stock=["6C", "2C", "3C"], discard=["5D"], variant=["french", "opponent-matching"])
    g.apply(MatchAction(0, (2,), owner=1))
    with pytest.raises(IllegalAction, match="slot 7 of player 0 holds no card"):
        g.apply(Give(0, 7))


def test_a_player_may_not_take_more_opponent_cards_than_they_have_cards_to_give() -> None:
    """Opponent matching: each card taken from an opponent is paid for with one of your own; a player
    with one card left may not take two (the refusal carries the action)."""
    g = scenario.deal(
        [["AS"], ["5H", "5S", "6H", "7H"], ["5C", "2D", "3D", "4D"]],
        stock=["6C", "2C", "3C"],
        discard=["5D"],
        variant=["french", "opponent-matching"],
    )
    take_two = MatchAction(0, (0, 1), owner=1)
    with pytest.raises(IllegalAction, match="a card of your own to give for each card you take") as info:
        g.apply(take_two)
    assert info.value.action == take_two


# --------------------------------------------------------------------------------- snapshots are checked


def test_a_snapshot_taken_while_a_card_is_owed_restores_and_a_damaged_one_is_refused() -> None:
    """Opponent matching: a snapshot taken while a player owes a card restores to the same game; one
    whose give goes back to the give phase itself, names a place that is not a pair, or goes into a
    place that holds a card is refused as damaged."""
    hands = [["AS", "2S", "3S", "4S"], ["6H", "7H", "5H", "8H"], ["9D", "2D", "3D", "4D"]]
    g = scenario.deal(hands, stock=["6C", "2C", "3C"], discard=["5D"], variant=["french", "opponent-matching"])
    g.apply(MatchAction(0, (2,), owner=1))
    assert g.phase == "give"
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    damaged = {
        "the give has nothing to give or nowhere to go back to": {"resume": "give"},
        "a give names a place that is not there": {"gives": [[1, 2, 0]]},
        "a give goes into a place that holds a card": {"gives": [[1, 1]]},
    }
    for problem, values in damaged.items():
        with pytest.raises(tamalou.SnapshotError, match=problem):
            restore_tampered(g, "matching", **values)


def test_a_snapshot_with_a_clock_out_of_bounds_is_refused() -> None:
    """tamalou-fun: a snapshot whose clock has a negative miss count, or a time at or past 10^12 s, is
    refused as damaged; an intact one restores."""
    g = stacked(FUN, TWO, stock=["5C", "6C"], discard=["3C"])
    g.apply(Tick(at=OPEN))
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    for values in ({"misses": [-1, 0]}, {"quiet_until": 1e12}, {"deadline": 1e12}):
        with pytest.raises(tamalou.SnapshotError, match="the clock is out of bounds"):
            restore_tampered(g, "timing", **values)


def test_a_snapshot_taken_in_the_window_after_seat_0s_power_restores() -> None:
    """Cambia opens the matching window only once the thrown card's power is resolved: a snapshot
    taken in that window of seat 0's turn restores to the same game (one naming a player who is not
    there is refused), and the players' passes close it."""
    g = scenario.dealt(TWO, stock=["7C", "2C", "3C"], discard=["5D"], variant="cambia")
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "power"
    g.apply(Pass(0))  # the 7's peek declined: the window opens
    assert g.phase == "window"
    restored = Game.from_json(g.to_json())
    assert restored.to_json() == g.to_json()
    with pytest.raises(tamalou.SnapshotError, match="the window names a card or a player that is not there"):
        restore_tampered(g, "matching", win_by=2)  # a player the two-player game does not have
    events = restored.apply(Pass(0)) + restored.apply(Pass(1))
    assert [(e["player"], e["phase"]) for e in of_kind(events, "passed")] == [(0, "window"), (1, "window")]
    assert restored.current_player == 1
