"""Rooms in SQLite (the standard library's ``sqlite3``): what a restarted server needs to go on exactly.

A room is saved as its settings, its invitations and seats (the sha256 of each invitation and each seat's
token, never the secret itself), the match snapshot (``Match.to_json()``) and the log of every action applied,
one row each. Each action is saved with the new snapshot in one transaction, so the snapshot and the log
always agree. A room that failed is marked quarantined, with the reason, and kept.

The database runs in WAL mode with ``synchronous=NORMAL``: a commit survives the server process being
killed; only a power cut may lose the last few commits.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id        TEXT PRIMARY KEY,
    ruleset   TEXT,              -- a registered ruleset's name, or NULL for uploaded rules
    toml      TEXT,              -- the uploaded rules (loaded again without plugins on restart)
    players   INTEGER NOT NULL,
    bots      TEXT NOT NULL,     -- JSON: {"seat": "bot name"}
    bot_delay REAL NOT NULL,
    snapshot  TEXT NOT NULL,     -- Match.to_json() after the last action
    over      INTEGER NOT NULL DEFAULT 0,
    quarantined TEXT,            -- why the room failed (NULL: it did not); its data is kept
    quarantined_at REAL
);
CREATE TABLE IF NOT EXISTS invitations (
    room      TEXT NOT NULL REFERENCES rooms(id),
    seat      INTEGER NOT NULL,
    code_hash TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS seats (
    room       TEXT NOT NULL REFERENCES rooms(id),
    seat       INTEGER NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    room   TEXT NOT NULL REFERENCES rooms(id),
    n      INTEGER NOT NULL,     -- 0, 1, 2... across the rounds of the match
    round  INTEGER NOT NULL,
    action TEXT NOT NULL,        -- the action's JSON (action.to_dict()), as applied
    PRIMARY KEY (room, n)
);
"""


@dataclass
class SavedRoom:
    """A room as read back from the database."""

    id: str
    ruleset: str | None
    toml: str | None
    players: int
    bots: dict[int, str]
    bot_delay: float
    snapshot: str
    over: bool
    seats: dict[int, str]  # seat -> token hash
    invitations: dict[int, str] = field(default_factory=dict)  # seat -> invitation hash
    quarantined: str | None = None  # why the room was quarantined


class Store:
    """The rooms' database. One connection, used from the server's event loop only."""

    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)  # autocommit; transactions are explicit
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(rooms)")}
        if columns and "quarantined" not in columns:  # a database of an earlier version of the server
            self.db.execute("ALTER TABLE rooms ADD COLUMN quarantined TEXT")
            self.db.execute("ALTER TABLE rooms ADD COLUMN quarantined_at REAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create_room(self, room: SavedRoom) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO rooms (id, ruleset, toml, players, bots, bot_delay, snapshot, over)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    room.id,
                    room.ruleset,
                    room.toml,
                    room.players,
                    json.dumps({str(k): v for k, v in room.bots.items()}),
                    room.bot_delay,
                    room.snapshot,
                    int(room.over),
                ),
            )
            self.db.executemany(
                "INSERT INTO invitations (room, seat, code_hash) VALUES (?, ?, ?)",
                [(room.id, seat, code) for seat, code in room.invitations.items()],
            )

    def add_seat(self, room: str, seat: int, token_hash: str) -> bool:
        """Record a taken seat; ``False`` if it was already taken."""
        try:
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute("INSERT INTO seats (room, seat, token_hash) VALUES (?, ?, ?)", (room, seat, token_hash))
        except sqlite3.IntegrityError:
            return False
        return True

    def save_action(self, room: str, n: int, round_: int, action: dict[str, Any], snapshot: str, over: bool) -> None:
        """Append action ``n`` to the room's log and save the snapshot after it, together."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO actions (room, n, round, action) VALUES (?, ?, ?, ?)",
                (room, n, round_, json.dumps(action, separators=(",", ":"))),
            )
            self.db.execute("UPDATE rooms SET snapshot = ?, over = ? WHERE id = ?", (snapshot, int(over), room))

    def save_snapshot(self, room: str, snapshot: str, over: bool) -> None:
        """Save a change that is not an action (a round scored and the next one dealt)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE rooms SET snapshot = ?, over = ? WHERE id = ?", (snapshot, int(over), room))

    def load_room(self, room: str) -> SavedRoom | None:
        row = self.db.execute(
            "SELECT id, ruleset, toml, players, bots, bot_delay, snapshot, over, quarantined FROM rooms WHERE id = ?",
            (room,),
        ).fetchone()
        if row is None:
            return None
        seats = dict(self.db.execute("SELECT seat, token_hash FROM seats WHERE room = ?", (room,)).fetchall())
        invitations = dict(self.db.execute("SELECT seat, code_hash FROM invitations WHERE room = ?", (room,)))
        return SavedRoom(
            id=row[0],
            ruleset=row[1],
            toml=row[2],
            players=row[3],
            bots={int(k): v for k, v in json.loads(row[4]).items()},
            bot_delay=row[5],
            snapshot=row[6],
            over=bool(row[7]),
            seats=seats,
            invitations=invitations,
            quarantined=row[8],
        )

    def rooms_in_play(self) -> list[str]:
        """The ids of the rooms whose match is not over and that are not quarantined (resumed at start)."""
        query = "SELECT id FROM rooms WHERE over = 0 AND quarantined IS NULL ORDER BY rowid"
        return [r[0] for r in self.db.execute(query)]

    def quarantine(self, room: str, reason: str) -> None:
        """Mark a room as failed, with the reason (the room's data is kept as it is)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "UPDATE rooms SET quarantined = ?, quarantined_at = ? WHERE id = ?", (reason, time.time(), room)
            )

    def release(self, room: str) -> None:
        """Take a room out of quarantine (it is restored again the next time it is asked for)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE rooms SET quarantined = NULL, quarantined_at = NULL WHERE id = ?", (room,))

    def quarantined(self) -> list[dict[str, Any]]:
        """The quarantined rooms: id, ruleset, players, actions saved, reason, when (seconds since the epoch)."""
        rows = self.db.execute(
            "SELECT id, ruleset, players, quarantined, quarantined_at,"
            " (SELECT COUNT(*) FROM actions WHERE actions.room = rooms.id)"
            " FROM rooms WHERE quarantined IS NOT NULL ORDER BY quarantined_at"
        )
        keys = ("room", "ruleset", "players", "reason", "at", "actions")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def actions(self, room: str) -> list[tuple[int, dict[str, Any]]]:
        """The room's action log: ``(round, action JSON)`` in the order applied."""
        rows = self.db.execute("SELECT round, action FROM actions WHERE room = ? ORDER BY n", (room,))
        return [(r, json.loads(a)) for r, a in rows]
