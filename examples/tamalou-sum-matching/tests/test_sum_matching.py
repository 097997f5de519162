"""Sum matching on French Tamalou (``french-sum-matching``), from stacked deals.

A deal: ``hands`` per seat (slot 0 first), ``stock`` top first, ``discard`` bottom first; seat 0
plays first. French: every player knows their slots 0 and 1 from the deal; the card turned up at the
deal can be matched at once; a 10 peeks at an opponent's card (optional); 3 cards at most per
thrown card; one penalty card per miss.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from pathlib import Path

import pytest
import tamalou
from tamalou import Call, Discard, Draw, Event, IllegalAction, MatchAction, Pass, Round
from tamalou import verify as checks
from tamalou.engine import new_round

from tamalou_sum_matching import SumMatch

RULESET = "french-sum-matching"
RANDOM_GAMES = 12


def deal(
    hands: Sequence[Sequence[str]], stock: Sequence[str], discard: Sequence[str] = (), variant: object = RULESET
) -> Round:
    spec = {"hands": [list(h) for h in hands], "stock": list(stock), "discard": list(discard)}
    g = new_round(variant, players=len(hands), deal=spec, first_player=0, seed=1)  # type: ignore[arg-type]
    assert g.phase == "draw" and g.current_player == 0
    return g


def facts(events: list[Event]) -> list[tuple[str, dict[str, object]]]:
    return [(e.type, e.data) for e in events]


def sums(g: Round, p: int) -> set[tuple[int, ...]]:
    return {a.slots for a in g.legal_actions(p) if isinstance(a, SumMatch)}


def assert_refused(g: Round, action: object, why: str | None) -> None:
    """Refused (with ``why`` in the message, if given), the game exactly as before."""
    before = g.to_json()
    with pytest.raises(IllegalAction, match=why):
        g.apply(action)  # type: ignore[arg-type]
    assert g.to_json() == before


def card_id(g: Round, text: str) -> int:
    return g.text.index(text)


# A player with a 6 and a 4 in slots 0 and 1 (known to them), the 10 of hearts turned up.
P0 = ["AC", "2C", "3C", "5C"]
P1 = ["6S", "4D", "KH", "2D"]
STOCK = ["5H", "3S", "2S", "3D"]


def test_the_ruleset_is_registered() -> None:
    assert "french-sum-matching" in tamalou.variant_names()
    v = tamalou.load_variant("sum-matching")
    assert v.name == RULESET and "tamalou_sum_matching" in v.plugins
    assert v.rules.powers.ranks["10"] == "peek_opponent"  # the rest is French


def test_a_right_sum_takes_both_cards() -> None:
    """On a 10, a 6 and a 4 go down together, the second on top; both face up for everyone."""
    g = deal([P0, P1], STOCK, ["10H"])
    events = g.apply(SumMatch(1, (0, 1)))
    assert facts(events) == [("sum_matched", {"player": 1, "slots": [0, 1], "cards": ["6S", "4D"], "on": "10H"})]
    assert g.layout(1) == [None, None, "KH", "2D"]
    assert g.view(0).discard == ["10H", "6S", "4D"]
    for text in ("6S", "4D"):
        assert all(g.knows(p, card_id(g, text)) for p in (0, 1))
    window = g.state_of("matching")
    assert window.win_by == 1 and window.tried == [0, 2]
    assert g.phase == "draw" and g.current_player == 0  # an out-of-turn move: the turn is unchanged
    assert g.total(1) == 0 + 2


def test_the_order_says_which_card_ends_on_top() -> None:
    g = deal([P0, P1], STOCK, ["10H"])
    g.apply(SumMatch(1, (1, 0)))
    assert g.view(0).discard == ["10H", "4D", "6S"]


def test_a_wrong_sum_is_a_miss() -> None:
    """6 + 2 on a 10: both cards are shown and go back; one penalty card, seen by nobody."""
    g = deal([P0, P1], STOCK, ["10H"])
    events = g.apply(SumMatch(1, (0, 3)))
    assert facts(events) == [
        ("sum_missed", {"player": 1, "slots": [0, 3], "cards": ["6S", "2D"], "on": "10H"}),
        ("penalty", {"player": 1, "slot": 4}),
    ]
    assert g.layout(1) == ["6S", "4D", "KH", "2D", "5H"]
    assert g.view(0).discard == ["10H"]
    assert g.view(0).hands[1][0].card == "6S" and g.view(0).hands[1][3].card == "2D"  # player 0 saw them
    assert g.view(0).hands[1][1].card is None  # the 4 was not shown
    penalty = card_id(g, "5H")
    assert not any(g.knows(p, penalty) for p in (0, 1))
    window = g.state_of("matching")
    assert window.win_by == -1 and window.tried == [0, 2]  # the 10 is still there to take


def test_the_penalty_is_the_rulesets_matching_penalty(tmp_path: Path) -> None:
    """With ``penalty_cards = 2`` a wrong sum costs two cards: one miss, the ruleset's penalty."""
    f = tmp_path / "two.toml"
    f.write_text('name = "sums-two"\nextends = "french-sum-matching"\n[rules.matching]\npenalty_cards = 2\n')
    g = deal([P0, P1], STOCK, ["10H"], variant=tamalou.load_variant(str(f)))
    events = g.apply(SumMatch(1, (0, 3)))
    assert [e.type for e in events] == ["sum_missed", "penalty", "penalty"]
    assert g.layout(1) == ["6S", "4D", "KH", "2D", "5H", "3S"]


def test_values_count_not_ranks() -> None:
    """French values: a Jack is worth 10 (a 6 and a 4 take it), a red King 0 (a King of hearts and a
    5 take a 5)."""
    g = deal([P0, P1], STOCK, ["JH"])
    assert [e.type for e in g.apply(SumMatch(1, (0, 1)))] == ["sum_matched"]
    g = deal([P0, ["KH", "5D", "6S", "4D"]], ["5S", *STOCK])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))  # the 5 of spades: 5 has no French power
    assert [e.type for e in g.apply(SumMatch(1, (0, 1)))] == ["sum_matched"]
    assert g.layout(1) == [None, None, "6S", "4D"]


def test_every_pair_is_listed_whatever_the_cards() -> None:
    """Both players are offered every ordered pair of their own slots, right sum or not: what is
    listed never depends on face-down cards."""
    g = deal([P0, P1], STOCK, ["10H"])
    every = set(permutations(range(4), 2))
    assert sums(g, 0) == every and sums(g, 1) == every
    assert all(tamalou.parse_action(a.to_dict()) == a for a in g.legal_actions(1) if isinstance(a, SumMatch))


def test_the_window_is_matchings() -> None:
    """Once somebody else took the thrown card, or the card left the discard, nothing is listed and
    the move is refused."""
    g = deal([P0, P1], STOCK, ["10H"])
    g.apply(SumMatch(1, (0, 1)))
    assert sums(g, 0) == set()
    assert_refused(g, SumMatch(0, (0, 1)), "player 1 already took the thrown card")
    g = deal([P0, P1], STOCK, ["10H"])
    g.apply(Draw(0, "discard"))  # the 10 is taken back into a layout: no window
    assert sums(g, 1) == set()
    assert_refused(g, SumMatch(1, (0, 1)), "no thrown card")


def test_a_sum_counts_as_two_of_the_cards_thrown_on_one_card() -> None:
    """French: at most 3 cards per thrown card. After one match a sum still fits; after a sum, a
    single match does, a second sum does not."""
    g = deal([P0, ["10S", "6S", "4D", "2D"]], STOCK, ["10H"])
    g.apply(MatchAction(1, (0,)))
    assert sums(g, 1) == set(permutations([1, 2, 3], 2))
    g.apply(SumMatch(1, (1, 2)))
    assert g.state_of("matching").tried == [0, 3]
    assert sums(g, 1) == set()
    g = deal([P0, ["6S", "4D", "10S", "2D"]], STOCK, ["10H"])
    g.apply(SumMatch(1, (0, 1)))
    assert sums(g, 1) == set()
    assert MatchAction(1, (2,)) in g.legal_actions(1)
    assert_refused(g, SumMatch(1, (2, 3)), "you may throw 1 more")


def test_one_card_per_thrown_card_leaves_no_room_for_a_sum(tmp_path: Path) -> None:
    f = tmp_path / "one.toml"
    f.write_text('name = "sums-one"\nextends = "french-sum-matching"\n[rules.matching]\nmax_cards = 1\n')
    g = deal([P0, P1], STOCK, ["10H"], variant=tamalou.load_variant(str(f)))
    assert sums(g, 1) == set()
    assert_refused(g, SumMatch(1, (0, 1)), "a sum match throws 2 cards")


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (SumMatch(1, (0, 0)), "two different slots"),
        (SumMatch(1, (0,)), "two different slots"),
        (SumMatch(1, (0, 1, 2)), "two different slots"),
        (SumMatch(1, (0, 7)), "slot 7 of player 1 holds no card"),
        (SumMatch(2, (0, 1)), "no player 2"),
        ({"type": "sum_match", "player": 1, "slots": [0, 1], "extra": 1}, None),
        ({"type": "sum_match", "player": 1, "slots": "01"}, None),
    ],
)
def test_refusals_leave_the_game_untouched(action: object, why: str | None) -> None:
    g = deal([P0, P1], STOCK, ["10H"])
    assert_refused(g, action, why)


def test_an_emptied_slot_is_refused() -> None:
    g = deal([P0, P1], STOCK, ["10H"])
    g.apply(SumMatch(1, (0, 1)))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))  # a 5: a new window
    assert sums(g, 1) == {(2, 3), (3, 2)}
    assert_refused(g, SumMatch(1, (0, 2)), "slot 0 of player 1 holds no card")


def test_the_json_form() -> None:
    tamalou.load_variant(RULESET)  # a plugin's action types are known once a ruleset naming the plugin is loaded
    a = tamalou.parse_action({"type": "sum_match", "player": 1, "slots": [0, 3]})
    assert a == SumMatch(1, (0, 3))
    assert a.to_dict() == {"type": "sum_match", "player": 1, "slots": [0, 3]}
    assert "sum_match" in str(tamalou.action_json_schema())


def test_a_sum_in_the_closing_window_ends_the_round() -> None:
    """Player 0 calls; player 1's last turn throws a 10; in the closing window player 0 throws a 6 and
    a 4 on it: the card is taken, nobody else may match it, the round ends."""
    g = deal([["6S", "4D", "AC", "2C"], ["3H", "5S", "9C", "8D"]], ["5C", "10H", "2S", "3D"], ["2H"])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(Call(0))
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))  # the 10: its power (peek at an opponent's card) is declined
    g.apply(Pass(1))
    assert g.phase == "closing" and g.current_player == 0
    assert (0, 1) in sums(g, 0) and (0, 1) in sums(g, 1)
    events = g.apply(SumMatch(0, (0, 1)))
    assert [e.type for e in events] == ["sum_matched", "round_over"]
    result = g.result()
    assert result.reason == "called" and list(result.totals) == [3, 25] and list(result.winners) == [0]


def test_a_miss_in_the_closing_window_uses_the_players_last_chance() -> None:
    g = deal([["6S", "3D", "AC", "2C"], ["3H", "5S", "9C", "8D"]], ["5C", "10H", "2S", "4D"], ["2H"])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(Call(0))
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))
    g.apply(Pass(1))
    events = g.apply(SumMatch(0, (0, 1)))
    assert [e.type for e in events] == ["sum_missed", "penalty"]
    assert g.phase == "closing" and g.current_player == 1  # player 1 may still match or pass
    assert sums(g, 0) == set()
    assert_refused(g, SumMatch(0, (2, 3)), "you have had your last chance")
    g.apply(Pass(1))
    assert list(g.result().totals) == [6 + 3 + 1 + 2 + 2, 25]  # the penalty card was the 2 of spades


# ------------------------------------------------------------------------------------- random games


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_games_keep_every_invariant(players: int) -> None:
    """Random games to the end with every invariant checked at every step (conservation, exact
    knowledge, no leak, listed = accepted, refusals change nothing, snapshots, replay)."""
    seen: set[str] = set()
    for seed in range(RANDOM_GAMES // 4):
        g = checks.random_playout(RULESET, players=players, seed=seed, check_every=1)
        assert g.is_over
        checks.check_result(g)
        checks.check_replay(g)
        seen |= {e.type for e in g.events_so_far()}
    assert {"sum_matched", "sum_missed"} <= seen  # the move was played, both ways


def test_verify() -> None:
    report = checks.verify(RULESET, games=RANDOM_GAMES)
    assert report.ok, report
    assert report.games == RANDOM_GAMES


def test_opponent_matching_keeps_its_invariants() -> None:
    """With the opponent-matching modifier, sum matching still throws only one's own cards."""
    report = checks.verify([RULESET, "opponent-matching"], games=6)
    assert report.ok, report


# ------------------------------------------------------------------- other matching keys of the ruleset


def _with(tmp_path: Path, name: str, keys: str) -> tamalou.Variant:
    """``french-sum-matching`` with ``keys`` under ``[rules.matching]`` (skipped where the installed
    tamalou does not know them)."""
    known = tamalou.Variant.model_fields["rules"].annotation.model_fields["matching"].annotation.model_fields  # type: ignore[union-attr]
    for line in keys.splitlines():
        key = line.split("=")[0].strip()
        if key and key not in known:
            pytest.skip(f"this tamalou has no rules.matching.{key}")
    f = tmp_path / f"{name}.toml"
    f.write_text(f'name = "{name}"\nextends = "french-sum-matching"\n[rules.matching]\n{keys}\n')
    return tamalou.load_variant(str(f))


def test_every_right_sum_counts_without_a_race(tmp_path: Path) -> None:
    """``race = false``: nobody takes the thrown card; a second right sum on it counts too."""
    v = _with(tmp_path, "sums-no-race", "race = false")
    g = deal([["7C", "3C", "AC", "5C"], P1], STOCK, ["10H"], variant=v)
    assert [e.type for e in g.apply(SumMatch(1, (0, 1)))] == ["sum_matched"]
    assert g.state_of("matching").win_by == -1
    assert (0, 1) in sums(g, 0)
    assert [e.type for e in g.apply(SumMatch(0, (0, 1)))] == ["sum_matched"]
    assert g.layout(0) == [None, None, "AC", "5C"] and g.layout(1) == [None, None, "KH", "2D"]


def test_a_penalty_cap_spares_cards(tmp_path: Path) -> None:
    """``penalty_cap = 4``: a wrong sum by a player who holds 4 cards costs nothing more."""
    v = _with(tmp_path, "sums-capped", "penalty_cap = 4")
    g = deal([P0, P1], STOCK, ["10H"], variant=v)
    events = g.apply(SumMatch(1, (0, 3)))
    assert facts(events)[1:] == [("penalty_capped", {"player": 1, "cap": 4, "spared": 1})]
    assert g.layout(1) == P1


def test_a_window_after_the_power(tmp_path: Path) -> None:
    """``window = "after_power"``: the thrown card is matched in the phase ``window``, where sums are
    listed to the players it waits for; a player who passed may not throw any more."""
    v = _with(tmp_path, "sums-after-power", 'window = "after_power"')
    g = deal([P0, ["2D", "3H", "KH", "6S"]], ["5D", *STOCK[1:]], ["2H"], variant=v)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))  # a 5: no power in French; its window opens at once
    assert g.phase == "window"
    assert (0, 1) in sums(g, 1) and (0, 1) in sums(g, 0)
    g.apply(Pass(0))
    assert sums(g, 0) == set()
    assert_refused(g, SumMatch(0, (0, 1)), "you have passed on this card's window")
    events = g.apply(SumMatch(1, (1, 0)))
    assert facts(events) == [("sum_matched", {"player": 1, "slots": [1, 0], "cards": ["3H", "2D"], "on": "5D"})]
    assert g.phase == "window"  # player 1 may throw one more card, or pass
    g.apply(Pass(1))
    assert g.phase != "window" and g.layout(1) == [None, None, "KH", "6S"]
