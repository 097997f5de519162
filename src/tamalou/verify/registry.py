"""Every invariant by its stable name, and every state check at once.

Every invariant has a stable name, a one-line description and a check taking just a game, in
``INVARIANTS`` (``INVARIANTS["no_leak"](game)`` checks every seat); ``tamalou verify`` counts checks
and failures by these names, and a counterexample names the one that broke:

- ``conservation``: every card of the universe is in exactly one place (a slot, the stock, the
  discard, or held);
- ``knowledge``: the discard is public, the holder knows the held card, everything is revealed at
  the end;
- ``knowledge_events``: a seat learns a card only from an event that shows it to them, and knows
  every card an event shows them (the knowledge marks follow what each seat was told);
- ``knowledge_follows_moves``: a card a seat knows that changes place stays known to it only if an
  event it received names the new place;
- ``no_leak``: exchanging two cards a player does not know changes neither their view nor their
  legal actions (the call included: their own unknown cards given the lowest, then the highest,
  faces they do not know are always tried, so a rule decided on their hidden total shows); a card every
  seat once saw (thrown, then reshuffled into the stock) is not exchanged with one nobody saw: its face is
  public history;
- ``event_leak``: exchanging two cards a seat knows neither before nor after a step changes nothing of
  the step's events as that seat receives them;
- ``opaque_ids``: no seat receives a card's id (two such cards exchanging their ids change nothing it
  receives);
- ``event_schema``: an event's seat, slot and card fields name a real seat, a slot of that seat's
  layout and a card of the deck;
- ``hints``: every hint the bots play by (``tamalou.powers``: a power's ``hint`` and ``next_hint``, a mechanic's
  ``hint`` and ``place_worth``), asked at a state what a bot would ask there, answers ``None`` or a finite
  number and raises nothing (``checks_hints``);
- ``events_kept``: every event of a game is, at its end, as it was sent (a mechanic kept no hold on a
  list or a dict it put in one), and holds at most 1,000 characters of JSON and 20 per card of the game
  (``checks_sent``);
- ``listed_accepted``: every listed action is complete and accepted; somebody may act until the end;
- ``listing_complete``: an action ``apply`` accepts is listed (a multi-card match as its one-card
  matches);
- ``refusals``: a refused action raises ``IllegalAction``, nothing else, and leaves the game
  byte-identical;
- ``snapshot``: ``from_json(to_json())`` is the same game and plays on identically;
- ``no_crash``: no listing, view, listed action or result raises (a plugin's hook included: the
  engine turns its exception into ``PluginError``);
- ``termination``: a round ends: no turn takes more than ``turn_bound`` actions or comes back to a
  state it was in (a cycle), none is played past ``rules.end.max_turns``, and the round takes fewer
  than ``step_bound`` actions;
- ``determinism``: a game played again in a fresh process, under another ``PYTHONHASHSEED``, is the
  same game (checked once per run, on every game of the run);
- ``replay``: ``tamalou.replay`` of the seed and actions rebuilds the same game;
- ``result``: a finished round's result is consistent (totals, every player ranked once, winners
  first, one score each);
- ``end_hooks``: the hooks that judge the end of a round (ranking, tie-breaks, winners, scores) answer
  rightly on made-up ends of rounds too: ties at every total, zero totals, emptied layouts, every player
  count (``tallies.check_end_hooks``, once per run);
- ``match``: for a ruleset of several rounds, the whole match dealt from a game's seed: its totals add up, it ends
  as its form says, its hooks' answers are sound, its snapshot and replay are the same match (``match_check``);
- ``slot_order``: the result does not change when a player's cards are put in other slots of their
  layout (a ranking or scoring rule reads cards, not where they lie).

``check_all`` runs every state check on one game (what ``play_out`` checks every ``check_every`` steps).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine import Round
from ..engine.game import Game, round_of
from .checks_actions import (
    check_accepted_is_listed,
    check_illegal_leaves_state,
    check_legal_actions_accepted,
    check_listing_complete,
    check_no_crash,
    check_refusals,
    random_action,
)
from .checks_cards import check_conservation, check_slot_order
from .checks_events import check_event_leaks, check_events_of_round, check_opaque_ids
from .checks_hints import check_hints
from .checks_knowledge import check_knowledge, check_knowledge_events, check_no_leak
from .checks_round import check_replay, check_result, check_snapshot_roundtrip, check_termination
from .checks_sent import check_events_kept
from .determinism import PROCESSES, check_determinism
from .match_check import check_match
from .tallies import check_end_hooks
from .violation import check_rng


def check_all(game: Game | Round, rng: random.Random | None = None, *, pairs: int = 8, fuzz: int = 3) -> None:
    """Every state check at once: conservation, knowledge, no leak for every player (``pairs``
    exchanges each), every listed action accepted (and none crashing), ``fuzz`` random actions
    refused cleanly or listed, and the snapshot round trip. Samples are drawn with ``rng``
    (default: seeded from the game, so the same state is checked the same way). ``game`` is not
    changed.

    >>> from tamalou import new_game
    >>> check_all(new_game("french", players=3, seed=1))
    """
    game = round_of(game)
    rng = rng if rng is not None else check_rng(game, "all")
    check_conservation(game)
    check_knowledge(game)
    for p in range(game.players):
        check_no_leak(game, p, rng, pairs=pairs)
    snapshot = game.to_json()
    check_legal_actions_accepted(game, snapshot=snapshot)
    for _ in range(fuzz):
        action = random_action(game, rng)
        if not check_illegal_leaves_state(game, action, snapshot=snapshot) and isinstance(action, dict):
            check_accepted_is_listed(game, action)
    check_snapshot_roundtrip(game, rng, steps=2, variant=game.variant, snapshot=snapshot)


# ----------------------------------------------------------------------------- the invariants by name


@dataclass(frozen=True)
class Invariant:
    """One invariant: its stable ``name`` (a key of ``INVARIANTS``, used by ``tamalou verify``'s table
    and by counterexamples), a one-line ``description``, and ``when`` ``tamalou verify`` checks it:
    ``"step"`` after every action, ``"sample"`` at sampled states of each game, ``"end"`` on each
    finished round, ``"game"`` over the whole game (it counts actions), ``"run"`` once per run, over
    its games or the ruleset itself (it starts processes, or tries many cases), ``"match"`` on the whole match
    dealt from a game's seed, for a ruleset of several rounds (``match_check``).

    Call it with a game (and optionally a ``random.Random``; default: seeded from the game, so the
    same state is checked the same way): it raises ``InvariantViolation`` or returns ``None``.
    ``thorough=True`` samples more (more pairs, more random actions, more steps, more orders),
    always including what the plain check samples: ``tamalou verify`` uses it to shrink and replay a
    counterexample. An ``"end"`` invariant needs a finished round. ``before_rare``: a ``"sample"``
    invariant also checked at the states before the rarer actions of a game (a power, a give, a plugin's
    own move: ``game_check.COMMON_ACTIONS`` are the others), where what a plugin does shows.

    >>> from tamalou import new_game
    >>> INVARIANTS["no_leak"](new_game("french", players=3, seed=1))
    """

    name: str
    description: str
    when: str
    check: Callable[[Round, random.Random, bool], None] = field(repr=False, compare=False)
    before_rare: bool = False

    def __call__(self, game: Round, rng: random.Random | None = None, *, thorough: bool = False) -> None:
        self.check(game, rng if rng is not None else check_rng(game, self.name), thorough)


def _each_player(
    check: Callable[[Round, int, random.Random, bool], None],
) -> Callable[[Round, random.Random, bool], None]:
    """A check of one seat, for every seat, each with its own generator (so a thorough check samples
    a superset of the plain one for every seat)."""

    def run(game: Round, rng: random.Random, thorough: bool) -> None:
        seeds = [rng.getrandbits(64) for _ in range(game.players)]
        for p in range(game.players):
            check(game, p, random.Random(seeds[p]), thorough)

    return run


#: How many actions and pairs of cards ``event_leak`` and ``opaque_ids`` try per state: plain, thorough.
_RECEIVED = {False: {"actions": 2, "pairs": 2}, True: {"actions": 8, "pairs": 6}}


class _Invariants(dict[str, Invariant]):
    """Every invariant by its stable name (``Invariant``: a one-line description and a check taking a
    game): the rows of ``tamalou verify``'s table, in order, and what a counterexample names."""


INVARIANTS: dict[str, Invariant] = _Invariants(
    (inv.name, inv)
    for inv in (
        Invariant(
            "conservation",
            "every card is in exactly one place: a slot, the stock, the discard or held",
            "step",
            lambda g, rng, thorough: check_conservation(g),
        ),
        Invariant(
            "knowledge",
            "the discard is known to all, a held card to its holder, every card at the end",
            "sample",
            lambda g, rng, thorough: check_knowledge(g),
        ),
        Invariant(
            "knowledge_events",
            "a seat learns a card only from an event shown to it, and knows every card shown to it",
            "step",
            lambda g, rng, thorough: check_knowledge_events(g),
        ),
        Invariant(
            "knowledge_follows_moves",
            "a card a seat knows that changes place stays known only if an event it received names the new place",
            "step",
            lambda g, rng, thorough: check_events_of_round(g, schema=False),
        ),
        Invariant(
            "no_leak",
            "exchanging two cards a seat does not know changes neither its view nor its legal actions",
            "sample",
            _each_player(lambda g, p, rng, thorough: check_no_leak(g, p, rng, pairs=48 if thorough else 8)),
        ),
        Invariant(
            "event_leak",
            "exchanging two cards a seat knows neither before nor after a step changes no event it receives",
            "sample",
            lambda g, rng, thorough: check_event_leaks(g, rng, **_RECEIVED[thorough]),
            before_rare=True,
        ),
        Invariant(
            "opaque_ids",
            "no seat receives a card's id: two cards it does not know exchanging ids change no event it receives",
            "sample",
            lambda g, rng, thorough: check_opaque_ids(g, rng, **_RECEIVED[thorough]),
            before_rare=True,
        ),
        Invariant(
            "event_schema",
            "an event's seat, slot and card fields name a real seat, a slot of its layout, a card of the deck",
            "step",
            lambda g, rng, thorough: check_events_of_round(g, moves=False),
        ),
        Invariant(
            "events_kept",
            "an event stays as it was sent, and holds at most 1,000 characters of JSON and 20 a card of the game",
            "game",
            lambda g, rng, thorough: check_events_kept(g),
        ),
        Invariant(
            "listed_accepted",
            "every listed action is complete and accepted; somebody may act until the end",
            "sample",
            lambda g, rng, thorough: check_legal_actions_accepted(g, limit=None if thorough else 16, rng=rng),
        ),
        Invariant(
            "listing_complete",
            "an action apply accepts is listed",
            "sample",
            lambda g, rng, thorough: check_listing_complete(g, rng, actions=24 if thorough else 3),
        ),
        Invariant(
            "refusals",
            "a refused action raises IllegalAction and leaves the game unchanged",
            "sample",
            lambda g, rng, thorough: check_refusals(g, rng, actions=24 if thorough else 3),
        ),
        Invariant(
            "hints",
            "every hint the bots play by (a power's, a mechanic's, place_worth) answers a number or None, never raises",
            "sample",
            lambda g, rng, thorough: check_hints(g),
        ),
        Invariant(
            "snapshot",
            "from_json(to_json()) is the same game and plays on identically",
            "sample",
            lambda g, rng, thorough: check_snapshot_roundtrip(g, rng, steps=6 if thorough else 2, variant=g.variant),
        ),
        Invariant(
            "no_crash",
            "no listing, view, listed action or result raises (a plugin's hook included)",
            "step",
            lambda g, rng, thorough: check_no_crash(g),
        ),
        Invariant(
            "termination",
            "the round ends: no turn over turn_bound actions or in a cycle, max_turns turns, step_bound actions",
            "game",
            lambda g, rng, thorough: check_termination(g, rng),
        ),
        Invariant(
            "determinism",
            "a game played again in a fresh process, under another PYTHONHASHSEED, is the same game",
            "run",
            lambda g, rng, thorough: check_determinism(g, processes=PROCESSES if thorough else 1),
        ),
        Invariant(
            "replay",
            "replaying the seed and the actions rebuilds the same game",
            "end",
            lambda g, rng, thorough: check_replay(g),
        ),
        Invariant(
            "result",
            "the result is consistent: totals, every player ranked once, winners first, one score each",
            "end",
            lambda g, rng, thorough: check_result(g),
        ),
        Invariant(
            "end_hooks",
            "the end-of-round hooks answer rightly on made-up ends: ties, zero totals, emptied layouts, every count",
            "run",
            lambda g, rng, thorough: _end_hooks(g),
        ),
        Invariant(
            "match",
            "a whole match (rulesets of several rounds): its totals add up, it ends as its form says, its hooks answer "
            "rightly, its snapshot and replay are the same match",
            "match",
            lambda g, rng, thorough: _match(g),
        ),
        Invariant(
            "slot_order",
            "the result does not change when a player's cards are put in other slots of their layout",
            "end",
            _each_player(lambda g, p, rng, thorough: _one_slot_order(g, p, rng, thorough)),
        ),
    )
)


def _match(game: Round) -> None:
    """The match dealt from ``game``'s seed, for its players, checked (each round's end with the ``"end"``
    invariants of a round)."""
    ends = {inv.name: inv for inv in INVARIANTS.values() if inv.when == "end" and inv.name != "replay"}
    check_match(game.variant, game.players, game.seed, ends=ends)


def _end_hooks(game: Round) -> None:
    check_end_hooks(game.variant, players=[game.players])


def _one_slot_order(game: Round, player: int, rng: random.Random, thorough: bool) -> None:
    check_slot_order(game, rng, permutations=8 if thorough else 3, players=[player])
