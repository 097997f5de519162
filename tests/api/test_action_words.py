"""Actions in words, symmetric with events: ``Action.describe(view)`` in the events' vocabulary, and
``Action.from_dict`` / ``Event.from_dict`` reading back every action and event of every ruleset."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import ClassVar

import pytest

import tamalou
from tamalou import (
    Action,
    Call,
    Discard,
    Draw,
    Event,
    Flip,
    Give,
    IllegalAction,
    MatchAction,
    Pass,
    PeekAction,
    Power,
    Replace,
    Swap,
    Tick,
)
from tamalou.actions import ACTION_TYPES, timed
from tamalou.engine import new_round
from tiers import sized

#: Random games a ruleset: every action applied in each, every action listed in the first ``LISTED_GAMES``.
GAMES = sized(fast=6, deep=200)
LISTED_GAMES = 6
#: Words that would be Python leaking into a person's menu: class names, field assignments, ``None``.
PYTHON = re.compile(r"\b(None|True|False)\b|=|\(player|" + "|".join(c.__name__ for c in ACTION_TYPES.values()))


def played(name: str, seed: int, every_listed: bool) -> tuple[list[tuple[Action, str, str]], list[Event]]:
    """A random game of ``name``: every action applied (with ``every_listed``, every action listed at every step),
    with its words, with and without the seat's view; and every event."""
    rng = random.Random(seed)
    g = new_round(name, players=2 + seed % 3, seed=seed)
    timed_rules = bool(g.variant.rules.timing.turn_seconds)
    listed: list[tuple[Action, str, str]] = []
    events: list[Event] = list(g.events_so_far())
    for _ in range(3_000):
        if g.is_over:
            break
        seats = [p for p in range(g.players) if g.legal_actions(p)]
        p = rng.choice(seats)
        actions = g.legal_actions(p)
        view = g.seat_view(p)
        a = rng.choice(actions)
        listed += [(b, b.describe(view), b.describe()) for b in (actions if every_listed else [a])]
        if timed_rules and not isinstance(a, Tick):
            a = timed(a, g.now)
        events += g.apply(a)
    return listed, events


@pytest.mark.scaled
@pytest.mark.parametrize("name", tamalou.variant_names())
def test_every_action_round_trips_and_says_itself_in_words(name: str) -> None:
    for seed in range(GAMES):
        listed, events = played(name, seed, every_listed=seed < LISTED_GAMES)
        for action, with_view, alone in listed:
            assert Action.from_dict(action.to_dict()) == action
            assert type(action).from_dict(action.to_dict()) == action
            for words in (with_view, alone):
                assert words and not PYTHON.search(words), (action, words)
        for event in events:
            assert Event.from_dict(event.to_dict()) == event
            assert Event.from_dict(event.to_dict()).describe() == event.describe()
            for p in range(2):
                seen = event.for_player(p)
                assert Event.from_dict(seen.to_dict()) == seen


def test_the_words_of_each_built_in_action() -> None:
    """Without a view: what the action is; the player who takes it is "you"."""
    assert Draw(0).describe() == "draw from the stock"
    assert Draw(0, "discard").describe() == "take the discard's top card"
    assert Replace(1, 2).describe() == "put the card you hold in your slot 2 and throw the card there"
    assert Discard(0).describe() == "throw the card you hold"
    assert MatchAction(0, (3,)).describe() == "match the thrown card with your slot 3"
    assert MatchAction(0, (1,), owner=2).describe() == "match the thrown card with player 2's slot 1"
    assert MatchAction(0, (1, 3)).describe() == "match the thrown card with your slots 1, 3"
    assert Power(0, 2, 1, 1).describe() == "use the power on your slot 2 and player 1's slot 1"
    assert Swap(0, 1).describe() == "swap the card you looked at with your slot 1"
    assert Pass(0).describe() == "pass"
    assert Call(0).describe() == "call Tamalou"
    assert PeekAction(0, (0, 3)).describe() == "look at your slots 0, 3"
    assert Give(0, 2).describe() == "give your slot 2, unseen, to fill the slot you emptied"
    assert Flip(0, 1).describe() == "turn up your slot 1"
    assert Tick(at=5.0).describe() == "wait until 5.0 s"
    assert MatchAction(0, (1,), owner=2).describe(seat=["Ana", "Bo", "Cy"].__getitem__) == (
        "match the thrown card with Cy's slot 1"
    )


def test_with_the_seats_view_the_cards_it_sees_are_named() -> None:
    """A stacked French deal: seat 0 has seen its slots 0 and 1 (AS, 7H); the discard shows the 7C."""
    g = new_round(
        "french",
        players=2,
        first_player=0,
        seed=1,
        deal={"hands": [["AS", "7H", "3S", "4S"], ["AH", "2H", "3H", "QD"]], "stock": ["5H", "6C"], "discard": ["7C"]},
    )
    if g.phase == "peek":
        for p in range(2):
            g.apply(PeekAction(p, (0, 1)))
    view = g.view(0)
    assert Draw(0, "discard").describe(view) == "take the 7C from the discard"
    assert MatchAction(0, (1,)).describe(view) == "match the 7C with your slot 1 (7H)"
    assert MatchAction(0, (3,)).describe(view) == "match the 7C with your slot 3"
    g.apply(Draw(0))
    view = g.view(0)
    assert Replace(0, 0).describe(view) == "put the 5H in your slot 0 and throw the AS"
    assert Discard(0).describe(view) == "throw the 5H"
    g.apply(Discard(0))
    assert Pass(0).describe(g.view(0)) == "pass: do not call"


def test_a_power_says_what_its_use_does() -> None:
    """The power on offer gives the words of its uses (``CardPower.use_text``): a French jack swaps blind."""
    g = new_round(
        "french",
        players=2,
        first_player=0,
        seed=1,
        deal={"hands": [["AS", "7H", "3S", "4S"], ["AH", "2H", "3H", "QD"]], "stock": ["JC", "6C"], "discard": ["2C"]},
    )
    if g.phase == "peek":
        for p in range(2):
            g.apply(PeekAction(p, (0, 1)))
    g.apply(Draw(0))
    g.apply(Discard(0))
    view = g.view(0)
    assert view.power is not None
    words = {a.describe(view) for a in g.legal_actions(0) if isinstance(a, Power)}
    assert "swap your slot 0 (AS) with player 1's slot 3, nobody looking" in words
    assert Pass(0).describe(view).startswith("pass: do not use the power")


def test_from_dict_on_a_class_takes_only_its_type() -> None:
    assert Draw.from_dict({"type": "draw", "player": 1, "source": "discard"}) == Draw(1, "discard")
    with pytest.raises(IllegalAction, match="expected a 'draw' action"):
        Draw.from_dict({"type": "call", "player": 1})
    with pytest.raises(IllegalAction):
        Action.from_dict({"type": "draw", "player": "one"})


def test_an_event_read_back_keeps_what_is_secret_when_told() -> None:
    event = Event("drew", {"player": 0, "source": "stock"}, {"card": "7H"}, 1)
    read = Event.from_dict(event.to_dict(), secret=("card",), seen_by=1)
    assert read == event and read.for_player(1) == event.for_player(1)
    assert read.for_player(0)["card"] == "7H" and read.for_player(1)["card"] is None
    assert Event.from_dict(event.for_player(1).to_dict()).describe() == "player 0 draws a card from the stock"
    with pytest.raises(ValueError, match="type"):
        Event.from_dict({"player": 0})


@dataclass(frozen=True, slots=True)
class Nudge(Action):
    """A plugin's action type that gives no words of its own."""

    player: int
    slot: int
    target: int | None = None
    at: float | None = None
    type: ClassVar[str] = "nudge_card"


def test_a_plugin_action_without_words_says_its_type_and_fields() -> None:
    assert Nudge(0, 2).describe() == "nudge card: slot 2"
    assert Nudge(0, 2, target=1).describe() == "nudge card: slot 2, target 1"


def test_a_plugin_action_gives_its_words_as_a_template() -> None:
    """Cabo's exchange of cards claimed equal (``text`` over the phrases of ``Words``)."""
    from tamalou.plugins.cabo import ExchangeEqual

    assert ExchangeEqual(0, (1, 2)).describe() == "keep the card you hold for your slots 1, 2, claiming they are equal"
