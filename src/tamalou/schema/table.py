"""The sections of ``[rules]`` that set the table: who plays (``players``), with which cards (``deck``,
and ``DECK_RANKS``, the ranks of a standard deck), how they are dealt (``deal``) and the opening peek (``peek``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainSerializer,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..cards import DEFAULT_RANK_COUNT, JOKER, RANKS, Card, parse_card
from .bounds import MAX_DEAL, MAX_PLAYERS, MAX_RANKS
from .checks import error_details, named_twice, not_in_deck, once_each, rank_keys
from .key_types import RankName, Section, SuitName, Table, Tup, as_tuple, read_only

DECK_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: The most decks shuffled together (``deck.copies``).
MAX_COPIES = 4


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


def _bound(value: int, lo: int, hi: int) -> PydanticCustomError | None:
    """The error of a number below ``lo`` or above ``hi``, as pydantic's own ``ge`` and ``le`` say it."""
    if value < lo:
        return PydanticCustomError("greater_than_equal", "Input should be greater than or equal to {ge}", {"ge": lo})
    if value > hi:
        return PydanticCustomError("less_than_equal", "Input should be less than or equal to {le}", {"le": hi})
    return None


def _player_count(key: object) -> int | None:
    """A key of a table by player count: an integer, or its digits as TOML writes keys (``"5"``); ``None``
    if it is no player count (1 to ``MAX_PLAYERS``)."""
    if type(key) is int:
        n = key
    elif isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2:
        n = int(key)
    else:
        return None
    return n if 1 <= n <= MAX_PLAYERS else None


def _copies(value: Any) -> Any:
    """``deck.copies``: a number of decks, or a table of them keyed by the fewest players from which each
    applies (``{2 = 1, 5 = 2}``), its keys made integers and sorted. Each problem is one error at its key
    (the union of the two forms would report each twice)."""
    if type(value) is int:
        error = _bound(value, 1, MAX_COPIES)
        if error is not None:
            raise error
        return value
    if not isinstance(value, Mapping):
        return value  # the union says what it expects: an integer or a table
    errors: list[InitErrorDetails] = []
    out: dict[int, int] = {}
    first: dict[int, object] = {}
    for key, copies in value.items():
        n = _player_count(key)
        if n is None:
            why = (
                f"expected a player count from 1 to {MAX_PLAYERS} as key: the fewest players from which that many "
                "decks are shuffled together, e.g. {2 = 1, 5 = 2}"
            )
            errors.append(error_details("player_count", (str(key),), why, key))
            continue
        if n in first:
            errors.append(error_details("key_collision", (), f"{first[n]!r} and {key!r} both name {n} players", key))
            continue
        first[n] = key
        if type(copies) is not int:
            kind = PydanticCustomError("int_type", "Input should be a valid integer")
            errors.append({"type": kind, "loc": (str(key),), "input": copies})
            continue
        error = _bound(copies, 1, MAX_COPIES)
        if error is not None:
            errors.append({"type": error, "loc": (str(key),), "input": copies})
            continue
        out[n] = copies
    if not value:
        errors.append(error_details("empty_table", (), "expected at least one player count, e.g. {2 = 1, 5 = 2}", {}))
    if errors:
        raise ValidationError.from_exception_data("copies", errors)
    return dict(sorted(out.items()))


def _text_keys(table: Mapping[int, int]) -> dict[str, int]:
    """A table by player count as TOML and JSON write it: its keys as text."""
    return {str(k): v for k, v in table.items()}


#: A number of decks shuffled together.
Copies = Annotated[int, Field(ge=1, le=MAX_COPIES)]
#: Numbers of decks by player count: each applies from its count (the fewest players) up to the next one's.
CopiesByPlayers = Annotated[
    Mapping[Annotated[int, Field(ge=1, le=MAX_PLAYERS)], Copies],
    AfterValidator(read_only),
    PlainSerializer(_text_keys),
    WithJsonSchema(
        {
            "type": "object",
            "propertyNames": {"enum": [str(n) for n in range(1, MAX_PLAYERS + 1)]},
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES},
        }
    ),
]


class Players(Section):
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


class Deck(Section):
    """The cards in play."""

    ranks: Tup[RankName] = Field(
        DECK_RANKS,
        max_length=MAX_RANKS,
        description="Ranks in the deck (jokers apart): some of A 2 ... 10 J Q K, or, in a deck without suits, "
        f"names of 1 to 3 letters or digits such as 0 to 13, or negative numbers such as -2 (a rank named by a "
        f"number is worth that number; at most {MAX_RANKS} ranks).",
    )
    suits: Tup[SuitName] = Field(
        ("S", "H", "D", "C"),
        description="Suits in the deck; none ([]) for a deck whose cards have no suit and are written as "
        "their rank alone (e.g. 7).",
    )
    counts: Annotated[Table[RankName, Annotated[int, Field(ge=1, le=16)]], BeforeValidator(rank_keys)] = Field(
        default_factory=dict,
        description="A deck without suits: copies of a rank in one deck (default 4, at most 16), e.g. 0 = 2. "
        "A deck with suits has one card of each rank per suit.",
    )
    jokers: int = Field(0, ge=0, le=2, description="Jokers added (JK1, JK2): 0 to 2.")
    copies: Annotated[Copies | CopiesByPlayers, BeforeValidator(_copies)] = Field(
        1,
        description=f"How many such decks are shuffled together (1 to {MAX_COPIES}); or a table by player count, "
        "each entry from its count up to the next one's, e.g. {2 = 1, 5 = 2}: one deck from 2 players, two "
        "from 5 (its first count at most rules.players.min).",
    )

    @property
    def one_size(self) -> int:
        """How many cards one deck has (jokers included): what ``copies`` shuffles together."""
        ranks = [r for r in self.ranks if r != JOKER]
        one = len(ranks) * len(self.suits) if self.suits else sum(self.counts.get(r, DEFAULT_RANK_COUNT) for r in ranks)
        return one + self.jokers

    def copies_at(self, players: int) -> int:
        """How many decks a table of ``players`` shuffles together: ``copies``, or its table's entry of the
        largest count at most ``players``. Raises ``ValueError`` below the table's first count."""
        copies = self.copies
        if isinstance(copies, int):
            return copies
        found = None
        for n, k in copies.items():  # (sorted by count)
            if n > players:
                break
            found = k
        if found is None:
            first = next(iter(copies))
            raise ValueError(
                f"rules.deck.copies says no number of decks for {players} players (its first count is {first})"
            )
        return found

    def size(self, players: int) -> int:
        """How many cards the deck of a table of ``players`` has (jokers and copies included)."""
        return self.one_size * self.copies_at(players)

    def copies_by_players(self, fewest: int, most: int) -> list[tuple[int, int, int]]:
        """The tables from ``fewest`` to ``most`` players grouped by their number of decks: ``(first, last,
        copies)`` each, in order (one group when ``copies`` is a number). Raises ``ValueError`` when the
        table's first count is above ``fewest``."""
        out: list[tuple[int, int, int]] = []
        for n in range(fewest, most + 1):
            k = self.copies_at(n)
            if out and out[-1][2] == k:
                out[-1] = (out[-1][0], n, k)
            else:
                out.append((n, n, k))
        return out

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
            twice = named_twice(items)
            if twice:
                errors.append(
                    error_details("deck", (key,), f"{', '.join(map(repr, twice))} listed more than once", items)
                )
        # Which ranks fit depends on the suits, which another file may set: checked on the merged variant.
        if self.suits:
            odd = [r for r in self.ranks if r not in RANKS and r != JOKER]
            if odd:
                errors.append(
                    error_details(
                        "cross_field",
                        ("ranks",),
                        f"rank {odd[0]!r} is not a standard rank: a deck with suits has ranks among "
                        f"{' '.join(RANKS)} (for other ranks, a deck without suits: suits = [])",
                        self.ranks,
                    )
                )
            if self.counts:
                errors.append(
                    error_details(
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
                    errors.append(error_details("cross_field", ("ranks",), why, self.ranks))
            for r in self.counts:
                if r not in self.ranks:
                    errors.append(
                        error_details(
                            "cross_field", ("counts", r), not_in_deck(r, self.ranks, joker=False), self.counts[r]
                        )
                    )
        if errors:
            raise ValidationError.from_exception_data("Deck", errors)
        return self


def _upper_all(value: Any) -> Any:
    """Rank names and card texts as the deck writes them (``k`` is ``K``, ``10h`` is ``10H``)."""
    if isinstance(value, list | tuple):
        return [v.upper() if isinstance(v, str) else v for v in value]
    return value


class Deal(Section):
    """Setting up a round."""

    cards: int = Field(4, ge=1, le=MAX_DEAL, description=f"Face-down cards dealt to each player (1 to {MAX_DEAL}).")
    layout: Literal["square", "row"] = Field(
        "square", description="Cosmetic: a 2x2 square or a row (without a grid; a grid says the shape)."
    )
    grid: Annotated[
        tuple[Annotated[int, Field(ge=1, le=MAX_DEAL)], Annotated[int, Field(ge=1, le=MAX_DEAL)]] | None,
        BeforeValidator(as_tuple),
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
    discard_redraw: Annotated[Tup[str], BeforeValidator(_upper_all), AfterValidator(once_each)] = Field(
        (),
        description="Ranks or cards (e.g. a power card) that may not start the discard: turned up at the deal, such "
        "a card is buried at the bottom of the stock, in everyone's sight (the event 'redrawn'), and the stock's "
        "top is turned up instead, until one may stay (at most as many times as the stock has cards: a stock of such "
        "cards only keeps the last). Empty: the first card turned up stays.",
    )


class Peek(Section):
    """The opening peek at one's own cards."""

    mode: Literal["fixed", "choose", "none"] = Field(
        "fixed", description="'fixed': the slots below are shown at the deal; 'choose': each player picks."
    )
    slots: Annotated[Tup[Annotated[int, Field(ge=0, le=MAX_DEAL - 1)]], AfterValidator(once_each)] = Field(
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
    public: bool = Field(
        False,
        description="Whether the opening turns the cards face up for everyone rather than showing them to "
        "their owner alone.",
    )
