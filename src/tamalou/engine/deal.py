"""Dealing a round: the universe of cards (the variant's deck for the table's player count, or a stacked
deal checked against it), the shuffle and the deal, the first player, and the opening (deal events, a
fixed peek, then a mechanic's opening or the first turn)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..actions import short
from ..cards import Card, check_cards_in_deck, parse_card
from ..errors import SetupError
from ..events import Event
from ..rng import Rng
from .state import DRAW, NO_CARD

if TYPE_CHECKING:
    from .flow import Flow


def deal_round(g: Flow, seed: int | None, deal: dict[str, Any] | None, first_player: int | None) -> None:
    """Set up ``g`` (its runtime already set): shuffle and deal, or lay out a stacked ``deal``."""
    r = g.variant.rules
    players = g.players
    g.deal_spec = deal
    g.seed = secrets.randbits(63) if seed is None else seed
    g.rng = Rng(g.seed)
    g.actions = []
    deck = g.rb.deck_for(players)  # the deck of this table (rules.deck.copies may depend on its size)
    universe = deck if deal is None else stacked_universe(deck, deal, players)
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
    g.starter = None
    g.last_lap_reason = ""
    g.turn = 0
    g.reason = ""
    g.left = 0
    g.locked = 0
    g.sealed = 0
    g.face_up = 0
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


def first_seat(g: Flow) -> int:
    """The first player as the variant says: drawn with the game's generator, or a given seat."""
    fp = g.variant.rules.deal.first_player
    return g.rng.below(g.players) if fp == "random" else int(fp) % g.players


def set_universe(g: Flow, universe: list[Card]) -> None:
    """The game's cards and their faces, texts, ranks, values and powers, by card id (``g.players`` set)."""
    rb = g.rb
    tables = rb.deck_tables(g.players)
    if universe is tables[0]:  # the variant's own deck for this table: its tables are made once per deck
        g.cards, g.text, g.rank, g.value, g.power_of = tables
        return
    g.cards = universe
    g.text = [str(c) for c in universe]
    g.rank = [c.rank for c in universe]
    g.value = [rb.value(c) for c in universe]
    g.power_of = [rb.power_name(c) for c in universe]


def redraw_discard(g: Flow, events: list[Event]) -> None:
    """``rules.deal.discard_redraw``: while the card turned up to start the discard is one of those ranks or cards,
    bury it at the bottom of the stock (the event ``redrawn`` says which card went back) and turn up the stock's top
    instead; at most as many times as the stock has cards (a stock of such cards only: the last one stays)."""
    redraw = g.variant.rules.deal.discard_redraw
    if not redraw or not g.discard:
        return
    for _ in range(len(g.stock)):
        top = g.discard[-1]
        if g.rank[top] not in redraw and g.text[top] not in redraw:
            return
        g.discard.pop()
        g.knowers[top] = 0
        g.stock.insert(0, top)  # (the bottom: the list's start; its top is its end)
        turned = g.stock.pop()
        g.discard.append(turned)
        g.show(turned)
        events.append(Event("redrawn", {"card": g.text[top], "discard_top": g.text[turned]}))


def opening(g: Flow) -> list[Event]:
    """Deal-time events and the opening (``new_game`` calls it once)."""
    redrawn: list[Event] = []
    redraw_discard(g, redrawn)
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
        ),
        *redrawn,
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


def stacked_universe(deck: list[Card], deal: Any, players: int) -> list[Card]:
    """The cards of a stacked ``deal`` (hands, then stock, then discard), checked against ``deck``; anything else
    (not a dict included: ``deal`` is typed ``Any`` so that the compiled core checks it here too) is a
    ``SetupError`` saying what is wrong."""
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


def canonical_deal(deck: list[Card], deal: Any, players: int) -> dict[str, list[Any]]:
    """``deal`` checked as ``new_game`` checks a stacked deal (the same ``SetupError``), written as a snapshot
    keeps it: ``hands``, ``stock`` and ``discard`` all there, each card as the deck writes it (``"10S"`` for
    ``" ts"``), so that its text is as long as its cards and no longer."""
    texts = [str(c) for c in stacked_universe(deck, deal, players)]
    hands: list[Any] = []
    i = 0
    for hand in deal["hands"]:
        hands.append(texts[i : i + len(hand)])
        i += len(hand)
    n_stock = len(deal.get("stock", []))
    return {"hands": hands, "stock": texts[i : i + n_stock], "discard": texts[i + n_stock :]}


#: The most stacked deals a match takes (``new_match(deals=...)``): scenarios of a few rounds, not whole long matches
#: (a match snapshot holds them: ``engine.snapshot.MAX_TEXT`` counts this many deals of the largest deck).
MAX_STACKED_DEALS = 100


def stacked_deals(deck: list[Card], deals: Any, players: int, most: int) -> tuple[dict[str, list[Any]], ...]:
    """The stacked deals of a match's first rounds (``new_match(..., deals=...)``), each checked and written as
    ``canonical_deal`` does; at most ``most`` (the most rounds of the match) and ``MAX_STACKED_DEALS``. A
    ``SetupError`` names the first wrong deal by its index in ``deals`` and its round, with what ``new_game``
    would say of it."""
    if isinstance(deals, str | bytes | dict) or not isinstance(deals, Sequence):
        raise SetupError(
            f"deals is a list of stacked deals, one a round (each what new_game's deal takes), got {short(deals)}"
        )
    if len(deals) > MAX_STACKED_DEALS:
        raise SetupError(f"{len(deals)} deals: a match takes at most {MAX_STACKED_DEALS} stacked deals")
    if len(deals) > most:
        rounds = "1 round" if most == 1 else f"{most} rounds"
        raise SetupError(f"{len(deals)} deals for a match of at most {rounds} (rules.rounds)")
    out = []
    for i, deal in enumerate(deals):
        try:
            out.append(canonical_deal(deck, deal, players))
        except SetupError as exc:
            message = f"deals[{i}], the deal of the {ordinal(i + 1)} round: {exc}"
            raise SetupError(message if len(message) <= 400 else message[:400] + "…") from None
    return tuple(out)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``... ``11th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
