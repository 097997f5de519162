"""The keys that say whether and from when a player calls: ``rules.call.enabled`` and ``rules.call.from_turn``.

Stacked deals of French Tamalou (4 cards a seat, slot 0 first; seat 0 plays first; stocks top first) with one
key changed, made from text as a house rule would be. French calls at the end of one's turn (phase ``call``);
tamalou.fun's rule, at the start of one's turn instead of drawing, is tried with ``when = "start_of_turn"``.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import scenario
import tamalou
from tamalou import Call, Discard, Draw, IllegalAction, MatchAction, Pass
from tamalou.cli import app
from tamalou.engine import new_round
from tamalou.engine.rulebook import rulebook
from tamalou.rulesets.effective import effective_rules


def house(**call: object) -> tamalou.Variant:
    lines = [f"{key} = {str(value).lower() if isinstance(value, bool) else repr(value)}" for key, value in call.items()]
    text = 'name = "house"\nextends = "french"\n[rules.call]\n' + "\n".join(lines).replace("'", '"') + "\n"
    return tamalou.variant_from_toml(text)


HANDS = [["AS", "2S", "3S", "4S"], ["2H", "3H", "4H", "5H"]]
STOCK = ["5C", "6C", "5D", "6D", "2C", "3C", "2D", "3D", "6S", "5S", "AC", "AD", "AH", "4C", "4D"]  # no power


def test_with_calls_off_nobody_calls_and_the_round_ends_another_way() -> None:
    """``enabled = false``: no call is listed, at the end of a turn or instead of drawing, a call is refused, the
    phase ``call`` never comes; the round ends when the stock runs out (``draw.stock_empty = "end_round"``)."""
    v = tamalou.variant_from_toml(
        'name = "house"\nextends = "french"\n[rules.call]\nenabled = false\n[rules.draw]\nstock_empty = "end_round"\n'
    )
    assert "calling" not in [m.name for m in rulebook(v).mechanics]
    g = scenario.dealt(HANDS, STOCK[:6], variant=v)
    assert not any(isinstance(a, Call) for a in g.legal_actions(0))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "draw" and g.current_player == 1  # no phase "call": the turn passed at once
    scenario.assert_illegal(g, Call(1))
    while not g.is_over:
        assert not any(isinstance(a, Call) for p in range(2) for a in g.legal_actions(p))
        scenario.draw_and_throw(g)
    assert g.result().reason == "stock_out" and g.result().caller is None


def test_a_player_calls_from_their_own_turn_n_on() -> None:
    """``from_turn = 2``: in their first turn neither player may call (at its end: the turn passes; a call is
    refused, saying why); in their second turn they may."""
    g = scenario.dealt(HANDS, STOCK, variant=house(from_turn=2))
    for p in (0, 1):
        g.apply(Draw(p, "stock"))
        g.apply(Discard(p))
        assert g.current_player == 1 - p and g.phase == "draw"  # no phase "call" after a first turn
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "call" and Call(0) in g.legal_actions(0)
    g.apply(Call(0))
    assert g.caller == 0


def test_from_turn_at_the_start_of_a_turn_and_its_refusal() -> None:
    g = scenario.dealt(HANDS, STOCK, variant=house(when="start_of_turn", from_turn=2))
    assert Call(0) not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match=r"a call is allowed from your turn 2 on \(rules.call.from_turn\)"):
        g.apply(Call(0))
    scenario.draw_and_throw(g)
    assert Call(1) not in g.legal_actions(1)
    scenario.draw_and_throw(g)
    assert Call(0) in g.legal_actions(0)  # player 0's second turn


def test_the_first_player_s_turns_count_from_the_first_player() -> None:
    """Three players, seat 1 first: the round's turns go to seats 1, 2, 0, 1, 2, 0; each may call from its own
    second turn: the round's fourth turn (seat 1) on."""
    v = house(when="start_of_turn", from_turn=2)
    spec = {"hands": [HANDS[0], HANDS[1], ["6H", "7H", "8H", "9H"]], "stock": STOCK, "discard": []}
    g = new_round(v, players=3, deal=spec, first_player=1, seed=1)
    if g.phase == "peek":
        scenario.peek_all(g)
    seats = []
    for turn in range(6):
        p = g.current_player
        seats.append(p)
        assert (Call(p) in g.legal_actions(p)) is (turn >= 3), turn
        scenario.draw_and_throw(g)
    assert seats == [1, 2, 0, 1, 2, 0]


def test_a_call_a_player_must_make_is_made_whatever_the_turn() -> None:
    """French: a player with no card left must call; ``from_turn`` does not put that off. Seat 0 throws the 5C
    drawn and matches its only card, the 5H; at its second turn it must call, though ``from_turn`` is 3."""
    g = scenario.dealt([["5H"], ["2H", "3H", "4H", "6H"]], STOCK, variant=house(from_turn=3))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(MatchAction(0, (0,)))
    assert g.view(0).hands[0] == []
    while g.current_player == 0:  # the turn ends: no call (turn 1 of 3)
        g.apply(Pass(0))
    scenario.draw_and_throw(g)
    while g.phase != "draw":
        g.apply(Pass(g.current_player))
    assert g.current_player == 0 and g.legal_actions(0) == [Call(0)]
    g.apply(Call(0))
    assert g.caller == 0


@pytest.mark.parametrize(
    ("call", "line"),
    [
        ({"enabled": False}, "call: nobody calls (rules.call.enabled = false): the round ends another way"),
        ({"from_turn": 2}, "  a player may call from their turn 2 of the round on"),
    ],
)
def test_show_says_it(tmp_path: object, call: dict[str, object], line: str) -> None:
    lines = [f"{k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in call.items()]
    path = tmp_path / "house.toml"  # type: ignore[operator]
    path.write_text('name = "house"\nextends = "french"\n[rules.call]\n' + "\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["show", str(path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0 and line + "\n" in result.output, result.output
    assert effective_rules(tamalou.load_variant(path)).calls == call.get("enabled", True)


def test_from_turn_is_checked() -> None:
    with pytest.raises(tamalou.VariantError, match=r"rules\.call\.from_turn"):
        house(from_turn=0)
