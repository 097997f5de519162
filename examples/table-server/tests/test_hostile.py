"""One hostile user against the server: every upload, body and frame of ``hostile.py``, a restart after each,
rooms that cannot be restored (quarantined, the others start), bots that think too long, and sockets that
send too much. Each of these once took the server down or stalled every room."""

from __future__ import annotations

import json
import sqlite3
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from conftest import ADMIN_TOKEN, Player, Server, create_room, join, running

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import hostile  # beside loadtest.py, which sends the same things

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def quarantined(server: Server) -> list[dict[str, Any]]:
    r = httpx.get(server.url + "/api/admin/quarantine", headers=ADMIN, timeout=10)
    assert r.status_code == 200, r.text
    rooms: list[dict[str, Any]] = r.json()
    return rooms


def honest_game(server: Server, room: str, token: str) -> None:
    """Play seat 0 of ``room`` for a few moves (the room is alive and refereed)."""
    player = Player(server, room, token)
    for _ in range(3):
        player.wait_until_turn_or_over()
        if player.state["over"]:
            break
        player.act(player.must_act()[0])
        assert player.receive()["type"] == "update"
    player.close()


@pytest.mark.parametrize("what", list(hostile.UPLOADS))
def test_the_server_restarts_after_each_hostile_upload(server: Server, what: str) -> None:
    honest = create_room(server, "french", 2, {1: "greedy"}, seed=5)
    token = join(server, honest, 0)["token"]
    r = httpx.post(server.url + "/api/rooms", json={"bot_delay": 0, **hostile.UPLOADS[what]}, timeout=30)
    assert r.status_code in (201, 400), r.text
    if r.status_code == 400:
        assert 0 < len(r.json()["error"]) <= 2000
    time.sleep(0.3)  # bots of an accepted room play meanwhile
    server.stop()
    server.start()  # raises if the server does not start
    resumed = server.wait_for_log(" room(s) resumed")  # (in the background, once the server serves)
    assert ": 2 room(s) resumed" in resumed or r.status_code == 400
    assert quarantined(server) == []
    honest_game(server, honest, token)


@pytest.mark.parametrize("what", list(hostile.BODIES))
def test_a_hostile_body_is_refused(shared_server: Server, what: str) -> None:
    r = httpx.post(shared_server.url + "/api/rooms", content=hostile.BODIES[what], timeout=30)
    assert r.status_code == 400, r.text


def test_a_body_larger_than_it_says_or_without_a_length_is_read_up_to_the_cap_only(shared_server: Server) -> None:
    def chunks() -> Any:
        for _ in range(200):  # 200 x 8 KB, sent without Content-Length (chunked)
            yield b" " * 8192

    r = httpx.post(shared_server.url + "/api/rooms", content=chunks(), timeout=30)
    assert r.status_code == 400 and "larger than" in r.json()["error"]


@pytest.mark.parametrize("what", list(hostile.FRAMES))
def test_a_hostile_frame_is_refused_and_the_socket_stays(shared_server: Server, what: str) -> None:
    room = create_room(shared_server, "french", 2, {1: "greedy"}, seed=3)
    player = Player(shared_server, room, join(shared_server, room)["token"])
    player.wait_until_turn_or_over()
    player.send_text(hostile.FRAMES[what])
    answer = player.receive()
    assert answer["type"] == "error", answer
    player.act(player.must_act()[0])  # the socket still works
    assert player.receive()["type"] == "update"
    assert "RecursionError" not in shared_server.log_text()
    player.close()


def test_a_socket_that_sends_too_fast_is_closed(shared_server: Server) -> None:
    room = create_room(shared_server, "french", 2, {1: "greedy"}, seed=3)
    player = Player(shared_server, room, join(shared_server, room)["token"])
    with pytest.raises(ConnectionClosed):
        for _ in range(500):
            player.send_text('{"type": "action", "action": {"type": "call"}}')
        while True:
            player.receive(10)
    assert player.ws.close_code == 4429
    assert f"refused a socket from 127.0.0.1: room {room}: seat 0 sends too fast" in shared_server.log_text()


def latencies_while(server: Server, busy: threading.Event, seconds: float) -> list[float]:
    """The time of each ``GET /api/rulesets`` made in a row for ``seconds`` (while ``busy`` is set)."""
    times = []
    with httpx.Client(base_url=server.url, timeout=30) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end and busy.is_set():
            start = time.perf_counter()
            assert http.get("/api/rulesets").status_code == 200
            times.append(time.perf_counter() - start)
    return times


def test_search_bots_and_slow_uploads_do_not_stall_other_rooms(server: Server) -> None:
    """Six search bots playing a long match with no delay, and uploads that take long to validate, run in a
    worker process: the server keeps answering everyone else at once (they froze it for about 20 s)."""
    busy = threading.Event()
    busy.set()
    bots = hostile.UPLOADS["a long points match of six search bots"]
    room = httpx.post(server.url + "/api/rooms", json=bots, timeout=30).json()["room"]

    def uploads() -> None:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            while busy.is_set():
                http.post("/api/rooms", json=hostile.UPLOADS["64 KB of unknown keys"])

    sender = threading.Thread(target=uploads)
    sender.start()
    try:
        times = latencies_while(server, busy, 4.0)
    finally:
        busy.clear()
        sender.join()
    played = httpx.get(f"{server.url}/api/rooms/{room}", timeout=10).json()["actions"]
    assert played > 0  # the bots do play
    assert len(times) > 20
    # A stalled loop costs seconds (the search bots froze it for about 20 s, each such upload for 0.2 s, seen in
    # the median); the slowest request is bounded loosely, as a loaded CI host once took 0.81 s over one.
    assert max(times) < 2.0, sorted(times)[-5:]
    assert statistics.median(times) < 0.05, statistics.median(times)


def test_a_bot_past_its_budget_plays_a_random_move_and_the_game_goes_on(tmp_path: Path) -> None:
    with running(tmp_path, ("--bot-seconds", "0.02")) as server:
        room = create_room(server, "french", 2, {0: "ismcts", 1: "ismcts"}, seed=2)
        deadline = time.monotonic() + 60
        while not httpx.get(f"{server.url}/api/rooms/{room}", timeout=10).json()["over"]:
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.2)
        assert f"room {room}: a bot's move: no answer within 0.02 s: the fallback move instead" in server.log_text()


def damage(server: Server, room: str, snapshot: str) -> str:
    """Replace the room's saved snapshot (as a disk fault or a bug would); return the one it had."""
    db = sqlite3.connect(server.db)
    try:
        (before,) = db.execute("SELECT snapshot FROM rooms WHERE id = ?", (room,)).fetchone()
        with db:
            db.execute("UPDATE rooms SET snapshot = ? WHERE id = ?", (snapshot, room))
    finally:
        db.close()
    return str(before)


@pytest.mark.parametrize(
    "broken",
    [
        "not a snapshot",
        # a tampered snapshot: seat 0 marked as knowing every card of seat 1 (the replay finds it)
        "KNOWS-ALL",
    ],
)
def test_a_room_that_cannot_be_restored_is_quarantined_and_the_others_start(server: Server, broken: str) -> None:
    good = create_room(server, "french", 2, {1: "greedy"}, seed=1)
    token = join(server, good, 0)["token"]
    bad = create_room(server, "french", 2, {1: "greedy"}, seed=2)
    join(server, bad, 0)
    server.stop()
    saved = damage(server, bad, "")
    if broken == "KNOWS-ALL":
        state = json.loads(saved)
        game = state["game"]
        for card in game["hands"][1]:  # seat 0 (bit 1) marked as knowing every card of seat 1
            game["knowers"][card] |= 1
        broken = json.dumps(state, separators=(",", ":"))
    damage(server, bad, broken)
    server.start()
    assert ": 1 room(s) resumed, 1 quarantined" in server.wait_for_log(" room(s) resumed")
    assert f"room {bad}: cannot be restored" in server.log_text()
    report = quarantined(server)
    assert [q["room"] for q in report] == [bad] and report[0]["reason"], report
    assert httpx.get(f"{server.url}/api/rooms/{bad}", timeout=10).status_code == 404
    honest_game(server, good, token)  # the other room plays on
    # no admin without the token
    assert httpx.get(server.url + "/api/admin/quarantine", timeout=10).status_code == 403
    retry = f"{server.url}/api/admin/quarantine/{bad}/retry"
    assert httpx.post(retry, headers=ADMIN, timeout=10).status_code == 409  # still broken
    server.stop()
    damage(server, bad, saved)  # repaired
    server.start()
    assert [q["room"] for q in quarantined(server)] == [bad]  # kept out until an admin says so
    r = httpx.post(retry, headers=ADMIN, timeout=10)
    assert r.status_code == 200 and r.json()["room"] == bad
    assert quarantined(server) == []
