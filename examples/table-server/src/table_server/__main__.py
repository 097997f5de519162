"""``python -m table_server``: serve the tables with uvicorn.

python -m table_server --port 8000 --db tables.db
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import resource
import sys
from pathlib import Path

import uvicorn

from . import connections
from .app import create_app
from .bots import SYSTEM_MALLOC
from .limits import Limits

#: The open files the server asks for (its soft limit raised up to the hard one): each connection is a file.
WANTED_FILES = 65_536


def raise_file_limit() -> int:
    """Raise the soft limit of open files towards ``WANTED_FILES`` (as far as the hard limit allows); the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = WANTED_FILES if hard == resource.RLIM_INFINITY else min(WANTED_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def use_system_allocator() -> None:
    """Start this command again with ``PYTHONMALLOC=malloc`` (on Linux, unless ``PYTHONMALLOC`` is set already).

    Python's own allocator keeps a whole arena (1 MiB) while one object lives in it, so the memory of the rooms
    unloaded stays with the process when a few objects made meanwhile outlive them (measured: 20 long rooms
    unloaded left 100 MB where 63 MB was idle). glibc's ``malloc_trim`` gives back every free page instead
    (back to 67 MB). The bot workers keep Python's allocator: their memory is not the server's."""
    if sys.platform != "linux" or "PYTHONMALLOC" in os.environ:
        return
    env = dict(os.environ, PYTHONMALLOC="malloc", **{SYSTEM_MALLOC: "1"})
    os.execve(sys.executable, [sys.executable, "-m", "table_server", *sys.argv[1:]], env)


def main(argv: list[str] | None = None) -> None:
    defaults = Limits()
    parser = argparse.ArgumentParser(prog="table_server", description="Serve tamalou tables on the web.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default="tables.db", help="the SQLite file of the rooms (created if missing)")
    parser.add_argument("--round-pause", type=float, default=3.0, help="seconds between rounds of a match")
    parser.add_argument("--bot-workers", type=int, default=2, help="processes that play bots (default 2)")
    parser.add_argument("--check-workers", type=int, default=1, help="processes that check uploaded rules (default 1)")
    parser.add_argument(
        "--bot-seconds", type=float, default=2.0, help="budget of a bot's move, queue time included (default 2)"
    )
    parser.add_argument(
        "--admin-token-file", type=Path, help="a file holding the admin token (else $TABLE_ADMIN_TOKEN; none: no admin)"
    )
    limits = parser.add_argument_group("limits of one address (past them: 429, logged)")
    limits.add_argument("--rooms-per-address", type=int, default=defaults.rooms_per_address)
    limits.add_argument("--bot-rooms-per-address", type=int, default=defaults.bot_rooms_per_address)
    limits.add_argument("--room-burst", type=int, default=defaults.room_burst)
    limits.add_argument("--rooms-per-minute", type=float, default=defaults.rooms_per_minute)
    limits.add_argument(
        "--max-match-turns",
        type=int,
        default=defaults.max_match_turns,
        help="the longest match of uploaded rules, in turns (rounds x max_turns)",
    )
    limits.add_argument(
        "--idle-seconds", type=float, default=defaults.idle_seconds, help="an unwatched room leaves memory after it"
    )
    conns = parser.add_argument_group("connections")
    conns.add_argument("--header-seconds", type=float, default=connections.HEADER_SECONDS)
    conns.add_argument("--max-pending", type=int, default=connections.MAX_PENDING, help="connections sending headers")
    conns.add_argument("--pending-per-address", type=int, default=connections.PENDING_PER_ADDRESS)
    conns.add_argument("--max-connections", type=int, default=4_000, help="past it: 503 (uvicorn's limit_concurrency)")
    parser.add_argument("--log-level", default="info")
    parser.add_argument(
        "--python-allocator",
        action="store_true",
        help="keep Python's allocator (else, on Linux, the server starts itself again on the system's: the "
        "memory of unloaded rooms goes back to the system)",
    )
    args = parser.parse_args(argv)
    if argv is None and not args.python_allocator:
        use_system_allocator()
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    token = args.admin_token_file.read_text().strip() if args.admin_token_file else os.environ.get("TABLE_ADMIN_TOKEN")
    files = raise_file_limit()
    if files < args.max_connections + 64:
        logging.getLogger("table_server").warning(
            "%d open files allowed: fewer than --max-connections (%d)", files, args.max_connections
        )
    connections.HEADER_SECONDS = args.header_seconds
    connections.MAX_PENDING = args.max_pending
    connections.PENDING_PER_ADDRESS = args.pending_per_address
    sys.setswitchinterval(0.001)  # a room restored in a thread holds the loop up 1 ms at a time, not 5
    app = create_app(
        args.db,
        round_pause=args.round_pause,
        bot_workers=args.bot_workers,
        bot_seconds=args.bot_seconds,
        check_workers=args.check_workers,
        admin_token=token or None,
        limits=Limits(
            rooms_per_address=args.rooms_per_address,
            bot_rooms_per_address=args.bot_rooms_per_address,
            room_burst=args.room_burst,
            rooms_per_minute=args.rooms_per_minute,
            max_match_turns=args.max_match_turns,
            idle_seconds=args.idle_seconds,
        ),
    )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        http=connections.GuardedHttp,
        ws_max_size=16 * 1024,
        timeout_keep_alive=5,
        limit_concurrency=args.max_connections,
        backlog=4096,
    )


if __name__ == "__main__":
    main()
