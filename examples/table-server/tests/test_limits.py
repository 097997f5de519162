"""What many people sharing one server may not do to each other (issue 47): connections that never finish their
headers, many sockets on one seat, thousands of rooms from one address, large frames at the allowed pace, and a
client leaving mid-write. Each is refused past its cap, logged in one line (once a minute for the same address),
and never stops anyone else from being served.

The servers here run with the real limits of one address (``conftest.LOOSE_LIMITS`` is for the other tests), and
the hostile clients come from addresses of their own (127.0.0.x: the whole of 127.0.0.0/8 is this machine).
"""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed

from conftest import Server, create_room, join, running

#: The real limits (a test's options come after ``conftest.LOOSE_LIMITS`` and win).
REAL = (
    "--rooms-per-address", "50", "--bot-rooms-per-address", "4", "--room-burst", "30", "--rooms-per-minute", "60",
)  # fmt: skip


def more_files(wanted: int) -> None:
    """Raise this process's soft limit of open files to ``wanted`` (a test that opens many sockets)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def lines(server: Server, text: str) -> list[str]:
    return [line for line in server.log_text().splitlines() if text in line]


def test_1100_slow_header_connections_do_not_stop_a_new_client(tmp_path: Path) -> None:
    """1,100 connections that send a request line and one header, then nothing (a client sending a header line
    every few seconds), as the review's client: a new client is served within 2 s; the slow ones are closed past
    the cap of connections sending headers, and once their headers are late; each logged once."""
    more_files(4096)
    with running(tmp_path, (*REAL, "--header-seconds", "3")) as server:
        slow = []
        for _ in range(1100):
            s = socket.create_connection(("127.0.0.1", server.port), source_address=("127.0.0.3", 0))
            s.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\n")
            slow.append(s)
        try:
            started = time.perf_counter()
            answer = httpx.get(server.url + "/api/rulesets", timeout=10)
            took = time.perf_counter() - started
            assert answer.status_code == 200 and took < 2.0, took
            time.sleep(4)  # past the headers' time limit: the ones still open are closed
            closed = 0
            for s in slow:
                s.settimeout(2)
                try:
                    closed += s.recv(1) == b""
                except (ConnectionResetError, TimeoutError):
                    closed += 1
            assert closed == 1100
        finally:
            for s in slow:
                s.close()
        evicted = "closed a connection from 127.0.0.3: 256 of its connections were sending headers"
        assert len(lines(server, evicted)) == 1
        assert len(lines(server, "closed a connection from 127.0.0.3: its headers took more than 3 s")) == 1
        assert httpx.get(server.url + "/api/rulesets", timeout=10).status_code == 200


def test_300_sockets_on_one_seat_are_refused_past_the_cap(tmp_path: Path) -> None:
    with running(tmp_path, REAL) as server:
        room = create_room(server, "french", 2, {1: "greedy"}, seed=1)
        token = join(server, room, 0)["token"]

        async def sockets() -> tuple[int, list[int]]:
            welcomed, refused, kept = 0, [], []
            for _ in range(300):
                ws = await aconnect(f"{server.ws_url}/ws/{room}")
                await ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
                first = json.loads(await ws.recv())
                if first["type"] == "welcome":
                    welcomed += 1
                    kept.append(ws)
                else:
                    assert first == {"type": "error", "reason": "seat 0 has 4 sockets open already"}
                    try:
                        await ws.recv()
                    except ConnectionClosed as closed:
                        refused.append(closed.rcvd.code if closed.rcvd else 0)
            for ws in kept:
                await ws.close()
            return welcomed, refused

        welcomed, refused = asyncio.run(sockets())
        assert welcomed == 4 and refused == [4409] * 296
        assert len(lines(server, f"refused a socket from 127.0.0.1: room {room}: seat 0 has 4 sockets open")) == 1


def test_3000_rooms_from_one_address_are_refused_past_the_caps(tmp_path: Path) -> None:
    """3,000 rooms asked for at once from one address (the review made 3,000 in 7 s): a burst of 30 is made, then
    a room a second at most; the rest are refused (429, answered after a second), logged once; connections past
    the cap of one address's connections sending headers are closed (counted with the refusals). Another address
    is served meanwhile."""
    with running(tmp_path, REAL) as server:
        body = json.dumps({"ruleset": "french", "players": 2, "bots": {"1": "greedy"}}).encode()
        request = (
            f"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode() + body

        async def flood() -> dict[int, int]:
            """3,000 requests, 250 at a time, each on a connection of its own (a plain client: httpx's own work
            would be the bottleneck here, not the server's)."""
            answers: dict[int, int] = {}
            at_once = asyncio.Semaphore(250)

            async def one() -> None:
                async with at_once:
                    try:
                        reader, writer = await asyncio.open_connection(
                            "127.0.0.1", server.port, local_addr=("127.0.0.4", 0)
                        )
                        writer.write(request)
                        status = int((await reader.readline()).split()[1])
                        writer.close()
                    except (OSError, IndexError, ValueError):
                        status = 0  # closed while it was sending its headers
                    answers[status] = answers.get(status, 0) + 1

            await asyncio.gather(*(one() for _ in range(3000)))
            return answers

        started = time.perf_counter()
        answers = asyncio.run(flood())
        took = time.perf_counter() - started
        made = answers.get(201, 0)
        assert 30 <= made <= 30 + took + 1 and made + answers.get(429, 0) + answers.get(0, 0) == 3000, answers
        assert answers.get(429, 0) > 2000, answers
        assert create_room(server, "french", 2, {1: "greedy"})  # from 127.0.0.1: its own limits
        refusals = lines(server, "refused a room from 127.0.0.4")
        assert len(refusals) == 1, refusals[:3]


def test_large_frames_at_the_pace_are_refused_by_their_bytes(tmp_path: Path) -> None:
    """Frames of 60 KB are over the largest frame read (closed 1009); frames of 12 KB at the allowed pace of
    messages are over the pace of bytes (closed 4429, logged once)."""
    with running(tmp_path, REAL) as server:
        room = create_room(server, "french", 2, {1: "greedy"}, seed=1)
        token = join(server, room, 0)["token"]

        async def frames(size: int, per_second: float) -> int:
            async with aconnect(f"{server.ws_url}/ws/{room}", max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
                await ws.recv()
                try:
                    for _ in range(50):
                        await ws.send("x" * size)
                        await asyncio.sleep(1 / per_second)
                    while True:
                        await ws.recv()
                except ConnectionClosed as closed:
                    return closed.rcvd.code if closed.rcvd else 0
            return 0

        assert asyncio.run(frames(60 * 1024, 5)) == 1009
        assert asyncio.run(frames(12 * 1024, 10)) == 4429
        assert len(lines(server, f"refused a socket from 127.0.0.1: room {room}: seat 0 sends too fast")) == 1


def test_a_client_leaving_mid_write_is_not_an_error(tmp_path: Path) -> None:
    """Sockets that vanish (no close) while their room's bots play at full speed and updates are being written:
    nothing but quiet disconnects in the log."""
    with running(tmp_path, REAL) as server:
        for _ in range(10):
            room = create_room(server, "french", 4, {1: "greedy", 2: "greedy", 3: "greedy"}, seed=1)
            token = join(server, room, 0)["token"]
            s = socket.create_connection(("127.0.0.1", server.port))
            key = "dGhlIHNhbXBsZSBub25jZQ=="
            s.sendall(
                f"GET /ws/{room} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            s.recv(4096)
            payload = json.dumps({"type": "hello", "token": token, "since": 0}).encode()
            mask = b"\x01\x02\x03\x04"
            masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            s.sendall(bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big") + mask + masked)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # a reset
            s.close()
        time.sleep(2)
        assert httpx.get(server.url + "/api/rulesets", timeout=10).status_code == 200
        log = server.log_text()
        assert "Exception in ASGI application" not in log and "Traceback" not in log, log[-3000:]
