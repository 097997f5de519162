"""OpenSpiel games of one round: ``pyspiel.load_game("python_tamalou", {"variant": ..., "players": ...})``.

Importing this module registers the Python game ``python_tamalou`` with ``pyspiel.register_game``. Its
parameters: ``variant`` (a ruleset's name, or names joined by ``+`` for a composition: ``"french+gabo"``;
default ``"french"``), ``players`` (default 2) and ``reward`` (``"rank"``, the default, or ``"win"``, as
in the PettingZoo environment: minus the seat's place counted from 0; +1 for a winner and -1 for
everybody else) and ``seconds_per_move`` (timed rulesets: below; default 1.0).
``load(variant, players, reward)`` is a shortcut.

**Chance: the shuffle, card by card.** A round starts with one chance node per card of the deck but the
last: each picks, uniformly, the next card from the top among those not yet picked (outcome ``i``: the
deck's ``i``-th card, ``tamalou.load_variant(v)``'s deck order). The cards are then dealt as the engine
deals a shuffled pile (one at a time around the table from the top, then the discard), as a stacked
deal (``tamalou.new_game(..., deal=...)``); with ``deal.first_player = "random"`` one more chance node
picks the first seat. The round's own generator (it reshuffles the discard when the stock runs out) is
seeded from the order picked, so everything random in a round is a function of its chance outcomes.

**Moves: sequential, with reaction turns**, exactly as in ``tamalou.ai.pettingzoo``: the action ids
are ``tamalou.ai.encoding.ActionSpace.of(variant, players)``'s, plus ``NOOP`` (``space.size``), which
lets an out-of-turn match go. After each move, every seat that the round does not wait for and that
has matches listed gets a *reaction* turn, in seat order after the one who moved (ending with that
seat): a match, or ``NOOP``. Then the first seat of ``game.to_act`` moves (its own matches included,
``NOOP`` not legal). A seat that must move with no action that has an id (a layout grown past the
space's ``max_slots``) plays its first listed action, as in the PettingZoo environment.

**Time** (timed rulesets such as ``tamalou-fun``) is an explicit step, as in the PettingZoo environment
(``tamalou.ai.turns``): a move is stamped ``seconds_per_move`` after the clock; on its turn a seat may answer
``NOOP``, which lets its time run out (the clock plays for it); when nobody is to act, time passes to the next
deadline as part of the move before (it is no one's choice, and not chance either).

**Observations** come from the seat's view only: the observation tensor is
``tamalou.ai.observation(view, variant)`` and its string ``observation_string(view)``. The information
state string adds the moves of the round so far (ids, all public: a move names slots and seats, never a
hidden card), so that it has perfect recall. There is no information state tensor
(``provides_information_state_tensor`` is false): the observation tensor is the seat's memory of the cards
(every card it has seen, where it is now) but not of the moves, so different information states share it (in
four-player French, 1,761 of 4,960 tensors of random games were shared), and a fixed-size tensor of every move
of a round would be mostly padding. Algorithms that need perfect recall read the information state string.
While the cards are being dealt the observations are the empty table.

**Serialisation** goes through the round's snapshot: a state's Python attributes hold the round in an
object that pickles as ``game.to_json()`` and is restored with ``tamalou.Round.from_json``; a clone
copies it with ``game.copy()``.

**Resampling** (``state.resample_from_infostate(player, sampler)``, which OpenSpiel's ISMCTS asks for):
a clone whose cards unknown to ``player`` exchange their faces at random (every place and everybody's
knowledge stay as they are: only what those cards *are* changes), with a fresh generator for later
reshuffles, drawn from ``sampler``. The seat's view, its legal moves and its information state are
unchanged. (The clone's chance history is the original's: only the information state is resampled.)

```python
import pyspiel
from tamalou.ai import openspiel

game = openspiel.load("french", players=2)
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
print(state.current_player(), [state.action_to_string(a) for a in state.legal_actions()][:3])
```
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ..engine.game import Game, game_of
from ..engine.round import Round, new_round
from ..rulesets.loader import load_variant
from ..schema import Variant
from ..verify import step_bound
from ..views import Result
from .encoding import ActionSpace
from .observation import Observer, observation_string
from .turns import SECONDS_PER_MOVE, next_turn, play, reactions_after, wait

__all__ = ["GAME_NAME", "SPIEL_REWARDS", "TamalouSpielGame", "TamalouSpielState", "load", "variant_of"]

#: The name the game is registered under.
GAME_NAME = "python_tamalou"

RewardFn = Callable[[Result, int], float]


def _rank(result: Result, seat: int) -> float:
    return float(-next(i for i, place in enumerate(result.ranking) if seat in place))  # (0.0 first, never -0.0)


def _win(result: Result, seat: int) -> float:
    return 1.0 if seat in result.winners else -1.0


#: The rewards a game may be loaded with (as the PettingZoo environment's of the same names).
SPIEL_REWARDS: dict[str, RewardFn] = {"rank": _rank, "win": _win}

_PARAMS: dict[str, Any] = {"variant": "french", "players": 2, "reward": "rank", "seconds_per_move": SECONDS_PER_MOVE}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Tamalou family (tamalou rulesets)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def variant_of(spec: str) -> Variant:
    """The ruleset a ``variant`` parameter names: a name, or names joined by ``+``."""
    parts = [p.strip() for p in spec.split("+") if p.strip()]
    if not parts:
        raise ValueError("the variant parameter names a ruleset, e.g. 'french' or 'french+gabo'")
    return load_variant(parts[0] if len(parts) == 1 else parts)


class _Round:
    """A state's round: copied with ``game.copy()``, pickled as its snapshot."""

    __slots__ = ("game",)

    def __init__(self, game: Round) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, object]) -> _Round:
        return _Round(self.game.copy())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_round_from_json, (self.game.to_json(),))


def _round_from_json(snapshot: str) -> _Round:
    return _Round(Round.from_json(snapshot, trusted=True))


class TamalouSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one round of a ruleset (see the module's text)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_PARAMS, **(params or {})}
        variant = variant_of(str(p["variant"]))
        r = variant.rules
        players = int(p["players"])
        if not r.players.min <= players <= r.players.max:
            raise ValueError(f"{variant.name} is played by {r.players.min} to {r.players.max} players, got {players}")
        reward = str(p["reward"])
        if reward not in SPIEL_REWARDS:
            raise ValueError(f"unknown reward {reward!r}: one of {', '.join(SPIEL_REWARDS)}")
        self.variant = variant
        self.players = players
        self.reward: RewardFn = SPIEL_REWARDS[reward]
        self.seconds_per_move = float(p["seconds_per_move"])
        if not 0 < self.seconds_per_move < float("inf"):
            raise ValueError(f"seconds_per_move is a positive number of seconds, got {p['seconds_per_move']!r}")
        self.space = ActionSpace.of(variant, players)
        self.observer = Observer.of(variant, players, max_slots=self.space.max_slots)
        self.noop = self.space.size
        scratch = new_round(variant, players, seed=0)
        self.deck_texts = list(scratch.rb.deck_tables(players)[1])  # the deck of this table
        self.random_first = r.deal.first_player == "random"
        low, high = (-(players - 1), 0.0) if reward == "rank" else (-1.0, 1.0)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size + 1,
            max_chance_outcomes=max(len(self.deck_texts), players),
            num_players=players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None,
            # every move may be followed by a reaction turn of each seat
            max_game_length=step_bound(scratch) * (players + 1),
        )
        given = {"variant": str(p["variant"]), "players": players, "reward": reward}
        super().__init__(_GAME_TYPE, info, given | {"seconds_per_move": self.seconds_per_move})

    def new_initial_state(self) -> TamalouSpielState:
        return TamalouSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> _SpielObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("the tamalou game observes a seat's view: public and the seat's private information")
        return _SpielObserver(self.observer, perfect_recall)


class TamalouSpielState(pyspiel.State):  # type: ignore[misc]
    """A state of ``TamalouSpielGame``: the deal in progress, then the round (see the module's text)."""

    def __init__(self, game: TamalouSpielGame) -> None:
        super().__init__(game)
        self._order: list[int] = []  # deck indices picked so far, top first
        self._first: int | None = None
        self._round: _Round | None = None
        self._moves: list[str] = []  # "seat:id" of every move, for the information state
        self._queue: list[int] = []
        self._seat = 0
        self._react = False
        self._noop = False
        self._ids: list[int] = []

    # ----------------------------------------------------------------------------- reading

    def _spiel(self) -> TamalouSpielGame:
        g: TamalouSpielGame = self.get_game()
        return g

    @property
    def round(self) -> Game | None:
        """The ``tamalou.Game`` in play (``None`` while the cards are being dealt)."""
        return None if self._round is None else game_of(self._round.game)

    def current_player(self) -> int:
        if self._round is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._round.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._seat

    def is_terminal(self) -> bool:
        return self._round is not None and self._round.game.is_over

    def _legal_actions(self, player: int) -> list[int]:
        if self._round is None or self._round.game.is_over or player != self._seat:
            return []
        ids = sorted(set(self._ids))
        if self._noop:
            ids.append(self._spiel().noop)
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        spiel = self._spiel()
        n = len(spiel.deck_texts)
        if len(self._order) < n - 1:
            left = sorted(set(range(n)) - set(self._order))
            return [(i, 1.0 / len(left)) for i in left]
        players = spiel.players
        return [(p, 1.0 / players) for p in range(players)]

    def returns(self) -> list[float]:
        spiel = self._spiel()
        if not self.is_terminal():
            return [0.0] * spiel.players
        assert self._round is not None
        result = self._round.game.final_result()
        return [float(spiel.reward(result, p)) + 0.0 for p in range(spiel.players)]  # (+ 0.0: never -0.0)

    def _action_to_string(self, player: int, action: int) -> str:
        spiel = self._spiel()
        if player == pyspiel.PlayerId.CHANCE:
            if len(self._order) < len(spiel.deck_texts) - 1 or self._round is not None:
                return f"deal {spiel.deck_texts[action]} (card {action})"
            return f"first player {action}"
        if action == spiel.noop:
            return "noop"
        return str(spiel.space.action(action, player).to_dict())

    def __str__(self) -> str:
        if self._round is None:
            texts = self._spiel().deck_texts
            return f"dealing: {' '.join(texts[i] for i in self._order)}"
        return repr(self._round.game)

    # ----------------------------------------------------------------------------- moving

    def _apply_action(self, action: int) -> None:
        spiel = self._spiel()
        if self._round is None:
            n = len(spiel.deck_texts)
            if len(self._order) < n - 1:
                self._order.append(int(action))
                if len(self._order) == n - 1:
                    self._order.extend(set(range(n)) - set(self._order))
                    if not spiel.random_first:
                        self._deal()
            else:
                self._first = int(action)
                self._deal()
            return
        g = self._round.game
        i, p = int(action), self._seat
        self._moves.append(f"{p}:{i}")
        if self._noop and i == spiel.noop:
            if self._react:
                self._select()
            else:
                wait(g)  # the turn's time runs out: the clock plays for the seat
                self._after(p)
            return
        if i not in self._ids:
            raise ValueError(f"action {i} is not legal for seat {p} now")
        play(g, spiel.space.action(i, p), spiel.seconds_per_move)
        self._after(p)

    def _deal(self) -> None:
        spiel = self._spiel()
        texts = spiel.deck_texts
        top = [texts[i] for i in self._order]
        n, k = spiel.players, spiel.variant.rules.deal.cards
        d = spiel.variant.rules.deal.discard
        hands = [[top[i * n + p] for i in range(k)] for p in range(n)]
        rest = top[k * n :]
        deal = {"hands": hands, "discard": rest[:d], "stock": rest[d:]}
        digest = hashlib.blake2b(bytes(self._order), digest_size=8).digest()
        seed = int.from_bytes(digest, "big") >> 1
        self._round = _Round(new_round(spiel.variant, n, seed=seed, deal=deal, first_player=self._first))
        self._queue = []
        self._select()

    def _after(self, p: int) -> None:
        self._queue = reactions_after(p, self._spiel().players)
        self._select()

    def _select(self) -> None:
        """Who moves next (``tamalou.ai.turns``): the reaction turns pending, then the first seat the
        round waits for."""
        assert self._round is not None
        turn, _ = next_turn(self._round.game, self._spiel().space, self._queue)
        if turn is None:
            self._ids, self._react, self._noop = [], False, False
        else:
            self._seat, self._ids, self._react, self._noop = turn.seat, turn.ids, turn.react, turn.noop

    # ----------------------------------------------------------------------------- observing

    def observation_vector(self, player: int) -> npt.NDArray[np.float32]:
        """``tamalou.ai.observation`` of ``player``'s view (zeros while the cards are dealt)."""
        spiel = self._spiel()
        if self._round is None:
            return np.zeros(spiel.observer.size, dtype=np.float32)
        return spiel.observer.encode(self._round.game.seat_view(player))

    def observation_text(self, player: int) -> str:
        if self._round is None:
            return f"seat {player}: the cards are being dealt"
        return observation_string(self._round.game.seat_view(player))

    def information_text(self, player: int) -> str:
        return self.observation_text(player) + "\nmoves: " + " ".join(self._moves)

    # ----------------------------------------------------------------------------- resampling

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TamalouSpielState:
        """A clone where the cards ``player_id`` does not know exchange their faces at random (drawn from
        ``probability_sampler``, a callable giving floats in [0, 1)) and later reshuffles get a fresh
        generator: the same information state for ``player_id``, any hidden deal consistent with it."""
        clone: TamalouSpielState = self.clone()
        if clone._round is None:
            return clone
        g = clone._round.game
        unknown = [c for c in range(len(g.cards)) if not g.knowers[c] >> player_id & 1]
        order = list(unknown)
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates on the sampler's floats
            j = min(i, int(probability_sampler() * (i + 1)))
            order[i], order[j] = order[j], order[i]
        cards, text, rank, value, power = list(g.cards), list(g.text), list(g.rank), list(g.value), list(g.power_of)
        for c, src in zip(unknown, order, strict=True):
            cards[c], text[c], rank[c], value[c], power[c] = (
                g.cards[src],
                g.text[src],
                g.rank[src],
                g.value[src],
                g.power_of[src],
            )
        g.cards, g.text, g.rank, g.value, g.power_of = cards, text, rank, value, power
        g.rng.state = int(probability_sampler() * 2**53) * 2**10 + int(probability_sampler() * 2**10)
        return clone


class _SpielObserver:
    """The ``make_py_observer`` object: ``tensor`` (the view's encoding; ``dict`` names its sections; none for
    the perfect-recall information state, see the module's text), ``set_from(state, player)``,
    ``string_from(state, player)``."""

    def __init__(self, observer: Observer, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if not perfect_recall:
            tensor = np.zeros(observer.size, dtype=np.float32)
            self.tensor = tensor
            self.dict = {name: tensor[offset : offset + size] for name, offset, size in observer.layout}

    def set_from(self, state: TamalouSpielState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: TamalouSpielState, player: int) -> str:
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


def load(
    variant: str | Sequence[str] = "french",
    players: int = 2,
    reward: str = "rank",
    *,
    seconds_per_move: float = SECONDS_PER_MOVE,
) -> Any:
    """``pyspiel.load_game("python_tamalou", ...)`` for ``variant`` (a name, or names to compose)."""
    spec = variant if isinstance(variant, str) else "+".join(variant)
    params = {"variant": spec, "players": players, "reward": reward, "seconds_per_move": float(seconds_per_move)}
    return pyspiel.load_game(GAME_NAME, params)


pyspiel.register_game(_GAME_TYPE, TamalouSpielGame)
