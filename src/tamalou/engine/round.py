"""``Round``: one round in play, as the table sees it — what mechanics, powers, hooks and checks are handed.

Users hold a ``Game`` (``engine/game.py``), the facade over a ``Round`` that shows the public API only; the
round itself also has the table's primitives (``table.py``) and the flow's transitions (``flow.py``).
``legal_actions(p)`` reads the phase table; ``apply(action)`` finds the handler the phase table names
for the action's type, brings the game to the action's time first (timed rulesets), and is all or
nothing; ``view(p)`` is what ``p`` may see; ``result()`` asks the ranking hooks once the round is over.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast, overload

from .._compiling import mypyc_attr
from ..actions import Action, Tick, parse_action, short
from ..display import game_lines, panel
from ..errors import GameStateError, IllegalAction, PluginError, SetupError, SnapshotError, TamalouError, raised_at
from ..events import Event
from ..hookspecs import Tally
from ..mechanic import Mechanic
from ..resolver import resolve
from ..schema import Variant
from ..snapshots import SnapshotShape
from ..views import PlayerView, Result, SeatView
from . import copying, snapshot
from .clock import advance, apply_at, deadline
from .deal import deal_round, opening
from .flow import Flow
from .rulebook import rulebook
from .seats import seat_actions
from .state import DRAW, HOLD, NO_CARD, OVER, Judged
from .view import player_view, seat_view

if TYPE_CHECKING:
    from ..round_table import RoundTable


@mypyc_attr(allow_interpreted_subclasses=True)
class Round(Flow):
    """One round in play, with the table's primitives and the flow's transitions: what a mechanic, a power,
    a hook or a check is handed. Users hold the ``Game`` over it (``tamalou.new_game``); ``tamalou.round_of(game)``
    gives the round of a game, ``new_round`` deals one directly (tests that stack a table, search)."""

    __slots__ = ()

    def __init__(
        self,
        variant: Variant | None,
        players: int = 0,
        *,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
        first_player: int | None = None,
    ) -> None:
        self._undo = []
        if variant is None:  # a blank game, for ``copy`` and ``from_json`` to fill
            return
        r = variant.rules
        if type(players) is not int or not r.players.min <= players <= r.players.max:
            raise SetupError(f"{variant.name} is played by {r.players.min} to {r.players.max} players, got {players!r}")
        if seed is not None and type(seed) is not int:
            raise SetupError(f"a seed is an integer, got {seed!r}")
        if first_player is not None and (type(first_player) is not int or not 0 <= first_player < players):
            raise SetupError(f"first_player must be a seat from 0 to {players - 1}, got {first_player!r}")
        self.init_runtime(variant, players)
        deal_round(self, seed, deal, first_player)

    def init_runtime(self, variant: Variant, players: int) -> None:
        self.variant = variant
        rb = rulebook(variant)
        self.rb = rb
        self.flow = rb.flow
        self.players = players
        seat_actions(players - 1)  # the seats' action objects exist
        self.all_mask = (1 << players) - 1
        self.deal_spec = None
        self._result = None

    def start(self) -> list[Event]:
        """Deal-time events and the opening (``new_game`` calls it once)."""
        return opening(self)

    # ----------------------------------------------------------------------------- reading

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def deadline(self) -> float | None:
        """When the next timed thing happens (a turn's end, the opening's, the countdown's), if any."""
        return deadline(self)

    def mechanic(self, name: str) -> Mechanic | None:
        """The mechanic called ``name`` of this game's variant, if it plays a part."""
        return next((m for m in self.rb.mechanics if m.name == name), None)

    def legal_actions(self, player: object = None) -> list[Action]:
        """Every action ``player`` may take now, out-of-turn matches included; without a seat, those of the
        player to move (``current_player``: other seats may still act out of turn, ask for them by seat).

        What is listed depends only on what ``player`` knows: a match is offered on every
        occupied slot (right or wrong), the call whatever the hidden total. Every listed action
        is accepted by ``apply``.
        """
        if player is None:
            player = self.current_player
        if type(player) is not int or not 0 <= player < self.players:
            raise IllegalAction(f"no player {player!r} in a {self.players}-player game")
        row = self.flow.rows[self.phase]
        out: list[Action] = []
        if row.guards and player == self.current_player:
            for guard in row.guards:
                forced = guard(self, player)
                if forced is not None:  # only this, and what may come in out of turn
                    out.extend(forced[0])
                    for lister in row.out_of_turn:
                        lister(self, player, out)
                    return out
        for lister in row.everyone:
            lister(self, player, out)
        return out

    # ----------------------------------------------------------------------------- applying

    @overload
    def apply(self, action: Action, *, at: float | None = None, max_step: float | None = None) -> list[Event]: ...

    @overload
    def apply(
        self, action: dict[str, Any], *, at: float | None = None, max_step: float | None = None
    ) -> list[Event]: ...

    # ``object``, not the union of the overloads: compiled by mypyc, a parameter's type is checked on the way
    # in, and anything else must still be refused with ``IllegalAction`` (by ``parse_action``).
    def apply(self, action: object, *, at: object = None, max_step: float | None = None) -> list[Event]:
        """Apply one action (an action object or its JSON dict); return the events.

        Raises ``IllegalAction`` (and changes nothing) if the rules forbid it now. A legal action
        that fails on hidden information (a wrong match) is played and penalised. Timed rulesets: ``at``
        stamps the action with its time in seconds (the action's own ``at`` otherwise; ``apply(a, at=7.0)``
        is ``apply(dataclasses.replace(a, at=7.0))``); it may not be earlier than the game's time, nor (with
        ``max_step``) more than ``max_step`` seconds later: a server stamps ``at`` from its own clock and never
        trusts a client's.
        """
        a = action if isinstance(action, Action) else parse_action(cast(Any, action))
        if at is not None:
            if type(at) not in (int, float):
                raise IllegalAction(f"'at' is a time in seconds, got {at!r}", a)
            a = dataclasses.replace(cast(Any, a), at=at)
        if self.phase == OVER:
            raise IllegalAction("the round is over", a)
        at = a.at
        if max_step is not None:
            if type(max_step) not in (int, float) or not max_step >= 0:
                raise TypeError(f"max_step is a number of seconds (0 or more) or None, got {short(max_step, 40)}")
            if at is not None and at - self.now > max_step:
                raise IllegalAction(
                    f"time may move {max_step:g} s at most at once: it is {self.now:g} s, not {at:g} s", a
                )
        flow = self.flow
        if at is None and flow.fast:
            # The common case: no time to move, no third-party code to guard against.
            handler = flow.dispatch[self.phase].get(type(a))
            if handler is not None:
                events = handler(self, a)
                self.actions.append(a)
                return events
        rb = self.rb
        if type(at) is int:  # one form for times, so a log replays to the same snapshot
            a = dataclasses.replace(a, at=float(at))
        backup = self.copy() if rb.guarded else None
        log = self.actions
        # A tick that fires nothing, after a tick, takes that tick's place in the log: one tick to the later
        # time replays the same (what the first fired, and nothing since), so however often a server stamps
        # the time, the log (and a snapshot) grows only with what happens.
        quiet = type(a) is Tick and bool(log) and type(log[-1]) is Tick and self._fires_nothing_by(at)
        try:
            events = apply_at(self, a, at, self._dispatch) if at is not None and at != self.now else self._dispatch(a)
        except IllegalAction:
            raise
        except Exception as exc:
            if backup is None:
                raise
            self._restore_from(backup)
            if isinstance(exc, PluginError):
                raise
            raise _hook_failed(exc) from exc
        if quiet:
            log[-1] = a
        else:
            log.append(a)
        return events

    def apply_unguarded(self, action: Action) -> list[Event]:
        """``apply(action)`` for a game that is thrown away if it fails, a search's sample: an action without a time
        (``at``), and no copy of the game kept to undo what a failing hook half-did. ``apply`` keeps that copy
        before each action where the ruleset runs code from outside tamalou (a plugin's mechanics, powers or
        hooks): a search's samples, which a failure drops, need not pay for it (a profile of the search bot's
        decisions in ``benchmarks/grid_game/``, a plugin's ruleset: 7 of its 34 seconds were those copies). An
        action the rules refuse still raises ``IllegalAction``; a hook that fails raises ``PluginError`` as in
        ``apply``, and leaves the game as it stopped."""
        if action.at is not None:
            return self.apply(action)
        if self.phase == OVER:
            raise IllegalAction("the round is over", action)
        try:
            events = self._dispatch(action)
        except (IllegalAction, PluginError):
            raise
        except Exception as exc:
            raise _hook_failed(exc) from exc
        self.actions.append(action)
        return events

    def _fires_nothing_by(self, at: float | None) -> bool:
        """Whether no deadline is due by ``at``."""
        due = deadline(self)
        return due is None or at is None or due > at

    # ----------------------------------------------------------------------------- undo, for search

    def push(
        self, action: Action | dict[str, Any], *, at: float | None = None, max_step: float | None = None
    ) -> list[Event]:
        """``apply(action)``, remembering how to take it back: ``pop()`` then puts the game back exactly as
        it was (state, generator, action log, result; ``to_json()`` equal), for tree searches that try an
        action and come back. Refused actions raise ``IllegalAction`` as ``apply`` does, change nothing and
        push nothing. Each push keeps a copy of the game's mutable state, its saved fields and every
        mechanic's state object (about 4 µs, about what an action takes, and 1 µs to put back; a whole
        ``copy()`` takes about 14 µs), so the undo is exact for every mechanic, built-in or a plugin's,
        that keeps its state in its state object as mechanics must."""
        saved = copying.save(self)
        events = self.apply(action, at=at, max_step=max_step)
        self._undo.append((saved, self.actions[-1]))
        return events

    def pop(self) -> Action:
        """Take back the last ``push`` (and any ``apply`` made since) and return the action pushed.
        Raises ``GameStateError`` when there is nothing to take back. A ``copy()`` or a restored
        snapshot starts with nothing to take back."""
        if not self._undo:
            raise GameStateError("nothing to pop: no action was pushed (game.push) since the game began")
        memento: copying.Memento
        action: Action
        memento, action = self._undo.pop()
        copying.restore(self, memento)
        return action

    @property
    def pushed(self) -> int:
        """How many pushes ``pop`` can take back."""
        return len(self._undo)

    def _dispatch(self, a: Action) -> list[Event]:
        handler = self.flow.dispatch[self.phase].get(type(a))
        if handler is None:
            phase = self.phase
            if getattr(a, "player", None) != self.current_player and phase in (DRAW, HOLD):
                raise IllegalAction(f"it is player {self.current_player}'s turn, not player {a.player}'s", a)
            raise IllegalAction(f"{a.type} is not possible in phase {str(phase)!r}", a)
        presence = self.rb.presence
        if not presence:
            return handler(self, a)
        if len(presence) == 1:  # the usual case (the clock of a timed ruleset): no lists to build
            before, undo = presence[0]
            token = before(self, a)
            try:
                return handler(self, a)
            except IllegalAction:
                undo(self, token)
                raise
        undos: list[Callable[..., None]] = []
        tokens: list[object] = []
        for before, undo in presence:
            undos.append(undo)
            tokens.append(before(self, a))
        try:
            return handler(self, a)
        except IllegalAction:
            for i in range(len(tokens) - 1, -1, -1):  # put back in the reverse order
                undos[i](self, tokens[i])
            raise

    def advance(self, t: float, events: list[Event]) -> None:
        """Bring the game to time ``t``: fire, in order, every deadline due before it."""
        advance(self, t, events)

    # ----------------------------------------------------------------------------- results and views

    def result(self) -> Result:
        """The round's result (a copy: changing it changes nothing in the game). Raises
        ``GameStateError`` before the round is over."""
        if self.phase != OVER:
            raise GameStateError("the round is not over: result() is known once game.is_over")
        kept = self.final_result()
        # A copy whose lists are its own (faster than a deep copy: the fields are ints, strings, lists).
        return kept.model_copy(update={k: _copied(v) for k, v in kept.__dict__.items() if type(v) is list})

    def final_result(self) -> Result:
        """The round's result as the game keeps it (computed once; not to be changed)."""
        kept = self._result
        if isinstance(kept, Result):
            return kept
        totals, winners, ranking, counts, scores = self.judged()
        # Every field is made from checked answers: no validation to run again.
        result = Result.model_construct(
            totals=totals,
            winners=winners,
            ranking=ranking,
            caller=self.caller,
            last_lap=self.last_lap,
            card_counts=counts,
            reason=self.reason,
            scores=scores,
        )
        self._result = result
        return result

    def judged(self) -> Judged:
        """The round's end as the ranking hooks judged it, computed once: totals, winners, ranking, card
        counts and scores, as plain lists (the ``Result`` model is made from them only when asked for:
        the end of a round in a simulation needs no pydantic). Not to be changed."""
        kept = self._result
        if kept is None:
            judged = self.standing()
            self._result = judged
            return judged
        if isinstance(kept, Result):
            return kept.totals, kept.winners, kept.ranking, kept.card_counts, kept.scores
        return kept

    def standing(self) -> Judged:
        """The round judged as the table lies now, as if it ended here: the same lists as ``judged()``
        (the ruleset's ranking and scoring hooks on a ``Tally`` of the table), made afresh and kept
        nowhere. A search judges a rollout it cuts short so (``tamalou.bots.ismcts``). Mechanics' ``before_scoring``
        (what the end of a round does to the table before it is scored) are applied to a copy first, as the real
        end applies them."""
        if self.rb.hooks.before_scoring and self.phase != OVER:
            table = self.copy()
            table.phase = OVER
            for scoring in self.rb.hooks.before_scoring:
                scoring(table, [])
            return table.standing()
        players = self.players
        value, text = self.value, self.text
        # (``map`` and ``filter`` with C-level functions: layouts grow long with penalty cards)
        held = [list(filter(NO_CARD.__ne__, hand)) if NO_CARD in hand else hand for hand in self.hands]
        totals = [sum(map(value.__getitem__, cards)) for cards in held]
        counts = [len(cards) for cards in held]
        hands = tuple([tuple(map(text.__getitem__, cards)) for cards in held])
        tally = Tally(
            totals=tuple(totals),
            card_counts=tuple(counts),
            caller=self.caller,
            threshold=self.rb.threshold,
            left=tuple([p for p in range(players) if self.left >> p & 1]),
            hands=hands,
            last_lap=self.last_lap,
            # (a layout without an emptied slot is its hand: the same tuple)
            layouts=tuple(
                [
                    tuple([None if c == NO_CARD else text[c] for c in hand]) if NO_CARD in hand else shown
                    for hand, shown in zip(self.hands, hands, strict=True)
                ]
            ),
        )
        ranking, winners, scores = self.rb.judge(tally)
        return totals, sorted(winners), [list(place) for place in ranking], counts, list(scores)

    def view(self, player: object) -> PlayerView:
        """What ``player`` may see now, and nothing more."""
        return player_view(self, player)

    def seat_view(self, player: object) -> SeatView:
        """``view(player)`` as a plain slotted ``SeatView``: the same fields, several times cheaper to
        build (bots, simulations); ``.to_model()`` or ``.model_dump()`` at the boundary."""
        return seat_view(self, player)

    def __repr__(self) -> str:
        """The table as the referee sees it (``tamalou.display``): every card, ``*`` after a card its owner
        does not know. Never show it to a player: ``repr(game.view(p))`` is what seat ``p`` sees."""
        if not hasattr(self, "variant"):
            return "<Round (blank)>"
        return "\n".join(game_lines(self))

    def __rich__(self) -> object:
        return panel(game_lines(self))

    def events_so_far(self, player: object = None) -> list[Event]:
        """Every event of the round so far, from the deal on, as ``player`` may see it (all of it with
        ``None``: not for a player's eyes). The game keeps no events: they are rebuilt by replaying
        its actions from the deal (exact, and O(actions)), so call this when a seat joins or comes
        back, and forward what ``apply`` returns step by step."""
        if player is not None and not self.player_ok(player):
            raise IllegalAction(f"no player {player!r} in a {self.players}-player game")
        first = self.first_player if self.first_given else None
        fresh = Round(self.variant, self.players, seed=self.seed, deal=self.deal_spec, first_player=first)
        events = fresh.start()
        for a in self.actions:
            events.extend(fresh.apply(a))
        return events if player is None else [e.for_player(player) for e in events]

    # ----------------------------------------------------------------------------- copies and snapshots

    def copy(self) -> Round:
        """An independent copy of the game (same state, same RNG state, same history)."""
        g = Round(None)
        g._restore_from(self)
        return g

    def __copy__(self) -> Round:
        """``copy.copy(game)``: an independent copy, as ``game.copy()`` (a shallow copy would share the
        game's lists with it)."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        """``copy.deepcopy(game)``: ``game.copy()`` (the variant, immutable, is shared)."""
        g = self.copy()
        memo[id(self)] = g
        return g

    def _restore_from(self, other: Round) -> None:
        copying.copy_into(self, other)

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its snapshot and its variant (for worker processes)."""
        return (_unpickle, (self.to_json(), self.variant))

    def to_json(self) -> str:
        """The whole state as compact JSON; ``Round.from_json`` restores it exactly (RNG included)."""
        return snapshot.dump(self)

    @classmethod
    def from_json(
        cls,
        data: object,
        variant: Variant | None = None,
        *,
        allow_plugins: bool | Iterable[str] | None = None,
        trusted: bool = False,
        max_chars: int | None = None,
    ) -> Round:
        """Restore a game from ``to_json``. The variant is the one saved in the snapshot (by name for
        a registered ruleset, whole for one loaded from a file) unless given; its plugins must be
        modules this process already imported or that ``allow_plugins`` names (``True``: any).
        Raises ``SnapshotError`` for anything that is not such a snapshot.

        **By default the snapshot is one from outside** (a client, a file you did not write): the game is
        rebuilt from its seed and its log, action by action, and must be the snapshot's, or ``SnapshotError``
        (so an edited snapshot, say a hidden card marked as known by a seat that never saw it, is refused). The
        replay stops at the first action that is not the game's, and the text is capped at ``max_chars``
        (default ``engine.snapshot.OUTSIDE_TEXT``, 32 million characters: twelve times the longest match of
        random play), so a hostile text costs what it holds. It replays every action of the round: about
        three times the restore (1.5 ms against 0.5 ms for a 4-player French round of 23 actions).

        ``trusted=True`` is for **the caller's own snapshots** (a server's database, a process's own
        copy): everything is checked (types, sizes, each card in one place, seats that exist, a stacked deal
        as ``new_game`` checks one) but not replayed, and the cap is ``engine.snapshot.MAX_TEXT``: the game
        restored is one that can be played on, not necessarily the game its seed and actions make."""
        cap = snapshot.text_cap(trusted, max_chars)
        state = snapshot.read(data, SnapshotShape, snapshot.VERSION, "snapshot", cap)
        if variant is None:
            variant = snapshot.resolve_variant(state["variant"], allow_plugins)
        again = None if trusted else replay_state(state, variant)
        game = cls(None)
        snapshot.restore_state(game, state, variant, allow_plugins)
        if again is not None and again.to_json() != game.to_json():
            raise SnapshotError("the snapshot is not the game its seed and actions make")
        return game


if TYPE_CHECKING:

    def _a_round_is_a_table(game: Round) -> RoundTable:
        """mypy checks here that ``Round`` has every member of the mechanics' contract, with its type."""
        return game


def replay_state(state: dict[str, Any], variant: Variant) -> Round:
    """The round a snapshot's seed, deal and log make, rebuilt action by action (``SnapshotError`` at the first
    action that is not legal there: a hostile log costs what is read of it)."""
    first = state["first_player"] if state["first_given"] else None
    actions = (snapshot.uncompact(item) for item in state["actions"])  # (read one at a time, as they replay)
    try:
        game = replayed(
            variant, state["players"], seed=state["seed"], actions=actions, deal=state["deal"], first_player=first
        )
    except SnapshotError:
        raise
    except TamalouError as exc:
        raise SnapshotError(f"the snapshot's actions do not replay: {short(str(exc), 300)}") from None
    except (KeyError, TypeError, ValueError, IndexError, OverflowError, AttributeError) as exc:
        raise SnapshotError(f"incomplete or damaged snapshot: {type(exc).__name__}: {short(str(exc), 200)}") from None
    return game


def _hook_failed(exc: Exception) -> PluginError:
    """The error ``apply`` and ``apply_unguarded`` raise for a hook that failed with ``exc`` (where it was raised)."""
    return PluginError(f"a hook failed: {exc!r}{raised_at(exc)}")


def _unpickle(snapshot: str, variant: Variant) -> Round:
    return Round.from_json(snapshot, variant, trusted=True)


def as_variant(variant: object) -> Variant:
    """``variant`` itself, or the variant its name, path or list of names names (``resolver``); a ``TypeError``
    that says what is expected for anything else."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, os.PathLike):
        variant = os.fspath(variant)
    if isinstance(variant, str) or (
        isinstance(variant, Sequence) and variant and all(isinstance(x, str) for x in variant)
    ):
        return resolve(cast(Any, variant))
    raise TypeError(
        "a ruleset is a tamalou.Variant (tamalou.load_variant), a ruleset's name or path, or a list of names; "
        f"got {short(variant, 60)}"
    )


def new_round(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int | None = None,
    deal: dict[str, Any] | None = None,
    first_player: int | None = None,
) -> Round:
    """Deal a round (``new_game`` without the facade): shuffled with ``seed`` (a fresh one, kept in
    ``round.seed``, if ``None``), or a stacked ``deal`` (``hands``, ``stock`` top first, ``discard`` bottom
    first). The events of the deal and the opening are in ``round.events_so_far(p)``."""
    v = as_variant(variant)  # a name: the ruleset loader, registered with tamalou.resolver, finds it
    game = Round(v, players, seed=seed, deal=deal, first_player=first_player)
    game.start()
    return game


def replayed(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int | None = None,
    actions: Iterable[Action | dict[str, Any]],
    deal: dict[str, Any] | None = None,
    first_player: int | None = None,
) -> Round:
    """Rebuild a round from its start and its actions (``replay`` without the facade)."""
    game = new_round(variant, players, seed=seed, deal=deal, first_player=first_player)
    for a in actions:
        game.apply(a)
    return game


def _copied(value: list[Any]) -> list[Any]:
    """``value`` copied, and the lists in it."""
    return [_copied(x) if type(x) is list else x for x in value]
