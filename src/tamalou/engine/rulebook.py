"""The rulebook: a variant's plugins asked once and turned into plain tables for the engine.

Card values, powers and the call threshold are asked of the hooks once per variant and card (they
must be pure); the mechanics and powers a variant plays with are collected from the "register" hooks
(``tamalou_mechanics``, ``tamalou_powers``) and made once. Hooks that depend on a game
(``tamalou_call_allowed``, ``tamalou_same_kind``) are called only when a plugin other than the
built-in defaults implements them. Every answer is checked; a wrong one names the plugin and the hook.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..actions import register_action
from ..cards import Card, build_deck, parse_card
from ..errors import PluginError, VariantError, raised_at
from ..events import register_event_texts
from ..hookspecs import Tally, TieBreak
from ..mechanic import Hooks, Mechanic, overrides
from ..plugin_managers import BUILTIN_PLUGINS, all_results, first_answer, first_result, rules_manager
from ..powers import CardPower
from ..resolver import resolve
from ..schema import Variant
from .flow import Flow, core_rows
from .phases import PhaseTable
from .rules_face import DeckTables

#: The plugin of the rules read from keys (``trylast``): what it gives is the ruleset's own, not added.
_DEFAULTS = "tamalou.plugins.defaults"

if TYPE_CHECKING:
    from ..views import PlayerView
    from .rules_face import RulebookFace

T = TypeVar("T")

#: Hooks a plugin answers while a game is played: a third party implementing one makes ``apply`` keep a
#: copy of the game, so that a hook that raises leaves the game as it was.
_PLAY_TIME_HOOKS = (
    "tamalou_call_allowed",
    "tamalou_same_kind",
    "tamalou_rank",
    "tamalou_winners",
    "tamalou_round_scores",
)


def _trusted(plugin_name: str) -> bool:
    return plugin_name in BUILTIN_PLUGINS or plugin_name.startswith("tamalou.")


def _checked_key(t: TieBreak, plugin: str) -> Callable[[Tally, int], Any]:
    """The key of a plugin's tie-break ``t``, which raises a ``PluginError`` naming the tie-break and ``plugin`` when
    it raises or answers ``None`` (else the ranking hook that sorts by it would be blamed: French's, by default)."""
    key = t.key

    def checked(tally: Tally, p: int) -> Any:
        try:
            answer = key(tally, p)
        except Exception as exc:
            said = f"the key of tie-break {t.name!r} raised {exc!r}{raised_at(exc)} for player {p}"
            raise PluginError(said, plugin=plugin, hook="tamalou_tiebreaks") from exc
        if answer is None:
            said = f"the key of tie-break {t.name!r} answered None for player {p}: a value that sorts (a number)"
            raise PluginError(said, plugin=plugin, hook="tamalou_tiebreaks")
        return answer

    return checked


def _registered(hook: Any, base: type[T]) -> list[tuple[type[T], str]]:
    """The classes a "register" hook's plugins return, each a named subclass of ``base``, with the
    plugin that gave it."""
    out: list[tuple[type[T], str]] = []
    for answer, plugin in all_results(hook):
        for cls in answer:
            if not (isinstance(cls, type) and issubclass(cls, base)) or not getattr(cls, "name", ""):
                raise VariantError(
                    f"{hook.name} of plugin {plugin!r} returned {cls!r}: "
                    f"expected a subclass of tamalou.{base.__name__} with a 'name'",
                    key="plugins",
                )
            _check_method_names(cls, base, plugin)
            out.append((cls, plugin))
    return out


def _register_words(cls: type, texts: dict[str, str], plugin: str) -> None:
    """Record the words a mechanic or a power gives its events (``event_texts``); a ``VariantError`` if they
    cannot be (``tamalou.events.register_event_texts`` says why)."""
    if not texts:
        return
    why = register_event_texts(texts, f"{cls.__name__} of plugin {plugin!r}")
    if why is not None:
        raise VariantError(why, key="plugins")


def _check_method_names(cls: type, base: type, plugin: str) -> None:
    """A public method of a plugin's class that its base class does not have, and whose name is close to one
    the base has, is a typo (``turn_begins`` for ``turn_began``): the engine would never call it, and the rule
    would be silently left out. It is an error, as a misspelt hook is. Helpers of one's own are free: a name far
    from every method of the base, or one that starts with ``_``."""
    known = [name for name in dir(base) if not name.startswith("_")]
    for klass in cls.__mro__:
        if klass is base or not issubclass(klass, base):
            break
        for attr, value in vars(klass).items():
            if attr.startswith("_") or attr in known or not inspect.isfunction(value):
                continue
            near = difflib.get_close_matches(attr, known, n=1, cutoff=0.8)
            if near:
                raise VariantError(
                    f"{base.__name__} {getattr(cls, 'name', cls.__name__)!r} of plugin {plugin!r}: {attr} is not a "
                    f"method of tamalou.{base.__name__} (did you mean {near[0]}?): the engine never calls it "
                    "(a helper of your own: name it further from the base's methods, or start it with _)",
                    key="plugins",
                )


class SeatViews(Protocol):
    """What ``call_allowed`` asks of the round: the seat's view (``tamalou_call_allowed`` is asked with it)."""

    def view(self, player: object) -> PlayerView: ...


class Rulebook:
    """Everything the engine needs to referee one variant, asked of its plugins once."""

    __slots__ = (
        "_decks",
        "_end_hooks",
        "_power",
        "_power_plugin",
        "_tables",
        "_value",
        "_value_plugin",
        "call_allowed_hook",
        "discard_forbidden",
        "flow",
        "from_discard",
        "guarded",
        "hooks",
        "max_turns",
        "mechanics",
        "must_replace",
        "one_deck",
        "placed_face_up",
        "pm",
        "powers",
        "presence",
        "public_peek",
        "reshuffle",
        "same_kind_hook",
        "threshold",
        "threshold_plugin",
        "tiebreak_plugins",
        "tiebreaks",
        "variant",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.pm = rules_manager(variant)
        hook = self.pm.hook
        r = variant.rules
        deck_rules = r.deck
        #: One deck (``rules.deck.copies`` shuffles one or more together): every card a game may hold, in the
        #: proportions of every table's deck. A game's own deck, by its player count: ``deck_for``.
        self.one_deck: list[Card] = build_deck(
            deck_rules.ranks, deck_rules.suits, deck_rules.jokers, 1, deck_rules.counts
        )
        # The deck of each table the ruleset allows, by player count: one list per number of decks, shared.
        self._decks: dict[int, list[Card]] = {}
        by_copies: dict[int, list[Card]] = {}
        for players in range(r.players.min, r.players.max + 1):
            k = deck_rules.copies_at(players)
            deck = by_copies.get(k)
            if deck is None:
                deck = by_copies[k] = self.one_deck * k
            self._decks[players] = deck
        self._value: dict[Card, int] = {}
        self._power: dict[Card, str] = {}
        # Which plugin gave each answer (``value_from``, ``power_from``, ``threshold_plugin``): what ``tamalou show``
        # says of each rule, without asking the hooks again.
        self._value_plugin: dict[Card, str] = {}
        self._power_plugin: dict[Card, str] = {}
        threshold, plugin = first_result(hook.tamalou_call_threshold, variant=variant)
        if type(threshold) is not int:
            raise VariantError(
                f"tamalou_call_threshold of plugin {plugin!r} returned {threshold!r}, expected an integer"
            )
        self.threshold: int = threshold
        self.threshold_plugin: str = plugin  #: the plugin whose ``tamalou_call_threshold`` gave it
        self.call_allowed_hook = self._overridden(hook.tamalou_call_allowed)
        self.same_kind_hook = self._overridden(hook.tamalou_same_kind)
        self.powers = self._collect_powers()
        self._check_power_names()
        for card in self.one_deck:
            self.value(card)
            self.power_name(card)
        self._tables: dict[int, DeckTables] = {}  # by player count, shared by the counts with one deck
        d = r.draw
        self.from_discard = d.from_discard
        self.discard_forbidden = frozenset(d.discard_forbidden)
        self.must_replace = d.discard_must_replace
        self.placed_face_up = d.placed == "face_up"
        self.public_peek = r.peek.public
        self.reshuffle = d.stock_empty == "reshuffle"
        self.max_turns = r.end.max_turns
        self.mechanics = self._collect_mechanics()
        self.hooks = Hooks(self.mechanics)
        self.presence: tuple[tuple[Callable[..., object], Callable[..., None]], ...] = tuple(
            (m.before_action, m.undo) for m in self.mechanics if overrides(m, "before_action")
        )
        untrusted = any(
            not _trusted(impl.plugin_name) for name in _PLAY_TIME_HOOKS for impl in getattr(hook, name).get_hookimpls()
        )
        own_code = [*self.mechanics, *self.powers.values()]
        self.guarded = untrusted or any(not type(x).__module__.startswith("tamalou.") for x in own_code)
        try:  # the phase table, built now so that mechanics that clash are an error at load
            self.flow = PhaseTable(
                self.mechanics, core_rows(), Flow.do_tick, fast=not self.guarded and not self.presence
            )
        except ValueError as exc:
            raise VariantError(str(exc), key="plugins") from None
        for m in self.mechanics:
            m.bind(self)
        self.tiebreak_plugins: dict[str, str] = {}  #: the plugin that gave each tie-break, by its name
        self.tiebreaks = self._collect_tiebreaks()
        # The end-of-round hooks, asked once per round.
        self._end_hooks: dict[str, list[Any]] = {}  # in calling order
        for name in ("tamalou_rank", "tamalou_winners", "tamalou_round_scores"):
            self._end_hooks[name] = list(reversed(getattr(hook, name).get_hookimpls()))

    # ---------------------------------------------------------------- collecting

    def _overridden(self, hook: Any) -> Any:
        """``hook`` if any plugin besides the built-ins implements it, else ``None``."""
        return hook if any(impl.plugin_name not in BUILTIN_PLUGINS for impl in hook.get_hookimpls()) else None

    def _collect_powers(self) -> dict[str, CardPower]:
        powers: dict[str, CardPower] = {}
        for cls, plugin in _registered(self.pm.hook.tamalou_powers, CardPower):
            if cls.name in powers and type(powers[cls.name]) is not cls:
                raise VariantError(f"two powers are named {cls.name!r} (plugin {plugin!r})", key="plugins")
            _register_words(cls, cls.event_texts, plugin)
            if cls.name not in powers:
                power = cls()
                power.options = cls.options_of(self.variant)
                powers[cls.name] = power
        return powers

    def _collect_tiebreaks(self) -> tuple[TieBreak, ...]:
        """Every plugin's tie-breaks in the order they apply: the built-in ones (``rules.end.ties``)
        first, then the plugins in the order they were registered (a base's before a house rule's)."""
        found: dict[str, TieBreak] = {}
        for impl in self.pm.hook.tamalou_tiebreaks.get_hookimpls():  # pluggy lists them oldest first
            try:
                answer: Any = impl.function(*[self.variant for _ in impl.argnames])
            except Exception as exc:
                raise VariantError(
                    f"tamalou_tiebreaks of plugin {impl.plugin_name!r} raised {exc!r}{raised_at(exc)}", key="plugins"
                ) from exc
            if answer is not None and not isinstance(answer, Sequence):
                answer = [answer]
            for t in answer or ():
                if not isinstance(t, TieBreak) or not callable(t.key):
                    raise VariantError(
                        f"tamalou_tiebreaks of plugin {impl.plugin_name!r} returned {t!r}: expected tamalou.TieBreak",
                        key="plugins",
                    )
                if t.name not in found:
                    plugin = impl.plugin_name
                    found[t.name] = t if _trusted(plugin) else TieBreak(t.name, t.description, _checked_key(t, plugin))
                    self.tiebreak_plugins[t.name] = plugin
        return tuple(found.values())

    def end_hook_plugins(self, name: str) -> list[str]:
        """The plugins besides the built-in defaults that implement the end-of-round hook ``name``
        (``tamalou_rank``, ``tamalou_winners``, ``tamalou_round_scores``), in calling order."""
        return [i.plugin_name for i in self._end_hooks[name] if i.plugin_name != _DEFAULTS]

    def threshold_read(self) -> bool:
        """Whether a rule reads the call threshold: a verified call (``rules.call.verified``), winners bounded by it
        (``rules.end.win_max = "threshold"``), or a plugin that gives it or judges the end of a round (its code may
        read ``Tally.threshold``). ``False``: any total may call, and the threshold is only the level at which the
        bots call."""
        r = self.variant.rules
        if not r.call.enabled:
            return False
        if r.call.verified or r.end.win_max == "threshold" or self.threshold_plugin != _DEFAULTS:
            return True
        return any(self.end_hook_plugins(name) for name in ("tamalou_rank", "tamalou_winners", "tamalou_round_scores"))

    def added_tiebreaks(self) -> list[tuple[str, str]]:
        """The tie-breaks plugins add to ``rules.end.ties``: ``(name, plugin)`` each, in order (``show`` and
        ``validate`` say so: a ruleset's ``ties`` list is then not all its tie-breaks)."""
        return [
            (t.name, self.tiebreak_plugins[t.name])
            for t in self.tiebreaks
            if self.tiebreak_plugins[t.name] != _DEFAULTS
        ]

    def _unknown_power(self, name: object, key: str) -> VariantError:
        known = ", ".join(sorted(self.powers))
        return VariantError(f"unknown power {name!r} (powers: none, {known})", key=key)

    def _check_power_names(self) -> None:
        p = self.variant.rules.powers
        for table, where in ((p.ranks, "ranks"), (p.cards, "cards")):
            for k, name in table.items():
                if name != "none" and name not in self.powers:
                    raise self._unknown_power(name, f"rules.powers.{where}.{k}")

    def _collect_mechanics(self) -> list[Mechanic]:
        found: list[Mechanic] = []
        names: dict[str, str] = {}
        registered = _registered(self.pm.hook.tamalou_mechanics, Mechanic)
        for cls, plugin in registered:
            if not cls.wanted(self.variant):
                continue
            if cls.name in names:
                raise VariantError(
                    f"two mechanics named {cls.name!r} play a part (plugins {names[cls.name]!r} and {plugin!r})",
                    key="plugins",
                )
            names[cls.name] = plugin
            for action in cls.actions:
                register_action(action)
            _register_words(cls, cls.event_texts, plugin)
            found.append(cls(self.variant))
        found.sort(key=lambda m: m.order)
        for i, m in enumerate(found):
            m.index = i
        self._check_option_tables(found, registered)
        return found

    def _check_option_tables(self, found: list[Mechanic], registered: list[tuple[type[Mechanic], str]]) -> None:
        """Each table of ``[options]`` must be the settings of a mechanic the plugins register that takes some, or of
        a power that takes some (checked when the power was made); the settings of a mechanic not in play are
        checked too (its ``wanted`` may have read them to say no)."""
        playing = {m.name: type(m) for m in found}
        for name in self.variant.options:
            power = self.powers.get(name)
            if power is not None and power.options_model is not None:
                continue
            if name in playing:
                classes = [playing[name]]  # (its settings were checked when it was made)
            else:
                classes = [cls for cls, _ in registered if cls.name == name]
                for cls in classes:
                    cls.options_of(self.variant)
            taking = [cls for cls in classes if cls.options_model is not None]
            if taking:
                continue
            why = f"mechanic {name!r} takes no options" if classes else f"no mechanic nor power is named {name!r}"
            said = {cls.name for cls, _ in registered if cls.options_model is not None}
            said |= {p.name for p in self.powers.values() if p.options_model is not None}
            raise VariantError(
                f"{why}: expected the name of a mechanic or a power that takes options (here: "
                f"{', '.join(sorted(said)) or 'none'})",
                key=f"options.{name}",
            )

    # ---------------------------------------------------------------- cards

    def deck_for(self, players: int) -> list[Card]:
        """The deck of a game of ``players`` (``rules.deck.copies`` decks for that count): card ids are indexes
        into it (shared: never mutate it). Raises ``ValueError`` for a count the ruleset does not allow."""
        deck = self._decks.get(players)
        if deck is None:
            p = self.variant.rules.players
            raise ValueError(f"{self.variant.name} is played by {p.min} to {p.max} players, got {players!r}")
        return deck

    def deck_tables(self, players: int) -> DeckTables:
        """Cards, texts, ranks, values and powers of the deck of a game of ``players``, by card id (shared:
        never mutate them; made once per deck)."""
        tables = self._tables.get(players)
        if tables is None:
            deck = self.deck_for(players)
            tables = next((t for t in self._tables.values() if t[0] is deck), None) or (
                deck,
                [str(c) for c in deck],
                [c.rank for c in deck],
                [self.value(c) for c in deck],
                [self.power_name(c) for c in deck],
            )
            self._tables[players] = tables
        return tables

    def value(self, card: Card) -> int:
        v = self._value.get(card)
        if v is None:
            v, plugin = first_result(self.pm.hook.tamalou_card_value, variant=self.variant, card=card)
            if type(v) is not int:
                who = f" of plugin {plugin!r}" if plugin else ""
                raise VariantError(f"no value for card {card} (tamalou_card_value{who} returned {v!r})")
            self._value[card] = v
            self._value_plugin[card] = plugin
        return v

    def value_from(self, card: Card) -> str:
        """The plugin whose ``tamalou_card_value`` gave ``card``'s value."""
        self.value(card)
        return self._value_plugin[card]

    def power_name(self, card: Card) -> str:
        """The name of ``card``'s power (``"none"`` if it has none)."""
        p = self._power.get(card)
        if p is None:
            answer, plugin = first_result(self.pm.hook.tamalou_card_power, variant=self.variant, card=card)
            p = "none" if answer is None else answer
            if p != "none" and p not in self.powers:
                raise self._unknown_power(p, f"plugin {plugin!r}: tamalou_card_power({card})")
            assert isinstance(p, str)
            self._power[card] = p
            self._power_plugin[card] = plugin
        return p

    def power_from(self, card: Card) -> str:
        """The plugin whose ``tamalou_card_power`` gave ``card``'s power (``""``: none answered, no power)."""
        self.power_name(card)
        return self._power_plugin[card]

    def same_kind(self, thrown: Card, top: Card) -> bool:
        """Whether ``thrown`` may be matched on ``top``."""
        if self.same_kind_hook is not None:
            answer, plugin = first_result(self.same_kind_hook, variant=self.variant, thrown=thrown, top=top)
            if answer is not None:
                if type(answer) is not bool:
                    raise PluginError(
                        f"returned {answer!r}, expected True or False", plugin=plugin, hook="tamalou_same_kind"
                    )
                return answer
        if self.variant.rules.matching.by == "value":
            return self.value(thrown) == self.value(top)
        return thrown.rank == top.rank

    # ---------------------------------------------------------------- decisions during play

    def call_allowed(self, game: SeatViews, player: int) -> bool:
        """Whether ``player`` may call now (``tamalou_call_allowed``, asked with their own view)."""
        if self.call_allowed_hook is None:
            return True
        view = game.view(player)
        answer, plugin = first_result(self.call_allowed_hook, variant=self.variant, view=view)
        if answer is None:
            return True
        if type(answer) is not bool:
            raise PluginError(
                f"returned {answer!r}, expected True, False or None", plugin=plugin, hook="tamalou_call_allowed"
            )
        return answer

    def judge(self, tally: Tally) -> tuple[list[list[int]], list[int], list[int]]:
        """Ranking, winners and round scores of a finished round; a plugin's answers are checked."""
        n = len(tally.totals)
        hooks, v = self._end_hooks, self.variant
        args: dict[str, Any] = {"variant": v, "tally": tally, "tiebreaks": self.tiebreaks}
        ranking, plugin = first_answer("tamalou_rank", hooks["tamalou_rank"], args)
        if not _trusted(plugin):
            flat = [p for place in ranking or () for p in (place if isinstance(place, Sequence) else [place])]
            if (
                not isinstance(ranking, Sequence)
                or not all(isinstance(place, Sequence) and place for place in ranking)
                or sorted(flat) != list(range(n))
                or not all(type(p) is int for p in flat)
            ):
                raise PluginError(
                    f"returned {ranking!r}: expected places (lists of players), every player 0..{n - 1} exactly once",
                    plugin=plugin,
                    hook="tamalou_rank",
                )
            ranking = [list(place) for place in ranking]
        args = {"variant": v, "tally": tally, "ranking": ranking}
        winners, plugin = first_answer("tamalou_winners", hooks["tamalou_winners"], args)
        if not _trusted(plugin) and (
            not isinstance(winners, Sequence)
            or not all(type(p) is int and 0 <= p < n for p in winners)
            or len(set(winners)) != len(winners)
        ):
            raise PluginError(
                f"returned {winners!r}: expected a list of different players", plugin=plugin, hook="tamalou_winners"
            )
        args = {"variant": v, "tally": tally, "winners": list(winners)}
        scores, plugin = first_answer("tamalou_round_scores", hooks["tamalou_round_scores"], args)
        if not _trusted(plugin) and (
            not isinstance(scores, Sequence) or len(scores) != n or not all(type(s) is int for s in scores)
        ):
            raise PluginError(
                f"returned {scores!r}: expected one integer per player", plugin=plugin, hook="tamalou_round_scores"
            )
        return ranking, list(winners), list(scores)


if TYPE_CHECKING:

    def _a_rulebook_is_what_the_round_reads(rb: Rulebook) -> RulebookFace:
        """mypy checks here that ``Rulebook`` has every member the round reads of it, with its type."""
        return rb


def rulebook(variant: Variant) -> Rulebook:
    """The rulebook of ``variant``, built once and kept on the variant."""
    # Read from pydantic's private dict directly: ``variant._rulebook`` goes through ``BaseModel.__getattr__``,
    # a Python-level call, at every new game.
    private = variant.__pydantic_private__
    rb = private.get("_rulebook") if private is not None else None
    if rb is None:
        rb = Rulebook(variant)
        variant._rulebook = rb
    return rb


def _doc_line(function: Any) -> str:
    doc = (getattr(function, "__doc__", None) or "").strip()
    return " ".join(doc.split("\n\n")[0].split())


def ranking_rule(variant: Variant | str | Sequence[str]) -> list[str]:
    """The end-of-round decision of ``variant`` in words, one line per step, hooks included: who ranks
    the players (the default or the plugin that replaces it), the tie-breaks in order, who wins and
    what each scores. For ``tamalou show`` and for authors checking that a house rule composed::

        >>> ranking_rule("cambia")[:2]
        ['ranking: lowest total first; players who left the round last', 'tie-break 1: the caller wins ties']
    """
    rb = rulebook(resolve(variant))
    lines: list[str] = []
    for name, default in (
        ("tamalou_rank", "ranking: lowest total first; players who left the round last"),
        ("tamalou_winners", "winners: the first place"),
        ("tamalou_round_scores", "round scores: each player's card total"),
    ):
        impls = [i for i in rb._end_hooks[name] if i.plugin_name != _DEFAULTS]  # (as ``end_hook_plugins``)
        text = default
        if name == "tamalou_winners":
            bound = rb.variant.rules.end.win_max
            if bound is not None:
                text += f", at or under {rb.threshold if bound == 'threshold' else bound} points"
        if name == "tamalou_round_scores":
            sc = rb.variant.rules.scoring
            if sc.caller_won == "zero":
                text += "; a caller who wins scores 0"
            if sc.caller_lost_penalty:
                text += f"; a caller who does not win adds {sc.caller_lost_penalty}"
        for impl in impls:  # asked first: they may replace the default (or say None and leave it)
            doc = _doc_line(impl.function) or "its own rule"
            text = f"{doc} (plugin {impl.plugin_name}; where it has no answer: {text})"
        lines.append(text)
        if name == "tamalou_rank":  # a tie-break of rules.end.ties as it is; one a plugin adds, with its plugin
            added = dict(rb.added_tiebreaks())
            for i, t in enumerate(rb.tiebreaks, 1):
                by = f" (added by plugin {added[t.name]})" if t.name in added else ""
                lines.append(f"tie-break {i}: {t.description}{by}")
            if not rb.tiebreaks:
                lines.append("tie-breaks: none (players with the same total share a place)")
    return lines


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else parse_card(card)


def card_value(variant: Variant | str | Sequence[str], card: Card | str) -> int:
    """The points ``card`` scores under ``variant``, hooks applied (``card_value("french", "KS") == 15``)."""
    return rulebook(resolve(variant)).value(_card(card))


def card_power(variant: Variant | str | Sequence[str], card: Card | str) -> str:
    """The name of ``card``'s power under ``variant``, hooks applied (``"none"`` for no power)."""
    return rulebook(resolve(variant)).power_name(_card(card))
