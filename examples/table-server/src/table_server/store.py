"""Rooms in SQLite (the standard library's ``sqlite3``): what a restarted server needs to go on exactly.

A room is saved as its settings, its invitations and seats (the sha256 of each invitation and each seat's
token, never the secret itself), the match snapshot (``Match.to_json()``) **at the deal of each round**, and the
log of every action applied, one row each. An action costs one small row, however long the match: a restart
restores the snapshot and applies the actions logged since. A room that failed is marked quarantined, with the
reason, and kept.

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
    quarantined_at REAL,
    owner     TEXT NOT NULL DEFAULT '',  -- the address that made the room
    name      TEXT,              -- the rules' name and title (the room's facts, without restoring it)
    title     TEXT,
    round     INTEGER NOT NULL DEFAULT 0,
    played    INTEGER NOT NULL DEFAULT 0,  -- actions applied in the match
    all_bots  INTEGER NOT NULL DEFAULT 0   -- only bots play
);
CREATE INDEX IF NOT EXISTS rooms_of_owner ON rooms (owner, over);
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
    owner: str = ""  # the address that made the room
    name: str | None = None  # the rules' name and title
    title: str | None = None


class Store:
    """The rooms' database. One connection, used from the server's event loop only."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = str(path)
        # autocommit; transactions are explicit. A reader (a restore, in a thread of its own) has a connection of
        # its own.
        self.db = sqlite3.connect(path, isolation_level=None)
        if readonly:
            return
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(rooms)")}
        added = {  # the columns added since the first version of the server (a database made before them)
            "quarantined": "TEXT",
            "quarantined_at": "REAL",
            "owner": "TEXT NOT NULL DEFAULT ''",
            "name": "TEXT",
            "title": "TEXT",
            "round": "INTEGER NOT NULL DEFAULT 0",
            "played": "INTEGER NOT NULL DEFAULT 0",
            "all_bots": "INTEGER NOT NULL DEFAULT 0",
        }
        for name, kind in added.items():
            if columns and name not in columns:
                self.db.execute(f"ALTER TABLE rooms ADD COLUMN {name} {kind}")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create_room(self, room: SavedRoom) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO rooms (id, ruleset, toml, players, bots, bot_delay, snapshot, over, owner, name,"
                " title, all_bots) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    room.id,
                    room.ruleset,
                    room.toml,
                    room.players,
                    json.dumps({str(k): v for k, v in room.bots.items()}),
                    room.bot_delay,
                    room.snapshot,
                    int(room.over),
                    room.owner,
                    room.name,
                    room.title,
                    int(len(room.bots) == room.players),
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

    def save_action(self, room: str, n: int, round_: int, action: dict[str, Any], over: bool) -> None:
        """Append action ``n`` to the room's log (and say whether the match is over), together."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO actions (room, n, round, action) VALUES (?, ?, ?, ?)",
                (room, n, round_, json.dumps(action, separators=(",", ":"))),
            )
            self.db.execute("UPDATE rooms SET over = ?, played = ? WHERE id = ?", (int(over), n + 1, room))

    def save_snapshot(self, room: str, snapshot: str, over: bool, played: int, round_: int) -> None:
        """Save the match's snapshot after ``played`` actions: at the deal of a round (or once the match is over)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "UPDATE rooms SET snapshot = ?, over = ?, played = ?, round = ? WHERE id = ?",
                (snapshot, int(over), played, round_, room),
            )

    def rooms_of(self, owner: str) -> tuple[int, int]:
        """How many rooms ``owner`` made that are in play (not over, not quarantined), and how many of them only
        bots play."""
        row = self.db.execute(
            "SELECT COUNT(*), COALESCE(SUM(all_bots), 0) FROM rooms WHERE owner = ? AND over = 0"
            " AND quarantined IS NULL",
            (owner,),
        ).fetchone()
        return int(row[0]), int(row[1])

    def facts(self, room: str) -> dict[str, Any] | None:
        """A room's public facts, as ``Room.facts`` gives them, read from the database (``None``: no such room, or
        quarantined, or saved by a server that did not keep its title)."""
        row = self.db.execute(
            "SELECT name, title, players, bots, round, played, over, quarantined FROM rooms WHERE id = ?", (room,)
        ).fetchone()
        if row is None or row[7] is not None or row[0] is None:
            return None
        bots = {int(k): v for k, v in json.loads(row[3]).items()}
        taken = sorted(seat for (seat,) in self.db.execute("SELECT seat FROM seats WHERE room = ?", (room,)))
        return {
            "room": room,
            "ruleset": row[0],
            "title": row[1],
            "players": row[2],
            "bots": {str(p): name for p, name in bots.items()},
            "taken": taken,
            "free": [p for p in range(row[2]) if p not in bots and p not in taken],
            "round": row[4],
            "actions": row[5],
            "over": bool(row[6]),
        }

    def load_room(self, room: str) -> SavedRoom | None:
        row = self.db.execute(
            "SELECT id, ruleset, toml, players, bots, bot_delay, snapshot, over, quarantined, owner, title"
            " FROM rooms WHERE id = ?",
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
            owner=row[9],
            title=row[10],
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
