"""Dealing a round: the universe of cards (the variant's deck, or a stacked deal checked against it),
the shuffle and the deal, the first player, and the opening (deal events, a fixed peek, then a
mechanic's opening or the first turn)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from ..cards import Card, check_cards_in_deck, parse_card
from ..errors import SetupError
from ..events import Event
from ..rng import Rng
from .state import DRAW, NO_CARD

if TYPE_CHECKING:
    from .round import Round


def deal_round(g: Round, seed: int | None, deal: dict[str, Any] | None, first_player: int | None) -> None:
    """Set up ``g`` (its runtime already set): shuffle and deal, or lay out a stacked ``deal``."""
    r = g.variant.rules
    players = g.players
    g.deal_spec = deal
    g.seed = secrets.randbits(63) if seed is None else seed
    g.rng = Rng(g.seed)
    g.actions = []
    universe = g.rb.deck if deal is None else stacked_universe(g.rb.deck, deal, players)
    set_universe(g, universe)
    n_cards = len(universe)
    g.knowers = [0] * n_cards
    g.held = NO_CARD
    g.holder = -1
    g.held_from = ""
    g.draws = 0
    g.stock_only = False
    g.caller = None
    g.last_lap = None
    g.last_lap_reason = ""
    g.turn = 0
    g.reason = ""
    g.left = 0
    g.locked = 0
    g.sealed = 0
    g.now = 0.0
    g.phase = DRAW
    if deal is None:
        order = list(range(n_cards))
        g.rng.shuffle(order)
        k = r.deal.cards
        if k * players > n_cards:
            raise SetupError(f"not enough cards to deal {k} to {players} players ({n_cards} in the deck)")
        # Deal one card at a time around the table, from the top (end) of the shuffled pile.
        top_first = order[::-1]  # (slices at C speed: player p gets the cards p, p + players, ... from the top)
        g.hands = [top_first[p : k * players : players] for p in range(players)]
        g.stock = order[: n_cards - k * players]
        g.discard = [g.stock.pop() for _ in range(min(r.deal.discard, len(g.stock)))]
        # The seat is drawn even when one is given, so a seeded game's shuffles never depend on it.
        drawn = first_seat(g)
        g.first_player = drawn if first_player is None else first_player
    else:
        g.hands, g.stock, g.discard = stacked_piles(deal)
        g.first_player = first_seat(g) if first_player is None else first_player
    g.first_given = first_player is not None
    g.current_player = g.first_player
    for c in g.discard:
        g.show(c)
    g.ms = [m.new_state(g) for m in g.rb.mechanics]


def first_seat(g: Round) -> int:
    """The first player as the variant says: drawn with the game's generator, or a given seat."""
    fp = g.variant.rules.deal.first_player
    return g.rng.below(g.players) if fp == "random" else int(fp) % g.players


def set_universe(g: Round, universe: list[Card]) -> None:
    """The game's cards and their faces, texts, ranks, values and powers, by card id."""
    rb = g.rb
    if universe is rb.deck:  # the variant's own deck: its tables are made once per variant
        g.cards, g.text, g.rank, g.value, g.power_of = rb.deck_tables()
        return
    g.cards = universe
    g.text = [str(c) for c in universe]
    g.rank = [c.rank for c in universe]
    g.value = [rb.value(c) for c in universe]
    g.power_of = [rb.power_name(c) for c in universe]


def opening(g: Round) -> list[Event]:
    """Deal-time events and the opening (``new_game`` calls it once)."""
    events = [
        Event(
            "dealt",
            {
                "players": g.players,
                "slots": [len(h) for h in g.hands],
                "discard_top": g.text[g.discard[-1]] if g.discard else None,
                "stock_size": len(g.stock),
                "first_player": g.first_player,
            },
        )
    ]
    peek = g.variant.rules.peek
    if peek.mode == "fixed":
        fixed = list(peek.slots)
        for p, hand in enumerate(g.hands):
            n = len(hand)
            if NO_CARD in hand or not all(0 <= s < n for s in fixed):  # (a stacked deal may be short)
                slots = [s for s in fixed if 0 <= s < n and hand[s] != NO_CARD]
            else:
                slots = fixed
            if slots:
                g.peek(p, slots, events)
    g.begin(events)
    return events


def stacked_universe(deck: list[Card], deal: dict[str, Any], players: int) -> list[Card]:
    if not isinstance(deal, dict):
        raise SetupError(f"a deal is a dict with 'hands', 'stock' and 'discard', got {deal!r}")
    unknown = set(deal) - {"hands", "stock", "discard"}
    if unknown:
        raise SetupError(f"a deal has 'hands', 'stock' and 'discard', not {sorted(unknown)}")
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != players or not all(isinstance(h, list) for h in hands):
        raise SetupError(f"the deal needs 'hands': one list of cards per player ({players})")
    out: list[Card] = []
    try:
        for hand in hands:
            out.extend(parse_card(t) for t in hand)
        for pile in ("stock", "discard"):
            cards = deal.get(pile, [])
            if not isinstance(cards, list):
                raise SetupError(f"the deal's {pile!r} is a list of cards, got {cards!r}")
            out.extend(parse_card(t) for t in cards)
    except ValueError as exc:
        if isinstance(exc, SetupError):
            raise
        raise SetupError(f"bad card in the deal: {exc}") from None
    problem = check_cards_in_deck(deck, out)
    if problem is not None:
        raise SetupError(f"the deal does not fit the variant's deck: {problem}")
    return out


def stacked_piles(deal: dict[str, Any]) -> tuple[list[list[int]], list[int], list[int]]:
    i = 0
    hands: list[list[int]] = []
    for hand in deal["hands"]:
        hands.append(list(range(i, i + len(hand))))
        i += len(hand)
    n_stock = len(deal.get("stock", []))
    stock = list(range(i, i + n_stock))[::-1]  # given top first; the top is our list's end
    i += n_stock
    discard = list(range(i, i + len(deal.get("discard", []))))
    return hands, stock, discard


# ----------------------------------------------------------------------------- the public entry points
