"""Behaviours of the engine core that no other test pinned, found by mutation testing (docs/mutation.md).

Each test is a scenario of its own, named for the rule or the promise it pins; the mutation run showed
that the engine could break it with every other test still passing. Stacked deals as in
``tests/scenario.py``: ``hands`` per seat (slot 0 first), ``stock`` top first, ``discard`` bottom first,
and seat 0 plays first. In tamalou-fun the opening lasts 5 s and a turn 45 s; timed actions carry ``at``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

import scenario
import tamalou
from scenario import kinds, of_kind
from tamalou import Call, Discard, Draw, IllegalAction, Pass, Replace, Tick
from tamalou.engine.seats import SEATS, SeatActions

FUN = "tamalou-fun"
OPEN = 5.0  # tamalou-fun: the opening ends
TURN = 45.0  # tamalou-fun: a turn
TWO = (["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"])

french = partial(scenario.dealt, variant="french")


def fun_with(**changes: Any) -> tamalou.Variant:
    """tamalou-fun with some rules changed: ``fun_with(draw={"per_turn": 2})``."""
    d = tamalou.load_variant(FUN).model_dump(mode="json")
    for table, keys in changes.items():
        d["rules"][table].update(keys)
    d["name"] = "tamalou-fun-changed"
    d["aliases"] = []
    return tamalou.variant_from_dict(d)


# --------------------------------------------------------------------------------- the actions of a seat


def test_the_actions_made_once_per_seat_are_the_ones_a_player_would_build() -> None:
    """The engine hands out the same action objects to every game (made once per process): each is
    the action of its own seat, with its own source and slot, equal to one built by hand."""
    for p in range(12):
        seat = SeatActions(p)  # as the engine makes them
        assert seat.draw_stock == Draw(p, "stock")
        assert seat.draw_discard == Draw(p, "discard")
        assert (seat.discard, seat.pass_, seat.call) == (Discard(p), Pass(p), Call(p))
        assert seat.replaces(5)[:5] == [Replace(p, s) for s in range(5)]
        assert (SEATS[p].draw_stock, SEATS[p].draw_discard) == (seat.draw_stock, seat.draw_discard)


# --------------------------------------------------------------------------------- refusals say why


def test_an_action_of_the_wrong_phase_is_refused_for_its_phase_or_for_its_player() -> None:
    """In the draw and hold phases an action the phase does not take is refused: sent by the player
    to move, because of the phase; sent by anybody else, because it is not their turn."""
    g = french(TWO, stock=["5C", "6C"], discard=["3C"])
    with pytest.raises(IllegalAction, match="replace is not possible in phase 'draw'"):
        g.apply(Replace(0, 1))
    with pytest.raises(IllegalAction, match="it is player 0's turn, not player 1's"):
        g.apply(Replace(1, 1))
    g.apply(Draw(0, "stock"))
    with pytest.raises(IllegalAction, match="draw is not possible in phase 'hold'"):
        g.apply(Draw(0, "stock"))
    with pytest.raises(IllegalAction, match="it is player 0's turn, not player 1's"):
        g.apply(Discard(1))


# --------------------------------------------------------------------------------- the clock


def test_the_clock_running_out_with_only_the_discard_to_draw_from_passes_the_turn() -> None:
    """tamalou-fun: a turn whose time runs out before a draw is played for the player with a draw
    from the stock; with the stock empty (and nothing to reshuffle under the discard's single card),
    the player passes and the next turn starts."""
    spec = {"hands": [list(h) for h in TWO], "stock": [], "discard": ["5C"]}
    g = tamalou.new_game(FUN, players=2, deal=spec, first_player=0, seed=1)
    g.apply(Tick(at=OPEN))
    assert g.legal_actions(0)[0] == Draw(0, "discard")
    events = g.apply(Tick(at=OPEN + TURN))
    assert kinds(events) == ["timeout", "passed", "turn"]
    assert of_kind(events, "passed")[0]["player"] == 0
    assert (g.current_player, g.phase, g.view(0).discard) == (1, "draw", ["5C"])


def test_the_clock_running_out_when_a_second_draw_is_offered_declines_it() -> None:
    """tamalou-fun with two draws a turn: time running out after the first draw was thrown declines
    the second, as a pass would, and the next turn starts."""
    g = tamalou.new_game(
        fun_with(draw={"per_turn": 2}),
        players=2,
        deal={"hands": [list(h) for h in TWO], "stock": ["5C", "6C", "5D"], "discard": ["3C"]},
        first_player=0,
        seed=1,
    )
    g.apply(Tick(at=OPEN))
    g.apply(Draw(0, "stock", at=6))
    assert kinds(g.apply(Discard(0, at=6))) == ["discarded", "draw_offered"]
    events = g.apply(Tick(at=6 + TURN))
    assert kinds(events) == ["timeout", "passed", "turn"]
    assert (g.current_player, g.view(0).stock_size, g.view(0).discard) == (1, 2, ["3C", "5C"])


# --------------------------------------------------------------------------------- the deal and the end


def test_a_ruleset_that_names_its_first_player_starts_with_that_seat() -> None:
    """``rules.deal.first_player`` may name a seat instead of drawing one: a game started without a
    first player of its own, shuffled or stacked, then starts with that seat, whatever the seed."""
    d = tamalou.load_variant("french").model_dump(mode="json")
    d["rules"]["deal"]["first_player"] = 1
    d["name"], d["aliases"] = "french-seat-1-first", []
    variant = tamalou.variant_from_dict(d)
    for seed in range(5):
        assert tamalou.new_game(variant, players=3, seed=seed).current_player == 1
    # A stacked deal without a first player follows the ruleset too.
    spec = {"hands": [list(h) for h in TWO], "stock": ["5C", "6C"], "discard": ["3C"]}
    assert tamalou.new_game(variant, players=2, deal=spec, seed=1).current_player == 1


def test_the_round_over_event_says_why_the_round_ended() -> None:
    """The ``round_over`` event carries the reason and the ranking of ``Game.result()`` (here: a call)."""
    g = french(TWO, stock=["5C", "6C", "5D", "6D"], discard=["3C"])
    events = scenario.calling_turn(g) + scenario.play_out(g)
    (over,) = of_kind(events, "round_over")
    assert over["reason"] == g.result().reason == "called"
    assert over["ranking"] == [list(place) for place in g.result().ranking]
