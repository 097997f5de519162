"""``python -m table_server.worker``: a bot worker (see ``bots``). It reads one question a line on its standard
input and writes one answer a line on its standard output, until its input closes.

It starts by writing ``{"ready": true}``. Each question names its rules by a ``key``, with the rules themselves
(``ruleset``, ``toml``) the first time this worker sees that key: uploaded rules are loaded without plugins,
as the server loads them.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

import tamalou

from .bots import move
from .rulesets import load_ruleset, match_turns

#: Rules kept by key (cleared when full: the server sends the rules again to a worker that forgot them).
MAX_KEPT = 256


def answer(question: dict[str, Any], kept: dict[str, tamalou.Variant]) -> dict[str, Any]:
    key = question["key"]
    if key not in kept and "toml" not in question:
        raise RuntimeError(f"unknown rules {key!r}")  # not sent: the server thinks this worker knows them
    if question["kind"] == "check":
        return {"error": check(question["toml"], question["players"], question["seed"], question.get("max_turns", 0))}
    if key not in kept:
        if len(kept) >= MAX_KEPT:
            kept.clear()
        kept[key] = load_ruleset(question["ruleset"], question["toml"])
    variant = kept[key]
    game = tamalou.Game.from_json(question["game"], variant, trusted=True)  # (the server's own snapshot)
    bots = {int(s): name for s, name in question["bots"].items()}
    seeds = {int(s): seed for s, seed in question["seeds"].items()}
    seconds = question.get("seconds")
    return {"move": move(game, variant, bots, seeds, None if seconds is None else float(seconds) / 2)}


def check(toml: str, players: int, seed: int | None, max_turns: int = 0) -> str | None:
    """Why uploaded rules cannot make a room (``None`` if they can): they must load without plugins, deal
    ``players``, restore from the snapshot exactly as a restarted server restores a room (replayed: a snapshot
    from outside), and (``max_turns`` > 0) make matches of ``max_turns`` turns at most."""
    try:
        variant = load_ruleset(None, toml)
        longest = match_turns(variant)
        if max_turns and longest > max_turns:
            return (
                f"a match of these rules may last {longest} turns (rules.rounds times rules.end.max_turns): this "
                f"server plays {max_turns} at most"
            )
        match = tamalou.new_match(variant, players, seed=seed)
        again = tamalou.Match.from_json(match.to_json(), load_ruleset(None, toml))
        if again.to_json() != match.to_json():
            return "the rules do not restore from their snapshot"
    except (ValueError, tamalou.TamalouError) as exc:
        return str(exc)
    return None


#: How much lower the workers' priority is than the server's (``os.nice``): when the machine is busy, the event
#: loop that answers every room goes first, the bots' thinking after.
NICE = 10


def main() -> None:
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no os.nice (Windows)
        os.nice(NICE)
    kept: dict[str, tamalou.Variant] = {}
    out = sys.stdout
    sys.stdout = sys.stderr  # what a bot prints goes to the server's log, not into the answers
    out.write('{"ready":true}\n')
    out.flush()
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line), kept)
        except Exception as exc:  # a bot's bug is told to the server, which plays a random move instead
            reply = {"error": f"{type(exc).__name__}: {exc}"[:4096]}
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
