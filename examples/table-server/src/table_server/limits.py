"""What one address may have of the server at once: the caps (``Limits``), a rate (``Bucket``), and the one-line
log of what is refused past them (``Refusals``)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

log = logging.getLogger("table_server")


@dataclass
class Limits:
    """What one address may have of the server at once, and how fast it may make rooms (``create_app`` takes
    them; ``python -m table_server`` has an option for each). Past a cap a request is refused (``429``) and logged
    in one line."""

    #: Rooms not over made by one address.
    rooms_per_address: int = 50
    #: Of those, rooms where only bots play (they use the workers all the time).
    bot_rooms_per_address: int = 4
    #: Uploaded rules being checked at once for one address.
    uploads_per_address: int = 1
    #: Rooms one address may make in a burst, then ``rooms_per_minute`` a minute.
    room_burst: int = 30
    rooms_per_minute: float = 60.0
    #: The longest match of uploaded rules, in turns (``rules.rounds`` times ``rules.end.max_turns``).
    max_match_turns: int = 4_000
    #: Seconds an unwatched room stays in memory (a finished one leaves with its last socket); it comes back on its
    #: next use.
    idle_seconds: float = 300.0


class Bucket:
    """A token bucket: ``take()`` is false once more than ``burst`` were taken faster than ``per_second``."""

    def __init__(self, burst: float, per_second: float) -> None:
        self.burst, self.per_second = burst, per_second
        self.tokens, self.last = float(burst), time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class Refusals:
    """Refusals logged in one line each, at most one a minute for the same kind and address (then how many more).
    ``form`` is the line: ``{kind}``, ``{address}``, ``{detail}``."""

    def __init__(self, form: str = "refused {kind} from {address}: {detail}") -> None:
        self.form = form
        self.last: dict[tuple[str, str], tuple[float, int]] = {}

    def log(self, kind: str, address: str, detail: str) -> None:
        key = (kind, address)
        now = time.monotonic()
        when, more = self.last.get(key, (-1e9, 0))
        if now - when < 60:
            self.last[key] = (when, more + 1)
            return
        extra = f" ({more} more in the last minute)" if more else ""
        log.warning("%s%s", self.form.format(kind=kind, address=address, detail=detail), extra)
        self.last[key] = (now, 0)
        if len(self.last) > 10_000:
            self.last.clear()
