"""Games on several threads share nothing that one game can spoil for another; what the engine hands
out (events, views, results) is a value; games and variants pickle (for worker processes)."""

from __future__ import annotations

import pickle
import random
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import tamalou
from tamalou.engine import seats
from tamalou.mechanics import _match_actions

RULESETS: list[str | list[str]] = [
    "french",
    ["french", "opponent-matching"],
    "cartalogue-rapide",
    ["tamalou-fun", "opponent-matching"],
    ["cartalogue", "jokers"],
]


def play(spec: str | list[str], seed: int) -> list[tuple[int, list[dict[str, Any]], dict[str, Any]]]:
    """A random game: at each step, the acting seat, what it was offered, and what it played."""
    rng = random.Random(seed)
    g = tamalou.new_game(spec, players=3 + seed % 2, seed=seed)
    steps = []
    while not g.is_over and len(steps) < 400:
        seats_with = [p for p in range(g.players) if g.legal_actions(p)]
        p = rng.choice(seats_with)
        offered = g.legal_actions(p)
        action = rng.choice(offered)
        steps.append((p, [a.to_dict() for a in offered], action.to_dict()))
        g.apply(action)
    return steps


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    """Empty the process-wide action lists, so that the threads grow them at the same time."""
    with seats.GROWTH:
        saved_seats, saved_own = list(seats.SEATS), list(_match_actions.OWN)
        seats.SEATS[:] = []
        _match_actions.OWN[:] = []
    seats.seat_actions(11)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)
        with seats.GROWTH:
            seats.SEATS[:] = saved_seats
            _match_actions.OWN[:] = saved_own


def test_games_on_eight_threads_list_what_a_single_thread_lists(fresh_caches: None) -> None:
    jobs = [(RULESETS[i % len(RULESETS)], i) for i in range(40)]
    results: dict[int, list[tuple[int, list[dict[str, Any]], dict[str, Any]]]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def worker(part: list[tuple[str | list[str], int]]) -> None:
        try:
            start.wait()  # all at once, while the shared lists are still empty
            for spec, seed in part:
                results[seed] = play(spec, seed)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(jobs[k::8],)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    sys.setswitchinterval(0.005)
    for spec, seed in jobs:
        steps = results[seed]
        g = tamalou.new_game(spec, players=3 + seed % 2, seed=seed)
        for i, (p, offered, played) in enumerate(steps):
            again = [a.to_dict() for a in g.legal_actions(p)]
            assert again == offered, f"{spec} seed {seed} step {i}: another listing than on its thread"
            assert all(a["player"] == p for a in again if "player" in a)
            g.apply(played)


def finished(seed: int = 3) -> tuple[tamalou.Game, list[tamalou.Event]]:
    g = tamalou.new_game("french", players=2, seed=seed)
    events: list[tamalou.Event] = []
    while not g.is_over:
        events = g.apply(g.legal_actions(g.current_player)[0])
    return g, events


def test_a_returned_event_is_a_value() -> None:
    g, events = finished()
    before = g.to_json()
    over = events[-1]
    assert over.type == "round_over"
    over.data["totals"].append(99)
    over.data["ranking"][0].append(7)
    over.data["hands"][0].clear()
    over.to_dict()["winners"].append(5)
    assert g.to_json() == before
    assert g.result().totals == finished()[0].result().totals
    assert 99 not in g.events_so_far()[-1]["totals"]


def test_a_returned_result_is_a_value() -> None:
    g, _ = finished()
    before = g.to_json()
    result = g.result()
    result.totals.append(1)
    result.ranking.clear()
    result.winners.append(9)
    assert g.to_json() == before
    assert len(g.result().totals) == 2 and g.result().ranking and 9 not in g.result().winners


def test_a_returned_view_is_a_value() -> None:
    g = tamalou.new_game("french", players=2, seed=3)
    g.apply(g.legal_actions(g.current_player)[0])
    before = g.to_json()
    view = g.view(0)
    view.discard.clear()
    view.hands[0].clear()
    view.to_act.append(1)
    assert g.to_json() == before
    assert g.view(0).discard and g.view(0).hands[0] and g.view(0).to_act == g.to_act
    done, _ = finished()
    final = done.view(0)
    assert final.result is not None
    final.result.winners.append(3)
    assert 3 not in done.result().winners


def test_games_and_variants_pickle() -> None:
    v = tamalou.load_variant(["french", "opponent-matching"])
    assert pickle.loads(pickle.dumps(v)) == v
    g = tamalou.new_game(v, players=3, seed=5)
    for _ in range(6):
        g.apply(g.legal_actions(g.current_player)[0])
    again = pickle.loads(pickle.dumps(g))
    assert again.to_json() == g.to_json()
    a = g.legal_actions(g.current_player)[0]
    assert [e.to_dict() for e in again.apply(a)] == [e.to_dict() for e in g.apply(a)]
