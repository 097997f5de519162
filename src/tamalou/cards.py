"""Cards: ranks, suits, the text notation and decks.

A physical card is identified during a game by its index in the game's universe (the deck it
was dealt from), so two equal-looking cards of a two-deck game stay distinct. ``Card`` is the
face of a card: a rank and a suit, written ``AS``, ``10H``, ``KC``; jokers are ``JK1``, ``JK2``.

A deck may also have no suits (``deck.suits = []``, e.g. Cabo's 52 cards valued 0 to 13): its
cards have the suit ``""`` and are written as their rank alone, ``7``, ``13``. Two such cards of
the same rank are the same face.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from .errors import VariantError

Rank = Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"]
Suit = Literal["S", "H", "D", "C"]

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
BLACK_SUITS = frozenset({"S", "C"})
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

#: Copies of each rank in one deck without suits, unless ``deck.counts`` says otherwise.
DEFAULT_RANK_COUNT = 4

# A rank name: 1 to 3 letters or digits, or a negative number (``-2``: Skyjo's lowest card, in a deck without suits).
_RANK_NAME = re.compile(r"[0-9A-Z]{1,3}|-[0-9]{1,2}")
_NUMBER = re.compile(r"[0-9]{1,3}|-[0-9]{1,2}")
# How the text of a standard card may start (A, 2..10 or 1 for A, T for 10, J, Q, K): a bare rank
# starting so, or ending with a suit letter, would be confused with the standard notation.
_STANDARD_START = frozenset("AJQKT0123456789")


def is_rank_name(text: str) -> bool:
    """Whether ``text`` is a well-formed rank name: 1 to 3 upper-case letters or digits, or a negative number of 1 or
    2 digits (``-2``)."""
    return _RANK_NAME.fullmatch(text) is not None


def rank_number(rank: str) -> int | None:
    """The number a rank is named by (``"7"``: 7, ``"-2"``: -2), or ``None`` for a rank named otherwise (``"K"``)."""
    return int(rank) if _NUMBER.fullmatch(rank) is not None else None


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """The face of a card. ``suit`` is ``""`` for a joker, whose ``index`` tells the two apart,
    and for a card of a deck without suits (written as its rank alone, ``7``)."""

    rank: str
    suit: str = ""
    index: int = 0

    def __str__(self) -> str:
        if self.rank == JOKER:
            return f"JK{self.index}"
        return f"{self.rank}{self.suit}"

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_black(self) -> bool:
        return self.suit in BLACK_SUITS

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``10H``, ``TH`` (T for 10), ``kc`` (any case), ``JK1``, or ``7`` (no suit)."""
        return parse_card(text)


def parse_card(text: str) -> Card:
    """Parse the text form of a card. Raises ``ValueError`` with the reason.

    A standard card is its rank then its suit (``AS``, ``10H``, ``TH``, ``1S`` for ``AS``); a joker is ``JK1`` or
    ``JK2``. A card of a deck without suits is its rank alone: a number of 1 to 3 digits (``0``, ``7``, ``10``,
    ``13``) or a negative one (``-2``), or a name of 1 to 3 letters or digits that cannot be read as a standard card
    (it neither starts like a standard rank, A 1-9 T J Q K, nor ends with a suit letter S H D C), e.g. ``X``.
    """
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text like 'AS' or '10H', got {text!r}")
    return _parse_short(text) if len(text) <= 8 else _parse_text(text)


def _parse_text(text: str) -> Card:
    t = text.strip().upper()
    if t.startswith(JOKER):
        rest = t[2:]
        if rest in ("1", "2"):
            return Card(JOKER, "", int(rest))
        raise ValueError(f"a joker is written JK1 or JK2, got {text!r}")
    if _NUMBER.fullmatch(t) or (_RANK_NAME.fullmatch(t) and t[0] not in _STANDARD_START and t[-1] not in SUITS):
        return Card(t, "")
    if len(t) < 2:
        raise ValueError(
            f"a card is rank then suit, like 'AS' or '10H' (or a number alone, like '7', in a deck without suits), "
            f"got {text!r}"
        )
    rank, suit = t[:-1], t[-1]
    if rank == "T":
        rank = "10"
    if rank == "1":
        rank = "A"
    if rank not in RANKS:
        raise ValueError(f"unknown rank {rank!r} in {text!r} (ranks: {' '.join(RANKS)}, T for 10)")
    if suit not in SUITS:
        raise ValueError(f"unknown suit {suit!r} in {text!r} (suits: S H D C)")
    return Card(rank, suit)


# Speed: a plugin reads the same few dozen card texts again and again (a scoring by position parses each card of
# each layout at every end of a round: ``tamalou verify`` of the example package's columns ruleset, 6 cards a
# player, spent a tenth of its time parsing cards, measured with ``benchmarks/verify_games.py``). ``Card`` is
# immutable, so the card of a short text is kept (a text of a card has at most 3 characters; padded ones up to 8 are
# kept too, longer ones, e.g. untrusted input, never are); an error is not kept (it raises anew).
_parse_short = functools.lru_cache(maxsize=1024)(_parse_text)


def build_deck(
    ranks: tuple[str, ...],
    suits: tuple[str, ...],
    jokers: int,
    copies: int,
    counts: Mapping[str, int] | None = None,
) -> list[Card]:
    """The cards of a deck in canonical order, ``copies`` times.

    With suits: suit by suit, each in ``ranks`` order, then the jokers. Without suits (``suits``
    empty): rank by rank, the ``counts[rank]`` copies of a rank together (``DEFAULT_RANK_COUNT``
    for a rank not in ``counts``), then the jokers.
    """
    if jokers > 2:
        raise VariantError("at most 2 jokers (JK1, JK2)", key="deck.jokers")
    if suits:
        one = [Card(r, s) for s in suits for r in ranks if r != JOKER]
    else:
        counts = counts or {}
        one = [Card(r, "") for r in ranks if r != JOKER for _ in range(counts.get(r, DEFAULT_RANK_COUNT))]
    one += [Card(JOKER, "", i + 1) for i in range(jokers)]
    return one * copies


def deck_counter(cards: Iterable[Card]) -> Counter[str]:
    """How many times each card text (``5S``, ``7``, ``JK1``) occurs in ``cards``."""
    return Counter(str(c) for c in cards)


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def check_cards_in_deck(deck: Iterable[Card], cards: Iterable[Card]) -> str | None:
    """None when ``cards`` (all the cards of a stacked deal) can be taken from ``deck``: each card
    at most as many times as the deck holds it. Otherwise why not, naming the first card (in the
    order of ``cards``) that cannot."""
    deck = list(deck)
    held = deck_counter(deck)
    cards = list(cards)
    wanted = deck_counter(cards)
    suited = any(c.suit for c in deck)
    for card in cards:
        text = str(card)
        n = held[text]
        if wanted[text] <= n:
            continue
        if n:
            return f"card {text} appears {wanted[text]} times but the deck holds it {_times(n)}"
        if card.is_joker:
            jokers = sorted(t for t in held if t.startswith(JOKER))
            return f"card {text} is not in this deck ({'jokers: ' + ' '.join(jokers) if jokers else 'no jokers'})"
        if not card.suit and suited:
            return f"card {text} is not in this deck (its cards have suits)"
        if card.suit and not suited and len(held) > sum(1 for t in held if t.startswith(JOKER)):
            return f"card {text} is not in this deck (its cards have no suit)"
        return f"card {text} is not in this deck"
    return None
