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
from .violation import _fail, _rng


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
        raise _fail(game, "cards not conserved: " + "; ".join(problems), "conservation")


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

    >>> from tamalou.verify import random_playout
    >>> check_slot_order(random_playout("french", players=3, seed=4))
    """
    game = round_of(game)
    if not game.is_over:
        raise _fail(game, "the round is not over", "slot_order")
    rng = rng if rng is not None else _rng(game, "slot_order")
    base = game.final_result()
    keys = ("totals", "card_counts", "ranking", "winners", "scores")
    want = {k: getattr(base, k) for k in keys}
    for p in range(game.players) if players is None else players:
        slots = game.occupied(p)
        cards = [game.hands[p][s] for s in slots]
        for order in _permutations(cards, rng, permutations):
            g = game.copy()
            hand = list(g.hands[p])
            for s, c in zip(slots, order, strict=True):
                hand[s] = c
            g.hands[p] = hand
            g._result = None
            shown = " ".join(game.text[c] for c in order)
            try:
                r = g.final_result()
            except Exception as exc:
                raise _fail(
                    game,
                    f"with player {p}'s cards in the order {shown} the result raises {what_raised(exc)}",
                    "slot_order",
                ) from exc
            for k in keys:
                if getattr(r, k) != want[k]:
                    before = " ".join(game.text[c] for c in cards)
                    raise _fail(
                        game,
                        f"the result depends on the order of player {p}'s cards: {k} {want[k]} with {before}, "
                        f"{getattr(r, k)} with the same cards as {shown}",
                        "slot_order",
                    )
