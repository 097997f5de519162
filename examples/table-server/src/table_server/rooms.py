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
import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable
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
        seat = listener.seat
        missed = self.events[since:]
        welcome = protocol.welcome(self.id, self.ruleset, self.match, seat, self.seq, missed, self.now(), self.busy)
        listener.send(welcome)

    def disconnect(self, listener: Listener) -> None:
        self.listeners.discard(listener)

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
        self.store.save_action(
            self.id, self.played, self.match.round, applied, self.match.to_json(), self.match.is_over
        )
        self.played += 1
        self.publish(events)

    def publish(self, events: list[tamalou.Event]) -> None:
        """Record new events; they are sent with the next ``flush``."""
        self.events.extend(events)
        self.unsent.extend(events)
        self.changed = True

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
        found = await self.lobby.workers.move(
            self.game, self.saved_ruleset, self.toml, self.bots, seeds, f"room {self.id}"
        )
        if found is None or self.closed:
            return False
        seat, action = found
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
        self.store.save_snapshot(self.id, self.match.to_json(), self.match.is_over)
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


class Lobby:
    """Every room of the server: creates them, finds them (loading them from the database), resumes them, and
    quarantines the ones that fail."""

    def __init__(self, store: Store, workers: Workers, round_pause: float = 3.0) -> None:
        self.store = store
        self.workers = workers
        self.round_pause = round_pause
        self.rooms: dict[str, Room] = {}

    async def create(
        self,
        *,
        ruleset: str | None,
        toml: str | None,
        players: int,
        bots: dict[int, str],
        seed: int | None = None,
        bot_delay: float = 0.5,
    ) -> tuple[Room, dict[int, str]]:
        """A new room and the invitation of each seat open to people (``seat -> invitation``). Uploaded rules
        are checked first in a worker, with the limits a restart uses (they must load without plugins, deal and
        restore from their snapshot), so that a room that is created can always be restored.
        ``tamalou.VariantError``, ``tamalou.SetupError`` or ``ValueError`` if the request is bad."""
        for seat, name in bots.items():
            if not 0 <= seat < players:
                raise ValueError(f"no seat {seat} in a {players}-player game")
            if name not in bot_names():
                raise ValueError(f"no bot named {name[:40]!r}: {', '.join(bot_names())}")
        if toml is not None:
            if ruleset is not None:
                raise tamalou.VariantError("give either a ruleset name or a TOML text")
            check_size(toml)  # before the worker reads it
            problem = await self.workers.check(toml, players, seed)
            if problem is not None:
                raise tamalou.VariantError(problem)
        variant = load_ruleset(ruleset, toml)
        match = tamalou.new_match(variant, players, seed=seed)
        snapshot = match.to_json()
        if toml is None:  # what a restart does (uploaded rules did it in the worker)
            tamalou.Match.from_json(snapshot, variant)
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

    def get(self, room_id: str) -> Room | None:
        """The room, from memory or else from the database (``None`` if there is no such room, or it is
        quarantined)."""
        room = self.rooms.get(room_id)
        if room is None and len(room_id) <= 64:
            saved = self.store.load_room(room_id)
            if saved is not None and saved.quarantined is None:
                room = self.restore(saved)
        return room

    def restore(self, saved: SavedRoom) -> Room | None:
        """A saved room back in play, exactly where it was (its timers and bots going on); ``None`` if it
        cannot be restored: it is then quarantined."""
        try:
            variant = load_ruleset(saved.ruleset, saved.toml)
            # The database is the server's own, but a snapshot is checked as one from outside: replayed.
            match = tamalou.Match.from_json(saved.snapshot, variant, replay_check=True)
            logged = [action for _, action in self.store.actions(saved.id)]
            played = [a.to_dict() for r in match.actions for a in r]
            if logged != played:
                raise tamalou.SnapshotError("the action log does not match the snapshot")
            events = match.events_so_far()
        except Exception as exc:
            self.store.quarantine(saved.id, describe(exc))
            log.error("room %s: cannot be restored: %s: quarantined (its data kept)", saved.id, describe(exc))
            return None
        room = self.add(saved, variant, match, events)
        room.spawn(room.settle)
        return room

    def resume_all(self) -> tuple[int, int]:
        """Load every room not over and set its timers and bots going (at server start): ``(resumed,
        quarantined)``. A room that fails to restore is quarantined; the others start."""
        in_play = self.store.rooms_in_play()
        resumed = sum(self.get(room_id) is not None for room_id in in_play)
        return resumed, len(in_play) - resumed

    def quarantine(self, room: Room, exc: BaseException) -> None:
        """Take a room that failed out of play: log it, mark it in the database (its data kept), close its
        sockets. The other rooms go on."""
        reason = describe(exc)
        log.error("room %s failed: %s: quarantined (its data kept)", room.id, reason, exc_info=exc)
        self.store.quarantine(room.id, reason)
        self.rooms.pop(room.id, None)
        room.close(1011, "this room failed and is quarantined")

    def retry(self, room_id: str) -> Room | None:
        """Take a quarantined room out of quarantine and restore it (``None``: it failed again, or there is no
        such room)."""
        self.store.release(room_id)
        return self.get(room_id)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()


def describe(exc: BaseException) -> str:
    """An error in one line, for the log and the admin endpoint."""
    return f"{type(exc).__name__}: {exc}"[:2000]
