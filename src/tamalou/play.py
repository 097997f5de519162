"""Bots seated at a table: the ``Bot`` protocol and ``play_game``, which plays a round out between bots.

A bot is an object with ``act(view, legal_actions) -> action`` (or a plain callable with the same
signature). ``view`` is what its seat sees (a ``SeatView``: the fields of ``PlayerView``, built cheaply)
and ``legal_actions`` the list that ``Game.legal_actions`` gives that seat: a bot never gets the game
itself, so it cannot read a hidden card. Out of its turn a bot is only asked about matches, and returns
``None`` to let the chance go; when it has to act (its turn, an opening peek, a card to give) it must
return one of the listed actions.

Optional attributes a bot may have:

- ``setup(variant, player)``: called once before the first action, with the ruleset (public
  information: card values, powers, the call threshold);
- ``needs_view = False``: the bot decides from the legal actions alone, and gets ``None`` for a view
  (a simulation then builds no view for it);
- ``may_match() -> bool``: asked out of turn before anything is listed for the bot; ``False`` lets the
  chance go without listing its matches (a random bot that tries one match in twenty).

``seat_bot`` reads them, once, with their defaults (no setup, a view, every listed match asked): everything
that seats a bot (``play_game``, the gym environment, ``simulate``'s strength runs, the terminal) uses what it
gives (``Seated``), never the bot's attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .actions import Action, MatchAction, Tick, timed
from .engine.game import Game, round_of
from .engine.round import Round
from .engine.state import OVER
from .events import Event
from .views import Result, SeatView

__all__ = ["Bot", "BotLike", "Seated", "as_bot", "play_game", "play_out", "seat_bot"]


class Bot(Protocol):
    """What ``play_game`` needs of a bot: one decision from what its seat sees.

    Return one of ``legal_actions``. Out of turn (only matches listed) ``None`` declines. ``view`` is
    ``None`` for a bot whose ``needs_view`` is ``False``. The optional members (``setup``, ``needs_view``,
    ``may_match``: the module's docstring) are read by ``seat_bot``, with their defaults.
    """

    def act(self, view: SeatView, legal_actions: list[Action]) -> Action | None: ...


BotLike = Bot | Callable[[SeatView, list[Action]], Action | None]


def as_bot(bot: BotLike) -> Callable[[SeatView, list[Action]], Action | None]:
    """The decision function of ``bot``: its ``act`` method, or the callable itself."""
    act = getattr(bot, "act", None)
    if callable(act):
        return act  # type: ignore[no-any-return]
    if callable(bot):
        return bot
    raise TypeError(f"a bot has an act(view, legal_actions) method or is such a callable, got {bot!r}")


@dataclass(frozen=True, slots=True)
class Seated:
    """A bot as a table uses it (``seat_bot``): its decision function, and its optional members read once."""

    #: The bot as given.
    bot: object
    #: Its decision: ``act(view, legal_actions)``; ``view`` is ``None`` when ``needs_view`` is false.
    act: Callable[[Any, list[Action]], Action | None]
    #: Whether it is given its seat's view (``False``: ``None`` instead, and no view is built).
    needs_view: bool
    #: Asked out of turn before its matches are listed (``None``: every listed match is offered).
    may_match: Callable[[], bool] | None
    #: Called once before the first action with the ruleset and the seat (``None``: nothing to set up).
    setup: Callable[[Any, int], object] | None

    def sit(self, variant: Any, player: int) -> None:
        """Seat the bot at ``player`` of a round of ``variant`` (its ``setup``, if it has one)."""
        if self.setup is not None:
            self.setup(variant, player)


def seat_bot(bot: BotLike) -> Seated:
    """``bot`` (an object with ``act`` or a plain callable) with its optional members read, once, with their
    defaults; ``TypeError`` for anything that is not a bot."""
    act = as_bot(bot)
    setup = getattr(bot, "setup", None)
    may_match = getattr(bot, "may_match", None)
    return Seated(
        bot=bot,
        act=act,
        needs_view=getattr(bot, "needs_view", True) is not False,
        may_match=may_match if callable(may_match) else None,
        setup=setup if callable(setup) else None,
    )


def play_game(
    game: Game | Round,
    bots: Sequence[BotLike],
    *,
    on_event: Callable[[Event], None] | None = None,
    max_steps: int = 1_000_000,
    seconds_per_action: float = 1.0,
) -> Result:
    """Play ``game`` to its end with one bot per seat and return its result.

    Each step: the other players, in seat order after the current one, may match (their bot is
    asked only when matches are listed for them, and may return ``None``); then the player who has
    to act (the current player, or whoever must peek or give a card) acts. Each bot sees only its
    ``game.seat_view(p)`` (none if its ``needs_view`` is false) and ``game.legal_actions(p)``.
    ``on_event`` gets every event, in order, as the referee sees it (secret fields included).
    Deterministic for deterministic bots.

    In a timed ruleset each action is stamped ``seconds_per_action`` after the previous one, and when
    nobody can act (the opening peek, the final countdown) time jumps to the next deadline.
    """
    on_events = None
    if on_event is not None:

        def on_events(events: list[Event]) -> None:
            for e in events:
                on_event(e)

    play_out(game, bots, on_events, max_steps=max_steps, seconds_per_action=seconds_per_action)
    return game.result()


#: What a seat out of its turn may be listed (matches) or waits on (time): not a move of its own.
_PASSIVE = (MatchAction, Tick)


def play_out(
    game: Game | Round,
    bots: Sequence[BotLike],
    on_events: Callable[[list[Event]], object] | None = None,
    *,
    max_steps: int = 1_000_000,
    seconds_per_action: float = 1.0,
) -> None:
    """``play_game`` without the result: plays ``game`` to its end, giving ``on_events`` each action's
    list of events (``simulate`` passes ``list.extend``)."""
    game = round_of(game)
    n = game.players
    if len(bots) != n:
        raise ValueError(f"one bot per seat: {n} players, {len(bots)} bots")
    seated = [seat_bot(b) for b in bots]
    for p, s in enumerate(seated):
        s.sit(game.variant, p)
    acts = [s.act for s in seated]
    sees = [s.needs_view for s in seated]
    asks = [s.may_match for s in seated]
    seat_view = game.seat_view
    legal_actions = game.legal_actions
    game_apply = game.apply
    #: For each player to move, the others in seat order after them; and the seats to ask for a move.
    after = [[(cur + i) % n for i in range(1, n)] for cur in range(n)]
    seats = [[cur, *after[cur]] for cur in range(n)]
    clocked = game.variant.rules.timing.turn_seconds > 0
    passive = _PASSIVE

    apply: Callable[[Action], object]
    if clocked:

        def apply(action: Action) -> None:
            if not isinstance(action, Tick):
                action = timed(action, game.now + seconds_per_action)
            events = game_apply(action)
            if on_events is not None:
                on_events(events)

    elif on_events is not None:
        report = on_events

        def apply(action: Action) -> None:
            report(game_apply(action))

    else:
        apply = game_apply

    steps = 0
    while game.phase != OVER:
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"the game did not end within {max_steps} steps")
        cur = game.current_player
        for q in after[cur]:  # (only an action changes the phase: it is looked at after each)
            ask = asks[q]
            if ask is not None and not ask():
                continue
            legal = legal_actions(q)
            if legal and all(isinstance(a, MatchAction) for a in legal):
                action = acts[q](seat_view(q) if sees[q] else None, legal)
                if action is not None:
                    apply(action)
                    if game.phase == OVER:
                        break
        if game.phase == OVER:
            break
        # The first seat with a move of its own (not only matches or time): most often the player to move,
        # whose listing starts with one.
        legal = legal_actions(cur)
        mover = cur if legal and not isinstance(legal[0], passive) else -1
        if mover < 0:
            for p in seats[cur]:
                legal = legal_actions(p) if p != cur else legal
                for a in legal:
                    if not isinstance(a, passive):
                        mover = p
                        break
                if mover >= 0:
                    break
        if mover < 0:
            if clocked:
                apply(Tick(at=max(game.now, game.deadline or game.now)))
                continue
            raise RuntimeError(f"nobody can act in phase {game.phase!r}")
        action = acts[mover](seat_view(mover) if sees[mover] else None, legal)
        if action is None:
            raise TypeError(f"the bot of player {mover} must act now (phase {game.phase!r}) but returned None")
        apply(action)
