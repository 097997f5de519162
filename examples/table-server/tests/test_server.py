"""The server as players use it: the lobby API, a seat's websocket, bots, rounds, reconnecting, timers."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import tamalou

from conftest import INVITATIONS, Player, Server, action_log, create_room, events_for, join, replay_room

TIMED = [name for name in tamalou.variant_names() if tamalou.load_variant(name).rules.timing.turn_seconds > 0]
UNTIMED = [name for name in tamalou.variant_names() if name not in TIMED]

# An uploaded ruleset: tamalou.fun with short timers, so that a test sees deadlines pass in about a second.
QUICK_TIMED = """
name = "quick-fun"
extends = "tamalou-fun"

[rules.timing]
turn_seconds = 0.6
absent_turn_seconds = 0.3
peek_seconds = 1.0
countdown_seconds = 0.3
swap_show_seconds = 0.1
"""


def facts(server: Server, room: str) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/rooms/{room}", timeout=10)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def wait_over(server: Server, room: str, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while not (answer := facts(server, room))["over"]:
        assert time.monotonic() < deadline, f"room {room} not over after {seconds} s: {answer}"
        time.sleep(0.1)
    return answer


def play_first_legal(player: Player, limit: int = 2000) -> int:
    """Play the seat's first listed action each time it must act, until the match is over."""
    played = 0
    while True:
        player.wait_until_turn_or_over()
        if player.state["over"]:
            return played
        player.act(player.must_act()[0])
        played += 1
        assert played < limit
        message = player.receive()
        assert message["type"] == "update", message


def test_rulesets_lists_every_registered_ruleset(shared_server: Server) -> None:
    listed = httpx.get(shared_server.url + "/api/rulesets", timeout=10).json()
    assert [r["name"] for r in listed] == tamalou.variant_names()
    by_name = {r["name"]: r for r in listed}
    assert [n for n, r in by_name.items() if r["timed"]] == TIMED
    assert by_name["french"]["players"] == [2, 6]
    assert all(r["title"] for r in listed)


def test_pages_and_static_files_are_served(shared_server: Server) -> None:
    for path in ("/", "/table?room=x&token=y", "/static/table.js", "/static/table.css"):
        assert httpx.get(shared_server.url + path, timeout=10).status_code == 200, path


def test_a_seat_plays_a_whole_game_against_a_bot(shared_server: Server) -> None:
    room = create_room(shared_server, "french", 2, {1: "greedy"}, seed=11)
    seat = join(shared_server, room)
    assert seat["seat"] == 0 and seat["url"] == f"/table?room={room}&token={seat['token']}"
    player = Player(shared_server, room, seat["token"])
    welcome = player.welcome
    assert (welcome["type"], welcome["seat"], welcome["room"], welcome["ruleset"]) == ("welcome", 0, room, "french")
    assert welcome["players"] == 2 and welcome["seq"] == len(welcome["events"]) > 0
    assert welcome["events"][0]["type"] == "dealt"
    assert play_first_legal(player) > 0
    state = player.state
    assert state["over"] and state["result"] is not None and state["match"] is not None
    assert state["legal"] == [] and state["to_act"] == []
    # What the seat received is exactly what tamalou gives seat 0 of the game replayed from the saved log.
    match = replay_room(shared_server, room, "french", 2, seed=11)
    assert match.is_over
    assert player.events == events_for(match, 0)
    assert player.seq == len(player.events)
    assert state["result"] == match.game.result().model_dump(mode="json")
    assert state["view"] == match.game.view(0).model_dump(mode="json")
    assert facts(shared_server, room)["over"] is True
    player.close()


def test_an_invitation_takes_its_own_seat_once(shared_server: Server) -> None:
    room = create_room(shared_server, "french", 3, {1: "random"})
    codes = INVITATIONS[room]
    assert sorted(codes) == [0, 2]  # no invitation for the bot's seat
    second = join(shared_server, room, 2)
    first = join(shared_server, room, 0)
    assert (first["seat"], second["seat"]) == (0, 2) and first["token"] != second["token"]
    url = f"{shared_server.url}/api/rooms/{room}/join"
    for code in codes.values():  # an invitation is used once
        r = httpx.post(url, json={"invitation": code}, timeout=10)
        assert r.status_code == 409 and "invitation was used" in r.json()["error"], r.text
    assert facts(shared_server, room)["taken"] == [0, 2]
    assert httpx.post(f"{shared_server.url}/api/rooms/nope/join", json={}, timeout=10).status_code == 404


def test_a_room_id_alone_takes_no_seat(shared_server: Server) -> None:
    """Anyone with a room's id (it is in every link) could once take any free seat: now only the invitation
    of a seat takes it, and only that seat."""
    room, other = create_room(shared_server, "french", 3), create_room(shared_server, "french", 3)
    url = f"{shared_server.url}/api/rooms/{room}/join"
    for body in ({}, {"seat": 1}, {"invitation": "not-a-code"}, {"invitation": INVITATIONS[other][1]}):
        r = httpx.post(url, json=body, timeout=10)
        assert r.status_code in (400, 403), (body, r.text)
    assert facts(shared_server, room)["taken"] == []
    assert "a join with an invitation that is not the room's" in shared_server.log_text()
    assert join(shared_server, room, 1)["seat"] == 1  # the seat's own invitation still takes it


@pytest.mark.parametrize(
    "body",
    [
        {"ruleset": "no-such-rules", "players": 2},
        {"ruleset": "french", "players": 9},
        {"ruleset": "french", "players": "2"},
        {"ruleset": "french", "players": 2, "bots": {"1": "terminator"}},
        {"ruleset": "french", "players": 2, "bots": {"5": "greedy"}},
        {"ruleset": "french", "players": 2, "seed": "x"},
        {"ruleset": "french", "toml": "name = 'x'", "players": 2},
        {"toml": "this is not TOML", "players": 2},
        {"players": 2},
    ],
)
def test_bad_room_requests_are_refused(shared_server: Server, body: dict[str, Any]) -> None:
    r = httpx.post(shared_server.url + "/api/rooms", json=body, timeout=10)
    assert r.status_code == 400 and r.json()["error"], r.text


def test_uploaded_rules_make_a_room(shared_server: Server) -> None:
    toml = 'name = "gabo-at-3"\nextends = "french"\n\n[rules.call]\nthreshold = 3\n'
    room = create_room(shared_server, None, 2, {0: "greedy", 1: "greedy"}, toml=toml, seed=5)
    assert facts(shared_server, room)["ruleset"] == "gabo-at-3"
    wait_over(shared_server, room, 30)


@pytest.mark.parametrize("ruleset", UNTIMED + TIMED)
def test_every_builtin_ruleset_is_played_to_its_end_by_bots(shared_server: Server, ruleset: str) -> None:
    v = tamalou.load_variant(ruleset)
    players = v.rules.players.min
    bots = {p: ("greedy", "cautious", "random")[p % 3] for p in range(players)}
    room = create_room(shared_server, ruleset, players, bots, seed=3)
    # A timed ruleset runs on the clock: an opening of several seconds, a final countdown. The bounds are for a
    # loaded host (a 14-round Cabo match, 1,032 actions, took over 30 s on CI beside other work): a stalled room
    # never ends.
    done = wait_over(shared_server, room, 180 if ruleset in TIMED else 120)
    match = replay_room(shared_server, room, ruleset, players, seed=3)
    assert match.is_over
    assert done["round"] == match.round and done["actions"] == sum(len(r) for r in match.actions)


def test_rounds_follow_each_other_in_a_match(shared_server: Server) -> None:
    room = create_room(shared_server, "multi-round", 2, {1: "greedy"}, seed=8)
    player = Player(shared_server, room, join(shared_server, room)["token"])
    play_first_legal(player)
    match = replay_room(shared_server, room, "multi-round", 2, seed=8)
    assert match.is_over and match.round == player.state["round"] > 0
    assert player.state["rounds"] == match.scores
    assert player.state["match"] == match.result().model_dump(mode="json")
    # The deals of later rounds come in the same stream, numbered on.
    assert [e["type"] for e in player.events].count("dealt") == match.round + 1
    assert player.events == events_for(match, 0)


def test_a_seat_that_comes_back_gets_the_events_it_missed(shared_server: Server) -> None:
    room = create_room(shared_server, "french", 3, {2: "greedy"}, seed=21)
    a = Player(shared_server, room, join(shared_server, room)["token"])
    b_seat = join(shared_server, room)
    b = Player(shared_server, room, b_seat["token"])
    heard = len(b.events)
    b.close()
    played = 0
    while played < 6 and not a.state["over"]:  # seat 0 plays on; seat 1 is away (the bot waits for it)
        if a.must_act():
            a.act(a.must_act()[0])
            played += 1
        a.receive()
        if a.state["over"] or (1 in a.state["to_act"] and not a.must_act()):
            break
    assert a.seq > heard
    back = Player(shared_server, room, b_seat["token"], since=heard)
    assert back.welcome["seq"] == a.seq
    missed = back.welcome["events"]
    assert len(missed) == a.seq - heard > 0
    fresh = Player(shared_server, room, b_seat["token"])  # a second socket for the same seat, from the start
    assert fresh.welcome["events"][heard:] == missed
    # the same state (but ``busy``: the bot may be asked whether it matches between the two welcomes)
    assert {**fresh.welcome["state"], "busy": None} == {**back.welcome["state"], "busy": None}
    # Seat 1 sees the same facts as seat 0, without seat 0's secrets.
    assert [e["type"] for e in fresh.welcome["events"]] == [e["type"] for e in a.events]
    for sock in (a, back, fresh):
        sock.close()


def test_timed_rules_run_on_the_servers_clock(shared_server: Server) -> None:
    started = time.monotonic()  # the room's clock starts at its creation, a little later
    room = create_room(shared_server, None, 2, {1: "greedy"}, toml=QUICK_TIMED, seed=4)
    player = Player(shared_server, room, join(shared_server, room)["token"])
    assert player.state["deadline"] == pytest.approx(1.0)  # the opening's end
    deadlines = []
    while not player.state["over"]:  # seat 0 never acts: the server plays its turns when they run out
        deadlines.append(player.state["deadline"])
        player.receive(10)
        assert time.monotonic() - started < 30
    events = [e["type"] for e in player.events]
    assert "opening_over" in events and "timeout" in events
    ticks = [a for r in action_log(shared_server, room) for a in r if a["type"] == "tick"]
    assert ticks, "no deadline passed"
    for tick in ticks:  # each tick came at a deadline the game announced, not at a polling step
        assert tick["at"] in deadlines
    # Time passed on the server's clock, never ahead of the real one; seat 0's turns were played for it.
    assert time.monotonic() - started >= ticks[-1]["at"]
    assert any(e["type"] == "timeout" and e.get("player") == 0 for e in player.events)


def test_the_next_round_is_dealt_after_the_pause(tmp_path: Path) -> None:
    server = Server(tmp_path / "pause.db", tmp_path / "pause.log", round_pause=0.5)
    server.start()
    try:
        room = create_room(server, "multi-round", 2, {1: "greedy"}, seed=8)
        player = Player(server, room, join(server, room)["token"])
        while player.state["result"] is None:  # play the first round out
            player.wait_until_turn_or_over()
            if player.must_act():
                player.act(player.must_act()[0])
                player.receive()
        ended = time.monotonic()
        scores = player.state["result"]["scores"]
        assert player.state["round"] == 0 and not player.state["over"] and player.state["legal"] == []
        assert player.state["rounds"] == []  # not scored yet: the players read the round's result
        message = player.receive(10)  # the next round's deal
        assert time.monotonic() - ended >= 0.4
        assert message["state"]["round"] == 1 and message["state"]["result"] is None
        assert message["state"]["rounds"] == [scores]
        assert message["events"][0]["type"] == "dealt"
    finally:
        server.stop()


def test_the_last_round_ends_the_match_without_a_pause(tmp_path: Path) -> None:
    """Between rounds the server pauses; after the match's last round it does not: the update that
    shows the last round's result already says that the match is over, with its result."""
    toml = 'name = "two-rounds"\nextends = ["french", "multi-round"]\n\n[rules.rounds]\ncount = 2\n'
    server = Server(tmp_path / "last.db", tmp_path / "last.log", round_pause=0.5)
    server.start()
    try:
        room = create_room(server, None, 2, {1: "greedy"}, toml=toml, seed=3)
        player = Player(server, room, join(server, room)["token"])
        while not player.state["over"]:
            player.wait_until_turn_or_over()
            if player.must_act():
                player.act(player.must_act()[0])
                player.receive()
        states = [m["state"] for m in map(json.loads, player.frames) if m["type"] == "update"]
        # (round, round over, match over) of every state received
        seen = [(state["round"], state["result"] is not None, state["over"]) for state in states]
        assert (0, True, False) in seen  # the first round's result, shown during the pause
        assert (1, True, False) not in seen  # the last one's never without the end of the match
        assert seen[-1] == (1, True, True)
        assert player.state["match"] is not None and len(player.state["rounds"]) == 2
        assert wait_over(server, room, 5)["over"]
    finally:
        server.stop()
