"""``Game``: one round in play — the facade users hold, over the ``Round`` that mechanics are handed.

A ``Game`` shows the public API (``docs/api.md``) and nothing of the table: its cards, its knowledge bits and its
transitions are the ``Round``'s, reached by the mechanics, powers, hooks and checks that are handed the round,
and by ``round_of(game)`` where a tool or a test needs the table itself. So ``game.hands = ...`` or a flow
transition cannot skip ``apply``. Every method passes straight to the round: the facade holds no state of its
own, and two facades of one round are the same game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

from ..actions import Action
from ..events import Event
from ..schema import Variant
from ..views import PlayerView, Result, SeatView
from .round import Round, new_round, replayed

#: The public names of a ``Game``: those of the contract (``docs/api.md``), then the documented extras
#: (the variant and the seats, the seed, time, undo for search, the fast view, the events so far).
PUBLIC_NAMES = (
    "phase", "current_player", "is_over", "turn", "to_act", "legal_actions", "apply", "view", "result",
    "actions", "to_json", "from_json", "copy",
    "variant", "players", "seed", "now", "deadline", "push", "pop", "pushed", "seat_view", "events_so_far",
)  # fmt: skip


def _passed(name: str, doc: str) -> Any:
    """A member of the facade that is the round's own, read through a C-level getter
    (``operator.attrgetter``): reading ``game.phase`` runs no Python frame of the facade, and
    ``game.apply`` is the round's bound method itself. Justified by ``benchmarks/instructions.py
    --public`` (the public API's cost a game): delegating methods cost 5.1 % more instructions a game."""
    return property(attrgetter(f"_round.{name}"), doc=doc)


class Game:
    """One round in play: deal one with ``tamalou.new_game`` (or ``Game(variant, players, ...)``, the same).

    Read ``phase``, ``current_player``, ``to_act``, ``turn``, ``is_over``; list ``legal_actions(p)``;
    ``apply(action)``; show seat ``p`` its ``view(p)``; read ``result()`` at the end; save with ``to_json()``.
    """

    __slots__ = ("_round",)

    def __init__(
        self,
        variant: Variant | str | Sequence[str],
        players: int,
        *,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
        first_player: int | None = None,
    ) -> None:
        self._round = new_round(variant, players, seed=seed, deal=deal, first_player=first_player)

    if TYPE_CHECKING:  # what the members passed to the round are, for type checkers (``Round`` documents them)
        _round: Round

        @property
        def phase(self) -> str: ...
        @property
        def current_player(self) -> int: ...
        @property
        def is_over(self) -> bool: ...
        @property
        def turn(self) -> int: ...
        @property
        def to_act(self) -> list[int]: ...
        @property
        def actions(self) -> list[Action]: ...
        @property
        def variant(self) -> Variant: ...
        @property
        def players(self) -> int: ...
        @property
        def seed(self) -> int: ...
        @property
        def now(self) -> float: ...
        @property
        def deadline(self) -> float | None: ...
        @property
        def pushed(self) -> int: ...
        def legal_actions(self, player: object = None) -> list[Action]: ...
        @overload
        def apply(self, action: Action, *, at: float | None = None, max_step: float | None = None) -> list[Event]: ...
        @overload
        def apply(
            self, action: dict[str, Any], *, at: float | None = None, max_step: float | None = None
        ) -> list[Event]: ...
        def apply(self, action: object, *, at: object = None, max_step: float | None = None) -> list[Event]: ...
        def view(self, player: object) -> PlayerView: ...
        def result(self) -> Result: ...
        def to_json(self) -> str: ...
        def push(
            self, action: Action | dict[str, Any], *, at: float | None = None, max_step: float | None = None
        ) -> list[Event]: ...
        def pop(self) -> Action: ...
        def seat_view(self, player: object) -> SeatView: ...
        def events_so_far(self, player: object = None) -> list[Event]: ...
    else:
        # ----------------------------------------------------------------------------- the contract
        phase = _passed("phase", "The phase the round is in (a ``str``: ``tamalou.Phase`` for the built-in ones).")
        current_player = _passed("current_player", "The seat whose turn it is.")
        is_over = _passed("is_over", "Whether the round has ended (``result()`` is then known).")
        turn = _passed("turn", "The turns played so far.")
        to_act = _passed(
            "to_act", "The seats the round waits for now (others may still act out of turn: ask ``legal_actions``)."
        )
        legal_actions = _passed(
            "legal_actions",
            "``legal_actions(player=None)``: every action ``player`` may take now, out-of-turn matches included; each "
            "is accepted by ``apply``. Without a seat: the player to move's (``current_player``; other seats may "
            "still act out of turn).",
        )
        apply = _passed(
            "apply",
            "``apply(action, *, at=None, max_step=None)``: apply one action (an action object or its JSON dict); "
            "return the events. Raises ``IllegalAction`` and changes nothing if the rules forbid it now. Timed "
            "rulesets: ``at`` stamps the action with its time (else the action's own ``at``); with ``max_step``, "
            "it may not be more than ``max_step`` seconds after the game's time (a server stamps ``at`` from its "
            "own clock).",
        )
        view = _passed("view", "``view(player)``: what ``player`` may see now, and nothing more.")
        result = _passed("result", "``result()``: the round's result (a copy); ``GameStateError`` before the end.")
        actions = _passed(
            "actions", "The actions applied so far (``tamalou.replay`` rebuilds the game from them). Not to be changed."
        )
        to_json = _passed(
            "to_json", "``to_json()``: the whole state as compact JSON; ``Game.from_json`` restores it exactly."
        )
        # ----------------------------------------------------------------------------- the documented extras
        variant = _passed("variant", "The ruleset played.")
        players = _passed("players", "The number of seats.")
        seed = _passed("seed", "The seed of the shuffle (drawn when none was given; a stacked deal keeps one too).")
        now = _passed("now", "The game's time, in seconds (timed rulesets: the ``at`` of the latest action).")
        deadline = _passed(
            "deadline", "When the next timed thing happens (a turn's end, the opening's, the countdown's), if any."
        )
        push = _passed(
            "push", "``push(action)``: ``apply(action)``, remembering how to take it back with ``pop()`` (searches)."
        )
        pop = _passed("pop", "``pop()``: take back the last ``push`` (and what was applied since); return its action.")
        pushed = _passed("pushed", "How many pushes ``pop`` can take back.")
        seat_view = _passed(
            "seat_view",
            "``seat_view(player)``: ``view(player)`` as a plain slotted ``SeatView``, several times cheaper to build.",
        )
        events_so_far = _passed(
            "events_so_far",
            "``events_so_far(player=None)``: every event of the round so far, from the deal on, as ``player`` may "
            "see it (all of it with ``None``).",
        )

    @classmethod
    def from_json(
        cls,
        data: object,
        variant: Variant | None = None,
        *,
        allow_plugins: bool | Iterable[str] | None = None,
        trusted: bool = False,
        max_chars: int | None = None,
    ) -> Game:
        """Restore a game from ``to_json``, checked whole (``Round.from_json`` says how). By default the
        snapshot is treated as one from outside: it must be the game its seed and actions make (replayed), its
        text at most ``max_chars`` long. ``trusted=True`` is for your own snapshots: checked, not replayed.
        Raises ``SnapshotError`` for anything that is not such a snapshot."""
        return game_of(
            Round.from_json(data, variant, allow_plugins=allow_plugins, trusted=trusted, max_chars=max_chars)
        )

    def copy(self) -> Game:
        """An independent copy of the game (same state, same RNG state, same history)."""
        return game_of(self._round.copy())

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        game = self.copy()
        memo[id(self)] = game
        return game

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its round (a snapshot and the variant)."""
        return (game_of, (self._round,))

    def __eq__(self, other: object) -> bool:
        """Two games are equal when they are the same game in the same state: the same ruleset, seats, seed,
        history, cards, knowledge and generator (their snapshots are equal), as ``game == game.copy()``."""
        if not isinstance(other, Game):
            return NotImplemented
        return self is other or self._round.to_json() == other._round.to_json()

    __hash__ = None  # type: ignore[assignment]  # (a game changes: it has no hash, as a list has none)

    def __repr__(self) -> str:
        """The table as the referee sees it: every card, ``*`` after a card its owner has not seen, ``^`` after a
        card lying face up (a legend says so). Never show it to a player: ``repr(game.view(p))`` is what seat
        ``p`` sees."""
        return repr(self._round)

    def __rich__(self) -> object:
        return self._round.__rich__()


#: A ``Game`` or a ``Round``, handed back as it was given (``play_out`` and the testing strategies play either).
GameOrRound = TypeVar("GameOrRound", Game, Round)


def game_of(rd: Round) -> Game:
    """The ``Game`` over round ``rd`` (the facade holds nothing else: ``round_of`` gives ``rd`` back)."""
    game = Game.__new__(Game)
    game._round = rd
    return game


def round_of(game: Game | Round) -> Round:
    """The ``Round`` a game is played on (a round is its own): the table a tool, a check or a test reads."""
    return game._round if isinstance(game, Game) else game


def new_game(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int | None = None,
    deal: dict[str, Any] | None = None,
    first_player: int | None = None,
) -> Game:
    """Start a round: shuffled with ``seed`` (a fresh one, kept in ``game.seed``, if ``None``), or
    a stacked ``deal`` (``hands``, ``stock`` top first, ``discard`` bottom first). The events of the
    deal and the opening are in ``game.events_so_far(p)``."""
    return game_of(new_round(variant, players, seed=seed, deal=deal, first_player=first_player))


def replay(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int | None = None,
    actions: Iterable[Action | dict[str, Any]],
    deal: dict[str, Any] | None = None,
    first_player: int | None = None,
) -> Game:
    """Rebuild a game from its start and its actions (``game.actions``)."""
    return game_of(replayed(variant, players, seed=seed, actions=actions, deal=deal, first_player=first_player))
