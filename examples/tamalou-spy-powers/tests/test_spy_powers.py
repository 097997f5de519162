"""The spy powers on French Tamalou (``french-spy``), from stacked deals, and random games.

A deal: ``hands`` per seat (slot 0 first), ``stock`` top first, ``discard`` bottom first; seat 0
plays first. French: every player knows their slots 0 and 1 from the deal; a power is offered when a
card drawn from the stock is thrown at once, and may be declined.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

import pytest
import tamalou
from hypothesis import HealthCheck, given, settings
from tamalou import Discard, Draw, Event, IllegalAction, Pass, Power, Replace, Round
from tamalou import verify as inv
from tamalou.engine import new_round
from tamalou.testing import played_games

from tamalou_spy_powers import SpyPeekAny, SpySwapLook

RULESET = "french-spy"


def deal(
    hands: Sequence[Sequence[str]], stock: Sequence[str], discard: Sequence[str] = ("2H",), variant: object = RULESET
) -> Round:
    spec = {"hands": [list(h) for h in hands], "stock": list(stock), "discard": list(discard)}
    g = new_round(variant, players=len(hands), deal=spec, first_player=0, seed=1)  # type: ignore[arg-type]
    assert g.phase == "draw" and g.current_player == 0
    return g


def draw_and_throw(g: Round) -> list[Event]:
    p = g.current_player
    return g.apply(Draw(p, "stock")) + g.apply(Discard(p))


def facts(events: list[Event]) -> list[tuple[str, dict[str, object], dict[str, object] | None, int]]:
    return [(e.type, e.data, e.secret, e.seen_by) for e in events]


def knowers(g: Round, text: str) -> set[int]:
    card = g.text.index(text)
    return {p for p in range(g.players) if g.knows(p, card)}


def assert_refused(g: Round, action: object, why: str | None) -> None:
    """Refused (with ``why`` in the message, if given), the game exactly as before."""
    before = g.to_json()
    with pytest.raises(IllegalAction, match=why):
        g.apply(action)  # type: ignore[arg-type]
    assert g.to_json() == before


P0 = ["AC", "2C", "3C", "6C"]
P1 = ["6S", "4D", "KH", "2D"]


def test_the_ruleset_is_registered() -> None:
    assert "french-spy" in tamalou.variant_names()
    v = tamalou.load_variant("spy")
    ranks = v.rules.powers.ranks
    assert (ranks["5"], ranks["Q"]) == ("spy_peek_any", "spy_swap_look")
    assert (ranks["J"], ranks["9"]) == ("blind_swap", "peek_opponent")  # the rest is French
    card = tamalou.parse_card
    assert tamalou.card_power(v, card("5H")) == "spy_peek_any"
    assert tamalou.card_power(v, card("QS")) == "spy_swap_look"


# ------------------------------------------------------------------------------------- spy_peek_any


def test_a_five_offers_every_card_on_the_table() -> None:
    """Every occupied slot of every player, one's own included, is one use."""
    g = deal([P0, P1], ["5H", "3S"])
    events = draw_and_throw(g)
    assert [(e.type, e.data) for e in events][-1] == ("power_offered", {"player": 0, "power": "spy_peek_any"})
    powers = [a for a in g.legal_actions(0) if isinstance(a, Power)]
    assert {(a.target, a.target_slot) for a in powers} == {(q, s) for q in (0, 1) for s in range(4)}
    assert all(a.slot is None and a.owner is None for a in powers)


def test_a_five_looks_at_an_opponents_card() -> None:
    """Player 0 alone learns the King of hearts; player 1's view and events show nothing of it."""
    g = deal([P0, P1], ["5H", "3S"])
    draw_and_throw(g)
    assert knowers(g, "KH") == set()
    events = g.apply(Power(0, target=1, target_slot=2))
    assert facts(events) == [("looked", {"player": 0, "owner": 1, "slot": 2}, {"card": "KH"}, 0b01)]
    assert knowers(g, "KH") == {0}
    assert g.view(0).hands[1][2].card == "KH"
    assert g.view(1).hands[1][2].card is None
    assert events[0].for_player(1).to_dict().get("card") is None
    assert g.layout(1) == P1  # nothing moved
    assert g.phase == "call" and g.current_player == 0


def test_a_five_looks_at_ones_own_card() -> None:
    g = deal([P0, P1], ["5H", "3S"])
    draw_and_throw(g)
    assert knowers(g, "6C") == set()
    events = g.apply(Power(0, target=0, target_slot=3))
    assert facts(events) == [("looked", {"player": 0, "owner": 0, "slot": 3}, {"card": "6C"}, 0b01)]
    assert knowers(g, "6C") == {0}


def test_a_five_may_be_declined() -> None:
    g = deal([P0, P1], ["5H", "3S"])
    draw_and_throw(g)
    before = [list(g.knowers)]
    g.apply(Pass(0))
    assert [list(g.knowers)] == before and g.phase == "call"


def test_a_five_that_replaced_a_card_has_no_power() -> None:
    """French: only a card drawn from the stock and thrown at once gives its power."""
    g = deal([["5C", *P0[1:]], P1], ["3S", "4S"])
    g.apply(Draw(0, "stock"))
    events = g.apply(Replace(0, 0))
    assert "power_offered" not in [e.type for e in events]


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (Power(0, slot=0), "not 'slot'"),
        (Power(0, target=0, target_slot=0, owner=1), "not 'slot'"),
        (Power(0, target=2, target_slot=0), "a player"),
        (Power(0, target=1, target_slot=4), "slot 4 of player 1 holds no card"),
        (Power(0, target=1), "slot None of player 1 holds no card"),
        (Power(1, target=0, target_slot=0), None),  # not player 1's power
        ({"type": "power", "player": 0, "target": 1, "target_slot": "x"}, None),
    ],
)
def test_spy_peek_any_refusals_leave_the_game_untouched(action: object, why: str | None) -> None:
    g = deal([P0, P1], ["5H", "3S"])
    draw_and_throw(g)
    assert_refused(g, action, why)


# ------------------------------------------------------------------------------------ spy_swap_look


def test_a_queen_offers_blind_swaps_uses() -> None:
    """Every own occupied slot with every occupied slot of every opponent: blind_swap's uses."""
    g = deal([P0, P1, ["7S", "8S", "9S", "10S"]], ["QH", "3S"])
    draw_and_throw(g)
    powers = {(a.slot, a.target, a.target_slot) for a in g.legal_actions(0) if isinstance(a, Power)}
    assert powers == {(m, q, s) for m in range(4) for q in (1, 2) for s in range(4)}


def test_a_queen_swaps_then_looks_at_the_card_received() -> None:
    """Player 0 gives their 6 of clubs (unknown to all) for player 1's 6 of spades (known to player 1
    from the deal), then looks at it: both now know it; nobody learns the 6 of clubs."""
    g = deal([P0, P1], ["QH", "3S"])
    draw_and_throw(g)
    assert knowers(g, "6S") == {1} and knowers(g, "6C") == set()
    events = g.apply(Power(0, slot=3, target=1, target_slot=0))
    assert facts(events) == [
        ("swapped", {"player": 0, "slot": 3, "target": 1, "target_slot": 0}, None, 0),
        ("looked", {"player": 0, "owner": 0, "slot": 3}, {"card": "6S"}, 0b01),
    ]
    assert g.layout(0) == ["AC", "2C", "3C", "6S"]
    assert g.layout(1) == ["6C", "4D", "KH", "2D"]
    assert knowers(g, "6S") == {0, 1}  # player 1 saw where it went
    assert knowers(g, "6C") == set()
    assert g.view(1).hands[1][0].card is None  # player 1 does not see what they got
    assert g.view(0).hands[0][3].card == "6S"


def test_a_queen_gives_away_a_known_card_and_its_knowledge_follows() -> None:
    """Player 0 knew their 2 of clubs (slot 1): they still know it, now in player 1's slot 2."""
    g = deal([P0, P1], ["QH", "3S"])
    draw_and_throw(g)
    g.apply(Power(0, slot=1, target=1, target_slot=2))
    assert knowers(g, "2C") == {0} and g.layout(1)[2] == "2C"
    assert knowers(g, "KH") == {0} and g.layout(0)[1] == "KH"


def test_a_queen_never_swaps_with_a_locked_layout(tmp_path: Path) -> None:
    """With ``protect_caller = true`` nobody exchanges with the caller: the Queen aims only at the
    others (``exchanges = True``)."""
    f = tmp_path / "protected.toml"
    f.write_text('name = "spy-protected"\nextends = "french-spy"\n[rules.call]\nprotect_caller = true\n')
    g = deal([P0, P1, ["7S", "8S", "9S", "10S"]], ["3S", "QH", "4S"], variant=tamalou.load_variant(str(f)))
    draw_and_throw(g)
    g.apply(tamalou.Call(0))
    draw_and_throw(g)  # player 1 throws the Queen
    assert g.phase == "power" and g.current_player == 1
    powers = [a for a in g.legal_actions(1) if isinstance(a, Power)]
    assert powers and {a.target for a in powers} == {2}
    assert_refused(g, Power(1, slot=0, target=0, target_slot=0), "player 0 cannot be targeted now")


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (Power(0, target=1, target_slot=0), "spy_swap_look needs one of your own occupied slots"),
        (Power(0, slot=9, target=1, target_slot=0), "spy_swap_look needs one of your own occupied slots"),
        (Power(0, slot=0, target=0, target_slot=1), "'target' must be an opponent"),
        (Power(0, slot=0, target=1, target_slot=9), "slot 9 of player 1 holds no card"),
        (Power(0, slot=0, target=1, target_slot=0, owner=1), "spy_swap_look needs one of your own occupied slots"),
    ],
)
def test_spy_swap_look_refusals_leave_the_game_untouched(action: object, why: str) -> None:
    g = deal([P0, P1], ["QH", "3S"])
    draw_and_throw(g)
    assert_refused(g, action, why)


def test_the_powers_are_the_public_api() -> None:
    assert issubclass(SpyPeekAny, tamalou.CardPower) and issubclass(SpySwapLook, tamalou.CardPower)
    assert SpySwapLook.exchanges and not SpyPeekAny.exchanges


# ------------------------------------------------------------------------------------- random games


@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_keep_every_invariant(players: int) -> None:
    """Random games to the end, every invariant checked at every step."""
    for seed in range(4):
        g = inv.random_playout(RULESET, players=players, seed=seed, check_every=1)
        inv.check_result(g)
        inv.check_replay(g)


def test_random_games_use_both_powers() -> None:
    """The random games above do reach the spy powers: both are offered and used."""
    used: set[str] = set()
    for seed in range(40):
        g = inv.random_playout(RULESET, players=4, seed=seed)
        events = g.events_so_far()
        for e, after in itertools.pairwise(events):
            if e.type == "power_offered" and after.type in ("looked", "swapped"):
                used.add(e["power"])
    assert {"spy_peek_any", "spy_swap_look"} <= used


def test_verify() -> None:
    report = inv.verify(RULESET, games=20)
    assert report.ok, report


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games(RULESET, max_actions=80))
def test_hypothesis_games_keep_knowledge_exact(game: tamalou.Game) -> None:
    inv.check_conservation(game)
    inv.check_knowledge(game)
    for p in range(game.players):
        inv.check_no_leak(game, p)
