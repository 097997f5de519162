"""Accepted means restorable (issue 26): whatever a game or a match accepts, its snapshot restores.

Every value a ruleset, an action or a match may hold has a bound its schema states (``schema``: the bounds of a
ruleset's numbers; ``actions.MAX_TIME`` for an action's ``at``; ``engine.snapshot.MAX_TEXT`` for the text
``from_json`` reads), so that nothing the engine accepts is then refused by ``from_json``. Here:

- random games of every registered ruleset: random legal actions (out-of-turn matches included), actions stamped
  with an ``at`` drawn anywhere (the game's time, a deadline, far ahead, just below the bound and past it), ticks
  as far, and hostile actions; after every accepted action ``Game.from_json`` (with the variant, trusted and
  replayed, and by the name the snapshot holds) gives the same JSON; a refused action (``IllegalAction``)
  leaves the game as it was;
- random matches of every registered ruleset (a single-round ruleset composed with ``multi-round``), their first
  rounds stacked or not (``new_match(deals=...)``): rounds of random play, ``next_round`` between them,
  ``Match.from_json`` likewise mid-round, at each round's end and after each scoring;
- every registered ruleset at its extreme accepted values (the biggest table its deck allows, ``MAX_DEAL`` cards
  each, every time of ``rules.timing`` a year, 64 lockouts...), played and restored the same way, and its longest
  clock (a round of ``MAX_TURNS`` turns, each timed out after a year);
- the match snapshot cap (``MAX_TEXT``) and the longest legal match (``MAX_MATCH_TURNS`` turns) agree: measured on
  the worst play there is, a table of ``MAX_PLAYERS`` where every player throws every card they may on every thrown
  card, each action stamped with the longest time text, with the most stacked deals of the largest deck.

Every property is ``scaled`` (``tests/tiers.py``): a few derandomized examples a ruleset in the fast tier, many more
with ``--deep``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tamalou
from tamalou import Game, IllegalAction, Match, Variant
from tamalou import actions as actions_module
from tamalou.actions import Action, Call, MatchAction, Tick, action_to_dict
from tamalou.engine import snapshot
from tamalou.engine.deal import MAX_STACKED_DEALS
from tamalou.engine.rulebook import rulebook
from tamalou.schema import (
    MAX_DEAL,
    MAX_LOCKOUTS,
    MAX_MATCH_TURNS,
    MAX_PLAYERS,
    MAX_RANKS,
    MAX_ROUNDS,
    MAX_SECONDS,
    MAX_TURNS,
)
from tamalou.testing import DrawChooser, any_action, deals, dealt_games
from tamalou.verify import PlayStyle, choose_action
from tiers import sized, tier

pytestmark = pytest.mark.scaled

RULESETS = tamalou.variant_names()
every_ruleset = pytest.mark.parametrize("name", RULESETS)

#: Examples per property and ruleset: a few in the fast tier, many in the deep one (derandomized in both).
EXAMPLES = sized(fast=2, deep=5)
#: Actions drawn in a game (each followed by three restores, one of them replaying the whole round).
STEPS = sized(fast=30, deep=60)
#: Rounds of a match, and the most actions of each (a round not over by then ends the match there).
ROUNDS = sized(fast=2, deep=3)
ROUND_STEPS = sized(fast=150, deep=300)
PROPERTY = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    report_multiple_bugs=False,
)
BUDGET = 40  # choices drawn one by one by hypothesis in each game, before a drawn seed takes over
seeds = st.integers(0, 2**32 - 1)
#: (call_probability, out_of_turn, match_probability): calls end rounds; out-of-turn matches come in between.
styles = st.sampled_from([(0.2, 0.3, 0.15), (0.05, 0.8, 0.6), (0.2, 0.0, 0.0)])
#: What a step of a game is: a legal action as listed, the same stamped with a drawn time, a tick to a drawn
#: time, or a hostile action (mostly refused).
KINDS = ("legal", "legal", "legal", "stamped", "tick", "hostile")


# ------------------------------------------------------------------------------------------------ checks


def check_restorable(game: Game, variant: Variant) -> None:
    """``Game.from_json`` of the game's snapshot gives the same JSON: with its variant, with the replay check, and
    with the variant the snapshot names (its name, or the whole variant for one built from text)."""
    text = game.to_json()
    assert Game.from_json(text, variant, trusted=True, max_chars=snapshot.MAX_TEXT).to_json() == text
    assert Game.from_json(text, variant, max_chars=snapshot.MAX_TEXT).to_json() == text
    assert Game.from_json(text, trusted=True).to_json() == text


def check_match_restorable(m: Match, variant: Variant) -> None:
    """``Match.from_json`` of the match's snapshot gives the same JSON, as ``check_restorable`` for a game."""
    text = m.to_json()
    assert Match.from_json(text, variant, trusted=True, max_chars=snapshot.MAX_TEXT).to_json() == text
    assert Match.from_json(text, variant, max_chars=snapshot.MAX_TEXT).to_json() == text
    assert Match.from_json(text, trusted=True).to_json() == text


# ------------------------------------------------------------------------------------------------ moves


def times(game: Game) -> st.SearchStrategy[float | int]:
    """A time for an action's ``at`` or a tick: the game's time, its deadline, a few seconds on, anywhere up to
    twice the bound, just below and past the bound, around 1e11 (the clock of a long round of year-long turns)."""
    now = game.now
    bound = actions_module.MAX_TIME  # read now: a test may move the bound
    marks = [1e11, 1e11 + 0.5, 3.2e11, bound * (1 - 2**-40), bound - 1.0, bound, bound * 10]
    parts: list[st.SearchStrategy[Any]] = [
        st.just(now),
        st.floats(now, now + 100.0),
        st.floats(now, 2 * bound),
        st.integers(math.ceil(now), 2 * int(bound)),
        st.sampled_from([t for t in marks if t >= now] or [now]),
    ]
    due = game.deadline
    if due is not None and due >= now:
        parts += [st.just(due), st.floats(now, due + 1.0)]
    return st.one_of(parts)


def draw_move(data: st.DataObject, game: Game, chooser: DrawChooser, style: tuple[float, float, float]) -> object:
    """One step of a game (see ``KINDS``); a stamped action or a tick is given as its JSON dict, so that a time
    past the bound is refused by ``apply`` like any bad field."""
    kind = data.draw(st.sampled_from(KINDS))
    if kind == "tick":
        return {"type": "tick", "at": data.draw(times(game))}
    if kind == "hostile":
        return data.draw(any_action(game))
    calls, out_of_turn, match_probability = style
    action = choose_action(
        game, chooser, PlayStyle(call_probability=calls, out_of_turn=out_of_turn, match_probability=match_probability)
    )
    if kind == "stamped":
        return {**action_to_dict(action), "at": data.draw(times(game))}
    return action


def step(game: Game, move: object) -> bool:
    """Apply ``move``: ``True`` if accepted; if refused, the game must be as it was."""
    before = game.to_json()
    try:
        game.apply(move)  # type: ignore[call-overload]
    except IllegalAction:
        assert game.to_json() == before, f"the refused action {move!r} changed the game"
        return False
    return True


def play_restoring(data: st.DataObject, variant: Variant, steps: int) -> Game:
    """A drawn deal of ``variant`` played for up to ``steps`` drawn moves, checked restorable after each."""
    game: Game = data.draw(dealt_games(variant))
    chooser = DrawChooser(data.draw, budget=BUDGET)
    style = data.draw(styles)
    check_restorable(game, variant)
    for _ in range(data.draw(st.integers(1, steps))):
        if game.is_over:
            break
        if step(game, draw_move(data, game, chooser, style)):
            check_restorable(game, variant)
    return game


# ------------------------------------------------------------------------------------------------ games


def test_every_registered_ruleset_is_covered() -> None:
    assert "french" in RULESETS and "tamalou-fun" in RULESETS


@every_ruleset
@PROPERTY
@given(data=st.data())
def test_every_accepted_action_leaves_a_restorable_game(name: str, data: st.DataObject) -> None:
    play_restoring(data, tamalou.load_variant(name), STEPS)


# ------------------------------------------------------------------------------------------------ matches


@cache
def match_variant(name: str) -> Variant:
    """``name``, composed with ``multi-round`` when it is played in one round (so that a match has rounds)."""
    v = tamalou.load_variant(name)
    return tamalou.load_variant([name, "multi-round"]) if v.rules.rounds.form == "single" else v


@every_ruleset
@PROPERTY
@given(data=st.data())
def test_every_match_state_restores(name: str, data: st.DataObject) -> None:
    variant = match_variant(name)
    rules = variant.rules.players
    players = data.draw(st.integers(rules.min, rules.max))
    stacked = data.draw(st.lists(deals(variant, players), max_size=min(ROUNDS, variant.rules.rounds.most)))
    m = tamalou.new_match(variant, players, seed=data.draw(seeds), deals=stacked)
    chooser = DrawChooser(data.draw, budget=BUDGET)
    style = data.draw(styles)
    check_match_restorable(m, variant)
    for _ in range(data.draw(st.integers(1, ROUNDS))):
        game = m.game
        checks = set(data.draw(st.lists(st.integers(1, ROUND_STEPS), max_size=3)))
        for i in range(1, ROUND_STEPS + 1):
            if game.is_over:
                break
            step(game, draw_move(data, game, chooser, style))
            if i in checks:
                check_match_restorable(m, variant)
        check_match_restorable(m, variant)  # the round over, not scored yet (or the longest round cut short)
        if not game.is_over:
            break
        m.next_round()
        check_match_restorable(m, variant)  # scored, the next round dealt (or the match over)
        if m.is_over:
            break


# ------------------------------------------------------------------------------------------------ extremes


def _toml(items: dict[str, dict[str, Any]]) -> str:
    return "\n".join(
        f"[{section}]\n" + "\n".join(f"{k} = {json.dumps(v)}" for k, v in keys.items())
        for section, keys in items.items()
    )


@cache
def extreme(name: str, turns: int | None = None) -> Variant:
    """``name`` at its extreme accepted values, derived from TOML text as a server's uploaded rules are: four decks
    (the most), ``MAX_DEAL`` cards each, the biggest table the deck then serves (``MAX_PLAYERS`` for every built-in
    deck), timed with every time of ``rules.timing`` a year and ``MAX_LOCKOUTS`` lockouts of a year, nobody ever
    leaving for want of time, four cards thrown on a card and three penalty cards a miss. ``turns``: its rounds'
    ``end.max_turns`` (with as many rounds as a match may then have)."""
    rules = tamalou.load_variant(name).rules
    deck = rules.deck.model_copy(update={"copies": 4}).size(rules.players.min)
    players = min(MAX_PLAYERS, (deck - rules.deal.discard - 1) // MAX_DEAL)
    sections: dict[str, dict[str, Any]] = {
        "rules.players": {"max": players},
        "rules.deck": {"copies": 4},
        "rules.deal": {"cards": MAX_DEAL},
        "rules.matching": {"max_cards": 4, "penalty_cards": 3},
        "rules.timing": {
            "turn_seconds": MAX_SECONDS,
            "absent_turn_seconds": MAX_SECONDS,
            "absent_turns_to_leave": 0,
            "peek_seconds": MAX_SECONDS,
            "swap_show_seconds": MAX_SECONDS,
            "countdown_seconds": MAX_SECONDS,
            "lockouts": [MAX_SECONDS] * MAX_LOCKOUTS,
        },
    }
    if turns is not None:
        most = MAX_MATCH_TURNS // turns
        count = rules.rounds.count_multiple * max(1, most // rules.rounds.count_multiple)
        sections["rules.end"] = {"max_turns": turns}
        sections["rules.rounds"] = {"max_rounds": most, "count": min(count, most)}
    text = f'name = "{name}-extreme"\nextends = "{name}"\n' + _toml(sections)
    return tamalou.variant_from_toml(text)


def test_the_extremes_are_the_schema_bounds() -> None:
    for name in RULESETS:
        v = extreme(name)
        assert v.rules.players.max == MAX_PLAYERS and v.rules.deal.cards == MAX_DEAL
        assert v.rules.timing.turn_seconds == v.rules.timing.peek_seconds == MAX_SECONDS
    assert extreme("french", MAX_TURNS).rules.end.max_turns == MAX_TURNS


@every_ruleset
@PROPERTY
@given(data=st.data())
def test_rulesets_at_their_extremes_play_and_restore(name: str, data: st.DataObject) -> None:
    play_restoring(data, extreme(name), STEPS)


#: The clock's mechanic is one, whatever the ruleset: the deep tier adds a ruleset of each other flow (a chosen
#: opening peek, a window after powers, matching opponents' cards, rounds of a match).
LONGEST_CLOCK = ["french", "tamalou-fun", *(["cabo", "cambia", "kaboo", "dutch"] if tier() == "deep" else [])]


@pytest.mark.parametrize("name", LONGEST_CLOCK)
def test_the_longest_clock_restores(name: str) -> None:
    """A round of ``MAX_TURNS`` turns of a year, each timed out: a tick just below ``MAX_TIME`` plays them all (the
    round's clock reaches some 3.2e11 s), and the round restores, alone and in a match."""
    variant = extreme(name, MAX_TURNS)
    players = sized(2, variant.rules.players.max)
    m = tamalou.new_match(variant, players, seed=7)
    game = m.game
    while game.deadline is None and not game.is_over:  # an opening peek of chosen slots: peeked at time 0
        game.apply(next(a for p in range(players) for a in game.legal_actions(p)))
    game.apply(Tick(at=actions_module.MAX_TIME - 1.0))
    assert game.is_over
    if game.result().reason == "turn_limit":  # a round may end sooner (cabo's stock runs out after 62 turns)
        assert game.turn >= MAX_TURNS - 1
    check_restorable(game, variant)
    check_match_restorable(m, variant)
    m.next_round()
    check_match_restorable(m, variant)


@pytest.mark.parametrize("name", ["cabo", "cartalogue"])
def test_a_late_time_in_a_timed_chosen_peek_restores(name: str) -> None:
    """In a timed ruleset's opening peek of chosen slots no deadline runs: a time near ``MAX_TIME`` was accepted
    there, and the first turn's deadline (that time + ``turn_seconds``) was then past what ``Game.from_json``
    restores ("timing: the clock is out of bounds"). The clock of a round with deadlines now moves past
    ``CLOCK_REACH`` only to a deadline: that tick is refused, and the game restores."""
    variant = tamalou.variant_from_toml(f'name = "timed"\nextends = "{name}"\n[rules.timing]\nturn_seconds = 45\n')
    game = tamalou.new_game(variant, 2, seed=1)
    assert game.phase == "peek" and game.deadline is None
    assert not step(game, Tick(at=actions_module.MAX_TIME - 1.0))
    assert step(game, Tick(at=actions_module.CLOCK_REACH))  # up to the reach, time moves
    for p in range(2):
        listed = game.legal_actions(p)
        if listed:
            step(game, listed[0])
    check_restorable(game, variant)


# ------------------------------------------------------------------------------------------------ the cap


@pytest.mark.parametrize("name", ["tamalou-fun", "french"])
def test_ticks_that_fire_nothing_do_not_grow_the_snapshot(name: str) -> None:
    """A server may tick every second while a player thinks, and a tick that fires nothing is accepted any number
    of times: the log (and the snapshot of the match) held every one, without bound, so a match that its own rules
    allow could pass ``MAX_TEXT``. A quiet tick after a tick now takes that tick's place: 20,000 ticks leave one in
    the log, and the match restores exactly, replayed or not. (``french`` keeps no deadline: every tick is quiet.)"""
    m = tamalou.new_match(name, 3, seed=5)
    game = m.game
    logged, size = len(game.actions), len(m.to_json())
    due = game.deadline
    start = game.now
    for k in range(1, 20_001):
        at = start + k * 1e-4
        assert due is None or at < due
        game.apply(Tick(at=at))
    assert len(game.actions) == logged + 1 and game.actions[-1] == Tick(at=start + 20_000 * 1e-4)
    assert len(m.to_json()) < size + 40
    check_match_restorable(m, m.variant)
    if due is not None:  # the deadline fires: that tick is logged after the quiet one, and the next quiet one
        game.apply(Tick(at=due))  # takes its place (one tick to the later time replays both: the replay check)
        fired = game.to_json()
        game.apply(Tick(at=due + 0.5))
        assert len(game.actions) == logged + 2 and game.actions[-1] == Tick(at=due + 0.5)
        assert game.now == due + 0.5 and fired != game.to_json()
        check_match_restorable(m, m.variant)


#: The longest text of a time below ``MAX_TIME`` (23 characters: 17 digits and an exponent); a time may stay the
#: same from action to action, so every action of a round may carry it.
LONGEST_TIME = 1.2345678901234567e-300
#: The safety margin between the most characters a turn was seen to take and what the cap allows for it.
SAFETY = 1.5
#: The worst tables: a base, then what makes it worse still (four cards thrown on each card, opponents' cards too,
#: every right one counts and needs a give, two draws a turn, MAX_PLAYERS at four decks of MAX_DEAL cards each),
#: in rounds as short as a match of MAX_MATCH_TURNS turns allows (so as many rounds as may be: MAX_ROUNDS).
WORST_BASES = ["kaboo", "opponent-matching", "cambia", "cartalogue-rapide"] if tier() == "deep" else ["kaboo"]
WORST_SEEDS = sized(fast=1, deep=2)


@cache
def worst_table(base: str) -> Variant:
    sections = {
        "rules.players": {"min": 2, "max": MAX_PLAYERS},
        "rules.deck": {"copies": 4, "jokers": 2},
        "rules.deal": {"cards": MAX_DEAL},
        "rules.matching": {
            "opponents": True,
            "max_cards": 4,
            "penalty_cards": 3,
            "race": False,
            "late": "miss",
        },
        "rules.draw": {"per_turn": 2},
        "rules.end": {"max_turns": MAX_MATCH_TURNS // MAX_ROUNDS},
        "rules.rounds": {"form": "fixed", "count": MAX_ROUNDS, "max_rounds": MAX_ROUNDS, "count_multiple": 1},
    }
    return tamalou.variant_from_toml(f'name = "worst-{base}"\nextends = "{base}"\n' + _toml(sections))


def _right(game: Game, a: MatchAction) -> bool:
    """Whether the match throws a card of the discard top's rank (the harness sees every card)."""
    owner = a.player if a.owner is None else a.owner
    table = tamalou.round_of(game)
    return bool(table.discard) and table.rank[table.hands[owner][a.slots[0]]] == table.rank[table.discard[-1]]


def play_worst_round(game: Game, rng: random.Random, right_first: bool) -> None:
    """The round to its end, as long as can be: whenever somebody may throw a card on the thrown one, they do (a
    right one first, with ``right_first``: each then needs a give), one card at a time; else a random listed
    action, never a call while anything else is listed; every action stamped with ``LONGEST_TIME`` (or the game's
    time, past it) and followed by a tick to the same time (a tick that fires nothing is logged only after
    another action: after a tick it takes that tick's place)."""
    players = list(range(game.players))
    while not game.is_over:
        action: Action | None = None
        rng.shuffle(players)
        for p in players:
            matches = [a for a in game.legal_actions(p) if isinstance(a, MatchAction)]
            if matches:
                if right_first:
                    matches = [a for a in matches if _right(game, a)] or matches
                action = rng.choice(matches)
                break
        if action is None:
            listed = [a for p in players for a in game.legal_actions(p)]
            if not listed:
                action = Tick(at=max(game.deadline or 0.0, game.now))
            else:
                action = rng.choice([a for a in listed if not isinstance(a, Call)] or listed)
        game.apply(dataclasses.replace(action, at=max(LONGEST_TIME, game.now)))
        if not game.is_over:
            logged = len(game.actions)
            game.apply(Tick(at=game.now))
            assert len(game.actions) == logged + 1


def characters_per_turn(base: str, seed: int, right_first: bool) -> tuple[float, int]:
    """How many characters a turn adds to ``Match.to_json`` in a whole worst round (scored: its log, its scores
    and seed), and the size of the match's snapshot before it (the variant, the round in play dealt)."""
    m = tamalou.new_match(worst_table(base), MAX_PLAYERS, seed=seed)
    start = len(m.to_json())
    play_worst_round(m.game, random.Random(seed), right_first)
    turns = max(m.game.turn, 1)
    m.next_round()
    return (len(m.to_json()) - start) / turns, start


def largest_stacked_match() -> tuple[int, int]:
    """The characters a match's stacked deals take in its snapshot at most, ``MAX_STACKED_DEALS`` deals of the
    largest deck there is (``MAX_RANKS`` ranks of 3 characters, 16 cards of each, 4 decks and 2 jokers: 4,104
    cards, none written longer), measured on one deal; and the snapshot of such a match just dealt, on that one
    deal."""
    ranks = [str(100 + i) for i in range(MAX_RANKS)]
    sections = {
        "rules.players": {"max": MAX_PLAYERS},
        "rules.deck": {"ranks": ranks, "suits": [], "jokers": 2, "copies": 4},
        "rules.deck.counts": dict.fromkeys(ranks, 16),
        "rules.values.ranks": dict.fromkeys(ranks, 1),
        "rules.rounds": {"form": "fixed", "count": MAX_ROUNDS, "max_rounds": MAX_ROUNDS, "count_multiple": 1},
        "rules.end": {"max_turns": MAX_MATCH_TURNS // MAX_ROUNDS},
    }
    variant = tamalou.variant_from_toml('name = "largest-deck"\n' + _toml(sections))
    deck = [str(c) for c in rulebook(variant).deck_for(MAX_PLAYERS)]
    assert len(deck) == variant.rules.deck.size(MAX_PLAYERS) == 4104 and max(map(len, deck)) == 3
    k = MAX_DEAL
    hands = [deck[p * k : (p + 1) * k] for p in range(MAX_PLAYERS)]
    deal = {"hands": hands, "stock": deck[MAX_PLAYERS * k : -1], "discard": deck[-1:]}
    m = tamalou.new_match(variant, MAX_PLAYERS, seed=1, deals=[deal])
    one = len(json.dumps(list(m.deals), separators=(",", ":"))) - len("[]")
    return len(',"deals":[]') + MAX_STACKED_DEALS * (one + 1), len(m.to_json())


def test_the_longest_legal_match_fits_the_snapshot_cap() -> None:
    """The longest legal match (``MAX_MATCH_TURNS`` turns, in ``MAX_ROUNDS`` rounds: the most rounds, each a
    scored round with its log) played the worst way, at the most characters a turn was seen to take (with
    ``SAFETY`` margin), plus the snapshot of a match just dealt and the most stacked deals a match may hold, fits
    under ``MAX_TEXT``. Rounds of fewer turns make a match of as many rounds shorter; longer rounds make it fewer
    rounds: this is the largest."""
    measured = [
        characters_per_turn(base, seed, right_first)
        for base in WORST_BASES
        for seed in range(WORST_SEEDS)
        for right_first in (False, True)
    ]
    worst = max(per_turn for per_turn, _ in measured)
    stacked, stacked_start = largest_stacked_match()
    dealt = max(stacked_start, *(start for _, start in measured))
    assert worst > 2_000  # the worst play is played: some 50 to 120 actions a turn
    assert stacked > 2_000_000  # 100 deals of 4,104 cards
    longest = dealt + MAX_MATCH_TURNS * worst * SAFETY + stacked
    assert longest <= snapshot.MAX_TEXT, (
        f"a turn takes up to {worst:.0f} characters: the longest legal match ({MAX_MATCH_TURNS} turns, its stacked "
        f"deals {stacked:,}) takes some {longest:,.0f} with the margin, over MAX_TEXT = {snapshot.MAX_TEXT:,}"
    )
