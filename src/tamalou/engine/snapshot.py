"""Snapshots of a round (shared with matches of rounds); copies and undo are ``copying.py``'s.

A snapshot is compact JSON: the core's saved state (``State.STATE``), the generator's state, each
mechanic's state (the slots of its state object), the action log (short lists: ``["d",0,"stock"]``)
and the variant: its name where it is a registered ruleset (or a composition of them), else the whole
resolved variant, so a game on a ruleset loaded from a file restores from any directory.
"""

from __future__ import annotations

import json
import sys
import weakref
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from ..actions import ACTION_TYPES, MAX_TIME, Action, field_names, short
from ..cards import Card, parse_card
from ..errors import SetupError, SnapshotError, TamalouError
from ..resolver import resolver
from ..rng import Rng
from .copying import state_slots
from .deal import set_universe, stacked_deals, stacked_universe
from .state import GIVE, HOLD, MAX_REASON, NO_CARD, OVER, Phase

if TYPE_CHECKING:
    from ..schema import Variant
    from .flow import Flow

VERSION = 2
_BUILTIN_PHASES = frozenset(p.value for p in Phase)

_CODES = {
    "draw": "d",
    "replace": "r",
    "discard": "x",
    "power": "w",
    "swap": "s",
    "pass": "p",
    "call": "c",
    "match": "m",
    "peek": "k",
    "give": "g",
    "tick": "t",
}
_TYPES = {v: k for k, v in _CODES.items()}


def compact(a: Action) -> list[Any]:
    """An action as a short list: its code, then its fields in order, trailing ``None`` dropped."""
    values = [getattr(a, name) for name in field_names(type(a))]
    while values and values[-1] is None:
        values.pop()
    return [_CODES.get(a.type, a.type), *(list(v) if isinstance(v, tuple) else v for v in values)]


def uncompact(item: list[Any]) -> Action:
    """The action a ``compact`` list stands for."""
    if not isinstance(item, list) or not item or not isinstance(item[0], str):
        raise SnapshotError(f"not an action of a snapshot's log: {item!r}")
    cls: Any = ACTION_TYPES.get(_TYPES.get(item[0], item[0]))
    if cls is None:
        raise SnapshotError(f"unknown action type {item[0]!r} in a snapshot's log")
    names = field_names(cls)
    body = {n: (tuple(v) if isinstance(v, list) else v) for n, v in zip(names, item[1:], strict=False)}
    try:
        return cls(**body)  # type: ignore[no-any-return]
    except (TypeError, TamalouError) as exc:
        raise SnapshotError(f"bad action {item!r} in a snapshot's log: {exc}") from None


#: ``variant_ref``'s answers, one per variant object alive: ``id(variant)`` -> (a weak reference to it, its
#: answer). A variant is immutable, so its answer never changes; an entry leaves with its variant (the
#: weak reference's callback), so the cache keeps no variant alive and holds no more than those alive.
_REFS: dict[int, tuple[weakref.ref[Any], Any]] = {}


def forget_variant_refs() -> None:
    """Empty ``variant_ref``'s cache (the registry changed: a name may now be registered, or no more)."""
    _REFS.clear()


def variant_ref(variant: Variant) -> Any:
    """How a snapshot names its variant: the spec it was loaded by, if every part is a registered
    ruleset's name; else the whole resolved variant (its JSON dict).

    Worked out once per variant object and kept while the variant lives: the answer is shared, so
    read it, never change it."""
    key = id(variant)
    found = _REFS.get(key)
    if found is not None and found[0]() is variant:
        return found[1]
    is_registered = resolver().is_registered
    spec = variant.spec
    parts = [spec] if isinstance(spec, str) else spec
    if isinstance(parts, list) and parts and all(isinstance(s, str) and is_registered(s) for s in parts):
        ref: Any = spec
    else:
        ref = variant.model_dump(mode="json")

    def forget(dead: weakref.ref[Any]) -> None:
        entry = _REFS.get(key)
        if entry is not None and entry[0] is dead:
            del _REFS[key]

    _REFS[key] = (weakref.ref(variant, forget), ref)
    return ref


def resolve_variant(ref: Any, allow_plugins: Any = None) -> Variant:
    """The variant a snapshot names. Plugins: only modules already imported in this process, plus
    ``allow_plugins`` (a restore never imports a module its caller did not load or allow)."""
    allowed = {name for name in sys.modules if not name.startswith("_")}
    if allow_plugins is True:
        allow: Any = True
    else:
        allow = allowed | set(allow_plugins or ())
    loader = resolver()
    names = [ref] if isinstance(ref, str) else ref
    if not isinstance(ref, dict) and not all(isinstance(n, str) and loader.is_registered(n) for n in names):
        raise SnapshotError("the snapshot's variant: registered ruleset names, or the whole variant (never a path)")
    try:
        if isinstance(ref, dict):
            return loader.from_dict(ref, allow_plugins=allow)
        return loader.load(ref, allow_plugins=allow)
    except TamalouError as exc:
        raise SnapshotError(f"the snapshot's variant cannot be loaded: {short(str(exc), 300)}") from None


def dump(g: Flow) -> str:
    state: dict[str, Any] = {"v": VERSION, "variant": variant_ref(g.variant), "players": g.players}
    added, when_set = g.ADDED, g.WHEN_SET
    for key in g.STATE:
        value = getattr(g, key)
        if key not in when_set or value != added[key]:
            state[key] = value
    state["rng"] = g.rng.state
    # The cards of the variant's deck for this table are not written: read back against that deck.
    state["cards"] = None if g.cards is g.rb.deck_for(g.players) else " ".join(g.text)
    state["deal"] = g.deal_spec
    state["m"] = {
        m.name: [getattr(st, name) for name in state_slots(st)]
        for m, st in zip(g.rb.mechanics, g.ms, strict=True)
        if st is not None
    }
    state["actions"] = [compact(a) for a in g.actions]
    return json.dumps(state, separators=(",", ":"))


#: The largest snapshot text read from a **trusted** source (``from_json(..., trusted=True)``: the caller's own
#: snapshots). A real one is a few kilobytes; a long game's log some hundreds. The longest match the rules allow,
#: ``schema.MAX_MATCH_TURNS`` turns, takes 1.4 to 2.6 million characters in random play, and up to some 380 million
#: played the worst way: 12 players each throwing every card they may on every thrown card, a tick after every
#: action, every action stamped with the longest time text, about 9,500 characters a turn (see
#: ``schema.MAX_MATCH_TURNS``). This cap is that with a margin of 1.5 and more, plus the stacked deals a match may
#: hold (``new_match(deals=...)``: at most ``deal.MAX_STACKED_DEALS`` deals of the largest deck, 4,104 cards of 3
#: characters at most, some 2.5 million; tests/properties/test_restorable.py measures both).
MAX_TEXT = 600_000_000
#: The largest snapshot text read from outside (``from_json`` by default, ``max_chars`` to change it): twelve times
#: the longest match of random play (2.6 million characters), far more than any match people play, so that a
#: hostile text costs seconds and megabytes at most before it is refused (a server caps it lower still).
OUTSIDE_TEXT = 32_000_000
#: The most items any list of a snapshot may hold before its shape is checked (its layouts, stock, discard,
#: knowledge: at most the largest deck, 4,104 cards; a log: ``LOG_ITEMS``), so that a hostile list is refused
#: before anything is built from it.
MAX_CARDS = 8_192
#: The most actions a round's log (or a match's, round by round) may hold: ``schema.MAX_TURNS`` turns of at most 400
#: actions each (a turn of 12 players who each match every thrown card is some 200). A log that long still restores;
#: the replay of a snapshot from outside stops at its first action that is not the game's.
LOG_ITEMS = 4_000_000
#: The most names a snapshot's variant may be composed of.
MAX_PARTS = 16
#: The most slots the layouts of a snapshot may have in all (empty slots included: a matched card leaves its slot
#: empty, a penalty card takes a new slot), per card of the game and per action of its log. The dealt slots are at
#: most the game's cards, and no action adds more than a few slots (a penalty), so a legal game stays far under
#: it, however small its deck and long its round (legal random play stays under 1 slot per card: 40 slots for
#: kaboo's 54 cards at worst, matching most of the time); a damaged snapshot with a huge layout of empty slots,
#: which would make every call on the game slow, would need a log as long to pass.
SLOTS_PER_CARD = 4


def text_cap(trusted: bool, max_chars: int | None) -> int:
    """The most characters ``from_json`` reads: ``max_chars`` if given, else ``MAX_TEXT`` for a trusted text and
    ``OUTSIDE_TEXT`` for one from outside."""
    if max_chars is not None:
        return max_chars
    return MAX_TEXT if trusted else OUTSIDE_TEXT


def read(data: object, shape: type[BaseModel], version: int, what: str, max_chars: int = MAX_TEXT) -> dict[str, Any]:
    """The JSON object of a snapshot (``what``: "snapshot", "match snapshot"), checked against its ``shape``
    (strict types), its ``version`` and the size caps (``max_chars`` characters at most; lists no longer than a
    deck or a log, checked before the shape so that nothing is built from a hostile list); the first thing wrong
    is a ``SnapshotError``."""
    if not isinstance(data, str | bytes) or len(data) > max_chars:
        size = len(data) if isinstance(data, str | bytes) else None
        raise SnapshotError(f"a {what} is the JSON text of to_json() ({max_chars} characters at most), got {size}")
    try:
        state = json.loads(data)
    except RecursionError:
        raise SnapshotError(f"a {what} is the JSON text of to_json(), not something nested so deep") from None
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"a {what} is the JSON text of to_json(), got: {short(str(exc), 200)}") from None
    if not isinstance(state, dict):
        raise SnapshotError(f"a {what} is a JSON object")
    if state.get("v") != version:
        raise SnapshotError(f"unknown {what} version {short(state.get('v'))} (this tamalou reads version {version})")
    problem = _too_long(state)
    if problem is not None:
        raise SnapshotError(f"damaged {what}: {problem}")
    # The logs are checked action by action as they are read (``uncompact``, the first wrong one named); the shape
    # checks the rest without copying them.
    logs = [key for key in _LOGS if isinstance(state.get(key), list)]
    try:
        shape.model_validate({**state, **{key: [] for key in logs}})
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise SnapshotError(f"damaged {what}: {short(where, 60)}: {short(err['msg'], 200)}") from None
    ref = state["variant"]
    if (isinstance(ref, list) and len(ref) > MAX_PARTS) or (isinstance(ref, str) and len(ref) > 1000):
        raise SnapshotError(f"damaged {what}: variant: a name or at most {MAX_PARTS} names")
    return state


#: The lists of a snapshot bounded by the largest deck (``MAX_CARDS``), and its logs (``LOG_ITEMS``).
_DECK_LISTS = ("hands", "stock", "discard", "knowers", "round_seeds", "scores", "won", "adjust", "firsts")
_LOGS = ("actions", "history")


def _too_long(state: dict[str, Any]) -> str | None:
    """The first list of ``state`` longer than it may be, or a log that is not a list (``None``: none)."""
    for key in _DECK_LISTS:
        value = state.get(key)
        if isinstance(value, list) and len(value) > MAX_CARDS:
            return f"{key}: {len(value)} items, at most {MAX_CARDS}"
    hands = state.get("hands")
    if isinstance(hands, list) and any(isinstance(h, list) and len(h) > MAX_CARDS for h in hands):
        return f"hands: a layout of more than {MAX_CARDS} slots"
    logs = [state.get("actions")]
    game = state.get("game")  # (a match snapshot's round in play)
    if isinstance(game, dict):
        logs.append(game.get("actions"))
    history = state.get("history")
    if history is not None:
        if not isinstance(history, list):
            return "history: a list of the rounds' logs"
        logs.extend(history)
    total = 0
    for log in logs:
        if log is None:
            continue
        if not isinstance(log, list):
            return "a log is a list of actions"
        total += len(log)
        if total > LOG_ITEMS:
            return f"more than {LOG_ITEMS} actions"
    return None  # (each action is checked as it is read: ``uncompact``)


def restore_state(g: Flow, state: dict[str, Any], variant: Variant | None, allow_plugins: Any = None) -> None:
    """Restore ``g`` from a snapshot's JSON object that ``read`` checked; ``SnapshotError`` if it is not a game."""
    try:
        _load(g, state, variant, allow_plugins)
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(f"incomplete or damaged snapshot: {type(exc).__name__}: {exc}") from None
    problem = _inconsistency(g)
    if problem is not None:
        raise SnapshotError(f"damaged snapshot: {problem}")


def _inconsistency(g: Flow) -> str | None:
    """What makes a restored game impossible (a card in two places, a seat that does not exist...)."""
    n = len(g.cards)
    players = g.players
    if len(g.hands) != players:
        return f"{len(g.hands)} layouts for {players} players"
    if len(g.knowers) != n:
        return f"knowledge of {len(g.knowers)} cards for {n} cards"
    places = [c for hand in g.hands for c in hand if c != NO_CARD] + g.stock + g.discard
    if g.held != NO_CARD:
        places.append(g.held)
    slots = sum(len(hand) for hand in g.hands)
    most = SLOTS_PER_CARD * (n + len(g.actions))
    if slots > most:
        return f"{slots} slots in the layouts for {n} cards and {len(g.actions)} actions (at most {most})"
    if sorted(places) != list(range(n)):
        return f"the cards are not each in one place ({len(places)} placed for {n} cards)"
    for name in ("first_player", "current_player"):
        if not 0 <= getattr(g, name) < players:
            return f"{name} {getattr(g, name)} is not a seat"
    if g.caller is not None and not 0 <= g.caller < players:
        return f"caller {g.caller} is not a seat"
    if g.starter is not None and not 0 <= g.starter < players:
        return f"starter {g.starter} is not a seat"
    if g.last_lap is not None and not 0 <= g.last_lap < players:
        return f"last_lap {g.last_lap} is not a seat"
    if (g.last_lap is None) != (g.last_lap_reason == "") or len(g.last_lap_reason) > MAX_REASON:
        return "last_lap and last_lap_reason do not agree (a seat and a reason of a few words, or neither)"
    if g.last_lap is not None and g.caller is not None:
        return "a round in its last lap and called"
    if (g.held == NO_CARD) != (g.holder == -1) or not -1 <= g.holder < players:
        return "the held card and its holder do not agree"
    if g.face_up:
        laid = 0
        for hand in g.hands:
            for c in hand:
                if c != NO_CARD:
                    laid |= 1 << c
        if g.face_up < 0 or g.face_up & ~laid:
            return "face_up marks a card that lies in no layout"
        if any(g.face_up >> c & 1 and g.knowers[c] != g.all_mask for c in range(n)):
            return "a card lies face up that a seat does not know"
    allmask = g.all_mask
    masks = (g.left, g.locked, g.sealed)
    if any(not 0 <= k <= allmask for k in g.knowers) or any(not 0 <= k <= allmask for k in masks):
        return "knowledge or masks name players who are not at the table"
    if g.held_from not in ("", "stock", "discard") or g.draws < 0 or g.turn < 0 or not 0 <= g.now < MAX_TIME:
        return "the turn's state is out of bounds"
    # A card is held in the hold phase, and may still be held when a two-step power waits for its
    # giving step (GIVE) or when the round ended while the player to move held their drawn card
    # (a layout emptied out of turn: the card stays in their hand, shown, and counts for nobody).
    if (g.phase == HOLD) != (g.held != NO_CARD) and not (g.phase in (GIVE, OVER) and g.held != NO_CARD):
        return f"phase {g.phase!r} and the held card do not agree"
    for m, st in zip(g.rb.mechanics, g.ms, strict=True):
        if st is not None:
            fresh = m.new_state(g)
            most = max(MIN_STATE_LIST, n)
            for name in state_slots(st):
                why = _shape_problem(getattr(fresh, name), getattr(st, name), most)
                if why is not None:
                    return f"{m.name}.{name}: {short(getattr(st, name))} is not of its kind: {why}"
            problem = m.check_state(g, st)
            if problem is not None:
                return f"{m.name}: {problem}"
    # The held card is the turn's player's, who saw it when they drew it: the player to move, or the one the
    # round goes back to after an interruption (a give owed for a match made out of turn while the card is
    # held: ``Mechanic.resumes``, read once the mechanics' states are known to be sound).
    turn_player = g.phase_beneath()[1]
    if g.held != NO_CARD and (g.holder != turn_player or not g.knowers[g.held] >> g.holder & 1):
        return f"the held card's holder {g.holder} is not the turn's player ({turn_player}), who saw it"
    return None


#: The fewest entries a list of a mechanic's state may hold in a snapshot; it may hold as many as the game has cards
#: when that is more (a per-card table: 104 entries with two decks). docs/write-a-mechanic.md gives every bound.
MIN_STATE_LIST = 64
#: The longest text a mechanic's state may hold in a snapshot.
MAX_STATE_TEXT = 100


def _shape_problem(default: Any, value: Any, most: int) -> str | None:
    """Why a restored mechanic-state value has not the shape of a fresh state's ``default`` (``None``: it has); a list
    holds ``most`` entries at most, and so does each list of a list."""
    if default is None:
        if value is None or (isinstance(value, str | int | float | list) and not isinstance(value, bool)):
            return None
        return "a number, a text, a list or None"
    if isinstance(default, bool):
        return None if isinstance(value, bool) else "true or false"
    if isinstance(default, float):
        return None if type(value) in (int, float) and -1e301 < value < 1e301 else "a number"
    if isinstance(default, int):
        return None if type(value) is int and -(2**62) < value < 2**62 else "an integer (within 2**62)"
    if isinstance(default, str):
        return (
            None
            if isinstance(value, str) and len(value) <= MAX_STATE_TEXT
            else f"a text of {MAX_STATE_TEXT} characters at most"
        )
    if isinstance(default, list):
        if not isinstance(value, list):
            return "a list"
        if len(value) > most:
            return f"a list of {most} entries at most (the game's cards, {MIN_STATE_LIST} at least), not {len(value)}"
        if default:
            if len(value) != len(default):
                return f"a list of {len(default)} entries, as a fresh state's"
            for x in value:
                why = _shape_problem(default[0], x, most)
                if why is not None:
                    return f"a list of entries each {why}"
            return None
        if all(isinstance(x, list) and len(x) <= most and all(type(y) is int for y in x) for x in value):
            return None
        return f"a list of lists of integers ({most} entries at most each)"
    return None


def _check_deal(g: Flow, deal: Any, cards: Any) -> None:
    """A stacked deal, as ``new_game(..., deal=...)`` checks one, whose cards are the snapshot's."""
    try:
        universe = stacked_universe(g.rb.deck_for(g.players), deal, g.players)
    except SetupError as exc:
        raise SnapshotError(f"the snapshot's deal: {short(str(exc), 300)}") from None
    if cards is None or [str(c) for c in universe] != g.text:
        raise SnapshotError("the snapshot's deal does not hold the snapshot's cards")


def match_deals(saved: Any, deck: list[Card], players: int, most: int) -> tuple[dict[str, Any], ...]:
    """A match snapshot's stacked deals (``Match.deals``), checked as ``new_match`` checks them (a deal of
    ``deck`` for ``players``, ``most`` deals at most), and written as ``Match.to_json`` writes them (a snapshot
    holds them only when there are some); anything else is a ``SnapshotError``."""
    if saved is None:
        return ()
    try:
        deals = stacked_deals(deck, saved, players, most)
    except SetupError as exc:
        raise SnapshotError(f"damaged match snapshot: {exc}") from None  # (a few hundred characters at most)
    if not deals or list(deals) != saved:
        raise SnapshotError("damaged match snapshot: deals: not as to_json writes them (none, or a card's text)")
    return deals


def _load(g: Flow, state: Any, variant: Variant | None, allow_plugins: Any) -> None:
    if variant is None:
        variant = resolve_variant(state["variant"], allow_plugins)
    if not variant.rules.players.min <= state["players"] <= variant.rules.players.max:
        raise SnapshotError(f"{state['players']} players: {variant.name} is played by other counts")
    g.init_runtime(variant, state["players"])
    cards = state["cards"]
    if cards is None:
        set_universe(g, g.rb.deck_for(g.players))  # (the deck of the snapshot's player count)
    else:
        try:
            set_universe(g, [parse_card(t) for t in cards.split()])
        except (ValueError, TamalouError) as exc:
            raise SnapshotError(f"the snapshot's cards do not fit its variant: {exc}") from None
    added = g.ADDED
    for key in g.STATE:
        setattr(g, key, state[key] if key in state or key not in added else added[key])
    phase = state["phase"]
    if phase not in g.flow.rows:
        raise SnapshotError(f"phase {phase!r} is not a phase of {variant.name}")
    g.phase = Phase(phase) if phase in _BUILTIN_PHASES else phase
    deal = state.get("deal")
    if deal is not None:
        _check_deal(g, deal, cards)
    g.deal_spec = deal
    g.rng = Rng(0)
    g.rng.state = state["rng"]
    g.actions = [uncompact(x) for x in state["actions"]]
    saved = state["m"]
    g.ms = []
    for m in g.rb.mechanics:
        st = m.new_state(g)
        if st is not None:
            values = saved[m.name]
            for name, v in zip(state_slots(st), values, strict=True):
                setattr(st, name, v)
        g.ms.append(st)
