"""The referee's log of ``tamalou play``: each event in the words a player uses, every card shown.

Seats are ``P0``, ``P1``...; turns are counted from 1 (``-- turn 1: P2``), the event's ``turn`` plus one:
an event's ``turn`` counts the turns played before it. A pass is said only where it tells something (a
player who could have called and did not, a declined power; not a chance to match let go), and a power is
said by what it does. An event the log has nothing to add to (the cards it knows, a total) reads as
``Event.describe`` words it: one vocabulary, ``tamalou.events``, for tamalou's events and the plugins' own words.
"""

from __future__ import annotations

from typing import Any

from ..engine.round import Round
from ..engine.rulebook import rulebook
from ..events import Event
from ..rulesets.effective import power_title


def seat(p: Any) -> str:
    """``P0``, ``P1``... (``?`` for a missing seat)."""
    return f"P{p}" if isinstance(p, int) else "?"


def cards(layout: list[str | None], grid: tuple[int, int] | None = None) -> str:
    """A layout as text, ``·`` for an emptied slot; with a ``grid`` (rows, columns: ``rules.deal.grid``), its rows
    apart, ``/`` between them (the slots past the grid, a penalty card, after a last ``/``)."""
    shown = ["·" if c is None else c for c in layout]
    if grid is None:
        return " ".join(shown)
    columns = grid[1]
    cut = grid[0] * columns
    rows = [" ".join(shown[i : i + columns]) for i in range(0, min(cut, len(shown)), columns)]
    if len(shown) > cut:
        rows.append(" ".join(shown[cut:]))
    return " / ".join(rows)


def _listed(items: Any) -> str:
    return ", ".join(str(x) for x in items) if isinstance(items, list | tuple) else str(items)


def _players(items: Any) -> str:
    return ", ".join(seat(p) for p in items) if isinstance(items, list | tuple) else str(items)


def _card_at(game: Round, player: int, slot: int) -> str | None:
    layout = game.layout(player)
    return layout[slot] if 0 <= slot < len(layout) else None


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


_PASSES = {
    "power": "declines the power",
    "swap": "does not swap",
    "give": "gives no card",
    "draw": "does not draw again",
}
#: Passes not worth a line: a chance to match let go (the matches and misses are said).
_QUIET_PASSES = frozenset({"closing", "window"})

_REASONS = {
    "called": "the call came back round",
    "turn_limit": "the turn limit was reached",
    "no_card_to_draw": "nothing was left to draw",
    "emptied": "a layout was emptied",
    "last_player": "one player was left",
    "no_player_left": "nobody was left",
    "stock_out": "the stock ran out",
}


class Narrator:
    """Says the events of one round as lines (``None``: nothing worth a line). The game is read for the cards
    a line names (a card placed, swapped, given): the log is the referee's, every card shown."""

    def __init__(self, game: Round) -> None:
        self.game = game
        self.rb = rulebook(game.variant)

    def power(self, name: Any) -> str:
        return _lower_first(power_title(self.rb, str(name)))

    def turn(self, event: Event) -> str:
        """The header of a turn: 1-based (``event["turn"]`` counts the turns played before)."""
        return f"-- turn {event['turn'] + 1}: {seat(event['player'])}"

    def line(self, event: Event) -> str | None:
        """The line of ``event`` (one branch per kind of event), or ``None`` when it is not worth one."""
        t, d, g = event.type, event.to_dict(), self.game
        who = seat(d.get("player"))
        if t == "turn":
            return self.turn(event)
        if t == "dealt":
            return None  # the layouts are printed above the log
        if t == "replaced":
            new = _card_at(g, d["player"], d["slot"])
            return f"{who} puts {f'{new} ' if new else ''}in slot {d['slot']}; {d.get('card')} goes to the discard"
        if t == "power_offered":
            verb = "must use" if d.get("must") else "may use"
            return f"{who} {verb} a power ({self.power(d.get('power'))})"
        if t == "power_passed":
            return f"{who} may use the power passed on instead of drawing ({self.power(d.get('power'))})"
        if t == "swapped":
            if "owner" in d:  # two cards of which neither need be the player's
                return (
                    f"{who} swaps {seat(d['owner'])}'s slot {d['slot']} with {seat(d['target'])}'s slot "
                    f"{d['target_slot']}"
                )
            q, qs, s = d["target"], d["target_slot"], d["slot"]
            mine, theirs = _card_at(g, d["player"], s), _card_at(g, q, qs)
            return f"{who} swaps slot {s} with {seat(q)}'s slot {qs} (gets {mine}, gives {theirs})"
        if t == "passed":
            phase = d.get("phase")
            if phase in _QUIET_PASSES:
                return None
            if phase == "call":
                total = g.total(d["player"])
                if total <= self.rb.threshold:  # worth saying: the call was there to take
                    return f"{who} does not call, with {total} points"
                return None
            return f"{who} {_PASSES.get(str(phase), f'passes ({phase})')}"
        if t == "last_lap":
            return f"{who} begins the last lap ({d.get('reason')}): every other player plays once more"
        if t == "called":
            if "right" in d:
                return f"{who} calls! ({'right' if d['right'] else 'wrong'}: {d.get('total')} points)"
            return f"{who} calls!"
        if t == "matched":
            owner = "" if d.get("owner") == d.get("player") else f"{seat(d.get('owner'))}'s "
            return f"{who} matches with {owner}{d.get('card')} (slot {d.get('slot')})"
        if t == "missed":
            owner = "" if d.get("owner") == d.get("player") else f"{seat(d.get('owner'))}'s "
            return f"{who} misses with {owner}{d.get('card')} (slot {d.get('slot')}): it goes back"
        if t == "late":
            return f"{who} is too late with {d.get('card')} (slot {d.get('slot')}): it goes back"
        if t == "penalty":
            card = _card_at(g, d["player"], d["slot"])
            return f"{who} takes a penalty card{f' ({card})' if card else ''} in slot {d['slot']}"
        if t == "penalty_capped":
            return f"{who} is spared {d.get('spared')} penalty card(s): at most {d.get('cap')} cards in a layout"
        if t == "no_penalty_card":
            return f"no card left for {who}'s penalty"
        if t == "give_owed":
            return f"{who} owes {seat(d.get('owner'))} {d.get('count')} card(s)"
        if t == "gave":
            q, qs = d["target"], d["target_slot"]
            card = _card_at(g, q, qs)
            return f"{who} gives slot {d.get('slot')} ({card}) to {seat(q)}'s slot {qs}"
        if t == "given":
            card = _card_at(g, d["player"], d["slot"])
            return f"{seat(d.get('by'))} gives {who} the stock's top card ({card}), unseen, in slot {d.get('slot')}"
        if t == "exchanged":
            right = "right" if d.get("right") else "wrong: they go back"
            thrown = " ".join(map(str, d.get("cards") or []))
            return f"{who} throws {thrown} from slots {_listed(d.get('slots'))} ({right})"
        if t == "closing":
            return f"last chance to match the last card thrown: {_players(d.get('players'))}"
        if t in ("window", "window_closed"):
            return None  # a window after every power: its matches and misses are said, not its opening
        if t == "timeout":
            return f"{who} ran out of time ({d.get('at')} s)"
        if t == "round_over":
            reason = str(d.get("reason"))
            return f"the round is over: {_REASONS.get(reason, reason.replace('_', ' '))}"
        return event.describe(seat)  # the one vocabulary (events.py): tamalou's events and the plugins' words
