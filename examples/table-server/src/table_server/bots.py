"""Bots and uploaded rules, off the event loop: worker processes the server asks, each answer within a budget.

A bot's move can take a long time (a search bot thinks for a fraction of a second, a bot of an installed
package for as long as it likes) and an uploaded ruleset can take a while to check (64 KB of unknown keys is
about 0.2 s of validation). Run on the event loop, either would stall every room of the server. So the server
runs them in **worker processes** (``python -m table_server.worker``), which it asks with one line of JSON and
which answer with one line of JSON:

- ``{"kind": "move", ...}``: the round's snapshot (``Game.to_json()``), the bots' seats, names and seeds; the
  answer is the next bot action (``move`` below), or none.
- ``{"kind": "check", ...}``: an uploaded TOML text and a number of players; the answer is ``null`` if the
  rules load, deal and restore from a snapshot exactly as a restarted server would restore them, else the
  reason (``check`` below).

Each question has a **budget** (``--bot-seconds``, default 2 s). A worker that does not answer within it is
killed and started again, and the question gets a fallback answer: a random legal move for the bot (seeded as
the bot was, logged), or "could not be checked" for a ruleset. The workers are taken first come, first served:
no room gets more than its turn, however slow its bots.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import json
import logging
import os
import random
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

import tamalou
from tamalou.bots import make_bot
from tamalou.play import Bot

log = logging.getLogger("table_server")

#: The longest line a worker may answer (a move is a few hundred bytes; an error message is cut to 4 KB).
MAX_LINE = 1 << 20
#: How long a worker may take to start (import tamalou and the bots).
START_SECONDS = 60.0


def bot_seed(match_seed: object, seat: int, played: int) -> int:
    """The seed of the bot of ``seat`` for the decision after ``played`` actions of the match: the same in a
    restarted server, so that it makes the very moves the first one would have made."""
    return random.Random(f"{match_seed}/{seat}/{played}").getrandbits(32)


def move(
    game: tamalou.Game, variant: tamalou.Variant, bots: Mapping[int, str], seeds: Mapping[int, int]
) -> tuple[int, dict[str, Any]] | None:
    """The next bot action as ``(seat, action JSON)``, in the order ``tamalou.play_game`` asks bots: out-of-turn
    matches first, then the seat that has to act. ``None`` when no bot acts now.

    Runs in a worker (the bots named in ``bots``, each made for this one decision from its seed)."""
    if game.is_over or not bots:
        return None
    order = _from_current(game)
    for seat in order[1:]:
        if seat in bots:
            bot = _bot(bots[seat], seeds[seat], variant, seat)
            may_match: Callable[[], bool] | None = getattr(bot, "may_match", None)
            if may_match is not None and not may_match():
                continue
            legal = game.legal_actions(seat)
            if legal and all(isinstance(a, tamalou.MatchAction) for a in legal):
                action = bot.act(game.seat_view(seat), legal)
                if action is not None:
                    return seat, action.to_dict()
    for seat in order:
        if seat in bots:
            legal = game.legal_actions(seat)
            if _in_turn(legal):
                action = _bot(bots[seat], seeds[seat], variant, seat).act(game.seat_view(seat), legal)
                if action is None:
                    raise RuntimeError(f"the bot of seat {seat} ({bots[seat]}) did not act")
                return seat, action.to_dict()
    return None


def fallback(
    game: tamalou.Game, bots: Mapping[int, str], seeds: Mapping[int, int]
) -> tuple[int, dict[str, Any]] | None:
    """A random legal move for the bot seat that has to act (the answer when a worker ran out of its budget,
    crashed or raised): cheap enough for the event loop. Out-of-turn matches are let go."""
    if game.is_over:
        return None
    for seat in _from_current(game):
        if seat in bots:
            legal = _in_turn(game.legal_actions(seat))
            if legal:
                return seat, random.Random(seeds[seat]).choice(legal).to_dict()
    return None


def _from_current(game: tamalou.Game) -> list[int]:
    """The seats in play order from the current player's."""
    return [(game.current_player + i) % game.players for i in range(game.players)]


def _in_turn(legal: list[tamalou.Action]) -> list[tamalou.Action]:
    """The actions of ``legal`` a seat must choose from (none: it may only match out of turn, or wait for time)."""
    return [a for a in legal if not isinstance(a, tamalou.MatchAction | tamalou.Tick)]


def _bot(name: str, seed: int, variant: tamalou.Variant, seat: int) -> Bot:
    """The bot ``name`` of ``seat``, made for one decision (``setup`` called if it has one)."""
    bot = make_bot(name, seed=seed)
    setup = getattr(bot, "setup", None)
    if callable(setup):
        setup(variant, seat)
    return cast(Bot, bot)


def variant_key(ruleset: str | None, toml: str | None) -> str:
    """What names a room's rules for the workers: the ruleset's name, or the sha256 of the uploaded text."""
    if toml is not None:
        return "sha256:" + hashlib.sha256(toml.encode()).hexdigest()
    return f"name:{ruleset}"


class Worker:
    """One worker process and the rules it has already been sent (it keeps them; a restart forgets them)."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.process: asyncio.subprocess.Process | None = None
        self.known: set[str] = set()

    async def start(self) -> None:
        env = dict(os.environ)
        # The worker imports this package: from where this module was imported (installed or not).
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(Path(__file__).parent.parent), env.get("PYTHONPATH")) if p)
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "table_server.worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=MAX_LINE,
        )
        self.known = set()
        ready = await asyncio.wait_for(self._read(), START_SECONDS)
        if ready != {"ready": True}:
            raise RuntimeError(f"bot worker {self.number} did not start: {ready!r}")

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
        self.process = None
        self.known = set()  # the next process knows no rules

    async def _read(self) -> Any:
        assert self.process is not None and self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            raise EOFError(f"bot worker {self.number} exited")
        return json.loads(line)

    async def ask(self, question: dict[str, Any], budget: float) -> Any:
        """The worker's answer to ``question``; ``TimeoutError`` past ``budget`` seconds (the worker is then
        killed), ``EOFError`` if it died. Either way the next question starts a new worker."""
        if self.process is None or self.process.returncode is not None:
            await self.start()
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(question, separators=(",", ":")).encode() + b"\n")
            await self.process.stdin.drain()
            return await asyncio.wait_for(self._read(), budget)
        except (TimeoutError, EOFError, ConnectionError, ValueError):
            self.kill()
            raise


class Workers:
    """The pool of worker processes, taken first come, first served."""

    def __init__(self, count: int = 1, budget: float = 2.0) -> None:
        if count < 1:
            raise ValueError("at least one bot worker")
        self.budget = budget
        self.workers = [Worker(k) for k in range(count)]
        self.idle: list[Worker] = list(self.workers)
        self.waiting: collections.deque[asyncio.Future[Worker]] = collections.deque()

    async def start(self) -> None:
        await asyncio.gather(*(w.start() for w in self.workers))

    def close(self) -> None:
        for w in self.workers:
            w.kill()

    async def _take(self) -> Worker:
        """A worker, first come, first served: a worker given back goes straight to the oldest question waiting
        (an ``asyncio.Queue`` would let the room that gave it back take it again at once, and starve others)."""
        if self.idle and not self.waiting:
            return self.idle.pop()
        waiter: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        self.waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._give_back(waiter.result())
            raise

    def _give_back(self, worker: Worker) -> None:
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self.idle.append(worker)

    async def _ask(self, question: dict[str, Any], ruleset: str | None, toml: str | None) -> Any:
        worker = await self._take()
        try:
            key = variant_key(ruleset, toml)
            question = {**question, "key": key}
            if key not in worker.known or question["kind"] == "check":
                question.update(ruleset=ruleset, toml=toml)
            answer = await worker.ask(question, self.budget)
            if question["kind"] == "move" and "error" not in answer:  # it keeps the rules of a move, not of a check
                worker.known.add(key)
            return answer
        finally:
            self._give_back(worker)

    async def move(
        self,
        game: tamalou.Game,
        ruleset: str | None,
        toml: str | None,
        bots: Mapping[int, str],
        seeds: Mapping[int, int],
        where: str,
    ) -> tuple[int, dict[str, Any]] | None:
        """The next bot action of ``game`` (see ``move``), from a worker; the ``fallback`` move if the worker ran
        out of its budget, died or raised (logged, with ``where`` to say which room)."""
        question = {
            "kind": "move",
            "game": game.to_json(),
            "bots": {str(s): n for s, n in bots.items()},
            "seeds": {str(s): v for s, v in seeds.items()},
        }
        try:
            answer = await self._ask(question, ruleset, toml)
        except TimeoutError:
            log.warning("%s: a bot took more than %.3g s: a random move instead", where, self.budget)
            return fallback(game, bots, seeds)
        except (EOFError, ConnectionError, ValueError) as exc:
            log.error("%s: the bot worker failed (%s): a random move instead", where, exc)
            return fallback(game, bots, seeds)
        if "error" in answer:
            log.error("%s: a bot failed: %s: a random move instead", where, str(answer["error"])[:500])
            return fallback(game, bots, seeds)
        found = answer.get("move")
        return None if found is None else (int(found[0]), dict(found[1]))

    async def check(self, toml: str, players: int, seed: int | None) -> str | None:
        """``None`` if uploaded rules load, deal ``players`` and restore from their snapshot, else why not."""
        question = {"kind": "check", "players": players, "seed": seed}
        try:
            answer = await self._ask(question, None, toml)
        except TimeoutError:
            return f"the rules could not be checked within {self.budget:.3g} s"
        except (EOFError, ConnectionError, ValueError):
            return "the rules could not be checked"
        return None if answer.get("error") is None else str(answer["error"])
