"""Scenario tests of the Cambia circuit (docs/rules/cambia-circuit.md): a match of Cambia rounds with
placement bonuses, the first player moving one seat left, and tie-breaks.

Rounds are stacked deals a reader can follow (``hands`` per seat, slot 0 first; ``stock`` top first;
``discard`` bottom first; seat 0 plays first): seat 0 calls Cambia instead of drawing and everyone
else plays a quiet last turn (draw from the stock, throw it — cards A to 6 have no power — and let the
snap window pass). A match's round in play is replaced by such a round before it is scored.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

import tamalou
from tamalou import Call, Discard, Draw, Pass, Round
from tamalou.engine import new_round
from tamalou.hookspecs import MatchTally
from tamalou.plugins import cambia_circuit

CIRCUIT = "cambia-circuit"
QUIET = ["5C", "6C", "5D", "6D", "5H", "6H", "5S", "6S"]


def called_round(variant: tamalou.Variant | str, hands: Sequence[Sequence[str]], caller: int | None = 0) -> Round:
    """Seat ``caller`` calls Cambia instead of drawing on their first turn; the others play quiet turns."""
    stock = [c for c in QUIET if all(c not in h for h in hands)][: len(hands) + 1]
    spec = {"hands": [list(h) for h in hands], "stock": stock, "discard": ["QS"]}
    g = new_round(variant, players=len(hands), deal=spec, first_player=0, seed=1)
    while not g.is_over:
        p = g.current_player
        if g.phase == "draw" and p == caller and g.caller is None:
            g.apply(Call(p))
        elif g.phase == "draw":
            g.apply(Draw(p, "stock"))
            g.apply(Discard(p))
        else:  # the snap window (or any other waiting phase): everyone lets it pass
            for q in list(g.to_act):
                if not g.is_over and q in g.to_act:
                    g.apply(Pass(q))
    assert g.result().caller == caller
    return g


def scored(m: tamalou.Match, hands: Sequence[Sequence[str]], caller: int | None = 0) -> list[int]:
    """The match's round in play becomes this stacked round; it is scored; the round's adjustments."""
    m.game = called_round(m.variant, hands, caller)
    m.next_round()
    return m.adjust[-1]


A4 = ["AS", "2S", "3S", "4S"]  # 10
A4H = ["AH", "2H", "3H", "4H"]  # 10
B12 = ["AD", "2D", "3D", "6D"]  # 12
C15 = ["3C", "4D", "8H", "JK2"]  # 15 (a joker 0)
D20 = ["JD", "5C", "4C", "JK1"]  # 20 (J is 11, a joker 0)


# --------------------------------------------------------------------------------- the match's length


def test_a_fixed_number_of_rounds_8_by_default() -> None:
    """Circuit: "a match of a fixed number of rounds, a multiple of 4 (default 8); each
    round's total is added up" """
    v = tamalou.load_variant(CIRCUIT)
    assert v.rules.rounds.form == "fixed" and v.rules.rounds.count == 8
    assert "tamalou.plugins.cambia_circuit" in v.plugins
    m = play_match(CIRCUIT, 3, seed=4)
    r = m.result()
    assert len(r.rounds) == 8
    assert r.totals == [sum(x) for x in zip(*r.rounds, *r.adjustments, strict=True)]


def test_a_count_that_is_not_a_multiple_of_4_is_refused(tmp_path: Path) -> None:
    """Circuit: "a multiple of 4" — another count is a VariantError naming the key."""
    for count, ok in ((6, False), (10, False), (4, True), (12, True)):
        f = tmp_path / f"c{count}.toml"
        f.write_text(f'name = "c{count}"\nbase = "cambia"\n[rules.rounds]\ncount = {count}\n')
        if ok:
            assert tamalou.load_variant([CIRCUIT, str(f)]).rules.rounds.count == count
        else:
            with pytest.raises(tamalou.VariantError, match=r"rules\.rounds\.count.*multiple of 4"):
                tamalou.load_variant([CIRCUIT, str(f)])


# --------------------------------------------------------------------------------- placement bonuses


def test_two_players_first_gets_minus_3() -> None:
    """Circuit: "with 2 players 1st −3" """
    m = tamalou.new_match(CIRCUIT, 2, seed=1)
    assert scored(m, [A4, B12]) == [-3, 0]
    assert m.scores[-1] == [10, 12] and m.totals() == [7, 12]


def test_three_or_four_players_first_minus_5_second_minus_2() -> None:
    """Circuit: "with 3–4 players 1st −5, 2nd −2" """
    m = tamalou.new_match(CIRCUIT, 3, seed=1)
    assert scored(m, [B12, A4, C15]) == [-2, -5, 0]
    m = tamalou.new_match(CIRCUIT, 4, seed=1)
    assert scored(m, [B12, A4, C15, D20]) == [-2, -5, 0, 0]
    assert m.totals() == [10, 5, 15, 20]


def test_five_or_more_players_first_minus_5_second_minus_2_third_minus_1() -> None:
    """Circuit: "with 5+ players 1st −5, 2nd −2, 3rd −1" """
    m = tamalou.new_match(CIRCUIT, 5, seed=1)
    hands = [C15, A4, D20, B12, ["7C", "7D", "7H", "8C"]]  # 15, 10, 20, 12, 29
    assert scored(m, hands) == [-1, -5, 0, -2, 0]


def test_the_caller_wins_ties_for_the_bonus() -> None:
    """Circuit: "The caller wins ties for the bonus" """
    m = tamalou.new_match(CIRCUIT, 3, seed=1)
    assert scored(m, [A4, A4H, C15]) == [-5, -2, 0]  # seat 0 called: first of the tie at 10


def test_two_tied_non_callers_both_get_the_better_places_bonus() -> None:
    """Circuit: "two tied non-callers both get the better place's bonus" — Decided: the
    next player's place counts them both (1st, 1st, then 3rd)."""
    m = tamalou.new_match(CIRCUIT, 5, seed=1)
    hands = [D20, A4, A4H, C15, ["7C", "7D", "7H", "8C"]]  # 20 (caller), 10, 10, 15, 29
    assert scored(m, hands) == [0, -5, -5, -1, 0]
    m = tamalou.new_match(CIRCUIT, 3, seed=1)
    assert scored(m, [C15, A4, A4H]) == [0, -5, -5]


def test_bonuses_are_subtracted_after_each_round() -> None:
    """Circuit: "after each round the placements get a bonus subtracted from the cumulative
    total" """
    m = tamalou.new_match(CIRCUIT, 2, seed=1)
    scored(m, [A4, B12])
    scored(m, [B12, A4])
    scored(m, [B12, A4])
    assert m.totals() == [10 + 12 + 12 - 3, 12 + 10 + 10 - 6]
    assert m.adjust == [[-3, 0], [0, -3], [0, -3]]


# --------------------------------------------------------------------------------- first player and winner


def test_the_first_player_moves_one_seat_left_each_round() -> None:
    """Circuit: "The first player moves one seat left each round." (left: the next seat
    in the order of play)"""
    m = play_match(CIRCUIT, 3, seed=9)
    firsts = m.result().first_players
    assert len(firsts) == 8
    assert firsts == [(firsts[0] + k) % 3 for k in range(8)]
    tally = MatchTally(
        players=4, scores=((1, 2, 3, 4),), winners=((0,),), adjustments=((0, 0, 0, 0),), first_players=(3,)
    )
    assert cambia_circuit.tamalou_round_first_player(None, tally) == 0  # type: ignore[arg-type]


def test_lowest_cumulative_total_wins() -> None:
    """Circuit: "Lowest cumulative total wins" """
    m = tamalou.new_match(CIRCUIT, 2, seed=1)
    for _ in range(7):
        scored(m, [A4, B12])
    assert not m.is_over
    scored(m, [B12, A4])
    assert m.is_over
    r = m.result()
    assert r.totals == [7 * 7 + 12, 7 * 12 + 7] and r.winners == [0] and r.ranking == [[0], [1]]


def _tally(scores: Sequence[Sequence[int]], adjustments: Sequence[Sequence[int]]) -> MatchTally:
    return MatchTally(
        players=len(scores[0]),
        scores=tuple(tuple(r) for r in scores),
        winners=tuple((0,) for _ in scores),
        adjustments=tuple(tuple(a) for a in adjustments),
        first_players=tuple(range(len(scores))),
    )


def test_ties_go_to_the_lowest_total_before_bonuses_then_the_lowest_single_round() -> None:
    """Circuit: "ties are broken by the lowest cumulative total before bonuses, then by the
    lowest single-round total." """
    rank = cambia_circuit.tamalou_match_rank
    # 25 each after bonuses; before them 30 and 25: seat 1 wins.
    assert rank(None, _tally([(10, 12), (20, 13)], [(-5, 0), (0, 0)])) == [[1], [0]]  # type: ignore[arg-type]
    # 30 each, before bonuses too; seat 0's best round is 10, seat 1's 15: seat 0 wins.
    assert rank(None, _tally([(10, 15), (20, 15)], [(0, 0), (0, 0)])) == [[0], [1]]  # type: ignore[arg-type]
    # Equal on all three: a shared place.
    assert rank(None, _tally([(10, 20, 20), (20, 10, 22)], [(0, 0, -2), (0, 0, 0)])) == [[0, 1], [2]]  # type: ignore[arg-type]
    # Through a match: seat 0 wins six rounds (a tie at 10 goes to the caller), seat 1 two (10 against
    # 16): 92 - 18 = 74 and 80 - 6 = 74; before bonuses 92 and 80: seat 1 wins.
    m = tamalou.new_match(CIRCUIT, 2, seed=1)
    for _ in range(6):
        assert scored(m, [A4, A4H]) == [-3, 0]
    for _ in range(2):
        assert scored(m, [["4S", "5S", "3S", "4C"], A4H]) == [0, -3]
    r = m.result()
    assert r.totals == [74, 74] and r.winners == [1] and r.ranking == [[1], [0]]


# --------------------------------------------------------------------------------- the hooks over other bases


def play_match(variant: str | Sequence[str], players: int, seed: int) -> tamalou.Match:
    """A match played to its end by random legal moves (a call now and then, after a few turns)."""
    rng = random.Random(seed)
    m = tamalou.new_match(variant, players, seed=seed)
    while True:
        g = m.game
        while not g.is_over:
            p = rng.choice([q for q in range(players) if g.legal_actions(q)])
            options = g.legal_actions(p)
            calls = [a for a in options if isinstance(a, Call)]
            keep = calls if calls and g.turn > 3 * players and rng.random() < 0.3 else options
            g.apply(rng.choice([a for a in keep if a not in calls] or keep))
        m.next_round()
        if m.is_over:
            return m


def expected_bonuses(totals: Sequence[int], caller: int | None) -> list[int]:
    """The circuit's bonuses written out: places by total, the caller before equal totals, equal
    non-callers share a place (1, 1, 3)."""
    n = len(totals)
    table = {2: [3]}.get(n, [5, 2] if n <= 4 else [5, 2, 1])
    out = []
    for p in range(n):
        ahead = sum(
            1 for q in range(n) if totals[q] < totals[p] or (totals[q] == totals[p] and q == caller and p != caller)
        )
        out.append(-table[ahead] if ahead < len(table) else 0)
    return out


@pytest.mark.parametrize("spec", [CIRCUIT, ["cambia", CIRCUIT], ["french", CIRCUIT]], ids=str)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_matches_apply_the_bonuses_and_round_trip(spec: str | list[str], players: int) -> None:
    """Random matches (over cambia and, as a composition, over french): the adjustments are the bonuses
    of each round's totals and caller; snapshots restore and replay."""
    rng = random.Random(players)
    m = tamalou.new_match(spec, players, seed=players)
    results = []
    while not m.is_over:
        g = m.game
        while not g.is_over:
            p = rng.choice([q for q in range(players) if g.legal_actions(q)])
            options = g.legal_actions(p)
            calls = [a for a in options if isinstance(a, Call)]
            keep = calls if calls and g.turn > 3 * players and rng.random() < 0.3 else options
            g.apply(rng.choice([a for a in keep if a not in calls] or keep))
        results.append(g.result())
        m.next_round()
        text = m.to_json()
        assert tamalou.Match.from_json(text).to_json() == text
    r = m.result()
    assert len(r.rounds) == 8
    assert r.adjustments == [expected_bonuses(x.totals, x.caller) for x in results]
    assert r.first_players == [(r.first_players[0] + k) % players for k in range(8)]
    assert tamalou.replay_match(spec, players, seed=players, actions=m.actions).result() == r


def test_a_match_snapshot_without_the_new_fields_still_restores() -> None:
    """Match snapshots written before adjustments and first players were kept restore: no adjustment,
    the first player moving one seat each round."""
    m = tamalou.new_match("multi-round", 3, seed=2)
    rng = random.Random(2)
    for _ in range(2):
        g = m.game
        while not g.is_over:
            p = g.to_act[0]
            options = g.legal_actions(p)
            calls = [a for a in options if isinstance(a, Call)]
            g.apply(calls[0] if calls and g.turn > 6 else rng.choice([a for a in options if a not in calls]))
        m.next_round()
    state = json.loads(m.to_json())
    assert state["adjust"] == [[0, 0, 0], [0, 0, 0]] and len(state["firsts"]) == 3
    del state["adjust"], state["firsts"]
    again = tamalou.Match.from_json(json.dumps(state))
    assert again.totals() == m.totals() and again.to_json() == m.to_json()
    state["firsts"] = [0, 0, 0]
    with pytest.raises(tamalou.SnapshotError):
        tamalou.Match.from_json(json.dumps(state))


def test_a_match_hook_answering_nonsense_is_a_plugin_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match hooks' answers are checked: one integer per player, a seat, every player ranked once;
    a wrong one is a PluginError naming the plugin and the hook, and the round stays unscored."""
    (tmp_path / "h3_bad_match_hooks.py").write_text(
        "import tamalou\n\n@tamalou.hookimpl\ndef tamalou_match_adjust(variant, match, result):\n    return [1]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    f = tmp_path / "bad.toml"
    f.write_text('name = "bad"\nextends = "cambia-circuit"\nplugins = ["h3_bad_match_hooks"]\n')
    m = tamalou.new_match(tamalou.load_variant(f), 2, seed=1)
    m.game = called_round(m.variant, [A4, B12])
    with pytest.raises(tamalou.PluginError, match="tamalou_match_adjust") as info:
        m.next_round()
    assert "h3_bad_match_hooks" in str(info.value)
    assert m.scores == [] and m.adjust == [] and not m.is_over
