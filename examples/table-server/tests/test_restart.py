"""A server killed mid-game (SIGKILL) and started again on its database goes on exactly where it was.

Each test plays the same seeded room twice: once with the server killed and restarted in the middle, once
without interruption, and compares the whole action log, every event each seat received, and the result;
and checks both against tamalou's own replay of the saved log.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from conftest import Player, Server, action_log, create_room, events_for, join, replay_room
from test_server import wait_over

RULESET, PLAYERS, SEED = "multi-round", 3, 2024


def saved_snapshot(server: Server, room: str) -> str:
    snapshot, _ = saved_room(server, room)
    return snapshot


def saved_room(server: Server, room: str) -> tuple[str, bool]:
    """The room's saved snapshot and whether its match is over, read from the database."""
    db = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)
    try:
        snapshot, over = db.execute("SELECT snapshot, over FROM rooms WHERE id = ?", (room,)).fetchone()
    finally:
        db.close()
    return snapshot, bool(over)


def step(players: list[Player]) -> bool:
    """One human action: once the bots are done (no socket's state is ``busy``), the first seat that must act
    plays its first listed action, then every socket reads the update that follows (the bots' answers come in
    the next ones: ``bot_delay`` is 0). ``False`` once over."""
    for player in players:
        while player.state.get("busy"):
            player.receive()
    for player in players:
        if player.state["over"]:
            return False
        legal = player.must_act()
        if legal:
            player.act(legal[0])
            for p in players:
                message = p.receive()
                assert message["type"] == "update", message
            return True
    raise AssertionError(f"nobody must act: {players[0].state}")


def play(server: Server, crash_after: int | None) -> dict[str, Any]:
    """The scenario: two human seats and a bot; with ``crash_after``, the server is killed right after that
    many human actions (the last one sent, its answer not awaited) and started again."""
    room = create_room(server, RULESET, PLAYERS, {1: "greedy"}, seed=SEED)
    tokens = [join(server, room)["token"] for _ in range(2)]
    players = [Player(server, room, t) for t in tokens]
    done = 0
    while True:
        if crash_after is not None and done == crash_after:
            for p in players:
                while p.state.get("busy"):
                    p.receive()
            legal = players[0].must_act() or players[1].must_act()
            seat = 0 if players[0].must_act() else 1
            players[seat].act(legal[0])  # in flight when the process dies
            server.stop()
            for p in players:
                p.close()
            time.sleep(0.2)
            server.start()
            heard = [p.events for p in players]
            players = [Player(server, room, t, since=len(h)) for t, h in zip(tokens, heard, strict=True)]
            for p, h in zip(players, heard, strict=True):
                p.events = h + p.events  # what it had, then what it missed
                assert p.seq == len(p.events)
            crash_after = None
        if not step(players):
            break
        done += 1
    for p in players:
        p.close()
    return {
        "room": room,
        "log": action_log(server, room),
        "events": [p.events for p in players],
        "state": [p.state for p in players],
        "snapshot": saved_snapshot(server, room),
        "actions": done,
    }


def test_a_killed_server_resumes_the_game_exactly(server: Server, tmp_path: Path) -> None:
    crashed = play(server, crash_after=9)
    assert crashed["actions"] > 9
    assert ": 1 room(s) resumed" in server.wait_for_log(" room(s) resumed")
    uninterrupted_server = Server(tmp_path / "again.db", tmp_path / "again.log")
    uninterrupted_server.start()
    try:
        uninterrupted = play(uninterrupted_server, crash_after=None)
    finally:
        uninterrupted_server.stop()
    assert crashed["log"] == uninterrupted["log"]
    assert crashed["events"] == uninterrupted["events"]
    assert crashed["state"] == uninterrupted["state"]
    assert crashed["snapshot"] == uninterrupted["snapshot"]
    # And tamalou, replaying the saved log from the seed, finds the same match, events and result.
    match = replay_room(server, crashed["room"], RULESET, PLAYERS, SEED)
    assert match.is_over and match.round > 0
    assert match.to_json() == crashed["snapshot"]
    for seat, events in zip((0, 2), crashed["events"], strict=True):
        assert events == events_for(match, seat)
    assert crashed["state"][0]["match"] == match.result().model_dump(mode="json")


def test_rooms_of_bots_resume_after_a_kill(server: Server, tmp_path: Path) -> None:
    bots = {0: "greedy", 1: "random"}
    rooms = {
        ruleset: create_room(server, ruleset, 2, bots, seed=77, bot_delay=0.01) for ruleset in ("french", "multi-round")
    }
    # Killed as soon as both rooms have played (a fixed wait of 0.15 s saw no move yet on a loaded host: the bots
    # play in worker processes, which the machine's other work may keep waiting).
    deadline = time.monotonic() + 30
    while not all(sum(map(len, action_log(server, room))) for room in rooms.values()):
        assert time.monotonic() < deadline, "no bot move within 30 s"
        time.sleep(0.01)
    server.stop()
    for room in rooms.values():  # killed in the middle of both games
        assert sum(map(len, action_log(server, room))) > 0
        assert not saved_room(server, room)[1]
    server.start()
    for room in rooms.values():
        wait_over(server, room, 60)
    again = Server(tmp_path / "again.db", tmp_path / "again.log")
    again.start()
    try:
        for ruleset, room in rooms.items():
            other = create_room(again, ruleset, 2, bots, seed=77, bot_delay=0.01)
            wait_over(again, other, 60)
            assert action_log(server, room) == action_log(again, other), ruleset
            assert replay_room(server, room, ruleset, 2, 77).is_over
    finally:
        again.stop()


def test_the_clock_stands_still_while_the_server_is_down(server: Server) -> None:
    toml = 'name = "slow-fun"\nextends = "tamalou-fun"\n\n[rules.timing]\nturn_seconds = 2\npeek_seconds = 0.2\n'
    room = create_room(server, None, 2, {1: "greedy"}, toml=toml, seed=6)
    token = join(server, room)["token"]
    player = Player(server, room, token)
    player.wait_until_turn_or_over(10)
    deadline, now = player.state["deadline"], player.state["now"]
    assert deadline - now > 1
    server.stop()
    time.sleep(deadline - now + 0.5)  # longer than the turn had left
    server.start()
    back = Player(server, room, token, since=player.seq)
    assert back.welcome["events"] == []  # no turn ran out while the server was down
    state = back.welcome["state"]
    assert state["deadline"] == deadline and now <= state["now"] < deadline
    back.wait_until_turn_or_over(10)  # (a welcome may say the room's bots are still answering: busy)
    assert back.must_act()
    back.act(back.must_act()[0])
    assert back.receive()["type"] == "update"
    log = [a for r in action_log(server, room) for a in r if a.get("player") == 0]
    assert log and log[-1]["at"] < deadline
    back.close()
    player.close()
