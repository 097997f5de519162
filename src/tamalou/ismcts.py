"""``ISMCTSBot``: information-set Monte Carlo tree search, from a seat's view alone.

A bot never gets the game (``play_game`` hands it its ``SeatView`` and its legal actions), so the search
starts by rebuilding a full game the view is consistent with — a **determinization** — and samples many:

1. **A template from the view** (``Determinizer``). The cards the view shows — the whole discard pile,
   every card this seat knows in any layout, the card it holds — take their ids in the variant's deck;
   the other ids (the deck less those) fill, face down, every place the view shows without a card: the
   unknown slots of each layout, the stock (its size is public) and the card another player holds. The
   public facts come from the view (phase, player to move, turn, caller, players who left, the power on
   offer, the seats a window waits for, the game's time); the rest of the turn's state is what the view
   and the seat's legal actions imply (a card held from the discard when throwing it is not listed, a
   matching window open on the discard's top, a caller's layout locked as the rules say). Each
   mechanic's state starts as a new game's and is set from those facts. Knowledge: this seat knows what
   its view shows, everyone knows the discard, an opponent is taken to know the cards of their layout
   in the opening-peek slots and the card they hold. The template then goes through
   ``Game.to_json``/``Game.from_json``, which check it as a snapshot from storage is checked.
2. **A sample per iteration**: a copy of the template whose unknown places get the unknown ids in a
   fresh random order (uniform over the deals the view allows; knowledge stays with the places).
3. **The search** (single-observer ISMCTS, after Cowling, Powley & Whitehouse 2012). The tree holds
   the searching seat's decisions: its nodes are the seat's information sets (what it knows when it
   next has to decide: ``_info_key``), its edges the seat's moves. Each iteration descends it in a new
   sample, choosing among the moves legal *in that sample* by UCB1 with availability counts; between
   two of the seat's decisions the other players, and every player's matches, play the rollout policy
   (``RolloutPolicy``: greedy rules on what each player knows) — an opponent model rather than
   opponent nodes, so that the budget goes to the seat's own choices. A node below the root plays the
   policy's move until it has been reached ``expand_after`` times, then its moves are searched too;
   the first new node ends the descent and the policy plays the round out. The result is credited to
   every edge of the path: the seat's share of the win (1 alone, 1/k among k tied winners), mixed
   (``margin``) with how far its total is under the others' mean, a less noisy signal. Out-of-turn
   matches are not tree moves: a player matches when they know a card of their own of the top's kind,
   as the built-in bots do.

The move played is the root's most visited action. Decisions the template cannot stand for — a phase
where the turn's hidden progress is not in the view (a power's second step, a card owed to an opponent,
a window after a power), a timed ruleset, or a view whose cards do not fit the deck — and out-of-turn
matches are left to a ``GreedyBot``, as is every decision with a single action. Everything the bot
decides is a function of its view, its legal actions and its seeded generator: exchanging two cards it
does not know changes nothing.

```python
import tamalou
from tamalou.bots import GreedyBot, play_game
from tamalou.ismcts import ISMCTSBot

game = tamalou.new_game("french", players=2, seed=3)
result = play_game(game, [ISMCTSBot(seed=1, iterations=60), GreedyBot(2)])
print(result.winners, result.totals)
```
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .actions import Action, Call, Discard, Draw, Give, MatchAction, Pass, Power, Replace, Tick
from .engine.deal import set_universe
from .engine.game import Game
from .engine.state import CALL, DRAW, GIVE, HOLD, NO_CARD, OVER, PEEK, POWER, SWAP, Phase
from .errors import SnapshotError, TamalouError
from .rng import Rng
from .rules import Rulebook, rulebook
from .schema import Variant
from .views import SeatView

if TYPE_CHECKING:
    from typing import Self

__all__ = ["Determinizer", "ISMCTSBot", "RolloutPolicy"]

_BUILTIN_PHASES = frozenset(p.value for p in Phase)
#: The phases where the bot searches: the turn's whole state is in the view there.
SEARCHED = frozenset((DRAW, HOLD, POWER, CALL))


class Unbuildable(Exception):
    """The view does not fit a game this module can rebuild (its cards, its phase)."""


# ----------------------------------------------------------------------------- determinization


class Determinizer:
    """Full games consistent with one seat's view: ``template`` (built once, checked as a snapshot) and
    ``sample(rng)``, a copy of it with the cards the seat does not know dealt at random into the places
    it cannot see. Raises ``Unbuildable`` when the view's cards do not fit the variant's deck or the
    rebuilt game is not a consistent one."""

    def __init__(self, view: SeatView, legal: Sequence[Action], variant: Variant, rng: random.Random) -> None:
        rb = rulebook(variant)
        me = view.player
        players = view.players
        g = Game(None)
        g.init_runtime(variant, players)
        set_universe(g, rb.deck)
        pool: dict[str, list[int]] = {}
        for card_id, text in enumerate(g.text):
            pool.setdefault(text, []).append(card_id)

        def take(text: str) -> int:
            ids = pool.get(text)
            if not ids:
                raise Unbuildable(f"the view shows {text!r} more often than the deck holds it")
            return ids.pop()

        everyone = (1 << players) - 1
        n = len(g.text)
        knowers = [0] * n
        #: Each unknown place ((owner, slot); (-1, i) the stock's i-th card; (-2, 0) a held card) and who
        #: is taken to know the card there.
        places: list[tuple[int, int]] = []
        place_knowers: list[int] = []
        discard = [take(t) for t in view.discard]
        for c in discard:
            knowers[c] = everyone
        peek = variant.rules.peek
        peeked_slots = set(peek.slots) if peek.mode == "fixed" else set(range(peek.count))
        hands: list[list[int]] = []
        for p, hand in enumerate(view.hands):
            row = [NO_CARD] * (max((s.slot for s in hand), default=-1) + 1)
            for s in hand:
                if s.card is not None:
                    c = row[s.slot] = take(s.card)
                    knowers[c] |= 1 << me
                else:
                    places.append((p, s.slot))
                    place_knowers.append(1 << p if p != me and s.slot in peeked_slots else 0)
            hands.append(row)
        held = NO_CARD
        holder = -1 if view.holding is None else view.holding
        if holder >= 0:
            if view.held is not None:
                held = take(view.held)
                knowers[held] |= 1 << me
            else:
                places.append((-2, 0))
                place_knowers.append(1 << holder)
        for i in range(view.stock_size):
            places.append((-1, i))
            place_knowers.append(0)
        unknown = [c for ids in pool.values() for c in ids]
        if len(unknown) != len(places):
            raise Unbuildable(f"{len(places)} places without a known card for {len(unknown)} unknown cards")
        unknown.sort()
        phase: str = Phase(view.phase) if view.phase in _BUILTIN_PHASES else view.phase
        mine = legal if view.current_player == me else ()
        g.seed = rng.getrandbits(63)
        g.rng = Rng(g.seed)
        g.first_player = view.current_player
        g.first_given = False
        g.hands = hands
        g.stock = [NO_CARD] * view.stock_size
        g.discard = discard
        g.knowers = knowers
        g.phase = phase
        g.current_player = view.current_player
        g.turn = view.turn
        g.caller = view.caller
        g.held = held
        g.holder = holder
        # A card taken from the discard that must replace one: throwing it is not listed.
        from_discard = phase == HOLD and holder == me and rb.must_replace and not any(type(a) is Discard for a in mine)
        g.held_from = ("discard" if from_discard else "stock") if holder >= 0 else ""
        second = phase == DRAW and any(type(a) is Pass for a in mine)  # a second draw may be declined
        g.draws = 0 if phase in (DRAW, PEEK) and not second else 1
        g.stock_only = False
        g.reason = ""
        g.left = sum(1 << p for p in view.left)
        call = variant.rules.call
        g.locked = g.sealed = 0
        if view.caller is not None and call.protect_caller:
            g.locked = 1 << view.caller
            if call.protect_from == "everything":
                g.sealed = 1 << view.caller
        g.now = float(view.now)
        g.actions = []
        g.deal_spec = None
        g._result = None
        # Places first filled in order, so that the template is a whole game; ``sample`` deals them again.
        self._fill(g, places, place_knowers, unknown)
        g.ms = [m.new_state(g) for m in rb.mechanics]
        waiting = sum(1 << p for p in view.to_act)
        for st in g.ms:
            _set_state(st, g, view, mine, waiting)
        if not any(type(a) is MatchAction for a in legal):
            # The seat may not match now: the window is taken as closed (won, tried, or not open).
            for st in g.ms:
                if hasattr(st, "win"):
                    st.win = NO_CARD
        try:
            self.template = Game.from_json(g.to_json(), variant)
        except SnapshotError as exc:
            raise Unbuildable(str(exc)) from None
        self.places = places
        self.place_knowers = place_knowers
        self.unknown = unknown
        self.player = me

    @staticmethod
    def _fill(g: Game, places: list[tuple[int, int]], place_knowers: list[int], ids: list[int]) -> None:
        knowers, hands, stock = g.knowers, g.hands, g.stock
        for (owner, slot), who, c in zip(places, place_knowers, ids, strict=True):
            if owner >= 0:
                hands[owner][slot] = c
            elif owner == -1:
                stock[slot] = c
            else:
                g.held = c
            knowers[c] = who

    def sample(self, rng: random.Random) -> Game:
        """A copy of the template with the unknown cards dealt at random into the unknown places."""
        g = self.template.copy()
        ids = self.unknown[:]
        rng.shuffle(ids)
        self._fill(g, self.places, self.place_knowers, ids)
        return g


def _set_state(st: Any, g: Game, view: SeatView, mine: Sequence[Action], waiting: int) -> None:
    """A new game's state of one built-in mechanic, set to what the view says of the turn."""
    if st is None:
        return
    phase = g.phase
    if hasattr(st, "win"):  # matching: the window is on the discard's top, nobody has won it yet
        st.win = g.discard[-1] if g.discard else NO_CARD
        st.win_by = -1
        st.tried = [0] * g.players
        st.waiting = waiting if phase in ("closing", "window") else 0
        if hasattr(st, "turn_player"):
            st.turn_player = -2 if phase in (POWER, SWAP) else -1
    if hasattr(st, "step"):  # powers: the one on offer, as the view shows it
        st.power = view.power if phase in (POWER, DRAW) else None
        st.step = None
        st.passing = None
        if hasattr(st, "forced"):
            st.forced = phase == POWER and bool(mine) and not any(type(a) is Pass for a in mine)
    if hasattr(st, "peeked"):  # the opening peek: those the round no longer waits for have peeked
        st.peeked = g.all_mask & ~waiting if phase == PEEK else g.all_mask


# ----------------------------------------------------------------------------- the rollout policy


class RolloutPolicy:
    """A cheap player for rollouts, reading the game itself but deciding, for each player, only on what
    that player knows (``game.knowers``): a card it has not seen is worth the deck's mean.

    Draw from the discard a card at least 3 points under one's worst; keep a drawn card that beats
    one's worst card, else throw it; peek at unknown cards, blind-swap one's worst card for an
    opponent's when it is worth 3 points more than expected, take the better of a power's second
    steps (tried on the game with ``push``/``pop``); call at the threshold or under when lowest
    by one's own count; give one's worst card; match a known card of the top's kind (never one worth
    less than nothing).
    """

    def __init__(self, rb: Rulebook, rng: random.Random) -> None:
        self.rb = rb
        self.rng = rng
        tables = rb.deck_tables()
        values = tables[3]
        self.mean = sum(values) / max(1, len(values))
        self.threshold = rb.threshold
        m = rb.variant.rules.matching
        self.matching = m.enabled
        # What matching compares, per card id (``None``: a plugin decides, asked of the rulebook).
        self.kind: list[Any] | None = None
        if rb.same_kind_hook is None:
            self.kind = list(values) if m.by == "value" else list(tables[2])

    # -- what a player believes -------------------------------------------------------------------

    def belief(self, g: Game, p: int, c: int) -> float:
        return g.value[c] if g.knowers[c] >> p & 1 else self.mean

    def total(self, g: Game, p: int, q: int) -> float:
        """``q``'s layout as ``p`` counts it."""
        value, knowers, mean = g.value, g.knowers, self.mean
        return sum(value[c] if knowers[c] >> p & 1 else mean for c in g.hands[q] if c != NO_CARD)

    def worst(self, g: Game, p: int) -> tuple[float, int] | None:
        """``p``'s card worth the most to ``p`` (a known high card before an unknown one) and its slot."""
        best: tuple[float, int] | None = None
        value, knowers, mean = g.value, g.knowers, self.mean
        for s, c in enumerate(g.hands[p]):
            if c == NO_CARD:
                continue
            w = value[c] if knowers[c] >> p & 1 else mean
            if best is None or w > best[0]:
                best = (w, s)
        return best

    def same(self, g: Game, a: int, b: int) -> bool:
        kind = self.kind
        if kind is not None:
            return bool(kind[a] == kind[b])
        return self.rb.same_kind(g.cards[a], g.cards[b])

    def worth(self, g: Game, p: int) -> float:
        """How good the table looks to ``p``: the opponents' totals less its own, as ``p`` counts them,
        with a little for each card it knows."""
        others = [q for q in range(g.players) if q != p and not g.left >> q & 1]
        theirs = sum(self.total(g, p, q) for q in others) / max(1, len(others))
        known = sum(1 for hand in g.hands for c in hand if c != NO_CARD and g.knowers[c] >> p & 1)
        return theirs - self.total(g, p, p) + 0.3 * known

    # -- matching -----------------------------------------------------------------------------------

    def match(self, g: Game, p: int) -> Action | None:
        """A match ``p`` makes now: its known card of the top's kind worth the most, if listed."""
        if not self.matching or not g.discard:
            return None
        top = g.discard[-1]
        value, knowers = g.value, g.knowers
        slot, best = -1, -1
        for s, c in enumerate(g.hands[p]):
            if c != NO_CARD and knowers[c] >> p & 1 and value[c] > best and self.same(g, c, top):
                slot, best = s, value[c]
        if slot < 0:
            return None
        for a in g.legal_actions(p):
            if type(a) is MatchAction and a.slots == (slot,) and (a.owner is None or a.owner == p):
                return a
        return None

    def matches(self, g: Game) -> None:
        """Every player, from the one after the player to move round to them, matches if it will."""
        n = g.players
        cur = g.current_player
        for i in range(1, n + 1):
            if g.phase == OVER:
                return
            q = (cur + i) % n
            a = self.match(g, q)
            if a is not None:
                g.apply(a)

    # -- a player's own move ------------------------------------------------------------------------

    def choose(self, g: Game, p: int, legal: list[Action]) -> Action:
        mine = [a for a in legal if type(a) is not MatchAction and type(a) is not Tick]
        if not mine:
            return legal[0]
        if len(mine) == 1:
            return mine[0]
        phase = g.phase
        if phase == DRAW:
            return self._draw(g, p, mine)
        if phase == HOLD:
            return self._hold(g, p, mine)
        if phase == POWER:
            return self._power(g, p, mine)
        if phase == CALL:
            return self._call(g, p, mine)
        if phase == SWAP:
            return self._best_by_lookahead(g, p, mine)
        if phase == GIVE:
            gives = [a for a in mine if type(a) is Give]
            if gives:
                return max(gives, key=lambda a: self.belief(g, p, g.hands[p][a.slot]))
        if phase == PEEK:
            return mine[0]
        passing = next((a for a in mine if type(a) is Pass), None)
        if passing is not None and phase in ("closing", "window"):
            return passing
        return self.rng.choice(mine)

    def _draw(self, g: Game, p: int, mine: list[Action]) -> Action:
        call = stock = discard = passing = None
        for a in mine:
            t = type(a)
            if t is Draw:
                if a.source == "stock":  # type: ignore[attr-defined]
                    stock = a
                else:
                    discard = a
            elif t is Call:
                call = a
            elif t is Pass:
                passing = a
        if call is not None and ((stock is None and discard is None) or self._should_call(g, p)):
            return call
        if discard is not None and g.discard:
            worst = self.worst(g, p)
            if worst is not None and worst[0] - g.value[g.discard[-1]] >= 3:
                return discard
        return stock or discard or passing or mine[0]

    def _hold(self, g: Game, p: int, mine: list[Action]) -> Action:
        replaces: dict[int, Action] = {}
        discard = None
        for a in mine:
            if isinstance(a, Replace):
                replaces[a.slot] = a
            elif type(a) is Discard:
                discard = a
        held = g.held
        if held == NO_CARD or not replaces:
            return discard or mine[0]
        h = g.value[held]
        worst: tuple[float, int] | None = None
        value, knowers, mean = g.value, g.knowers, self.mean
        for s in replaces:
            c = g.hands[p][s]
            w = value[c] if knowers[c] >> p & 1 else mean
            if worst is None or w > worst[0]:
                worst = (w, s)
        assert worst is not None
        if discard is None:
            return replaces[worst[1]]
        if self.matching and h >= 0:  # throw it, then match a known card of its kind
            for c in g.hands[p]:
                if c != NO_CARD and knowers[c] >> p & 1 and self.same(g, c, held):
                    return discard
        return replaces[worst[1]] if worst[0] - h > 0.5 else discard

    def _power(self, g: Game, p: int, mine: list[Action]) -> Action:
        powers = [a for a in mine if isinstance(a, Power)]
        passing = next((a for a in mine if type(a) is Pass), None)
        if not powers:
            return passing or mine[0]
        first = powers[0]
        knowers = g.knowers
        if first.slot is not None and first.target is None:  # a look at one of one's own cards
            unknown = [a for a in powers if a.slot is not None and not knowers[g.hands[p][a.slot]] >> p & 1]
            return self.rng.choice(unknown) if unknown else passing or first
        if first.slot is None and first.target is not None and first.target_slot is not None:  # at another's card
            unknown = [
                a
                for a in powers
                if a.target is not None
                and a.target_slot is not None
                and not knowers[g.hands[a.target][a.target_slot]] >> p & 1
            ]
            return self.rng.choice(unknown) if unknown else passing or first
        if first.slot is not None and first.target is not None and first.target_slot is not None:  # a swap
            best: tuple[float, Action] | None = None
            for a in powers:
                owner = p if a.owner is None else a.owner
                if owner != p or a.target is None or a.target_slot is None or a.slot is None:
                    continue
                gain = self.belief(g, p, g.hands[p][a.slot]) - self.belief(g, p, g.hands[a.target][a.target_slot])
                if best is None or gain > best[0]:
                    best = (gain, a)
            if best is not None and (best[0] >= 3 or passing is None):
                return best[1]
            return passing or self.rng.choice(powers)
        return self.rng.choice(powers)  # play again, give a card...: use it

    def _call(self, g: Game, p: int, mine: list[Action]) -> Action:
        call = next((a for a in mine if type(a) is Call), None)
        if call is not None and self._should_call(g, p):
            return call
        return next((a for a in mine if type(a) is Pass), None) or mine[0]

    def _should_call(self, g: Game, p: int) -> bool:
        own = self.total(g, p, p)
        if own > self.threshold:
            return False
        others = [self.total(g, p, q) for q in range(g.players) if q != p and not g.left >> q & 1]
        return all(own < t for t in others)

    def _best_by_lookahead(self, g: Game, p: int, mine: list[Action]) -> Action:
        """The move after which the table looks best to ``p`` (each tried with ``push`` and ``pop``)."""
        best: tuple[float, Action] | None = None
        for a in mine:
            g.push(a)
            try:
                w = self.worth(g, p)
            finally:
                g.pop()
            if best is None or w > best[0]:
                best = (w, a)
        assert best is not None
        return best[1]

    # -- playing out ----------------------------------------------------------------------------------

    def actor(self, g: Game) -> int:
        """Whom the round waits for (the first of them)."""
        to_act = g.to_act
        return to_act[0] if to_act else g.current_player

    def play_out(self, g: Game, limit: int) -> None:
        """Play ``g`` on with this policy for at most ``limit`` moves, matches included."""
        for _ in range(limit):
            self.matches(g)
            if g.phase == OVER:
                return
            p = self.actor(g)
            g.apply(self.choose(g, p, g.legal_actions(p)))
            if g.phase == OVER:
                return

    def rewards(self, g: Game, margin: float = 0.0) -> list[float]:
        """Each player's share of the win: 1 for a sole winner, 1/k for k tied winners (a round the
        rollout did not finish goes to the lowest true total); with ``margin`` > 0, that much of the
        reward is instead how far the player's total is under the others' mean (0.5 when equal, towards
        1 ten points under), a less noisy signal of a good position."""
        if g.phase == OVER:
            winners = g.final_result().winners
        else:
            totals = [g.total(p) if not g.left >> p & 1 else math.inf for p in range(g.players)]
            low = min(totals)
            winners = [p for p, t in enumerate(totals) if t == low]
        out = [0.0] * g.players
        for w in winners:
            out[w] = 1.0 / len(winners)
        if margin > 0:
            totals = [float(g.total(p)) for p in range(g.players)]
            n = g.players
            for p in range(n):
                others = (sum(totals) - totals[p]) / max(1, n - 1)
                shaped = 0.5 + 0.5 * math.tanh((others - totals[p]) / 10.0)
                out[p] = (1.0 - margin) * out[p] + margin * shaped
        return out


# ----------------------------------------------------------------------------- the tree


class _Edge:
    """An action of the searching seat from one information set: its statistics (``avail``: how many
    times it was legal when its node was visited) and the information sets it led to."""

    __slots__ = ("after", "avail", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.after: dict[Any, _Node] = {}

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class _Node:
    """An information set of the searching seat (its view when it next has to decide)."""

    __slots__ = ("edges", "visits")

    def __init__(self) -> None:
        self.edges: dict[Action, _Edge] = {}
        self.visits = 0


def _info_key(g: Game, me: int) -> Any:
    """What seat ``me`` knows when it has to decide: the phase, its held card, every card it knows where it
    is, the discard and who called (its information set, as far as this search tells them apart)."""
    text, knowers = g.text, g.knowers
    held = text[g.held] if g.held != NO_CARD and knowers[g.held] >> me & 1 else None
    hands = tuple(
        tuple(NO_CARD if c == NO_CARD else (text[c] if knowers[c] >> me & 1 else "?") for c in hand) for hand in g.hands
    )
    return (str(g.phase), g.current_player, held, hands, len(g.discard), g.discard[-1] if g.discard else -1, g.caller)


class ISMCTSBot:
    """Information-set MCTS from the seat's view (see the module's documentation for the method).

    ``iterations``: samples per searched decision (the budget; the time grows linearly with it: about
    0.15 s a decision at two-player French with the default 400). ``exploration``: UCB1's constant
    (rewards are in [0, 1]). ``expand_after``: how often an information set below the root is reached
    playing the policy's move before its moves are searched too. ``margin``: the part of the reward that
    is the seat's lead in points rather than the win (see ``RolloutPolicy.rewards``). ``rollout_limit``:
    moves a rollout plays at most before the round is judged on the true totals. ``seed`` drives every
    random choice (samples, rollouts, ties): a game between seeded bots is reproducible. After each decision,
    ``last_search`` holds the root's statistics (action -> (visits, mean reward)) when it searched, and
    the counters ``searched``, ``fallbacks`` and ``failures`` (samples whose play raised: a template
    the rules did not accept) say how the decisions went.
    """

    def __init__(
        self,
        seed: int = 0,
        variant: Variant | str | None = None,
        *,
        iterations: int = 400,
        exploration: float = 0.7,
        expand_after: int = 30,
        margin: float = 0.3,
        rollout_limit: int = 400,
    ) -> None:
        from .bots import GreedyBot

        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        self.seed = seed
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.expand_after = expand_after
        self.margin = margin
        self.rng = random.Random(seed)
        self.fallback = GreedyBot(seed + 1)
        self.player: int | None = None
        self.variant: Variant | None = None
        self._rb: Rulebook | None = None
        self.last_search: dict[Action, tuple[int, float]] = {}
        self.searched = 0
        self.fallbacks = 0
        self.failures = 0
        if variant is not None:
            self.setup(variant)

    def setup(self, variant: Variant | str, player: int | None = None) -> None:
        """Learn the ruleset; ``play_game`` calls it."""
        from .variant import load_variant

        v = variant if isinstance(variant, Variant) else load_variant(variant)
        self.variant = v
        self._rb = rulebook(v)
        self.player = player
        self.fallback.setup(v, player)

    def act(self, view: SeatView, legal_actions: list[Action]) -> Action | None:
        if not legal_actions:
            return None
        if self.variant is None or self._rb is None:
            self.setup("french", view.player)
        assert self.variant is not None
        self.last_search = {}
        mine = [a for a in legal_actions if not isinstance(a, MatchAction | Tick)]
        # A match of a card it knows is of the top's kind, or an out-of-turn chance: the greedy rule.
        matches: list[Action] = [a for a in legal_actions if isinstance(a, MatchAction)]
        if matches:
            sure = self.fallback.act(view, matches)
            if sure is not None or not mine:
                return sure
        if (
            len(mine) > 1
            and view.phase in SEARCHED
            and view.current_player == view.player
            and self.variant.rules.timing.turn_seconds == 0
        ):
            try:
                det = Determinizer(view, legal_actions, self.variant, self.rng)
            except Unbuildable:
                det = None
            if det is not None:
                chosen = self.search(det, mine)
                if chosen is not None:
                    self.searched += 1
                    self._remember(view, chosen)
                    return chosen
        self.fallbacks += 1
        action = self.fallback.act(view, legal_actions)
        if action is None and mine:
            action = mine[0]
        return action

    def _remember(self, view: SeatView, chosen: Action) -> None:
        """The fallback plays a power's second step: tell it which first step was taken."""
        if isinstance(chosen, Power) and view.power is not None:
            self.fallback._pending = (view.power, chosen)
        else:
            self.fallback._pending = None

    # -- the search ---------------------------------------------------------------------------------

    def search(self, det: Determinizer, candidates: list[Action]) -> Action | None:
        """The most visited of ``candidates`` after ``iterations`` samples of ``det`` (``None`` if no
        sample could be played).

        Each iteration: a sample; from the root, the seat's own decisions are chosen in the tree (UCB1 with
        availability counts among the actions legal in the sample; below the root, the policy's move until
        the node was reached ``expand_after`` times) and the other players play the rollout policy
        (matches included) until the seat decides again; the seat's information set then (``_info_key``)
        names the next node. The first new node ends the descent (its first action: the policy's, then the
        others at random) and the rollout policy plays the round out."""
        assert self._rb is not None
        me = det.player
        policy = RolloutPolicy(self._rb, self.rng)
        root = _Node()
        allowed = set(candidates)
        c = self.exploration
        rng = self.rng
        played = 0
        for _ in range(self.iterations):
            g = det.sample(rng)
            path: list[_Edge] = []
            node = root
            try:
                legal = [a for a in g.legal_actions(me) if a in allowed]
                while legal:
                    edges = node.edges
                    node.visits += 1
                    if node is not root and node.visits <= self.expand_after:
                        # A new information set plays the policy's move until it has been reached often.
                        action = policy.choose(g, me, legal)
                        edge = edges.get(action) or edges.setdefault(action, _Edge())
                        for a in legal:
                            if a in edges:
                                edges[a].avail += 1
                        expanded = node.visits == 1
                    elif fresh := [a for a in legal if a not in edges]:
                        pick = policy.choose(g, me, legal)
                        action = pick if pick in fresh else rng.choice(fresh)
                        edge = edges[action] = _Edge()
                        edge.avail = 1
                        for a in legal:
                            if a is not action and a in edges:
                                edges[a].avail += 1
                        expanded = True
                    else:
                        best: tuple[float, Action] | None = None
                        for a in legal:
                            e = edges[a]
                            e.avail += 1
                            if e.visits == 0:  # its only sample failed: as good as new
                                score = math.inf
                            else:
                                score = e.total / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
                            if best is None or score > best[0]:
                                best = (score, a)
                        assert best is not None
                        action = best[1]
                        edge = edges[action]
                        expanded = False
                    g.apply(action)
                    path.append(edge)
                    if expanded or not self._until_mine(g, me, policy):
                        break
                    key = _info_key(g, me)
                    nxt = edge.after.get(key)
                    if nxt is None:
                        nxt = edge.after[key] = _Node()
                    node = nxt
                    legal = [a for a in g.legal_actions(me) if type(a) is not MatchAction and type(a) is not Tick]
                if not path:
                    continue
                policy.play_out(g, self.rollout_limit)
                rewards = policy.rewards(g, self.margin)
            except (TamalouError, AssertionError, LookupError, TypeError, ValueError):
                self.failures += 1
                continue
            played += 1
            r = rewards[me]
            for e in path:
                e.visits += 1
                e.total += r
        if not played or not root.edges:
            return None
        self.last_search = {a: (e.visits, e.mean()) for a, e in root.edges.items()}
        return max(root.edges.items(), key=lambda item: (item[1].visits, item[1].total))[0]

    def _until_mine(self, g: Game, me: int, policy: RolloutPolicy) -> bool:
        """Play the others (and every player's matches) by the policy until seat ``me`` has a move of its own
        to make; ``False`` if the round ended first."""
        for _ in range(self.rollout_limit):
            policy.matches(g)
            if g.phase == OVER:
                return False
            p = policy.actor(g)
            if p == me:
                return True
            g.apply(policy.choose(g, p, g.legal_actions(p)))
            if g.phase == OVER:
                return False
        return False

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A copy that decides as this one would (same generator states); the ruleset is shared."""
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.fallback = copy.deepcopy(self.fallback, memo)
        other.last_search = dict(self.last_search)
        return other

    def __repr__(self) -> str:
        return f"ISMCTSBot(iterations={self.iterations})"
