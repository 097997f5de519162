"""A match played on stacked deals (``tamalou.new_match(..., deals=[...])``): round ``i`` is laid out as ``deals[i]``,
a stacked deal as ``new_game``'s ``deal`` takes one, so that a scenario test of a ruleset of several rounds reads
its cards instead of playing a seeded match. Every deal is checked before anything is dealt, and a wrong one is
refused by its index and its round, in ``new_game``'s words. Past the last stacked deal the rounds are dealt from
the seed: every round's seed is drawn from the match's generator, a stacked round's too, so those rounds are the
very rounds of the same seed without deals. The deals are the match's: its snapshot holds them (only when there
are some), and a restored, copied or pickled match, ``replay_match`` and ``events_so_far`` deal them again.

Deals are written as the scenario tests write them: ``hands`` per seat (slot 0 first), ``stock`` top first,
``discard`` bottom first. French values (``multi-round`` is French): A = 1, 2 to 10 their number, J and Q 10,
red kings 0, black kings 15; a caller scores 0 if they won the round (at or under 5 and strictly lowest), else
their total + 10. The first player of a round calls at the end of their first turn (they draw from the stock and
throw the card, 5C, 6C... have no power); everybody else plays one quiet turn and the round is over.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

import scenario
import tamalou
from tamalou import Call, Discard, Draw, Match, Pass, SetupError, SnapshotError, round_of

#: A house ruleset of two rounds, seat 0 first (then one seat on each round, as ``multi-round`` moves it).
TWO_ROUNDS = tamalou.variant_from_toml(
    'name = "two-rounds"\nextends = "multi-round"\n[rules.rounds]\ncount = 2\n[rules.deal]\nfirst_player = 0\n'
)
#: The same, ended as soon as a cumulative score passes 20 (at most 2 rounds all the same).
TO_20 = tamalou.variant_from_toml(
    'name = "to-20"\nextends = "multi-round"\n[rules.rounds]\nform = "points"\nlimit = 20\nmax_rounds = 2\n'
    "[rules.deal]\nfirst_player = 0\n"
)
QUIET = ["5C", "6C", "5D", "6D", "5H", "6H", "5S", "6S"]  # no power in French nor in Cambia

#: Round 0, seat 0 first: seat 0 has 1 + 2 + 0 + 0 = 3 and calls; seat 1 has 5 + 6 + 8 + 9 = 28.
FIRST = {"hands": [["AS", "2S", "KH", "KD"], ["5H", "6H", "8C", "9C"]], "stock": QUIET[:3], "discard": ["3D"]}
#: Round 1, seat 1 first: seat 1 has 1 + 1 + 2 + 2 = 6 and calls (over 5: lost); seat 0 has 10 + 10 + 10 + 9 = 39.
SECOND = {"hands": [["QS", "JS", "10S", "9S"], ["AH", "AD", "2H", "2D"]], "stock": QUIET[:3], "discard": ["3D"]}


def called_round(match: Match) -> list[tamalou.Event]:
    """The round in play: its first player calls at the end of their first turn, everybody else plays one quiet
    turn; the events each ``apply`` returned."""
    g = round_of(match.game)
    return scenario.calling_turn(g) + scenario.play_out(g)


def stacked_two_rounds() -> Match:
    return tamalou.new_match(TWO_ROUNDS, 2, seed=1, deals=[FIRST, SECOND])


# --------------------------------------------------------------------------------- the rounds are the deals


def test_two_stacked_rounds_are_dealt_as_written_and_their_scores_add_up() -> None:
    """Round 0: seat 0 calls with 3, wins and scores 0; seat 1 scores its 28. Round 1 (seat 1 first): seat 1 calls
    with 6, loses and scores 6 + 10 = 16; seat 0 scores its 39. Totals 39 and 44: seat 0 wins the match."""
    m = stacked_two_rounds()
    for deal in (FIRST, SECOND):
        g = round_of(m.game)
        assert [g.layout(p) for p in range(2)] == deal["hands"]
        assert g.view(0).discard_top == "3D" and g.view(0).stock_size == 3
        assert g.current_player == m.firsts[-1]
        called_round(m)
        m.next_round()
    assert m.firsts == [0, 1]
    assert m.scores == [[0, 28], [39, 16]]
    result = m.result()
    assert (result.totals, result.winners, result.rounds) == ([39, 44], [0], [[0, 28], [39, 16]])


def test_the_match_s_rules_score_stacked_rounds_too() -> None:
    """Cambia circuit (2 players: the round's first by card total gets -3 off their cumulative total; the first
    player moves one seat each round, by its hook): round 0, seat 0 holds 10 and seat 1 12; round 1, seat 0 holds
    J + 5 + 4 + joker = 20 and seat 1 3 + 4 + 8 + joker = 15. Cambia calls instead of drawing, the others play a
    quiet turn and let each thrown card's window pass. Totals: 10 + 20 - 3 = 27 and 12 + 15 - 3 = 24."""
    deals = [
        {"hands": [["AS", "2S", "3S", "4S"], ["AD", "2D", "3D", "6D"]], "stock": QUIET[:3], "discard": ["QS"]},
        {"hands": [["JD", "5C", "4C", "JK1"], ["3C", "4D", "8H", "JK2"]], "stock": QUIET[1:4], "discard": ["QS"]},
    ]
    m = tamalou.new_match("cambia-circuit", 2, seed=3, deals=deals)
    for _ in deals:
        g = round_of(m.game)
        caller = g.current_player
        g.apply(Call(caller))
        while not g.is_over:
            p = g.current_player
            if g.phase == "draw":
                g.apply(Draw(p, "stock"))
                g.apply(Discard(p))
            for q in list(g.to_act):  # the window of the thrown card: nobody snaps
                if not g.is_over and q in g.to_act and g.phase != "draw":
                    g.apply(Pass(q))
        assert g.result().caller == caller
        m.next_round()
    assert m.firsts[1] == (m.firsts[0] + 1) % 2
    assert m.scores[:2] == [[10, 12], [20, 15]]
    assert m.adjust == [[-3, 0], [0, -3]]
    assert m.totals() == [27, 24]


# --------------------------------------------------------------------------------- wrong deals


def new_game_says(deal: Any) -> str:
    """What ``new_game`` says of ``deal`` (a round of ``TWO_ROUNDS``)."""
    with pytest.raises(SetupError) as refused:
        tamalou.new_game(TWO_ROUNDS, 2, deal=deal)
    return str(refused.value)


@pytest.mark.parametrize(
    ("wrong", "why"),
    [
        ({**SECOND, "stock": ["AH"]}, "card AH appears 2 times but the deck holds it once"),
        ({**SECOND, "hands": [["QS", "JS"]]}, "the deal needs 'hands': one list of cards per player (2)"),
        ({**SECOND, "discard": ["ZS"]}, "bad card in the deal: unknown rank 'Z' in 'ZS'"),
        ({**SECOND, "stock": ["JK1"]}, "card JK1 is not in this deck (no jokers)"),
        ({**SECOND, "shuffle": True}, "a deal has 'hands', 'stock' and 'discard', not ['shuffle']"),
    ],
)
def test_a_wrong_deal_is_refused_by_its_index_and_round_before_anything_is_dealt(
    wrong: Any, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second deal is wrong: ``new_match`` itself refuses the match (the first round, whose deal is right, is
    never dealt), naming ``deals[1]`` and its round, then saying what ``new_game`` says of that deal."""
    dealt: list[object] = []
    monkeypatch.setattr(tamalou.match, "new_game", lambda *args, **kwargs: dealt.append(kwargs))
    with pytest.raises(SetupError) as refused:
        tamalou.new_match(TWO_ROUNDS, 2, seed=1, deals=[FIRST, wrong])
    monkeypatch.undo()
    assert dealt == []
    message = str(refused.value)
    assert message == f"deals[1], the deal of the 2nd round: {new_game_says(wrong)}"
    assert why in message


def test_a_deal_that_is_no_deal_more_deals_than_rounds_or_a_deal_alone_is_refused() -> None:
    """A deal is a dict (``new_game`` says so too, where the compiled core does not refuse its argument first); a
    match of 2 rounds takes 2 deals at most (a 'single' ruleset, 1); a deal given alone, not in a list, is no list
    of deals."""
    with pytest.raises(SetupError, match=r"^deals\[1\], the deal of the 2nd round: a deal is a dict with 'hands', "):
        tamalou.new_match(TWO_ROUNDS, 2, seed=1, deals=[FIRST, ["QS", "JS"]])
    with pytest.raises(SetupError, match=r"^3 deals for a match of at most 2 rounds \(rules.rounds\)$"):
        tamalou.new_match(TWO_ROUNDS, 2, seed=1, deals=[FIRST, SECOND, FIRST])
    with pytest.raises(SetupError, match=r"^2 deals for a match of at most 1 round \(rules.rounds\)$"):
        tamalou.new_match("french", 2, seed=1, deals=[FIRST, SECOND])
    with pytest.raises(SetupError, match=r"^deals is a list of stacked deals, one a round .* got \{'hands'"):
        tamalou.new_match(TWO_ROUNDS, 2, seed=1, deals=FIRST)  # type: ignore[arg-type]
    # Stacked deals are for scenarios of a few rounds: 100 at most, whatever the match's length.
    with pytest.raises(SetupError, match=r"^101 deals: a match takes at most 100 stacked deals$"):
        tamalou.new_match(TWO_ROUNDS, 2, seed=1, deals=[FIRST] * 101)


def test_deals_are_kept_as_a_snapshot_writes_them() -> None:
    """A card is kept as the deck writes it (``ts`` is ``10S``, ``1h`` is ``AH``) and a missing pile is empty;
    the match's deals are those, whatever is done later to the lists that were given."""
    given = {"hands": [["ts", " 1h", "kc", "2d"], ["3s", "4s", "5s", "6s"]]}
    m = tamalou.new_match(TWO_ROUNDS, 2, seed=1, deals=[given])
    written = {"hands": [["10S", "AH", "KC", "2D"], ["3S", "4S", "5S", "6S"]], "stock": [], "discard": []}
    assert m.deals == (written,)
    given["hands"][0][0] = "QS"
    assert m.deals == (written,) and round_of(m.game).layout(0) == written["hands"][0]
    assert json.loads(m.to_json())["deals"] == [written]


# --------------------------------------------------------------------------------- snapshots and replays


def test_a_match_restored_mid_round_goes_on_with_its_stacked_deals() -> None:
    """Saved in round 0 after seat 0 called: restored (checked against its replay too), copied or pickled, the
    match finishes round 0 and deals round 1 from ``SECOND``, and ends as the match that was never saved."""
    m = stacked_two_rounds()
    scenario.calling_turn(round_of(m.game))
    saved = m.to_json()
    assert json.loads(saved)["deals"] == [FIRST, SECOND]
    again = [
        Match.from_json(saved),
        Match.from_json(saved),
        copy.deepcopy(m),
        pickle.loads(pickle.dumps(m)),
    ]
    for match in [m, *again]:
        scenario.play_out(round_of(match.game))
        match.next_round()
        assert [round_of(match.game).layout(p) for p in range(2)] == SECOND["hands"]
        called_round(match)
        match.next_round()
        assert match.result().totals == [39, 44]
    assert all(match.to_json() == m.to_json() for match in again)
    replayed = tamalou.replay_match(TWO_ROUNDS, 2, seed=1, actions=m.actions, deals=m.deals)
    assert replayed.to_json() == m.to_json() and replayed.is_over


def test_events_so_far_deal_the_stacked_rounds_again() -> None:
    """Each round begins with its deal's events (the stacked cards: seat 0 peeks at AS and 2S in round 0, at QS
    and JS in round 1), then what each ``apply`` of it returned."""
    m = stacked_two_rounds()
    given: list[tamalou.Event] = []
    for _ in range(2):
        given += m.game.events_so_far()
        given += called_round(m)
        m.next_round()
    events = m.events_so_far()
    assert [(e.to_dict(), e.seen_by) for e in events] == [(e.to_dict(), e.seen_by) for e in given]
    peeks = [e for e in m.events_so_far(0) if e.type == "peeked" and e["player"] == 0]
    assert [e["cards"] for e in peeks] == [["AS", "2S"], ["QS", "JS"]]


def test_a_seeded_match_s_snapshot_has_no_deals_and_reads_as_before() -> None:
    """The field is saved only when there are deals: a match dealt from its seed is saved as before them, and such a
    snapshot restores as a match with none."""
    m = tamalou.new_match("multi-round", 3, seed=2)
    assert "deals" not in json.loads(m.to_json())
    assert Match.from_json(m.to_json()).deals == ()


def forged(**changes: Any) -> str:
    """The snapshot of ``stacked_two_rounds`` in round 0, with fields changed (``None``: the field left out)."""
    state = json.loads(stacked_two_rounds().to_json())
    state.update(changes)
    return json.dumps({k: v for k, v in state.items() if v is not None})


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"deals": [FIRST, {**SECOND, "stock": ["AH"]}]}, "deals\\[1\\], the deal of the 2nd round: .* card AH"),
        ({"deals": [FIRST, SECOND, FIRST]}, "3 deals for a match of at most 2 rounds"),
        ({"deals": []}, "deals: not as to_json writes them"),
        ({"deals": [{**FIRST, "discard": ["3d"]}, SECOND]}, "deals: not as to_json writes them"),
        ({"deals": [SECOND, FIRST]}, "the round in play is not dealt as the match deals it"),
        ({"deals": None}, "the round in play is not dealt as the match deals it"),
        ({"deals": FIRST}, "'deals': 'Input should be a valid list'"),
        ({"deals": [FIRST, "SECOND"]}, "'deals.1': 'Input should be a valid dictionary'"),
    ],
)
def test_a_snapshot_with_damaged_deals_is_a_snapshot_error(changes: dict[str, Any], why: str) -> None:
    """A deal the match would refuse, deals not written as ``to_json`` writes them, or deals that are not those of
    the round in play."""
    with pytest.raises(SnapshotError, match=f"^damaged match snapshot: .*{why}"):
        Match.from_json(forged(**changes))


# --------------------------------------------------------------------------------- more deals, fewer deals


def test_deals_beyond_the_rounds_played_are_never_dealt_and_still_saved() -> None:
    """First to pass 20: seat 1's 28 in round 0 ends the match. ``SECOND`` is never dealt; the match keeps it, and
    its snapshot restores it, over or not."""
    m = tamalou.new_match(TO_20, 2, seed=1, deals=[FIRST, SECOND])
    called_round(m)
    assert m.ends_with_this_round
    m.next_round()
    assert m.is_over and len(m.round_seeds) == 1 and m.result().totals == [0, 28]
    restored = Match.from_json(m.to_json())
    assert restored.deals == (FIRST, SECOND) and restored.is_over


def test_past_the_last_stacked_deal_the_rounds_are_those_of_the_seed() -> None:
    """``multi-round`` (5 rounds), two stacked: rounds 2, 3 and 4 are dealt from the seed, and are the very rounds
    2, 3 and 4 of the same seed without deals (their seeds and first players too), however rounds 0 and 1 went."""
    stacked = tamalou.new_match("multi-round", 2, seed=7, deals=[FIRST, SECOND])
    seeded = tamalou.new_match("multi-round", 2, seed=7)
    assert round_of(seeded.game).deal_spec is None
    for k in range(5):
        if k >= 2:
            assert round_of(stacked.game).deal_spec is None
            assert stacked.game.to_json() == seeded.game.to_json()
        else:
            assert round_of(stacked.game).deal_spec == [FIRST, SECOND][k]
        for match in (stacked, seeded):
            called_round(match)
            match.next_round()
    assert stacked.round_seeds == seeded.round_seeds and stacked.firsts == seeded.firsts
    assert stacked.is_over and stacked.result().rounds[2:] == seeded.result().rounds[2:]


# --------------------------------------------------------------------------------- what the match hooks read

#: An outside package's rule, as its plugin module writes it: the player who ended the previous round starts
#: the next (``MatchTally.enders``: the caller, else who began a last lap).
ENDER_STARTS = """
import tamalou


@tamalou.hookimpl
def tamalou_round_first_player(variant, match):
    return match.enders[-1] if match.enders else None
"""


def test_the_player_who_ended_the_previous_round_starts_the_next(tmp_path: Any) -> None:
    """Round 0 (seat 0 first): seat 0 calls and ends it, so seat 0 starts round 1 too (without the rule, seat 1
    would). The tally the hook read kept the whole result of round 0: caller 0, no last lap, ended by the call."""
    (tmp_path / "ender_starts.py").write_text(ENDER_STARTS, encoding="utf-8")
    (tmp_path / "ender-starts.toml").write_text(
        'extends = "multi-round"\nplugins = ["ender_starts"]\n'
        "[rules.rounds]\ncount = 2\n[rules.deal]\nfirst_player = 0\n",
        encoding="utf-8",
    )
    variant = tamalou.load_variant(tmp_path / "ender-starts.toml")
    m = tamalou.new_match(variant, 2, seed=1, deals=[FIRST, SECOND])
    called_round(m)
    m.next_round()
    assert m.firsts == [0, 0] and round_of(m.game).current_player == 0
    tally = m.tally()
    assert (tally.callers, tally.last_laps, tally.reasons, tally.enders) == ((0,), (None,), ("called",), (0,))
    assert tally.results[0] == m.results[0] and tally.results[0].scores == [0, 28]
    called_round(m)
    m.next_round()
    assert m.result().results == m.results and [r.caller for r in m.results] == [0, 0]
    # in snapshots: saved, restored (trusted or replayed) and read back from an older snapshot that had none
    again = Match.from_json(m.to_json())
    assert again.results == m.results and again.tally() == m.tally()
    older = json.loads(m.to_json())
    del older["results"]
    assert Match.from_json(json.dumps(older), trusted=True).results == m.results
