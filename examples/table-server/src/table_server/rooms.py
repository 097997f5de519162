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
from typing import TYPE_CHECKING, Any, Protocol

import tamalou

from . import protocol
from .bots import bot_seed
from .rulesets import is_timed
from .store import SavedRoom

if TYPE_CHECKING:
    from .lobby import Lobby

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
        self.joining = 0  # sockets being sent the events they missed (not yet listeners)
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

    async def connect(self, listener: Listener, since: int) -> None:
        """Add a socket and send it its welcome: its view and the events after the first ``since``.

        A welcome holds ``protocol.PIECE_EVENTS`` events at most: the rest follow in updates of as many, each
        made once the loop has served what else waits (the welcome of a long match, every event since its start,
        would otherwise hold the loop for each socket that opens it). The socket hears of the room's changes once
        it has had every event before them."""
        self.used = self.loop.time()
        self.joining += 1
        try:
            seat = listener.seat
            sent = min(max(since, 0), self.sent)
            piece = self.events[sent : sent + protocol.PIECE_EVENTS]
            sent += len(piece)
            listener.send(protocol.welcome(self.id, self.ruleset, self.match, seat, sent, piece, self.now(), self.busy))
            while sent < self.sent and not self.closed:
                await asyncio.sleep(0)
                piece = self.events[sent : sent + protocol.PIECE_EVENTS]
                sent += len(piece)
                listener.send(protocol.update(self.match, seat, sent, piece, self.now(), self.busy))
            if not self.closed:  # (no await since the last check: no event can be missed)
                self.listeners.add(listener)
        finally:
            self.joining -= 1

    @property
    def sent(self) -> int:
        """How many events the sockets have had (the events not yet flushed come in the next update)."""
        return len(self.events) - len(self.unsent)

    def disconnect(self, listener: Listener) -> None:
        self.listeners.discard(listener)
        self.used = self.loop.time()
        if not self.listeners and self.match.is_over:  # a finished room leaves memory with its last socket
            self.loop.call_soon(self.lobby.unload, self)

    def sockets_of(self, seat: int) -> int:
        """How many sockets watch the room for ``seat``."""
        return sum(1 for listener in self.listeners if listener.seat == seat)

    def idle(self, now: float, seconds: float) -> bool:
        """Whether the room may leave memory (it comes back from the database on its next use): no socket, nothing
        running or due (a bot's move, the next round, a deadline), and either the match over or nothing used it
        for ``seconds``. A room whose bots are to move, or whose clock runs, is never idle. (A finished room is
        only read: opening it again restores it, off the loop; keeping many in memory would make each pass of
        Python's collector longer, and it holds the loop.)"""
        if self.listeners or self.joining or self.lock.locked() or self.tasks or self.busy:
            return False
        if any(t is not None for t in (self.bot_timer, self.round_timer, self.tick)):
            return False
        if self.match.is_over:
            return True
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
