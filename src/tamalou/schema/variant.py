"""A whole ruleset file: ``Variant`` (its top-level keys: ``name``, ``aliases``, ``title``, ``plugins``,
``base``... and their checks) and ``Rules`` (the ``[rules]`` table, one section per part of the game), with the
checks between sections (``rules_problems``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..cards import JOKER, parse_card
from .bounds import (
    MAX_ALIASES,
    MAX_BASE_LENGTH,
    MAX_DESCRIPTION_LENGTH,
    MAX_MATCH_TURNS,
    MAX_NAME_LENGTH,
    MAX_NAME_PARTS,
    MAX_OPTION_TABLES,
    MAX_OPTIONS,
    MAX_SOURCE_LENGTH,
    MAX_SOURCES,
    MAX_TITLE_LENGTH,
)
from .card_rules import DEFAULT_VALUES, Powers, Values
from .checks import error_details, not_in_deck
from .ending import End, Rounds, Scoring
from .key_types import Section, Table, Tup, description_text, one_line
from .play import Call, DrawRules, Matching
from .table import MAX_COPIES, Deal, Deck, Peek, Players
from .timing import Timing


class Rules(Section):
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
            errors = [error_details("cross_field", loc, message, value) for loc, message, value in problems]
            raise ValidationError.from_exception_data("Rules", errors)
        return self


#: One problem found by ``rules_problems``: where in ``[rules]``, what was expected, the value found.
Problem = tuple[tuple[str | int, ...], str, Any]


def rules_problems(sections: Mapping[str, Any]) -> list[Problem]:
    """What is wrong between the sections of ``[rules]``: ranks and cards the deck lacks, a deal the
    deck cannot serve, peeks at slots nobody is dealt, a clock needed...

    ``sections`` maps section names (``"deck"``, ``"deal"``...) to validated sections; a check runs only
    when every section it reads is there, so that a variant with a wrong section is still checked
    for the rest (``tamalou.rulesets.loader`` lists every problem of a file at once)."""
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
        if deck.one_size == 0:
            out.append((("deck",), "the deck has no cards: expected some ranks (deck.ranks) or jokers", None))
        elif players is not None:
            uncovered = _copies_problems(deck, players)
            out += uncovered
            if deal is not None and not uncovered:
                out += _deal_problems(deck, deal, players)
    if deal is not None and deck is not None:
        for text in deal.discard_redraw:
            if text not in deck.ranks and text != JOKER and not _a_card_of(deck, text):
                why = f"expected a rank of the deck ({' '.join(deck.ranks)}) or one of its cards, got {text!r}"
                out.append((("deal", "discard_redraw"), why, text))
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
    if deal is not None and deal.grid is not None and deal.grid[0] * deal.grid[1] != deal.cards:
        rows, columns = deal.grid
        out.append(
            (
                ("deal", "grid"),
                f"a grid of {rows} rows of {columns} holds {rows * columns} cards, but rules.deal.cards = "
                f"{deal.cards}: expected a grid of {deal.cards} slots",
                list(deal.grid),
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


def _copies_problems(deck: Deck, players: Players) -> list[Problem]:
    """A table of decks by player count must say how many decks the fewest players shuffle."""
    copies = deck.copies
    if isinstance(copies, int):
        return []
    first, fewest = next(iter(copies)), players.min
    if first <= fewest:
        return []
    why = (
        f"the table starts at {first} players but rules.players.min is {fewest}: expected its first count at "
        f"most {fewest} (e.g. {{{fewest} = 1, ...}}), so that every table of the ruleset has a deck"
    )
    return [(("deck", "copies"), why, dict(copies))]


def _deal_problems(deck: Deck, deal: Deal, players: Players) -> list[Problem]:
    """A deal at every table the ruleset allows must leave the first discard and a card to draw, out of that
    table's deck (``rules.deck.copies`` may give a bigger table more decks)."""
    each, discard = deal.cards, deal.discard
    out: list[Problem] = []
    for first, last, copies in deck.copies_by_players(players.min, players.max):
        size = deck.one_size * copies
        fit = (size - discard - 1) // each  # the most players this deck serves
        if fit >= last:
            continue
        n = max(first, fit + 1)  # the fewest players it cannot serve
        needed = n * each + discard + 1
        if isinstance(deck.copies, int):  # one deck for every table: the largest is the one too large
            most, needed = players.max, players.max * each + discard + 1
            if fit >= players.min:
                advice = f"expected at most {fit} players (or a bigger deck, or fewer cards dealt)"
            else:
                advice = "expected a bigger deck or fewer cards dealt"
            why = (
                f"{most} players need {needed} cards ({most} x {each} dealt, {discard} for the discard, 1 to draw) "
                f"but the deck has {size}: {advice}"
            )
            return [(("players", "max"), why, most)]
        ways = [f"more decks from {n} players (e.g. {n} = {copies + 1})"] if copies < MAX_COPIES else []
        if last == players.max and n > players.min:
            ways.append(f"at most {n - 1} players (rules.players.max)")
        ways.append("fewer cards dealt")
        tables = f"{first} players" if first == last else f"{first} to {last} players"
        decks = f"{copies} deck{'s' if copies > 1 else ''}"
        why = (
            f"{n} players need {needed} cards ({n} x {each} dealt, {discard} for the discard, 1 to draw) but "
            f"rules.deck.copies gives {tables} {decks}, {size} cards: expected "
            + (", ".join(ways[:-1]) + " or " + ways[-1] if len(ways) > 1 else ways[0])
        )
        out.append((("deck", "copies"), why, dict(deck.copies)))
    return out


def _a_card_of(deck: Deck, text: str) -> bool:
    """Whether ``text`` is a card of ``deck`` (a joker it holds included)."""
    try:
        card = parse_card(text)
    except ValueError:
        return False
    return card in deck.faces or (card.is_joker and card.index <= deck.jokers)


def _cards_problems(deck: Deck, values: Values | None, powers: Powers | None, draw: DrawRules | None) -> list[Problem]:
    """Ranks and cards named by the tables must be the deck's."""
    known = {*deck.ranks, JOKER}
    faces = deck.faces
    out: list[Problem] = []
    if values is not None:
        for r in values.ranks:
            # values.ranks holds the standard defaults whatever the deck: only other ranks were set by a file.
            if r not in known and r not in DEFAULT_VALUES:
                out.append((("values", "ranks", r), not_in_deck(r, deck.ranks), r))
    if powers is not None:
        for r in powers.ranks:
            if r not in known:
                out.append((("powers", "ranks", r), not_in_deck(r, deck.ranks), r))
    if draw is not None:
        for r in draw.discard_forbidden:
            if r not in known:
                out.append((("draw", "discard_forbidden"), not_in_deck(r, deck.ranks), r))
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


MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def _named(name: str) -> str:
    if not name.strip():
        raise PydanticCustomError("empty_name", "expected a name that is not empty", {})
    return name


def _too_long(most: int) -> PydanticCustomError:
    """The error of a text over ``most`` characters, as pydantic's own ``max_length`` says it
    (``tamalou.rulesets.problems._errors_of`` then says the bound, and the length found in a trusted load)."""
    return PydanticCustomError(
        "string_too_long", "String should have at most {max_length} characters", {"max_length": most}
    )


def _variant_name(name: str) -> str:
    """A variant's name: at most ``MAX_NAME_LENGTH`` characters; a composition's (its rulesets' names joined
    by ``+``), at most ``MAX_NAME_PARTS`` such names, each that short (an ``AfterValidator``, after ``one_line``)."""
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
        one_line(base)
    return base


def _module_name(name: str) -> str:
    if not MODULE_NAME.fullmatch(name):
        raise PydanticCustomError(
            "module_name", "expected a module name like my_rules or my_package.rules, got {got}", {"got": repr(name)}
        )
    return name


class Variant(BaseModel):
    """A ruleset: immutable, validated. Load one with ``tamalou.load_variant``."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True, strict=True)

    #: How an unpickled variant imports again the plugin modules its load found beside its files: the registered
    #: ruleset loader's ``import_again`` (``tamalou.resolver.set_resolver`` sets it; ``None`` before any is).
    plugin_importer: ClassVar[Callable[[Any], None] | None] = None

    name: Annotated[str, AfterValidator(_named), AfterValidator(one_line), AfterValidator(_variant_name)] = Field(
        description=f"The name it is found by (case-insensitive): at most {MAX_NAME_LENGTH} characters, on one line "
        f"(a composition's is its rulesets' names joined by '+', at most {MAX_NAME_PARTS} of them).",
    )
    aliases: Tup[
        Annotated[str, Field(max_length=MAX_NAME_LENGTH), AfterValidator(_named), AfterValidator(one_line)]
    ] = Field(
        (),
        max_length=MAX_ALIASES,
        description=f"Other names it is found by: at most {MAX_ALIASES}, each at most {MAX_NAME_LENGTH} "
        "characters, on one line.",
    )
    title: Annotated[str, AfterValidator(one_line)] = Field(
        "",
        max_length=MAX_TITLE_LENGTH,
        description=f"A human title: at most {MAX_TITLE_LENGTH} characters, on one line.",
    )
    description: Annotated[str, AfterValidator(description_text)] = Field(
        "",
        max_length=MAX_DESCRIPTION_LENGTH,
        description=f"What this ruleset is: at most {MAX_DESCRIPTION_LENGTH} characters (newlines and tabs "
        "allowed, no other control character).",
    )
    sources: Tup[Annotated[str, Field(max_length=MAX_SOURCE_LENGTH), AfterValidator(one_line)]] = Field(
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
    options: Table[
        Annotated[str, Field(max_length=MAX_NAME_LENGTH), AfterValidator(_named), AfterValidator(one_line)],
        Annotated[Table[str, Any], Field(max_length=MAX_OPTIONS)],
    ] = Field(
        default_factory=dict,
        max_length=MAX_OPTION_TABLES,
        description="Settings of the mechanics and powers that take some, a table each: [options.<name>] "
        "(its keys are the mechanic's or the power's own, checked by the model it declares, "
        "Mechanic.options_model or CardPower.options_model; a table that none of them takes is an error). "
        "Tables merge key by key through extends, as [rules] does "
        f"(at most {MAX_OPTION_TABLES} tables of at most {MAX_OPTIONS} keys).",
    )

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
            importer = Variant.plugin_importer  # (the ruleset loader's, a layer above this one)
            if importer is None:
                raise RuntimeError("no ruleset loader is registered: import tamalou (or tamalou.rulesets) first")
            importer(dirs)

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
