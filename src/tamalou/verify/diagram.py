"""A ruleset's phases as a state diagram, made from the code: the round's phases and the actions that move it from
one to another, as seeded random games of the ruleset go through them (``play_out``, the games ``verify`` plays),
written in Mermaid (``stateDiagram-v2``), which the documentation site draws. What no game of the sample reached
is not drawn: more games, more of the rare paths (a power's second step, a window).

    >>> print(phase_diagram("french", games=5).splitlines()[1])
        [*] --> draw
"""

from __future__ import annotations

import random
import re

from ..actions import Action
from ..engine.game import round_of
from ..engine.round import Round
from ..engine.state import OVER
from ..rulesets import load_variant
from ..schema import Variant
from .chooser import RandomChooser, style_of
from .playout import play_out


def _id(phase: str) -> str:
    """A Mermaid state id for ``phase`` (letters, digits and ``_``; a plugin's phase may have others)."""
    return re.sub(r"\W", "_", phase) or "_"


def phase_transitions(
    variant: Variant | str | list[str], *, players: int | None = None, games: int = 30, seed: int = 0
) -> dict[tuple[str, str], set[str]]:
    """``(phase before, phase after) -> the action types seen making that step``, over ``games`` seeded random
    games (``players``: default 4, or the nearest count the ruleset allows); ``("", first)`` is the deal's step
    to the first phase, and each round ends in ``over``."""
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    lo, hi = v.rules.players.min, v.rules.players.max
    n = min(max(4, lo), hi) if players is None else players
    seen: dict[tuple[str, str], set[str]] = {}
    for i in range(games):
        rd = Round(v, n, seed=seed + i)
        rd.start()
        seen.setdefault(("", str(rd.phase)), set())
        before = [str(rd.phase)]

        def step(game: Round, action: Action, before: list[str] = before) -> None:
            after = str(round_of(game).phase)
            seen.setdefault((before[0], after), set()).add(action.type)
            before[0] = after

        play_out(rd, RandomChooser(random.Random(seed + i)), style_of(seed + i), on_step=step)
    return seen


def phase_diagram(
    variant: Variant | str | list[str], *, players: int | None = None, games: int = 30, seed: int = 0
) -> str:
    """The ruleset's phases as a Mermaid ``stateDiagram-v2``: a state per phase, an arrow per step seen in
    ``games`` seeded random games, labelled with the action types that made it (``tick`` is time passing in a
    timed ruleset), from the deal (``[*]``) to the end (``over``, then ``[*]``)."""
    lines = ["stateDiagram-v2"]
    named: set[str] = set()
    steps = phase_transitions(variant, players=players, games=games, seed=seed)
    for before, after in sorted(steps, key=lambda k: (k[0] != "", k)):
        for phase in (before, after):
            if phase and _id(phase) != phase and phase not in named:
                lines.append(f'    state "{phase}" as {_id(phase)}')
                named.add(phase)
        kinds = ", ".join(sorted(steps[before, after]))
        start = _id(before) if before else "[*]"
        lines.append(f"    {start} --> {_id(after)}" + (f" : {kinds}" if kinds else ""))
    lines.append(f"    {OVER} --> [*]")
    return "\n".join(lines) + "\n"
