"""The checks of what each seat receives (``event_leak``, ``opaque_ids``), of the fields of events
(``event_schema``), of knowledge that follows moves (``knowledge_follows_moves``), of turns that come back to
a state they were in (``termination``'s cycles) and of determinism across processes.

Each check holds on every built-in ruleset (random games, in every style of ``tamalou verify``, the liveness
styles included), and each is shown here catching a bug of its kind in a game built by hand; the broken
plugins that ``tamalou verify`` catches from the command line are in ``test_verify_catches_bugs.py``.
The module is ``scaled``: more games per ruleset in the deep tier.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

import tiers
from tamalou import Event
from tamalou.engine import Round, new_round
from tamalou.resolver import resolve
from tamalou.verify import (
    INVARIANTS,
    InvariantViolation,
    PlayStyle,
    RandomChooser,
    SentEvents,
    TurnWatch,
    check_event_leaks,
    check_event_schema,
    check_events_kept,
    check_moves_known,
    check_opaque_ids,
    check_played_turns,
    check_run_determinism,
    choose_action,
    event_bound,
    exchange_ids,
    places,
    style_of,
)
from tamalou.verify.bounds import CYCLE_FROM
from tamalou.verify.determinism import RunDeterminism

pytestmark = pytest.mark.scaled

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p.stem for p in (ROOT / "variants").glob("*.toml"))
BROKEN = ROOT / "tests" / "data" / "broken"
GAMES = tiers.sized(fast=4, deep=6)


def _games(name: str) -> list[tuple[int, int]]:
    v = resolve(name)
    lo, hi = v.rules.players.min, v.rules.players.max
    return [(seed, lo + seed % (hi - lo + 1)) for seed in range(GAMES)]


@pytest.mark.parametrize("name", RULESETS)
def test_the_built_in_rulesets_keep_the_checks_of_what_seats_receive(name: str) -> None:
    """Every step of random games (liveness styles included: seeds 5, 15... always use the power, throw the card
    drawn, pass) keeps ``event_schema``, ``knowledge_follows_moves`` and ``TurnWatch``; every fourth state keeps
    ``event_leak`` and ``opaque_ids``."""
    v = resolve(name)
    for seed, players in [*_games(name), (5, v.rules.players.min), (15, v.rules.players.min)]:
        g = Round(v, players, seed=seed)
        events = g.start()
        check_event_schema(g, events)
        sent = SentEvents(g)
        sent.add(g, events)
        chooser, style, watch = RandomChooser(random.Random(seed)), style_of(seed), TurnWatch(g)
        while not g.is_over:
            if len(g.actions) % 4 == 0:
                check_event_leaks(g)
                check_opaque_ids(g)
            action = choose_action(g, chooser, style)
            where, knew = places(g), list(g.knowers)
            events = g.apply(action)
            check_event_schema(g, events)
            sent.add(g, events)
            check_moves_known(g, where, knew, events)
            assert watch.step(g) is None, f"{name} seed {seed}: a cycle"
        check_played_turns(g)
        sent.check(g)


def test_exchanging_ids_keeps_the_table_a_seat_sees() -> None:
    g = new_round("french", players=3, seed=2)
    unknown = [c for hand in g.hands[1:] for c in hand if not g.knows(0, c)]
    a, b = unknown[0], unknown[-1]
    h = exchange_ids(g, a, b)
    assert h.view(0) == g.view(0) and h.legal_actions(0) == g.legal_actions(0)
    assert [h.text[c] for hand in h.hands for c in hand] == [g.text[c] for hand in g.hands for c in hand]
    assert h.hands != g.hands  # the same faces, under other ids
    assert g.text[a] != h.text[a]  # and the original is untouched: exchange_ids made a copy
    assert g.to_json() == new_round("french", players=3, seed=2).to_json()


def test_event_leak_catches_a_card_told_to_everybody(monkeypatch: pytest.MonkeyPatch) -> None:
    """An event that carries, in its public facts, the face of a card seat 1 does not know (seat 0's first card,
    which only seat 0 peeked at)."""
    g = new_round("french", players=2, seed=4)
    secret = g.hands[0][0]
    assert not g.knows(1, secret)
    original = Round.apply

    def apply(self: Round, action: object) -> list[Event]:
        events = original(self, action)  # type: ignore[arg-type]
        return [*events, Event("told", {"player": 0, "card": self.text[self.hands[0][0]]})]

    monkeypatch.setattr(Round, "apply", apply)
    with pytest.raises(InvariantViolation, match="changes the events they receive") as caught:
        check_event_leaks(g, random.Random(0), actions=4, pairs=8)
    assert caught.value.invariant == "event_leak"


def test_opaque_ids_catches_an_id_in_an_event(monkeypatch: pytest.MonkeyPatch) -> None:
    g = new_round("french", players=2, seed=4)
    original = Round.apply

    def apply(self: Round, action: object) -> list[Event]:
        events = original(self, action)  # type: ignore[arg-type]
        return [*events, Event("pointed", {"player": 0, "card_id": self.hands[1][0]})]

    monkeypatch.setattr(Round, "apply", apply)
    check_event_leaks(g, random.Random(0), actions=4, pairs=8)  # faces exchanged: the id stays, nothing shows
    with pytest.raises(InvariantViolation, match="exchanging the ids") as caught:
        check_opaque_ids(g, random.Random(0), actions=4, pairs=8)
    assert caught.value.invariant == "opaque_ids"


def test_event_schema_catches_a_slot_past_the_end_a_seat_and_a_card_that_do_not_exist() -> None:
    g = new_round("french", players=2, seed=1)
    check_event_schema(g, [Event("given", {"player": 1, "slot": 3})])
    for facts, says in [
        ({"player": 1, "slot": 4}, "slot 4 of player 1, whose layout has slots 0 to 3"),
        ({"player": 2}, "player = 2 is not a seat"),
        ({"player": 0, "owner": 1, "slots": [0, 9]}, "slot 9 of player 1"),
        ({"player": 0, "target": 1, "target_slot": -1}, "slot -1 of player 1"),
        ({"player": 0, "card": "ZZ"}, "'ZZ' is not a card"),
    ]:
        with pytest.raises(InvariantViolation, match=says) as caught:
            check_event_schema(g, [Event("odd", facts)])
        assert caught.value.invariant == "event_schema"


def test_events_kept_catches_an_event_changed_after_it_was_sent() -> None:
    """An event whose facts change after the step returned it (a mechanic's own list, put in it) is named, with its
    step and the field; an event as it was sent passes."""
    g = new_round("french", players=2, seed=1)
    sent = SentEvents(g)
    throws = [[0, 1]]
    sent.add(g, [Event("recap", {"throws": throws}), Event("turn", {"player": 0, "turn": 0})])
    sent.check(g)
    throws.append([1, 1])  # the mechanic appends to its list: the event sent grows with it
    with pytest.raises(InvariantViolation, match=r"'recap' of the deal changed after it was sent.*length 1 -> 2"):
        sent.check(g)


def test_events_kept_bounds_an_event_s_size_by_the_game_s_cards() -> None:
    """An event holds at most 1,000 characters of JSON and 20 per card of the game: 2,040 with one deck."""
    g = new_round("french", players=2, seed=1)
    assert event_bound(g) == 1_000 + 20 * 52
    sent = SentEvents(g)
    fits = Event("note", {"text": "x" * (event_bound(g) - 40)})
    sent.add(g, [fits])
    with pytest.raises(InvariantViolation, match=r"'note' of the deal holds 2\d{3} characters of JSON, 2040 at most"):
        sent.add(g, [Event("note", {"text": "x" * event_bound(g)})])
    check_events_kept(g)  # the round itself, played again from its deal


def test_knowledge_follows_moves_catches_a_move_nobody_was_told_of() -> None:
    """Seat 0 knows its first card (it peeked at it); the card moves to seat 1's layout with no event: seat 0
    must not know it there. Told by an event naming the new place, it may."""
    g = new_round("french", players=2, seed=1)
    card = g.hands[0][0]
    g.knowers[card] |= 1
    where, knew = places(g), list(g.knowers)
    g.hands[0][0], g.hands[1][0] = g.hands[1][0], card
    g.knowers[g.hands[0][0]] = 0
    with pytest.raises(InvariantViolation, match="no event they received names that place") as caught:
        check_moves_known(g, where, knew, [Event("shuffled", {"player": 0})])
    assert caught.value.invariant == "knowledge_follows_moves"
    check_moves_known(g, where, knew, [Event("swapped", {"player": 0, "slot": 0, "target": 1, "target_slot": 0})])
    hidden = Event("moved", {"player": 0}, {"target": 1, "target_slot": 0}, seen_by=0b10)
    with pytest.raises(InvariantViolation):
        check_moves_known(g, where, knew, [hidden])  # told to seat 1 only
    g.knowers[card] = 0
    check_moves_known(g, where, knew, [Event("shuffled", {"player": 0})])  # forgotten: fine


def test_a_turn_that_comes_back_to_a_state_it_was_in_is_a_cycle() -> None:
    """The watch remembers the state after each action from ``CYCLE_FROM`` actions into a turn: a turn whose
    actions change nothing is a cycle at the first state seen twice."""
    g = new_round("french", players=2, seed=1)
    watch = TurnWatch(g)
    found = [watch.step(g) for _ in range(CYCLE_FROM + 1)]
    assert found[:CYCLE_FROM] == [None] * CYCLE_FROM
    assert found[-1] is not None and "a cycle" in found[-1]


def test_the_termination_invariant_finds_a_cycle_in_the_actions_played() -> None:
    """A power offering one more look for as long as it is taken (``broken_keep_looking``), taken every time: the
    turn comes back to the same state, and ``termination`` on the game says so from the actions played alone,
    whatever a random player would do next."""
    v = resolve(str(BROKEN / "keep_looking.toml"))
    for seed in range(5, 200, 10):
        g = Round(v, v.rules.players.min, seed=seed)
        g.start()
        chooser, watch = RandomChooser(random.Random(seed)), TurnWatch(g)
        while not g.is_over:
            g.apply(choose_action(g, chooser, PlayStyle(prefer=("power", "swap"))))
            if watch.step(g) is not None:
                with pytest.raises(InvariantViolation, match="a cycle") as caught:
                    INVARIANTS["termination"](g)
                assert caught.value.invariant == "termination"
                return
    pytest.fail("no game offered the power")


def test_determinism_holds_on_a_built_in_ruleset() -> None:
    assert check_run_determinism(resolve("french"), [(seed, 2 + seed % 3) for seed in range(GAMES)]) is None


@pytest.mark.timing
def test_determinism_waits_only_for_the_games_it_compares() -> None:
    """The fresh processes play the run's games beside it; when no game of the run is left to compare (every one
    failed, or the run stopped early) the check returns at once and stops them, instead of waiting for games
    that a hook keeps from ending (here one that never returns, with no time limit)."""
    variant = resolve(str(BROKEN / "stuck_scores.toml"))
    check = RunDeterminism(variant, [(seed, 2) for seed in range(20)], salt=1, timeout=None)
    started = time.monotonic()
    assert check.compare({}) is None
    assert time.monotonic() - started < 5
    assert all(fresh.process.returncode is not None for fresh in check.fresh)  # stopped, not left running
