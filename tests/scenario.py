"""Helpers shared by the ruleset scenario tests (``test_french.py``, ``test_cartalogue.py``, ...).

A scenario is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first), ``stock`` top
first, ``discard`` bottom first, and seat 0 plays first. The helpers take the ruleset as ``variant``;
each test file binds its own ruleset once, e.g. ``deal = partial(scenario.deal, variant=FRENCH)``.
Timed rulesets pass ``at`` (seconds since the deal) to the helpers that act.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tamalou
from tamalou import Action, Call, Discard, Draw, Event, IllegalAction, MatchAction, Pass, PeekAction, Result, Round
from tamalou.engine import new_round

VariantLike = str | Sequence[str] | tamalou.Variant

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FULL_DECK = frozenset(f"{r}{s}" for r in RANKS for s in "SHDC")
# Cards without a power in French nor in Cartalogue (7, 8, 9, 10, J, Q and every K have one there),
# to fill stocks and discards of quiet scenarios.
QUIET_POOL = [f"{r}{s}" for r in ("6", "5", "3", "2") for s in "CDHS"]


# --------------------------------------------------------------------------------- dealing


def deal(
    hands: Sequence[Sequence[str]],
    stock: Sequence[str],
    discard: Sequence[str] = (),
    *,
    variant: VariantLike,
) -> Round:
    """A stacked deal of ``variant``, seed 1; seat 0 plays first (once the opening peek, if any, is over)."""
    spec = {"hands": [list(h) for h in hands], "stock": list(stock), "discard": list(discard)}
    return new_round(variant, players=len(hands), deal=spec, first_player=0, seed=1)


def peek_all(g: Round, slots: tuple[int, int] = (0, 1)) -> list[Event]:
    """Every player peeks at the same two slots of theirs."""
    events: list[Event] = []
    for p in range(g.players):
        events += g.apply(PeekAction(p, slots))
    return events


def dealt(
    hands: Sequence[Sequence[str]],
    stock: Sequence[str],
    discard: Sequence[str] = (),
    *,
    variant: VariantLike,
) -> Round:
    """A stacked deal after the opening peek, where the ruleset lets players choose (everybody looks
    at slots 0 and 1); seat 0 is to draw."""
    g = deal(hands, stock, discard, variant=variant)
    if g.phase == "peek":
        peek_all(g)
    assert g.phase == "draw" and g.current_player == 0
    return g


# --------------------------------------------------------------------------------- looking


def kinds(events: Iterable[Event]) -> list[str]:
    """The type of each event, in order."""
    return [e.type for e in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    """The events of type ``kind``, in order."""
    return [e for e in events if e.type == kind]


def seen(g: Round, viewer: int, owner: int) -> dict[int, str | None]:
    """``owner``'s occupied slots as ``viewer`` sees them: the card, or None when face down to them."""
    return {s.slot: s.card for s in g.view(viewer).hands[owner]}


def turn_options(g: Round, p: int) -> set[Action]:
    """What ``p`` may do now, matches (doubles) left out."""
    return {a for a in g.legal_actions(p) if not isinstance(a, MatchAction)}


def matches_listed(g: Round, p: int) -> set[Action]:
    """The matches (doubles) ``p`` may try now."""
    return {a for a in g.legal_actions(p) if isinstance(a, MatchAction)}


def cards_in_play(g: Round) -> int:
    """Every card of the round, wherever it is: layouts, stock, discard, and the card held."""
    v = g.view(0)
    held = 0 if v.holding is None else 1
    return sum(len(h) for h in v.hands) + v.stock_size + len(v.discard) + held


def assert_illegal(g: Round, action: Action | dict[str, Any]) -> None:
    """The action is refused and the game is exactly as before (time included)."""
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply(action)
    assert g.to_json() == before


# --------------------------------------------------------------------------------- playing


def draw_and_throw(g: Round, at: float | None = None) -> list[Event]:
    """The current player draws from the stock and throws the drawn card at once (both at ``at``)."""
    p = g.current_player
    return g.apply(Draw(p, "stock", at=at)) + g.apply(Discard(p, at=at))


def quiet_turn(g: Round) -> list[Event]:
    """Draw from the stock, throw it, decline any power and the call; when that was a called round's
    last turn, nobody matches its card in the closing window."""
    p = g.current_player
    events = draw_and_throw(g)
    while not g.is_over and g.current_player == p and g.phase in ("power", "swap", "call"):
        events += g.apply(Pass(p))
    return events + close(g)


def close(g: Round) -> list[Event]:
    """Everyone passes in the closing window of a called round (the round then ends)."""
    events: list[Event] = []
    while g.phase == "closing":
        events += g.apply(Pass(g.current_player))
    return events


def calling_turn(g: Round) -> list[Event]:
    """Draw from the stock, throw it, decline any power, call."""
    p = g.current_player
    events = draw_and_throw(g)
    if g.phase == "power":
        events += g.apply(Pass(p))
    return events + g.apply(Call(p))


def play_out(g: Round) -> list[Event]:
    """Finish the turn in play by declining what is on offer, then quiet turns to the end."""
    events: list[Event] = []
    while not g.is_over:
        if g.phase in ("power", "swap", "call", "closing"):
            events += g.apply(Pass(g.current_player))
        else:
            events += quiet_turn(g)
    return events


def _quiet_deal(hands: Sequence[Sequence[str]], variant: VariantLike, peek: bool) -> Round:
    """The hands, with a stock of one quiet card per seat and one quiet card turned up."""
    used = {c for h in hands for c in h}
    pool = [c for c in QUIET_POOL if c not in used]
    setup = dealt if peek else deal
    return setup(hands, stock=pool[1 : len(hands) + 1], discard=pool[:1], variant=variant)


def called_round(*hands: Sequence[str], variant: VariantLike, peek: bool = False) -> Result:
    """Seat 0 calls on its first turn (``calling_turn``); everybody else plays a quiet last turn
    (``play_out``). Hands never change. With ``peek``, the deal starts after the opening peek."""
    g = _quiet_deal(hands, variant, peek)
    calling_turn(g)
    events = play_out(g)
    assert g.result().reason == "called"
    assert of_kind(events, "round_over")[0]["totals"] == g.result().totals
    return g.result()


def called_round_stepwise(*hands: Sequence[str], variant: VariantLike) -> Result:
    """Seat 0 draws, throws and calls on its first turn; everybody else plays a quiet last turn (draw
    and throw, power declined), one phase after another. The deal starts after the opening peek, if
    any; hands never change; seat 0 must be the caller."""
    g = _quiet_deal(hands, variant, peek=True)
    events: list[Event] = []
    while not g.is_over:
        p = g.current_player
        if g.phase == "closing":  # the last thrown card: nobody matches it
            events += g.apply(Pass(p))
            continue
        events += draw_and_throw(g)
        if g.phase == "power":
            events += g.apply(Pass(p))
        if g.phase == "call":
            events += g.apply(Call(p) if g.caller is None else Pass(p))
    result = g.result()
    assert result.reason == "called" and result.caller == 0
    assert next(e for e in events if e.type == "round_over")["totals"] == result.totals
    return result


# --------------------------------------------------------------------------------- random games


def random_game_and_events(
    variant: VariantLike, players: int, seed: int, rng: random.Random, universe: int
) -> tuple[Round, list[Event]]:
    """A seeded game played to its end by random legal actions of random seats (an offered call is
    mostly declined, so that rounds last), counting the cards after every action; with its events."""
    g = new_round(variant, players=players, seed=seed)
    assert cards_in_play(g) == universe
    events: list[Event] = []
    for _ in range(20_000):
        if g.is_over:
            return g, events
        seats = [p for p in range(players) if g.legal_actions(p)]
        assert seats, f"seed {seed}: nobody may act in phase {g.phase}"
        options = g.legal_actions(rng.choice(seats))
        if len(options) > 1 and rng.random() < 0.9:
            options = [a for a in options if not isinstance(a, Call)]
        events += g.apply(rng.choice(options))
        assert cards_in_play(g) == universe, f"seed {seed}, after {g.actions[-1]}"
    raise AssertionError(f"seed {seed}: no end after 20000 actions")


def random_game(variant: VariantLike, players: int, seed: int, rng: random.Random, universe: int) -> Round:
    """``random_game_and_events`` without the events."""
    return random_game_and_events(variant, players, seed, rng, universe)[0]


# --------------------------------------------------------------------------------- scripts


def load_script(path: Path) -> ModuleType:
    """A script of ``scripts/`` imported as a module (its name: the file's stem), for the tests of the
    pages it generates."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------------- no penalty card left


def no_penalty_card_left(variant: VariantLike, hands: Sequence[Sequence[str]], top: str, last: str) -> Round:
    """Decided: "No penalty card left: matching is closed". Two seats; the stock holds one card (``last``), the
    discard ``top``. Seat 0 takes ``top`` and puts it in slot 0 (its slot 0 card is thrown: the discard holds only
    it), declining what follows; seat 1 draws ``last``, the stock's last card. No penalty card could now be
    given: the stock is empty and the discard holds only its top. Opening peeks and timed openings are passed
    through first; a timed ruleset acts at the end of its opening."""
    g = deal(hands, [last], [top], variant=variant)
    if g.phase == "peek":
        peek_all(g)
    at = None
    if g.phase == "opening":
        at = g.deadline
        g.apply(tamalou.Tick(at=at))
    g.apply(Draw(0, "discard", at=at))
    g.apply(tamalou.Replace(0, 0, at=at))
    while g.current_player == 0 and Pass(0) in g.legal_actions(0):  # a power, a second draw, the call...
        g.apply(Pass(0, at=at))
    g.apply(Draw(1, "stock", at=at))
    assert g.view(0).stock_size == 0 and len(g.view(0).discard) == 1
    return g


def assert_matching_closed(g: Round, reason: str = "no penalty card") -> None:
    """No match is listed for any seat, and a match (right or wrong) is refused with the game unchanged, with the
    same reason whatever the card (the refusal reveals nothing), a reason that says ``reason``."""
    at = g.now if g.variant.rules.timing.turn_seconds else None
    for p in range(g.players):
        assert not matches_listed(g, p)
    reasons = set()
    for slot in range(len(g.view(0).hands[0])):
        before = g.to_json()
        with pytest.raises(IllegalAction) as refused:
            g.apply({"type": "match", "player": 0, "slots": [slot], **({"at": at} if at is not None else {})})
        assert g.to_json() == before
        reasons.add(str(refused.value))
    assert len(reasons) == 1 and reason in reasons.pop()


def assert_matching_reopens(g: Round) -> None:
    """Seat 1 throws the card it drew: the discard holds two cards (a penalty card exists again, once shuffled),
    and seat 0 may match again."""
    at = g.now if g.variant.rules.timing.turn_seconds else None
    g.apply(Discard(1, at=at))
    assert matches_listed(g, 0)
