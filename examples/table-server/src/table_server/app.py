"""The web application (Starlette): the lobby's JSON API, the page, and one websocket per seat.

``create_app(db)`` returns the ASGI app; ``python -m table_server`` serves it with uvicorn.
"""

from __future__ import annotations

import asyncio
import json
import logging
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
from .rooms import Lobby, Refused, Room
from .rulesets import catalogue
from .store import Store

log = logging.getLogger("table_server")

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 128 * 1024
HELLO_SECONDS = 10.0  # a socket must say hello within this time
OUTBOX_SIZE = 512  # messages queued for a socket that does not read; then it is closed


def lobby_of(request: Request | WebSocket) -> Lobby:
    return cast(Lobby, request.app.state.lobby)


def failure(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body); ``ValueError`` for anything else."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise ValueError(f"the request is larger than {MAX_BODY_BYTES} bytes")
    if not body.strip():
        return {}
    data = json.loads(body)
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
        room = lobby_of(request).create(
            ruleset=ruleset,
            toml=toml,
            players=players,
            bots={int(k): v for k, v in bots.items()},
            seed=seed,
            bot_delay=float(bot_delay),
        )
    except (ValueError, tamalou.TamalouError) as exc:  # VariantError, SetupError are ValueErrors too
        return failure(400, str(exc))
    return JSONResponse({"room": room.id, "seats": room.free_seats()}, status_code=201)


async def join_room(request: Request) -> Response:
    """``POST /api/rooms/{room}/join`` ``{"seat": optional}``: a seat and its secret token."""
    room = lobby_of(request).get(request.path_params["room"])
    if room is None:
        return failure(404, "no such room")
    try:
        body = await json_body(request)
    except ValueError as exc:
        return failure(400, str(exc))
    seat = body.get("seat")
    if seat is not None and type(seat) is not int:
        return failure(400, "seat is an integer")
    try:
        seat, token = room.take_seat(seat)
    except Refused as exc:
        return failure(409, str(exc))
    return JSONResponse({"seat": seat, "token": token, "url": f"/table?room={room.id}&token={token}"})


async def room_facts(request: Request) -> Response:
    room = lobby_of(request).get(request.path_params["room"])
    return failure(404, "no such room") if room is None else JSONResponse(room.facts())


# ---------------------------------------------------------------------- websocket


class Client:
    """One seat's socket: messages are queued (``send`` never blocks the room) and written by a task."""

    def __init__(self, ws: WebSocket, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX_SIZE)

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:  # the client does not read: drop what waits, and close it
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    async def write(self) -> None:
        while (message := await self.outbox.get()) is not None:
            await self.ws.send_text(json.dumps(message, separators=(",", ":")))
        await self.ws.close(4408, "too slow")


async def receive_text(ws: WebSocket) -> str | None:
    """The next text frame (``None`` once the socket is closed; a binary frame is read as an empty text)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    return str(message.get("text") or "")


async def refuse(ws: WebSocket, reason: str, code: int) -> None:
    await ws.send_json(protocol.error(reason))
    await ws.close(code)


async def table_socket(ws: WebSocket) -> None:
    """``/ws/{room}``: ``hello`` with the seat's token, then actions; the server sends updates."""
    await ws.accept()
    room = lobby_of(ws).get(ws.path_params["room"])
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
    since = hello.get("since", 0)
    client = Client(ws, seat)
    writer = asyncio.create_task(client.write())
    room.connect(client, since if type(since) is int else 0)
    try:
        await play(ws, room, client)
    finally:
        room.disconnect(client)
        writer.cancel()


async def play(ws: WebSocket, room: Room, client: Client) -> None:
    """Read the seat's actions until the socket closes; each refusal goes back to this socket only."""
    try:
        while (text := await receive_text(ws)) is not None:
            try:
                message = protocol.parse(text)
                if message["type"] != "action":
                    raise protocol.BadMessage("hello was already said")
                room.act(client.seat, message.get("action"))
            except (protocol.BadMessage, Refused, tamalou.TamalouError) as exc:
                client.send(protocol.error(str(exc)))
    except WebSocketDisconnect:
        pass


# ---------------------------------------------------------------------- the app


def create_app(db: str | Path, *, round_pause: float = 3.0) -> Starlette:
    """The ASGI app on the SQLite database ``db``; rooms in play there are resumed at startup.

    ``round_pause``: seconds between the end of a round and the deal of the next (matches of rounds)."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db)
        lobby = Lobby(store, round_pause)
        app.state.lobby = lobby
        resumed = lobby.resume_all()
        log.info("database %s: %d room(s) resumed", db, resumed)
        try:
            yield
        finally:
            lobby.close()
            store.close()

    routes = [
        Route("/", page),
        Route("/table", page),
        Route("/api/rulesets", rulesets),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room}", room_facts),
        Route("/api/rooms/{room}/join", join_room, methods=["POST"]),
        WebSocketRoute("/ws/{room}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
