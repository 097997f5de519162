"""The variant format: every rule of every ruleset as a typed key.

A variant file is TOML. Top-level keys describe the ruleset (``name``, ``aliases``, ``extends``,
``plugins``...); the ``[rules]`` table holds one sub-table per part of the game. Every key has a
default (the plain core: no powers, no special card values, see docs/architecture.md), so a file
that ``extends`` another only says what differs. Unknown keys are
errors. ``tamalou.variant_json_schema()`` returns this schema as JSON Schema for editors.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from .cards import DEFAULT_RANK_COUNT, JOKER, RANKS, Card, is_rank_name, parse_card

TieBreak = Literal["fewer_cards", "caller_ahead", "caller_behind"]
SuitName = Literal["S", "H", "D", "C"]


def _rank_name(value: Any) -> Any:
    """A rank name: 1 to 3 letters or digits, upper-cased (``a`` is ``A``)."""
    if not isinstance(value, str):
        return value  # the str validation that follows says "expected a string"
    name = value.upper()
    if not is_rank_name(name):
        raise PydanticCustomError(
            "rank_name",
            "expected a rank name of 1 to 3 letters or digits (like A, 10, K or 13), got {got}",
            {"got": repr(value)},
        )
    return name


#: A rank: A 2 ... 10 J Q K (and JK for jokers) in a deck with suits; any name of 1 to 3 letters or
#: digits (e.g. 0 to 13) in a deck without suits.
RankName = Annotated[str, BeforeValidator(_rank_name)]


DECK_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

DEFAULT_VALUES: dict[str, int] = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
    "JK": -1,
}


# --- the bounds of a ruleset's numbers ---------------------------------------------------------------
# Everything a ruleset may hold is bounded, so that whatever is accepted can be played, saved and restored:
# the snapshots (``Game.to_json``, ``Match.to_json``) of a game of any legal ruleset are read back by
# ``from_json``, which refuses times from 1e12 seconds on (``actions.MAX_TIME``: ``now``, a clock's deadlines)
# and texts over 600,000,000 characters (``engine.snapshot.MAX_TEXT``).

#: The most players at a table (``players.min`` and ``players.max``).
MAX_PLAYERS = 12
#: The most cards dealt to each player (``deal.cards``); a peek names slots below it.
MAX_DEAL = 12
#: The most ranks a deck may have (``deck.ranks``): with 16 copies of a rank (``deck.counts``), 4 decks
#: (``deck.copies``) and 2 jokers, a deck has at most 4,104 cards.
MAX_RANKS = 64
#: The longest time a ruleset may set, in seconds (a year): every time of ``rules.timing`` is finite, at least 0
#: and at most this. A round's clock then stays far below the 1e12 s a snapshot accepts: it starts at 0 and
#: moves by at most one such time per turn (a turn's deadline) plus the opening peek and the final countdown,
#: (``MAX_TURNS`` + 2) x ``MAX_SECONDS`` = 3.2e11 s.
MAX_SECONDS = 86_400.0 * 365
#: The most entries of ``timing.lockouts`` (past the list, matching is locked for the rest of the round).
MAX_LOCKOUTS = 64
#: The most turns of a round (``end.max_turns``), so that a round cannot be made endless.
MAX_TURNS = 10_000
#: The most rounds of a match (``rounds.count``, ``rounds.max_rounds``).
MAX_ROUNDS = 1_000
#: The most turns a whole match may last: its most rounds (1, ``rounds.count`` or ``rounds.max_rounds`` by its
#: form) times ``end.max_turns`` (the defaults: 100 rounds of at most 400 turns). A snapshot holds every action of
#: the round (``Game.to_json``), a match snapshot every action of every round (``Match.to_json``): a turn takes 35
#: to 65 characters in random legal play, so the longest legal match takes 1,400,000 to 2,600,000. The engine bounds
#: the actions of a turn (each player throws at most ``matching.max_cards`` cards on a thrown card, a turn throws at
#: most ``draw.per_turn`` cards, a right card taken from an opponent needs one give; a tick that fires nothing takes
#: the place of a tick before it in the log, so at most one follows each other action), and at the worst (12
#: players, each throwing every card they may on every thrown card, the right ones first, a tick after every
#: action, every action stamped with the longest time text) a turn takes about 9,500 characters: the longest legal
#: match played so, some 380,000,000, is under the 600,000,000 that ``from_json`` reads
#: (``engine.snapshot.MAX_TEXT``) with a margin of 1.5 and more (measured by tests/properties/test_restorable.py).
MAX_MATCH_TURNS = 40_000
#: The most points, either way, of a card (``values``), a threshold (``call.threshold``, ``end.win_max``) or a
#: penalty (``scoring.caller_lost_penalty``).
MAX_POINTS = 1_000
#: The largest points limit of a match (``rounds.limit``).
MAX_LIMIT = 1_000_000_000

# --- the bounds of a ruleset's texts -----------------------------------------------------------------
# Every text a ruleset holds has a bound too, and those shown on one line (names, aliases, a power's name, the title,
# each source, the base) refuse control characters and line breaks: a name is printed in the middle of a line (a
# heading, a comment of ``tamalou show --toml``, a log), where a line break would start a line of the text's choice.
# Only the description may span several lines (newlines and tabs; no other control character).

#: The longest name (``name``; each name of a composition's, ``french+gabo``), alias (``aliases``) or power name
#: (``rules.powers``), in characters.
MAX_NAME_LENGTH = 64
#: The most rulesets a composition's name joins with ``+`` (as a snapshot's variant names at most 16:
#: ``engine.snapshot.MAX_PARTS``).
MAX_NAME_PARTS = 16
#: The most entries of ``aliases``.
MAX_ALIASES = 16
#: The longest ``title``, in characters.
MAX_TITLE_LENGTH = 200
#: The longest ``description``, in characters.
MAX_DESCRIPTION_LENGTH = 4_000
#: The longest entry of ``sources`` (a reference or an address), in characters.
MAX_SOURCE_LENGTH = 500
#: The most entries of ``sources``.
MAX_SOURCES = 32
#: The longest ``base`` (a registered ruleset's name or, in a trusted load, a file's path), in characters.
MAX_BASE_LENGTH = 4_096

_MAX_S = int(MAX_SECONDS)


def _int_seconds(value: Any) -> Any:
    """An integer of seconds out of bounds is refused as such (one too large for a float would otherwise
    be "not a number")."""
    if type(value) is int and value > MAX_SECONDS:
        raise PydanticCustomError("less_than_equal", "Input should be less than or equal to {le}", {"le": _MAX_S})
    if type(value) is int and value < 0:
        raise PydanticCustomError("greater_than_equal", "Input should be greater than or equal to {ge}", {"ge": 0})
    return value


#: A time of ``rules.timing``: a finite number of seconds, from 0 to ``MAX_SECONDS``.
Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False), BeforeValidator(_int_seconds)]
#: Points of a card, a threshold or a penalty: an integer from ``-MAX_POINTS`` to ``MAX_POINTS``.
Points = Annotated[int, Field(ge=-MAX_POINTS, le=MAX_POINTS)]

#: Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: none is allowed in a text
#: shown on one line.
_NOT_ON_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: The control characters a terminal may take for a command: C0 but newline and tab, DEL, C1 (ESC and CSI, OSC,
#: DCS... begin the escape sequences). A description may hold none of them; the command line prints each one
#: it is given as a visible escape (``cli.printable``).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _refuse(found: re.Match[str] | None, what: str) -> None:
    """A ``PydanticCustomError`` naming the character ``found`` (by its code, never the text around it)."""
    if found is not None:
        raise PydanticCustomError(
            "control_character",
            "expected {what}, found U+{code} at character {at}",
            {"what": what, "code": f"{ord(found.group()):04X}", "at": found.start() + 1},
        )


def _one_line(text: str) -> str:
    """A text shown on one line: no control character, no line break (an ``AfterValidator``)."""
    _refuse(_NOT_ON_ONE_LINE.search(text), "one line without control characters")
    return text


def _description_text(text: str) -> str:
    """A description: lines (newlines and tabs allowed), no other control character (an ``AfterValidator``)."""
    _refuse(CONTROL.search(text), "text without control characters (but newlines and tabs)")
    return text


#: A power's name (at most ``MAX_NAME_LENGTH`` characters, on one line). Powers are registered by plugins and
#: checked when a variant is compiled, not here.
PowerName = Annotated[str, Field(max_length=MAX_NAME_LENGTH), AfterValidator(_one_line)]

K = TypeVar("K")
V = TypeVar("V")


def _as_tuple(value: Any) -> Any:
    """TOML arrays arrive as lists; the variant keeps immutable tuples."""
    return tuple(value) if isinstance(value, list) else value


class FrozenTable(dict[Any, Any]):
    """A read-only dict: a variant's tables cannot be changed after validation."""

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a variant's tables are read-only; build a new variant instead")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenTable, (dict(self),))

    def __copy__(self) -> FrozenTable:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenTable:
        return self


def _read_only(value: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return FrozenTable(value)


#: A TOML array kept as a tuple (items validated strictly: no "1" for 1).
Tup = Annotated[tuple[V, ...], BeforeValidator(_as_tuple)]
#: A TOML table kept read-only.
Table = Annotated[Mapping[K, V], AfterValidator(_read_only), PlainSerializer(dict)]


class _Section(BaseModel):
    # strict: TOML values are typed, so "7" or true is never taken for 7.
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True, strict=True)


def _card_keys(value: Any) -> Any:
    """A table keyed by cards (``values.cards``, ``powers.cards``), its keys written the standard way
    (``kh`` is ``KH``). Every key that is no card is an error, and so are two keys naming one card."""
    if not isinstance(value, Mapping):
        return value
    out: dict[str, object] = {}
    first: dict[str, object] = {}
    errors: list[InitErrorDetails] = []
    for key, v in value.items():
        try:
            card = parse_card(key)
        except ValueError as exc:
            errors.append(_error("card_key", (str(key),), f"{key!r} is not a card: {exc}", key))
            continue
        text = str(card)
        if text in first:
            errors.append(_error("key_collision", (), f"{first[text]!r} and {key!r} both name the card {text}", key))
            continue
        first[text] = key
        out[text] = v
    if errors:
        raise ValidationError.from_exception_data("cards", errors)
    return out


def _rank_keys(value: Any) -> Any:
    """A table keyed by ranks: two keys naming one rank (``a`` and ``A``) are an error. The keys are
    upper-cased by ``RankName`` afterwards."""
    if not isinstance(value, Mapping):
        return value
    first: dict[str, object] = {}
    errors: list[InitErrorDetails] = []
    for key in value:
        if not isinstance(key, str):
            continue
        name = key.upper()
        if name in first:
            errors.append(_error("key_collision", (), f"{first[name]!r} and {key!r} both name the rank {name}", key))
        else:
            first[name] = key
    if errors:
        raise ValidationError.from_exception_data("ranks", errors)
    return value


def _twice(items: tuple[Any, ...]) -> list[Any]:
    """The items listed more than once, in the order of their first place (in linear time)."""
    return [x for x, k in Counter(items).items() if k > 1]  # (a Counter keeps the order items come in)


def _once(items: tuple[Any, ...]) -> tuple[Any, ...]:
    """A list whose items are all different (an ``AfterValidator``)."""
    twice = _twice(items)
    if twice:
        raise PydanticCustomError("listed_twice", "{items} listed more than once", {"items": repr(twice[0])})
    return items


def _error(kind: str, loc: tuple[str | int, ...], message: str, value: Any) -> InitErrorDetails:
    """One error at ``loc`` (relative to the model that raises it), for ``ValidationError.from_exception_data``.
    ``cross_field`` errors are checked on the merged variant only (see ``variant._partial_errors``)."""
    return {"type": PydanticCustomError(kind, "{message}", {"message": message}), "loc": loc, "input": value}


def _not_in_deck(rank: str, ranks: tuple[str, ...], *, joker: bool = True) -> str:
    expected = [r for r in ranks if r != JOKER] + ([JOKER] if joker else [])
    return f"rank {rank!r} is not in the deck (expected one of {' '.join(expected)})"


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
    layout: Literal["square", "row"] = Field("square", description="Cosmetic: a 2x2 square or a row.")
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


class Values(_Section):
    """Points of each card: by rank, then per-card overrides (e.g. red kings)."""

    ranks: Table[RankName, Points] = Field(
        default_factory=lambda: dict(DEFAULT_VALUES),
        description="Points by rank. Ranks left out keep their default (A=1 ... 10=10, J=Q=K=10, JK=-1; "
        f"in a deck without suits, a rank named by a number is worth that number); -{MAX_POINTS} to {MAX_POINTS}.",
    )
    cards: Table[str, Points] = Field(
        default_factory=dict,
        description=f"Points of single cards, e.g. KS = 15 (-{MAX_POINTS} to {MAX_POINTS}).",
    )

    _norm = field_validator("cards", mode="before")(classmethod(lambda cls, v: _card_keys(v)))

    @field_validator("ranks", mode="before")
    @classmethod
    def _keep_defaults(cls, v: object) -> object:
        if isinstance(v, Mapping):
            return {**DEFAULT_VALUES, **_rank_keys(v)}
        return v


class DrawRules(_Section):
    """Where a turn takes its card from."""

    from_discard: bool = Field(True, description="Whether the discard top may be taken.")
    discard_forbidden: Annotated[Tup[RankName], AfterValidator(_once)] = Field(
        (), description="Ranks that may not be taken from the discard (e.g. J, Q, K)."
    )
    discard_must_replace: bool = Field(
        True, description="A card taken from the discard must replace a slot (it cannot be thrown back)."
    )
    per_turn: int = Field(
        1,
        ge=1,
        le=2,
        description="Draws a turn may hold (1 or 2); the second is offered after the first is resolved.",
    )
    stock_empty: Literal["reshuffle", "end_round"] = Field(
        "reshuffle",
        description="When the stock runs out: reshuffle the discard but its top, or end the round.",
    )


class Powers(_Section):
    """Card powers."""

    trigger: Literal["drawn_thrown", "landing"] = Field(
        "drawn_thrown",
        description="'drawn_thrown': only a card drawn from the stock and thrown at once (Le Tamalou); "
        "'landing': any card that lands on the discard in your turn, the replaced one included (tamalou.fun).",
    )
    optional: bool = Field(True, description="Whether a power may be declined with 'pass'.")
    passed_on: bool = Field(
        False, description="After a swap or peek power, the next player may use it once instead of drawing."
    )
    replaced: bool = Field(
        False,
        description="After a stock draw, the card replaced out of the layout also gives its power, resolved as "
        "part of the replace: it cannot be declined ('pass' is offered only when it has no use) (cambia house rule).",
    )
    ranks: Annotated[Table[RankName, PowerName], BeforeValidator(_rank_keys)] = Field(
        default_factory=dict,
        description=f"Power by rank (a power's name: at most {MAX_NAME_LENGTH} characters, on one line).",
    )
    cards: Table[str, PowerName] = Field(
        default_factory=dict,
        description=f"Power of single cards, e.g. KS (a power's name: at most {MAX_NAME_LENGTH} characters, on one "
        "line).",
    )

    _norm = field_validator("cards", mode="before")(classmethod(lambda cls, v: _card_keys(v)))


class Matching(_Section):
    """Throwing cards of the discard top's rank, in turn or out of turn."""

    enabled: bool = Field(True, description="Whether matching is played at all.")
    opponents: bool = Field(False, description="Whether an opponent's card may be thrown (then one is given).")
    max_cards: int = Field(
        3,
        ge=1,
        le=4,
        description="Cards one player may throw on one thrown card, in one match or several: 1 to 4 (Le Tamalou: "
        "1 to 3).",
    )
    by: Literal["rank", "value"] = Field("rank", description="Same rank, or same points.")
    late: Literal["return", "miss"] = Field(
        "return",
        description="A match on a card somebody else already matched: 'return' (taken back, no penalty, Le Tamalou) "
        "or 'miss' (penalised, tamalou.fun).",
    )
    penalty_cards: int = Field(1, ge=0, le=3, description="Penalty cards for each wrong card thrown (0 to 3).")
    caller_may_match: bool = Field(True, description="Whether the caller may still match in the last round.")
    while_playing: bool = Field(
        True,
        description="Whether the player to move may match while holding a drawn card or choosing a power "
        "target (tamalou.fun: no).",
    )
    closing_window: bool = Field(
        True,
        description="Untimed rulesets: when a called round's last turn ends, each player who may match gets one "
        "last chance ('match' or 'pass') on the card that turn threw before the round ends (Le Tamalou: the round ends "
        "'après un échange ou un appariement'). Timed rulesets have their countdown instead.",
    )
    give: Literal["must", "may"] = Field(
        "must",
        description="With opponents: after taking another player's card, the thrower 'must' fill the emptied "
        "slot with one of their own cards, chosen without looking (Le Tamalou), or 'may' do so or decline with 'pass' "
        "(kaboo; then a player with no card may take one too).",
    )
    race: bool = Field(
        True,
        description="Only the first right match of a thrown card counts (a later one is 'late'); false: every "
        "right match of the window counts, several players may each throw (cambia).",
    )
    penalty_cap: int = Field(
        0,
        ge=0,
        le=64,
        description="A matching penalty never takes the layout of the player who missed past this many cards "
        "(a miss one card under the cap costs one card, at the cap none); 0: no cap (cambia: 6); at most 64.",
    )
    window: Literal["at_throw", "after_power"] = Field(
        "at_throw",
        description="'at_throw': a thrown card may be matched as soon as it lands, until the next card is thrown "
        "or it is taken; 'after_power': its window opens only once its power is resolved or declined, as a phase "
        "('window') in which each player who may match does so or passes, and closes before the turn passes "
        "(cambia).",
    )


class Call(_Section):
    """Calling Tamalou."""

    threshold: Points = Field(5, description=f"A call is right at this total or less (-{MAX_POINTS} to {MAX_POINTS}).")
    when: Literal["end_of_turn", "start_of_turn"] = Field(
        "end_of_turn",
        description="'end_of_turn': after playing, before the next player plays (Le Tamalou); "
        "'start_of_turn': instead of drawing, the call is the turn (tamalou.fun).",
    )
    verified: bool = Field(
        False,
        description="A wrong call is found out at once: cards shown to all, penalty, play goes on (tamalou.fun).",
    )
    wrong_penalty_cards: int = Field(1, ge=0, le=3, description="Penalty cards for a wrong verified call (0 to 3).")
    protect_caller: bool = Field(
        False, description="The caller's cards are face up and cannot be swapped with (tamalou.fun)."
    )
    protect_from: Literal["exchanges", "everything"] = Field(
        "exchanges",
        description="With protect_caller: what the caller's layout is protected from. 'exchanges': nobody "
        "exchanges cards with it (tamalou.fun); 'everything': it is sealed: no power looks at it or swaps with it, "
        "nobody matches from it or gives into it, and the caller matches no more (kaboo).",
    )
    empty_layout: Literal["must_call", "may_call", "ends_round", "auto_call"] = Field(
        "must_call",
        description="A player with no card at their turn: must call without playing (Le Tamalou), may call "
        "(Cartalogue), or the round ends as soon as a layout is emptied (tamalou.fun); 'auto_call': they call "
        "automatically at the start of their turn, if nobody has called yet, with no action of theirs (an event "
        "says so; kaboo).",
    )
    empty_after_call: Literal["skipped", "plays"] = Field(
        "skipped",
        description="After a call, the last turn of a player whose layout is empty: 'skipped' (Le Tamalou: a "
        "player with no card calls at their turn, unless someone already called), or 'plays' (an empty layout "
        "has no special effect: they draw and throw as usual; cambia).",
    )

    @model_validator(mode="after")
    def _protect_from_needs_protect_caller(self) -> Call:
        if self.protect_from != "exchanges" and not self.protect_caller:
            raise PydanticCustomError(
                "cross_field", "protect_from = {value} needs protect_caller = true", {"value": repr(self.protect_from)}
            )
        return self


class End(_Section):
    """End of the round and who wins it."""

    win_max: Points | Literal["threshold"] | None = Field(
        None,
        description=f"Only a total at or under this may win: a number (-{MAX_POINTS} to {MAX_POINTS}), or "
        "'threshold' for the call threshold (Cartalogue: 5, the threshold). None: no such bound.",
    )
    ties: Annotated[Tup[TieBreak], AfterValidator(_once)] = Field(
        ("caller_behind",), description="Tie-breaks between equal totals, in order."
    )
    max_turns: int = Field(
        400,
        ge=1,
        le=MAX_TURNS,
        description="Safety bound: after this many turns without an end the round ends as if nobody called "
        f"(at most {MAX_TURNS}, so a round cannot be made endless; a match's rounds times this: at most "
        f"{MAX_MATCH_TURNS}).",
    )


class Scoring(_Section):
    """What a round scores in a match of rounds (the round's ``Result.scores``)."""

    caller_won: Literal["total", "zero"] = Field(
        "total", description="What a caller who won the round scores: their total, or 0 (Le Tamalou, Variantes 3)."
    )
    caller_lost_penalty: Points = Field(
        0,
        description="Points added to the total of a caller who lost the round (Le Tamalou, Variantes 3: 10); "
        f"-{MAX_POINTS} to {MAX_POINTS}.",
    )


_SECONDS = f"Seconds: a finite number from 0 to {MAX_SECONDS:.0f} (a year)."
_SECONDS_EACH = f"a finite number of seconds from 0 to {MAX_SECONDS:.0f} (a year)"


class Timing(_Section):
    """Time, for rulesets played against the clock (tamalou.fun). Time is an input: actions carry ``at``
    (seconds) and a ``tick`` action advances it; the machine's clock is never read.
    ``turn_seconds = 0`` means an untimed game: nothing below then applies.
    Every time is a finite number of seconds from 0 to 31536000 (``MAX_SECONDS``, a year), so that a
    round's clock stays within what a snapshot restores."""

    turn_seconds: Seconds = Field(
        0, description=f"Length of a turn; 0: untimed. At its end the turn is auto-played. {_SECONDS}"
    )
    absent_turn_seconds: Seconds = Field(
        15,
        description=f"Length of the turns of a player who let a whole turn time out, until they play. {_SECONDS}",
    )
    absent_turns_to_leave: int = Field(
        3,
        ge=0,
        le=MAX_TURNS,
        description="Whole turns timed out in a row after which a player leaves the round (0: never; at most "
        f"{MAX_TURNS}).",
    )
    peek_seconds: Seconds = Field(
        0, description=f"The opening peek: no play and no matching before it ends. {_SECONDS}"
    )
    swap_show_seconds: Seconds = Field(0, description=f"No matching while a blind swap is shown. {_SECONDS}")
    countdown_seconds: Seconds = Field(
        0, description=f"After the last turn of a called round, time left for matching before the end. {_SECONDS}"
    )
    lockouts: Tup[Seconds] = Field(
        (),
        max_length=MAX_LOCKOUTS,
        description="Seconds matching is locked after the 1st, 2nd... miss in a row; past the list, for the rest "
        "of the round. A successful match clears the count; each start of one's turn while unlocked clears one. "
        f"At most {MAX_LOCKOUTS} times, each {_SECONDS_EACH}.",
    )


class Rounds(_Section):
    """A match of several rounds (``tamalou.new_match``): how long it lasts and how it is won."""

    form: Literal["single", "fixed", "points", "wins"] = Field(
        "single",
        description="'single': one round; 'fixed': `count` rounds, lowest cumulative score wins; "
        "'points': until a cumulative score passes `limit`, lowest wins; 'wins': `count` rounds, "
        "each round's winners score 1, most wins wins (Le Tamalou, Variantes 3).",
    )
    count: int = Field(
        5,
        ge=1,
        le=MAX_ROUNDS,
        description=f"Rounds played in the 'fixed' and 'wins' forms (at most {MAX_ROUNDS}, and at most `max_rounds`; "
        f"`count` times rules.end.max_turns at most {MAX_MATCH_TURNS}).",
    )
    count_multiple: int = Field(
        1,
        ge=1,
        le=100,
        description="`count` must be a multiple of this (e.g. 4: each seat starts as many rounds; "
        "cambia-circuit). 1: any count. At most 100.",
    )
    limit: int = Field(
        100,
        ge=1,
        le=MAX_LIMIT,
        description=f"'points' form: the match ends when a cumulative score passes it (at most {MAX_LIMIT}).",
    )
    max_rounds: int = Field(
        100,
        ge=1,
        le=MAX_ROUNDS,
        description="The most rounds of a match, whatever its form: a 'points' match that never reaches its limit "
        f"ends after this many (safety bound; at most {MAX_ROUNDS}, and this times rules.end.max_turns at most "
        f"{MAX_MATCH_TURNS}, so that a match's snapshot stays restorable).",
    )

    @property
    def most(self) -> int:
        """The most rounds a match of these rules lasts: 1, ``count`` or ``max_rounds`` (by its form)."""
        if self.form == "single":
            return 1
        return self.count if self.form in ("fixed", "wins") else self.max_rounds

    @model_validator(mode="after")
    def _count_fits(self) -> Rounds:
        errors = []
        if self.count % self.count_multiple:
            why = f"expected a multiple of {self.count_multiple} (rounds.count_multiple), got {self.count}"
            errors.append(_error("cross_field", ("count",), why, self.count))
        if self.form in ("fixed", "wins") and self.count > self.max_rounds:
            why = (
                f"expected at most {self.max_rounds} rounds (rounds.max_rounds: the most rounds of a match), "
                f"got {self.count}"
            )
            errors.append(_error("cross_field", ("count",), why, self.count))
        if errors:
            raise ValidationError.from_exception_data("Rounds", errors)
        return self


class Rules(_Section):
    """Every rule of a variant, one table per part of the game."""

    players: Players = Players()
    deck: Deck = Deck()
    deal: Deal = Deal()
    peek: Peek = Peek()
    values: Values = Values()
    draw: DrawRules = DrawRules()
    powers: Powers = Powers()
    matching: Matching = Matching()
    call: Call = Call()
    end: End = End()
    scoring: Scoring = Scoring()
    rounds: Rounds = Rounds()
    timing: Timing = Timing()

    @model_validator(mode="after")
    def _across(self) -> Rules:
        """The checks between sections (``cross_field``: another file may set the other section)."""
        problems = rules_problems(self.__dict__)
        if problems:
            errors = [_error("cross_field", loc, message, value) for loc, message, value in problems]
            raise ValidationError.from_exception_data("Rules", errors)
        return self


#: One problem found by ``rules_problems``: where in ``[rules]``, what was expected, the value found.
Problem = tuple[tuple[str | int, ...], str, Any]


def rules_problems(sections: Mapping[str, Any]) -> list[Problem]:
    """What is wrong between the sections of ``[rules]``: ranks and cards the deck lacks, a deal the
    deck cannot serve, peeks at slots nobody is dealt, a clock needed...

    ``sections`` maps section names (``"deck"``, ``"deal"``...) to validated sections; a check runs only
    when every section it reads is there, so that a variant with a wrong section is still checked
    for the rest (``tamalou.variant`` lists every problem of a file at once)."""
    out: list[Problem] = []
    deck: Deck | None = sections.get("deck")
    deal: Deal | None = sections.get("deal")
    players: Players | None = sections.get("players")
    peek: Peek | None = sections.get("peek")
    values: Values | None = sections.get("values")
    powers: Powers | None = sections.get("powers")
    draw: DrawRules | None = sections.get("draw")
    timing: Timing | None = sections.get("timing")
    rounds: Rounds | None = sections.get("rounds")
    end: End | None = sections.get("end")
    if rounds is not None and end is not None and rounds.most * end.max_turns > MAX_MATCH_TURNS:
        most, turns = rounds.most, end.max_turns
        key = "max_rounds" if rounds.form == "points" else "count"
        out.append(
            (
                ("rounds", key),
                f"a match of up to {most} rounds (rules.rounds.{key}) of up to {turns} turns (rules.end.max_turns) "
                f"may last {most * turns} turns: expected at most {MAX_MATCH_TURNS} turns in all (fewer rounds or "
                "a lower rules.end.max_turns), so that a match's snapshot stays restorable",
                most,
            )
        )
    if deck is not None:
        out += _cards_problems(deck, values, powers, draw)
        size = deck.size
        if size == 0:
            out.append((("deck",), "the deck has no cards: expected some ranks (deck.ranks) or jokers", None))
        elif deal is not None and players is not None:
            out += _deal_problems(size, deal, players)
    if deal is not None and players is not None and isinstance(deal.first_player, int):
        fp, most = deal.first_player, players.max
        if not 0 <= fp < most:
            out.append(
                (
                    ("deal", "first_player"),
                    f"expected 'random' or a seat from 0 to {most - 1} (rules.players.max = {most}), got {fp}",
                    fp,
                )
            )
    if peek is not None and deal is not None:
        n = deal.cards
        if peek.mode == "fixed":
            wrong = [slot for slot in peek.slots if slot >= n]
            if wrong:
                out.append(
                    (
                        ("peek", "slots"),
                        f"expected slots from 0 to {n - 1} (rules.deal.cards = {n}), got {', '.join(map(str, wrong))}",
                        list(peek.slots),
                    )
                )
        elif peek.mode == "choose" and peek.count > n:
            out.append(
                (
                    ("peek", "count"),
                    f"expected at most {n} (rules.deal.cards: a player picks among the {n} cards dealt), "
                    f"got {peek.count}",
                    peek.count,
                )
            )
    if timing is not None:
        t = timing
        if t.turn_seconds == 0 and (t.lockouts or t.countdown_seconds or t.peek_seconds or t.swap_show_seconds):
            out.append(
                (
                    ("timing",),
                    "lockouts, countdown, peek and swap times need a clock: set timing.turn_seconds",
                    None,
                )
            )
    return out


def _deal_problems(size: int, deal: Deal, players: Players) -> list[Problem]:
    """A deal at the largest table must leave the first discard and a card to draw."""
    most, each, discard = players.max, deal.cards, deal.discard
    needed = most * each + discard + 1
    if size >= needed:
        return []
    fit = (size - discard - 1) // each
    if fit >= players.min:
        advice = f"expected at most {fit} players (or a bigger deck, or fewer cards dealt)"
    else:
        advice = "expected a bigger deck or fewer cards dealt"
    why = (
        f"{most} players need {needed} cards ({most} x {each} dealt, {discard} for the discard, 1 to draw) "
        f"but the deck has {size}: {advice}"
    )
    return [(("players", "max"), why, most)]


def _cards_problems(deck: Deck, values: Values | None, powers: Powers | None, draw: DrawRules | None) -> list[Problem]:
    """Ranks and cards named by the tables must be the deck's."""
    known = {*deck.ranks, JOKER}
    faces = deck.faces
    out: list[Problem] = []
    if values is not None:
        for r in values.ranks:
            # values.ranks holds the standard defaults whatever the deck: only other ranks were set by a file.
            if r not in known and r not in DEFAULT_VALUES:
                out.append((("values", "ranks", r), _not_in_deck(r, deck.ranks), r))
    if powers is not None:
        for r in powers.ranks:
            if r not in known:
                out.append((("powers", "ranks", r), _not_in_deck(r, deck.ranks), r))
    if draw is not None:
        for r in draw.discard_forbidden:
            if r not in known:
                out.append((("draw", "discard_forbidden"), _not_in_deck(r, deck.ranks), r))
    tables = [(name, section.cards) for name, section in (("values", values), ("powers", powers)) if section]
    for section_name, table in tables:
        for text in table:
            card = parse_card(text)
            if card.is_joker:
                # A deck without jokers may still value them (for a composition that adds them, as the
                # default values do); a deck with one joker has no JK2.
                if 0 < deck.jokers < card.index:
                    why = f"card {text!r} is not in the deck (rules.deck.jokers = {deck.jokers})"
                    out.append(((section_name, "cards", text), why, text))
            elif card not in faces:
                if deck.suits and not card.suit:
                    why = f"card {text!r} has no suit but the deck's cards have suits"
                elif card.suit and not deck.suits:
                    why = f"card {text!r} has a suit but the deck's cards have none (write its rank alone)"
                else:
                    why = f"card {text!r} is not in the deck"
                out.append(((section_name, "cards", text), why, text))
    return out


_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def _named(name: str) -> str:
    if not name.strip():
        raise PydanticCustomError("empty_name", "expected a name that is not empty", {})
    return name


def _too_long(most: int) -> PydanticCustomError:
    """The error of a text over ``most`` characters, as pydantic's own ``max_length`` says it (``variant._errors_of``
    then says the bound, and the length found in a trusted load)."""
    return PydanticCustomError(
        "string_too_long", "String should have at most {max_length} characters", {"max_length": most}
    )


def _variant_name(name: str) -> str:
    """A variant's name: at most ``MAX_NAME_LENGTH`` characters; a composition's (its rulesets' names joined
    by ``+``), at most ``MAX_NAME_PARTS`` such names, each that short (an ``AfterValidator``, after ``_one_line``)."""
    if len(name) <= MAX_NAME_LENGTH:
        return name
    parts = name.split("+")
    if len(parts) == 1:
        raise _too_long(MAX_NAME_LENGTH)
    if len(parts) > MAX_NAME_PARTS:
        raise PydanticCustomError(
            "name_parts",
            "expected a composition of at most {most} rulesets (their names joined by '+'), got {n}",
            {"most": MAX_NAME_PARTS, "n": len(parts)},
        )
    if max(map(len, parts)) > MAX_NAME_LENGTH:
        raise PydanticCustomError(
            "name_parts",
            "expected names of at most {most} characters each, joined by '+' (a composition's name)",
            {"most": MAX_NAME_LENGTH},
        )
    return name


def _base_name(base: str | None) -> str | None:
    """``base``: at most ``MAX_BASE_LENGTH`` characters, on one line (an ``AfterValidator``)."""
    if base is not None:
        if len(base) > MAX_BASE_LENGTH:
            raise _too_long(MAX_BASE_LENGTH)
        _one_line(base)
    return base


def _module_name(name: str) -> str:
    if not _MODULE_NAME.fullmatch(name):
        raise PydanticCustomError(
            "module_name", "expected a module name like my_rules or my_package.rules, got {got}", {"got": repr(name)}
        )
    return name


class Variant(BaseModel):
    """A ruleset: immutable, validated. Load one with ``tamalou.load_variant``."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True, strict=True)

    name: Annotated[str, AfterValidator(_named), AfterValidator(_one_line), AfterValidator(_variant_name)] = Field(
        description=f"The name it is found by (case-insensitive): at most {MAX_NAME_LENGTH} characters, on one line "
        f"(a composition's is its rulesets' names joined by '+', at most {MAX_NAME_PARTS} of them).",
    )
    aliases: Tup[
        Annotated[str, Field(max_length=MAX_NAME_LENGTH), AfterValidator(_named), AfterValidator(_one_line)]
    ] = Field(
        (),
        max_length=MAX_ALIASES,
        description=f"Other names it is found by: at most {MAX_ALIASES}, each at most {MAX_NAME_LENGTH} "
        "characters, on one line.",
    )
    title: Annotated[str, AfterValidator(_one_line)] = Field(
        "",
        max_length=MAX_TITLE_LENGTH,
        description=f"A human title: at most {MAX_TITLE_LENGTH} characters, on one line.",
    )
    description: Annotated[str, AfterValidator(_description_text)] = Field(
        "",
        max_length=MAX_DESCRIPTION_LENGTH,
        description=f"What this ruleset is: at most {MAX_DESCRIPTION_LENGTH} characters (newlines and tabs "
        "allowed, no other control character).",
    )
    sources: Tup[Annotated[str, Field(max_length=MAX_SOURCE_LENGTH), AfterValidator(_one_line)]] = Field(
        (),
        max_length=MAX_SOURCES,
        description=f"The rule texts it follows: at most {MAX_SOURCES}, each at most {MAX_SOURCE_LENGTH} "
        "characters, on one line.",
    )
    plugins: Tup[Annotated[str, AfterValidator(_module_name)]] = Field(
        (),
        description="Modules whose hook implementations apply to this variant (importable names; a module "
        "beside the file that names it is found first).",
    )
    base: Annotated[str | None, AfterValidator(_base_name)] = Field(
        None,
        description="Marks a modifier: its keys change whatever it is composed with; "
        f"loaded alone it applies to this base (at most {MAX_BASE_LENGTH} characters, on one line).",
    )
    rules: Rules = Rules()

    @field_validator("aliases")
    @classmethod
    def _aliases_differ(cls, aliases: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        """Names are found case-insensitively: two aliases, or an alias and the name, must differ so."""
        seen = {str(info.data.get("name", "")).lower(): "the variant's name"}
        for alias in aliases:
            before = seen.get(alias.lower())
            if before is not None:
                what = before if before == "the variant's name" else f"alias {before!r}"
                raise PydanticCustomError(
                    "alias_twice",
                    "alias {alias} repeats {what} (names are found whatever their case): expected different names",
                    {"alias": repr(alias), "what": what},
                )
            seen[alias.lower()] = alias
        return aliases

    _spec: object = PrivateAttr(default=None)
    _rulebook: object = PrivateAttr(default=None)
    #: The plugin modules its load found beside its files, and their folders (imported again where it is
    #: unpickled, e.g. in a worker process).
    _plugin_dirs: dict[str, str] = PrivateAttr(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        """Two variants are equal when their rules and descriptions are (not how they were found)."""
        if not isinstance(other, Variant):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[Any, Any]:
        """Pickled without its rulebook (made again where it is unpickled, from the same plugins)."""
        state = super().__getstate__()
        private = dict(state.get("__pydantic_private__") or {})
        private["_rulebook"] = None
        state["__pydantic_private__"] = private
        return state

    def __setstate__(self, state: dict[Any, Any]) -> None:
        """Unpickled: the plugin modules its load found beside its files are imported again first."""
        super().__setstate__(state)
        dirs = (state.get("__pydantic_private__") or {}).get("_plugin_dirs")
        if dirs:
            from .variant import _import_again

            _import_again(dirs)

    def __copy__(self) -> Variant:
        """The variant itself: it is immutable, so a copy could differ in nothing (``copy.copy``)."""
        return self

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Variant:
        """The variant itself, as for ``copy.copy``: an immutable value, whose rulebook holds the plugin
        modules (which cannot be copied) shared by every game of it."""
        return self

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Variant:
        """A new variant with the fields of ``update`` replaced (pydantic's ``model_copy``; ``deep`` changes
        nothing: the variant is immutable). Its rulebook is made anew from its rules when first asked for.
        (Not through ``__copy__``, which returns the variant itself: the copy's fields would be the
        original's, changed in place.)"""
        copied = BaseModel.__copy__(self)
        private = dict(copied.__pydantic_private__ or {})
        private["_rulebook"] = None
        object.__setattr__(copied, "__pydantic_private__", private)
        if update:
            copied.__dict__.update(update)
            copied.__pydantic_fields_set__.update(update)
        return copied

    @property
    def spec(self) -> object:
        """What ``load_variant`` was given (a name, path or list), kept so a snapshot can name it."""
        return self._spec
