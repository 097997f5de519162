"""Cards: ranks, suits, the text notation (RULES.md §1) and decks.

A physical card is identified during a game by its index in the game's universe (the deck it
was dealt from), so two equal-looking cards of a two-deck game stay distinct. ``Card`` is the
face of a card: a rank and a suit, written ``AS``, ``10H``, ``KC``; jokers are ``JK1``, ``JK2``.
"""

from __future__ import annotations

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


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """The face of a card. ``suit`` is ``""`` for a joker, whose ``index`` tells the two apart."""

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
        """Read ``AS``, ``10H``, ``TH`` (T for 10), ``kc`` (any case), ``JK1``."""
        return parse_card(text)


def parse_card(text: str) -> Card:
    """Parse the text form of a card (RULES.md §1). Raises ``ValueError`` with the reason."""
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text like 'AS' or '10H', got {text!r}")
    t = text.strip().upper()
    if t.startswith(JOKER):
        rest = t[2:]
        if rest in ("1", "2"):
            return Card(JOKER, "", int(rest))
        raise ValueError(f"a joker is written JK1 or JK2, got {text!r}")
    if len(t) < 2:
        raise ValueError(f"a card is rank then suit, like 'AS' or '10H', got {text!r}")
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


def build_deck(ranks: tuple[str, ...], suits: tuple[str, ...], jokers: int, copies: int) -> list[Card]:
    """The cards of a deck in canonical order (suit by suit, then jokers), ``copies`` times."""
    one = [Card(r, s) for s in suits for r in ranks if r != JOKER]
    one += [Card(JOKER, "", i + 1) for i in range(jokers)]
    if jokers > 2:
        raise VariantError("at most 2 jokers (JK1, JK2)", key="deck.jokers")
    return one * copies
