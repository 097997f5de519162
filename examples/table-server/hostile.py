"""What one hostile user sends: the uploads, request bodies and websocket frames that once broke the server.

Each of them took the whole server down, or stalled every room, before the server isolated its rooms (see the
README's "Security model"): a room whose rules could not be restored stopped every restart; bots played
inside the request froze every other room; a plugin list of 8,326 names stalled validation for seconds;
deeply nested JSON dropped the socket with a ``RecursionError``. ``tests/test_hostile.py`` sends each one and
restarts the server after it; ``loadtest.py --hostile`` sends them all in a loop while honest clients play.
"""

from __future__ import annotations

from typing import Any

#: Uploads of rules (``POST /api/rooms`` bodies), by what they try. ``bot_delay`` 0: bots answer at once.
UPLOADS: dict[str, dict[str, Any]] = {
    "a turn of 1e13 seconds": {
        "toml": 'extends = "tamalou-fun"\n[rules.timing]\nturn_seconds = 1e13\n',
        "players": 2,
        "bots": {"1": "greedy"},
    },
    "an endless peek": {
        "toml": 'extends = "tamalou-fun"\n[rules.timing]\npeek_seconds = inf\n',
        "players": 2,
        "bots": {"1": "greedy"},
    },
    "8,326 plugin names": {
        "toml": 'extends = "french"\nplugins = [' + ",".join(f'"p{k}"' for k in range(8326)) + "]\n",
        "players": 2,
    },
    "64 KB of unknown keys": {
        "toml": 'extends = "french"\n' + "".join(f"unknown_key_{k} = 1\n" for k in range(3000)),
        "players": 2,
    },
    "an integer of 5,000 digits": {
        "toml": 'extends = "french"\n[rules.call]\nthreshold = ' + "9" * 5000 + "\n",
        "players": 2,
    },
    "escape codes in the title": {
        "toml": 'extends = "french"\ntitle = "\\u001b[2J\\u001b[31mred"\n',
        "players": 2,
    },
    "a match of 100 rounds of 400 turns": {  # longer than the server's --max-match-turns: refused
        "toml": 'extends = "french"\n[rules.rounds]\nform = "points"\nlimit = 1000\n',
        "players": 2,
        "bots": {"1": "greedy"},
    },
    "a long points match of six search bots": {  # 10 rounds of 400 turns: the longest the server takes
        "toml": 'extends = "french"\n[rules.rounds]\nform = "points"\nlimit = 1000\nmax_rounds = 10\n',
        "players": 6,
        "bots": {str(seat): "ismcts" for seat in range(6)},
        "bot_delay": 0,
    },
}

#: With ``loadtest.py --flood``: uploads the checks refuse, each looping as soon as it is answered, all at once.
FLOOD_UPLOADS = 20
#: With ``loadtest.py --flood``: rooms of six search bots asked for (the server takes a few and refuses the rest).
SEARCH_ROOMS = 10

#: Text frames a seat's socket sends after its hello, by what they try (each is refused; the socket stays).
FRAMES: dict[str, str] = {
    "lists nested 2,000 deep": "[" * 2000 + "]" * 2000,
    "objects nested 1,300 deep": '{"a":' * 1300 + "1" + "}" * 1300,
    "an action nested 12 deep": '{"type": "action", "action": ' + '{"a": ' * 10 + "1" + "}" * 10 + "}",
    "a frame of 5,000 characters": "x" * 5000,
    "not JSON": '{"type": "action", ',
}

#: Messages a flooding socket sends as fast as it may (the server closes it after a burst of 60).
FLOOD = 2000

#: Request bodies of ``POST /api/rooms`` that are not rules at all.
BODIES: dict[str, bytes] = {
    "JSON nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "a body of 1 MB": b'{"toml": "' + b"x" * (1 << 20) + b'"}',
}
