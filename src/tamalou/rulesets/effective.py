"""A ruleset as it is played: the rules after every hook, and a stand-alone copy of its keys.

``effective_rules(variant)`` asks the variant's plugins what each card is worth and does, what the call
threshold is and how a round is ranked (``tamalou.ranking_rule``), and says which plugins are in
effect: what ``tamalou show`` prints, and what an author checks after writing a hook. The answer is a
pydantic model, so ``model_dump(mode="json")`` gives it as JSON.

``variant_to_toml(variant)`` writes every key of a variant as one TOML file that needs no other: no
``extends``, no modifier's ``base``. Loaded back with ``tamalou.load_variant(path)`` it gives a variant
equal to the original (``aliases`` and ``base`` apart: see ``STANDALONE_LEFT_OUT``), hence the same games.

>>> rules = effective_rules("french")
>>> rules.call_threshold, [(line.label, line.value) for line in rules.cards if line.rank == "K"]
(5, [('KS KC', 15), ('KH KD', 0)])
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

import tomli_w
from pydantic import BaseModel, ConfigDict, Field

from ..cards import DEFAULT_RANK_COUNT, JOKER, Card
from ..engine.rulebook import Rulebook, ranking_rule, rulebook
from ..plugin_managers import BUILTIN_PLUGINS
from ..schema import Variant
from .loader import load_variant

__all__ = [
    "CardLine",
    "EffectiveRules",
    "PluginLine",
    "effective_rules",
    "match_words",
    "power_title",
    "variant_to_toml",
]

#: The plugin that answers from the TOML keys: an answer of its is "the keys'", not a plugin's.
_KEYS_PLUGIN = "tamalou.plugins.defaults"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class CardLine(_Model):
    """The cards of one rank that score and do the same (a whole rank when every card of it agrees)."""

    rank: str = Field(description="The rank (JK for jokers).")
    cards: list[str] = Field(description="The cards of this line, as text (each once, even with several decks).")
    whole_rank: bool = Field(description="Whether every card of the rank is on this line.")
    value: int = Field(description="Points, as tamalou_card_value answers.")
    power: str = Field(description="The power's name, as tamalou_card_power answers ('none' for none).")
    power_title: str = Field(description="What the power does, in words ('' for none).")
    value_from: str | None = Field(description="The plugin that gave the value; None: the TOML keys (rules.values).")
    power_from: str | None = Field(description="The plugin that gave the power; None: the TOML keys (rules.powers).")

    @property
    def label(self) -> str:
        """``K`` for a whole rank, else its cards (``KS KC``)."""
        return self.rank if self.whole_rank else " ".join(self.cards)


class PluginLine(_Model):
    """A plugin module the variant names in ``plugins = [...]`` and what it plugs in."""

    module: str
    summary: str = Field(description="The first line of the module's docstring.")
    hooks: list[str] = Field(description="The hooks it implements.")
    powers: list[str] = Field(default_factory=list, description="The powers it registers.")
    mechanics: list[str] = Field(default_factory=list, description="The mechanics it registers.")


class EffectiveRules(_Model):
    """Every rule of a variant that its plugins decide, as they decide it."""

    name: str
    title: str
    players: tuple[int, int] = Field(description="Fewest and most players.")
    deck: str = Field(description="The deck in words.")
    deck_size: int = Field(description="Cards in the deck of the fewest players, every copy counted.")
    deck_sizes: dict[int, int] = Field(
        default_factory=dict,
        description="Cards in the deck of each table, by player count, every copy counted (rules.deck.copies may "
        "give more players more decks).",
    )
    cards: list[CardLine] = Field(description="Every card of the deck: its value and its power, rank by rank.")
    powers: dict[str, str] = Field(description="The powers the deck's cards have: name -> what it does.")
    call_threshold: int = Field(description="A call is right at this total or less (tamalou_call_threshold).")
    threshold_from: str | None = Field(description="The plugin that gave the threshold; None: rules.call.threshold.")
    call: list[str] = Field(description="When and how a player calls, in words.")
    calls: bool = Field(True, description="Whether anybody may call (rules.call.enabled).")
    threshold_read: bool = Field(
        True,
        description="Whether a rule reads the call threshold (a verified call, winners bounded by it, a plugin's "
        "threshold or end-of-round hook); False: any total may call, the threshold is only the bots' calling level.",
    )
    ranking: list[str] = Field(description="How a finished round is ranked, won and scored, step by step.")
    match: str = Field(description="How many rounds make a match and who wins it.")
    mechanics: list[str] = Field(description="The mechanics that play a part (matching, calling, powers...).")
    mechanic_titles: dict[str, str] = Field(
        default_factory=dict, description="What the mechanics that say it do, in their words: name -> Mechanic.title."
    )
    mechanic_options: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="The settings of the mechanics that take some ([options.<name>], defaults filled in): "
        "name -> its options as JSON values.",
    )
    plugins: list[PluginLine] = Field(description="The plugin modules the variant names, in the order named.")


def _load(variant: Variant | str | Sequence[str]) -> Variant:
    if isinstance(variant, Variant):
        return variant
    return load_variant(variant)


def _from(plugin: str) -> str | None:
    return None if plugin in ("", _KEYS_PLUGIN) else plugin


def power_title(rb: Rulebook, name: str) -> str:
    """What the power ``name`` does, in words: its class's ``title`` (by default the first sentence of its
    docstring), else the name with spaces; ``""`` for ``"none"``."""
    if name == "none":
        return ""
    power = rb.powers.get(name)
    title = str(getattr(power, "title", "") or "") if power is not None else ""
    if not title and power is not None:
        doc = " ".join((type(power).__doc__ or "").split())
        title = doc.split(". ")[0].rstrip(".")
    return title or name.replace("_", " ")


def _ranks_in_order(variant: Variant, deck: list[Card]) -> list[str]:
    ranks = [r for r in variant.rules.deck.ranks if r != JOKER]
    present = {c.rank for c in deck}
    return [r for r in ranks if r in present] + ([JOKER] if JOKER in present else [])


def _card_lines(variant: Variant, rb: Rulebook) -> list[CardLine]:
    unique = list(dict.fromkeys(rb.one_deck))  # each face once, in deck order
    lines: list[CardLine] = []
    for rank in _ranks_in_order(variant, unique):
        cards = [c for c in unique if c.rank == rank]
        groups: dict[tuple[int, str, str | None, str | None], list[Card]] = {}
        for card in cards:
            value = rb.value(card)
            power = rb.power_name(card)
            value_plugin, power_plugin = rb.value_from(card), rb.power_from(card)
            groups.setdefault((value, power, _from(value_plugin), _from(power_plugin)), []).append(card)
        for (value, power, value_from, power_from), group in groups.items():
            lines.append(
                CardLine(
                    rank=rank,
                    cards=[str(c) for c in group],
                    whole_rank=len(groups) == 1,
                    value=value,
                    power=power,
                    power_title=power_title(rb, power),
                    value_from=value_from,
                    power_from=power_from,
                )
            )
    return lines


def _deck_words(variant: Variant) -> str:
    """The deck in words: its cards, and how many decks each table shuffles when that depends on the number
    of players (``"52 cards a deck: A to K in 4 suits; 1 deck (2 to 4 players), 2 decks (5 to 8 players)"``); a
    deck without suits counts its copies of each rank (``"52 cards without suits: 0 ×2, 1 to 12 ×4 each, 13 ×2"``)."""
    d, p = variant.rules.deck, variant.rules.players
    ranks = [r for r in d.ranks if r != JOKER]
    if d.suits:
        span = f"{ranks[0]} to {ranks[-1]}" if len(ranks) > 2 else " ".join(ranks)
        parts = [span, f"in {len(d.suits)} suits"]
    else:
        parts = ["without suits:", _rank_counts(ranks, d.counts)]
    tables = d.copies_by_players(p.min, p.max)
    if d.jokers:
        parts.append(f"and {d.jokers} joker{'s' if d.jokers > 1 else ''}")
    if len(tables) > 1:
        by_players = ", ".join(f"{_decks(k)} ({_players(first, last)})" for first, last, k in tables)
        return _cards(d.one_size, " a deck", parts) + f"; {by_players}"
    copies = tables[0][2]
    if copies > 1:
        parts.append(f"({copies} decks)")
    return _cards(d.one_size * copies, "", parts)


def _cards(count: int, each: str, parts: list[str]) -> str:
    """``"52 cards: A to K in 4 suits"``, ``"52 cards without suits: 0 ×2, ..."``."""
    words = " ".join(parts)
    if words.startswith("without suits:"):
        return f"{count} cards{each} {words}"
    return f"{count} cards{each}: {words}"


def _rank_counts(ranks: list[str], counts: Mapping[str, int]) -> str:
    """A deck without suits rank by rank, with how many copies of each a deck holds, runs of ranks with as many
    copies together: ``"0 ×2, 1 to 12 ×4 each, 13 ×2"``."""
    runs: list[tuple[list[str], int]] = []
    for rank in ranks:
        n = counts.get(rank, DEFAULT_RANK_COUNT)
        if runs and runs[-1][1] == n:
            runs[-1][0].append(rank)
        else:
            runs.append(([rank], n))
    words = []
    for run, n in runs:
        if len(run) == 1:
            words.append(f"{run[0]} ×{n}")
        else:
            span = f"{run[0]} to {run[-1]}" if len(run) > 2 else f"{run[0]} and {run[1]}"
            words.append(f"{span} ×{n} each")
    return ", ".join(words)


def _decks(copies: int) -> str:
    return f"{copies} deck{'s' if copies > 1 else ''}"


def _players(first: int, last: int) -> str:
    return f"{first} players" if first == last else f"{first} to {last} players"


def _call_words(variant: Variant, threshold: int, read: bool = True) -> list[str]:
    c = variant.rules.call
    if not c.enabled:
        return ["nobody calls (rules.call.enabled = false): the round ends another way"]
    lines = [
        f"a call is right at {threshold} points or less"
        if read
        else f"any total may call (no rule reads the call threshold; the bots call at {threshold} points or less)",
        "call at the end of your turn, after playing"
        if c.when == "end_of_turn"
        else "call at the start of your turn, instead of drawing",
    ]
    if c.from_turn > 1:
        lines.append(f"a player may call from their turn {c.from_turn} of the round on")
    if c.verified:
        lines.append(f"a wrong call is found out at once: {c.wrong_penalty_cards} penalty card(s), play goes on")
    if c.protect_caller:
        lines.append(
            "the caller's cards are face up and sealed"
            if c.protect_from == "everything"
            else "the caller's cards are face up and nobody exchanges cards with them"
        )
    lines.append(
        {
            "must_call": "a player with no card left must call",
            "may_call": "a player with no card left may call",
            "ends_round": "the round ends as soon as a layout is emptied",
            "auto_call": "a player with no card left calls automatically at the start of their turn",
        }[c.empty_layout]
    )
    if c.empty_layout != "ends_round":
        lines.append(
            "after a call, a player with no card left has no last turn"
            if c.empty_after_call == "skipped"
            else "after a call, a player with no card left still plays their last turn"
        )
    return lines


def match_words(variant: Variant) -> str:
    """How many rounds make a match of ``variant`` and who wins it, in words (``"one round"``...)."""
    r = variant.rules.rounds
    if r.form == "single":
        return "one round"
    if r.form == "fixed":
        return f"{r.count} rounds; the lowest cumulative score wins"
    if r.form == "points":
        return f"rounds until a cumulative score passes {r.limit}; the lowest wins"
    return f"{r.count} rounds; each round's winners score 1, the most rounds won wins"


def _first_doc_line(obj: Any) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip()
    return doc.splitlines()[0].strip() if doc else ""


def _plugin_lines(variant: Variant, rb: Rulebook) -> list[PluginLine]:
    pm = rb.pm
    powers_of: dict[str, list[str]] = {}
    mechanics_of: dict[str, list[str]] = {}
    for hook, found in ((pm.hook.tamalou_powers, powers_of), (pm.hook.tamalou_mechanics, mechanics_of)):
        for impl in hook.get_hookimpls():
            if impl.plugin_name in variant.plugins:
                classes: Any = impl.function() or ()
                found[impl.plugin_name] = [str(cls.name) for cls in classes]
    lines = []
    for name in dict.fromkeys(variant.plugins):
        if name in BUILTIN_PLUGINS:
            continue
        plugin = pm.get_plugin(name)
        if plugin is None:  # pragma: no cover - the rulebook registered every named plugin
            plugin = importlib.import_module(name)
        hooks = sorted(caller.name for caller in pm.get_hookcallers(plugin) or ())
        lines.append(
            PluginLine(
                module=name,
                summary=_first_doc_line(plugin),
                hooks=hooks,
                powers=powers_of.get(name, []),
                mechanics=mechanics_of.get(name, []),
            )
        )
    return lines


def effective_rules(variant: Variant | str | Sequence[str]) -> EffectiveRules:
    """The rules of ``variant`` after every hook: each card's value and power, the call threshold, the
    ranking, the match, the mechanics and plugins in effect (a name, path or list is loaded first)."""
    v = _load(variant)
    rb = rulebook(v)
    threshold_plugin = rb.threshold_plugin
    cards = _card_lines(v, rb)
    powers = {line.power: line.power_title for line in cards if line.power != "none"}
    return EffectiveRules(
        name=v.name,
        title=v.title,
        players=(v.rules.players.min, v.rules.players.max),
        deck=_deck_words(v),
        deck_size=len(rb.deck_for(v.rules.players.min)),
        deck_sizes={n: len(rb.deck_for(n)) for n in range(v.rules.players.min, v.rules.players.max + 1)},
        cards=cards,
        powers=powers,
        call_threshold=rb.threshold,
        threshold_from=_from(threshold_plugin),
        call=_call_words(v, rb.threshold, rb.threshold_read()),
        calls=v.rules.call.enabled,
        threshold_read=rb.threshold_read(),
        ranking=list(ranking_rule(v)),
        match=match_words(v),
        mechanics=[m.name for m in rb.mechanics],
        mechanic_titles={m.name: m.title for m in rb.mechanics if m.title},
        mechanic_options={m.name: m.options.model_dump(mode="json") for m in rb.mechanics if m.options is not None},
        plugins=_plugin_lines(v, rb),
    )


# ----------------------------------------------------------------------------- the stand-alone TOML


def _without_none(value: Any) -> Any:
    """TOML has no null: the keys whose value is None are left out (None is their default)."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value]
    return value


#: Keys a stand-alone file leaves out, the only ones in which the variant it loads to differs:
#:
#: - ``base`` marks a *modifier* (a file that changes whatever it is composed with, and applies to its base
#:   when loaded alone). A stand-alone file already holds every rule of its base: a ``base`` read back would
#:   merge that base into it a second time (its plugins, values and powers over the composition's).
#: - ``aliases`` are the other names by which the registry finds the original file. A copy loaded by its path
#:   is never found by them, and may not claim them: they belong to the registered ruleset (a file whose
#:   alias is another ruleset's name or alias does not load).
#:
#: ``extends`` is never part of a loaded variant; ``name`` is kept (a composition's is ``french+gabo``).
STANDALONE_LEFT_OUT = ("aliases", "base")


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _in_comment(text: str) -> str:
    """``text`` made safe to write inside a TOML comment, on its line: every character ``str.isprintable``
    refuses (control characters, line breaks and the Unicode line and paragraph separators, format
    characters...) written as its ``\\u`` escape. A newline would end the comment, and what follows it would be
    read as keys; TOML allows no other control character but tab in a comment. A validated variant's name is
    already on one line (``schema.MAX_NAME_LENGTH`` characters at most): this keeps the file whole whatever it
    is given."""
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def variant_to_toml(variant: Variant | str | Sequence[str]) -> str:
    """Every key of ``variant`` as a stand-alone TOML file: no ``extends`` and no modifier's ``base``, so
    loading it gives back the same rules whatever it was composed of (``tamalou show --toml``).

    ``load_variant(path)`` of the file is equal to ``variant`` in every key but ``aliases`` and ``base`` (left
    out, see ``STANDALONE_LEFT_OUT``). The plugin modules are named as the variant names them: the file plays the
    same games wherever those modules can be imported.
    """
    v = _load(variant)
    data = _without_none(v.model_dump(mode="json"))
    for key in STANDALONE_LEFT_OUT:
        data.pop(key, None)
    if not data.get("options"):
        data.pop("options", None)  # (no mechanic's settings: no empty table written)
    head = (
        f"# {_in_comment(v.name)}: every rule written out, a stand-alone file (no extends).\n"
        "# `tamalou validate` checks it; `tamalou show` of it shows the rules as they are played.\n"
    )
    return head + tomli_w.dumps(data)
