"""Rooms: one tamalou match each, its seats, its bots, its clock, and the sockets that watch it.

Everything here runs on the server's event loop. A room changes only while it holds its lock
(``Room.lock``): a seat's action, a bot's move, a deadline passing, a round dealt. Between two changes the
loop serves every other room: a bot's move is asked of a worker process (``bots.Workers``), never computed
here, so that no room can hold up another. Time-driven things are asyncio timers: the game's next deadline
(``game.deadline``), a bot's move after ``bot_delay`` seconds, the next round after a pause. Nothing polls.

A room that fails (its snapshot does not restore, a change raises) is **quarantined**: it is logged, marked in
the database with the reason (its data kept), its sockets are closed, and the other rooms go on
(``Lobby.quarantine``; the admin endpoint lists them).
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

import tamalou
from tamalou.bots import bot_names

from . import protocol
from .bots import Workers, bot_seed
from .rulesets import check_size, is_timed, load_ruleset
from .store import SavedRoom, Store

log = logging.getLogger("table_server")


class Refused(Exception):
    """A request that is not allowed (the reason is sent to the client)."""


class Listener(Protocol):
    """A connected socket: the seat it plays, a way to queue a message for it and to close it (never block)."""

    seat: int

    def send(self, message: dict[str, Any]) -> None: ...

    def end(self, code: int, reason: str) -> None: ...


def token_hash(token: str) -> str:
    """What the database keeps of a seat's token or of an invitation."""
    return hashlib.sha256(token.encode()).hexdigest()


class Room:
    """One match in play (``tamalou.Match``: a single round or several), saved after every action."""

    def __init__(
        self,
        saved: SavedRoom,
        variant: tamalou.Variant,
        match: tamalou.Match,
        events: list[tamalou.Event],
        lobby: Lobby,
    ) -> None:
        self.id = saved.id
        self.owner = saved.owner  # the address that made the room (its bots' turn in the workers' queue)
        self.ruleset = saved.ruleset or variant.name
        self.saved_ruleset, self.toml = saved.ruleset, saved.toml  # how the workers load the rules
        self.variant = variant
        self.match = match
        self.players = saved.players
        self.bots = saved.bots
        self.bot_delay = saved.bot_delay
        self.seats = {h: seat for seat, h in saved.seats.items()}  # token hash -> seat
        self.invitations = dict(saved.invitations)  # seat -> invitation hash, for the seats not taken
        self.lobby = lobby
        self.store = lobby.store
        self.round_pause = lobby.round_pause  # seconds between the end of a round and the next deal
        self.timed = is_timed(variant)
        self.listeners: set[Listener] = set()
        self.events = events  # every event of the match so far, as the referee sees it
        self.played = sum(len(r) for r in match.actions)  # actions applied in the match so far
        self.unsent: list[tamalou.Event] = []  # events not yet sent to the sockets
        self.changed = False  # whether the sockets have yet to hear of a change
        self.busy = False  # whether the last update said the bots were answering
        self.lock = asyncio.Lock()  # held by whatever changes the room
        self.closed = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.loop = asyncio.get_running_loop()
        self.origin = self.loop.time() - match.game.now  # loop time of the round's second 0
        self.tick: asyncio.TimerHandle | None = None
        self.tick_at: float | None = None
        self.bot_timer: asyncio.TimerHandle | None = None
        self.round_timer: asyncio.TimerHandle | None = None
        self.used = self.loop.time()  # the last time a socket, an action or a timer used the room

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> tamalou.Game:
        return self.match.game

    @property
    def seq(self) -> int:
        """How many events each seat has had (the same count for every seat)."""
        return len(self.events)

    def now(self) -> float:
        """The room's clock: seconds since this round's deal (it stands still while the server is down).
        An untimed ruleset has no clock: its time stays the game's (0)."""
        if not self.timed:
            return self.game.now
        return max(self.game.now, self.loop.time() - self.origin)

    def seat_of(self, token: str) -> int | None:
        return self.seats.get(token_hash(token))

    def human_seats(self) -> list[int]:
        return [p for p in range(self.players) if p not in self.bots]

    def free_seats(self) -> list[int]:
        taken = set(self.seats.values())
        return [p for p in self.human_seats() if p not in taken]

    def facts(self) -> dict[str, Any]:
        """What anyone may know of the room (no card)."""
        return {
            "room": self.id,
            "ruleset": self.ruleset,
            "title": self.variant.title,
            "players": self.players,
            "bots": {str(p): name for p, name in self.bots.items()},
            "taken": sorted(self.seats.values()),
            "free": self.free_seats(),
            "round": self.match.round,
            "actions": self.played,
            "over": self.match.is_over,
        }

    # ------------------------------------------------------------------ seats and sockets

    def take_seat(self, invitation: str) -> tuple[int, str]:
        """The seat ``invitation`` was made for, with a new token; ``Refused`` if the invitation is not one of
        this room's, or its seat is taken (an invitation is used once)."""
        wanted = token_hash(invitation)
        seat = next((p for p, h in self.invitations.items() if secrets.compare_digest(h, wanted)), None)
        if seat is None:
            log.warning("room %s: a join with an invitation that is not the room's: refused", self.id)
            raise Refused("not an invitation to this room")
        if seat not in self.free_seats():
            raise Refused(f"seat {seat} is taken: this invitation was used")
        token = secrets.token_urlsafe(24)
        if not self.store.add_seat(self.id, seat, token_hash(token)):
            raise Refused(f"seat {seat} is taken: this invitation was used")
        self.seats[token_hash(token)] = seat
        return seat, token

    def connect(self, listener: Listener, since: int) -> None:
        """Add a socket and send it its welcome: its view and the events after the first ``since``."""
        since = min(max(since, 0), self.seq)
        self.listeners.add(listener)
        self.used = self.loop.time()
        seat = listener.seat
        missed = self.events[since:]
        welcome = protocol.welcome(self.id, self.ruleset, self.match, seat, self.seq, missed, self.now(), self.busy)
        listener.send(welcome)

    def disconnect(self, listener: Listener) -> None:
        self.listeners.discard(listener)
        self.used = self.loop.time()

    def sockets_of(self, seat: int) -> int:
        """How many sockets watch the room for ``seat``."""
        return sum(1 for listener in self.listeners if listener.seat == seat)

    def idle(self, now: float, seconds: float) -> bool:
        """Whether the room may leave memory (it comes back from the database on its next use): no socket, nothing
        running or due (a bot's move, the next round, a deadline), and either the match over or nothing used it
        for ``seconds``. A room whose bots are to move, or whose clock runs, is never idle."""
        if self.listeners or self.lock.locked() or self.tasks or self.busy:
            return False
        if any(t is not None for t in (self.bot_timer, self.round_timer, self.tick)):
            return False
        if self.match.is_over:
            return now - self.used >= min(seconds, 5.0)
        return now - self.used >= seconds and not self.bot_may_act()

    # ------------------------------------------------------------------ changes

    def spawn(self, change: Callable[[], Awaitable[None]]) -> None:
        """Run ``change`` as a task of its own, holding the room's lock (for timers and the lobby)."""
        task = self.loop.create_task(self.locked(change))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def locked(self, change: Callable[[], Awaitable[None]]) -> None:
        async with self.lock:
            if self.closed:
                return
            try:
                await change()
            except Exception as exc:  # a room that fails is quarantined; the others go on
                self.lobby.quarantine(self, exc)

    async def act(self, seat: int, action: Any) -> None:
        """An action sent by the socket of ``seat``. Raises ``Refused`` or ``tamalou.IllegalAction`` (nothing
        changed); once it is applied, the bots answer and the sockets hear of it before this returns."""
        if not isinstance(action, dict):
            raise Refused("an action is a JSON object")
        claimed = action.get("player", seat)
        if claimed != seat or type(claimed) is not int:
            log.warning("room %s: seat %d tried to act for player %.40r: refused", self.id, seat, claimed)
            raise Refused(f"you play seat {seat} only")
        if action.get("type") == "tick":
            raise Refused("time is kept by the server")
        async with self.lock:
            if self.closed:
                raise Refused("the room is closed")
            if self.match.is_over or self.game.is_over:
                raise tamalou.IllegalAction("the round is over")
            self.catch_up()
            self.play(self.stamped({**action, "player": seat}))  # IllegalAction: nothing changed
            try:
                await self.settle()
            except Exception as exc:
                self.lobby.quarantine(self, exc)

    def stamped(self, action: dict[str, Any]) -> dict[str, Any]:
        """The action with the room's time as its ``at`` in a timed ruleset (a client's time is never trusted)."""
        action = {k: v for k, v in action.items() if k != "at"}
        if self.timed:
            action["at"] = self.now()
        return action

    def play(self, action: dict[str, Any]) -> None:
        """Apply one action, save it with the new snapshot, record the events."""
        events = self.game.apply(action)
        applied = self.game.actions[-1].to_dict()
        # Only the action is written (and whether the match is over): the match's snapshot is written at each
        # deal, and a restart replays the round's actions on it (a long round costs what an action costs).
        self.store.save_action(self.id, self.played, self.match.round, applied, self.match.is_over)
        self.played += 1
        self.used = self.loop.time()
        self.publish(events)

    def publish(self, events: list[tamalou.Event]) -> None:
        """Record new events; they are sent with the next ``flush``."""
        self.events.extend(events)
        self.unsent.extend(events)
        self.changed = True

    def notice(self, text: str) -> None:
        """Tell every socket something that is not an event of the game (a bot's fallback move)."""
        for listener in list(self.listeners):
            listener.send(protocol.notice(text))

    def flush(self, busy: bool = False) -> None:
        """Send every socket one update: the events since the last one as its seat sees them, its new state.

        ``busy``: the room's bots are answering now (``bot_delay`` 0): people should wait for the update that
        is not busy before they act (an update saying no more than that the bots are done may follow)."""
        if not self.changed and busy == self.busy:
            return
        events, self.unsent, self.changed, self.busy = self.unsent, [], False, busy
        now = self.now()
        made: dict[int, dict[str, Any]] = {}
        for listener in list(self.listeners):
            seat = listener.seat
            if seat not in made:
                made[seat] = protocol.update(self.match, seat, self.seq, events, now, busy)
            listener.send(made[seat])

    def catch_up(self) -> None:
        """Apply the deadlines that have passed (a timed ruleset whose timer has not fired yet)."""
        while self.timed and not self.game.is_over:
            deadline = self.game.deadline
            if deadline is None or self.now() < deadline:
                return
            self.play({"type": "tick", "at": deadline})

    async def settle(self) -> None:
        """After any change (the lock held): let bots with no delay play until none moves (each move asked of a
        worker, the loop free meanwhile), end or deal rounds, set the timers, and send what changed."""
        while not self.closed:
            self.catch_up()
            if self.round_over_now():
                continue
            if self.bot_delay > 0 or not self.bot_may_act():
                break
            self.flush(busy=True)
            if not await self.bot_plays():
                break
        if self.bot_delay > 0 and self.bot_timer is None and self.bot_may_act():
            self.bot_timer = self.loop.call_later(self.bot_delay, self.spawn, self.bot_turn)
        self.set_tick()
        self.flush()

    async def bot_plays(self) -> bool:
        """Ask a worker for the next bot move and play it; ``False`` if no bot moves now."""
        seeds = {seat: bot_seed(self.match.seed, seat, self.played) for seat in self.bots}
        found, why = await self.lobby.workers.move(
            self.game, self.saved_ruleset, self.toml, self.bots, seeds, f"room {self.id}", self.owner
        )
        if found is None or self.closed:
            return False
        seat, action = found
        if why is not None:
            self.notice(f"the bot of seat {seat} ({self.bots[seat]}): {why}: it plays the fallback move (a random one)")
        try:
            self.play(self.stamped({**action, "player": seat}))
        except tamalou.IllegalAction as exc:  # a deadline passed while the bot thought, or a bot's bug
            self.catch_up()
            log.warning("room %s: the bot of seat %d was refused (%s)", self.id, seat, exc)
        return True

    def bot_may_act(self) -> bool:
        """Whether a bot has something it may do now (worth asking a worker after ``bot_delay``)."""
        return bool(self.bots) and not self.game.is_over and any(self.game.legal_actions(s) for s in self.bots)

    async def bot_turn(self) -> None:
        """A bot's move, ``bot_delay`` seconds after a change."""
        self.bot_timer = None
        if not self.game.is_over:
            self.catch_up()
            await self.bot_plays()
        await self.settle()

    def round_over_now(self) -> bool:
        """Score a finished round: after the pause between rounds, so that the players read its result
        before the next deal; the match's last round at once (``match.ends_with_this_round``), so that
        the end of the match comes with it. ``True`` if a round was dealt now."""
        if not self.game.is_over or self.match.is_over or self.round_timer is not None:
            return False
        if self.round_pause > 0 and not self.match.ends_with_this_round:
            self.round_timer = self.loop.call_later(self.round_pause, self.spawn, self.round_ends)
            return False
        self.next_round()
        return not self.match.is_over

    async def round_ends(self) -> None:
        """The pause between rounds is over: the next deal."""
        self.round_timer = None
        self.next_round()
        await self.settle()

    def next_round(self) -> None:
        """Score the round; deal the next one unless the match is decided."""
        self.match.next_round()
        self.store.save_snapshot(self.id, self.match.to_json(), self.match.is_over, self.played, self.match.round)
        if self.match.is_over:
            self.publish([])
        else:
            self.origin = self.loop.time()  # the new round's clock starts now
            if self.tick is not None:
                self.tick.cancel()
            self.tick, self.tick_at = None, None
            self.publish(self.game.events_so_far())

    def set_tick(self) -> None:
        """Have the timer fire at the game's next deadline (timed rulesets); cancel a stale one."""
        deadline = None if self.game.is_over else self.game.deadline
        if deadline == self.tick_at:
            return
        if self.tick is not None:
            self.tick.cancel()
        self.tick, self.tick_at = None, deadline
        if deadline is not None:
            self.tick = self.loop.call_at(self.origin + deadline, self.on_deadline, deadline)

    def on_deadline(self, deadline: float) -> None:
        """The deadline came: time passes to it (a turn that ran out is played, a countdown ends...)."""
        self.tick, self.tick_at = None, None
        self.spawn(lambda: self.deadline_passed(deadline))

    async def deadline_passed(self, deadline: float) -> None:
        if not self.game.is_over and self.game.deadline == deadline:
            self.play({"type": "tick", "at": deadline})
        await self.settle()

    def close(self, code: int = 1001, reason: str = "the server is stopping") -> None:
        """Stop the room's timers and tasks, and close its sockets."""
        self.closed = True
        for timer in (self.tick, self.bot_timer, self.round_timer):
            if timer is not None:
                timer.cancel()
        for task in list(self.tasks):
            if task is not asyncio.current_task():
                task.cancel()
        for listener in list(self.listeners):
            listener.end(code, reason)
        self.listeners.clear()


@dataclass
class Limits:
    """What one address may have of the server at once, and how fast it may make rooms (``create_app`` takes
    them; ``python -m table_server`` has an option for each). Past a cap a request is refused (``429``) and logged
    in one line."""

    #: Rooms not over made by one address.
    rooms_per_address: int = 50
    #: Of those, rooms where only bots play (they use the workers all the time).
    bot_rooms_per_address: int = 4
    #: Uploaded rules being checked at once for one address.
    uploads_per_address: int = 1
    #: Rooms one address may make in a burst, then ``rooms_per_minute`` a minute.
    room_burst: int = 30
    rooms_per_minute: float = 60.0
    #: The longest match of uploaded rules, in turns (``rules.rounds`` times ``rules.end.max_turns``).
    max_match_turns: int = 4_000
    #: Seconds an unwatched room stays in memory (a finished one: 5 s at most); it comes back on its next use.
    idle_seconds: float = 300.0


class Bucket:
    """A token bucket: ``take()`` is false once more than ``burst`` were taken faster than ``per_second``."""

    def __init__(self, burst: float, per_second: float) -> None:
        self.burst, self.per_second = burst, per_second
        self.tokens, self.last = float(burst), time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class Refusals:
    """Refusals logged in one line each, at most one a minute for the same kind and address (then how many more).
    ``form`` is the line: ``{kind}``, ``{address}``, ``{detail}``."""

    def __init__(self, form: str = "refused {kind} from {address}: {detail}") -> None:
        self.form = form
        self.last: dict[tuple[str, str], tuple[float, int]] = {}

    def log(self, kind: str, address: str, detail: str) -> None:
        key = (kind, address)
        now = time.monotonic()
        when, more = self.last.get(key, (-1e9, 0))
        if now - when < 60:
            self.last[key] = (when, more + 1)
            return
        extra = f" ({more} more in the last minute)" if more else ""
        log.warning("%s%s", self.form.format(kind=kind, address=address, detail=detail), extra)
        self.last[key] = (now, 0)
        if len(self.last) > 10_000:
            self.last.clear()


class Lobby:
    """Every room of the server: creates them (within each address's limits), finds them (restoring them from the
    database off the event loop, on their first use), resumes the rooms in play after a start (in the background:
    requests are served at once), unloads idle ones, and quarantines the ones that fail."""

    def __init__(
        self,
        store: Store,
        workers: Workers,
        round_pause: float = 3.0,
        checks: Workers | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.workers = workers
        self.checks = checks or workers
        self.round_pause = round_pause
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self.restoring: dict[str, asyncio.Future[Room | None]] = {}
        self.restorer = ThreadPoolExecutor(1, thread_name_prefix="restore")
        self.uploads: collections.Counter[str] = collections.Counter()  # uploads being checked, by address
        self.buckets: dict[str, Bucket] = {}
        self.refusals = Refusals()

    def refuse(self, kind: str, address: str, reason: str) -> Refused:
        self.refusals.log(kind, address, reason)
        return Refused(reason)

    async def create(
        self,
        *,
        ruleset: str | None,
        toml: str | None,
        players: int,
        bots: dict[int, str],
        seed: int | None = None,
        bot_delay: float = 0.5,
        owner: str = "",
    ) -> tuple[Room, dict[int, str]]:
        """A new room and the invitation of each seat open to people (``seat -> invitation``). Uploaded rules
        are checked first in a worker, with the limits a restart uses (they must load without plugins, deal and
        restore from their snapshot, and make matches of ``limits.max_match_turns`` turns at most), so that a room
        that is created can always be restored. ``tamalou.VariantError``, ``tamalou.SetupError`` or ``ValueError``
        if the request is bad; ``Refused`` past the limits of ``owner`` (the address)."""
        for seat, name in bots.items():
            if not 0 <= seat < players:
                raise ValueError(f"no seat {seat} in a {players}-player game")
            if name not in bot_names():
                raise ValueError(f"no bot named {name[:40]!r}: {', '.join(bot_names())}")
        limits = self.limits
        bucket = self.buckets.get(owner)
        if bucket is None:
            if len(self.buckets) > 10_000:
                self.buckets.clear()
            bucket = self.buckets[owner] = Bucket(limits.room_burst, limits.rooms_per_minute / 60)
        if not bucket.take():
            raise self.refuse("a room", owner, f"too many rooms made: {limits.rooms_per_minute:g} a minute at most")
        in_play, bot_rooms = self.store.rooms_of(owner)
        if in_play >= limits.rooms_per_address:
            most = limits.rooms_per_address
            raise self.refuse("a room", owner, f"{in_play} rooms in play from this address: {most} at most")
        if len(bots) == players and bot_rooms >= limits.bot_rooms_per_address:
            raise self.refuse(
                "a bot room", owner, f"{bot_rooms} rooms of bots only in play: {limits.bot_rooms_per_address} at most"
            )
        if toml is not None:
            if ruleset is not None:
                raise tamalou.VariantError("give either a ruleset name or a TOML text")
            check_size(toml)  # before the worker reads it
            if self.uploads[owner] >= limits.uploads_per_address:
                raise self.refuse("an upload", owner, "rules from this address are being checked: one at a time")
            self.uploads[owner] += 1
            try:
                problem = await self.checks.check(toml, players, seed, owner, limits.max_match_turns)
            finally:
                self.uploads[owner] -= 1
                if not self.uploads[owner]:
                    del self.uploads[owner]
            if problem is not None:
                raise tamalou.VariantError(problem)
        variant = load_ruleset(ruleset, toml)
        match = tamalou.new_match(variant, players, seed=seed)
        snapshot = match.to_json()
        invitations = {p: secrets.token_urlsafe(12) for p in range(players) if p not in bots}
        saved = SavedRoom(
            id=secrets.token_urlsafe(6),
            ruleset=ruleset,
            toml=toml,
            players=players,
            bots=dict(bots),
            bot_delay=bot_delay,
            snapshot=snapshot,
            over=False,
            seats={},
            invitations={p: token_hash(code) for p, code in invitations.items()},
            owner=owner,
            name=ruleset or variant.name,
            title=variant.title,
        )
        self.store.create_room(saved)
        room = self.add(saved, variant, match, match.game.events_so_far())
        room.spawn(room.settle)
        return room, invitations

    def add(
        self, saved: SavedRoom, variant: tamalou.Variant, match: tamalou.Match, events: list[tamalou.Event]
    ) -> Room:
        room = Room(saved, variant, match, events, self)
        self.rooms[room.id] = room
        return room

    async def get(self, room_id: str) -> Room | None:
        """The room, from memory or else restored from the database off the event loop (``None`` if there is no
        such room, or it is quarantined). Requests for a room being restored wait for the same restore."""
        room = self.rooms.get(room_id)
        if room is not None or len(room_id) > 64:
            return room
        pending = self.restoring.get(room_id)
        if pending is None:
            pending = self.restoring[room_id] = asyncio.ensure_future(self._restore(room_id))
            pending.add_done_callback(lambda _: self.restoring.pop(room_id, None))
        return await asyncio.shield(pending)

    def facts(self, room_id: str) -> dict[str, Any] | None:
        """What anyone may know of a room, from memory or from the database (nothing is restored for it)."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room.facts()
        return self.store.facts(room_id) if len(room_id) <= 64 else None

    async def _restore(self, room_id: str) -> Room | None:
        loop = asyncio.get_running_loop()
        try:
            restored = await loop.run_in_executor(self.restorer, restore, self.store.path, room_id)
        except Exception as exc:  # a room that cannot be restored is quarantined; the others go on
            self.store.quarantine(room_id, describe(exc))
            log.error("room %s: cannot be restored: %s: quarantined (its data kept)", room_id, describe(exc))
            return None
        if restored is None:
            return None
        if room_id in self.rooms:  # (made meanwhile: never twice)
            return self.rooms[room_id]
        saved, variant, match, events = restored
        room = self.add(saved, variant, match, events)
        room.spawn(room.settle)
        return room

    async def resume_all(self) -> tuple[int, int]:
        """Restore every room not over (after a start, in the background: requests are served meanwhile) and set
        its timers and bots going: ``(resumed, quarantined)``."""
        in_play = self.store.rooms_in_play()
        resumed = 0
        for room_id in in_play:
            resumed += await self.get(room_id) is not None
        return resumed, len(in_play) - resumed

    def sweep(self) -> int:
        """Unload the idle rooms (``Room.idle``): they come back from the database on their next use. How many."""
        now = asyncio.get_running_loop().time()
        idle = [room for room in self.rooms.values() if room.idle(now, self.limits.idle_seconds)]
        for room in idle:
            room.close()
            del self.rooms[room.id]
        return len(idle)

    def quarantine(self, room: Room, exc: BaseException) -> None:
        """Take a room that failed out of play: log it, mark it in the database (its data kept), close its
        sockets. The other rooms go on."""
        reason = describe(exc)
        log.error("room %s failed: %s: quarantined (its data kept)", room.id, reason, exc_info=exc)
        self.store.quarantine(room.id, reason)
        self.rooms.pop(room.id, None)
        room.close(1011, "this room failed and is quarantined")

    async def retry(self, room_id: str) -> Room | None:
        """Take a quarantined room out of quarantine and restore it (``None``: it failed again, or there is no
        such room)."""
        self.store.release(room_id)
        return await self.get(room_id)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
        self.restorer.shutdown(wait=False, cancel_futures=True)


def restore(db: str, room_id: str) -> tuple[SavedRoom, tamalou.Variant, tamalou.Match, list[tamalou.Event]] | None:
    """A saved room's match back where it was, in a thread of its own (``Lobby.get``): ``None`` if there is no
    such room or it is quarantined; an exception if it cannot be restored.

    The database is the server's own, but its snapshot is checked as one from outside (``Match.from_json`` by
    default: replayed from its seed and actions, so one edited on disk is refused); then the actions logged since
    (the round in play) are applied to it, and the log of the rounds before must be the snapshot's."""
    reader = Store(db, readonly=True)
    try:
        saved = reader.load_room(room_id)
        if saved is None or saved.quarantined is not None:
            return None
        logged = [action for _, action in reader.actions(room_id)]
    finally:
        reader.close()
    variant = load_ruleset(saved.ruleset, saved.toml)
    match = tamalou.Match.from_json(saved.snapshot, variant)
    played = [a.to_dict() for r in match.actions for a in r]
    if logged[: len(played)] != played:
        raise tamalou.SnapshotError("the action log does not match the snapshot")
    for action in logged[len(played) :]:
        if match.game.is_over:
            raise tamalou.SnapshotError("the action log goes on past the end of a round")
        match.game.apply(action)
    return saved, variant, match, match.events_so_far()


def describe(exc: BaseException) -> str:
    """An error in one line, for the log and the admin endpoint."""
    return f"{type(exc).__name__}: {exc}"[:2000]
