"""Load test: many rooms played at once over websockets, on this machine only (127.0.0.1).

Each room has a human seat played by a websocket client of this script (a tamalou bot chooses its moves
from the view and the legal actions the server sends) and bot seats played by the server. Each room is made and
played from an address of its own (127.1.x.y: the whole of 127.0.0.0/8 is this machine), as people at their
own computers would be. The script reports how many actions the server applied per second, and what players
feel (median and 99th percentile):

- the **human's update time**: from sending an action to receiving the update that answers it;
- the **bot's answer time**: from sending an action to the update that gives the seat its turn again (or ends
  the round), the server's bot having played in between: what a person waits for the bots.

    python loadtest.py --rooms 200 --seconds 120            # starts a server of its own on a free port
    python loadtest.py --rooms 50 --url http://127.0.0.1:8000  # against a server you started
    python loadtest.py --rooms 50 --think 0.1 --hostile       # honest players and one hostile client

With ``--hostile``, one more client, from one address (127.0.0.2), does in a loop everything ``hostile.py``
lists (uploads that once broke the server, bodies nested 100,000 deep or of 1 MB, frames nested 2,000 deep, a
socket flooding messages, joins with guessed invitations) and keeps rooms of six search bots playing a long
match with no delay; with ``--flood`` it also sends ``hostile.FLOOD_UPLOADS`` uploads the checks refuse, looping
at once, and asks for ``hostile.SEARCH_ROOMS`` rooms of six search bots (the server takes a few and refuses the
rest). The report then says what it sent and how the server answered. The hostile client runs in a process of its own,
as a hostile user would: its work does not delay the honest clients' reading of their answers. ``--think``
is about how long each honest player thinks before it acts (0: as fast as the server answers): each thought
takes from half to one and a half times as long, drawn from a generator seeded by the room, as people's
thoughts differ. (Thoughts of one length would keep the 40 players in step, all acting in the same
millisecond, and measure that burst more than the server.)

Bounded: at most 1000 rooms; the test ends when every room has finished, and the clients stop after
``--seconds`` whatever happens (``--min-finished 1`` then fails the test if a room has not finished).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import hostile
import httpx
import tamalou
from tamalou.bots import make_bot
from tamalou.views import PlayerView
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

HERE = Path(__file__).resolve().parent


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)  # seconds, one per human action answered
    bot_answers: list[float] = field(default_factory=list)  # seconds, from an action to the seat's next turn
    errors: int = 0
    finished: int = 0


def address_of(k: int) -> str:
    """The loopback address the ``k``-th honest room is made and played from."""
    return f"127.1.{k // 250}.{k % 250 + 1}"


def percentile(values: list[float], share: float) -> float | None:
    """The ``share`` percentile of ``values`` in milliseconds (``None`` if there are none)."""
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * share))], 2)


def must_act(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    legal: list[dict[str, Any]] = state["legal"]
    if state.get("busy"):  # the server's bots are answering: wait for the update that is not busy
        return []
    if seat in state["to_act"] and any(a["type"] != "match" for a in legal):
        return legal
    return []


async def play_seat(
    url: str,
    room: str,
    token: str,
    policy: str,
    variant: tamalou.Variant,
    totals: Totals,
    think: float = 0.0,
    address: str = "127.0.0.1",
) -> None:
    """One human seat, from ``address``: say hello, then act whenever the seat must (after thinking about
    ``think`` seconds: from half to one and a half times that, drawn from a generator seeded by ``room``), until
    the match is over."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/{room}"
    thoughts = random.Random(room)
    sent: float | None = None  # when the last action was sent, until the seat's next turn
    async with connect(ws_url, max_size=2**22, local_addr=(address, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        message = json.loads(await ws.recv())
        seat, state = message["seat"], message["state"]
        moves = 0
        while not state["over"]:
            legal = must_act(state, seat)
            if sent is not None and (legal or state["result"] is not None):
                totals.bot_answers.append(time.perf_counter() - sent)  # the bots answered: the seat's turn again
                sent = None
            if not legal:
                message = json.loads(await ws.recv())
                state = message.get("state", state)
                continue
            bot = make_bot(policy, seed=moves)
            getattr(bot, "setup", lambda *_: None)(variant, seat)
            view = PlayerView.model_validate(state["view"])
            action = bot.act(view, [tamalou.parse_action(a) for a in legal])  # type: ignore[arg-type]
            chosen = action.to_dict() if action is not None else legal[0]
            if think:
                await asyncio.sleep(thoughts.uniform(0.5 * think, 1.5 * think))
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "action": chosen}))
            message = json.loads(await ws.recv())
            totals.latencies.append(time.perf_counter() - sent)
            moves += 1
            if message["type"] == "error":
                sent = None
            if message["type"] == "error":
                totals.errors += 1
            state = message.get("state", state)
        totals.finished += 1


#: The address of the hostile client.
HOSTILE_ADDRESS = "127.0.0.2"


async def hostile_client(
    url: str,
    honest_room: str,
    stop: asyncio.Event,
    sent: dict[str, int],
    flood: bool = False,
    ready: Callable[[], None] = lambda: None,
) -> None:
    """Everything ``hostile.py`` lists, again and again until ``stop``, from ``HOSTILE_ADDRESS``; ``sent`` counts
    what was sent and the server's answers (``upload 400``, ``frame error``, ``closed 4429``...). ``flood``: also
    ``hostile.FLOOD_UPLOADS`` uploads looping at once and ``hostile.SEARCH_ROOMS`` rooms of search bots. ``ready``
    is called once the search rooms are asked for (and the uploads loop)."""

    def count(key: str) -> None:
        sent[key] = sent.get(key, 0) + 1

    transport = httpx.AsyncHTTPTransport(local_address=HOSTILE_ADDRESS)
    async with httpx.AsyncClient(base_url=url, timeout=120, transport=transport) as http:
        searchers = hostile.UPLOADS["a long points match of six search bots"]

        async def refused_uploads() -> None:
            while not stop.is_set():
                try:
                    answer = await http.post("/api/rooms", json=hostile.UPLOADS["64 KB of unknown keys"])
                    count(f"flooding upload {answer.status_code}")
                except httpx.TransportError:  # a kept-alive connection the server closed meanwhile: again
                    count("flooding upload dropped")

        # Its own room first, and the search rooms: past them, the flood takes every room this address may make.
        created = (await http.post("/api/rooms", json={"ruleset": "french", "players": 2})).json()
        own, codes = created["room"], created["invitations"]
        tokens = [
            (await http.post(f"/api/rooms/{own}/join", json={"invitation": c})).json()["token"] for c in codes.values()
        ]
        for _ in range(hostile.SEARCH_ROOMS if flood else 1):
            count(f"search-bot room {(await http.post('/api/rooms', json=searchers)).status_code}")
        flooders = [asyncio.create_task(refused_uploads()) for _ in range(hostile.FLOOD_UPLOADS if flood else 0)]
        ready()  # the search bots play and the uploads loop: the honest players may start
        ws_url = url.replace("http", "ws", 1) + f"/ws/{own}"
        while not stop.is_set():
            for body in hostile.UPLOADS.values():
                if body is not searchers:
                    count(f"upload {(await http.post('/api/rooms', json={'bot_delay': 0, **body})).status_code}")
            for body in hostile.BODIES.values():
                count(f"body {(await http.post('/api/rooms', content=body)).status_code}")
            stolen = await http.post(f"/api/rooms/{honest_room}/join", json={"invitation": "guessed"})
            count(f"guessed invitation {stolen.status_code}")
            async with connect(ws_url, max_size=2**22, local_addr=(HOSTILE_ADDRESS, 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": tokens[0], "since": 0}))
                await ws.recv()
                try:
                    for frame in hostile.FRAMES.values():
                        await ws.send(frame)
                    for _ in range(hostile.FLOOD):  # then a flood: the server closes the socket
                        await ws.send('{"type": "action", "action": {"type": "call"}}')
                        count("flood frame")
                    await ws.recv()
                    while True:
                        await ws.recv()
                except ConnectionClosed as closed:
                    count(f"closed {closed.rcvd.code if closed.rcvd else None}")
        await asyncio.gather(*flooders)


async def start_attacker(url: str, honest_room: str, flood: bool = False) -> asyncio.subprocess.Process:
    """The hostile client in a process of its own (``--attack``), as a hostile user is: its work does not
    delay the honest clients' reading of their answers, so their latency measures the server alone."""
    # --attack=ROOM in one word: a room's id is random URL-safe text, which may begin with "-" (argparse would then
    # take it for an option; it did, once in 64 runs of the load tests).
    return await asyncio.create_subprocess_exec(
        sys.executable, str(HERE / "loadtest.py"), f"--attack={honest_room}", "--url", url,
        *(["--flood"] if flood else []),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def stop_attacker(attacker: asyncio.subprocess.Process) -> dict[str, int]:
    """Close the attacker's input (it stops after its round of attacks) and read what it sent."""
    out, _ = await asyncio.wait_for(attacker.communicate(b""), timeout=300)
    if attacker.returncode != 0:
        raise SystemExit(f"the hostile client failed (exit {attacker.returncode})")
    sent: dict[str, int] = json.loads(out)
    return sent


async def attack(url: str, honest_room: str, flood: bool = False) -> dict[str, int]:
    """``--attack``: the hostile client until this process's input closes; what it sent and the answers."""
    loop = asyncio.get_running_loop()
    stop, sent = asyncio.Event(), dict[str, int]()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def until_closed() -> None:
        await reader.read()
        stop.set()

    def ready() -> None:
        print("ready", flush=True)  # (``start_attacker`` waits for this line)

    watch = asyncio.create_task(until_closed())
    await hostile_client(url, honest_room, stop, sent, flood, ready)
    await watch
    return sent


async def run(
    url: str,
    rooms: int,
    seconds: float,
    ruleset: str,
    policy: str,
    think: float = 0.0,
    hostile_too: bool = False,
    flood: bool = False,
) -> dict[str, Any]:
    variant = tamalou.load_variant(ruleset)
    totals = Totals()
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        made = []
        for k in range(rooms):
            body = {"ruleset": ruleset, "players": 2, "bots": {"1": "greedy"}, "seed": k, "bot_delay": 0}
            transport = httpx.AsyncHTTPTransport(local_address=address_of(k))
            async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport) as own:
                answer = await own.post("/api/rooms", json=body)
                if answer.status_code != 201:
                    raise SystemExit(f"room {k} was not made: {answer.status_code} {answer.text}")
                created = answer.json()
                room, invitation = created["room"], created["invitations"]["0"]
                token = (await own.post(f"/api/rooms/{room}/join", json={"invitation": invitation})).json()["token"]
            made.append((room, token))
        attacker = await start_attacker(url, made[0][0], flood) if hostile_too else None
        if attacker is not None:  # the hostile client is at work before the honest players start
            assert attacker.stdout is not None
            if await asyncio.wait_for(attacker.stdout.readline(), 120) != b"ready\n":
                raise SystemExit("the hostile client did not start")
        started = time.perf_counter()
        seats = [
            asyncio.create_task(play_seat(url, r, t, policy, variant, totals, think, address_of(k)))
            for k, (r, t) in enumerate(made)
        ]
        done, pending = await asyncio.wait(seats, timeout=seconds)
        elapsed = time.perf_counter() - started
        for task in pending:
            task.cancel()
        sent: dict[str, int] = {}
        if attacker is not None:
            sent = await stop_attacker(attacker)
        failed = [t.exception() for t in done if t.exception() is not None]
        actions = 0
        for room, _ in made:
            actions += (await http.get(f"/api/rooms/{room}")).json()["actions"]
    lat = sorted(totals.latencies)
    return {
        "human_update_ms_p50": percentile(totals.latencies, 0.5),
        "human_update_ms_p99": percentile(totals.latencies, 0.99),
        "bot_answer_ms_p50": percentile(totals.bot_answers, 0.5),
        "bot_answer_ms_p99": percentile(totals.bot_answers, 0.99),
        "bot_answer_ms_max": percentile(totals.bot_answers, 1.0),
        "rooms": rooms,
        "finished": totals.finished,
        "unfinished": len(pending),
        "failed": [repr(e) for e in failed[:3]],
        "seconds": round(elapsed, 2),
        "server_actions": actions,
        "actions_per_second": round(actions / elapsed),
        "human_actions": len(lat),
        "refused": totals.errors,
        "latency_ms_p50": round(1000 * lat[len(lat) // 2], 2) if lat else None,
        "latency_ms_p99": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2) if lat else None,
        "latency_ms_max": round(1000 * lat[-1], 2) if lat else None,
        **({"hostile": dict(sorted(sent.items()))} if hostile_too else {}),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m table_server`` on a free port of 127.0.0.1 (warnings only in its log)."""
    port = free_port()
    env = dict(os.environ)
    if importlib.util.find_spec("table_server") is None:  # not installed: run it from the sources
        env["PYTHONPATH"] = os.pathsep.join([str(HERE / "src"), os.environ.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "table_server", "--port", str(port), "--db", str(db), "--log-level", "warning"]
    command += ["--round-pause", "0"]  # the next round at once: the clients play as fast as they can
    process = subprocess.Popen(command, env=env)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(url + "/api/rulesets", timeout=1)
            return process, url
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120, help="stop the clients after this long")
    parser.add_argument("--ruleset", default="french")
    parser.add_argument("--policy", default="greedy", choices=["greedy", "random", "cautious"])
    parser.add_argument("--url", help="a server already running on 127.0.0.1 (default: start one)")
    parser.add_argument("--min-finished", type=float, default=0.0, help="fail unless this share of rooms finished")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="about how many seconds each honest player thinks before acting (x0.5 to x1.5)",
    )
    parser.add_argument("--hostile", action="store_true", help="one hostile client too (see hostile.py)")
    parser.add_argument("--flood", action="store_true", help="the hostile client floods uploads and search rooms too")
    parser.add_argument("--max-p99-ms", type=float, help="fail if the honest players' p99 latency is above this")
    parser.add_argument(
        "--max-bot-p99-ms", type=float, help="fail if the honest players' p99 wait for the bots is above this"
    )
    parser.add_argument("--attack", metavar="ROOM", help=argparse.SUPPRESS)  # the hostile client's own process
    args = parser.parse_args()
    if args.attack is not None:
        print(json.dumps(asyncio.run(attack(args.url, args.attack, args.flood))))
        return
    if not 1 <= args.rooms <= 1000:
        raise SystemExit("--rooms is from 1 to 1000")
    process = None
    with tempfile.TemporaryDirectory() as folder:
        url = args.url
        if url is None:
            process, url = start_server(Path(folder) / "load.db")
        elif urlsplit(url).hostname not in ("127.0.0.1", "localhost"):
            raise SystemExit("the load test runs against 127.0.0.1 only")
        try:
            report = asyncio.run(
                run(
                    url.rstrip("/"),
                    args.rooms,
                    args.seconds,
                    args.ruleset,
                    args.policy,
                    args.think,
                    args.hostile or args.flood,
                    args.flood,
                )
            )
        finally:
            if process is not None:
                process.terminate()
                process.wait(10)
    print(json.dumps(report, indent=2))
    if report["failed"]:
        raise SystemExit(f"rooms failed (the first ones): {report['failed']}")
    if report["finished"] < args.min_finished * args.rooms:
        raise SystemExit(
            f"{report['finished']} of {args.rooms} rooms finished within {args.seconds:g} s "
            f"(--min-finished {args.min_finished:g} asks for {args.min_finished * args.rooms:g})"
        )
    if args.max_p99_ms is not None and (report["latency_ms_p99"] or 0) > args.max_p99_ms:
        raise SystemExit(f"the honest players' p99 latency is above {args.max_p99_ms} ms")
    if args.max_bot_p99_ms is not None and (report["bot_answer_ms_p99"] or 0) > args.max_bot_p99_ms:
        raise SystemExit(f"the honest players' p99 wait for the bots is above {args.max_bot_p99_ms} ms")


if __name__ == "__main__":
    main()
