"""The sections of ``[rules]`` that set the table: who plays (``players``), with which cards (``deck``,
and ``DECK_RANKS``, the ranks of a standard deck), how they are dealt (``deal``) and the opening peek (``peek``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..cards import DEFAULT_RANK_COUNT, JOKER, RANKS, Card, parse_card
from .bounds import MAX_DEAL, MAX_PLAYERS, MAX_RANKS
from .checks import _error, _not_in_deck, _once, _rank_keys, _twice
from .key_types import RankName, SuitName, Table, Tup, _as_tuple, _Section

DECK_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _bare_rank_problem(rank: str) -> str | None:
    """Why ``rank`` cannot be a rank of a deck without suits (its cards are written as the rank alone)."""
    if rank == JOKER:
        return f"rank {JOKER!r} is kept for jokers (deck.jokers)"
    try:
        card = parse_card(rank)
    except ValueError:
        card = None
    if card != Card(rank, ""):
        return (
            f"rank {rank!r} cannot be written alone as a card of a deck without suits (it reads as the standard "
            "notation): use numbers, or names that neither start with A, T, J, Q, K or a digit nor end with S, H, D, C"
        )
    return None


class Players(_Section):
    """How many may sit at the table."""

    min: int = Field(2, ge=1, le=MAX_PLAYERS, description=f"Fewest players (1 to {MAX_PLAYERS}).")
    max: int = Field(6, ge=1, le=MAX_PLAYERS, description=f"Most players (1 to {MAX_PLAYERS}).")

    @model_validator(mode="after")
    def _order(self) -> Players:
        if self.min > self.max:
            raise PydanticCustomError(
                "cross_field", "min ({lo}) is larger than max ({hi})", {"lo": self.min, "hi": self.max}
            )
        return self


class Deck(_Section):
    """The cards in play."""

    ranks: Tup[RankName] = Field(
        DECK_RANKS,
        max_length=MAX_RANKS,
        description="Ranks in the deck (jokers apart): some of A 2 ... 10 J Q K, or, in a deck without suits, "
        f"names of 1 to 3 letters or digits such as 0 to 13 (at most {MAX_RANKS} ranks).",
    )
    suits: Tup[SuitName] = Field(
        ("S", "H", "D", "C"),
        description="Suits in the deck; none ([]) for a deck whose cards have no suit and are written as "
        "their rank alone (e.g. 7).",
    )
    counts: Annotated[Table[RankName, Annotated[int, Field(ge=1, le=16)]], BeforeValidator(_rank_keys)] = Field(
        default_factory=dict,
        description="A deck without suits: copies of a rank in one deck (default 4, at most 16), e.g. 0 = 2. "
        "A deck with suits has one card of each rank per suit.",
    )
    jokers: int = Field(0, ge=0, le=2, description="Jokers added (JK1, JK2): 0 to 2.")
    copies: int = Field(1, ge=1, le=4, description="How many such decks are shuffled together (1 to 4).")

    @property
    def size(self) -> int:
        """How many cards the deck has (jokers and copies included)."""
        ranks = [r for r in self.ranks if r != JOKER]
        one = len(ranks) * len(self.suits) if self.suits else sum(self.counts.get(r, DEFAULT_RANK_COUNT) for r in ranks)
        return (one + self.jokers) * self.copies

    @property
    def faces(self) -> frozenset[Card]:
        """The faces of the deck's cards, jokers apart."""
        if self.suits:
            return frozenset(Card(r, s) for r in self.ranks if r != JOKER for s in self.suits)
        return frozenset(Card(r, "") for r in self.ranks if r != JOKER)

    @model_validator(mode="after")
    def _consistent(self) -> Deck:
        errors: list[InitErrorDetails] = []
        for key, items in (("ranks", self.ranks), ("suits", self.suits)):
            twice = _twice(items)
            if twice:
                errors.append(_error("deck", (key,), f"{', '.join(map(repr, twice))} listed more than once", items))
        # Which ranks fit depends on the suits, which another file may set: checked on the merged variant.
        if self.suits:
            odd = [r for r in self.ranks if r not in RANKS and r != JOKER]
            if odd:
                errors.append(
                    _error(
                        "cross_field",
                        ("ranks",),
                        f"rank {odd[0]!r} is not a standard rank: a deck with suits has ranks among "
                        f"{' '.join(RANKS)} (for other ranks, a deck without suits: suits = [])",
                        self.ranks,
                    )
                )
            if self.counts:
                errors.append(
                    _error(
                        "cross_field",
                        ("counts",),
                        "counts is for a deck without suits (suits = []): with suits, a deck has one card "
                        "of each rank per suit",
                        dict(self.counts),
                    )
                )
        else:
            for r in self.ranks:
                why = _bare_rank_problem(r)
                if why:
                    errors.append(_error("cross_field", ("ranks",), why, self.ranks))
            for r in self.counts:
                if r not in self.ranks:
                    errors.append(
                        _error("cross_field", ("counts", r), _not_in_deck(r, self.ranks, joker=False), self.counts[r])
                    )
        if errors:
            raise ValidationError.from_exception_data("Deck", errors)
        return self


class Deal(_Section):
    """Setting up a round."""

    cards: int = Field(4, ge=1, le=MAX_DEAL, description=f"Face-down cards dealt to each player (1 to {MAX_DEAL}).")
    layout: Literal["square", "row"] = Field(
        "square", description="Cosmetic: a 2x2 square or a row (without a grid; a grid says the shape)."
    )
    grid: Annotated[
        tuple[Annotated[int, Field(ge=1, le=MAX_DEAL)], Annotated[int, Field(ge=1, le=MAX_DEAL)]] | None,
        BeforeValidator(_as_tuple),
    ] = Field(
        None,
        description="The layouts' shape, [rows, columns] (rows x columns = rules.deal.cards): slot s is at row "
        "s // columns, column s % columns (slot 0 top left). Mechanics read it (rules by rows or columns), every "
        "view carries it (PlayerView.grid) and tamalou play draws it; slots added later (a penalty card) follow "
        "the grid. Not set: the layout has no shape.",
    )
    discard: int = Field(
        1, ge=0, le=1, description="Cards turned up from the stock to start the discard: 1, or 0 (starts empty)."
    )
    first_player: Literal["random"] | Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)] = Field(
        "random",
        description=f"'random' (seeded) or a seat number (0 to {MAX_PLAYERS - 1}, below rules.players.max).",
    )
    first_card_matchable: bool = Field(
        True, description="Whether the card turned up at the deal may be matched like a thrown card."
    )


class Peek(_Section):
    """The opening peek at one's own cards."""

    mode: Literal["fixed", "choose", "none"] = Field(
        "fixed", description="'fixed': the slots below are shown at the deal; 'choose': each player picks."
    )
    slots: Annotated[Tup[Annotated[int, Field(ge=0, le=MAX_DEAL - 1)]], AfterValidator(_once)] = Field(
        (0, 1),
        description=f"Slots shown when mode is 'fixed' (0 is the first card dealt; 0 to {MAX_DEAL - 1}, each "
        "below rules.deal.cards).",
    )
    count: int = Field(
        2,
        ge=0,
        le=MAX_DEAL,
        description=f"How many slots a player picks when mode is 'choose' (0 to {MAX_DEAL}, at most rules.deal.cards).",
    )
