"""The lobby: every room of the server, made within each address's limits, restored from the database off the
event loop on first use, resumed after a start, unloaded when idle, quarantined when it fails."""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import tamalou
from tamalou.bots import bot_names

from .bots import Workers
from .limits import Bucket, Limits, Refusals
from .rooms import Refused, Room, token_hash
from .rulesets import check_size, load_ruleset
from .store import SavedRoom, Store

log = logging.getLogger("table_server")


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
        self.unloaded = 0  # rooms unloaded since the last sweep
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

    def unload(self, room: Room) -> bool:
        """Take ``room`` out of memory if it is idle (``Room.idle``): it comes back from the database on its next
        use."""
        if self.rooms.get(room.id) is not room or not room.idle(room.loop.time(), self.limits.idle_seconds):
            return False
        room.close()
        del self.rooms[room.id]
        self.unloaded += 1
        return True

    def sweep(self) -> int:
        """Unload the idle rooms: how many left memory since the last sweep (finished rooms leave as their last
        socket does)."""
        for room in list(self.rooms.values()):
            self.unload(room)
        unloaded, self.unloaded = self.unloaded, 0
        return unloaded

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
