"""``python -m table_server``: serve the tables with uvicorn.

python -m table_server --port 8000 --db tables.db
"""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path

import uvicorn

from .app import create_app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="table_server", description="Serve tamalou tables on the web.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default="tables.db", help="the SQLite file of the rooms (created if missing)")
    parser.add_argument("--round-pause", type=float, default=3.0, help="seconds between rounds of a match")
    parser.add_argument("--bot-workers", type=int, default=2, help="processes that play bots and check rules")
    parser.add_argument("--bot-seconds", type=float, default=2.0, help="budget of a bot's move (default 2)")
    parser.add_argument(
        "--admin-token-file", type=Path, help="a file holding the admin token (else $TABLE_ADMIN_TOKEN; none: no admin)"
    )
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    token = args.admin_token_file.read_text().strip() if args.admin_token_file else os.environ.get("TABLE_ADMIN_TOKEN")
    app = create_app(
        args.db,
        round_pause=args.round_pause,
        bot_workers=args.bot_workers,
        bot_seconds=args.bot_seconds,
        admin_token=token or None,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=64 * 1024)


if __name__ == "__main__":
    main()
