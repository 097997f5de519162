"""A tamalou table on the web: rooms, seats with secret tokens, websockets, bots, and SQLite persistence.

``create_app(db)`` is the ASGI app (Starlette); ``python -m table_server`` serves it with uvicorn.
"""

from .app import create_app

__all__ = ["create_app"]
