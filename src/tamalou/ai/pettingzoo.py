"""A PettingZoo AEC environment of one round: ``tamalou.ai.pettingzoo.env(variant=..., players=..., reward=...)``.

Agents are ``player_0`` .. ``player_{n-1}`` (seat ``p`` is ``player_p``). Each agent observes a dict:
``"observation"``, ``tamalou.ai.observation(game.seat_view(p), variant)`` (float32, in ``[-1, 1]``), and
``"action_mask"``, an int8 array over the action ids (1: legal now; all zeros for an agent that is not
selected). The action space is ``Discrete(ActionSpace.of(variant, players).size + 1)``: the ids of
``tamalou.ai.encoding``, and one more, ``NOOP = size``, which lets an out-of-turn match go.

**Who is asked.** The round waits for ``game.to_act``; others may match out of turn. After each
action, every seat *not* in ``game.to_act`` that has actions listed (matches) gets a *react* turn, in
seat order after the one who acted (ending with that seat itself): it may take one of them or answer
``NOOP``. A react match is followed by react turns of the seats after the matcher again (the table has
changed: a new card is on the discard, a give may be owed). When no react turn is pending, the first
seat of ``game.to_act`` is asked (its mask includes its own out-of-turn matches; ``NOOP`` is not legal
then: a pass, where the rules allow one, is its own id). If a seat that must act has no action with an
id (every one names a slot beyond the action space's ``max_slots``, after a layout grew by many penalty
cards), the environment plays its first listed action for it and moves on; this is counted in
``env.unwrapped.auto_played``.

**Rewards** are given when the round ends (0 before), from ``game.result()``; ``reward=``:

- ``"rank"`` (default): minus the seat's place, counted from 0 (the first place 0, the second -1...;
  tied seats share a place);
- ``"win"``: +1 for a winner, -1 for everybody else;
- ``"score"``: minus the seat's round score (``result.scores``: what the round adds in a match);
- or a function ``(result, seat) -> float``.

Every agent is terminated when the round ends (the engine's own ``end.max_turns`` bounds a round;
there is no truncation).

**Illegal actions**: ``illegal="raise"`` (default) raises ``ValueError`` and changes nothing;
``illegal="terminate"`` ends the episode instead, as PettingZoo's ``TerminateIllegalWrapper`` does: the agent
that chose it gets ``illegal_reward`` (default -1), every other agent 0, every agent is terminated, and
``infos[agent]["illegal_move"]`` is ``True``.

**Time** (timed rulesets, ``rules.timing.turn_seconds > 0``, e.g. ``tamalou-fun``) is an explicit step
(``tamalou.ai.turns``): each move is stamped ``seconds_per_move`` after the clock (default 1); on its turn an
agent may also answer ``NOOP``, which lets its time run out (the clock plays for it, and a seat that lets
``absent_turns_to_leave`` turns run out leaves the round); when nobody is to act (the opening's seconds, the
final countdown) the environment lets time pass itself.

``state()`` is the table as the referee sees it (``state_space``): every card, encoded as seat 0's observation
would be if seat 0 knew them all (``tamalou.ai.observation.table_view``); the order of the stock is left out.

``reset(seed=s)`` deals a round seeded from ``s`` (the same ``s`` and the same actions: the same round);
``env.unwrapped.game`` is the ``tamalou.Game``, ``env.unwrapped.space`` its ``ActionSpace``.
``render()`` (``render_mode="ansi"`` returns it, ``"human"`` prints it) shows the table as the referee
sees it, every card, and the last move in words (``Action.describe``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.game import Game, round_of
from ..errors import GameStateError
from ..rulesets.loader import load_variant
from ..schema import Variant
from ..views import Result
from .encoding import ActionEncodingError, ActionSpace
from .observation import Observer, table_view
from .turns import SECONDS_PER_MOVE, next_turn, play, reactions_after, wait

__all__ = ["REWARDS", "TamalouEnv", "env", "raw_env"]

RewardFn = Callable[[Result, int], float]


def _rank(result: Result, seat: int) -> float:
    return float(-next(i for i, place in enumerate(result.ranking) if seat in place))  # (0.0 first, never -0.0)


def _win(result: Result, seat: int) -> float:
    return 1.0 if seat in result.winners else -1.0


def _score(result: Result, seat: int) -> float:
    return float(-result.scores[seat])  # (a score of 0 is 0.0, never -0.0)


#: The named reward functions.
REWARDS: dict[str, RewardFn] = {"rank": _rank, "win": _win, "score": _score}


class TamalouEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module's text). Make it with ``env(...)`` (wrapped so that the
    PettingZoo call order is enforced) or ``raw_env(...)``."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "tamalou_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: Variant | str | Sequence[str] = "french",
        players: int | None = None,
        reward: str | RewardFn = "rank",
        *,
        max_slots: int | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        seconds_per_move: float = SECONDS_PER_MOVE,
    ) -> None:
        super().__init__()
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        r = v.rules
        if illegal not in ("raise", "terminate"):
            raise ValueError(f"illegal is 'raise' or 'terminate', got {illegal!r}")
        if not 0 < seconds_per_move < float("inf"):
            raise ValueError(f"seconds_per_move is a positive number of seconds, got {seconds_per_move!r}")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.seconds_per_move = float(seconds_per_move)
        n = max(r.players.min, min(2, r.players.max)) if players is None else players
        if type(n) is not int or not r.players.min <= n <= r.players.max:
            raise ValueError(f"{v.name} is played by {r.players.min} to {r.players.max} players, got {players!r}")
        if isinstance(reward, str):
            if reward not in REWARDS:
                raise ValueError(f"unknown reward {reward!r}: one of {', '.join(REWARDS)}, or a function")
            self._reward: RewardFn = REWARDS[reward]
        elif callable(reward):
            self._reward = reward
        else:
            raise ValueError(f"reward is a name ({', '.join(REWARDS)}) or a function (result, seat) -> float")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.variant = v
        self.players = n
        self.space = ActionSpace.of(v, n, max_slots=max_slots)
        self.observer = Observer.of(v, n, max_slots=self.space.max_slots)
        #: The id that lets an out-of-turn match go (in a react turn), or a turn's time run out (timed rulesets).
        self.noop = self.space.size
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self.agents = list(self.possible_agents)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (self.observer.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.size + 1,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.space.size + 1) for a in self.possible_agents}
        #: The space of ``state()``: the observation of a seat that would know every card.
        self.state_space = spaces.Box(-1.0, 1.0, (self.observer.size,), np.float32)
        self._seeds = random.Random()
        self.game: Game | None = None
        #: How many times the environment played a seat's first listed action (see the module's text).
        self.auto_played = 0
        self._queue: list[int] = []
        self._seat = 0
        self._react = False
        self._noop = False
        self._ids: list[int] = []

    # ----------------------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------------------- the AEC protocol

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = Game(self.variant, self.players, seed=self._seeds.getrandbits(63))
        self.auto_played = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._queue = []
        self._select()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        p = self.possible_agents.index(agent)
        return {"observation": self.observer.encode(self._game().seat_view(p)), "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """``observe(agent)["action_mask"]`` alone (no observation encoded): 1 at each id ``agent`` may send now."""
        g = self._game()
        mask = np.zeros(self.space.size + 1, dtype=np.int8)
        if not g.is_over and self.possible_agents.index(agent) == self._seat:
            mask[self._ids] = 1
            if self._noop:
                mask[self.noop] = 1
        return mask

    def state(self) -> npt.NDArray[np.float32]:
        """The table as the referee sees it: every card, encoded as seat 0's observation would be if it knew
        them all (see the module's text)."""
        return self.observer.encode(table_view(round_of(self._game()), 0))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self._game()
        if action is None or not isinstance(action, int | np.integer):
            raise ValueError(f"an action is an integer id, got {action!r}")
        i, p = int(action), self._seat
        noop = self._noop and i == self.noop
        if not noop and i not in self._ids:
            what = (
                "NOOP (only in a react turn, or a turn of a timed ruleset)" if i == self.noop else self._describe(i, p)
            )
            if self.illegal == "raise":
                raise ValueError(f"action {i} ({what}) is not legal for {agent} now")
            self._end_illegal(agent, f"action {i} ({what}) is not legal for {agent} now")
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if noop and self._react:
            self._select()
        elif noop:
            wait(round_of(g))  # the turn's time runs out: the clock plays for the seat
            self._after(p)
        else:
            play(round_of(g), self.space.action(i, p), self.seconds_per_move)
            self._after(p)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self._game()
        text = repr(game)
        if game.actions:  # the last move, in words (``Action.describe``)
            last = game.actions[-1]
            who = f"P{last.player}" if hasattr(last, "player") else "time"
            text += f"\nlast move: {who}: {last.describe()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ----------------------------------------------------------------------------- who is asked

    def _game(self) -> Game:
        if self.game is None:
            raise GameStateError("call reset() first")
        return self.game

    def _describe(self, i: int, p: int) -> str:
        try:
            return self.space.describe(i, p)
        except ActionEncodingError as exc:
            return str(exc)

    def _after(self, p: int) -> None:
        """Seat ``p`` acted: every seat after it, then ``p``, may react."""
        self._queue = reactions_after(p, self.players)
        self._select()

    def _select(self) -> None:
        turn, auto = next_turn(round_of(self._game()), self.space, self._queue)
        self.auto_played += auto
        if turn is None:
            self._finish()
        else:
            self._choose(turn.seat, turn.ids, react=turn.react, noop=turn.noop)

    def _choose(self, seat: int, ids: list[int], *, react: bool, noop: bool) -> None:
        self._seat, self._ids, self._react, self._noop = seat, ids, react, noop
        self.agent_selection = self.possible_agents[seat]

    def _end_illegal(self, agent: str, why: str) -> None:
        """``illegal="terminate"``: the episode ends, ``agent`` penalised (see the module's text)."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for other in self.agents:
            self.rewards[other] = self.illegal_reward if other == agent else 0.0
            self.terminations[other] = True
            self.infos[other] = {**self.infos.get(other, {}), "illegal_move": other == agent}
        self.infos[agent]["illegal_reason"] = why
        self._ids, self._react, self._noop = [], False, False
        self._accumulate_rewards()

    def _finish(self) -> None:
        result = round_of(self._game()).final_result()
        for p, agent in enumerate(self.possible_agents):
            if agent in self.rewards:
                self.rewards[agent] = float(self._reward(result, p))
                self.terminations[agent] = True
        self._ids, self._react, self._noop = [], False, False
        self.agent_selection = self.possible_agents[self._seat]


def raw_env(
    variant: Variant | str | Sequence[str] = "french",
    players: int | None = None,
    reward: str | RewardFn = "rank",
    *,
    max_slots: int | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    illegal_reward: float = -1.0,
    seconds_per_move: float = SECONDS_PER_MOVE,
) -> TamalouEnv:
    """The environment without PettingZoo's wrappers."""
    return TamalouEnv(
        variant,
        players,
        reward,
        max_slots=max_slots,
        render_mode=render_mode,
        illegal=illegal,
        illegal_reward=illegal_reward,
        seconds_per_move=seconds_per_move,
    )


def env(
    variant: Variant | str | Sequence[str] = "french",
    players: int | None = None,
    reward: str | RewardFn = "rank",
    *,
    max_slots: int | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    illegal_reward: float = -1.0,
    seconds_per_move: float = SECONDS_PER_MOVE,
) -> Any:
    """The environment of one round of ``variant`` for ``players`` players (default: 2, or the fewest the
    ruleset allows), rewarded by ``reward`` (``"rank"``, ``"win"``, ``"score"`` or a function), wrapped in
    PettingZoo's ``OrderEnforcingWrapper``; ``illegal`` and ``seconds_per_move``: see the module's text."""
    return wrappers.OrderEnforcingWrapper(
        raw_env(
            variant,
            players,
            reward,
            max_slots=max_slots,
            render_mode=render_mode,
            illegal=illegal,
            illegal_reward=illegal_reward,
            seconds_per_move=seconds_per_move,
        )
    )
