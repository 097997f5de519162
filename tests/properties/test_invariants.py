"""The checks of ``tamalou.verify`` catch broken games.

A check that never fails proves nothing: each one is shown here to pass on the engine and to
raise ``InvariantViolation`` on a game broken on purpose (a card lost, a view or a listing that
leaks, an apply that is not atomic, a snapshot that forgets state...). Engine behaviour is broken
with ``monkeypatch`` for one test at a time; the engine's files are not touched.

The stacked deal used throughout (French, 2 players, seat 0 first; each seat knows its slots 0, 1):
seat 0 holds AS 2S 3S 4S, seat 1 holds 5S 6S 7S 8S, the stock is 2H 10S JS QS KS AH 9H (top
first) and 3H is face up on the discard, its matching window open.
"""

from __future__ import annotations

import importlib
import random
import sys
from typing import Any

import pytest

import tamalou
from tamalou import Draw, IllegalAction, MatchAction, Pass, PlayerView, Result, Round
from tamalou.engine import new_round
from tamalou.verify import (
    INVARIANTS,
    InvariantViolation,
    PlayStyle,
    VerifyReport,
    check_accepted_is_listed,
    check_all,
    check_conservation,
    check_illegal_leaves_state,
    check_knowledge,
    check_knowledge_events,
    check_legal_actions_accepted,
    check_listing_complete,
    check_no_crash,
    check_no_leak,
    check_refusals,
    check_replay,
    check_result,
    check_slot_order,
    check_snapshot_roundtrip,
    check_step_knowledge,
    check_termination,
    checks_actions,
    exchange_faces,
    random_playout,
    step_bound,
    turn_bound,
    verify,
)

EVERY_PAIR = 10_000  # more pairs than a small deal has: check_no_leak then tries all of them


def fresh() -> Round:
    deal = {
        "hands": [["AS", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S"]],
        "stock": ["2H", "10S", "JS", "QS", "KS", "AH", "9H"],
        "discard": ["3H"],
    }
    return new_round("french", 2, deal=deal, first_player=0, seed=1)


def finished() -> Round:
    return tamalou.round_of(random_playout("french", 3, seed=11))


def after_call() -> Round:
    """Seat 0 drew the 2H, threw it and called: seat 1 plays the last turn."""
    game = fresh()
    for action in (
        {"type": "draw", "player": 0, "source": "stock"},
        {"type": "discard", "player": 0},
        {"type": "call", "player": 0},
    ):
        game.apply(action)
    assert game.current_player == 1 and game.caller == 0
    return game


# --------------------------------------------------------------------------------- conservation


def test_conservation_holds_through_a_game() -> None:
    game = fresh()
    check_conservation(game)
    random_playout("french", 4, seed=2, check_every=25)  # conservation after every step


def test_conservation_catches_a_card_lost_from_the_stock() -> None:
    game = fresh()
    game.stock.pop()
    with pytest.raises(InvariantViolation, match=r"1 card\(s\) are nowhere: .*2H"):
        check_conservation(game)


def test_conservation_catches_a_card_in_two_places() -> None:
    game = fresh()
    game.discard.append(game.hands[0][2])
    with pytest.raises(InvariantViolation, match=r"3S\) is both at player 0 slot 2 and at discard\[1\]"):
        check_conservation(game)


def test_conservation_catches_a_held_card_left_in_the_stock() -> None:
    game = fresh()
    game.held = game.stock[-1]
    with pytest.raises(InvariantViolation, match=r"both at stock.* and at held"):
        check_conservation(game)


def test_conservation_catches_an_invented_card() -> None:
    game = fresh()
    game.hands[1][0] = 99
    with pytest.raises(InvariantViolation, match="player 1 slot 0 holds 99, which is not a card id"):
        check_conservation(game)


# --------------------------------------------------------------------------------- knowledge


def test_knowledge_holds_on_the_engine() -> None:
    check_knowledge(fresh())
    check_knowledge(finished())


def test_knowledge_catches_a_discard_card_nobody_saw() -> None:
    game = fresh()
    game.knowers[game.discard[-1]] = 0b01
    with pytest.raises(InvariantViolation, match=r"3H, discard .* unknown to players \[1\]"):
        check_knowledge(game)


def test_knowledge_catches_a_card_not_revealed_at_the_end() -> None:
    game = finished()
    card = next(c for c in game.hands[2] if c != -1)
    game.knowers[card] = 0
    with pytest.raises(InvariantViolation, match="the round is over but card"):
        check_knowledge(game)


# --------------------------------------------------------------------------------- no leak


def test_exchange_faces_changes_only_the_copy() -> None:
    game = fresh()
    a, b = game.hands[1][3], game.stock[0]
    swapped = exchange_faces(game, a, b)
    assert (swapped.text[a], swapped.text[b]) == (game.text[b], game.text[a])
    assert swapped.layout(1)[3] == game.text[b]
    assert game.layout(1)[3] == "8S"  # the original keeps its faces
    assert swapped.knowers == game.knowers and swapped.hands == game.hands


def test_no_leak_holds_on_the_engine() -> None:
    for game in (fresh(), after_call()):
        for player in range(game.players):
            check_no_leak(game, player, random.Random(0), pairs=EVERY_PAIR)


def test_no_leak_catches_a_view_that_tells_the_stock_top(monkeypatch: pytest.MonkeyPatch) -> None:
    real_view = Round.view

    def view(self: Round, player: int) -> PlayerView:
        # A "helpful" stock size: the number of points of the card on top of the stock.
        return real_view(self, player).model_copy(update={"stock_size": self.value[self.stock[-1]]})

    monkeypatch.setattr(Round, "view", view)
    with pytest.raises(InvariantViolation, match=r"leak: exchanging .* changes their view: view\.stock_size"):
        check_no_leak(fresh(), 0, random.Random(0), pairs=EVERY_PAIR)


def test_no_leak_catches_listing_only_the_right_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A known pitfall: listing only the matches that would succeed tells the player their cards."""
    real_legal = Round.legal_actions

    def legal_actions(self: Round, player: int) -> list[Any]:
        top = self.rank[self.discard[-1]] if self.discard else None
        return [
            a
            for a in real_legal(self, player)
            if not isinstance(a, MatchAction) or self.rank[self.hands[a.player][a.slots[0]]] == top
        ]

    monkeypatch.setattr(Round, "legal_actions", legal_actions)
    # Seat 0 does not know its slot 2 (the 3S), but is offered to match it on the 3H.
    with pytest.raises(InvariantViolation, match="changes their legal actions"):
        check_no_leak(fresh(), 0, random.Random(0), pairs=EVERY_PAIR)


def test_no_leak_catches_a_card_the_view_shows_but_the_engine_says_unknown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If the knowledge that the check trusts were wrong, a known card (in the view) would be
    exchanged: the check sees the view change."""
    monkeypatch.setattr(Round, "knows", lambda self, player, card: False)
    with pytest.raises(InvariantViolation, match="changes their view"):
        check_no_leak(fresh(), 0, random.Random(0), pairs=EVERY_PAIR)


# --------------------------------------------------------------------------------- listed actions


def test_listed_actions_are_accepted_on_the_engine() -> None:
    check_legal_actions_accepted(fresh())
    check_legal_actions_accepted(after_call())
    check_legal_actions_accepted(finished())


def test_listing_an_action_apply_refuses_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real_legal = Round.legal_actions
    # Seat 1 is offered a draw out of turn.
    monkeypatch.setattr(
        Round, "legal_actions", lambda self, p: [*real_legal(self, p), *([Draw(1, "stock")] if p == 1 else [])]
    )
    with pytest.raises(InvariantViolation, match=r"legal_actions\(1\) lists .*draw.* but apply refuses it"):
        check_legal_actions_accepted(fresh())


def test_listing_an_action_of_another_player_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real_legal = Round.legal_actions
    monkeypatch.setattr(Round, "legal_actions", lambda self, p: real_legal(self, 0))
    with pytest.raises(InvariantViolation, match=r"legal_actions\(1\) lists an action of another player"):
        check_legal_actions_accepted(fresh())


def test_listing_an_action_twice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real_legal = Round.legal_actions
    monkeypatch.setattr(Round, "legal_actions", lambda self, p: real_legal(self, p) * 2)
    with pytest.raises(InvariantViolation, match="twice"):
        check_legal_actions_accepted(fresh())


def test_a_round_where_nobody_may_act_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Round, "legal_actions", lambda self, p: [])
    with pytest.raises(InvariantViolation, match="deadlock"):
        check_legal_actions_accepted(fresh())


def test_an_action_offered_after_the_end_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished()
    monkeypatch.setattr(Round, "legal_actions", lambda self, p: [Pass(p)])
    with pytest.raises(InvariantViolation, match="the round is over but player 0 is offered"):
        check_legal_actions_accepted(game)


def test_an_accepted_action_missing_from_the_listing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = fresh()
    draw_discard = {"type": "draw", "player": 0, "source": "discard"}
    assert check_accepted_is_listed(game, draw_discard) is True
    assert check_accepted_is_listed(game, {"type": "pass", "player": 0}) is False  # refused
    real_legal = Round.legal_actions
    monkeypatch.setattr(
        Round, "legal_actions", lambda self, p: [a for a in real_legal(self, p) if a != Draw(p, "discard")]
    )
    with pytest.raises(InvariantViolation, match=r"does not list .*discard"):
        check_accepted_is_listed(game, draw_discard)


def test_a_multi_card_or_late_match_is_not_a_missing_listing() -> None:
    game = fresh()
    # Two of seat 0's cards thrown at once: the listing has them one by one.
    assert check_accepted_is_listed(game, {"type": "match", "player": 0, "slots": [2, 3]}) is True
    game.apply({"type": "match", "player": 0, "slots": [2]})  # the 3S on the 3H: seat 0 owns the window
    assert not [a for a in game.legal_actions(1) if isinstance(a, MatchAction)]
    # Seat 1 is late: the match is accepted (the card is shown and returned) but no longer listed.
    assert check_accepted_is_listed(game, {"type": "match", "player": 1, "slots": [0]}) is True


# --------------------------------------------------------------------------------- refused actions


def test_a_refused_action_leaves_the_engine_unchanged() -> None:
    game = fresh()
    before = game.to_json()
    assert check_illegal_leaves_state(game, {"type": "replace", "player": 0, "slot": 0}) is True
    assert check_illegal_leaves_state(game, {"type": "draw", "player": 1}) is True
    assert check_illegal_leaves_state(game, {"type": "jump"}) is True
    assert check_illegal_leaves_state(game, "draw") is True
    assert check_illegal_leaves_state(game, {"type": "draw", "player": 0}) is False  # legal
    assert game.to_json() == before  # tried on copies only


def test_a_refusal_that_changed_the_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real_apply = Round.apply

    def apply(self: Round, action: Any) -> list[Any]:
        self.draws += 1  # bookkeeping done before the action is validated
        return real_apply(self, action)

    monkeypatch.setattr(Round, "apply", apply)
    with pytest.raises(InvariantViolation, match=r"the refused action .* changed the game: \.draws: 0 -> 1"):
        check_illegal_leaves_state(fresh(), {"type": "replace", "player": 0, "slot": 0})


def test_a_crash_instead_of_illegal_action_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def apply(self: Round, action: Any) -> list[Any]:
        raise KeyError("slot")

    monkeypatch.setattr(Round, "apply", apply)
    with pytest.raises(InvariantViolation, match="raised KeyError instead of IllegalAction"):
        check_illegal_leaves_state(fresh(), {"type": "replace", "player": 0})


# --------------------------------------------------------------------------------- snapshots, replay


def test_snapshots_and_replays_hold_on_the_engine() -> None:
    for game in (fresh(), after_call(), finished()):
        check_snapshot_roundtrip(game, random.Random(3), steps=40)
        check_replay(game)


def test_a_snapshot_that_is_not_the_same_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real_from_json = Round.from_json

    def from_json(cls: type[Round], data: str, variant: Any = None, **options: Any) -> Round:
        game = real_from_json(data, variant, **options)
        game.rng.state ^= 1  # the random generator is not restored exactly
        return game

    monkeypatch.setattr(Round, "from_json", classmethod(from_json))
    with pytest.raises(InvariantViolation, match=r"from_json\(to_json\(\)\) is not the same game: \.rng"):
        check_snapshot_roundtrip(fresh())


def test_a_snapshot_that_plays_on_differently_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """State outside the JSON (here the card values) is lost: the restored game looks the same
    but ends with other totals."""
    real_from_json = Round.from_json

    def from_json(cls: type[Round], data: str, variant: Any = None, **options: Any) -> Round:
        game = real_from_json(data, variant, **options)
        game.value = [0] * len(game.value)
        return game

    monkeypatch.setattr(Round, "from_json", classmethod(from_json))
    with pytest.raises(InvariantViolation, match="gives other events"):
        check_snapshot_roundtrip(after_call(), random.Random(3), steps=40)


def test_a_game_that_misreports_its_seed_does_not_replay() -> None:
    game = tamalou.round_of(random_playout("french", 3, seed=5))
    check_replay(game)
    game.seed += 1
    with pytest.raises(InvariantViolation, match="replay of the same seed and actions differs"):
        check_replay(game)


# --------------------------------------------------------------------------------- results, ending


def test_results_hold_on_the_engine() -> None:
    for seed in range(5):
        check_result(random_playout("french", 2 + seed, seed=seed))


def test_wrong_totals_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished()
    real = game.result()
    wrong = real.model_copy(update={"totals": [t + 1 for t in real.totals]})
    monkeypatch.setattr(Round, "result", lambda self: wrong)
    with pytest.raises(InvariantViolation, match="result totals"):
        check_result(game)


def test_a_winner_ranked_below_a_loser_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished()
    real = game.result()
    last = real.ranking[-1][0]
    wrong: Result = real.model_copy(update={"winners": [last]})
    monkeypatch.setattr(Round, "result", lambda self: wrong)
    with pytest.raises(InvariantViolation, match="are not all in the first place"):
        check_result(game)


def test_a_result_before_the_end_is_refused() -> None:
    with pytest.raises(InvariantViolation, match="not over"):
        check_result(fresh())


def test_a_round_without_calls_ends_at_the_turn_limit() -> None:
    game = random_playout("french", 2, seed=3, style=PlayStyle(call_probability=0.0))
    assert game.result().reason == "turn_limit"
    assert game.turn == game.variant.rules.end.max_turns
    assert len(game.actions) <= step_bound(game)


def test_a_round_that_never_ends_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def end_turn(self: Round, events: list[Any]) -> None:
        self.start_turn((self.current_player + 1) % self.players, events)  # the turn is not counted

    monkeypatch.setattr(Round, "end_turn", end_turn)
    with pytest.raises(InvariantViolation, match="has not ended after 500 actions"):
        random_playout("french", 2, seed=3, style=PlayStyle(call_probability=0.0), max_steps=500)


def test_step_bound_follows_max_turns() -> None:
    game = tamalou.new_game("french", 4, seed=1)
    assert step_bound(game) > 4 * game.variant.rules.end.max_turns


# --------------------------------------------------------------------------------- playouts, verify


def test_random_playout_is_reproducible() -> None:
    a = random_playout("french", 4, seed=21)
    b = random_playout("french", 4, seed=21)
    assert a.is_over and a.to_json() == b.to_json()
    assert random_playout("french", 4, seed=22).to_json() != a.to_json()


def test_checks_do_not_change_the_game_played() -> None:
    """``verify`` tells users to replay a failure with ``check_every=1``: checking must not alter
    the choices."""
    plain = random_playout("french", 3, seed=8)
    checked = random_playout("french", 3, seed=8, check_every=7)
    assert checked.to_json() == plain.to_json()


def test_check_all_leaves_the_game_alone() -> None:
    game = after_call()
    before = game.to_json()
    check_all(game, random.Random(1))
    assert game.to_json() == before


def test_verify_reports_a_clean_engine() -> None:
    report = verify("french", games=4, players=[2, 5], seed=30)
    assert isinstance(report, VerifyReport)
    assert report.ok and report.failures == []
    assert report.games == 4 and report.actions > 0
    assert sum(report.reasons.values()) == 4


def test_verify_reports_every_failure_with_the_actions_that_reproduce_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_legal = Round.legal_actions
    monkeypatch.setattr(Round, "legal_actions", lambda self, p: real_legal(self, p) * 2)
    report = verify("french", games=3, players=3, seed=40)
    assert report.games == 3 and not report.ok
    assert [(seed, players) for seed, players, _ in report.failures] == [(40, 3), (41, 3), (42, 3)]
    for _, _, message in report.failures:
        assert message.startswith("listed_accepted: ") and "twice" in message
    assert report.failed == {"listed_accepted": 3}
    for failure in report.details:
        assert failure.invariant == "listed_accepted"
        game = tamalou.replay("french", 3, seed=failure.seed, actions=failure.actions)
        with pytest.raises(InvariantViolation, match="twice") as caught:
            INVARIANTS[failure.invariant](game)
        assert caught.value.invariant == "listed_accepted"


# --------------------------------------------------------------------------------- one by one, by name


def test_every_invariant_has_a_name_a_description_and_defaults() -> None:
    assert list(INVARIANTS) == [
        "conservation",
        "knowledge",
        "knowledge_events",
        "knowledge_follows_moves",
        "no_leak",
        "event_leak",
        "opaque_ids",
        "event_schema",
        "events_kept",
        "listed_accepted",
        "listing_complete",
        "refusals",
        "hints",
        "snapshot",
        "no_crash",
        "termination",
        "determinism",
        "replay",
        "result",
        "end_hooks",
        "match",
        "slot_order",
    ]
    done = finished()
    for name, inv in INVARIANTS.items():
        assert inv.name == name and inv.description and "\n" not in inv.description
        assert inv.when in ("step", "sample", "end", "game", "run", "match")
        inv(done)  # a game is all it takes
        inv(done, thorough=True)
        if inv.when != "end":
            inv(fresh())


def test_checks_need_no_generator_and_sample_the_same_state_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    game = after_call()
    before = game.to_json()
    check_all(game)
    check_no_leak(game, 1)
    check_refusals(game)
    check_listing_complete(game)
    check_termination(game)
    assert game.to_json() == before
    # The default generator is seeded from the game: the same state draws the same samples.
    seen: list[Any] = []
    real = checks_actions.random_action

    def spy(g: Round, rng: random.Random) -> Any:
        seen.append(real(g, rng))
        return seen[-1]

    monkeypatch.setattr(checks_actions, "random_action", spy)  # where the refusal checks look it up
    check_refusals(game.copy(), actions=5)
    check_refusals(game.copy(), actions=5)
    assert len(seen) == 10 and seen[:5] == seen[5:]


def test_a_sampled_listing_check_tries_at_most_limit_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    game = fresh()
    tried: list[Any] = []
    real_apply = Round.apply

    def apply(self: Round, action: Any, **kw: Any) -> list[Any]:
        tried.append(action)
        return real_apply(self, action, **kw)

    monkeypatch.setattr(Round, "apply", apply)
    check_legal_actions_accepted(game, limit=2)
    assert len(tried) <= 2 * game.players
    tried.clear()
    check_legal_actions_accepted(game)
    assert len(tried) == sum(len(game.legal_actions(p)) for p in range(game.players))


# --------------------------------------------------------------------------------- knowledge from events


def test_knowledge_follows_the_events_on_the_engine() -> None:
    for seed in range(3):
        check_knowledge_events(random_playout("french", 3, seed=seed))
    check_knowledge_events(random_playout("cabo", 2, seed=1))


def test_a_card_marked_known_without_an_event_is_caught() -> None:
    game = fresh()
    before = list(game.knowers)
    card = game.hands[1][3]
    game.knowers[card] |= 0b01  # seat 0 "knows" seat 1's 8S: nothing showed it to them
    with pytest.raises(InvariantViolation, match=r"player 0 now knows card .* \(8S.*no event of the step") as caught:
        check_step_knowledge(game, before, [])
    assert caught.value.invariant == "knowledge_events"


def test_a_card_shown_by_an_event_but_not_known_is_caught() -> None:
    game = fresh()
    before = list(game.knowers)
    looked = tamalou.Event("looked", {"player": 1, "owner": 0, "slot": 3}, {"card": "4S"}, 0b10)
    with pytest.raises(InvariantViolation, match=r"an event \(looked\) showed player 1 the 4S, but they do not know"):
        check_step_knowledge(game, before, [looked])
    game.knowers[game.hands[0][3]] |= 0b10  # the look done right: seat 1 knows it now
    check_step_knowledge(game, before, [looked])


def test_a_power_showing_the_wrong_seat_is_caught_over_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner of the card is marked as knowing it, the event goes to the power's user."""
    from tamalou.engine.table import Table

    def look(self: Table, p: int, owner: int, slot: int, events: list[Any]) -> int:
        c = self.hands[owner][slot]
        self.knowers[c] |= 1 << owner
        events.append(
            tamalou.Event("looked", {"player": p, "owner": owner, "slot": slot}, {"card": self.text[c]}, 1 << p)
        )
        return c

    game = random_playout("french", 4, seed=1)
    monkeypatch.setattr(Table, "look", look)
    game = tamalou.replay("french", 4, seed=1, actions=game.actions)  # the same game, looked at wrongly
    with pytest.raises(InvariantViolation, match="know") as caught:
        check_knowledge_events(game)
    assert caught.value.invariant == "knowledge_events"


# --------------------------------------------------------------------------------- the call and hidden totals


def test_a_call_decided_on_the_hidden_total_is_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    game = fresh()
    for action in ({"type": "draw", "player": 0, "source": "stock"}, {"type": "discard", "player": 0}):
        game.apply(action)
    assert game.phase == "call" and any(isinstance(a, tamalou.Call) for a in game.legal_actions(0))
    check_no_leak(game, 0, pairs=0)
    real_legal = Round.legal_actions
    monkeypatch.setattr(
        Round,
        "legal_actions",
        lambda self, p: [a for a in real_legal(self, p) if not isinstance(a, tamalou.Call) or self.total(p) <= 12],
    )
    # No random pair: the exchanges that move seat 0's hidden total (10 points) are always tried.
    with pytest.raises(InvariantViolation, match=r"leak: .* changes their legal actions") as caught:
        check_no_leak(game, 0, pairs=0)
    assert caught.value.invariant == "no_leak"


# --------------------------------------------------------------------------------- slot order, no crash, termination


def test_the_result_does_not_depend_on_the_order_of_the_cards_on_any_ruleset() -> None:
    for name in tamalou.variant_names():
        v = tamalou.load_variant(name)
        for seed in range(2):
            check_slot_order(random_playout(v, v.rules.players.min + seed, seed=seed), permutations=6)


def test_a_score_read_from_the_first_slot_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Round.final_result

    def final_result(self: Round) -> Result:
        if not isinstance(self._result, Result):  # (None, or the judged lists the Result is made from)
            r = real(self)
            first = next(c for c in self.hands[0] if c != -1)
            self._result = r.model_copy(update={"scores": [r.scores[0] + self.value[first], *r.scores[1:]]})
        return self._result

    monkeypatch.setattr(Round, "final_result", final_result)
    game = random_playout("french", 3, seed=2)
    with pytest.raises(
        InvariantViolation, match=r"the result depends on the order of player 0's cards: scores"
    ) as caught:
        check_slot_order(game)
    assert caught.value.invariant == "slot_order"


def test_a_hook_that_raises_is_a_no_crash_violation_naming_the_action(monkeypatch: pytest.MonkeyPatch) -> None:
    real_apply = Round.apply

    def apply(self: Round, action: Any, **kw: Any) -> list[Any]:
        if isinstance(action, tamalou.Call) or (isinstance(action, dict) and action.get("type") == "call"):
            raise tamalou.PluginError("boom", plugin="house", hook="tamalou_round_scores")
        return real_apply(self, action, **kw)

    monkeypatch.setattr(Round, "apply", apply)
    with pytest.raises(InvariantViolation, match="crashed: PluginError") as caught:
        random_playout("french", 2, seed=3, style=PlayStyle(call_probability=1.0))
    assert caught.value.invariant == "no_crash"
    assert isinstance(caught.value.pending, tamalou.Call)
    game = fresh()
    game.apply({"type": "draw", "player": 0, "source": "stock"})
    game.apply({"type": "discard", "player": 0})
    with pytest.raises(InvariantViolation, match="crashed") as again:
        check_no_crash(game)
    assert again.value.invariant == "no_crash"


class _EndlessRound(Round):
    """A broken core: a turn ends without being counted (a subclass, so that the compiled core, which
    calls its overrides but not a patch on ``Round`` itself, breaks the same way)."""

    def end_turn(self, events: list[Any]) -> None:
        self.start_turn((self.current_player + 1) % self.players, events)  # the turn is not counted


def test_a_turn_that_never_ends_is_caught_at_the_turn_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    import tamalou.verify.playout

    def endless(variant: Any, players: int, seed: int | None = None, **kw: Any) -> Round:
        rd = _EndlessRound(tamalou.load_variant(variant) if isinstance(variant, str) else variant, players, seed=seed)
        rd.start()  # the deal's opening, as new_round does
        return rd

    game = tamalou.new_game("french", 2, seed=3)
    check_termination(game)  # the true core ends its turns
    monkeypatch.setattr(tamalou.verify.playout, "new_round", endless)  # where random_playout looks it up
    bound = turn_bound(game)
    with pytest.raises(
        InvariantViolation, match=rf"has not ended after {bound} actions \(the bound: turn_bound"
    ) as caught:
        random_playout("french", 2, seed=3, style=PlayStyle(call_probability=0.0))
    assert caught.value.invariant == "termination"
    assert len(caught.value.actions) >= bound  # the playout ran into the bound, not into anything else


def test_the_turn_bound_leaves_room_for_every_ruleset() -> None:
    for name in tamalou.variant_names():
        v = tamalou.load_variant(name)
        n = v.rules.players.min
        game = random_playout(v, n, seed=4, style=PlayStyle(out_of_turn=0.7, match_probability=0.6))
        assert game.is_over
        assert turn_bound(game) >= 60


# --------------------------------------------------------------------------------- tamalou.testing


def test_testing_says_how_to_install_hypothesis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "tamalou.testing", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'tamalou\[testing\]'"):
        importlib.import_module("tamalou.testing")


# --------------------------------------------------------------------------------- engine findings


def test_timed_ruleset_refused_action_leaves_the_game_unchanged() -> None:
    """Found by the properties (tamalou-fun): a refused action of the player to move marks them as
    present (``acted``, ``absent``) before it is validated. The contract: a refused action leaves
    the game exactly as before."""
    game = tamalou.new_game("tamalou-fun", 2, seed=0)
    game.apply({"type": "tick", "at": 5.0})  # the opening peek is over
    p = game.current_player
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply({"type": "pass", "player": p})  # a turn starts with a draw
    assert game.to_json() == before
    check_illegal_leaves_state(game, {"type": "discard", "player": p})
