"""Tests of the engine's public API (docs/architecture.md): setup errors, actions built in Python (and
the ones the engine builds once per seat), errors of a game asked too early or restored from nonsense and
refusals that say why, snapshots (of rulesets loaded from files, of a mechanic's damaged state), the clock
of a give owed in a timed game, players who left the round, card values and powers, ``Game.to_act`` in
each waiting phase, a ruleset's own first player and the ``round_over`` event; the undo of ``push`` and
``pop``, the ``Game`` facade and the fields of every event.

Every scenario is a stacked deal a reader can follow (see ``tests/scenario.py``): ``hands`` per seat
(slot 0 first), ``stock`` top first, ``discard`` bottom first, and seat 0 plays first. In tamalou-fun
the opening lasts 5 s and a turn 45 s (15 s for an absent player); timed actions carry ``at``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import scenario
import tamalou
from scenario import assert_illegal, calling_turn, draw_and_throw, kinds, matches_listed, of_kind, quiet_turn
from tamalou import (
    Action,
    Call,
    Discard,
    Draw,
    Game,
    Give,
    IllegalAction,
    MatchAction,
    Pass,
    PeekAction,
    Power,
    Replace,
    Round,
    SetupError,
    Swap,
    Tick,
)
from tamalou.engine import new_round
from tamalou.engine.copying import state_slots
from tamalou.engine.seats import SEATS, SeatActions

FUN = "tamalou-fun"
FUN_OPPONENTS = ["tamalou-fun", "opponent-matching"]
OPEN = 5.0  # tamalou-fun: the opening ends
TURN = 45.0  # tamalou-fun: a turn
JOKERS = ["french", "jokers"]
TWO = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]]


def stacked(
    variant: scenario.VariantLike,
    hands: Sequence[Sequence[str]],
    stock: Sequence[str],
    discard: Sequence[str] = (),
    **kwargs: Any,
) -> Round:
    """``new_round`` with a stacked deal (``first_player`` and ``seed`` may be changed by ``kwargs``)."""
    spec = {"hands": [list(h) for h in hands], "stock": list(stock), "discard": list(discard)}
    options: dict[str, Any] = {"first_player": 0, "seed": 1, **kwargs}
    return new_round(variant, players=len(hands), deal=spec, **options)


def assert_setup_error(match: str, make: Callable[[], object]) -> None:
    """``make()`` raises a SetupError matching ``match``: a TamalouError, neither an IllegalAction nor a
    VariantError; no game comes out of it."""
    made: list[object] = []
    with pytest.raises(SetupError, match=match) as info:
        made.append(make())
    assert made == []
    assert isinstance(info.value, tamalou.TamalouError)
    assert not isinstance(info.value, IllegalAction | tamalou.VariantError)


def restore_tampered(g: Round, mechanic: str, **values: Any) -> Game:
    """``g``'s snapshot with some fields of a mechanic's state changed, restored (or refused)."""
    d = json.loads(g.to_json())
    names = state_slots(g.state_of(mechanic))
    for name, value in values.items():
        d["m"][mechanic][names.index(name)] = value
    return Game.from_json(json.dumps(d), trusted=True)  # the consistency checks, not the replay


# --------------------------------------------------------------------------------- 1. setup errors


def test_bad_setup_is_a_setup_error_and_a_stacked_deal_is_checked_against_the_deck() -> None:
    """A stacked deal uses the variant's deck: a card twice, or one the deck does not hold, is a
    SetupError naming the card; so are a player count the ruleset does not allow and a first player who
    is not a seat."""
    other = ["AH", "2H", "3H", "4H"]
    # The 3D twice in one 52-card French deal: once in p0's hand, once in the stock.
    assert_setup_error(r"\b3D\b", lambda: stacked("french", [["3D", "4D", "5D", "6D"], other], stock=["3D", "7C"]))
    # ... or twice in the same hand, or in the discard.
    assert_setup_error(r"\b3D\b", lambda: stacked("french", [["3D", "3D", "5D", "6D"], other], stock=["7C"]))
    assert_setup_error(r"\b3D\b", lambda: stacked("french", [["3D", "4D", "5D", "6D"], other], ["7C"], ["3D"]))
    # A joker in French, which has none.
    joker_hands = [["JK1", "4D", "5D", "6D"], other]
    assert_setup_error(r"\bJK1\b", lambda: stacked("french", joker_hands, stock=["7C", "8C"]))
    # With the jokers, the same deal is accepted.
    g = stacked(JOKERS, joker_hands, stock=["7C", "8C"])
    assert g.layout(0) == ["JK1", "4D", "5D", "6D"]
    # A player count French does not allow (2 to 6), with or without a deal.
    assert_setup_error("players", lambda: tamalou.new_game("french", players=1, seed=1))
    assert_setup_error("players", lambda: tamalou.new_game("french", players=7, seed=1))
    assert_setup_error("players", lambda: stacked("french", [["AS", "2S", "3S", "4S"]], stock=["7C"]))
    # A deal for two players given to a three-player game.
    two_hands = {"hands": [["AS", "2S", "3S", "4S"], other], "stock": ["7C"], "discard": []}
    assert_setup_error("hands", lambda: tamalou.new_game("french", players=3, deal=two_hands, first_player=0, seed=1))
    assert_setup_error("players", lambda: tamalou.new_match("french", players=9, seed=1))
    # A first player who is not a seat.
    for first in (2, -1, 5):
        assert_setup_error("first_player", partial(tamalou.new_game, "french", 2, seed=1, first_player=first))
        two = [["AS", "2S"], other]
        assert_setup_error("first_player", partial(stacked, "french", two, ["7C"], first_player=first))


# --------------------------------------------------------------------------------- 2. actions in Python


def test_actions_built_in_python_are_checked_like_their_json() -> None:
    """ "An action built in Python is checked like its JSON form (`Replace(0, True)` is refused)." — and
    each action's JSON form reads back as the same action."""
    with pytest.raises(IllegalAction):
        tamalou.Replace(0, True)
    with pytest.raises(IllegalAction):
        tamalou.Draw(0, "hand")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        tamalou.parse_action({"type": "replace", "player": 0, "slot": True})
    one_of_each: list[Action] = [
        PeekAction(0, (0, 1)),
        Draw(1, "discard"),
        Replace(0, 2),
        Discard(1, at=3.5),
        Power(0, slot=1, target=1, target_slot=2),
        Swap(0, 3),
        Pass(1),
        Call(0),
        MatchAction(0, (1,), owner=1),
        Give(1, 0),
        Tick(at=5.0),
    ]
    assert {type(a) for a in one_of_each} == {
        PeekAction,
        Draw,
        Replace,
        Discard,
        Power,
        Swap,
        Pass,
        Call,
        MatchAction,
        Give,
        Tick,
    }
    for a in one_of_each:
        d = a.to_dict()
        assert d == tamalou.action_to_dict(a)
        assert d["type"] == a.type
        assert tamalou.parse_action(d) == a
        assert tamalou.parse_action(json.loads(json.dumps(d))) == a  # through the wire


def test_the_actions_made_once_per_seat_are_the_ones_a_player_would_build() -> None:
    """The engine hands out the same action objects to every game (made once per process): each is
    the action of its own seat, with its own source and slot, equal to one built by hand.
    Pinned by mutation testing (docs/mutation.md): mutmut reaches the ones made at import only when a
    test builds them again."""
    for p in range(12):
        seat = SeatActions(p)  # as the engine makes them
        assert seat.draw_stock == Draw(p, "stock")
        assert seat.draw_discard == Draw(p, "discard")
        assert (seat.discard, seat.pass_, seat.call) == (Discard(p), Pass(p), Call(p))
        assert seat.replaces(5)[:5] == [Replace(p, s) for s in range(5)]
        assert (SEATS[p].draw_stock, SEATS[p].draw_discard) == (seat.draw_stock, seat.draw_discard)


# --------------------------------------------------------------------------------- 3. errors


def test_questions_asked_too_early_and_bad_snapshots_raise_their_own_errors() -> None:
    """``result()`` before the end is a GameStateError (a RuntimeError); a snapshot that cannot be
    restored is a SnapshotError; ``legal_actions`` of a seat that does not exist is an IllegalAction."""
    g = scenario.deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C"], variant="french")
    with pytest.raises(tamalou.GameStateError):
        g.result()
    with pytest.raises(RuntimeError):
        g.result()
    for bad in ("not json", '{"v": 99}', '{"v": 2}'):
        with pytest.raises(tamalou.SnapshotError):
            Game.from_json(bad)
    with pytest.raises(IllegalAction):
        g.legal_actions(9)
    # The same game, played to its end, answers.
    scenario.play_out(g)
    assert g.is_over and sorted(p for rank in g.result().ranking for p in rank) == [0, 1]


def test_an_action_of_the_wrong_phase_is_refused_for_its_phase_or_for_its_player() -> None:
    """In the draw and hold phases an action the phase does not take is refused: sent by the player
    to move, because of the phase; sent by anybody else, because it is not their turn.
    Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.dealt(TWO, stock=["5C", "6C"], discard=["3C"], variant="french")
    with pytest.raises(IllegalAction, match="replace is not possible in phase 'draw'"):
        g.apply(Replace(0, 1))
    with pytest.raises(IllegalAction, match="it is player 0's turn, not player 1's"):
        g.apply(Replace(1, 1))
    g.apply(Draw(0, "stock"))
    with pytest.raises(IllegalAction, match="draw is not possible in phase 'hold'"):
        g.apply(Draw(0, "stock"))
    with pytest.raises(IllegalAction, match="it is player 0's turn, not player 1's"):
        g.apply(Discard(1))


def test_refusals_of_matches_peeks_and_gives_say_what_the_rule_is() -> None:
    """A refused action carries the action and a reason a player can act on.
    Pinned by mutation testing (docs/mutation.md)."""
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


# --------------------------------------------------------------------------------- 4. snapshots


def test_snapshot_of_a_ruleset_loaded_from_a_file_restores_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "a registered ruleset is named, one loaded from a file is embedded whole, so the snapshot
    restores from any directory." """
    home = tmp_path / "rules"
    home.mkdir()
    toml = home / "seven.toml"
    toml.write_text('extends = "french"\n\n[rules.call]\nthreshold = 7\n')
    v = tamalou.load_variant(str(toml))
    assert v.rules.call.threshold == 7
    g = stacked(v, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "2C"], discard=["5D"])
    draw_and_throw(g)  # p0 throws the 5C
    g.apply(Pass(0))  # no call
    g.apply(Draw(1, "stock"))  # p1 holds the 6C
    s = g.to_json()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    toml.unlink()
    restored = Game.from_json(s)
    assert restored.to_json() == s
    assert restored.variant.rules.call.threshold == 7
    assert restored.phase == "hold" and restored.current_player == 1
    # A registered ruleset is named.
    french = scenario.deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C"], variant="french")
    assert json.loads(french.to_json())["variant"] == "french"


def test_a_snapshot_taken_while_a_card_is_owed_restores_and_a_damaged_one_is_refused() -> None:
    """Opponent matching: a snapshot taken while a player owes a card restores to the same game; one
    whose give goes back to the give phase itself, names a place that is not a pair, or goes into a
    place that holds a card is refused as damaged.
    Pinned by mutation testing (docs/mutation.md)."""
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
        with pytest.raises(tamalou.SnapshotError, match=f"^damaged snapshot: matching: {problem}$"):
            restore_tampered(g, "matching", **values)


def test_a_snapshot_with_a_clock_out_of_bounds_is_refused() -> None:
    """tamalou-fun: a snapshot whose clock has a negative miss count, or a time at or past 10^12 s, is
    refused as damaged; an intact one restores.
    Pinned by mutation testing (docs/mutation.md)."""
    g = stacked(FUN, TWO, stock=["5C", "6C"], discard=["3C"])
    g.apply(Tick(at=OPEN))
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    for values in ({"misses": [-1, 0]}, {"quiet_until": 1e12}, {"deadline": 1e12}, {"absent_turns": [0, -1]}):
        with pytest.raises(tamalou.SnapshotError, match=r"^damaged snapshot: timing: the clock is out of bounds$"):
            restore_tampered(g, "timing", **values)
    with pytest.raises(tamalou.SnapshotError, match=r"timing\.quiet_until: .* is not of its kind"):
        restore_tampered(g, "timing", quiet_until="soon")  # a time is a number
    # At the bounds themselves the clock is whole: a quiet time of 0 s (no quiet time) restores.
    restored = tamalou.round_of(restore_tampered(g, "timing", quiet_until=0.0))
    assert restored.state_of("timing").quiet_until == 0.0


def test_a_snapshot_taken_in_the_window_after_seat_0s_power_restores() -> None:
    """Cambia opens the matching window only once the thrown card's power is resolved: a snapshot
    taken in that window of seat 0's turn restores to the same game (one naming a player who is not
    there is refused), and the players' passes close it. So does one taken while the card's power is on
    offer, its window still to open.
    Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.dealt(TWO, stock=["7C", "2C", "3C"], discard=["5D"], variant="cambia")
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "power"
    assert Game.from_json(g.to_json()).to_json() == g.to_json()  # the 7 waits for its window
    g.apply(Pass(0))  # the 7's peek declined: the window opens
    assert g.phase == "window"
    restored = Game.from_json(g.to_json())
    assert restored.to_json() == g.to_json()
    with pytest.raises(tamalou.SnapshotError, match="the window names a card or a player that is not there"):
        restore_tampered(g, "matching", win_by=2)  # a player the two-player game does not have
    events = restored.apply(Pass(0)) + restored.apply(Pass(1))
    assert [(e["player"], e["phase"]) for e in of_kind(events, "passed")] == [(0, "window"), (1, "window")]
    assert restored.current_player == 1


def test_a_snapshot_taken_in_the_window_of_seat_1s_card_restores_and_a_damaged_window_is_refused() -> None:
    """A snapshot taken in the window of a card seat 1 threw (seat 1, asked first, to move) restores to the same
    game. A damaged window is refused: a card id under -1, a window that does not wait for the seat to move, a
    turn player the phase does not fit. Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.dealt(TWO, stock=["6C", "5C", "3C"], discard=["5D"], variant="cambia")
    for p in (0, 1):  # no power: each throw opens the window at once
        g.apply(Draw(p, "stock"))
        g.apply(Discard(p))
        if p == 0:
            g.apply(Pass(0))
            g.apply(Pass(1))
    assert g.phase == "window" and g.current_player == 1
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    for damage, why in (
        ({"win": -2}, "the window names a card or a player that is not there"),
        ({"waiting": 0b01}, "the window waits for nobody it names"),
        ({"turn_player": -1}, "the window's turn player does not fit the phase"),
    ):
        with pytest.raises(tamalou.SnapshotError, match=why):
            restore_tampered(g, "matching", **damage)


# --------------------------------------------------------------------------------- 5. a give on the clock


def test_a_give_owed_in_tamalou_fun_runs_on_the_turns_clock() -> None:
    """ "A give owed in a timed game runs on the turn's clock; at the deadline the engine gives the
    lowest slot." — the give does not stop the clock; at the deadline the engine gives for the giver,
    then the turn's own timeout plays as usual."""
    g = scenario.deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["6H", "7H", "5H", "8H"],  # p1's slot 2 holds the 5H p2 is after
            ["9D", "2D", "3D", "4D"],  # p2 sees its 9D (slot 0)
        ],
        stock=["9C", "6C", "2C", "5C", "7C", "8C"],
        variant=FUN_OPPONENTS,
    )
    draw_and_throw(g, at=6)  # p0 throws the 9C
    assert kinds(g.apply(MatchAction(2, (0,), at=7))) == ["matched"]  # p2 doubles its 9D: slot 0 is empty
    draw_and_throw(g, at=8)  # p1 throws the 6C
    draw_and_throw(g, at=9)  # p2 throws the 2C
    draw_and_throw(g, at=10)  # p0 throws the 5C: p1's turn, until 10 + 45
    assert g.phase == "draw" and g.current_player == 1
    deadline = 10 + TURN
    assert g.deadline == deadline
    # p2, who is not to move, throws p1's 5H on the 5C: it owes p1 a card.
    assert kinds(g.apply(MatchAction(2, (2,), owner=1, at=11))) == ["matched", "give_owed"]
    assert g.phase == "give"
    assert g.to_act == [2]
    assert g.current_player == 2
    assert g.deadline == deadline  # the turn's clock runs on
    assert g.layout(2) == [None, "2D", "3D", "4D"]
    g.apply(Tick(at=deadline - 0.01))
    assert g.phase == "give"
    events = g.apply(Tick(at=deadline + 1))
    # The engine gives for p2: its lowest occupied slot, 1, into p1's slot 2.
    (gave,) = of_kind(events, "gave")
    assert (gave["player"], gave["slot"], gave["target"], gave["target_slot"]) == (2, 1, 1, 2)
    assert [e["player"] for e in of_kind(events, "timeout")] == [2, 1]
    assert kinds(events).index("gave") < kinds(events).index("drew")
    assert g.layout(1) == ["6H", "7H", "2D", "8H"]
    assert g.layout(2) == [None, None, "3D", "4D"]
    # Then p1's turn runs out as usual: the 7C is drawn and thrown for it; the game goes on with p2.
    assert [(e["player"], e["card"]) for e in of_kind(events, "discarded")] == [(1, "7C")]
    assert not g.is_over
    assert g.phase == "draw" and g.current_player == 2 and g.to_act == [2]
    assert g.deadline == deadline + TURN
    assert g.view(0).discard_top == "7C"


def test_a_give_owed_that_times_out_is_reported_with_its_time() -> None:
    """tamalou-fun with opponent matching: a card owed to an opponent and not given in time is given
    for the player; the timeout says who and when, like every timeout.
    Pinned by mutation testing (docs/mutation.md)."""
    g = stacked(
        FUN_OPPONENTS,
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


# --------------------------------------------------------------------------------- 6. a player who left


@pytest.mark.parametrize("variant", [[FUN], FUN_OPPONENTS], ids=["tamalou-fun", "with-opponent-matching"])
def test_a_player_who_left_the_round_cannot_be_targeted(variant: list[str]) -> None:
    """ "A player who left the round (out of clock) is never targeted, and nobody matches from their
    layout." — p2 never plays and leaves after 3 whole turns; then p0 throws a Queen (blind swap) while p2
    holds the QD: no power aims at p2, no match is listed on p2's cards, and such actions are refused."""
    g = scenario.deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["9S", "9H", "9D", "9C"],
            ["QD", "10D", "AH", "AD"],  # p2 never plays
        ],
        # p0 and p1 throw the 5C..8D in their first three turns, p2's timeouts the 5D, 8C, 5H.
        stock=["5C", "6C", "7C", "8C", "5D", "6D", "7D", "8D", "5H", "QC", "6H", "7H"],
        variant=variant,
    )
    t = 6.0
    while not g.left:
        if g.current_player == 2:
            assert g.deadline is not None
            g.apply(Tick(at=g.deadline))  # p2 lets its turn run out
        else:
            draw_and_throw(g, at=t)
        t = g.now + 1
    assert g.left == 1 << 2 and not g.is_over
    assert g.current_player == 0 and g.layout(2) == ["QD", "10D", "AH", "AD"]
    events = draw_and_throw(g, at=t)  # p0 throws the QC: a blind swap on offer
    assert of_kind(events, "power_offered")[0]["power"] == "blind_swap"
    assert g.phase == "power" and g.view(1).discard_top == "QC"
    powers = [a for p in range(3) for a in g.legal_actions(p) if isinstance(a, Power)]
    assert powers and {a.target for a in powers} == {1}
    assert all(a.owner in (None, 0) for a in powers)
    assert matches_listed(g, 2) == set()
    assert all(isinstance(a, MatchAction) and a.owner != 2 for p in range(3) for a in matches_listed(g, p))
    if variant == FUN_OPPONENTS:
        assert MatchAction(1, (0,), owner=0) in g.legal_actions(1)  # p0's cards may be matched...
    assert_illegal(g, Power(0, slot=0, target=2, target_slot=0, at=t))  # ... p2's not, nor aimed at
    assert_illegal(g, Power(0, slot=0, target=2, target_slot=1, at=t))
    assert_illegal(g, Power(0, slot=0, owner=2, target=1, target_slot=0, at=t))  # p2's card as one's own
    assert_illegal(g, MatchAction(1, (0,), owner=2, at=t))  # p2's QD on the QC
    assert_illegal(g, MatchAction(2, (0,), at=t))  # p2 itself, gone
    # The power is used on p1, and the round goes on without p2.
    g.apply(Power(0, slot=0, target=1, target_slot=0, at=t))
    assert g.layout(0)[0] == "9S" and g.layout(1)[0] == "AS" and g.layout(2) == ["QD", "10D", "AH", "AD"]
    assert not g.is_over and g.current_player == 1


# --------------------------------------------------------------------------------- 7. card values


def test_joker_value_and_power_through_the_public_functions() -> None:
    """``card_value`` and ``card_power`` take a card's text or a ``tamalou.Card``."""
    assert tamalou.card_value(JOKERS, "JK1") == -1
    assert tamalou.card_power(JOKERS, "JK1") == "none"
    joker = tamalou.parse_card("JK1")
    assert isinstance(joker, tamalou.Card)
    assert tamalou.card_value(JOKERS, joker) == -1
    assert tamalou.card_power(JOKERS, joker) == "none"
    assert tamalou.card_value(JOKERS, tamalou.Card("JK", "", 2)) == -1
    assert tamalou.card_value(JOKERS, tamalou.Card("K", "S")) == tamalou.card_value("french", "KS") == 15
    assert tamalou.card_power(JOKERS, tamalou.Card("Q", "H")) == "blind_swap"


# --------------------------------------------------------------------------------- 8. to_act


def test_to_act_in_each_waiting_phase() -> None:
    """``Game.to_act``: the seats the round waits for, phase by phase."""
    # Cartalogue's chosen peek: every seat that has not peeked; current_player always among them.
    g = stacked(
        "cartalogue",
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]],
        stock=["5C", "6C", "2C"],
        discard=["5D"],
        first_player=1,
    )
    assert g.phase == "peek" and g.to_act == [0, 1, 2] and g.current_player == 1
    for p, waiting in ((0, [1, 2]), (2, [1]), (1, [])):
        assert g.current_player in g.to_act
        g.apply(PeekAction(p, (0, 1)))
        if waiting:
            assert g.phase == "peek" and g.to_act == waiting and g.current_player in waiting
    assert g.phase == "draw" and g.to_act == [1] and g.current_player == 1

    # Opponent matching's give: only the giver.
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["6H", "7H", "5H", "8H"], ["9D", "2D", "3D", "4D"]],
        stock=["6C", "2C", "3C"],
        discard=["5D"],
        variant="opponent-matching",
    )
    assert g.to_act == [0]
    g.apply(MatchAction(2, (2,), owner=1))  # p2 throws p1's 5H on the 5D
    assert g.phase == "give" and g.to_act == [2] and g.current_player == 2
    g.apply(Give(2, 3))
    assert g.phase == "draw" and g.to_act == [0]

    # French's closing window: the seats still to match or pass.
    g = scenario.deal(
        [["AS", "AH", "2S", "KH"], ["6H", "9H", "9D", "9C"], ["10S", "10H", "10D", "10C"]],
        stock=["3D", "5C", "6C", "4D"],
        discard=["2D"],
        variant="french",
    )
    calling_turn(g)  # p0 calls
    quiet_turn(g)  # p1's last turn
    draw_and_throw(g)  # p2's: the 6C, the last card of the round
    assert g.phase == "closing" and g.to_act == [0, 1, 2] and g.current_player in g.to_act
    g.apply(Pass(1))
    assert g.to_act == [0, 2] and g.current_player in g.to_act
    assert g.legal_actions(1) == []
    g.apply(Pass(0))
    assert g.to_act == [2] and g.current_player == 2
    g.apply(Pass(2))
    # A finished round waits for nobody.
    assert g.is_over and g.phase == "over" and g.to_act == []
    assert all(g.legal_actions(p) == [] for p in range(3))

    # Tamalou-fun's opening: every seat, offered nothing but time.
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]],
        stock=["5C", "6C", "7C"],
        variant=FUN,
    )
    assert g.phase == "opening" and g.to_act == [0, 1, 2]
    for p in range(3):
        assert g.legal_actions(p) == [Tick(at=OPEN)]
    g.apply(Tick(at=OPEN))
    assert g.phase == "draw" and g.to_act == [0]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("cards", "x"),
        ("hands", "x"),
        ("stock", "x"),
        ("current_player", "x"),
        ("current_player", 7),
        ("hands", [[999]]),
        ("phase", "sleeping"),
        ("players", 9),
        ("unknown", 1),
        ("knowers", []),
    ],
)
def test_a_damaged_snapshot_is_a_snapshot_error(key: str, value: object) -> None:
    """Every field of a snapshot is checked (types by pydantic, then that each card is in one place and
    each seat exists): damage is a SnapshotError, never a built-in error or a game that cannot be."""
    g = tamalou.new_game("french", players=3, seed=11)
    g.apply(g.legal_actions(g.current_player)[0])
    state = json.loads(g.to_json())
    state[key] = value
    with pytest.raises(tamalou.SnapshotError):
        tamalou.Game.from_json(json.dumps(state))


def test_a_card_taken_from_the_discard_stays_face_up_wherever_it_moves() -> None:
    """Cabo, 2nd edition: "a card taken from the discard stays face up in your layout for the rest
    of the round (known to everyone, wherever it moves)". With exact knowledge this needs no rule of its
    own: the card was face up, and it moves only in everyone's sight (a blind swap shows the places)."""
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["5C", "2C", "3C", "4C"], ["5H", "2H", "3H", "4H"]],
        stock=["JD", "6C", "6H"],
        discard=["6D"],
        variant="french",
    )
    g.apply(tamalou.Draw(0, "discard"))
    g.apply(tamalou.Replace(0, 0))  # the 6D goes into player 0's slot 0, the AS onto the discard
    g.apply(tamalou.Pass(0))  # no call
    assert all(scenario.seen(g, viewer, 0)[0] == "6D" for viewer in range(3))
    g.apply(tamalou.Draw(1, "stock"))  # the JD: a blind swap
    g.apply(tamalou.Discard(1))
    g.apply(tamalou.Power(1, 0, 0, 0))  # player 1's slot 0 for player 0's slot 0 (the 6D), nobody looking
    assert all(scenario.seen(g, viewer, 1)[0] == "6D" for viewer in range(3))
    assert scenario.seen(g, 2, 0)[0] is None  # what came the other way stays unknown to player 2


def test_time_never_goes_back_and_a_server_can_bound_its_steps() -> None:
    """A server stamps ``at`` from its own clock: an earlier time is refused, and ``max_step`` refuses a
    jump that would fast-forward the clock (and auto-play every other seat's turns)."""
    g = tamalou.new_game("tamalou-fun", players=3, seed=2)
    g.apply(tamalou.Tick(at=6.0))
    before = g.to_json()
    for action, step in ((tamalou.Tick(at=5.0), None), (tamalou.Tick(at=500.0), 60.0)):
        with pytest.raises(tamalou.IllegalAction):
            g.apply(action, max_step=step)
        assert g.to_json() == before
    g.apply(tamalou.Tick(at=50.0), max_step=60.0)
    assert g.now == 50.0


def test_restoring_a_snapshot_imports_no_module_the_caller_did_not_load_or_allow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    toml = tmp_path / "house.toml"
    toml.write_text('extends = "french"\nplugins = ["plugins_for_tests.card_values"]\n', encoding="utf-8")
    g = tamalou.new_game(tamalou.load_variant(toml), players=2, seed=3)
    text = g.to_json()
    assert tamalou.Game.from_json(text).to_json() == text  # the module is loaded in this process
    monkeypatch.delitem(sys.modules, "plugins_for_tests.card_values")
    with pytest.raises(tamalou.SnapshotError, match=r"plugins_for_tests\.card_values"):
        tamalou.Game.from_json(text)
    assert "plugins_for_tests.card_values" not in sys.modules
    allowed = tamalou.Game.from_json(text, allow_plugins=["plugins_for_tests.card_values"])
    assert allowed.to_json() == text


def test_a_snapshot_can_be_checked_against_its_own_replay() -> None:
    g = tamalou.new_game("french", players=3, seed=8)
    for _ in range(10):
        g.apply(g.legal_actions(g.current_player)[0])
    text = g.to_json()
    assert tamalou.Game.from_json(text).to_json() == text
    state = json.loads(text)
    state["stock"], state["discard"] = (
        state["stock"][:-1],
        [*state["discard"][:-1], state["stock"][-1], state["discard"][-1]],
    )
    forged = json.dumps(state)  # every card still in one place, but not the game its actions make
    tamalou.Game.from_json(forged, trusted=True)  # the caller's own snapshot: checked, not replayed
    with pytest.raises(tamalou.SnapshotError, match="not the game"):
        tamalou.Game.from_json(forged)


@pytest.mark.parametrize("name", ["french", "opponent-matching", "tamalou-fun", "kaboo"])
def test_seat_view_is_the_view_as_a_plain_object(name: str) -> None:
    """``game.seat_view(p)`` has every field of ``game.view(p)``, equal, at every step of seeded random
    rounds; ``to_model()`` and ``model_dump()`` give the pydantic view and its JSON."""
    from tamalou.verify import RandomChooser, play_out

    seen = 0

    def each(g: tamalou.Game, action: tamalou.Action) -> None:
        nonlocal seen
        for p in range(g.players):
            fast, model = g.seat_view(p), g.view(p)
            assert isinstance(fast, tamalou.SeatView) and fast == model and fast.to_model() == model
            assert all(getattr(fast, f) == getattr(model, f) for f in tamalou.PlayerView.model_fields if f != "hands")
            assert [[(s.slot, s.card) for s in h] for h in fast.hands] == [
                [(s.slot, s.card) for s in h] for h in model.hands
            ]
            seen += 1
        if len(g.actions) % 10 == 0:
            assert g.seat_view(0).model_dump(mode="json") == g.view(0).model_dump(mode="json")

    for seed in range(3):
        play_out(tamalou.new_game(name, players=3, seed=seed), RandomChooser(random.Random(seed)), on_step=each)
    assert seen > 100
    with pytest.raises(AttributeError):
        tamalou.SeatView(no_such_field=1)


# --------------------------------------------------------------------------------- 9. the deal and the end of a round


def test_a_ruleset_that_names_its_first_player_starts_with_that_seat() -> None:
    """``rules.deal.first_player`` may name a seat instead of drawing one: a game started without a
    first player of its own, shuffled or stacked, then starts with that seat, whatever the seed.
    Pinned by mutation testing (docs/mutation.md)."""
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
    """The ``round_over`` event carries the reason and the ranking of ``Game.result()`` (here: a call).
    Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.dealt(TWO, stock=["5C", "6C", "5D", "6D"], discard=["3C"], variant="french")
    events = calling_turn(g) + scenario.play_out(g)
    (over,) = of_kind(events, "round_over")
    assert over["reason"] == g.result().reason == "called"
    assert over["ranking"] == [list(place) for place in g.result().ranking]


# --------------------------------------------------------------------------------- everything accepted restores


def test_an_action_timed_past_what_a_snapshot_holds_is_refused_and_one_just_below_restores() -> None:
    """An action's ``at`` (a ``Tick``'s too) is a time below ``MAX_TIME`` (10^12 s), the clock a snapshot
    holds: past it, or not finite, the action is refused and the game untouched; just below, it is
    accepted and the game restores."""
    from tamalou.actions import MAX_TIME

    g = tamalou.new_game(FUN, 2, seed=1)
    listed = g.legal_actions(g.to_act[0])[0].to_dict()
    before = g.to_json()
    for at in (1e13, MAX_TIME, int(MAX_TIME), float("inf"), float("nan"), 2**53):
        with pytest.raises(IllegalAction, match="at"):
            g.apply({**listed, "at": at})
        with pytest.raises(IllegalAction, match="at"):
            Tick(at=at)
        assert g.to_json() == before
    untimed = tamalou.new_game("french", 2, seed=1)
    untimed.apply({**untimed.legal_actions(untimed.current_player)[0].to_dict(), "at": MAX_TIME - 1})
    assert Game.from_json(untimed.to_json()).to_json() == untimed.to_json()


def _held(name: str, seed: int) -> Round:
    """A game of ``name`` played at random until a card is held."""
    rng = random.Random(seed)
    g = new_round(name, 3, seed=seed)
    while g.held == -1:
        g.apply(rng.choice(g.legal_actions(rng.choice(g.to_act))))
    return g


@pytest.mark.parametrize("name", ["french", FUN])
def test_a_snapshot_whose_held_card_has_another_holder_is_refused(name: str) -> None:
    """The held card is the player to move's, who saw it: a snapshot giving it to another seat (whose
    layout the card would then go into) is refused, never restored into a game a listed action breaks."""
    g = _held(name, 4)
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    for holder in range(g.players):
        if holder != g.holder:
            state = json.loads(g.to_json())
            state["holder"] = holder
            with pytest.raises(tamalou.SnapshotError, match="holder"):
                Game.from_json(json.dumps(state))


def test_a_snapshot_with_layouts_of_more_slots_than_a_game_can_have_is_refused() -> None:
    """Layouts of empty slots by the thousand (every call on the game would then be slow) are refused:
    at most ``SLOTS_PER_CARD`` slots per card of the game and per action of its log, empty slots included."""
    from tamalou.engine.snapshot import SLOTS_PER_CARD

    g = new_round("french", 2, seed=1)
    state = json.loads(g.to_json())
    room = SLOTS_PER_CARD * len(g.cards) - sum(len(h) for h in g.hands)
    state["hands"][0] += [-1] * room  # as many empty slots as allowed: restored
    assert tamalou.round_of(Game.from_json(json.dumps(state), trusted=True)).layout(0)[-1] is None
    state["hands"][1].append(-1)
    with pytest.raises(tamalou.SnapshotError, match="slots"):
        Game.from_json(json.dumps(state))
    state["hands"][0] += [-1] * 100_000
    with pytest.raises(tamalou.SnapshotError, match="slots"):
        Game.from_json(json.dumps(state))


def test_a_snapshots_stacked_deal_is_checked_as_new_game_checks_one() -> None:
    """A stacked deal restores; the deal of a snapshot is checked against the deck as ``new_game`` checks
    it, and must hold the snapshot's cards."""
    g = stacked("french", TWO, stock=["5C", "6C"], discard=["3C"])
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    damaged: list[Any] = [
        {"hands": [["AS"] * 4, ["AH", "2H", "3H", "4H"]], "stock": ["5C", "6C"], "discard": ["3C"]},  # AS x4
        {"hands": TWO, "stock": ["5C", "6C"], "discard": ["3C"], "extra": []},
        {"hands": [TWO[0]], "stock": ["5C", "6C"], "discard": ["3C"]},  # one hand for two players
        {"hands": TWO, "stock": ["5C", "JK1"], "discard": ["3C"]},  # no joker in French
        {"hands": TWO, "stock": ["5C", "7C"], "discard": ["3C"]},  # another card than the snapshot's
        {"hands": TWO, "stock": ["6C", "5C"], "discard": ["3C"]},  # the same cards in another order
    ]
    for deal in damaged:
        state = json.loads(g.to_json())
        state["deal"] = deal
        with pytest.raises(tamalou.SnapshotError, match="deal"):
            Game.from_json(json.dumps(state))
    # A shuffled game's snapshot given a deal: its cards are the deck's, not a deal's.
    shuffled = json.loads(tamalou.new_game("french", 2, seed=1).to_json())
    shuffled["deal"] = {"hands": TWO, "stock": ["5C", "6C"], "discard": ["3C"]}
    with pytest.raises(tamalou.SnapshotError, match="deal"):
        Game.from_json(json.dumps(shuffled))


def test_knowledge_a_seat_never_had_is_caught_by_the_replay_check() -> None:
    """A snapshot marking another seat's hidden card as known restores when trusted (it can be played on) and
    shows the card in that seat's view; by default (a snapshot from outside, replayed) it is refused."""
    g = new_round("french", 2, seed=3)
    state = json.loads(g.to_json())
    slot, card = next((s, c) for s, c in enumerate(state["hands"][1]) if not state["knowers"][c] & 1)
    state["knowers"][card] |= 1
    forged = json.dumps(state)
    assert Game.from_json(forged, trusted=True).view(0).hands[1][slot].card == g.text[card]
    with pytest.raises(tamalou.SnapshotError, match="not the game"):
        Game.from_json(forged)


def test_copy_and_deepcopy_of_a_game_are_exact_independent_copies() -> None:
    import copy

    g = tamalou.new_game(FUN, 3, seed=2)
    g.apply(g.legal_actions(g.to_act[0])[0])
    for twin in (copy.deepcopy(g), copy.copy(g), copy.deepcopy([g, g])[0]):
        assert type(twin) is Game and twin is not g and twin.to_json() == g.to_json()
        before = g.to_json()
        twin.apply(twin.legal_actions(twin.to_act[0])[0])
        assert g.to_json() == before != twin.to_json()
    pair = copy.deepcopy([g, g])
    assert pair[0] is pair[1]  # the memo: one game copied once


def test_model_copy_of_a_variant_is_a_new_variant_and_leaves_the_original_as_it_was() -> None:
    """``copy.copy`` and ``copy.deepcopy`` of a variant give the variant itself (it is immutable), so
    pydantic's ``model_copy``, which starts from ``__copy__``, once changed the original in place, the one
    ``load_variant`` caches included."""
    import copy

    french = tamalou.load_variant("french")
    title = french.title
    for deep in (False, True):
        renamed = french.model_copy(update={"title": "Another title"}, deep=deep)
        assert renamed is not french and renamed.title == "Another title"
        assert french.title == title == tamalou.load_variant("french").title
    harder = french.model_copy(update={"rules": french.rules.model_copy(update={"call": None})})
    assert harder.rules.call is None and french.rules.call is not None
    assert copy.deepcopy(french) is french and copy.copy(french) is french
    assert tamalou.new_game(french.model_copy(), 2, seed=1).to_json() == tamalou.new_game(french, 2, seed=1).to_json()


#: Kaboo, 8 players, seed 2: random legal play until player 0 matches player 1's card out of turn while player 2,
#: whose turn it is, holds the card they drew (the last action): player 0 then owes player 1 a card.
_GIVE_WHILE_HELD = [
    {"type": "draw", "player": 4, "source": "stock"},
    {"type": "replace", "player": 4, "slot": 1},
    {"type": "match", "player": 4, "slots": [0], "owner": 3},
    {"type": "match", "player": 5, "slots": [2], "owner": 1},
    {"type": "draw", "player": 5, "source": "discard"},
    {"type": "replace", "player": 5, "slot": 4},
    {"type": "match", "player": 0, "slots": [1]},
    {"type": "match", "player": 3, "slots": [2], "owner": 5},
    {"type": "match", "player": 6, "slots": [2], "owner": 1},
    {"type": "match", "player": 1, "slots": [2], "owner": 2},
    {"type": "match", "player": 4, "slots": [3], "owner": 6},
    {"type": "match", "player": 5, "slots": [4], "owner": 4},
    {"type": "match", "player": 7, "slots": [4], "owner": 5},
    {"type": "draw", "player": 6, "source": "discard"},
    {"type": "replace", "player": 6, "slot": 1},
    {"type": "match", "player": 7, "slots": [5], "owner": 4},
    {"type": "match", "player": 3, "slots": [0], "owner": 6},
    {"type": "match", "player": 4, "slots": [0], "owner": 6},
    {"type": "match", "player": 2, "slots": [4], "owner": 7},
    {"type": "draw", "player": 7, "source": "discard"},
    {"type": "replace", "player": 7, "slot": 3},
    {"type": "match", "player": 5, "slots": [5], "owner": 7},
    {"type": "draw", "player": 0, "source": "discard"},
    {"type": "replace", "player": 0, "slot": 2},
    {"type": "match", "player": 7, "slots": [5], "owner": 4},
    {"type": "match", "player": 5, "slots": [4], "owner": 6},
    {"type": "give", "player": 5, "slot": 5},
    {"type": "draw", "player": 1, "source": "stock"},
    {"type": "replace", "player": 1, "slot": 2},
    {"type": "match", "player": 1, "slots": [6], "owner": 5},
    {"type": "match", "player": 3, "slots": [4], "owner": 1},
    {"type": "draw", "player": 2, "source": "stock"},
    {"type": "match", "player": 4, "slots": [4], "owner": 0},
    {"type": "match", "player": 0, "slots": [0], "owner": 1},
]


def test_a_give_owed_while_the_turns_player_holds_a_card_restores() -> None:
    """In kaboo a match of an opponent's card out of turn makes the matcher give a card back: the round waits for
    that give (phase ``give``, the matcher to move) while the turn's player still holds the card they drew, and
    goes back to them after it. The snapshot check once wanted the holder to be the player to move, and refused
    the state the engine had just accepted."""
    g = tamalou.replay("kaboo", 8, seed=2, actions=_GIVE_WHILE_HELD)
    assert (g.phase, g.current_player, tamalou.round_of(g).holder) == ("give", 0, 2)
    restored = Game.from_json(g.to_json())
    assert restored.to_json() == g.to_json()
    restored.apply(restored.legal_actions(0)[0])  # the give: back to the holder's turn
    assert (restored.phase, restored.current_player, tamalou.round_of(restored).holder) == ("hold", 2, 2)
    forged = json.loads(g.to_json())
    forged["holder"] = 3  # a holder who is neither the player to move nor the one the round goes back to
    with pytest.raises(tamalou.SnapshotError, match="holder 3 is not the turn's player"):
        Game.from_json(json.dumps(forged))


# --------------------------------------------------------- 10. undo for search, the facade, refusals, snapshots, events


def test_pop_takes_every_push_back_exactly_through_a_whole_round() -> None:
    """``push`` then ``pop`` puts the game back exactly as it was (``to_json()`` equal), however far the round went:
    a French round of three played to its end by seeded random choices, each action pushed, then every push taken
    back in turn. The layouts change in place (a replace, a match), the calling mechanic keeps no state object
    (``None`` in the states), the powers mechanic keeps one. Pinned by mutation testing (docs/mutation.md): the
    undo is tested elsewhere, but by no test of the mutation selection."""
    g = tamalou.new_game("french", 3, seed=4)
    rng = random.Random(4)
    before: list[str] = []
    pushed: list[Action] = []
    while not g.is_over:
        seat = rng.choice([p for p in range(3) if g.legal_actions(p)])
        action = rng.choice(g.legal_actions(seat))
        before.append(g.to_json())
        g.push(action)
        pushed.append(action)
    assert g.pushed == len(pushed) > 10
    assert kinds(g.events_so_far()).count("replaced") >= 1
    while pushed:
        assert g.pop() == pushed.pop()
        assert g.to_json() == before.pop()
    assert g.pushed == 0 and g.actions == []


def test_a_game_built_by_its_class_is_the_game_new_game_deals() -> None:
    """``Game(variant, players, seed=...)`` deals as ``new_game`` does with the same arguments, the seed kept.
    Pinned by mutation testing (docs/mutation.md)."""
    built = Game("french", 3, seed=11)
    assert built.seed == 11
    assert built.to_json() == tamalou.new_game("french", 3, seed=11).to_json()


def test_the_engine_package_hands_out_the_facade_and_the_round_by_name() -> None:
    """``tamalou.engine`` loads ``Game``, ``new_game``, ``replay``, ``game_of``, ``round_of``, ``Round`` and
    ``new_round`` from their modules when first asked for, and refuses a name it does not have. Pinned by mutation
    testing (docs/mutation.md)."""
    import tamalou.engine as engine
    from tamalou.engine import game, round

    for name in ("Game", "game_of", "new_game", "replay", "round_of"):
        assert getattr(engine, name) is getattr(game, name)
    assert engine.Round is round.Round is Round and engine.new_round is round.new_round is new_round
    with pytest.raises(AttributeError, match="has no attribute 'Deal'"):
        engine.Deal  # noqa: B018


def test_a_blank_round_says_so_when_printed() -> None:
    """A round made blank (``Round(None)``, for ``copy`` and ``from_json`` to fill) has no table to print: its
    ``repr`` says it is blank instead of failing. Pinned by mutation testing (docs/mutation.md)."""
    assert repr(Round(None)) == "<Round (blank)>"


def test_a_snapshot_whose_mechanic_state_holds_a_value_too_large_for_its_kind_is_refused() -> None:
    """A mechanic's state restored from a snapshot is checked against a fresh one, field by field: an integer
    must stay under 2**62, a text under 101 characters; past that the field is not of its kind, whatever the
    mechanic's own check would say. Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.deal(TWO, stock=["5C", "6C"], discard=["3C"], variant=FUN_OPPONENTS)
    with pytest.raises(tamalou.SnapshotError, match=r"matching\.win_by: .* is not of its kind"):
        restore_tampered(g, "matching", win_by=2**62)
    with pytest.raises(tamalou.SnapshotError, match=r"matching\.resume: .* is not of its kind"):
        restore_tampered(g, "matching", resume="x" * 101)
    # Just under the bounds the field has its kind, and the mechanic's own check has the last word.
    with pytest.raises(tamalou.SnapshotError, match="the window names a card or a player that is not there"):
        restore_tampered(g, "matching", win_by=2**62 - 1)
    assert restore_tampered(g, "matching", resume="").to_json() == g.to_json()


def test_the_json_schema_of_a_view_is_the_player_views_with_each_mechanics_fields(tmp_path: Path) -> None:
    """``view_json_schema(variant)`` is the schema of ``PlayerView`` (the same keys, every definition kept) whose
    ``extra`` names each field a mechanic of the variant shows, and nothing else. Pinned by mutation testing
    (docs/mutation.md)."""
    toml = tmp_path / "heard.toml"
    toml.write_text('extends = "french"\nplugins = ["plugins_for_tests.match_contract"]\n', encoding="utf-8")
    plain = tamalou.view_json_schema()
    schema = tamalou.view_json_schema(tamalou.load_variant(toml))
    assert set(schema) == set(plain) and set(schema["$defs"]) >= set(plain["$defs"])
    extra = schema["properties"]["extra"]
    assert extra["additionalProperties"] is False
    assert extra["properties"]["seat_one_never_matches"]["properties"].keys() == {"mine", "right"}


def test_the_events_of_a_round_carry_every_field_a_client_reads() -> None:
    """Every event of a short French round, whole, as the referee sees them: the deal (slots, the discard's top,
    the stock's size, the first player), the fixed peeks, each turn with its number, the draws, a replace with
    its slot, a discard, the call, the closing window and its passes, and the end with its reason, the caller
    and every layout. Seat 0 replaces its 3S with the 5C and calls at 12; seat 1 throws the 6C; nobody matches.
    Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.deal(TWO, stock=["5C", "6C", "5D"], discard=["3C"], variant="french")
    g.apply(Draw(0, "stock"))
    g.apply(Replace(0, 2))
    g.apply(Call(0))
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))
    scenario.close(g)
    assert [e.to_dict() for e in g.events_so_far()] == [
        {"type": "dealt", "players": 2, "slots": [4, 4], "discard_top": "3C", "stock_size": 3, "first_player": 0},
        {"type": "peeked", "player": 0, "slots": [0, 1], "cards": ["AS", "2S"]},
        {"type": "peeked", "player": 1, "slots": [0, 1], "cards": ["AH", "2H"]},
        {"type": "turn", "player": 0, "turn": 0},
        {"type": "drew", "player": 0, "source": "stock", "card": "5C"},
        {"type": "replaced", "player": 0, "slot": 2, "card": "3S"},
        {"type": "called", "player": 0},
        {"type": "turn", "player": 1, "turn": 1},
        {"type": "drew", "player": 1, "source": "stock", "card": "6C"},
        {"type": "discarded", "player": 1, "card": "6C"},
        {"type": "closing", "players": [0, 1]},
        {"type": "passed", "player": 0, "phase": "closing"},
        {"type": "passed", "player": 1, "phase": "closing"},
        {
            "type": "round_over",
            "reason": "called",
            "totals": [12, 10],
            "winners": [1],
            "ranking": [[1], [0]],
            "caller": 0,
            "hands": [["AS", "2S", "5C", "4S"], ["AH", "2H", "3H", "4H"]],
        },
    ]


def test_refusals_of_a_turn_out_of_turn_after_the_end_or_too_far_in_time_carry_their_action() -> None:
    """A draw by the player not to move is refused as not their turn; any action once the round is over, as
    such; a time step larger than a server's ``max_step``, with the step, the game's time and the action's. Each
    refusal carries the action refused; a deal that is not a dict is refused saying what a deal is. Pinned by
    mutation testing (docs/mutation.md)."""
    g = scenario.deal(TWO, stock=["5C", "6C"], discard=["3C"], variant=FUN)
    with pytest.raises(IllegalAction, match=r"^time may move 2 s at most at once: it is 0 s, not 3 s$") as info:
        g.apply(Draw(0, "stock", at=3), max_step=2)
    assert info.value.action == Draw(0, "stock", at=3.0)
    g = scenario.dealt(TWO, stock=["5C", "6C"], discard=["3C"], variant="french")
    with pytest.raises(IllegalAction, match=r"^it is player 0's turn, not player 1's$") as info:
        g.apply(Draw(1, "stock"))
    assert info.value.action == Draw(1, "stock")
    scenario.play_out(g)
    with pytest.raises(IllegalAction, match=r"^the round is over$") as info:
        g.apply(Draw(0, "stock"))
    assert info.value.action == Draw(0, "stock")
    if tamalou.engine.compiled():  # the compiled core checks the argument's type itself, before the function runs
        with pytest.raises(TypeError, match="dict or None object expected"):
            new_round("french", 2, deal=[])  # type: ignore[arg-type]
    else:
        with pytest.raises(SetupError, match=r"^a deal is a dict with 'hands', 'stock' and 'discard', got \[\]$"):
            new_round("french", 2, deal=[])  # type: ignore[arg-type]


def test_the_opening_peek_waits_for_every_seat_yet_to_choose_and_a_bad_choice_is_refused_with_its_action() -> None:
    """Cartalogue: at the deal each seat chooses the two slots it looks at. The round waits for every seat yet to
    choose (``to_act``), whatever seat the turn will start with; a choice that is not two different slots of
    one's own is refused, saying so, with the action. Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.deal(TWO, stock=["5C", "6C"], discard=["3C"], variant="cartalogue")
    assert g.phase == "peek" and g.to_act == [0, 1]
    bad = PeekAction(1, (2, 2))
    with pytest.raises(IllegalAction, match=r"^choose 2 different slots of your own to peek at$") as info:
        g.apply(bad)
    assert info.value.action == bad
    g.apply(PeekAction(1, (2, 3)))
    assert g.phase == "peek" and g.to_act == [0]


def test_a_snapshot_taken_at_the_deal_restores_with_a_window_after_the_power_and_own_cards_only() -> None:
    """Cambia (the window opens after the thrown card's power), and a house rule on it where a player matches only
    their own cards (the plain matching mechanic, not opponent matching): a snapshot taken at the deal, before
    any card was thrown and so with no window yet, restores to the same game. Pinned by mutation testing
    (docs/mutation.md)."""
    d = tamalou.load_variant("cambia").model_dump(mode="json")
    d["name"], d["aliases"] = "cambia-own-cards", []
    d["rules"]["matching"]["opponents"] = False
    for variant in ("cambia", tamalou.variant_from_dict(d)):
        g = scenario.dealt(TWO, stock=["6C", "5C", "3C"], discard=["5D"], variant=variant)
        assert Game.from_json(g.to_json()).to_json() == g.to_json()


def test_a_game_rebuilt_from_a_seats_view_for_search_offers_the_discard_top_to_match() -> None:
    """The search contract (``Mechanic.resample``): a game rebuilt from what seat 1 sees, after three French turns
    (four cards on the discard), has its matching window on the discard's top, the card seat 1 may match, won by
    nobody yet. Pinned by mutation testing (docs/mutation.md)."""
    from tamalou.bots.ismcts.determinizer import Determinizer

    g = new_round("french", 2, seed=3, first_player=0)
    for turn in range(3):
        p = g.current_player
        g.apply(Draw(p, "stock"))
        g.apply(Discard(p))
        while g.phase in ("power", "swap"):
            g.apply(Pass(p))
        if turn < 2:
            g.apply(Pass(p))  # no call
    assert g.view(1).discard == ["9H", "KD", "8C", "3C"] and matches_listed(g, 1)
    rebuilt = Determinizer(g.seat_view(1), g.legal_actions(1), g.variant, random.Random(1)).template
    window = rebuilt.state_of("matching")
    assert rebuilt.text[window.win] == "3C" and window.win_by == -1


def test_the_base_mechanics_flow_methods_take_nothing_over() -> None:
    """A plugin's mechanic that overrides a flow method may call the base's (``super()``): each of the base's
    answers leaves the flow as it is (nothing taken over, nothing skipped, no event). Pinned by mutation testing
    (docs/mutation.md)."""
    m = tamalou.Mechanic(tamalou.load_variant("french"))
    g = new_round("french", 2, seed=1)
    events: list[tamalou.Event] = []
    assert not m.begin(g, events) and not m.thrown(g, 0, "discarded", events)
    assert not m.play_resolved(g, events) and not m.turn_ending(g, events) and not m.round_ending(g, events)
    assert not m.can_open_turn(g, 0) and m.skip_turn(g, 0) is None
    assert events == []


def test_a_games_deepcopy_records_the_copy_in_the_memo_it_is_given() -> None:
    """``Game.__deepcopy__(memo)`` keeps the copy in ``memo`` under the game's id, as the copy protocol asks, so
    that an object holding the game twice, copied by hand, holds one copy twice. Pinned by mutation testing
    (docs/mutation.md)."""
    g = tamalou.new_game("french", 2, seed=1)
    memo: dict[int, Any] = {}
    twin = g.__deepcopy__(memo)
    assert memo[id(g)] is twin and twin.to_json() == g.to_json()


EMPTY_STATE_MECHANIC = """import tamalou


class Nothing:
    __slots__ = ()


class KeepsNothing(tamalou.Mechanic):
    name = "keeps_nothing"
    order = 60

    def new_state(self, g):
        return Nothing()


@tamalou.hookimpl
def tamalou_mechanics():
    return [KeepsNothing]
"""


def test_pop_puts_back_a_game_with_a_plugins_mechanic_whose_state_has_no_field(tmp_path: Path) -> None:
    """The undo is exact for every mechanic, a plugin's too, down to one whose state object has no field at all:
    a French round with such a mechanic pushes a draw and pops it back to the same game. Pinned by mutation
    testing (docs/mutation.md)."""
    import sys

    (tmp_path / "keeps_nothing_mod.py").write_text(EMPTY_STATE_MECHANIC, encoding="utf-8")
    toml = tmp_path / "nothing.toml"
    toml.write_text('extends = "french"\nplugins = ["keeps_nothing_mod"]\n', encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        g = tamalou.new_game(tamalou.load_variant(toml), 2, seed=1)
        before = g.to_json()
        g.push(g.legal_actions(g.current_player)[0])
        assert g.to_json() != before
        g.pop()
        assert g.to_json() == before
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("keeps_nothing_mod", None)


def test_an_action_timed_after_the_clock_has_ended_the_round_is_refused_with_its_action() -> None:
    """In tamalou.fun, turns that time out one after another end the round long before 5000 s: a draw timed at
    5000 s is refused as coming after the end, with the action, and the game is left at its time. Pinned by
    mutation testing (docs/mutation.md)."""
    g = scenario.deal(TWO, stock=["5C", "6C", "7C", "8C", "9C", "5D"], discard=["3C"], variant=FUN)
    with pytest.raises(IllegalAction, match=r"^the round ended before this action's time$") as info:
        g.apply(Draw(0, "stock", at=5000))
    assert info.value.action == Draw(0, "stock", at=5000.0)
    assert g.now == 0 and not g.is_over


def test_a_match_naming_one_slot_twice_or_an_empty_slot_is_refused_with_its_action() -> None:
    """A match of several slots names different slots, each holding a card: one naming slot 1 twice, or slot 7
    of a layout of four, is refused, saying so, with the action. Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.deal(TWO, stock=["5C", "6C"], discard=["3C"], variant="french")
    for bad, why in (
        (MatchAction(0, (1, 1)), r"^match one or more different slots$"),
        (MatchAction(0, (7,)), r"^slot 7 of player 0 holds no card$"),
    ):
        with pytest.raises(IllegalAction, match=why) as info:
            g.apply(bad)
        assert info.value.action == bad


def test_a_match_with_no_card_on_offer_or_while_holding_a_drawn_card_is_refused_with_its_action() -> None:
    """In kaboo the discard starts empty: a match at the deal has no card to match on. In tamalou.fun a player
    holding the card they drew may not match. Both are refused, saying why, with the action. Pinned by mutation
    testing (docs/mutation.md)."""
    g = scenario.deal(TWO, stock=["5C", "6C"], discard=[], variant="kaboo")
    early = MatchAction(0, (0,))
    with pytest.raises(IllegalAction, match=r"^there is no thrown card to match on$") as info:
        g.apply(early)
    assert info.value.action == early
    g = scenario.deal(TWO, stock=["5C", "6C"], discard=["3C"], variant=FUN)
    g.apply(Tick(at=OPEN))
    g.apply(Draw(0, "stock", at=6))
    holding = MatchAction(0, (0,), at=6.5)
    with pytest.raises(
        IllegalAction, match=r"^no matching while you hold a drawn card or choose a power target$"
    ) as info:
        g.apply(holding)
    assert info.value.action == holding


def test_a_servers_max_step_bounds_the_step_from_the_games_time_not_from_zero() -> None:
    """``max_step`` bounds how far one action moves the clock from the game's time: at 6 s, an action at 9 s
    moves it 3 s and is accepted with ``max_step=5``, although 9 is more than 5. Pinned by mutation testing
    (docs/mutation.md)."""
    g = scenario.deal(TWO, stock=["5C", "6C", "7C"], discard=["3C"], variant=FUN)
    g.apply(Tick(at=OPEN))
    g.apply(Draw(0, "stock", at=6), max_step=5)
    g.apply(Discard(0, at=9), max_step=5)
    assert g.now == 9
