"""Fixtures: a real server in a subprocess (``python -m table_server``) on 127.0.0.1, and small clients.

``server`` starts a fresh server on a free port with its own SQLite file; ``server.stop()`` kills it
(SIGKILL: no clean shutdown, as in a crash) and ``server.start()`` starts it again on the same database.
``create_room``, ``join`` and ``Player`` talk to it the way the web page does: HTTP for the lobby, a
websocket per seat for the game.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
import tamalou
from websockets.sync.client import ClientConnection, connect

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"


#: The admin token of the servers the tests start (``TABLE_ADMIN_TOKEN``).
ADMIN_TOKEN = "test-admin-token"


#: The tests come from one address (127.0.0.1) and make many rooms: their servers allow one address as much as
#: many people (``test_limits.py`` starts servers with the real limits; a test's own options come after these).
LOOSE_LIMITS = (
    "--rooms-per-address", "100000", "--bot-rooms-per-address", "100000", "--room-burst", "100000",
    "--rooms-per-minute", "1000000",
)  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``python -m table_server`` process: ``.url``, ``.ws_url``, ``.db``; ``.start()``, ``.stop()``."""

    def __init__(self, db: Path, log: Path, round_pause: float = 0.0, options: tuple[str, ...] = ()) -> None:
        self.db = db
        self.log = log
        self.round_pause = round_pause
        self.options = options  # more command-line options of the server
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.started_at = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, port: int | None = None) -> None:
        """Start the server on the same database (on ``port``, else the last one, else a free one)."""
        assert self.process is None, "already running"
        self.port = port or self.port or free_port()
        env = dict(os.environ, PYTHONUNBUFFERED="1", TABLE_ADMIN_TOKEN=ADMIN_TOKEN)  # the log is whole after a kill
        if importlib.util.find_spec("table_server") is None:  # not installed: run it from the sources
            env["PYTHONPATH"] = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
        command = [sys.executable, "-m", "table_server", "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--db", str(self.db), "--round-pause", str(self.round_pause), *LOOSE_LIMITS, *self.options]
        self.started_at = self.log.stat().st_size if self.log.exists() else 0  # where this start's log begins
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}):\n{self.log.read_text()}")
            try:
                if httpx.get(self.url + "/api/rulesets", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer within 30 s:\n{self.log.read_text()}")

    def stop(self) -> None:
        """Kill the process at once (SIGKILL), as a crash would."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for_log(self, text: str, seconds: float = 30.0) -> str:
        """The log of the last start once it holds ``text`` (what the server says when its background work, such
        as resuming the rooms after a start, is done); ``AssertionError`` after ``seconds``."""
        deadline = time.monotonic() + seconds
        while text not in (log := self.log_text()[self.started_at :]):
            assert time.monotonic() < deadline, f"{text!r} not in the log:\n{log[-3000:]}"
            time.sleep(0.05)
        return log


@contextlib.contextmanager
def running(folder: Path, options: tuple[str, ...] = ()) -> Iterator[Server]:
    """A server on its own database and log in ``folder``, stopped on the way out."""
    s = Server(folder / "tables.db", folder / "server.log", options=options)
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A fresh server with its own database (the round pause is 0: the next round is dealt at once)."""
    with running(tmp_path) as s:
        yield s


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a whole test module (tests that only create their own rooms)."""
    with running(tmp_path_factory.mktemp("shared")) as s:
        yield s


#: The invitations of every room the tests created: room -> seat -> code (the creator's answer).
INVITATIONS: dict[str, dict[int, str]] = {}


def create_room(
    server: Server,
    ruleset: str | None = "french",
    players: int = 2,
    bots: dict[int, str] | None = None,
    **extra: Any,
) -> str:
    """Create a room (``toml=...`` in ``extra`` uploads rules instead of naming them); return its id."""
    body: dict[str, Any] = {"players": players, "bots": {str(k): v for k, v in (bots or {}).items()}}
    if ruleset is not None:
        body["ruleset"] = ruleset
    body.setdefault("bot_delay", 0)
    body.update(extra)
    r = httpx.post(server.url + "/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    room: str = r.json()["room"]
    INVITATIONS[room] = {int(p): code for p, code in r.json()["invitations"].items()}
    return room


def join(server: Server, room: str, seat: int | None = None) -> dict[str, Any]:
    """Take a seat with its invitation (the first free one if ``seat`` is None):
    ``{"seat": p, "token": T, "url": "/table?room=...&token=..."}``."""
    if seat is None:
        free = httpx.get(server.url + f"/api/rooms/{room}", timeout=10).json()["free"]
        seat = free[0]
    body = {"invitation": INVITATIONS[room][seat]}
    r = httpx.post(server.url + f"/api/rooms/{room}/join", json=body, timeout=10)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


class Player:
    """One seat's websocket, as the page uses it: ``hello`` then ``welcome``, ``act`` then ``update``."""

    def __init__(self, server: Server, room: str, token: str, since: int = 0) -> None:
        self.exit = ExitStack()
        self.ws: ClientConnection = self.exit.enter_context(connect(f"{server.ws_url}/ws/{room}", open_timeout=10))
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": since}))
        self.welcome = self.receive()
        self.frames: list[str] = []  # every text frame received after the welcome
        self.seat: int = self.welcome.get("seat", -1)
        self.events: list[dict[str, Any]] = list(self.welcome.get("events", []))
        self.state: dict[str, Any] = self.welcome.get("state", {})
        self.seq: int = self.welcome.get("seq", 0)

    def receive(self, timeout: float = 20) -> dict[str, Any]:
        text = self.ws.recv(timeout)
        assert isinstance(text, str)
        if hasattr(self, "frames"):
            self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "update":
            self.events.extend(message["events"])
            self.state = message["state"]
            self.seq = message["seq"]
        return message

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def act(self, action: dict[str, Any]) -> None:
        self.send({"type": "action", "action": action})

    def must_act(self) -> list[dict[str, Any]]:
        """The actions this seat has to choose from now (empty when it may only match out of turn)."""
        legal: list[dict[str, Any]] = self.state.get("legal", [])
        if self.state.get("busy"):  # the bots are answering: the next update comes at once
            return []
        if self.seat in self.state.get("to_act", []) and any(a["type"] != "match" for a in legal):
            return legal
        return []

    def wait_until_turn_or_over(self, timeout: float = 30) -> None:
        """Read updates until this seat must act or the whole game is over."""
        deadline = time.monotonic() + timeout
        while not self.state.get("over") and not self.must_act():
            left = deadline - time.monotonic()
            assert left > 0, f"seat {self.seat}: no turn and no end within {timeout} s"
            self.receive(left)

    def close(self) -> None:
        self.exit.close()


def action_log(server: Server, room: str) -> list[list[dict[str, Any]]]:
    """The room's saved action log, read from the server's database: one list of action JSON per round."""
    db = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT round, action FROM actions WHERE room = ? ORDER BY n", (room,)).fetchall()
    finally:
        db.close()
    rounds: list[list[dict[str, Any]]] = []
    for r, action in rows:
        while len(rounds) <= r:
            rounds.append([])
        rounds[r].append(json.loads(action))
    return rounds


def replay_room(server: Server, room: str, ruleset: str, players: int, seed: int) -> tamalou.Match:
    """The room's match rebuilt by tamalou from its seed and the saved action log (no server involved)."""
    return tamalou.replay_match(ruleset, players, seed=seed, actions=action_log(server, room) or [[]])


def events_for(match: tamalou.Match, seat: int) -> list[dict[str, Any]]:
    """Every event of every round of ``match`` as ``seat`` sees it (what the server must have sent it)."""
    out: list[dict[str, Any]] = []
    rounds = match.actions
    for k in range(len(rounds)):
        again = tamalou.replay_match(match.variant, match.players, seed=match.seed, actions=rounds[: k + 1])
        out.extend(e.to_dict() for e in again.game.events_so_far(seat))
    return out
