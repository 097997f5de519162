"""Rooms: one tamalou match each, its seats, its bots, its clock, and the sockets that watch it.

Everything here runs on the server's event loop and never awaits: an action is checked, applied, saved
and sent to every seat before the next message is read, so a room needs no lock. Time-driven things
are asyncio timers: the game's next deadline (``game.deadline``), a bot's move after ``bot_delay``
seconds, the next round after a pause. Nothing polls.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
from collections.abc import Callable
from typing import Any, Protocol, cast

import tamalou
from tamalou.bots import bot_names, make_bot
from tamalou.play import Bot

from . import protocol
from .rulesets import is_timed, load_ruleset
from .store import SavedRoom, Store

log = logging.getLogger("table_server")

#: The most actions bots play in a row without a human's (a safety net: every round is bounded).
MAX_BOT_CHAIN = 100_000


class Refused(Exception):
    """A request that is not allowed (the reason is sent to the client)."""


class Listener(Protocol):
    """A connected socket: the seat it plays and a way to queue a message for it (never blocks)."""

    seat: int

    def send(self, message: dict[str, Any]) -> None: ...


def token_hash(token: str) -> str:
    """What the database keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Room:
    """One match in play (``tamalou.Match``: a single round or several), saved after every action."""

    def __init__(
        self,
        saved: SavedRoom,
        variant: tamalou.Variant,
        match: tamalou.Match,
        events: list[tamalou.Event],
        store: Store,
        round_pause: float,
    ) -> None:
        self.id = saved.id
        self.ruleset = saved.ruleset or variant.name
        self.variant = variant
        self.match = match
        self.players = saved.players
        self.bots = saved.bots
        self.bot_delay = saved.bot_delay
        self.seats = {h: seat for seat, h in saved.seats.items()}  # token hash -> seat
        self.store = store
        self.round_pause = round_pause  # seconds between the end of a round and the next deal
        self.timed = is_timed(variant)
        self.listeners: set[Listener] = set()
        self.events = events  # every event of the match so far, as the referee sees it
        self.played = sum(len(r) for r in match.actions)  # actions applied in the match so far
        self.unsent: list[tamalou.Event] = []  # events not yet sent to the sockets
        self.changed = False  # whether the sockets have yet to hear of a change
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

    def take_seat(self, seat: int | None) -> tuple[int, str]:
        """Give a free human seat (the first one, or ``seat``) a new token; ``Refused`` if none."""
        free = self.free_seats()
        if seat is None and free:
            seat = free[0]
        if seat is None or seat not in free:
            raise Refused("no free seat" if seat is None else f"seat {seat!r} is not free")
        token = secrets.token_urlsafe(24)
        if not self.store.add_seat(self.id, seat, token_hash(token)):
            raise Refused(f"seat {seat} is not free")
        self.seats[token_hash(token)] = seat
        return seat, token

    def connect(self, listener: Listener, since: int) -> None:
        """Add a socket and send it its welcome: its view and the events after the first ``since``."""
        since = min(max(since, 0), self.seq)
        self.listeners.add(listener)
        seat = listener.seat
        missed = self.events[since:]
        listener.send(protocol.welcome(self.id, self.ruleset, self.match, seat, self.seq, missed, self.now()))

    def disconnect(self, listener: Listener) -> None:
        self.listeners.discard(listener)

    # ------------------------------------------------------------------ playing

    def act(self, seat: int, action: Any) -> None:
        """An action sent by the socket of ``seat``. Raises ``Refused`` or ``tamalou.IllegalAction``."""
        if not isinstance(action, dict):
            raise Refused("an action is a JSON object")
        claimed = action.get("player", seat)
        if claimed != seat or type(claimed) is not int:
            log.warning("room %s: seat %d tried to act for player %.40r: refused", self.id, seat, claimed)
            raise Refused(f"you play seat {seat} only")
        if action.get("type") == "tick":
            raise Refused("time is kept by the server")
        if self.match.is_over or self.game.is_over:
            raise tamalou.IllegalAction("the round is over")
        self.play(self.stamped({**action, "player": seat}))
        self.settle()

    def stamped(self, action: dict[str, Any]) -> dict[str, Any]:
        """The action with the room's time as its ``at`` in a timed ruleset (a client's time is never trusted)."""
        action = {k: v for k, v in action.items() if k != "at"}
        if self.timed:
            action["at"] = self.now()
        return action

    def play(self, action: dict[str, Any]) -> None:
        """Apply one action, save it with the new snapshot, send the events."""
        events = self.game.apply(action)
        applied = self.game.actions[-1].to_dict()
        self.store.save_action(
            self.id, self.played, self.match.round, applied, self.match.to_json(), self.match.is_over
        )
        self.played += 1
        self.publish(events)

    def publish(self, events: list[tamalou.Event]) -> None:
        """Record new events; they are sent with the next ``flush`` (one update for a chain of moves)."""
        self.events.extend(events)
        self.unsent.extend(events)
        self.changed = True

    def flush(self) -> None:
        """Send every socket one update: the events since the last one as its seat sees them, its new state."""
        if not self.changed:
            return
        events, self.unsent, self.changed = self.unsent, [], False
        now = self.now()
        made: dict[int, dict[str, Any]] = {}
        for listener in list(self.listeners):
            seat = listener.seat
            if seat not in made:
                made[seat] = protocol.update(self.match, seat, self.seq, events, now)
            listener.send(made[seat])

    def settle(self) -> None:
        """After any change: let bots play, end or deal rounds, set the timer of the next deadline, and send
        the sockets what changed."""
        chain = 0
        while self.bot_delay == 0 and chain < MAX_BOT_CHAIN:
            move = self.bot_move()
            if move is None:
                if not self.round_over_now():
                    break
            else:
                self.play(self.stamped(move))
            chain += 1
        if self.bot_delay > 0:
            self.round_over_now()
            if self.bot_timer is None and self.bots and not self.game.is_over:
                self.bot_timer = self.loop.call_later(self.bot_delay, self.bot_turn)
        self.set_tick()
        self.flush()

    def round_over_now(self) -> bool:
        """Score a finished round: after the pause between rounds, so that the players read its result
        before the next deal; the match's last round at once (``match.ends_with_this_round``), so that
        the end of the match comes with it. ``True`` if a round was dealt now."""
        if not self.game.is_over or self.match.is_over or self.round_timer is not None:
            return False
        if self.round_pause > 0 and not self.match.ends_with_this_round:
            self.round_timer = self.loop.call_later(self.round_pause, self.next_round)
            return False
        self.next_round(settle=False)
        return not self.match.is_over

    def next_round(self, settle: bool = True) -> None:
        """Score the round; deal the next one unless the match is decided."""
        self.round_timer = None
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
        if settle:
            self.settle()

    def bot_turn(self) -> None:
        """A bot's move, ``bot_delay`` seconds after a change."""
        self.bot_timer = None
        move = self.bot_move()
        if move is not None:
            self.play(self.stamped(move))
        self.settle()

    def bot_move(self) -> dict[str, Any] | None:
        """The next bot action, as ``tamalou.play_game`` orders them: out-of-turn matches first, then the
        seat that has to act. ``None`` when no bot acts now."""
        game = self.game
        if game.is_over or not self.bots:
            return None
        n = game.players
        order = [(game.current_player + i) % n for i in range(n)]
        for seat in order[1:]:
            if seat in self.bots:
                bot = self.bot(seat)
                may_match: Callable[[], bool] | None = getattr(bot, "may_match", None)
                if may_match is not None and not may_match():
                    continue
                legal = game.legal_actions(seat)
                if legal and all(isinstance(a, tamalou.MatchAction) for a in legal):
                    action = bot.act(game.seat_view(seat), legal)
                    if action is not None:
                        return action.to_dict()
        for seat in order:
            if seat in self.bots:
                legal = game.legal_actions(seat)
                if any(not isinstance(a, tamalou.MatchAction | tamalou.Tick) for a in legal):
                    action = self.bot(seat).act(game.seat_view(seat), legal)
                    if action is None:
                        raise RuntimeError(f"room {self.id}: the bot of seat {seat} did not act")
                    return action.to_dict()
        return None

    def bot(self, seat: int) -> Bot:
        """The bot of ``seat``, made for this one decision: seeded by the room's seed, the seat and the
        number of actions so far, so a restarted server makes the same moves."""
        seed = random.Random(f"{self.match.seed}/{seat}/{self.played}").getrandbits(32)
        bot = make_bot(self.bots[seat], seed=seed)
        setup = getattr(bot, "setup", None)
        if callable(setup):
            setup(self.variant, seat)
        return cast(Bot, bot)

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
        if self.game.is_over or self.game.deadline != deadline:
            self.set_tick()
            return
        self.play({"type": "tick", "at": deadline})
        self.settle()

    def close(self) -> None:
        """Stop the room's timers (the server is shutting down)."""
        for timer in (self.tick, self.bot_timer, self.round_timer):
            if timer is not None:
                timer.cancel()


class Lobby:
    """Every room of the server: creates them, finds them (loading them from the database), resumes them."""

    def __init__(self, store: Store, round_pause: float = 3.0) -> None:
        self.store = store
        self.round_pause = round_pause
        self.rooms: dict[str, Room] = {}

    def create(
        self,
        *,
        ruleset: str | None,
        toml: str | None,
        players: int,
        bots: dict[int, str],
        seed: int | None = None,
        bot_delay: float = 0.5,
    ) -> Room:
        """A new room; ``tamalou.VariantError``, ``tamalou.SetupError`` or ``ValueError`` if the request is bad."""
        for seat, name in bots.items():
            if not 0 <= seat < players:
                raise ValueError(f"no seat {seat} in a {players}-player game")
            if name not in bot_names():
                raise ValueError(f"no bot named {name[:40]!r}: {', '.join(bot_names())}")
        variant = load_ruleset(ruleset, toml)
        match = tamalou.new_match(variant, players, seed=seed)
        saved = SavedRoom(
            id=secrets.token_urlsafe(6),
            ruleset=ruleset,
            toml=toml,
            players=players,
            bots=dict(bots),
            bot_delay=bot_delay,
            snapshot=match.to_json(),
            over=False,
            seats={},
        )
        self.store.create_room(saved)
        room = self.add(saved, variant, match, match.game.events_so_far())
        room.settle()
        return room

    def add(
        self, saved: SavedRoom, variant: tamalou.Variant, match: tamalou.Match, events: list[tamalou.Event]
    ) -> Room:
        room = Room(saved, variant, match, events, self.store, self.round_pause)
        self.rooms[room.id] = room
        return room

    def get(self, room_id: str) -> Room | None:
        """The room, from memory or else from the database (``None`` if there is no such room)."""
        room = self.rooms.get(room_id)
        if room is None and len(room_id) <= 64:
            saved = self.store.load_room(room_id)
            if saved is not None:
                room = self.restore(saved)
                room.settle()  # timers and bots go on
        return room

    def restore(self, saved: SavedRoom) -> Room:
        """A saved room back in play, exactly where it was: the snapshot, checked against the action log."""
        variant = load_ruleset(saved.ruleset, saved.toml)
        match = tamalou.Match.from_json(saved.snapshot, variant)
        logged = [action for _, action in self.store.actions(saved.id)]
        played = [a.to_dict() for r in match.actions for a in r]
        if logged != played:
            raise RuntimeError(f"room {saved.id}: the action log does not match the snapshot")
        return self.add(saved, variant, match, match.events_so_far())

    def resume_all(self) -> int:
        """Load every room not over and set its timers and bots going (at server start)."""
        in_play = self.store.rooms_in_play()
        for room_id in in_play:
            self.get(room_id)
        return len(in_play)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
