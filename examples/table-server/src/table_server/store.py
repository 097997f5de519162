"""Rooms in SQLite (the standard library's ``sqlite3``): what a restarted server needs to go on exactly.

A room is saved as its settings, its seats (the sha256 of each seat's token, never the token), the
match snapshot (``Match.to_json()``) and the log of every action applied, one row each. Each action is
saved with the new snapshot in one transaction, so the snapshot and the log always agree.

The database runs in WAL mode with ``synchronous=NORMAL``: a commit survives the server process being
killed; only a power cut may lose the last few commits.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
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
    over      INTEGER NOT NULL DEFAULT 0
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


class Store:
    """The rooms' database. One connection, used from the server's event loop only."""

    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)  # autocommit; transactions are explicit
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
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
            "SELECT id, ruleset, toml, players, bots, bot_delay, snapshot, over FROM rooms WHERE id = ?", (room,)
        ).fetchone()
        if row is None:
            return None
        seats = dict(self.db.execute("SELECT seat, token_hash FROM seats WHERE room = ?", (room,)).fetchall())
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
        )

    def rooms_in_play(self) -> list[str]:
        """The ids of the rooms whose match is not over (resumed when the server starts)."""
        return [r[0] for r in self.db.execute("SELECT id FROM rooms WHERE over = 0 ORDER BY rowid")]

    def actions(self, room: str) -> list[tuple[int, dict[str, Any]]]:
        """The room's action log: ``(round, action JSON)`` in the order applied."""
        rows = self.db.execute("SELECT round, action FROM actions WHERE room = ? ORDER BY n", (room,))
        return [(r, json.loads(a)) for r, a in rows]
