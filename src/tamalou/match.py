"""A match of several rounds (``multi-round``; 000, Variantes 3).

Each round is a ``Game``; its ``Result.scores`` (the ``tamalou_round_scores`` hook: by default each
card total, the caller scoring 0 when they won and their total + ``scoring.caller_lost_penalty`` when
they lost) are added up. ``rules.rounds.form`` says how long the match lasts and who wins it. The first
player moves one seat each round. Chance is explicit: each round's seed is drawn from the match's own
generator, so a match seed and the actions of every round replay the whole match.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .actions import Action, short
from .engine.game import Game, new_game
from .errors import GameStateError, SetupError, SnapshotError
from .rng import Rng
from .schema import Variant
from .snapshots import MatchShape

MATCH_SNAPSHOT_VERSION = 1


class MatchResult(BaseModel):
    """The end of a match."""

    model_config = ConfigDict(frozen=True)

    rounds: list[list[int]] = Field(description="Per round, what each player scored.")
    totals: list[int] = Field(description="Cumulative score per player ('wins' form: rounds won).")
    wins: list[int] = Field(description="Rounds won per player.")
    winners: list[int] = Field(description="Who won the match (ties share the win).")
    ranking: list[list[int]] = Field(description="Places, best first; tied players share a place.")
    form: str = Field(description="The form of the match: 'single', 'fixed', 'points' or 'wins'.")


class Match:
    """A match of rounds in play. Create it with ``tamalou.new_match``."""

    def __init__(self, variant: Variant, players: int, *, seed: int | None = None) -> None:
        self.variant = variant
        self.players = players
        self.seed = secrets.randbits(63) if seed is None else int(seed)
        self.rng = Rng(self.seed)
        fp = variant.rules.deal.first_player
        self.first_player = self.rng.below(players) if fp == "random" else int(fp) % players
        self.scores: list[list[int]] = []
        self.won: list[list[int]] = []
        self.history: list[list[Action]] = []
        self.round_seeds: list[int] = []
        self.game = self._deal()

    # ---------------------------------------------------------------- rounds

    def _deal(self) -> Game:
        k = len(self.round_seeds)
        round_seed = self.rng.next64() >> 1
        self.round_seeds.append(round_seed)
        first = (self.first_player + k) % self.players
        return new_game(self.variant, self.players, seed=round_seed, first_player=first)

    @property
    def round(self) -> int:
        """The number of the round in play (0 for the first)."""
        return len(self.round_seeds) - 1

    @property
    def is_over(self) -> bool:
        """Whether the match is decided (after ``next_round`` scored its last round)."""
        return self._decided()

    def _decided(self) -> bool:
        rules = self.variant.rules.rounds
        played = len(self.scores)
        if played == 0:
            return False
        if rules.form == "single":
            return True
        if rules.form in ("fixed", "wins"):
            return played >= rules.count
        totals = self.totals()
        return any(t > rules.limit for t in totals) or played >= rules.max_rounds

    def _decided_after_scoring(self) -> bool:
        """Whether scoring the finished round in play would end the match."""
        probe = Match.__new__(Match)
        probe.variant, probe.players = self.variant, self.players
        probe.scores = [*self.scores, list(self.game.result().scores)]
        probe.won = [*self.won, list(self.game.result().winners)]
        return probe._decided()

    def totals(self) -> list[int]:
        """Cumulative scores so far ('wins' form: rounds won so far)."""
        if self.variant.rules.rounds.form == "wins":
            return self.wins()
        return [sum(r[p] for r in self.scores) for p in range(self.players)]

    def wins(self) -> list[int]:
        return [sum(1 for w in self.won if p in w) for p in range(self.players)]

    def next_round(self) -> None:
        """Score the finished round; deal the next one unless the match is decided."""
        if self.is_over:
            raise GameStateError("the match is over")
        if not self.game.is_over:
            raise GameStateError("the round in play is not over")
        result = self.game.result()
        self.scores.append(list(result.scores))
        self.won.append(list(result.winners))
        self.history.append(list(self.game.actions))
        if not self._decided():
            self.game = self._deal()

    def result(self) -> MatchResult:
        """The match's result. Raises ``GameStateError`` before the match is over."""
        if not self.is_over:
            raise GameStateError("the match is not over")
        form = self.variant.rules.rounds.form
        totals = self.totals()
        best_first = sorted(set(totals), reverse=form == "wins")
        ranking = [[p for p in range(self.players) if totals[p] == t] for t in best_first]
        return MatchResult(
            rounds=[list(r) for r in self.scores],
            totals=totals,
            wins=self.wins(),
            winners=ranking[0],
            ranking=ranking,
            form=form,
        )

    @property
    def actions(self) -> list[list[Action]]:
        """The actions of every round: the scored ones, then the one in play (if not scored)."""
        done = [list(r) for r in self.history]
        if len(self.history) < len(self.round_seeds):
            done.append(list(self.game.actions))
        return done

    # ---------------------------------------------------------------- snapshots

    def to_json(self) -> str:
        """The whole match (scores, generator, the round in play) as JSON."""
        from .engine.snapshot import variant_ref

        variant = variant_ref(self.variant)
        state = {
            "v": MATCH_SNAPSHOT_VERSION,
            "variant": variant,
            "players": self.players,
            "seed": self.seed,
            "rng": self.rng.state,
            "first_player": self.first_player,
            "scores": self.scores,
            "won": self.won,
            "round_seeds": self.round_seeds,
            "history": [json.loads(_log_json(r)) for r in self.history],
            "game": json.loads(self.game.to_json()),
        }
        return json.dumps(state, separators=(",", ":"))

    @classmethod
    def from_json(
        cls, data: str, variant: Variant | None = None, *, allow_plugins: bool | Iterable[str] | None = None
    ) -> Match:
        """Restore a match from ``to_json`` (checked whole, as ``Game.from_json`` checks a game's;
        ``allow_plugins`` as there). Raises ``SnapshotError`` for anything that is not such a snapshot."""
        from .engine.snapshot import read, resolve_variant

        state = read(data, MatchShape, MATCH_SNAPSHOT_VERSION, "match snapshot")
        if variant is None:
            variant = resolve_variant(state["variant"], allow_plugins)
        try:
            return cls._restore(state, variant)
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
            if isinstance(exc, SnapshotError):
                raise
            raise SnapshotError(f"damaged match snapshot: {type(exc).__name__}: {short(str(exc), 200)}") from None

    @classmethod
    def _restore(cls, state: dict[str, Any], variant: Variant) -> Match:
        from .engine.snapshot import uncompact

        players = state["players"]
        if not variant.rules.players.min <= players <= variant.rules.players.max:
            raise SnapshotError(f"{players} players: {variant.name} is played by other counts")
        rounds = len(state["round_seeds"])
        if not 1 <= rounds <= variant.rules.rounds.max_rounds or not (
            len(state["scores"]) == len(state["won"]) == len(state["history"]) <= rounds
        ):
            raise SnapshotError("damaged match snapshot: the rounds do not add up")
        if any(len(r) != players for r in state["scores"]) or not 0 <= state["first_player"] < players:
            raise SnapshotError("damaged match snapshot: scores or first player do not fit the players")
        m = cls.__new__(cls)
        m.variant = variant
        m.players = state["players"]
        m.seed = state["seed"]
        m.rng = Rng(0)
        m.rng.state = state["rng"]
        m.first_player = state["first_player"]
        m.scores = state["scores"]
        m.won = state["won"]
        m.round_seeds = state["round_seeds"]
        m.history = [[uncompact(a) for a in r] for r in state["history"]]
        m.game = Game.from_json(json.dumps(state["game"]), variant)
        if m.game.players != players:
            raise SnapshotError("damaged match snapshot: the round in play has another number of players")
        return m


def _log_json(actions: Sequence[Action]) -> str:
    from .engine.snapshot import compact

    return json.dumps([compact(a) for a in actions], separators=(",", ":"))


def new_match(variant: Variant | str | Sequence[str], players: int, *, seed: int | None = None) -> Match:
    """Start a match of rounds (``rules.rounds`` says its form; a single round by default)."""
    from .variant import load_variant

    v = variant if isinstance(variant, Variant) else load_variant(variant)
    if not v.rules.players.min <= players <= v.rules.players.max:
        raise SetupError(
            f"{v.name} is played by {v.rules.players.min} to {v.rules.players.max} players, got {players!r}"
        )
    return Match(v, players, seed=seed)


def replay_match(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int,
    actions: Iterable[Iterable[Action | dict[str, Any]]],
) -> Match:
    """Rebuild a match from its seed and the actions of each round (``match.actions``).

    A finished round is scored when another round's log follows it, or when scoring it decides the
    match (so a match whose last round ended but was not yet scored comes back scored)."""
    m = new_match(variant, players, seed=seed)
    for i, round_actions in enumerate(actions):
        if i > 0:
            m.next_round()
        for a in round_actions:
            m.game.apply(a)
    if m.game.is_over and len(m.history) < len(m.round_seeds) and m._decided_after_scoring():
        m.next_round()
    return m
