"""Every hook of tamalou, in one place.

Rules that a TOML key can say are keys (see ``tamalou.schema``); rules that need code are hook
implementations. A plugin is any module or object with functions named after these hooks and
marked ``@tamalou.hookimpl``. The built-in rules are plugins too (``tamalou.plugins.defaults``,
registered ``trylast`` so that any other plugin overrides them).

Which plugins apply to a game: the built-in ones, then the modules a variant lists in
``plugins = [...]`` (a later one is asked first). A package installed with an entry point in the
group ``tamalou`` is loaded for discovery (``tamalou_variant_paths``) and applies its rule hooks
to the variants that name it.

Hooks marked *first result wins* are called one plugin at a time (the latest registered first)
and stop at the first implementation that returns something other than ``None``; returning
``None`` means "no opinion, ask the next one". The engine calls the card and threshold hooks once
per variant and caches the answers, so they must be pure functions of their arguments. Answers are
checked (a value that is not an integer, a ranking that leaves a player out): a wrong one is a
``VariantError`` at load or a ``PluginError`` at play, naming the plugin and the hook; a hook that
raises during ``apply`` leaves the game exactly as it was before the action.

Which mechanics and powers exist is asked with the "register" hooks ``tamalou_mechanics`` and
``tamalou_powers`` (as datasette's ``register_*`` hooks): every plugin's answers are collected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .cards import Card
    from .mechanic import Mechanic
    from .powers import CardPower
    from .schema import Variant
    from .views import PlayerView, Result

PROJECT = "tamalou"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@dataclass(frozen=True, slots=True)
class Tally:
    """The end of a round as the ranking hooks see it.

    ``totals[p]`` is player p's card total, ``card_counts[p]`` how many cards p holds,
    ``caller`` the player who called (``None`` if nobody did), ``threshold`` the call threshold,
    ``left`` the players who ran out of clock and left the round (ranked last), ``last_lap`` the player who
    began the round's last lap without a call (``Flow.begin_last_lap``; ``None`` if nobody did).
    """

    totals: tuple[int, ...]
    card_counts: tuple[int, ...]
    caller: int | None
    threshold: int
    left: tuple[int, ...] = ()
    #: Each player's cards at the end of the round, as text (``"12"``, ``"KS"``), in slot order (emptied
    #: slots left out). Empty only in a ``Tally`` built by hand (a test), never in one the engine builds.
    hands: tuple[tuple[str, ...], ...] = ()
    last_lap: int | None = None
    #: Each player's layout at the end of the round, slot by slot (slot 0 first), as text, an emptied slot as
    #: ``None``: where each card lies, for a rule by position (``rules.deal.grid`` gives the shape: slot ``s`` at
    #: row ``s // columns``, column ``s % columns``; slots past the grid, penalty cards, follow). A layout may be
    #: shorter or longer than the grid (verify's made-up ends of rounds): read a missing slot as emptied. Empty
    #: only in a ``Tally`` built by hand.
    layouts: tuple[tuple[str | None, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class TieBreak:
    """A named tie-break: among players with the same total, the one with the lower ``key(tally, player)``
    is placed first; players with equal keys stay tied for the next tie-break.

    ``name`` identifies it (two tie-breaks with one name count once: the first); ``description`` says it
    in words for ``tamalou show`` (e.g. "the caller loses ties"). ``key`` must be a pure function.

        FEWER_CARDS = TieBreak("fewer_cards", "fewer cards in front of you", lambda t, p: t.card_counts[p])
    """

    name: str
    description: str
    key: Callable[[Tally, int], Any]


@dataclass(frozen=True, slots=True)
class MatchTally:
    """A match of rounds as the match hooks see it (``tamalou.Match``), after a round was scored.

    Per scored round, oldest first: ``scores`` (the round's ``Result.scores``), ``winners`` (its
    ``Result.winners``) and ``adjustments`` (what ``tamalou_match_adjust`` added to each cumulative
    total after it; zeros when nothing). ``first_players`` is the first player of every round dealt
    so far. ``form`` and ``limit`` are ``rules.rounds``'s. ``results`` is each scored round's whole
    ``Result`` (who called, who began a last lap, why it ended, the card totals); ``callers``,
    ``last_laps``, ``reasons`` and ``enders`` read them, so that "the player who ended the previous round
    starts the next" is one line of ``tamalou_round_first_player``::

        @tamalou.hookimpl
        def tamalou_round_first_player(variant, match):
            return match.enders[-1] if match.enders else None  # None: the next seat, as by default
    """

    players: int
    scores: tuple[tuple[int, ...], ...]
    winners: tuple[tuple[int, ...], ...]
    adjustments: tuple[tuple[int, ...], ...]
    first_players: tuple[int, ...]
    form: str = "fixed"
    limit: int = 100
    results: tuple[Result, ...] = ()

    @property
    def callers(self) -> tuple[int | None, ...]:
        """Per scored round, who called (``None``: nobody did)."""
        return tuple(r.caller for r in self.results)

    @property
    def last_laps(self) -> tuple[int | None, ...]:
        """Per scored round, who began its last lap without a call (``Result.last_lap``), or ``None``."""
        return tuple(r.last_lap for r in self.results)

    @property
    def reasons(self) -> tuple[str, ...]:
        """Per scored round, why it ended (``Result.reason``: 'called', 'turn_limit'...)."""
        return tuple(r.reason for r in self.results)

    @property
    def enders(self) -> tuple[int | None, ...]:
        """Per scored round, who ended it: the caller, else who began its last lap, else ``None`` (the
        round ended by itself: a turn limit, an empty stock)."""
        return tuple(r.caller if r.caller is not None else r.last_lap for r in self.results)

    def raw_totals(self) -> list[int]:
        """Cumulative round scores, adjustments left out."""
        return [sum(r[p] for r in self.scores) for p in range(self.players)]

    def totals(self) -> list[int]:
        """Cumulative totals: round scores plus adjustments."""
        raw = self.raw_totals()
        return [raw[p] + sum(a[p] for a in self.adjustments) for p in range(self.players)]


# --- discovery -----------------------------------------------------------------------------


@hookspec
def tamalou_variant_paths() -> Sequence[Any]:  # type: ignore[empty-body]
    """Return paths of TOML variant files (or folders of them) this plugin provides.

    All results are collected: every plugin may add variants. Called on the plugins loaded for
    discovery (the built-ins and the entry-point group ``tamalou``).
    """


# --- what the rules are made of --------------------------------------------------------------


@hookspec
def tamalou_powers() -> Sequence[type[CardPower]]:  # type: ignore[empty-body]
    """Return card power classes (subclasses of ``tamalou.CardPower``) this plugin provides.

    All results are collected: the powers a variant may name in ``rules.powers`` are those of the
    built-in plugin ``tamalou.plugins.powers`` plus its own plugins'. Two powers with one name are an
    error at load.
    """


@hookspec
def tamalou_mechanics() -> Sequence[type[Mechanic]]:  # type: ignore[empty-body]
    """Return mechanic classes (subclasses of ``tamalou.Mechanic``) this plugin provides.

    All results are collected; each class's ``wanted(variant)`` says whether it plays a part in a
    variant. The built-in mechanics (matching, powers, the call...) come from
    ``tamalou.plugins.mechanics`` through this same hook.
    """


# --- cards ---------------------------------------------------------------------------------


@hookspec(firstresult=True)
def tamalou_card_value(variant: Variant, card: Card) -> int | None:
    """Return the points ``card`` scores under ``variant``. First result wins; ``None``: no opinion.

    The default reads ``rules.values.cards`` then ``rules.values.ranks``.
    """


@hookspec(firstresult=True)
def tamalou_card_power(variant: Variant, card: Card) -> str | None:
    """Return the name of the power of ``card`` (a registered power, see ``tamalou_powers``;
    ``"none"`` for no power). First result wins; ``None``: no opinion.

    The default reads ``rules.powers.cards`` then ``rules.powers.ranks``.
    """


@hookspec(firstresult=True)
def tamalou_same_kind(variant: Variant, thrown: Card, top: Card) -> bool | None:
    """Return whether ``thrown`` matches the discard top ``top``. First result wins.

    The default compares ranks (or points, with ``rules.matching.by = "value"``).
    """


# --- the call ------------------------------------------------------------------------------


@hookspec(firstresult=True)
def tamalou_call_threshold(variant: Variant) -> int | None:
    """Return the total at or under which a call is right. First result wins.

    The default reads ``rules.call.threshold``.
    """


@hookspec(firstresult=True)
def tamalou_call_allowed(variant: Variant, view: PlayerView) -> bool | None:
    """Return whether ``view.player`` may call now, given that the phase offers a call at all.

    ``view`` is the would-be caller's own view: the answer can depend only on what they may see
    (never on their hidden total: offering the call only at a low total would leak it). Asked both
    when actions are listed and when a call is applied, so a listed call is always accepted.
    First result wins; ``None``: no opinion (the call is allowed).
    """


# --- the end of a round --------------------------------------------------------------------


@hookspec
def tamalou_tiebreaks(variant: Variant) -> Sequence[TieBreak] | None:
    """Return tie-breaks (``tamalou.TieBreak``) to *add* to the ruleset's ranking.

    All results are collected, in the order the plugins apply: the ruleset's own first (the keys of
    ``rules.end.ties``, then the plugins of the variant it extends), then the plugins it lists, in
    order. So a house rule adds a tie-break after the ones of its base instead of replacing its
    ranking (French's "the caller loses ties" stays). ``None`` or ``[]``: nothing to add. Asked once
    per variant; the tie-breaks are passed to ``tamalou_rank`` as ``tiebreaks``.
    """


@hookspec(firstresult=True)
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]] | None:
    """Return the ranking: a list of places, best first, each a list of tied players.

    First result wins: a plugin answering this *replaces* the ranking (to only break ties, implement
    ``tamalou_tiebreaks`` instead). ``tiebreaks`` are every plugin's tie-breaks, in order; a ranking
    hook should apply them, e.g. with ``tamalou.rank_by_total(tally, tiebreaks)``, so that house
    tie-breaks still count. The default: players who left the round last, the others by total, the
    tie-breaks applied in order; players still equal share a place.
    """


@hookspec(firstresult=True)
def tamalou_winners(variant: Variant, tally: Tally, ranking: list[list[int]]) -> list[int] | None:
    """Return the winners of the round (may be empty). First result wins.

    The default: the first place, keeping only totals at or under ``rules.end.win_max``.
    """


@hookspec(firstresult=True)
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    """Return what each player scores for the round in a match of rounds. First result wins.

    The default: each player's card total.
    """


# --- a match of rounds ---------------------------------------------------------------------
# Asked by ``tamalou.Match`` between rounds (never during a round's play).


@hookspec(firstresult=True)
def tamalou_match_adjust(variant: Variant, match: MatchTally, result: Result) -> list[int] | None:
    """Return what to add to each player's cumulative total after the round whose ``result`` was just
    scored (negative: subtracted), e.g. a placement bonus or a reset of an exact total.

    ``match`` already holds that round (its scores and winners; its own adjustments are still missing
    from ``match.adjustments``, so ``match.totals()`` is the total before this adjustment). The answer
    is kept in the match (and its snapshot), so earlier adjustments are never asked again.
    First result wins; ``None``: no opinion (nothing is added). The default adds nothing.
    """


@hookspec(firstresult=True)
def tamalou_match_rank(variant: Variant, match: MatchTally) -> list[list[int]] | None:
    """Return the ranking of a decided match: places, best first, each a list of tied players (the
    first place wins). First result wins; ``None``: no opinion.

    The default: by cumulative total (``match.totals()``), lowest first ('wins' form: most rounds won
    first); equal totals share a place.
    """


@hookspec(firstresult=True)
def tamalou_round_first_player(variant: Variant, match: MatchTally) -> int | None:
    """Return the seat that plays first in the next round (asked for every round after the first;
    ``match.first_players`` holds those of the rounds dealt so far). First result wins; ``None``: no
    opinion. The default: the seat after the previous round's first player.
    """
