"""Bots: players that see only their own view, and ``play_game`` to seat them at a table.

A bot is an object with ``act(view, legal_actions) -> action`` (or a plain callable with the same
signature). ``view`` is the ``SeatView`` of its seat and ``legal_actions`` the list that
``Game.legal_actions`` gives that seat: a bot never gets the game itself, so it cannot read a hidden
card. Out of its turn a bot is only asked about matches, and returns ``None`` to let the chance go;
when it has to act (its turn, an opening peek, a card to give) it must return one of the listed
actions.

A bot may also define ``setup(variant, player)``, ``needs_view = False`` and ``may_match()``: see
``tamalou.play``, where ``Bot`` and ``play_game`` live (they are re-exported here).

```python
import tamalou
from tamalou.bots import CautiousBot, RandomBot, play_game

g = tamalou.new_game("french", players=3, seed=7)
result = play_game(g, [CautiousBot(1), RandomBot(2), RandomBot(3)])
print(result.winners)
```
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable

from .actions import Action, Call, Discard, Draw, Give, MatchAction, Pass, PeekAction, Power, Replace, Swap, Tick
from .cards import parse_card
from .play import Bot, BotLike, as_bot, play_game
from .rules import Rulebook, rulebook
from .schema import Variant
from .views import SeatView

__all__ = [
    "BOT_ENTRY_POINT_GROUP",
    "BUILTIN_BOTS",
    "Bot",
    "BotLike",
    "CautiousBot",
    "RandomBot",
    "as_bot",
    "bot_names",
    "make_bot",
    "play_game",
]


# ----------------------------------------------------------------------------- the random bot


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
            tries = [a for a in legal_actions if isinstance(a, MatchAction)]
            if tries and len(tries) == len(legal_actions):
                return rng.choice(tries)
        calls: list[Action] = []
        matches: list[Action] = []
        others: list[Action] = []
        for a in legal_actions:
            if isinstance(a, Call):
                calls.append(a)
            elif isinstance(a, MatchAction):
                matches.append(a)
            elif not isinstance(a, Tick):
                others.append(a)
        if not others and not calls:
            if matches and rng.random() < self.match_probability:
                return rng.choice(matches)
            return None
        if calls and (not others or rng.random() < self.call_probability):
            return calls[0]
        if matches and rng.random() < self.match_probability:
            return rng.choice(matches)
        return rng.choice(others)

    def __repr__(self) -> str:
        return f"RandomBot(call_probability={self.call_probability}, match_probability={self.match_probability})"


# ----------------------------------------------------------------------------- the cautious bot


class CautiousBot:
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
        self.rng = random.Random(seed)
        self.player: int | None = None
        self._rb: Rulebook | None = None
        self._values: dict[str, int] = {}
        self._deck: Counter[str] = Counter()
        self._look: tuple[int, int] | None = None
        if variant is not None:
            self.setup(variant)

    def setup(self, variant: Variant | str, player: int | None = None) -> None:
        """Learn the ruleset (card values, powers, threshold); ``play_game`` calls it."""
        from .variant import load_variant

        v = variant if isinstance(variant, Variant) else load_variant(variant)
        self._rb = rulebook(v)
        self._values = {str(c): self._rb.value(c) for c in self._rb.deck}
        self._deck = Counter(str(c) for c in self._rb.deck)
        self.player = player

    # -- knowledge from the view ----------------------------------------------------------------

    @property
    def rb(self) -> Rulebook:
        if self._rb is None:
            self.setup("french")
        assert self._rb is not None
        return self._rb

    def value(self, card: str) -> int:
        v = self._values.get(card)
        if v is None:
            v = self._values[card] = self.rb.value(parse_card(card))
        return v

    def estimate(self, view: SeatView) -> float:
        """The expected value of a card this player has not seen: the mean of the unseen cards."""
        unseen = Counter(self._deck)
        unseen.subtract(view.discard)
        for hand in view.hands:
            unseen.subtract(s.card for s in hand if s.card is not None)
        if view.held is not None:
            unseen[view.held] -= 1
        n = sum(k for k in unseen.values() if k > 0)
        if n == 0:
            return sum(self.value(c) * k for c, k in self._deck.items()) / max(1, self._deck.total())
        return sum(self.value(c) * k for c, k in unseen.items() if k > 0) / n

    def _worth(self, card: str | None, est: float) -> float:
        return est if card is None else float(self.value(card))

    def _same_kind(self, a: str, b: str) -> bool:
        if self.rb.variant.rules.matching.by == "value":
            return self.value(a) == self.value(b)
        return parse_card(a).rank == parse_card(b).rank

    def expected_total(self, view: SeatView, player: int, est: float) -> float:
        return sum(self._worth(s.card, est) for s in view.hands[player])

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

    def _give(self, view: SeatView, mine: list[Action], est: float) -> Action:
        gives = [a for a in mine if isinstance(a, Give)]
        if not gives:
            return mine[0]
        return max(gives, key=lambda a: (self._worth(_card_at(view, view.player, a.slot), est), -a.slot))

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

    def __deepcopy__(self, memo: dict[int, object]) -> CautiousBot:
        """A copy that decides as this one would (same random state, same memory); the ruleset
        tables are shared, not copied."""
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other

    def __repr__(self) -> str:
        return "CautiousBot()"


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
}


def _installed_bots() -> dict[str, Callable[[int], BotLike]]:
    from importlib.metadata import entry_points

    found: dict[str, Callable[[int], BotLike]] = {}
    for ep in entry_points(group=BOT_ENTRY_POINT_GROUP):
        if ep.name.lower() not in BUILTIN_BOTS:
            found[ep.name.lower()] = ep.load()
    return found


def bot_names() -> list[str]:
    """The names ``make_bot`` knows: the built-in bots, then those of installed packages, sorted."""
    return [*BUILTIN_BOTS, *sorted(_installed_bots())]


def make_bot(name: str, seed: int = 0) -> BotLike:
    """A new bot called ``name`` (case-insensitive; see ``bot_names``), seeded with ``seed``. Simulations
    send bots to worker processes by name and seed, so a bot must be rebuilt the same from both."""
    key = name.strip().lower()
    factory = BUILTIN_BOTS.get(key)
    if factory is None:
        factory = _installed_bots().get(key)
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(bot_names())})")
    bot: BotLike = factory(seed)
    return bot
