"""A match of several rounds (``multi-round``; Le Tamalou, Variantes 3).

Each round is a ``Game``; its ``Result.scores`` (the ``tamalou_round_scores`` hook: by default each
card total, the caller scoring 0 when they won and their total + ``scoring.caller_lost_penalty`` when
they lost) are added up. ``rules.rounds.form`` says how long the match lasts and who wins it. The first
player moves one seat each round. Chance is explicit: each round's seed is drawn from the match's own
generator, so a match seed and the actions of every round replay the whole match. A test stacks the first
rounds instead (``deals``: round ``i`` laid out as ``deals[i]``, as ``new_game``'s ``deal``); their seeds are
drawn all the same, so the rounds after the last stacked deal are those the seed deals without any.

Rules of a match that need code are hooks (``tamalou.hookspecs``), asked between rounds with a
``MatchTally``: ``tamalou_match_adjust`` (what to add to the cumulative totals after a round: a
placement bonus, a reset of an exact total; kept per round in ``adjustments``), ``tamalou_match_rank``
(the final ranking and its tie-breaks) and ``tamalou_round_first_player`` (who starts each round).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ._match_texts import MatchTexts
from .actions import Action, short
from .engine.deal import stacked_deals
from .engine.game import Game, new_game, round_of
from .engine.round import Round, as_variant
from .engine.rulebook import rulebook
from .errors import GameStateError, IllegalAction, PluginError, SetupError, SnapshotError, TamalouError
from .events import Event
from .hookspecs import MatchTally
from .plugin_managers import first_result
from .rng import Rng
from .schema import Variant
from .snapshots import MatchShape
from .views import Result

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
    adjustments: list[list[int]] = Field(
        default_factory=list,
        description="Per round, what the match's rules added to each cumulative total after it (bonuses, "
        "resets; zeros when nothing). 'totals' includes them.",
    )
    first_players: list[int] = Field(default_factory=list, description="Per round, who played first.")
    results: list[Result] = Field(
        default_factory=list,
        description="Per round, its whole result: who called, who began a last lap, why it ended, the card totals.",
    )


class Match:
    """A match of rounds in play. Create it with ``tamalou.new_match``."""

    def __init__(
        self, variant: Variant, players: int, *, seed: int | None = None, deals: Sequence[Any] | None = None
    ) -> None:
        self.variant = variant
        self.players = players
        #: The stacked deals of the first rounds, checked and written as snapshots keep them (not to be changed).
        self.deals = (
            ()
            if deals is None
            else stacked_deals(rulebook(variant).deck_for(players), deals, players, variant.rules.rounds.most)
        )
        self.seed = secrets.randbits(63) if seed is None else int(seed)
        self.rng = Rng(self.seed)
        fp = variant.rules.deal.first_player
        self.first_player = self.rng.below(players) if fp == "random" else int(fp) % players
        self.scores: list[list[int]] = []
        self.won: list[list[int]] = []
        self.adjust: list[list[int]] = []
        self.firsts: list[int] = []
        #: Each scored round's ``Result`` (``tally().results``; the match hooks read who ended a round there).
        self.results: list[Result] = []
        self.history: list[list[Action]] = []
        self.round_seeds: list[int] = []
        self._texts = MatchTexts()
        self.game = self._deal()

    # ---------------------------------------------------------------- rounds

    def _deal(self) -> Game:
        round_seed = self.rng.next64() >> 1
        first = self.first_player if not self.firsts else self._next_first()
        deal = self._stacked(len(self.round_seeds))
        self.round_seeds.append(round_seed)
        self.firsts.append(first)
        return new_game(self.variant, self.players, seed=round_seed, deal=deal, first_player=first)

    def _stacked(self, index: int) -> dict[str, Any] | None:
        """The stacked deal of round ``index`` (0 for the first), or ``None``: a round dealt from its seed."""
        return self.deals[index] if index < len(self.deals) else None

    def tally(self) -> MatchTally:
        """The match so far as the match hooks see it."""
        rules = self.variant.rules.rounds
        return MatchTally(
            players=self.players,
            scores=tuple(tuple(r) for r in self.scores),
            winners=tuple(tuple(w) for w in self.won),
            adjustments=tuple(tuple(a) for a in self.adjust),
            first_players=tuple(self.firsts),
            form=rules.form,
            limit=rules.limit,
            results=tuple(self.results),
        )

    def _ask(self, name: str, **kwargs: Any) -> tuple[Any, str]:
        hook = getattr(rulebook(self.variant).pm.hook, name)
        return first_result(hook, variant=self.variant, **kwargs)

    def _next_first(self) -> int:
        answer, plugin = self._ask("tamalou_round_first_player", match=self.tally())
        if answer is None:
            return (self.firsts[-1] + 1) % self.players
        if type(answer) is not int or not 0 <= answer < self.players:
            raise PluginError(
                f"returned {answer!r}, expected a seat from 0 to {self.players - 1}",
                plugin=plugin,
                hook="tamalou_round_first_player",
            )
        return answer

    def _adjustment(self, result: Any) -> list[int]:
        """What the match's rules add to each cumulative total after the round just scored."""
        answer, plugin = self._ask("tamalou_match_adjust", match=self.tally(), result=result)
        if answer is None:
            return [0] * self.players
        if not isinstance(answer, Sequence) or len(answer) != self.players or not all(type(x) is int for x in answer):
            raise PluginError(
                f"returned {answer!r}, expected one integer per player", plugin=plugin, hook="tamalou_match_adjust"
            )
        return list(answer)

    @property
    def round(self) -> int:
        """The number of the round in play (0 for the first)."""
        return len(self.round_seeds) - 1

    @property
    def is_over(self) -> bool:
        """Whether the match is decided (after ``next_round`` scored its last round)."""
        return self._decided()

    @property
    def ends_with_this_round(self) -> bool:
        """Whether the match ends with the round in play: ``True`` once that round is over and scoring it
        ends the match (``next_round`` then deals no other round), and still ``True`` after it is scored;
        ``False`` while the round is played, and once it is over if another round follows it.

        For the 'single' form every round ends its match; for 'fixed' and 'wins', the ``count``-th round;
        for 'points', the round after which a cumulative score (the match's adjustments included) passes
        ``limit``, or the ``max_rounds``-th. It asks the match's hooks (``tamalou_match_adjust``) as
        ``next_round`` would, and scores nothing. A server pauses between rounds so that players read a
        round's result before the next deal; with this it scores the last round at once, so that the
        end of the match is announced with it."""
        if not self.game.is_over:
            return False
        if len(self.history) == len(self.round_seeds):  # the round in play is scored
            return self._decided()
        return self._decided_after_scoring()

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
        result = self.game.result()
        probe.scores = [*self.scores, list(result.scores)]
        probe.won = [*self.won, list(result.winners)]
        probe.adjust = list(self.adjust)
        probe.firsts = list(self.firsts)
        probe.results = [*self.results, result]
        probe.adjust.append(probe._adjustment(result))
        return probe._decided()

    def totals(self) -> list[int]:
        """Cumulative scores so far, adjustments included ('wins' form: rounds won so far)."""
        if self.variant.rules.rounds.form == "wins":
            return self.wins()
        return [sum(r[p] for r in self.scores) + sum(a[p] for a in self.adjust) for p in range(self.players)]

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
        self.results.append(result)
        try:
            self.adjust.append(self._adjustment(result))
        except PluginError:
            self.scores.pop()
            self.won.pop()
            self.results.pop()
            raise
        self.history.append(list(self.game.actions))
        if not self._decided():
            self.game = self._deal()

    def result(self) -> MatchResult:
        """The match's result. Raises ``GameStateError`` before the match is over."""
        if not self.is_over:
            raise GameStateError("the match is not over")
        form = self.variant.rules.rounds.form
        totals = self.totals()
        ranking = self._ranking(totals)
        return MatchResult(
            rounds=[list(r) for r in self.scores],
            totals=totals,
            wins=self.wins(),
            winners=ranking[0],
            ranking=ranking,
            form=form,
            adjustments=[list(a) for a in self.adjust],
            first_players=list(self.firsts),
            results=list(self.results),
        )

    def _ranking(self, totals: list[int]) -> list[list[int]]:
        answer, plugin = self._ask("tamalou_match_rank", match=self.tally())
        if answer is None:
            best_first = sorted(set(totals), reverse=self.variant.rules.rounds.form == "wins")
            return [[p for p in range(self.players) if totals[p] == t] for t in best_first]
        flat = [p for place in answer for p in place] if isinstance(answer, Sequence) else None
        if (
            flat is None
            or not all(isinstance(place, Sequence) and place for place in answer)
            or not all(type(p) is int for p in flat)
            or sorted(flat) != list(range(self.players))
        ):
            raise PluginError(
                f"returned {answer!r}: expected places (lists of players), every player "
                f"0..{self.players - 1} exactly once",
                plugin=plugin,
                hook="tamalou_match_rank",
            )
        return [list(place) for place in answer]

    @property
    def actions(self) -> list[list[Action]]:
        """The actions of every round: the scored ones, then the one in play (if not scored)."""
        done = [list(r) for r in self.history]
        if len(self.history) < len(self.round_seeds):
            done.append(list(self.game.actions))
        return done

    def events_so_far(self, player: object = None) -> list[Event]:
        """Every event of the match so far, round after round, as ``player`` may see it (all of it with
        ``None``: not for a player's eyes). Raises ``IllegalAction`` for a seat that is not at the table.

        Each round begins with its deal: the events of ``new_game`` (the deal-time events and the
        opening, what ``Game.events_so_far`` gives for a round just dealt), then those of its actions.
        So the list is, round after round, what the round's deal gave and then what each ``apply`` of
        that round returned; scoring a round adds no event. The match keeps no events: a scored
        round is played again from its seed (or its stacked deal), its first player and its actions
        (``round_seeds``, ``deals``, ``firsts``, ``history``), the round in play by
        ``game.events_so_far``: exact, and O(actions of the match). Call it when a seat joins or comes
        back; forward what ``apply`` returns step by step, and a new round's ``game.events_so_far()``
        after ``next_round``."""
        if player is not None and not round_of(self.game).player_ok(player):
            raise IllegalAction(f"no player {player!r} in a {self.players}-player game")
        events: list[Event] = []
        for i in range(len(self.history)):
            self.scored_round(i, events)
        if len(self.history) < len(self.round_seeds):
            events.extend(self.game.events_so_far())
        return events if player is None else [e.for_player(player) for e in events]

    # ---------------------------------------------------------------- snapshots

    def to_json(self) -> str:
        """The whole match (scores, generator, the round in play) as compact JSON; ``Match.from_json``
        restores it exactly.

        Made for a server that saves the match after every action: it costs about what the round in
        play's ``game.to_json()`` costs, whatever the number of rounds before it. A scored round never
        changes, so its log is encoded once and kept; the variant's JSON too (a variant is immutable);
        the round in play's JSON is put in as ``game.to_json()`` gives it."""
        texts = self._texts
        middle = json.dumps(
            {
                "players": self.players,
                "seed": self.seed,
                "rng": self.rng.state,
                "first_player": self.first_player,
                "scores": self.scores,
                "won": self.won,
                "adjust": self.adjust,
                "firsts": self.firsts,
                "round_seeds": self.round_seeds,
            },
            separators=(",", ":"),
        )
        # The very text of json.dumps() of the whole state with these keys in this order: a dict's
        # JSON is its members' JSON joined by commas, so the parts are joined as they are. The stacked
        # deals are there only when there are some (a match dealt from its seed is saved as before them).
        return "".join(
            (
                f'{{"v":{MATCH_SNAPSHOT_VERSION},"variant":',
                texts.variant(self.variant),
                ",",
                middle[1:-1],
                texts.deals(self.deals),
                ',"results":',
                texts.results(self.results),
                ',"history":',
                texts.history(self.history),
                ',"game":',
                self.game.to_json(),
                "}",
            )
        )

    @classmethod
    def from_json(
        cls,
        data: str,
        variant: Variant | None = None,
        *,
        allow_plugins: bool | Iterable[str] | None = None,
        trusted: bool = False,
        max_chars: int | None = None,
    ) -> Match:
        """Restore a match from ``to_json`` (checked whole, as ``Game.from_json`` checks a game's;
        ``allow_plugins`` as there). Raises ``SnapshotError`` for anything that is not such a snapshot.

        **By default the snapshot is one from outside** (a client, a file you did not write): the match is
        replayed from its seed and every round's actions and must be the same, or ``SnapshotError`` (so a
        knowledge bit or a past score edited in is refused). The replay comes first and stops at the first
        action that is not the match's, and the text is capped at ``max_chars`` (default
        ``engine.snapshot.OUTSIDE_TEXT``, 32 million characters), so a hostile text costs what it holds. A
        replay costs 2 to 3 times the restore (a 12-round match of random play: 9 ms against 4.5 ms for
        French with 6 players, 25 ms against 10 ms for tamalou-fun with 5).

        ``trusted=True`` is for **your own snapshots** (a server restoring what it saved itself): every
        consistency check, no replay, the cap ``engine.snapshot.MAX_TEXT``; the match restored can be played
        on, but an edited snapshot is not detected."""
        from .engine.snapshot import read, resolve_variant, text_cap

        state = read(data, MatchShape, MATCH_SNAPSHOT_VERSION, "match snapshot", text_cap(trusted, max_chars))
        if variant is None:
            variant = resolve_variant(state["variant"], allow_plugins)
        again = None if trusted else cls._replayed(state, variant)
        try:
            m = cls._restore(state, variant)
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
            if isinstance(exc, SnapshotError):
                raise
            raise SnapshotError(f"damaged match snapshot: {type(exc).__name__}: {short(str(exc), 200)}") from None
        if again is not None and again.to_json() != m.to_json():
            raise SnapshotError("the match snapshot is not the match its seed and actions make")
        return m

    @classmethod
    def _replayed(cls, state: dict[str, Any], variant: Variant) -> Match:
        """The match a snapshot's seed, deals and logs make, replayed action by action (``SnapshotError`` at the
        first action that is not legal there: a hostile log costs what is read of it)."""
        from .engine.snapshot import match_deals, uncompact

        players = state["players"]
        history, game = state["history"], state["game"]
        if not variant.rules.players.min <= players <= variant.rules.players.max:
            raise SnapshotError(f"{players} players: {variant.name} is played by other counts")
        try:
            deck = rulebook(variant).deck_for(players)
            deals = match_deals(state.get("deals"), deck, players, variant.rules.rounds.most)
            again = Match(variant, players, seed=state["seed"], deals=deals)
            logs = [*history, game.get("actions", [])] if len(history) < len(state["round_seeds"]) else history
            for i, log in enumerate(logs):
                if i > 0:
                    again.next_round()
                for item in log:
                    again.game.apply(uncompact(item))
            if len(logs) == len(history) and history:
                again.next_round()
        except SnapshotError:
            raise
        except TamalouError as exc:
            raise SnapshotError(f"the match snapshot's actions do not replay: {short(str(exc), 300)}") from None
        except (KeyError, TypeError, ValueError, IndexError, OverflowError, AttributeError) as exc:
            raise SnapshotError(f"damaged match snapshot: {type(exc).__name__}: {short(str(exc), 200)}") from None
        return again

    def __copy__(self) -> Match:
        """An independent copy of the match (``copy.copy`` and ``copy.deepcopy`` give the same: the variant is
        shared, as it is immutable; everything else is copied)."""
        m = Match.__new__(type(self))
        m.variant = self.variant
        m.players = self.players
        m.seed = self.seed
        m.rng = Rng(0)
        m.rng.state = self.rng.state
        m.first_player = self.first_player
        m.scores = [list(r) for r in self.scores]
        m.won = [list(r) for r in self.won]
        m.adjust = [list(r) for r in self.adjust]
        m.firsts = list(self.firsts)
        m.results = list(self.results)  # (a Result is never changed)
        m.history = [list(r) for r in self.history]  # (actions are immutable)
        m.round_seeds = list(self.round_seeds)
        m.deals = self.deals  # (never changed)
        m._texts = MatchTexts()
        m.game = self.game.copy()
        return m

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        m = self.__copy__()
        memo[id(self)] = m
        return m

    @classmethod
    def _restore(cls, state: dict[str, Any], variant: Variant) -> Match:
        from .engine.snapshot import match_deals, uncompact

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
        # Added after version 1 began: an older snapshot has no adjustments (zeros) and its first
        # players moved one seat each round.
        adjust = state.get("adjust")
        if adjust is None:
            adjust = [[0] * players for _ in state["scores"]]
        firsts = state.get("firsts")
        if firsts is None:
            firsts = [(state["first_player"] + k) % players for k in range(rounds)]
        if len(adjust) != len(state["scores"]) or any(len(a) != players for a in adjust):
            raise SnapshotError("damaged match snapshot: adjustments do not fit the rounds and players")
        if len(firsts) != rounds or not all(0 <= f < players for f in firsts) or firsts[0] != state["first_player"]:
            raise SnapshotError("damaged match snapshot: first players do not fit the rounds and players")
        m = cls.__new__(cls)
        m.variant = variant
        m.players = state["players"]
        m.seed = state["seed"]
        m.rng = Rng(0)
        m.rng.state = state["rng"]
        m.first_player = state["first_player"]
        m.scores = state["scores"]
        m.won = state["won"]
        m.adjust = adjust
        m.firsts = firsts
        m.round_seeds = state["round_seeds"]
        m.deals = match_deals(
            state.get("deals"), rulebook(variant).deck_for(players), players, variant.rules.rounds.most
        )
        m.history = [[uncompact(a) for a in r] for r in state["history"]]
        m.results = m._scored_results(state.get("results"))
        m._texts = MatchTexts()
        m.game = Game.from_json(json.dumps(state["game"]), variant, trusted=True)
        if m.game.players != players:
            raise SnapshotError("damaged match snapshot: the round in play has another number of players")
        if round_of(m.game).first_player != firsts[-1]:
            raise SnapshotError("damaged match snapshot: the round in play has another first player")
        if round_of(m.game).deal_spec != m._stacked(rounds - 1):
            raise SnapshotError("damaged match snapshot: the round in play is not dealt as the match deals it")
        return m

    def scored_round(self, index: int, events: list[Event] | None = None) -> Round:
        """Scored round ``index`` (0 for the first) played again from its seed (or its stacked deal), its first player
        and its actions (``round_seeds``, ``deals``, ``firsts``, ``history``); with ``events``, what its deal and
        each action gave are appended to it."""
        again = Round(
            self.variant, self.players, seed=self.round_seeds[index], deal=self._stacked(index),
            first_player=self.firsts[index],
        )  # fmt: skip
        dealt = again.start()
        if events is not None:
            events.extend(dealt)
        for a in self.history[index]:
            applied = again.apply(a)
            if events is not None:
                events.extend(applied)
        return again

    def _scored_results(self, saved: list[dict[str, Any]] | None) -> list[Result]:
        """The scored rounds' results of a snapshot: as saved, checked against the scores and winners it keeps;
        a snapshot older than them (no ``results``) has its rounds played again from their seeds and logs."""
        if saved is None:
            results = [self.scored_round(i).result() for i in range(min(len(self.history), len(self.round_seeds)))]
        else:
            results = [Result.model_validate(r) for r in saved]
        if len(results) != len(self.scores) or any(
            r.scores != s or r.winners != w for r, s, w in zip(results, self.scores, self.won, strict=False)
        ):
            raise SnapshotError("damaged match snapshot: the rounds' results do not fit their scores")
        return results


def new_match(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int | None = None,
    deals: Sequence[dict[str, Any]] | None = None,
) -> Match:
    """Start a match of rounds (``rules.rounds`` says its form; a single round by default): each round
    shuffled with a seed drawn from ``seed`` (a fresh one, kept in ``match.seed``, if ``None``), or stacked
    (``deals``).

    ``deals`` stacks the first rounds, for a scenario test of a match: round ``i`` (0 for the first) is laid
    out as ``deals[i]``, a stacked deal as ``new_game``'s ``deal`` takes one (``hands``, one list of cards per
    seat, slot 0 first; ``stock`` top first; ``discard`` bottom first; a missing pile is empty). The first
    player of each round is still the match's (``rules.deal.first_player``, then one seat on each round, or
    the ruleset's hook): ``match.firsts`` says who. Every deal is checked before anything is dealt, as
    ``new_game`` checks its ``deal``; the first wrong one is a ``SetupError`` that names it (``deals[1], the
    deal of the 2nd round: the deal does not fit the variant's deck: card AS appears 2 times but the deck
    holds it once``), and so are more deals than the match may have rounds (``rules.rounds``: 1, ``count``
    or ``max_rounds`` by its form) or than 100 (``engine.deal.MAX_STACKED_DEALS``).

    Past the last stacked deal, the rounds are dealt from the seed, as without ``deals``: every round's seed
    is drawn from the match's generator, a stacked round's too, so round ``k`` after the stacked ones is the
    very round ``k`` of ``new_match(variant, players, seed=seed)``. Deals for rounds the match never reaches
    (a 'points' match over its limit sooner) are checked all the same, and never dealt. The deals are the match's
    (``match.deals``, written as a snapshot keeps them: every pile, each card as the deck writes it):
    ``to_json`` saves them (only when there are some) and ``Match.from_json`` restores a match that goes on
    dealing them, as ``copy.deepcopy``, pickling, ``events_so_far`` and ``replay_match(..., deals=...)`` do."""
    v = as_variant(variant)
    if not v.rules.players.min <= players <= v.rules.players.max:
        raise SetupError(
            f"{v.name} is played by {v.rules.players.min} to {v.rules.players.max} players, got {players!r}"
        )
    return Match(v, players, seed=seed, deals=deals)


def replay_match(
    variant: Variant | str | Sequence[str],
    players: int,
    *,
    seed: int,
    actions: Iterable[Iterable[Action | dict[str, Any]]],
    deals: Sequence[dict[str, Any]] | None = None,
) -> Match:
    """Rebuild a match from its seed and the actions of each round (``match.actions``), on its stacked
    ``deals`` if it had some (``match.deals``; ``new_match`` says how they are dealt).

    A finished round is scored when another round's log follows it, or when scoring it decides the
    match (so a match whose last round ended but was not yet scored comes back scored)."""
    m = new_match(variant, players, seed=seed, deals=deals)
    for i, round_actions in enumerate(actions):
        if i > 0:
            m.next_round()
        for a in round_actions:
            m.game.apply(a)
    if m.game.is_over and len(m.history) < len(m.round_seeds) and m._decided_after_scoring():
        m.next_round()
    return m
