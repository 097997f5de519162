"""Time, for rulesets played against the clock (RULES.md §5; ``rules.timing``).

Time is an input: an action may carry ``at`` (seconds since the deal) and ``Tick(at)`` lets time pass.
Before an action is applied, the game is brought to its time: every deadline that falls before it
fires in order (a turn that runs out is auto-played, the opening peek ends, the final countdown ends).
The machine's clock is never read, so the same actions at the same times replay to the same game.

Auto-play when a turn runs out (Decided, RULES.md §5): nothing drawn yet: draw from the stock and throw
it; holding: throw the held card; choosing a power target or the look-and-swap: pass. A player who let
a whole turn run out without playing is *absent*: their next turns last ``absent_turn_seconds`` until
they play; after ``absent_turns_to_leave`` such turns in a row they leave the round (ranked last), and
when one player is left the round ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import Event

if TYPE_CHECKING:
    from .engine import Game

FOREVER = 1e300  # "locked for the rest of the round" (a finite number keeps snapshots plain JSON)
TURN_PHASES = frozenset({"draw", "hold", "power", "swap", "call"})


def next_deadline(game: Game) -> float | None:
    """When the next timed thing happens, if anything is pending."""
    phase = game.phase
    if phase == "opening" or phase == "countdown":
        return game.deadline
    if phase in TURN_PHASES and game.rb.turn_seconds > 0:
        return game.deadline
    return None


def advance(game: Game, t: float, events: list[Event]) -> None:
    """Bring the game to time ``t``: fire, in order, everything due before it."""
    while game.phase != "over":
        due = next_deadline(game)
        if due is None or due > t:
            break
        game.now = due
        fire(game, events)
    game.now = float(max(game.now, t))


def fire(game: Game, events: list[Event]) -> None:
    """The deadline at ``game.now`` has come."""
    phase = game.phase
    if phase == "opening":
        events.append(Event("opening_over", {"at": game.now}))
        game.phase = "draw"
        game._start_turn(game.first_player, events)
    elif phase == "countdown":
        game._finish("called", events)
    else:
        timeout(game, events)


def timeout(game: Game, events: list[Event]) -> None:
    """The player to move ran out of time: their turn is played for them."""
    p = game.current_player
    whole = not game.acted
    events.append(Event("timeout", {"player": p, "at": game.now, "phase": game.phase}))
    turn = game.turn
    # Auto-play until the turn passes (each step is one the player could have taken).
    for _ in range(8):
        if game.phase == "over" or game.turn != turn or game.current_player != p:
            break
        phase = game.phase
        if phase == "draw":
            if game.draws == 0 and game._can_draw_stock():
                game._auto(game._acts[p].draw_stock, events)
            else:  # a second draw declined, or nothing to draw: the turn passes
                game._do_pass_internal(p, events)
        elif phase == "hold":
            game._throw_held(p, events)
        else:
            game._do_pass_internal(p, events)
    if whole and game.phase != "over":
        game.absent_turns[p] += 1
        game.absent[p] = True
        limit = game.rb.absent_turns_to_leave
        if limit and game.absent_turns[p] >= limit:
            leave(game, p, events)


def leave(game: Game, p: int, events: list[Event]) -> None:
    """``p`` ran out of clock: out of the round, ranked last; the round ends when one is left."""
    game.left |= 1 << p
    events.append(Event("left", {"player": p}))
    if bin(game.left).count("1") >= game.players - 1:
        game._finish("last_player", events)


def turn_clock(game: Game, p: int) -> None:
    """A turn of ``p`` starts now: its deadline, and one miss forgiven if ``p`` is not locked."""
    rb = game.rb
    if rb.turn_seconds <= 0:
        return
    game.acted = False
    game.deadline = game.now + (rb.absent_turn_seconds if game.absent[p] else rb.turn_seconds)
    if game.misses[p] and game.now >= game.locked_until[p]:
        game.misses[p] -= 1


def match_blocked(game: Game, p: int) -> str | None:
    """Why ``p`` may not match now because of the clock or their own turn, or ``None``."""
    if game.now < game.quiet_until:
        return "no matching now (the opening peek or a swap is being shown)"
    if game.now < game.locked_until[p]:
        return "your matching is locked after your misses"
    if game.left >> p & 1:
        return "you have left the round"
    if not game.rb.while_playing and p == game.current_player and game.phase in ("hold", "power", "swap"):
        return "no matching while you hold a drawn card or choose a power target"
    return None


def missed(game: Game, p: int) -> None:
    """Count a miss and lock ``p``'s matching as ``timing.lockouts`` says."""
    lockouts = game.rb.lockouts
    if not lockouts:
        return
    game.misses[p] += 1
    k = game.misses[p] - 1
    game.locked_until[p] = game.now + lockouts[k] if k < len(lockouts) else FOREVER


def succeeded(game: Game, p: int) -> None:
    game.misses[p] = 0
