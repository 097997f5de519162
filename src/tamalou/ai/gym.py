"""A Gymnasium environment of one round for one agent: ``tamalou.ai.gym.TamalouGymEnv(variant, players, ...)``,
or ``gymnasium.make("tamalou/Tamalou-v0", variant=..., players=...)`` (registered on import).

The agent plays seat ``seat`` (default 0); the other seats are played by bots: built-in or installed ones by
name (``opponents="cautious"``, or one name per other seat), or bot objects you give (``act(view,
legal_actions)``, see ``tamalou.play``). It is the PettingZoo environment (``tamalou.ai.pettingzoo``: the same
action ids, the same turns and react turns, the same rewards, time as an explicit step in timed rulesets) with
every other agent's turn played by its bot inside ``step``:

- **observation**: ``tamalou.ai.observation`` of the seat's view, a float32 ``Box`` in ``[-1, 1]``;
- **action**: ``Discrete(size + 1)``: the ids of ``ActionSpace.of(variant, players)``, and ``NOOP = size``
  (let an out-of-turn match go; in a timed ruleset, let the turn's time run out);
- **action mask**: ``info["action_mask"]`` (int8, 1 at each legal id) after ``reset`` and every ``step``, and
  ``env.action_masks()`` (a bool array: the method maskable learners such as sb3-contrib's ``MaskablePPO``
  call);
- **reward**: 0 until the round ends, then ``reward`` of the agent's seat (``"rank"``, ``"win"``, ``"score"``
  or a function ``(result, seat) -> float``); ``terminated`` then. There is no truncation: a round is bounded
  (``rules.end.max_turns``).
- **an illegal id** (one the mask leaves out) ends the episode by default (``illegal="terminate"``, reward
  ``illegal_reward``, -1 by default, ``info["illegal_move"]`` true), as PettingZoo's ``TerminateIllegalWrapper``
  does, so that any id of the action space may be sent (Gymnasium's ``check_env`` sends random ones);
  ``illegal="raise"`` raises ``ValueError`` instead and changes nothing.

``reset(seed=s)`` deals a round seeded from ``s`` and seats bots named by ``opponents`` seeded from it too: the
same seed and the same actions give the same episode. ``env.game`` is the ``tamalou.Game``, ``env.space`` the
``ActionSpace``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..actions import Action, Tick
from ..bots import make_bot
from ..engine.game import Game, round_of
from ..errors import GameStateError
from ..play import BotLike, Seated, as_bot, seat_bot
from ..schema import Variant
from ..views import Result
from .pettingzoo import TamalouEnv
from .turns import SECONDS_PER_MOVE

__all__ = ["ENV_ID", "TamalouGymEnv"]

#: The id the environment is registered under with ``gymnasium.register``.
ENV_ID = "tamalou/Tamalou-v0"

Opponents = str | BotLike | Sequence[str | BotLike]


class TamalouGymEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a round against bots (see the module's text)."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (gymnasium's own attribute, an instance's)

    def __init__(
        self,
        variant: Variant | str | Sequence[str] = "french",
        players: int | None = None,
        *,
        seat: int = 0,
        opponents: Opponents = "greedy",
        reward: str | Callable[[Result, int], float] = "rank",
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        seconds_per_move: float = SECONDS_PER_MOVE,
        max_slots: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.table = TamalouEnv(
            variant,
            players,
            reward,
            max_slots=max_slots,
            render_mode=render_mode,
            illegal=illegal,
            illegal_reward=illegal_reward,
            seconds_per_move=seconds_per_move,
        )
        n = self.table.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat is a seat of the {n}-player table (0 to {n - 1}), got {seat!r}")
        self.seat = seat
        self.agent = self.table.possible_agents[seat]
        others = [p for p in range(n) if p != seat]
        one = cast("str | BotLike", opponents)  # unless a list or a tuple: one bot for every other seat
        given: list[str | BotLike] = list(opponents) if isinstance(opponents, list | tuple) else [one] * len(others)
        if len(given) != len(others):
            raise ValueError(f"one opponent for each of the {len(others)} other seats, got {len(given)}")
        self._given: dict[int, str | BotLike] = dict(zip(others, given, strict=True))
        for bot in self._given.values():
            if isinstance(bot, str):
                make_bot(bot, 0)  # an unknown name fails here, not at the first reset
            else:
                as_bot(bot)  # neither a bot nor a callable: TypeError
        self.render_mode = render_mode
        self.variant = self.table.variant
        self.players = n
        self.space = self.table.space
        self.noop = self.table.noop
        self.observation_space = spaces.Box(-1.0, 1.0, (self.table.observer.size,), np.float32)
        self.action_space = spaces.Discrete(self.space.size + 1)
        self._bots: dict[int, Seated] = {}
        self._seeds = random.Random()

    # ----------------------------------------------------------------------------- reading

    @property
    def game(self) -> Game:
        """The ``tamalou.Game`` of the round in play."""
        if self.table.game is None:
            raise GameStateError("call reset() first")
        return self.table.game

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids now, as a bool array of ``action_space.n`` (all false once the round is over)."""
        return self.table.action_mask(self.agent).astype(np.bool_)

    def _observation(self) -> npt.NDArray[np.float32]:
        return self.table.observer.encode(self.game.seat_view(self.seat))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.table.action_mask(self.agent), **self.table.infos.get(self.agent, {})}

    # ----------------------------------------------------------------------------- the Gymnasium protocol

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        self.table.reset(seed=self._seeds.getrandbits(63))
        self._bots = {}
        for p, bot in self._given.items():
            made = seat_bot(make_bot(bot, self._seeds.getrandbits(31)) if isinstance(bot, str) else bot)
            made.sit(self.variant, p)
            self._bots[p] = made
        self._others()
        return self._observation(), self._info()

    def step(self, action: int | np.int64) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self.table.game is None:
            raise GameStateError("call reset() first")
        if self.game.is_over or self.table.terminations[self.agent]:
            raise GameStateError("the round is over: call reset()")
        if self.table.agent_selection != self.agent:
            raise GameStateError(f"it is {self.table.agent_selection}'s move, not {self.agent}'s")
        if not isinstance(action, int | np.integer):
            raise ValueError(f"an action is an integer id, got {action!r}")
        self.table.step(int(action))
        self._others()
        reward = float(self.table._cumulative_rewards[self.agent])
        terminated = bool(self.table.terminations[self.agent])
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def render(self) -> str | None:
        return self.table.render()

    # ----------------------------------------------------------------------------- the bots' turns

    def _others(self) -> None:
        """Play every other seat's turns (its bot's choice, ``NOOP`` when it lets a match go) until the agent
        is asked or the round is over."""
        table = self.table
        while not self.game.is_over and not table.terminations[self.agent]:
            p = table.possible_agents.index(table.agent_selection)
            if p == self.seat:
                return
            table.step(self._choice(p))

    def _choice(self, p: int) -> int:
        """Seat ``p``'s bot's move, as an id."""
        bot = self._bots[p]
        g = round_of(self.game)
        mask = self.table.action_mask(self.table.possible_agents[p])
        react = p not in g.to_act
        if react and bot.may_match is not None and not bot.may_match():
            return self.noop
        listed: list[Action] = [a for a in g.legal_actions(p) if type(a) is not Tick and self.space.encodable(a)]
        listed = [a for a in listed if mask[self.space.id(a)]]
        if not listed:
            return self.noop
        view = g.seat_view(p) if bot.needs_view else None
        choice = bot.act(view, listed)
        if choice is None:
            if not mask[self.noop]:
                raise GameStateError(f"the bot of seat {p} returned no action where it must act")
            return self.noop
        return self.space.id(choice)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="tamalou.ai.gym:TamalouGymEnv")
