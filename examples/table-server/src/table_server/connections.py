"""Connections bounded before they reach the app: a time limit on a request's headers, and a cap on connections
still sending theirs.

uvicorn times out a connection kept alive between requests, and limits the connections it serves
(``limit_concurrency``: past it, ``503``), but it waits for a request's headers as long as the client likes: a
client that sends a header line every few seconds and never ends holds a connection, and a file, forever; a
thousand such clients lock everyone out. ``GuardedHttp`` is uvicorn's HTTP protocol (httptools) with two bounds:

- a request's headers must be complete within ``HEADER_SECONDS`` of its first byte (or of the connection, for a
  connection that sends nothing), else the connection is closed;
- at most ``PENDING_PER_ADDRESS`` connections of one address, and ``MAX_PENDING`` in all, may be sending their
  headers at once: one more closes the oldest of them (of that address first), so a thousand slow connections
  from one address cost everyone else nothing, and a client that sends its headers at once, as browsers do, is
  never the oldest for long.

Each is logged in one line, at most once a minute for each address (then how many more). The body's own time
limit is the app's (``app.BODY_SECONDS``); the websocket's hello has ``app.HELLO_SECONDS``.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .limits import Refusals

#: Seconds a request may take to send its headers.
HEADER_SECONDS = 10.0
#: Connections that may be sending their headers at once, in all and from one address.
MAX_PENDING = 1024
PENDING_PER_ADDRESS = 256


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a time limit on headers and a cap on connections sending them (see the
    module). ``HEADER_SECONDS`` and ``MAX_PENDING`` are read when a connection is made (``__main__`` sets them)."""

    #: The connections sending their headers, oldest first (shared by the server's connections).
    pending: ClassVar[collections.OrderedDict[GuardedHttp, asyncio.TimerHandle]] = collections.OrderedDict()
    by_address: ClassVar[dict[str, collections.OrderedDict[GuardedHttp, None]]] = {}
    said: ClassVar[Refusals] = Refusals("closed a connection from {address}: {detail}")

    def _address(self) -> str:
        return str(self.client[0]) if self.client else "?"

    def _wait_for_headers(self) -> None:
        if self in self.pending:
            return
        address = self._address()
        mine = self.by_address.setdefault(address, collections.OrderedDict())
        while len(mine) >= PENDING_PER_ADDRESS:
            self._close_oldest(next(iter(mine)), f"{PENDING_PER_ADDRESS} of its connections were sending headers")
        while len(self.pending) >= MAX_PENDING:
            self._close_oldest(next(iter(self.pending)), f"{MAX_PENDING} connections were sending headers")
        self.pending[self] = self.loop.call_later(HEADER_SECONDS, self._too_slow)
        mine[self] = None

    def _close_oldest(self, oldest: GuardedHttp, why: str) -> None:
        oldest._headers_done()
        self.said.log(why, oldest._address(), why)
        oldest.transport.close()

    def _headers_done(self) -> None:
        timer = self.pending.pop(self, None)
        if timer is not None:
            timer.cancel()
            address = self._address()
            mine = self.by_address.get(address)
            if mine is not None:
                mine.pop(self, None)
                if not mine:
                    del self.by_address[address]

    def _too_slow(self) -> None:
        if self in self.pending:
            self._headers_done()
            why = f"its headers took more than {HEADER_SECONDS:g} s"
            self.said.log(why, self._address(), why)
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_headers()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._wait_for_headers()  # (the next request of a connection kept alive)

    def on_headers_complete(self) -> None:
        self._headers_done()
        super().on_headers_complete()

    def connection_lost(self, exc: Any) -> None:
        self._headers_done()
        super().connection_lost(exc)
