"""The checks of where the cards lie: ``check_conservation`` (every card of the universe is in exactly
one place: a slot, the stock, the discard or held; a shuffled round's universe is the deck of its table)
and ``check_slot_order`` (a finished round's result does not depend on which slot of a layout holds which
card)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..cards import deck_counter
from ..engine import NO_CARD, Round
from ..engine.game import Game, round_of
from ..errors import what_raised
from .violation import check_rng, violation_of


def check_conservation(game: Game | Round) -> None:
    """Every card of the universe is in exactly one place: a layout slot, the stock, the discard,
    or held (``game.held``; ``-1`` if none). Nothing is lost, duplicated or invented. A round shuffled and
    dealt (no stacked deal) holds the deck of its player count (``rules.deck.copies`` decks).

    >>> from tamalou import new_game
    >>> check_conservation(new_game("french", players=3, seed=1))
    """
    game = round_of(game)
    n = len(game.cards)
    problems: list[str] = []
    for name in ("text", "rank", "value", "knowers"):
        size = len(getattr(game, name))
        if size != n:
            problems.append(f"game.{name} has {size} entries for {n} cards")
    if len(game.hands) != game.players:
        problems.append(f"{len(game.hands)} layouts for {game.players} players")
    if game.deal_spec is None:  # shuffled and dealt: the cards are those of the deck of the table
        problems += _not_the_deck(game)
    seen: dict[int, str] = {}

    def put(card: object, place: str) -> None:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < n:
            problems.append(f"{place} holds {card!r}, which is not a card id (0 to {n - 1})")
        elif card in seen:
            problems.append(f"card {card} ({game.text[card]}) is both at {seen[card]} and at {place}")
        else:
            seen[card] = place

    for p, hand in enumerate(game.hands):
        for s, c in enumerate(hand):
            if c != NO_CARD:
                put(c, f"player {p} slot {s}")
    for i, c in enumerate(game.stock):
        put(c, f"stock[{i}]")
    for i, c in enumerate(game.discard):
        put(c, f"discard[{i}]")
    if game.held != NO_CARD:
        put(game.held, "held")
    missing = [c for c in range(n) if c not in seen]
    if missing:
        shown = ", ".join(f"{c} ({game.text[c]})" for c in missing[:8])
        problems.append(f"{len(missing)} card(s) are nowhere: {shown}")
    if problems:
        raise violation_of(game, "cards not conserved: " + "; ".join(problems), "conservation")


def _not_the_deck(game: Round) -> list[str]:
    """What is wrong with the cards of a shuffled round: they must be the deck of its player count
    (``rules.deck.copies`` decks), the same list in the usual case (the cards of a clone that a search or a
    resample dealt again may be another list of the same cards)."""
    try:
        deck = game.rb.deck_for(game.players)
    except ValueError as exc:
        return [str(exc)]
    if game.cards is deck or deck_counter(game.cards) == deck_counter(deck):
        return []
    return [
        f"the round's {len(game.cards)} cards are not the deck of {game.players} players "
        f"({len(deck)} cards, by rules.deck.copies)"
    ]


def _permutations(cards: list[int], rng: random.Random, count: int) -> list[list[int]]:
    """Up to ``count`` other orders of ``cards``: reversed, rotated, then shuffled."""
    out: list[list[int]] = []
    candidates = [cards[::-1], cards[1:] + cards[:1]]
    for _ in range(max(0, count - len(candidates)) + 4):
        shuffled = list(cards)
        rng.shuffle(shuffled)
        candidates.append(shuffled)
    for order in candidates:
        if order != cards and order not in out:
            out.append(order)
        if len(out) >= count:
            break
    return out


def _grid_orders(hand: list[int], grid: tuple[int, int], rng: random.Random, count: int) -> list[list[int]]:
    """Up to ``count`` other layouts of ``hand`` (card ids by slot, ``NO_CARD`` for an emptied slot) on a grid of
    ``rows`` x ``columns``: its rows in another order and its columns in another order (reversed, rotated, then
    shuffled), the slots past the grid (penalty cards) shuffled among themselves. Each row and each column keeps
    its cards: a rule by rows or columns gives the same result, one by a slot's place does not."""
    rows, columns = grid
    size = rows * columns
    past = [c for c in hand[size:] if c != NO_CARD]
    out: list[list[int]] = []
    every_row, every_column = list(range(rows)), list(range(columns))
    candidates = [(every_row[::-1], every_column), (every_row, every_column[::-1])]
    candidates.append(([*every_row[1:], 0], [*every_column[1:], 0]))
    for _ in range(count + 4):
        row_order, column_order = list(every_row), list(every_column)
        rng.shuffle(row_order)
        rng.shuffle(column_order)
        candidates.append((row_order, column_order))
    for row_order, column_order in candidates:
        moved = [hand[row_order[s // columns] * columns + column_order[s % columns]] for s in range(size)]
        tail = list(hand[size:])
        if len(past) > 1:
            shuffled = list(past)
            rng.shuffle(shuffled)
            spots = [i for i, card in enumerate(tail) if card != NO_CARD]
            for i, card in zip(spots, shuffled, strict=True):
                tail[i] = card
        layout = moved + tail
        if layout != hand and layout not in out:
            out.append(layout)
        if len(out) >= count:
            break
    return out


def check_slot_order(
    game: Game | Round, rng: random.Random | None = None, *, permutations: int = 3, players: Iterable[int] | None = None
) -> None:
    """A finished round's result does not depend on where each card lies in its layout: with one
    player's cards put in other slots of their layout (``permutations`` orders each: reversed,
    rotated, shuffled with ``rng``; default: seeded from the game; for each of ``players``, default
    all), the totals, card counts,
    ranking, winners and scores are the same. Every card is face up at the end: a rule that reads
    the order of the cards (the first slot counts double, a tie broken by the hand as dealt) breaks
    it; one that sorts them does not.

    A ruleset whose layouts are a grid (``rules.deal.grid``) may score by rows or columns (a column of one
    rank counts 0): there the cards move by whole rows and whole columns (the rows in another order, the
    columns in another order, so that each row and each column keeps its cards; the slots past the grid among
    themselves), and a rule that reads one slot's place still breaks it.

    >>> from tamalou.verify import random_playout
    >>> check_slot_order(random_playout("french", players=3, seed=4))
    """
    game = round_of(game)
    if not game.is_over:
        raise violation_of(game, "the round is not over", "slot_order")
    rng = rng if rng is not None else check_rng(game, "slot_order")
    base = game.final_result()
    keys = ("totals", "card_counts", "ranking", "winners", "scores")
    want = {k: getattr(base, k) for k in keys}
    grid = game.variant.rules.deal.grid
    for p in range(game.players) if players is None else players:
        hand = list(game.hands[p])
        if grid is None:
            slots = game.occupied(p)
            cards = [hand[s] for s in slots]
            layouts = []
            for order in _permutations(cards, rng, permutations):
                layout = list(hand)
                for s, c in zip(slots, order, strict=True):
                    layout[s] = c
                layouts.append(layout)
        else:
            layouts = _grid_orders(hand, grid, rng, permutations)
        before = " ".join(game.text[c] for c in hand if c != NO_CARD)
        for layout in layouts:
            g = game.copy()
            g.hands[p] = layout
            g._result = None
            shown = " ".join(game.text[c] for c in layout if c != NO_CARD)
            try:
                r = g.final_result()
            except Exception as exc:
                raise violation_of(
                    game,
                    f"with player {p}'s cards in the order {shown} the result raises {what_raised(exc)}",
                    "slot_order",
                ) from exc
            for k in keys:
                if getattr(r, k) != want[k]:
                    raise violation_of(
                        game,
                        f"the result depends on the order of player {p}'s cards: {k} {want[k]} with {before}, "
                        f"{getattr(r, k)} with the same cards as {shown}",
                        "slot_order",
                    )
