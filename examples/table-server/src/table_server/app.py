"""The web application (Starlette): the lobby's JSON API, the page, one websocket per seat, the admin endpoint.

``create_app(db)`` returns the ASGI app; ``python -m table_server`` serves it with uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import tamalou
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol
from .bots import Workers
from .limits import Bucket, Limits
from .lobby import Lobby
from .rooms import Refused, Room
from .rulesets import catalogue
from .store import Store

log = logging.getLogger("table_server")

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 128 * 1024
BODY_SECONDS = 10.0  # a request's body must be sent within this time
#: A request refused for its address's limits (``429``) is answered after this long: a client that loops on its
#: refusals sends one a second, not thousands.
REFUSAL_SECONDS = 1.0
HELLO_SECONDS = 10.0  # a socket must say hello within this time
OUTBOX_SIZE = 512  # messages queued for a socket that does not read; then it is closed
#: A socket may send this many messages a second on average, in bursts of ``MESSAGE_BURST``, and this many bytes
#: a second in bursts of ``BYTE_BURST``; past either it is closed (code 4429). A person, or a bot playing as fast
#: as it may, sends a few messages of a few hundred bytes a second.
MESSAGES_PER_SECOND = 20.0
MESSAGE_BURST = 60
BYTES_PER_SECOND = 8 * 1024
BYTE_BURST = 32 * 1024
#: Sockets one seat may have open at once (a person with a few tabs), and a room (``SOCKETS_PER_SEAT`` a seat);
#: one more is refused (code 4409).
SOCKETS_PER_SEAT = 4


def lobby_of(request: Request | WebSocket) -> Lobby:
    return cast(Lobby, request.app.state.lobby)


def address(request: Request | WebSocket) -> str:
    """The client's address (behind a reverse proxy: the one it forwards, with uvicorn's ``--forwarded-allow-ips``)."""
    return request.client.host if request.client is not None else "?"


def failure(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body); ``ValueError`` for anything else. The body is
    read up to ``MAX_BODY_BYTES`` (never more, whatever its ``Content-Length`` says) within ``BODY_SECONDS``, its
    JSON nested ``protocol.MAX_DEPTH`` deep at most."""
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MAX_BODY_BYTES:
        raise ValueError(f"the request is larger than {MAX_BODY_BYTES} bytes")
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    raise ValueError(f"the request is larger than {MAX_BODY_BYTES} bytes")
    except TimeoutError:
        lobby_of(request).refusals.log("a body", address(request), f"not sent within {BODY_SECONDS:g} s")
        raise ValueError(f"the request's body was not sent within {BODY_SECONDS:g} s") from None
    if not body.strip():
        return {}
    data = protocol.loads(bytes(body))
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data


# ---------------------------------------------------------------------- pages and HTTP API


async def page(request: Request) -> Response:
    """``/`` (the lobby) and ``/table?room=...&token=...`` (a seat's table): the same static page."""
    return FileResponse(STATIC / "index.html")


async def rulesets(request: Request) -> Response:
    return JSONResponse(catalogue())


async def create_room(request: Request) -> Response:
    """``POST /api/rooms``: ``{"ruleset": name}`` or ``{"toml": text}``; ``players``, ``bots``, ``seed``,
    ``bot_delay`` (seconds a bot waits before it moves)."""
    try:
        body = await json_body(request)
        ruleset, toml = body.get("ruleset"), body.get("toml")
        if not isinstance(ruleset, str | None) or not isinstance(toml, str | None):
            raise ValueError("ruleset and toml are texts")
        players = body.get("players", 2)
        seed = body.get("seed")
        bot_delay = body.get("bot_delay", 0.5)
        bots = body.get("bots", {})
        if type(players) is not int:
            raise ValueError("players is an integer")
        if seed is not None and type(seed) is not int:
            raise ValueError("seed is an integer")
        if type(bot_delay) not in (int, float) or not 0 <= bot_delay <= 30:
            raise ValueError("bot_delay is a number of seconds from 0 to 30")
        if not isinstance(bots, dict) or not all(k.isdigit() and isinstance(v, str) for k, v in bots.items()):
            raise ValueError('bots maps seats to bot names: {"1": "greedy"}')
        if type(seed) is int and not -(2**63) <= seed < 2**63:
            raise ValueError("seed is an integer of 64 bits")
        room, invitations = await lobby_of(request).create(
            ruleset=ruleset,
            toml=toml,
            players=players,
            bots={int(k): v for k, v in bots.items()},
            seed=seed,
            bot_delay=float(bot_delay),
            owner=address(request),
        )
    except Refused as exc:
        await asyncio.sleep(REFUSAL_SECONDS)  # a client looping on refusals loops slowly
        return failure(429, str(exc))
    except (ValueError, tamalou.TamalouError) as exc:  # VariantError, SetupError are ValueErrors too
        return failure(400, short(str(exc)))
    links = {str(p): f"/table?room={room.id}&invite={code}" for p, code in invitations.items()}
    answer = {
        "room": room.id,
        "seats": room.free_seats(),
        "invitations": {str(p): code for p, code in invitations.items()},
        "links": links,
    }
    return JSONResponse(answer, status_code=201)


def short(text: str, most: int = 2000) -> str:
    """An error message cut to ``most`` characters (a ruleset of many bad keys has as many lines)."""
    return text if len(text) <= most else text[: most - 1] + "…"


async def join_room(request: Request) -> Response:
    """``POST /api/rooms/{room}/join`` ``{"invitation": code}``: the seat the invitation was made for, and its
    secret token. An invitation is used once."""
    room = await lobby_of(request).get(request.path_params["room"])
    if room is None:
        return failure(404, "no such room")
    try:
        body = await json_body(request)
    except ValueError as exc:
        return failure(400, str(exc))
    invitation = body.get("invitation")
    if not isinstance(invitation, str) or not 0 < len(invitation) <= 64:
        return failure(400, "invitation is the code of the link that invited you")
    try:
        seat, token = room.take_seat(invitation)
    except Refused as exc:
        return failure(409 if "taken" in str(exc) else 403, str(exc))
    return JSONResponse({"seat": seat, "token": token, "url": f"/table?room={room.id}&token={token}"})


async def room_facts(request: Request) -> Response:
    """``GET /api/rooms/{room}``: the room's public facts (read from the database: the room is not restored)."""
    lobby = lobby_of(request)
    facts = lobby.facts(request.path_params["room"])
    if facts is None:  # (a room saved by an earlier version of the server: restored to know them)
        room = await lobby.get(request.path_params["room"])
        facts = None if room is None else room.facts()
    return failure(404, "no such room") if facts is None else JSONResponse(facts)


# ---------------------------------------------------------------------- admin


def admin(request: Request) -> bool:
    """Whether the request carries the admin token (``Authorization: Bearer <token>``); there is no admin
    without a token set (``create_app(admin_token=...)``, ``--admin-token-file``, ``TABLE_ADMIN_TOKEN``)."""
    token: str | None = request.app.state.admin_token
    given = request.headers.get("authorization", "")
    return bool(token) and secrets.compare_digest(given.encode(), f"Bearer {token}".encode())


async def quarantined_rooms(request: Request) -> Response:
    """``GET /api/admin/quarantine``: the rooms that failed (id, ruleset, players, actions, reason, when)."""
    if not admin(request):
        return failure(403, "the admin token is needed")
    return JSONResponse(lobby_of(request).store.quarantined())


async def retry_room(request: Request) -> Response:
    """``POST /api/admin/quarantine/{room}/retry``: restore the room again (after a fix of the server)."""
    if not admin(request):
        return failure(403, "the admin token is needed")
    room = await lobby_of(request).retry(request.path_params["room"])
    if room is None:
        return failure(409, "the room cannot be restored (or there is no such room): it stays quarantined")
    return JSONResponse(room.facts())


# ---------------------------------------------------------------------- websocket


class Client:
    """One seat's socket: messages are queued (``send`` never blocks the room) and written by a task."""

    def __init__(self, ws: WebSocket, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.outbox: asyncio.Queue[dict[str, Any] | tuple[int, str]] = asyncio.Queue(OUTBOX_SIZE)
        self.ended = False

    def send(self, message: dict[str, Any]) -> None:
        if self.ended:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:  # the client does not read: drop what waits, and close it
            self.end(4408, "too slow")

    def end(self, code: int, reason: str) -> None:
        """Close the socket once what was queued before is written (what waits is dropped if it is full)."""
        if self.ended:
            return
        self.ended = True
        if self.outbox.full():
            while not self.outbox.empty():
                self.outbox.get_nowait()
        self.outbox.put_nowait((code, reason))

    async def write(self) -> None:
        """Write what is queued until the socket is ended; a client gone meanwhile ends it quietly."""
        try:
            while isinstance(message := await self.outbox.get(), dict):
                await self.ws.send_text(json.dumps(message, separators=(",", ":")))
            await self.ws.close(*message)
        except (WebSocketDisconnect, RuntimeError, OSError):  # the client left mid-write: nothing to tell
            self.ended = True


class Pace:
    """Two token buckets: ``allow(size)`` is false once a socket sends faster than ``MESSAGES_PER_SECOND`` for
    longer than a burst of ``MESSAGE_BURST`` messages, or more than ``BYTES_PER_SECOND`` bytes a second past a
    burst of ``BYTE_BURST`` (so a socket of large frames is held to the pace of its bytes, not of its frames)."""

    def __init__(self) -> None:
        self.messages = Bucket(MESSAGE_BURST, MESSAGES_PER_SECOND)
        self.bytes = Bucket(BYTE_BURST, BYTES_PER_SECOND)

    def allow(self, size: int) -> bool:
        return self.messages.take() and self.bytes.take(size)


async def receive_text(ws: WebSocket) -> str | None:
    """The next text frame (``None`` once the socket is closed; a binary frame is read as an empty text)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    return str(message.get("text") or "")


async def refuse(ws: WebSocket, reason: str, code: int) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):  # (the client may be gone already)
        await ws.send_json(protocol.error(reason))
        await ws.close(code)


async def table_socket(ws: WebSocket) -> None:
    """``/ws/{room}``: ``hello`` with the seat's token, then actions; the server sends updates."""
    await ws.accept()
    lobby = lobby_of(ws)
    room = await lobby.get(ws.path_params["room"])
    if room is None:
        return await refuse(ws, "no such room", 4404)
    try:
        text = await asyncio.wait_for(receive_text(ws), HELLO_SECONDS)
        hello = protocol.parse(text) if text is not None else {}
    except (TimeoutError, protocol.BadMessage):
        hello = {}
    token = hello.get("token")
    seat = room.seat_of(token) if hello.get("type") == "hello" and isinstance(token, str) else None
    if seat is None:
        log.warning("room %s: a socket from %s gave no valid token: refused", room.id, ws.client)
        return await refuse(ws, "unknown token", 4401)
    if room.sockets_of(seat) >= SOCKETS_PER_SEAT:
        reason = f"seat {seat} has {SOCKETS_PER_SEAT} sockets open already"
        lobby.refusals.log("a socket", address(ws), f"room {room.id}: {reason}")
        return await refuse(ws, reason, 4409)
    since = hello.get("since", 0)
    client = Client(ws, seat)
    writer = asyncio.create_task(client.write())
    try:
        await room.connect(client, since if type(since) is int else 0)
        await play(ws, room, client)
        if client.ended:
            await asyncio.wait_for(writer, 5)  # the close is written
    except (TimeoutError, WebSocketDisconnect, RuntimeError, OSError):  # (a client that left meanwhile)
        pass
    finally:
        room.disconnect(client)
        writer.cancel()


async def play(ws: WebSocket, room: Room, client: Client) -> None:
    """Read the seat's actions until the socket closes; each refusal goes back to this socket only. A socket
    that sends too fast is closed (4429)."""
    pace = Pace()
    try:
        while (text := await receive_text(ws)) is not None and not client.ended:
            if not pace.allow(len(text)):
                room.lobby.refusals.log("a socket", address(ws), f"room {room.id}: seat {client.seat} sends too fast")
                client.end(4429, "too many messages")
                break
            try:
                message = protocol.parse(text)
                if message["type"] != "action":
                    raise protocol.BadMessage("hello was already said")
                await room.act(client.seat, message.get("action"))
            except (protocol.BadMessage, Refused, tamalou.TamalouError) as exc:
                client.send(protocol.error(short(str(exc), 500)))
    except WebSocketDisconnect:
        pass


# ---------------------------------------------------------------------- the app


def trim_memory() -> None:
    """Give the memory of unloaded rooms back to the system (glibc keeps freed memory otherwise), in a thread:
    ctypes lets the loop go on meanwhile."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def create_app(
    db: str | Path,
    *,
    round_pause: float = 3.0,
    bot_workers: int = 2,
    bot_seconds: float = 2.0,
    check_workers: int = 1,
    admin_token: str | None = None,
    limits: Limits | None = None,
) -> Starlette:
    """The ASGI app on the SQLite database ``db``; rooms in play there are resumed in the background once it
    starts (a room that fails to restore is quarantined, and the others start); requests are served meanwhile.

    ``round_pause``: seconds between the end of a round and the deal of the next (matches of rounds).
    ``bot_workers``: the worker processes that play the bots; ``bot_seconds``: the budget of one bot move, its
    time in the queue included. ``check_workers``: the processes that check uploaded rules (each check within
    ``bot_seconds`` too). ``admin_token``: the token of the admin endpoint (none: no admin). ``limits``: what
    one address may have at once (``limits.Limits``). At its start the app freezes what the process has loaded
    out of Python's collector (``gc.freeze``): in a process of your own, that is your objects too."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db)
        workers = Workers(bot_workers, bot_seconds, "bot")
        checks = Workers(check_workers, bot_seconds, "check")
        await asyncio.gather(workers.start(), checks.start())
        lobby = Lobby(store, workers, round_pause, checks, limits)
        app.state.lobby = lobby
        app.state.admin_token = admin_token
        # What is loaded at the start stays: the collector's full passes skip it from now on (they would
        # otherwise walk every module's objects each time, holding the loop; rooms come and go above it).
        gc.collect()
        gc.freeze()

        async def resume() -> None:
            started = time.monotonic()
            resumed, quarantined = await lobby.resume_all()
            log.info(
                "database %s: %d room(s) resumed, %d quarantined (in %.1f s)",
                db,
                resumed,
                quarantined,
                time.monotonic() - started,
            )

        async def sweep() -> None:
            while True:
                await asyncio.sleep(min(lobby.limits.idle_seconds, 5.0) / 2)
                if lobby.sweep():
                    # A room unloaded is freed as its last reference goes (``rulesets.uploaded``: no cycle), but
                    # Python's free lists keep some of its memory: a full collection empties them. It walks the
                    # rooms in memory only (``gc.freeze`` at the start; finished rooms leave with their sockets).
                    gc.collect()
                    await asyncio.to_thread(trim_memory)

        tasks = [asyncio.create_task(resume()), asyncio.create_task(sweep())]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            lobby.close()
            workers.close()
            checks.close()
            store.close()

    routes = [
        Route("/", page),
        Route("/table", page),
        Route("/api/rulesets", rulesets),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room}", room_facts),
        Route("/api/rooms/{room}/join", join_room, methods=["POST"]),
        Route("/api/admin/quarantine", quarantined_rooms),
        Route("/api/admin/quarantine/{room}/retry", retry_room, methods=["POST"]),
        WebSocketRoute("/ws/{room}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
