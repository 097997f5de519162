"""Rounds played through hypothesis: ``DrawChooser`` (every random choice drawn, so that games
shrink), ``moves`` (a round played on, some steps or to its end, with a drawn style of play) and the
notes that name a game by the ``tamalou.replay`` call that rebuilds it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from hypothesis import note
from hypothesis import strategies as st

from ..actions import Action, action_to_dict
from ..engine.game import Game, GameOrRound, round_of
from ..engine.round import Round
from ..errors import IllegalAction
from ..schema import Variant
from ..verify import InvariantViolation, PlayStyle, check_conservation, choose_action, play_out
from .rulesets import DrawFn


def variant_ref(v: Variant, unnamed: str = "variant") -> str:
    """How a note names ``v``: the spec it was loaded by, else ``unnamed`` (default ``variant``: see the
    variant's note)."""
    spec = v.spec
    if isinstance(spec, str | Path):
        return repr(str(spec))
    if isinstance(spec, list | tuple) and spec:
        return repr([str(s) for s in spec])
    return unnamed


def replay_note(game: Game | Round) -> str:
    """The ``tamalou.replay`` call that rebuilds ``game`` (for hypothesis's failure report)."""
    game = round_of(game)
    actions = json.dumps([action_to_dict(a) for a in game.actions])
    deal = f", deal={json.dumps(game.deal_spec)}, first_player={game.first_player}" if game.deal_spec else ""
    return f"tamalou.replay({variant_ref(game.variant)}, {game.players}, seed={game.seed}{deal}, actions={actions})"


class DrawChooser:
    """A ``tamalou.verify.Chooser`` that draws every choice from hypothesis, so that games
    shrink: the simplest choice (0, False) is the first action and "no".

    After ``budget`` choices it goes on with a ``random.Random`` seeded by one more draw, so that a
    long game (nobody calls) does not exhaust hypothesis's data.

    >>> from hypothesis import given
    >>> from tamalou.testing import dealt_games, property_settings
    >>> @property_settings(max_examples=3)
    ... @given(st.data())
    ... def test_ends(data):
    ...     game = data.draw(dealt_games("french"))
    ...     play_out(game, DrawChooser(data.draw, budget=50))
    ...     assert game.is_over
    >>> test_ends()
    """

    def __init__(self, draw: DrawFn, *, budget: int = 600) -> None:
        self.draw = draw
        self.budget = budget
        self.rng: random.Random | None = None

    def _spent(self) -> random.Random | None:
        if self.rng is None:
            if self.budget > 0:
                self.budget -= 1
                return None
            self.rng = random.Random(self.draw(st.integers(0, 2**32 - 1)))
        return self.rng

    def below(self, n: int) -> int:
        if n <= 1:
            return 0
        rng = self._spent()
        return rng.randrange(n) if rng is not None else int(self.draw(st.integers(0, n - 1)))

    def chance(self, p: float) -> bool:
        if p <= 0.0:
            return False
        if p >= 1.0:
            return True
        rng = self._spent()
        if rng is not None:
            return rng.random() < p
        return bool(self.draw(st.integers(0, 999)) >= 1000 - round(p * 1000))


# ----------------------------------------------------------------------------- rounds played on

BUDGET = 40  # choices drawn one by one by hypothesis in a game, before a drawn seed takes over
#: How often random players match (``PlayStyle``'s ``out_of_turn`` and ``match_probability``): as usual, a lot, never.
MATCH_STYLES = st.sampled_from(
    [PlayStyle(out_of_turn=o, match_probability=m) for o, m in ((0.3, 0.15), (0.8, 0.6), (0.0, 0.0))]
)


def check_conserved(game: Game | Round, _action: Action) -> None:
    check_conservation(game)


@st.composite
def moves(
    draw: DrawFn,
    game: GameOrRound,
    *,
    steps: int | None = None,
    calls: Sequence[float] = (0.05, 0.2),
    on_step: Callable[[GameOrRound, Action], None] | None = None,
) -> GameOrRound:
    """Play ``game`` on: ``steps`` random legal actions, or (``None``) to its end with ``play_out``
    (within ``step_bound``). The choices are drawn inside this strategy, so a failure report shows
    the round, not each choice; the round that failed is noted as its ``tamalou.replay`` call."""
    style = replace(draw(MATCH_STYLES), call_probability=draw(st.sampled_from(list(calls))))
    chooser = DrawChooser(draw, budget=BUDGET)
    try:
        if steps is None:
            play_out(game, chooser, style, on_step=on_step)
        for _ in range(steps or 0):
            if game.is_over:
                break
            action = choose_action(game, chooser, style)
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise no_progress(game, action, exc) from None
            if on_step is not None:
                on_step(game, action)
    except Exception:
        note(f"the round that failed: {replay_note(game)}")
        raise
    return game


def no_progress(game: Game | Round, action: object, exc: Exception) -> InvariantViolation:
    what = json.dumps(action_to_dict(action)) if isinstance(action, Action) else repr(action)
    return InvariantViolation(
        f"the listed action {what} was refused: {exc} [turn {game.turn}, phase {game.phase!r}]",
        actions=game.actions,
    )
