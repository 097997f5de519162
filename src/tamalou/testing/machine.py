"""``RoundMachine``: a ready-made stateful test of a ruleset (a hypothesis ``RuleBasedStateMachine``)
that plays legal actions, fuzzes illegal ones and checks every invariant after each step.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ..engine.game import Game
from ..errors import IllegalAction
from ..verify import (
    check_accepted_is_listed,
    check_conservation,
    check_illegal_leaves_state,
    check_knowledge,
    check_legal_actions_accepted,
    check_no_leak,
    check_replay,
    check_result,
    check_snapshot_roundtrip,
)
from .playing import check_conserved, moves, no_progress, replay_note
from .profiles import machine_settings
from .strategies import actions, any_action, dealt_games, draw_players, draw_variant, stacked_games


class RoundMachine(RuleBasedStateMachine):
    """A stateful test of a ruleset (a hypothesis ``RuleBasedStateMachine``) that plays legal actions,
    fuzzes illegal ones and checks every invariant after each step. Subclass it with your ruleset, and
    expose its ``TestCase`` (name the class without ``Test``: pytest would try to collect it)::

        class MyRules(tamalou.testing.RoundMachine):
            variant = "my-rules.toml"      # a name, a file (beside this test file, or a path), a list...

        TestMyRules = MyRules.TestCase     # what pytest (or unittest) runs

    Each run deals a round (``players``: a count, or ``None`` for any the ruleset allows; ``stacked``:
    a small stacked deal), then hypothesis picks steps: a legal action (``play``), several
    (``play_several``), a hostile action that must be refused with nothing changed or be legal
    (``fuzz``), a trip through ``to_json``/``from_json`` that the round continues from
    (``restore``), playing the round to its end within ``step_bound`` (``finish``), a new round
    once it is over (``deal_again``). After every step the invariants are checked: cards conserved,
    knowledge exact, no leak (``leak_pairs`` exchanges for ``leak_players`` random seats), every listed action
    accepted, and a finished round's result and replay. ``variant`` may also be a strategy, e.g.
    ``tamalou.testing.variants("my-rules.toml")`` for your ruleset with changed keys.

    It runs with the loaded profile if it is one of tamalou's, else with ``"tamalou"`` (no deadline:
    no flaky ``DeadlineExceeded``); ``@hypothesis.settings(...)`` on the subclass overrides that.
    Add your own ``@rule``/``@invariant`` methods; ``self.game`` is the round.

    >>> from tamalou.testing import property_settings
    >>> class French(RoundMachine):
    ...     variant = "french"
    ...     players = 3
    >>> French.TestCase.settings = property_settings(max_examples=2, stateful_step_count=5)
    >>> French.TestCase("runTest").runTest()
    """

    variant: ClassVar[Any] = "french"
    players: ClassVar[int | None] = None
    stacked: ClassVar[bool] = False
    leak_pairs: ClassVar[int] = 4
    leak_players: ClassVar[int] = 2
    #: The folder of the module that defines the subclass: a relative ``variant`` file is looked for there.
    home: ClassVar[Path | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        module = sys.modules.get(cls.__module__)
        file = getattr(module, "__file__", None)
        cls.home = Path(file).resolve().parent if file else None
        cls.TestCase.settings = machine_settings()

    def __init__(self) -> None:
        super().__init__()
        self._game: Game | None = None
        self._finished: Game | None = None
        self.rng = random.Random(0)

    @property
    def game(self) -> Game:
        """The round being played."""
        if self._game is None:  # pragma: no cover - the initialize rule runs first
            raise RuntimeError("no round dealt yet")
        return self._game

    def _spec(self) -> Any:
        spec = type(self).variant
        if isinstance(spec, str) and self.home is not None and not Path(spec).is_absolute():
            beside = self.home / spec
            if beside.is_file():
                return beside
        return spec

    def _deal(self, data: st.DataObject) -> None:
        v = draw_variant(data.draw, self._spec())
        n = draw_players(data.draw, v, type(self).players)
        if type(self).stacked:
            self._game = data.draw(stacked_games(v, n), label="round")
        else:
            self._game = data.draw(dealt_games(v, n), label="round")
        self.rng = random.Random(self.game.seed)

    @initialize(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        self._deal(data)

    @precondition(lambda self: self._game is not None and not self._game.is_over)
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        action = data.draw(actions(self.game), label="action")
        try:
            self.game.apply(action)
        except IllegalAction as exc:
            raise no_progress(self.game, action, exc) from None

    @precondition(lambda self: self._game is not None and not self._game.is_over)
    @rule(data=st.data(), steps=st.integers(1, 30))
    def play_several(self, data: st.DataObject, steps: int) -> None:
        data.draw(moves(self.game, steps=steps, on_step=check_conserved), label="after")

    @rule(data=st.data())
    def fuzz(self, data: st.DataObject) -> None:
        action = data.draw(any_action(self.game), label="hostile action")
        snapshot = self.game.to_json()
        if not check_illegal_leaves_state(self.game, action, snapshot=snapshot) and isinstance(action, dict):
            check_accepted_is_listed(self.game, action)
            self.game.apply(action)  # accepted: a legal action in a form the listing does not show

    @rule()
    def restore(self) -> None:
        check_snapshot_roundtrip(self.game, self.rng, steps=2)
        self._game = Game.from_json(self.game.to_json(), self.game.variant, trusted=True)

    @precondition(lambda self: self._game is not None and not self._game.is_over)
    @rule(data=st.data())
    def finish(self, data: st.DataObject) -> None:
        data.draw(moves(self.game, calls=(0.05, 0.3, 0.0)), label="the end of the round")

    @precondition(lambda self: self._game is not None and self._game.is_over)
    @rule(data=st.data())
    def deal_again(self, data: st.DataObject) -> None:
        self._deal(data)

    @invariant()
    def cards_are_conserved(self) -> None:
        if self._game is not None:
            check_conservation(self._game)

    @invariant()
    def knowledge_is_exact(self) -> None:
        if self._game is not None:
            check_knowledge(self._game)

    @invariant()
    def nothing_leaks(self) -> None:
        game = self._game
        if game is not None:
            seats = list(range(game.players))
            if len(seats) > self.leak_players:
                seats = self.rng.sample(seats, self.leak_players)
            for p in seats:
                check_no_leak(game, p, self.rng, pairs=self.leak_pairs)

    @invariant()
    def listed_actions_are_accepted(self) -> None:
        if self._game is not None:
            check_legal_actions_accepted(self._game)

    @invariant()
    def a_finished_round_is_consistent(self) -> None:
        game = self._game
        if game is not None and game.is_over and self._finished is not game:
            check_result(game)
            check_replay(game)
            self._finished = game  # a finished round no longer changes: checked once

    def teardown(self) -> None:
        if self._game is not None:
            note(f"round: {replay_note(self._game)}")


RoundMachine.TestCase.settings = machine_settings()
