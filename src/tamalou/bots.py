"""Bots: players that see only their own view, and ``play_game`` to seat them at a table.

A bot is an object with ``act(view, legal_actions) -> action`` (or a plain callable with the same
signature). ``view`` is the ``SeatView`` of its seat and ``legal_actions`` the list that
``Game.legal_actions`` gives that seat: a bot never gets the game itself, so it cannot read a hidden
card. Out of its turn a bot is only asked about matches, and returns ``None`` to let the chance go;
when it has to act (its turn, an opening peek, a card to give) it must return one of the listed
actions.

A bot may also define ``setup(variant, player)``, ``needs_view = False`` and ``may_match()``: see
``tamalou.play``, where ``Bot`` and ``play_game`` live (they are re-exported here).

The built-in bots, by name (``make_bot(name, seed)``): ``random`` (``RandomBot``), ``cautious``
(``CautiousBot``) and ``greedy`` (``GreedyBot``). An installed package adds bots through the entry-point
group ``tamalou.bots`` (``BOT_ENTRY_POINT_GROUP``).

```python
import tamalou
from tamalou.bots import CautiousBot, GreedyBot, RandomBot, play_game

g = tamalou.new_game("french", players=3, seed=7)
result = play_game(g, [GreedyBot(1), CautiousBot(2), RandomBot(3)])
print(result.winners)
```
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from itertools import compress
from typing import TYPE_CHECKING, Generic, TypeVar

from .actions import Action, Call, Discard, Draw, Give, MatchAction, Pass, PeekAction, Power, Replace, Swap, Tick
from .cards import parse_card
from .errors import PluginError
from .ismcts import ISMCTSBot
from .play import Bot, BotLike, as_bot, play_game
from .rules import Rulebook, rulebook
from .schema import Variant
from .views import SeatView, Slot

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint
    from typing import Self

__all__ = [
    "BOT_ENTRY_POINT_GROUP",
    "BUILTIN_BOTS",
    "Bot",
    "BotLike",
    "CautiousBot",
    "GreedyBot",
    "ISMCTSBot",
    "RandomBot",
    "as_bot",
    "bot_factory",
    "bot_names",
    "make_bot",
    "play_game",
]

T = TypeVar("T")


# ----------------------------------------------------------------------------- the random bot


# What ``RandomBot`` makes of an action, by its class (worked out once per class with ``isinstance``).
_CALL, _MATCH, _TICK, _OTHER = "call", "match", "tick", "other"
_KINDS: dict[type, str] = {}


def _kind(cls: type) -> str:
    kind = (
        _CALL
        if issubclass(cls, Call)
        else _MATCH
        if issubclass(cls, MatchAction)
        else _TICK
        if issubclass(cls, Tick)
        else _OTHER
    )
    _KINDS[cls] = kind
    return kind


#: What ``RandomBot`` needs of a listing, by the classes of its actions in their order: the places of the
#: actions other than calls, matches and ticks, the place of the first call (``-1``: none) and the places
#: of the matches. Worked out once per shape of listing: a game's listings take few shapes (a timed game
#: with long layouts meets a few long ones many times: the blind swaps of a Queen, hundreds of actions).
#: Places in a row are kept as a ``range``, which takes no room whatever its length.
_Places = tuple[int, ...] | range
_Shape = tuple[_Places, int, _Places]
_SHAPES: dict[tuple[type, ...], _Shape] = {}
_SHAPES_MOST = 4096  # shapes kept; then the table starts over
_SHAPES_ROOM = 1 << 18  # or past as many classes and places held (a few MB)
_shapes_held = 0  # the classes and places held
_IN_A_ROW = 32  # more places than this in a row are kept as a range


def _places(n: int, kind: set[type], classes: tuple[type, ...]) -> _Places:
    """The places of the listing's actions whose class is in ``kind`` (one pass at C speed)."""
    if not kind:
        return ()
    found = tuple(compress(range(n), map(kind.__contains__, classes)))
    if len(found) > _IN_A_ROW and found[-1] - found[0] + 1 == len(found):
        return range(found[0], found[-1] + 1)
    return found


def _shape(classes: tuple[type, ...]) -> _Shape:
    global _shapes_held
    # By the few distinct classes of the listing, then one pass at C speed per kind present: a long
    # listing (a blind swap between two long layouts, hundreds of actions) costs little more than a short
    # one. The places are those a plain loop over the listing would find.
    of_kind: dict[str, set[type]] = {_CALL: set(), _MATCH: set(), _TICK: set(), _OTHER: set()}
    for cls in set(classes):
        of_kind[_KINDS[cls] if cls in _KINDS else _kind(cls)].add(cls)
    n = len(classes)
    calls_of = of_kind[_CALL]
    others = _places(n, of_kind[_OTHER], classes)
    matches = _places(n, of_kind[_MATCH], classes)
    shape = (others, min(map(classes.index, calls_of)) if calls_of else -1, matches)
    room = n + sum(len(x) for x in (others, matches) if type(x) is tuple)
    if room > _SHAPES_ROOM:
        return shape
    if len(_SHAPES) >= _SHAPES_MOST or _shapes_held + room > _SHAPES_ROOM:
        _SHAPES.clear()
        _shapes_held = 0
    _SHAPES[classes] = shape
    _shapes_held += room
    return shape


class RandomBot:
    """Plays at random, reproducibly for a given ``seed``.

    In its turn it picks uniformly among the listed actions other than calls and matches; it takes
    an offered call with probability ``call_probability`` (always when the call is the only
    action) and tries a match (on a random slot, so usually a wrong one) with probability
    ``match_probability``. Out of turn it tries a match with probability ``match_probability``.
    """

    #: It decides from the legal actions alone: ``play_game`` and simulations build no view for it.
    needs_view = False

    def __init__(self, seed: int = 0, call_probability: float = 0.05, match_probability: float = 0.05) -> None:
        self.rng = random.Random(seed)
        self.call_probability = call_probability
        self.match_probability = match_probability
        self._match_next = False

    def may_match(self) -> bool:
        """Out of turn, before its matches are listed: whether it tries one (with ``match_probability``)."""
        self._match_next = self.rng.random() < self.match_probability
        return self._match_next

    def act(self, view: SeatView | None, legal_actions: list[Action]) -> Action | None:
        rng = self.rng
        if self._match_next:  # out of turn, after ``may_match`` said yes: a random one of the listed matches
            self._match_next = False
            if legal_actions and all(isinstance(a, MatchAction) for a in legal_actions):
                return rng.choice(legal_actions)
        # Where the calls, matches and other actions are in the listing, by the classes of its actions: a
        # dictionary lookup at C speed.
        classes = tuple(map(type, legal_actions))
        shape = _SHAPES.get(classes)
        others, call, matches = _shape(classes) if shape is None else shape
        n = len(others)
        if not n and call < 0:
            if matches and rng.random() < self.match_probability:
                return legal_actions[rng.choice(matches)]
            return None
        if call >= 0 and (not n or rng.random() < self.call_probability):
            return legal_actions[call]
        if matches and rng.random() < self.match_probability:
            return legal_actions[rng.choice(matches)]
        # ``rng.choice(others)`` written out (the same draws: ``Random._randbelow`` with ``getrandbits``),
        # without its two Python calls.
        k = n.bit_length()
        getrandbits = rng.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal_actions[others[r]]

    def __repr__(self) -> str:
        return f"RandomBot(call_probability={self.call_probability}, match_probability={self.match_probability})"


# ----------------------------------------------------------------------------- what the ruleset tells a bot


class _Lazy(dict[str, T], Generic[T]):
    """A table by card text, filled from the deck, that works out a card it does not hold on first use."""

    def __init__(self, work_out: Callable[[str], T]) -> None:
        super().__init__()
        self._work_out = work_out

    def __missing__(self, card: str) -> T:
        fact = self[card] = self._work_out(card)
        return fact


class _Facts:
    """The public facts of one ruleset a bot decides with, worked out once per ruleset and process (shared
    by every bot of that ruleset): card values, what matching compares, the deck's values, the threshold."""

    __slots__ = (
        "can_match",
        "deck_size",
        "deck_total",
        "kinds",
        "opponents",
        "rb",
        "same_pairs",
        "threshold",
        "value_counts",
        "values",
    )

    def __init__(self, rb: Rulebook) -> None:
        self.rb = rb
        self.values: _Lazy[int] = _Lazy(lambda card: rb.value(parse_card(card)))
        for c in rb.deck:
            self.values[str(c)] = rb.value(c)
        deck_values = [self.values[str(c)] for c in rb.deck]
        self.deck_total = sum(deck_values)
        self.deck_size = len(deck_values)
        self.value_counts: dict[int, int] = {}
        for v in deck_values:
            self.value_counts[v] = self.value_counts.get(v, 0) + 1
        #: What matching compares, per card (its rank, or its value); ``None`` when a plugin decides
        #: (``tamalou_same_kind``): pairs are then asked of the rulebook once each.
        self.kinds: _Lazy[object] | None = None
        if rb.same_kind_hook is None:
            by_value = rb.variant.rules.matching.by == "value"
            values = self.values
            self.kinds = _Lazy(lambda card: values[card] if by_value else parse_card(card).rank)
        self.same_pairs: dict[tuple[str, str], bool] = {}
        self.threshold = rb.threshold
        self.can_match = rb.variant.rules.matching.enabled
        self.opponents = self.can_match and rb.variant.rules.matching.opponents

    def same_kind(self, thrown: str, top: str) -> bool:
        """Whether ``thrown`` may be matched on ``top`` (the rulebook's answer)."""
        kinds = self.kinds
        if kinds is not None:
            return kinds[thrown] == kinds[top]
        same = self.same_pairs.get((thrown, top))
        if same is None:
            same = self.same_pairs[thrown, top] = self.rb.same_kind(parse_card(thrown), parse_card(top))
        return same


_FACTS: dict[int, _Facts] = {}


def _facts(rb: Rulebook) -> _Facts:
    facts = _FACTS.get(id(rb))
    if facts is None or facts.rb is not rb:
        if len(_FACTS) > 64:
            _FACTS.clear()
        facts = _FACTS[id(rb)] = _Facts(rb)
    return facts


class _ViewReader:
    """What the cautious and the greedy bot share: the ruleset's public facts (read in ``setup``, the
    French rules when it was never called) and what a view tells of the cards."""

    def __init__(self, seed: int = 0, variant: Variant | str | None = None) -> None:
        self.rng = random.Random(seed)
        self.player: int | None = None
        self._facts: _Facts | None = None
        if variant is not None:
            self.setup(variant)

    def setup(self, variant: Variant | str, player: int | None = None) -> None:
        """Learn the ruleset (card values, powers, threshold); ``play_game`` calls it."""
        from .variant import load_variant

        v = variant if isinstance(variant, Variant) else load_variant(variant)
        self._facts = _facts(rulebook(v))
        self.player = player

    @property
    def facts(self) -> _Facts:
        if self._facts is None:
            self.setup("french")
        assert self._facts is not None
        return self._facts

    @property
    def rb(self) -> Rulebook:
        return self.facts.rb

    def value(self, card: str) -> int:
        """The points of ``card`` (its text, as views show it) in this ruleset."""
        return self.facts.values[card]

    def estimate(self, view: SeatView) -> float:
        """The expected value of a card this player has not seen: the mean of the unseen cards (the deck
        less the discard, the cards the view shows and the card held)."""
        facts = self.facts
        values = facts.values
        discard = view.discard
        total = facts.deck_total - sum(map(values.__getitem__, discard))
        n = facts.deck_size - len(discard)
        for hand in view.hands:
            for s in hand:
                if s.card is not None:
                    total -= values[s.card]
                    n -= 1
        if view.held is not None:
            total -= values[view.held]
            n -= 1
        if n <= 0:
            return facts.deck_total / max(1, facts.deck_size)
        return total / n

    def _worth(self, card: str | None, est: float) -> float:
        return est if card is None else float(self.facts.values[card])

    def _same_kind(self, a: str, b: str) -> bool:
        return self.facts.same_kind(a, b)

    def expected_total(self, view: SeatView, player: int, est: float) -> float:
        """What ``player``'s layout is worth to this seat: known cards at their value, unknown ones at ``est``."""
        values = self.facts.values
        return sum(est if s.card is None else values[s.card] for s in view.hands[player])

    def _give(self, view: SeatView, mine: list[Action], est: float) -> Action:
        """A card to give (opponent matching): the own card worth the most."""
        gives = [a for a in mine if isinstance(a, Give)]
        if not gives:
            return mine[0]
        return max(gives, key=lambda a: (self._worth(_card_at(view, view.player, a.slot), est), -a.slot))

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A copy that decides as this one would (same random state, same memory); the ruleset's
        tables are shared, not copied."""
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other


# ----------------------------------------------------------------------------- the cautious bot


class CautiousBot(_ViewReader):
    """A simple, sensible player that uses only its view.

    - keeps known low cards; puts a low drawn card in place of its highest known card (or of an
      unknown one, valued at the average of the cards it has not seen);
    - takes a low card from the discard; throws a drawn card of a rank it holds, then matches;
    - uses a peek power on its own unknown cards, looks at opponents' cards, swaps its high cards for
      known low ones (or blindly, when its card is clearly high);
    - matches only cards it knows are of the top's rank (so it never misses);
    - calls when its known cards plus the estimate for unknown ones is at most the threshold and
      lower than what it expects of every opponent.

    ``seed`` drives its few random choices (which unknown card to peek at), so a game between
    seeded bots is reproducible. ``variant`` gives card values and powers; ``play_game``
    passes it through ``setup``, and the French rules are assumed when neither is given.
    """

    #: A replacement must gain at least this many points (known or expected) to be made.
    MIN_GAIN = 1.0
    #: A blind swap is made when it gains at least this many points (expected).
    SWAP_GAIN = 3.0

    def __init__(self, seed: int = 0, variant: Variant | str | None = None) -> None:
        self._look: tuple[int, int] | None = None
        super().__init__(seed, variant)

    # -- deciding ---------------------------------------------------------------------------------

    def act(self, view: SeatView, legal_actions: list[Action]) -> Action | None:
        if not legal_actions:
            return None
        me = view.player
        match = self._good_match(view, legal_actions)
        if match is not None:
            return match
        mine: list[Action] = [a for a in legal_actions if not isinstance(a, MatchAction | Tick)]
        if not mine:
            return None  # out of turn: no match worth trying
        phase = view.phase
        est = self.estimate(view)
        if phase == "peek":
            return min((a for a in mine if isinstance(a, PeekAction)), key=lambda a: a.slots, default=mine[0])
        if phase == "give":
            return self._give(view, mine, est)
        if view.current_player != me:
            return mine[0]
        if phase == "draw":
            return self._draw(view, mine, est)
        if phase == "hold":
            return self._hold(view, mine, est)
        if phase == "power":
            return self._power(view, mine, est)
        if phase == "swap":
            return self._swap(view, mine, est)
        if phase == "call":
            call = next((a for a in mine if isinstance(a, Call)), None)
            if call is not None and self.should_call(view, est):
                return call
            return next((a for a in mine if isinstance(a, Pass)), mine[0])
        return next((a for a in mine if not isinstance(a, Call)), mine[0])

    def should_call(self, view: SeatView, est: float) -> bool:
        """Known cards plus the estimate for the unknown ones at most the threshold, and below
        what every opponent is expected to hold."""
        me = view.player
        mine = self.expected_total(view, me, est)
        if mine > self.rb.threshold:
            return False
        others = [self.expected_total(view, q, est) for q in range(view.players) if q != me]
        return all(mine < t for t in others)

    def _good_match(self, view: SeatView, legal: list[Action]) -> Action | None:
        top = view.discard_top
        if top is None:
            return None
        me = view.player
        best: tuple[float, int, Action] | None = None
        for a in legal:
            if not isinstance(a, MatchAction) or len(a.slots) != 1:
                continue
            owner = me if a.owner is None else a.owner
            card = _card_at(view, owner, a.slots[0])
            if card is None or not self._same_kind(card, top):
                continue
            # Own cards first (the highest first); an opponent's card costs us a card to give.
            score = float(self.value(card)) if owner == me else -100.0
            if best is None or score > best[0]:
                best = (score, -a.slots[0], a)
        return None if best is None else best[2]

    def _own_worst(self, view: SeatView, est: float) -> tuple[float, int] | None:
        """The own slot worth the most points (known value, or the estimate if unknown)."""
        best: tuple[float, int, int] | None = None
        for s in view.hands[view.player]:
            w = self._worth(s.card, est)
            known = 0 if s.card is None else 1
            key = (w, known, -s.slot)
            if best is None or key > best:
                best = key
        return None if best is None else (best[0], -best[2])

    def _draw(self, view: SeatView, mine: list[Action], est: float) -> Action:
        calls = [a for a in mine if isinstance(a, Call)]
        draws = [a for a in mine if isinstance(a, Draw)]
        if calls and (not draws or self.should_call(view, est)):
            return calls[0]
        stock = next((a for a in draws if a.source == "stock"), None)
        discard = next((a for a in draws if a.source == "discard"), None)
        top = view.discard_top
        if discard is not None and top is not None:
            worst = self._own_worst(view, est)
            v = self.value(top)
            if worst is not None and worst[0] - v >= 4 and v <= est - 1:
                return discard
        if stock is not None:
            return stock
        if discard is not None:
            return discard
        return next((a for a in mine if isinstance(a, Pass)), mine[0])

    def _hold(self, view: SeatView, mine: list[Action], est: float) -> Action:
        held = view.held
        replaces = {a.slot: a for a in mine if isinstance(a, Replace)}
        discard = next((a for a in mine if isinstance(a, Discard)), None)
        if held is None:
            return discard or mine[0]
        v = self.value(held)
        me = view.player
        if discard is not None and any(s.card is not None and self._same_kind(s.card, held) for s in view.hands[me]):
            return discard  # throw it, then match the one we hold
        best: tuple[float, int, int] | None = None
        for s in view.hands[me]:
            if s.slot not in replaces:
                continue
            key = (self._worth(s.card, est), 0 if s.card is None else 1, -s.slot)
            if best is None or key > best:
                best = key
        if best is None:
            return discard or mine[0]
        gain = best[0] - v
        if discard is None or gain >= self.MIN_GAIN:
            return replaces[-best[2]]
        return discard

    def _power(self, view: SeatView, mine: list[Action], est: float) -> Action:
        me = view.player
        powers = [a for a in mine if isinstance(a, Power)]
        passing = next((a for a in mine if isinstance(a, Pass)), None)
        if not powers:
            return passing or mine[0]
        name = view.power
        if name == "peek_own":
            unknown = [a for a in powers if a.slot is not None and _card_at(view, me, a.slot) is None]
            return self.rng.choice(unknown) if unknown else passing or powers[0]
        if name == "peek_opponent":
            unknown = [a for a in powers if _target_card(view, a) is None]
            if unknown:
                # Look at a card of the opponent who looks closest to calling.
                lowest = min(self.expected_total(view, a.target or 0, est) for a in unknown)
                return self.rng.choice([a for a in unknown if self.expected_total(view, a.target or 0, est) == lowest])
            return passing or powers[0]
        if name == "blind_swap":
            best: tuple[float, Power] | None = None
            for a in powers:
                if a.slot is None:
                    continue
                gain = self._worth(_card_at(view, me, a.slot), est) - self._worth(_target_card(view, a), est)
                # A swap with a known card is sure; a blind one only expected.
                if _card_at(view, me, a.slot) is None and _target_card(view, a) is None:
                    continue
                if best is None or gain > best[0]:
                    best = (gain, a)
            if best is not None and (best[0] >= self.SWAP_GAIN or passing is None):
                return best[1]
            return passing or powers[0]
        if name == "look_and_swap":
            worst = self._own_worst(view, est)
            known_low = [a for a in powers if _target_card(view, a) is not None]
            if worst is not None and known_low:
                a = min(
                    known_low,
                    key=lambda a: (self.value(_target_card(view, a) or ""), a.target, a.target_slot),
                )
                if worst[0] - self.value(_target_card(view, a) or "") >= 2:
                    self._look = (a.target or 0, a.target_slot or 0)
                    return a
            unknown = [a for a in powers if _target_card(view, a) is None]
            pick = self.rng.choice(unknown) if unknown else powers[0]
            self._look = (pick.target or 0, pick.target_slot or 0)
            return pick
        if name == "play_again":
            return powers[0]
        return passing or powers[0]

    def _swap(self, view: SeatView, mine: list[Action], est: float) -> Action:
        passing = next((a for a in mine if isinstance(a, Pass)), None)
        swaps = {a.slot: a for a in mine if isinstance(a, Swap)}
        look, self._look = self._look, None
        if not swaps or look is None:
            return passing or mine[0]
        seen = _card_at(view, look[0], look[1])
        if seen is None:
            return passing or mine[0]
        best: tuple[float, int, int] | None = None
        for s in view.hands[view.player]:
            if s.slot in swaps:
                key = (self._worth(s.card, est), 0 if s.card is None else 1, -s.slot)
                if best is None or key > best:
                    best = key
        if best is not None and best[0] - self.value(seen) >= 2:
            return swaps[-best[2]]
        return passing or mine[0]

    def __repr__(self) -> str:
        return "CautiousBot()"


# ----------------------------------------------------------------------------- the greedy bot

_Decision = Callable[["GreedyBot", SeatView, list[Action]], Action | None]
_PowerUse = Callable[["GreedyBot", SeatView, list[Power], Action | None], Action | None]


class GreedyBot(_ViewReader):
    """A memory-based greedy player: each decision takes the most points it can count on now.

    It decides from its view and the ruleset's public facts alone (card values and the call threshold,
    read in ``setup``). Its view is its memory: it shows every card this seat has seen, wherever the card
    has moved since (the referee follows each card), and the whole discard pile. A card it has not seen
    is worth the mean of the cards it has not seen (the deck less the discard, the cards it knows and the
    card it holds).

    - **Draw**: from the discard when the top card, in place of its worst card, gains more than a card
      of the stock is expected to; else from the stock. Its worst card: its highest known card, or an
      unknown one (worth the mean of the unseen cards) when that is higher.
    - **Keep or throw**: it puts the drawn card in place of its worst card when the drawn card is lower
      (counting a card of the same kind it could then match), else throws it; it throws a drawn card of
      the kind of a card it knows in its layout when matching that card gains more.
    - **Powers**, to learn first: it looks at its own unknown cards, then at the unknown cards of the
      opponent who looks lowest; it swaps a known high card of its own for an opponent's known lower
      card (a swap with one unknown card needs an expected gain of ``BLIND_GAIN``); it takes a look and
      swap's look where it may find a low card, and swaps when the card seen is lower than its worst; it
      gives a card (``give_stock_card``) to the opponent who looks lowest and plays again when it may.
    - **Matching**: only cards it knows are of the discard top's kind, never blind, the highest first,
      never a card worth less than nothing; an opponent's known card (opponent matching) when the card
      it gives for it is worth more.
    - **Calling**: when its known cards plus the mean of the unseen cards for each unknown one come to
      at most the ruleset's call threshold.

    Whatever it does not know (a power or a phase a plugin adds, or a move that is all a phase offers)
    it plays at random among the listed actions, with its seeded generator: it plays every ruleset,
    never an action that is not listed, and a game between seeded bots is reproducible. Moves it does
    not know are left aside when a move it knows is listed with them.
    """

    #: The expected gain (points) a swap with one unknown card needs: expected gains are uncertain.
    BLIND_GAIN = 3.0

    def __init__(self, seed: int = 0, variant: Variant | str | None = None) -> None:
        #: The first step of a two-step power it used (its name and the action), for the second step.
        self._pending: tuple[str, Power] | None = None
        #: How many out-of-turn chances to let go without looking (see ``may_match``).
        self._skips = 0
        super().__init__(seed, variant)

    def setup(self, variant: Variant | str, player: int | None = None) -> None:
        """Learn the ruleset (card values, what matching compares, the call threshold); ``play_game`` calls it."""
        super().setup(variant, player)
        self._pending = None
        self._skips = 0

    def may_match(self) -> bool:
        """Out of turn, before its matches are listed: ``False`` while no card can have been thrown since it
        last let offered matches go, ``True`` otherwise. It spares building views that would change nothing: a
        right match is of the kind of the card it falls on, and in the built-in rules only a move in the phase
        ``hold`` throws a card, so after it let matches go in the phase ``draw`` the next question comes before
        any throw, and after it did in ``power``, ``swap`` (another player's) or ``call`` the next two do."""
        if self._skips:
            self._skips -= 1
            return False
        return True

    # -- deciding ---------------------------------------------------------------------------------

    def act(self, view: SeatView, legal_actions: list[Action]) -> Action | None:
        if not legal_actions:
            return None
        match = self._match(view, legal_actions)
        if match is not None:
            self._skips = 0
            return match
        phase = view.phase
        mine: list[Action] = []
        offered = False  # matches
        for a in legal_actions:
            if isinstance(a, MatchAction):
                offered = True
            elif not isinstance(a, Tick):
                mine.append(a)
        # Offered matches it does not take now, it will not take before a card is thrown (see ``may_match``),
        # unless its own move shows it a card (a power of its own).
        self._skips = _NO_THROW.get(phase, 0) if offered and not (mine and phase in _SHOWS) else 0
        if not mine:  # out of turn: no match it is sure of
            return None
        if phase != "swap":
            self._pending = None
        decide = _PHASES.get(phase)
        action = None if decide is None else decide(self, view, mine)
        if action is None:  # something it does not know: any listed action, from its seeded generator
            action = self.rng.choice(mine)
        return action

    def should_call(self, view: SeatView, est: float) -> bool:
        """Its known cards plus ``est`` for each unknown card come to at most the call threshold."""
        return self.expected_total(view, view.player, est) <= self.facts.threshold

    # -- matching ---------------------------------------------------------------------------------

    def _match(self, view: SeatView, legal: list[Action]) -> Action | None:
        """The listed match that gains the most among the cards it knows are of the top's kind."""
        top = view.discard_top
        if top is None:
            return None
        me = view.player
        facts = self.facts
        values = facts.values
        same = facts.same_kind
        if not facts.opponents:  # the usual case, made quick: its own highest known card of the top's kind
            slot, best_v = -1, -1
            for s in view.hands[me]:
                card = s.card
                if card is not None and (v := values[card]) > best_v and same(card, top):
                    slot, best_v = s.slot, v
            if slot < 0:
                return None
            for a in legal:
                if isinstance(a, MatchAction) and a.slots == (slot,) and (a.owner is None or a.owner == me):
                    return a
        hands: dict[int, dict[int, str | None]] = {}
        given: float | None = None  # what an opponent's card costs: the card it gives for it
        best: Action | None = None
        best_score = 0.0
        for a in legal:
            if not isinstance(a, MatchAction) or len(a.slots) != 1:
                continue
            owner = me if a.owner is None else a.owner
            cards = hands.get(owner)
            if cards is None:
                cards = hands[owner] = {s.slot: s.card for s in view.hands[owner]}
            card = cards.get(a.slots[0])
            if card is None or not same(card, top):
                continue
            if owner == me:
                v = values[card]
                if v < 0:
                    continue
                score = v + 0.5  # a card of no value is still a card less; own cards before an opponent's
            else:
                if given is None:
                    worst = self._worst(view, self.estimate(view))
                    given = 0.0 if worst is None else worst[0]
                score = given
            if score > best_score:
                best, best_score = a, score
        return best

    def _match_gain(self, own: Sequence[Slot], card: str, skip: int | None) -> float:
        """What matching a known own card of ``card``'s kind (other than slot ``skip``) would gain."""
        if not self.facts.can_match:
            return 0.0
        values = self.facts.values
        same = self.facts.same_kind
        gain = 0.0
        for s in own:
            other = s.card
            if other is not None and s.slot != skip and values[other] > gain and same(other, card):
                gain = float(values[other])
        return gain

    # -- the turn -----------------------------------------------------------------------------------

    def _worst(self, view: SeatView, est: float, among: dict[int, Action] | None = None) -> tuple[float, int] | None:
        """Its card worth the most (known value, or ``est`` when unknown) and its slot, among the slots of
        ``among`` if given; the first such slot on ties."""
        values = self.facts.values
        best: tuple[float, int] | None = None
        for s in view.hands[view.player]:
            if among is not None and s.slot not in among:
                continue
            w = est if s.card is None else values[s.card]
            if best is None or w > best[0]:
                best = (w, s.slot)
        return best

    def _stock_gain(self, view: SeatView, worst: float) -> float:
        """The expected gain of a card from the stock put in place of a card worth ``worst`` (or thrown when
        it is no lower): the mean of ``max(0, worst - value)`` over the unseen cards."""
        facts = self.facts
        values = facts.values
        counts = dict(facts.value_counts)
        seen = [*view.discard, *(s.card for hand in view.hands for s in hand if s.card is not None)]
        if view.held is not None:
            seen.append(view.held)
        for card in seen:
            v = values[card]
            counts[v] = counts.get(v, 0) - 1
        n = sum(k for k in counts.values() if k > 0)
        if n == 0:
            return 0.0
        return sum((worst - v) * k for v, k in counts.items() if k > 0 and v < worst) / n

    def _peek(self, view: SeatView, mine: list[Action]) -> Action | None:
        return min((a for a in mine if isinstance(a, PeekAction)), key=lambda a: a.slots, default=None)

    def _give_card(self, view: SeatView, mine: list[Action]) -> Action | None:
        if not any(isinstance(a, Give) for a in mine):
            return None
        return self._give(view, mine, self.estimate(view))

    def _draw(self, view: SeatView, mine: list[Action]) -> Action | None:
        call = stock = discard = passing = None
        for a in mine:
            if isinstance(a, Draw):
                if a.source == "stock":
                    stock = a
                else:
                    discard = a
            elif isinstance(a, Call):
                call = a
            elif isinstance(a, Pass):
                passing = a
        est = self.estimate(view)
        nothing_else = stock is None and discard is None and passing is None
        if call is not None and (nothing_else or self.should_call(view, est)):
            return call
        if stock is None and discard is None:
            return passing
        worst = self._worst(view, est)
        if worst is None:  # an empty layout: any card will do
            return stock or discard
        from_stock = None if stock is None else self._stock_gain(view, worst[0])
        top = view.discard_top
        from_discard = None if discard is None or top is None else worst[0] - self.facts.values[top]
        if passing is not None and max(g for g in (from_stock, from_discard, 0.0) if g is not None) <= 0:
            return passing  # a second draw would gain nothing
        if from_discard is not None and (from_stock is None or from_discard > from_stock):
            return discard
        return stock or discard

    def _hold(self, view: SeatView, mine: list[Action]) -> Action | None:
        held = view.held
        replaces: dict[int, Action] = {}
        discard = None
        for a in mine:
            if isinstance(a, Replace):
                replaces[a.slot] = a
            elif isinstance(a, Discard):
                discard = a
        if not replaces or held is None:
            return discard
        est = self.estimate(view)
        values = self.facts.values
        h = values[held]
        own = view.hands[view.player]
        best: tuple[float, int] | None = None
        for s in own:
            slot, card = s.slot, s.card
            if slot not in replaces:
                continue
            # The card replaced goes to the discard: a known card of its kind may follow it.
            gain = est - h if card is None else values[card] - h + self._match_gain(own, card, slot)
            if best is None or gain > best[0]:
                best = (gain, slot)
        if best is None:
            return discard
        if discard is None or (best[0] > 0 and best[0] >= self._match_gain(own, held, None)):
            return replaces[best[1]]
        return discard  # no better than what it holds, or it throws it to match a card of its kind

    def _call(self, view: SeatView, mine: list[Action]) -> Action | None:
        call = next((a for a in mine if isinstance(a, Call)), None)
        passing = next((a for a in mine if isinstance(a, Pass)), None)
        if call is not None and (passing is None or self.should_call(view, self.estimate(view))):
            return call
        return passing

    def _pass(self, view: SeatView, mine: list[Action]) -> Action | None:
        return next((a for a in mine if isinstance(a, Pass)), None)

    # -- powers ---------------------------------------------------------------------------------------

    def _power(self, view: SeatView, mine: list[Action]) -> Action | None:
        use = _POWERS.get(view.power or "")
        if use is None:
            return None  # a power it does not know
        powers = [a for a in mine if isinstance(a, Power)]
        passing = next((a for a in mine if isinstance(a, Pass)), None)
        if not powers:
            return passing
        return use(self, view, powers, passing)

    def _card(self, view: SeatView, owner: int | None, slot: int | None) -> str | None:
        if owner is None or slot is None:
            return None
        return _card_at(view, owner, slot)

    def _lowest_opponent(self, view: SeatView, candidates: list[Power]) -> Power:
        """The first of ``candidates`` aimed at the opponent whose layout looks lowest."""
        est = self.estimate(view)
        totals: dict[int, float] = {}
        for a in candidates:
            q = a.target if a.target is not None else -1
            if q not in totals:
                totals[q] = self.expected_total(view, q, est) if q >= 0 else float("inf")
        return min(candidates, key=lambda a: totals[a.target if a.target is not None else -1])

    def _peek_own(self, view: SeatView, powers: list[Power], passing: Action | None) -> Action | None:
        own = {s.slot: s.card for s in view.hands[view.player]}
        for a in powers:
            if a.slot is not None and a.target is None and a.slot in own and own[a.slot] is None:
                return a
        return passing or powers[0]

    def _peek_opponent(self, view: SeatView, powers: list[Power], passing: Action | None) -> Action | None:
        unknown = [a for a in powers if a.target is not None and self._card(view, a.target, a.target_slot) is None]
        if unknown:
            return self._lowest_opponent(view, unknown)
        return passing or powers[0]

    def _pair(self, view: SeatView, a: Power) -> tuple[int, int, int] | None:
        """Own slot, and the opponent and slot of the other card, of a power on two cards; ``None`` when
        neither card is its own."""
        me = view.player
        owner = me if a.owner is None else a.owner
        if owner == me and a.slot is not None and a.target is not None and a.target_slot is not None:
            return a.slot, a.target, a.target_slot
        if a.target == me and a.target_slot is not None and a.slot is not None:
            return a.target_slot, owner, a.slot
        return None

    def _swap_blind(self, view: SeatView, powers: list[Power], passing: Action | None) -> Action | None:
        """A swap nobody looks at (``blind_swap``, ``swap_any_blind``, ``swap_then_look``): its card for a
        lower one, known on at least one side."""
        est = self.estimate(view)
        values = self.facts.values

        def gain(mine: str | None, theirs: str | None) -> float | None:
            if mine is None and theirs is None:
                return None
            g = (est if mine is None else values[mine]) - (est if theirs is None else values[theirs])
            return g if g >= (1 if mine is not None and theirs is not None else self.BLIND_GAIN) else None

        best = self._best_pair(view, powers, gain)
        return best if best is not None else passing or powers[0]

    def _best_pair(
        self, view: SeatView, powers: list[Power], score: Callable[[str | None, str | None], float | None]
    ) -> Power | None:
        """The use of a two-card power whose pair (its own card, an opponent's, as the seat sees them)
        scores highest (the first of equals); ``score`` returns ``None`` to leave a pair out."""
        best: tuple[float, Power] | None = None
        for a in powers:
            pair = self._pair(view, a)
            if pair is None:
                continue
            value = score(self._card(view, view.player, pair[0]), self._card(view, pair[1], pair[2]))
            if value is not None and (best is None or value > best[0]):
                best = (value, a)
        return None if best is None else best[1]

    def _look_and_swap(self, view: SeatView, powers: list[Power], passing: Action | None) -> Action | None:
        """Look at an opponent's card (a known low one to take, else an unknown one), to swap it after."""
        est = self.estimate(view)
        values = self.facts.values
        worst = self._worst(view, est)
        known = [(values[c], a) for a in powers if (c := self._card(view, a.target, a.target_slot)) is not None]
        pick: Power | None = None
        if worst is not None and known:
            low, a = min(known, key=lambda k: k[0])
            if worst[0] - low >= 1:
                pick = a
        if pick is None:
            unknown = [a for a in powers if self._card(view, a.target, a.target_slot) is None]
            if not unknown:
                return passing or powers[0]
            pick = self._lowest_opponent(view, unknown)
        self._pending = ("look_and_swap", pick)
        return pick

    def _look_two(self, view: SeatView, powers: list[Power], passing: Action | None) -> Action | None:
        """Look at one of its cards and an opponent's (``look_both_and_swap``, ``look_any_two_and_swap``),
        to swap them after: its worst card and the opponent's lowest, an unknown card counting a point more
        for what it teaches."""
        est = self.estimate(view)
        values = self.facts.values
        best = self._best_pair(
            view,
            powers,
            lambda mine, theirs: (
                (est + 0.5 if mine is None else values[mine]) - (est - 0.5 if theirs is None else values[theirs])
            ),
        )
        if best is None:
            return passing or powers[0]
        self._pending = (view.power or "", best)
        return best

    def _give_stock_card(self, view: SeatView, powers: list[Power], passing: Action | None) -> Action | None:
        return self._lowest_opponent(view, powers)

    def _play_again(self, view: SeatView, powers: list[Power], passing: Action | None) -> Action | None:
        return powers[0]

    def _swap(self, view: SeatView, mine: list[Action]) -> Action | None:
        """The second step of a two-step power it used: swap when the card it looked at is lower."""
        pending, self._pending = self._pending, None
        if pending is None:
            return None
        name, first = pending
        passing = next((a for a in mine if isinstance(a, Pass)), None)
        values = self.facts.values
        if name == "look_and_swap":
            swaps: dict[int, Action] = {a.slot: a for a in mine if isinstance(a, Swap)}
            seen = self._card(view, first.target, first.target_slot)
            worst = self._worst(view, self.estimate(view), swaps)
            if seen is not None and worst is not None and worst[0] - values[seen] >= 1:
                return swaps[worst[1]]
            return passing
        pair = self._pair(view, first)
        if pair is None:
            return passing
        mine_card, theirs = self._card(view, view.player, pair[0]), self._card(view, pair[1], pair[2])
        if mine_card is not None and theirs is not None and values[theirs] < values[mine_card]:
            if name == "look_both_and_swap":
                return next((a for a in mine if isinstance(a, Swap) and a.slot == pair[0]), passing)
            if name == "look_any_two_and_swap":
                return next((a for a in mine if a == first), passing)
        return passing

    def __repr__(self) -> str:
        return "GreedyBot()"


#: After the greedy bot decided not to match in one of these phases, how many of the next out-of-turn
#: questions come before the player to move can have thrown a card (in the built-in rules only a move in
#: ``hold`` throws one; after ``power``, ``swap`` or ``call`` comes a phase that throws none either).
_NO_THROW = {"draw": 1, "power": 2, "swap": 2, "call": 2}
#: The phases where its own move may show it a card (so that a match it let go may become one it knows).
_SHOWS = frozenset(("power", "swap"))

#: What the greedy bot does in each phase it knows.
_PHASES: dict[str, _Decision] = {
    "peek": GreedyBot._peek,
    "give": GreedyBot._give_card,
    "draw": GreedyBot._draw,
    "hold": GreedyBot._hold,
    "power": GreedyBot._power,
    "swap": GreedyBot._swap,
    "call": GreedyBot._call,
    "closing": GreedyBot._pass,
    "window": GreedyBot._pass,
}

#: How the greedy bot uses each power it knows (the built-in ones).
_POWERS: dict[str, _PowerUse] = {
    "peek_own": GreedyBot._peek_own,
    "peek_opponent": GreedyBot._peek_opponent,
    "blind_swap": GreedyBot._swap_blind,
    "swap_any_blind": GreedyBot._swap_blind,
    "swap_then_look": GreedyBot._swap_blind,
    "look_and_swap": GreedyBot._look_and_swap,
    "look_both_and_swap": GreedyBot._look_two,
    "look_any_two_and_swap": GreedyBot._look_two,
    "give_stock_card": GreedyBot._give_stock_card,
    "play_again": GreedyBot._play_again,
}


def _card_at(view: SeatView, player: int, slot: int) -> str | None:
    for s in view.hands[player]:
        if s.slot == slot:
            return s.card
    return None


def _target_card(view: SeatView, a: Power) -> str | None:
    if a.target is None or a.target_slot is None:
        return None
    return _card_at(view, a.target, a.target_slot)


# ----------------------------------------------------------------------------- bots by name

#: The entry-point group through which an installed package adds bots: each entry point is named after
#: its bot and loads a factory ``(seed: int) -> Bot`` (a bot class whose first argument is the seed will do).
BOT_ENTRY_POINT_GROUP = "tamalou.bots"

#: The built-in bots: a name -> a factory ``(seed) -> Bot``.
BUILTIN_BOTS: dict[str, Callable[[int], BotLike]] = {
    "random": RandomBot,
    "cautious": CautiousBot,
    "greedy": GreedyBot,
    "ismcts": ISMCTSBot,
}


def _entry_points() -> dict[str, list[EntryPoint]]:
    """The entry points of group ``tamalou.bots`` of the installed packages, by bot name (lower case), not
    loaded; a name of a built-in bot is left out (the built-in bot keeps it)."""
    from importlib.metadata import entry_points

    found: dict[str, list[EntryPoint]] = {}
    for ep in entry_points(group=BOT_ENTRY_POINT_GROUP):
        name = ep.name.strip().lower()
        if name not in BUILTIN_BOTS and all(ep.value != other.value for other in found.get(name, [])):
            found.setdefault(name, []).append(ep)
    return found


def _installed_bots() -> dict[str, Callable[[int], BotLike]]:
    """The factory of every bot of the installed packages, by name (each entry point loaded)."""
    return {name: bot_factory(name) for name in _entry_points()}


def _package(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None)
    return f"package {name!r}" if name else "an installed package"


def bot_names() -> list[str]:
    """The names ``make_bot`` knows: the built-in bots, then those of installed packages (entry-point
    group ``tamalou.bots``), sorted. Nothing is imported to list them."""
    return [*BUILTIN_BOTS, *sorted(_entry_points())]


def bot_factory(name: str) -> Callable[[int], BotLike]:
    """What makes the bot called ``name`` (case-insensitive; see ``bot_names``): a factory ``(seed) -> bot``.
    A built-in bot's class, or what the entry point of that name (group ``tamalou.bots``) of an installed
    package loads: only that entry point is loaded. Find it once to make many bots (a simulation)."""
    key = name.strip().lower()
    factory = BUILTIN_BOTS.get(key)
    if factory is not None:
        return factory
    found = _entry_points().get(key)
    if not found:
        raise ValueError(
            f"unknown bot {name!r}: the bots are {', '.join(bot_names())} (an installed package adds one "
            f"through the entry-point group {BOT_ENTRY_POINT_GROUP!r})"
        )
    if len(found) > 1:
        raise ValueError(
            f"two installed bots are called {key!r}: "
            + " and ".join(f"{ep.value!r} of {_package(ep)}" for ep in found)
            + "; uninstall one of them"
        )
    ep = found[0]
    where = f"bot {key!r} ({ep.value!r} of {_package(ep)}, entry-point group {BOT_ENTRY_POINT_GROUP!r})"
    try:
        loaded = ep.load()
    except Exception as exc:
        raise PluginError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from exc
    if not callable(loaded):
        raise PluginError(f"{where} is {loaded!r}, not a factory (seed) -> bot")

    def make(seed: int) -> BotLike:
        bot: BotLike = loaded(seed)
        if not callable(getattr(bot, "act", None)) and not callable(bot):
            raise PluginError(f"{where} made {bot!r}, which has no act(view, legal_actions) method")
        return bot

    return make


def make_bot(name: str, seed: int = 0) -> BotLike:
    """A new bot called ``name`` (case-insensitive; see ``bot_names``), seeded with ``seed``:
    ``bot_factory(name)(seed)``.

    Simulations send bots to worker processes by name and seed, so a bot must be rebuilt the same from
    both: the built-in bots are (their random choices come from ``seed`` alone), and a package's bot
    should be too."""
    return bot_factory(name)(seed)
