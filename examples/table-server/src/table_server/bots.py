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

Each question has a **budget** (``--bot-seconds``, default 2 s) that counts from the moment it is asked, its
time in the queue included. A worker that does not answer within it is killed and started again; a question
that waited past it is dropped; either way it gets a fallback answer: the **fallback move** for the bot (a
random legal move of the seat that has to act, seeded as the bot was; out-of-turn matches are let go), logged
and told to the room's players, or "could not be checked" for a ruleset. A search bot (a bot with a ``seconds``
limit, such as ``ismcts``) is given half the budget to think, so that it answers in time.

The workers are shared **fairly**: the questions wait in one queue per owner (the address that made the room, or
that uploads the rules) and the owners are served in turn, so one address with many rooms of search bots gets a
worker as often as each other address. The moves of bots and the checks of uploaded rules have pools of their own
(``--bot-workers``, ``--check-workers``): uploads, however many, never delay a bot.
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
    game: tamalou.Game,
    variant: tamalou.Variant,
    bots: Mapping[int, str],
    seeds: Mapping[int, int],
    seconds: float | None = None,
) -> tuple[int, dict[str, Any]] | None:
    """The next bot action as ``(seat, action JSON)``, in the order ``tamalou.play_game`` asks bots: out-of-turn
    matches first, then the seat that has to act. ``None`` when no bot acts now.

    Runs in a worker (the bots named in ``bots``, each made for this one decision from its seed)."""
    if game.is_over or not bots:
        return None
    order = _from_current(game)
    for seat in order[1:]:
        if seat in bots:
            bot = _bot(bots[seat], seeds[seat], variant, seat, seconds)
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
                action = _bot(bots[seat], seeds[seat], variant, seat, seconds).act(game.seat_view(seat), legal)
                if action is None:
                    raise RuntimeError(f"the bot of seat {seat} ({bots[seat]}) did not act")
                return seat, action.to_dict()
    return None


def fallback(
    game: tamalou.Game, bots: Mapping[int, str], seeds: Mapping[int, int]
) -> tuple[int, dict[str, Any]] | None:
    """The **fallback move**: a random legal move of the bot seat that has to act, seeded as the bot was (the
    answer when no answer came within the budget, or the worker crashed or raised); cheap enough for the event
    loop. Out-of-turn matches are let go."""
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


def _bot(name: str, seed: int, variant: tamalou.Variant, seat: int, seconds: float | None = None) -> Bot:
    """The bot ``name`` of ``seat``, made for one decision (``setup`` called if it has one). A bot with a time
    limit (a ``seconds`` attribute: the search bots) thinks ``seconds`` at most."""
    bot = make_bot(name, seed=seed)
    if seconds is not None and hasattr(bot, "seconds"):
        limit = getattr(bot, "seconds", None)
        bot.seconds = seconds if limit is None else min(limit, seconds)
    setup = getattr(bot, "setup", None)
    if callable(setup):
        setup(variant, seat)
    return cast(Bot, bot)


def variant_key(ruleset: str | None, toml: str | None) -> str:
    """What names a room's rules for the workers: the ruleset's name, or the sha256 of the uploaded text."""
    if toml is not None:
        return "sha256:" + hashlib.sha256(toml.encode()).hexdigest()
    return f"name:{ruleset}"


#: Set (to "1") in the environment of a server that started itself again on the system's allocator
#: (``__main__.use_system_allocator``); its workers are started on Python's.
SYSTEM_MALLOC = "TABLE_SERVER_SYSTEM_MALLOC"


class Worker:
    """One worker process and the rules it has already been sent (it keeps them; a restart forgets them)."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.process: asyncio.subprocess.Process | None = None
        self.known: set[str] = set()

    async def start(self) -> None:
        env = dict(os.environ)
        if env.pop(SYSTEM_MALLOC, None):  # (the server's own choice: ``__main__.use_system_allocator``)
            env.pop("PYTHONMALLOC", None)
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
    """A pool of worker processes, shared fairly: questions wait in one queue per **owner** (the server asks with
    the address that made the room, or that uploads the rules), and a worker given back goes to the next owner in
    turn (round-robin), the oldest question of that owner first. One address with ten rooms of search bots gets a
    turn as often as a room of an honest player, never ten; and no owner holds more than ``per_owner`` workers at
    once (half of them, at least one), so another owner's question always finds one soon.

    A question's **deadline counts its time in the queue**: past ``budget`` seconds from the moment it was asked
    (queued or thinking), it gets no answer (``TimeoutError``) and the caller plays a fallback."""

    def __init__(self, count: int = 1, budget: float = 2.0, name: str = "bot") -> None:
        if count < 1:
            raise ValueError(f"at least one {name} worker")
        self.budget = budget
        self.name = name
        self.workers = [Worker(k) for k in range(count)]
        self.idle: list[Worker] = list(self.workers)
        self.waiting: dict[str, collections.deque[asyncio.Future[Worker]]] = {}  # owner -> its questions, oldest first
        self.turns: collections.deque[str] = collections.deque()  # owners with questions, in round-robin order
        self.per_owner = max(1, count // 2)
        self.holding: collections.Counter[str] = collections.Counter()  # owner -> workers its questions hold

    async def start(self) -> None:
        await asyncio.gather(*(w.start() for w in self.workers))

    def close(self) -> None:
        for w in self.workers:
            w.kill()

    async def _take(self, owner: str) -> Worker:
        """A worker for ``owner``'s question, in ``owner``'s turn (at once if one is idle and no other owner in turn
        before it may take it)."""
        waiter: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        if owner not in self.waiting:
            self.waiting[owner] = collections.deque()
            self.turns.append(owner)
        self.waiting[owner].append(waiter)
        self._dispatch()
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._give_back(waiter.result(), owner)
            raise

    def _give_back(self, worker: Worker, owner: str) -> None:
        """``owner``'s question is done with ``worker``: it goes to the next question in turn."""
        self.holding[owner] -= 1
        if self.holding[owner] <= 0:
            del self.holding[owner]
        self.idle.append(worker)
        self._dispatch()

    def _dispatch(self) -> None:
        """Give the idle workers to the owners in turn, each its oldest question, skipping an owner that holds
        ``per_owner`` workers already (it keeps its place for its next turn)."""
        passed = 0
        while self.idle and self.turns and passed < len(self.turns):
            owner = self.turns.popleft()
            queue = self.waiting[owner]
            while queue and queue[0].done():  # (a question that gave up waiting)
                queue.popleft()
            if not queue:
                del self.waiting[owner]
                continue
            if self.holding[owner] >= self.per_owner:
                self.turns.append(owner)  # it holds its share: the next owner's turn
                passed += 1
                continue
            waiter = queue.popleft()
            if queue:
                self.turns.append(owner)  # its next question waits for its next turn
            else:
                del self.waiting[owner]
            self.holding[owner] += 1
            waiter.set_result(self.idle.pop())
            passed = 0

    async def _ask(self, question: dict[str, Any], ruleset: str | None, toml: str | None, owner: str) -> Any:
        """The answer to ``question`` within ``budget`` seconds from now, queue included (``TimeoutError``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.budget
        worker = await asyncio.wait_for(self._take(owner), self.budget)
        try:
            key = variant_key(ruleset, toml)
            question = {**question, "key": key}
            if key not in worker.known or question["kind"] == "check":
                question.update(ruleset=ruleset, toml=toml)
            answer = await worker.ask(question, max(deadline - loop.time(), 0.001))
            if question["kind"] == "move" and "error" not in answer:  # it keeps the rules of a move, not of a check
                worker.known.add(key)
            return answer
        finally:
            self._give_back(worker, owner)

    async def move(
        self,
        game: tamalou.Game,
        ruleset: str | None,
        toml: str | None,
        bots: Mapping[int, str],
        seeds: Mapping[int, int],
        where: str,
        owner: str = "",
    ) -> tuple[tuple[int, dict[str, Any]] | None, str | None]:
        """The next bot action of ``game`` (see ``move``) from a worker, and ``None``; or, if no answer came within
        the budget (queue included), the worker died or the bot raised, the ``fallback`` move and why (logged with
        ``where`` to say which room)."""
        question = {
            "kind": "move",
            "game": game.to_json(),
            "bots": {str(s): n for s, n in bots.items()},
            "seeds": {str(s): v for s, v in seeds.items()},
            "seconds": self.budget,
        }
        try:
            answer = await self._ask(question, ruleset, toml, owner)
        except TimeoutError:
            why = f"no answer within {self.budget:.3g} s"
            log.warning("%s: a bot's move: %s: the fallback move instead", where, why)
            return fallback(game, bots, seeds), why
        except (EOFError, ConnectionError, ValueError) as exc:
            log.error("%s: the bot worker failed (%s): the fallback move instead", where, exc)
            return fallback(game, bots, seeds), "the bot failed"
        if "error" in answer:
            log.error("%s: a bot failed: %s: the fallback move instead", where, str(answer["error"])[:500])
            return fallback(game, bots, seeds), "the bot failed"
        found = answer.get("move")
        return (None if found is None else (int(found[0]), dict(found[1]))), None

    async def check(self, toml: str, players: int, seed: int | None, owner: str = "", max_turns: int = 0) -> str | None:
        """``None`` if uploaded rules load, deal ``players`` and restore from their snapshot (and a match of them
        lasts ``max_turns`` turns at most, if given), else why not."""
        question = {"kind": "check", "players": players, "seed": seed, "max_turns": max_turns}
        try:
            answer = await self._ask(question, None, toml, owner)
        except TimeoutError:
            return f"the rules could not be checked within {self.budget:.3g} s"
        except (EOFError, ConnectionError, ValueError):
            return "the rules could not be checked"
        return None if answer.get("error") is None else str(answer["error"])
