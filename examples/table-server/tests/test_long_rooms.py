"""Long rooms after a restart (issue 47): a database of 100 finished long matches and 3 long ones in play.

A long match is the longest the server takes from an upload (``--max-match-turns``, 4,000 turns): 10 rounds of
400 turns, calls disabled, about 8,500 actions. The database is written here as the server writes it (its
``Store``: the snapshot at the deal of the last round, one row an action), then the server starts on it:

- its first request is served within 5 s (rooms are restored lazily, and the ones in play in the background);
- opening finished long rooms one after another (a seat's socket, its welcome with every event since the
  start) delays no other request by more than 50 ms (each is restored off the event loop);
- once they are unloaded (a finished room leaves memory with its last socket; a sweep gives the memory back),
  the server's memory is within 20 % of its idle figure.
"""

from __future__ import annotations

import json
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
import tamalou
from websockets.sync.client import connect

from conftest import Server
from table_server.rooms import token_hash
from table_server.rulesets import load_ruleset, match_turns
from table_server.store import SavedRoom, Store

#: Rules of the longest match the server takes (French, no call: every round lasts its 400 turns).
LONG = """extends = "french"
[rules.call]
enabled = false
[rules.rounds]
form = "points"
limit = 100000
max_rounds = 10
"""
FINISHED, IN_PLAY = 100, 3
#: Finished long rooms opened one after another (each closed at once), then held open together (in memory at
#: once) before they are closed.
OPENED, HELD = 30, 20


def long_match(seed: int, rounds: int | None = None) -> tuple[tamalou.Match, str, int]:
    """A 2-player long match of random legal moves, played to its end (or into round ``rounds``, halfway), with
    the snapshot at the deal of its last round and the actions played before that deal."""
    variant = load_ruleset(None, LONG)
    match = tamalou.new_match(variant, 2, seed=seed)
    rng = random.Random(seed)
    dealt, before = match.to_json(), 0
    while not match.is_over:
        game = match.game
        if game.is_over:
            match.next_round()
            dealt, before = match.to_json(), sum(len(r) for r in match.actions)
            continue
        if rounds is not None and len(match.actions) == rounds and len(match.actions[-1]) >= 400:
            break
        game.apply(rng.choice(game.legal_actions()))
    return match, dealt, before


def write_rooms(db: Path) -> dict[str, list[str]]:
    """The rooms, written as the server writes them: ``{"finished": [room...], "in_play": [room...]}``. Each room's
    seat 0 is a person whose token is ``token-<room>``; seat 1 is a greedy bot."""
    finished = long_match(1)
    halfway = long_match(2, rounds=5)
    assert finished[0].is_over and not halfway[0].is_over and not halfway[0].game.is_over
    store = Store(db)
    rooms: dict[str, list[str]] = {"finished": [], "in_play": []}
    for k in range(FINISHED + IN_PLAY):
        kind = "finished" if k < FINISHED else "in_play"
        match, dealt, before = finished if kind == "finished" else halfway
        room = f"{kind}-{k}"
        saved = SavedRoom(
            id=room, ruleset=None, toml=LONG, players=2, bots={1: "greedy"}, bot_delay=0.0, snapshot=match.to_json(),
            over=False, seats={}, invitations={0: token_hash(f"invitation-{room}")}, owner="127.0.0.9",
            name="french", title="Long",
        )  # fmt: skip
        store.create_room(saved)
        store.add_seat(room, 0, token_hash(f"token-{room}"))
        store.save_snapshot(room, dealt, match.is_over, before, len(match.actions) - 1)
        rows = [
            (room, n, r, json.dumps(a.to_dict(), separators=(",", ":")))
            for n, (r, a) in enumerate((r, a) for r, actions in enumerate(match.actions) for a in actions)
        ]
        with store.db:
            store.db.execute("BEGIN")
            store.db.executemany("INSERT INTO actions (room, n, round, action) VALUES (?, ?, ?, ?)", rows)
            store.db.execute(
                "UPDATE rooms SET over = ?, played = ? WHERE id = ?", (int(match.is_over), len(rows), room)
            )
        rooms[kind].append(room)
    store.close()
    return rooms


def memory(server: Server) -> int:
    """The server process's resident memory, in KB (its workers are processes of their own)."""
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))


#: Another client, in a process of its own (the test's own threads would share its interpreter's lock): ``GET
#: /api/rulesets`` every 20 ms until its standard input closes, then each answer's time (seconds) as JSON.
PROBE = """
import json, sys, threading, time
import httpx
done = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
times = []
with httpx.Client(base_url=sys.argv[1], timeout=10) as client:
    while not done.is_set():
        started = time.perf_counter()
        assert client.get("/api/rulesets").status_code == 200
        times.append((started, time.perf_counter() - started))
        time.sleep(0.02)
print(json.dumps(times))
"""


class Probe:
    """``PROBE`` running: ``marked()`` notes a moment, ``stop()`` gives the answers' times before and after it."""

    def __init__(self, server: Server) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", PROBE, server.url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.mark = 0.0

    def marked(self) -> None:
        self.mark = time.perf_counter()

    def stop(self) -> tuple[list[float], list[float]]:
        out, _ = self.process.communicate("", timeout=30)
        times = json.loads(out)
        return [t for at, t in times if at < self.mark], [t for at, t in times if at >= self.mark]


def open_room(server: Server, room: str, sockets: ExitStack) -> int:
    """A seat's socket opens the room (``sockets`` closes it): its welcome, then the updates that bring every event
    since the start (a welcome holds 1,000 events at most). How many events it had in all."""
    ws = sockets.enter_context(connect(f"{server.ws_url}/ws/{room}", open_timeout=30))
    ws.send(json.dumps({"type": "hello", "token": f"token-{room}", "since": 0}))
    message = json.loads(ws.recv(30))
    assert message["type"] == "welcome", message
    events, seq = len(message["events"]), message["seq"]
    assert events == seq <= 1000
    while not message["state"]["over"] or len(message["events"]) == 1000:
        message = json.loads(ws.recv(30))
        assert message["type"] == "update" and message["seq"] == seq + len(message["events"]), message
        events, seq = events + len(message["events"]), message["seq"]
    return events


def opened(server: Server, room: str) -> int:
    """``open_room``, its socket closed at once (the room then leaves memory)."""
    with ExitStack() as sockets:
        return open_room(server, room, sockets)


@pytest.mark.alone
def test_a_restart_with_long_rooms_serves_at_once_opens_them_off_the_loop_and_gives_their_memory_back(
    tmp_path: Path,
) -> None:
    assert match_turns(load_ruleset(None, LONG)) == 4000  # the longest the server takes (--max-match-turns)
    db = tmp_path / "tables.db"
    rooms = write_rooms(db)
    server = Server(db, tmp_path / "server.log", options=("--idle-seconds", "300"))
    started = time.perf_counter()
    server.start()
    first = time.perf_counter() - started
    try:
        assert first < 5.0, f"first request served {first:.2f} s after the start"
        log = server.wait_for_log("room(s) resumed", 60)
        assert f"{IN_PLAY} room(s) resumed, 0 quarantined" in log, log[-2000:]
        time.sleep(3)
        idle = memory(server)

        probe = Probe(server)
        time.sleep(2)
        probe.marked()
        events = [opened(server, room) for room in rooms["finished"][-OPENED:]]
        baseline, during = probe.stop()
        assert min(events) > 8000, events[:3]  # every event of the match
        worst = max(during) - statistics.median(baseline)
        assert worst < 0.050, f"a request waited {worst * 1000:.0f} ms more while finished long rooms were opened"

        with ExitStack() as held:  # rooms in memory together
            for room in rooms["finished"][:HELD]:
                open_room(server, room, held)
            loaded = memory(server)
        deadline = time.monotonic() + 30
        while memory(server) > idle * 1.2:  # unloaded as their sockets leave, the memory given back by a sweep
            assert time.monotonic() < deadline, f"idle {idle} KB, loaded {loaded} KB, now {memory(server)} KB"
            time.sleep(0.5)
        unloaded = memory(server)
        print(f"first request {first:.2f} s; the worst wait {worst * 1000:.1f} ms ({len(during)} requests);")
        print(f"memory: idle {idle} KB, {HELD} long rooms open {loaded} KB, unloaded {unloaded} KB")
        assert loaded > idle * 1.2  # (else the test would not show memory given back)
        db_reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        assert db_reader.execute("SELECT COUNT(*) FROM rooms WHERE quarantined IS NOT NULL").fetchone()[0] == 0
        db_reader.close()
    finally:
        server.stop()
