"""``RolloutPolicy``: the cheap player of ``ISMCTSBot``'s rollouts, the other players of its search and
how a round's result is turned into rewards."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable

from ...actions import Action, Call, Discard, Draw, Give, MatchAction, Pass, Power, Replace, Tick
from ...engine.round import Round
from ...engine.rulebook import Rulebook
from ...engine.state import CALL, DRAW, GIVE, HOLD, NO_CARD, OVER, PEEK, POWER, SWAP
from ...errors import TamalouError
from ...powers import best_place, hinted_move, hinted_use
from ..facts import facts_of

#: How often (in moves) a rollout looks at the clock when its search has a CPU limit: a few microseconds each time,
#: a few hundred microseconds of moves between two looks (``benchmarks/ismcts_time.py``: 10 to 17 us a move).
CHECK_EVERY = 32


#: What a search's sample raises when the rules or a hook refuse what it plays (a template the rules did not accept, a
#: plugin's hook failing on a made-up deal): the sample is dropped and counted in ``ISMCTSBot.failures``.
SAMPLE_FAILURES = (TamalouError, AssertionError, LookupError, TypeError, ValueError)


class OutOfTime(BaseException):
    """A search's CPU limit is reached in the middle of a sample (``RolloutPolicy.play``): the sample is dropped. A
    signal of this package (``ISMCTSBot.search`` catches it), a ``BaseException`` so that no handler of a sample's
    failures takes it for one."""


class RolloutPolicy:
    """A cheap player for rollouts, reading the game itself but deciding, for each player, only on what
    that player knows (``game.knowers``): a card it has not seen is worth the deck's mean.

    Draw from the discard a card at least 3 points under one's worst; keep a drawn card that beats
    one's worst card, else throw it; play a power by its hints (the bots contract, the cards counted as
    above: ``GameWorth``), and one without hints by the shape of its uses: peek at unknown cards,
    blind-swap one's worst card for an opponent's when it is worth 3 points more than expected; take the
    better of a power's second steps (tried on the game with ``push``/``pop``); call at the threshold or
    under when lowest by one's own count; give one's worst card; match a known card of the top's kind (never one worth
    less than nothing); in a phase of a plugin's, the move its mechanics hint at (``Mechanic.hint``), else any.
    """

    def __init__(
        self, rb: Rulebook, rng: random.Random, *, call_at: int | None = None, cpu_deadline: float | None = None
    ) -> None:
        self.rb = rb
        self.rng = rng
        #: A ``time.process_time()`` past which ``play`` raises ``OutOfTime`` (checked every ``CHECK_EVERY`` moves):
        #: the hard limit of a search's decision. ``None``: none.
        self.cpu_deadline = cpu_deadline
        #: The moves played through ``play``: a search's samples, its rollouts and matches included.
        self.moves = 0
        #: The powers that give hints (``CardPower.hint``), by name.
        self.hinted = {name: power for name, power in rb.powers.items() if power.hints}
        #: The mechanics that give hints for their moves (``Mechanic.hint``), in their order (the ruleset's facts).
        self.hinting = facts_of(rb).hinting
        #: The mechanics that say what a card adds where it lies (``Mechanic.place_worth``), in their order.
        self.placing = facts_of(rb).placing
        #: Each card's value by its text (what ``GameWorth.value`` answers a hint).
        self.values = facts_of(rb).values
        values = [rb.value(c) for c in rb.one_deck]  # (one deck's mean is every table's)
        self.mean = sum(values) / max(1, len(values))
        #: The total at or under which a player of the rollouts calls (the bot's ``call_at``, else the threshold).
        self.threshold = rb.threshold if call_at is None else call_at
        m = rb.variant.rules.matching
        self.matching = m.enabled
        # What matching compares: the game's card values or ranks, by card id (""; a plugin decides, asked of
        # the rulebook).
        self.kind = "" if rb.same_kind_hook is not None else "value" if m.by == "value" else "rank"

    # -- what a player believes -------------------------------------------------------------------

    def belief(self, g: Round, p: int, c: int) -> float:
        return g.value[c] if g.knowers[c] >> p & 1 else self.mean

    def total(self, g: Round, p: int, q: int) -> float:
        """``q``'s layout as ``p`` counts it."""
        value, knowers, mean = g.value, g.knowers, self.mean
        return sum(value[c] if knowers[c] >> p & 1 else mean for c in g.hands[q] if c != NO_CARD)

    def worst(self, g: Round, p: int) -> tuple[float, int] | None:
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

    def best_place(self, g: Round, p: int, card: int, slots: Iterable[int]) -> tuple[float, int] | None:
        """Where among ``p``'s ``slots`` keeping ``card`` gains the most, by the mechanics' ``place_worth`` read from
        ``p``'s view (``tamalou.powers.best_place``): ``(gain, slot)``, the card there less ``card``."""
        shown = g.text[card] if g.knowers[card] >> p & 1 else None
        return best_place(self.placing, g.seat_view(p), shown, slots, GameWorth(self, g, p))

    def same(self, g: Round, a: int, b: int) -> bool:
        kind = self.kind
        if kind == "rank":
            return g.rank[a] == g.rank[b]
        if kind == "value":
            return g.value[a] == g.value[b]
        return self.rb.same_kind(g.cards[a], g.cards[b])

    def worth(self, g: Round, p: int) -> float:
        """How good the table looks to ``p``: the opponents' totals less its own, as ``p`` counts them,
        with a little for each card it knows."""
        others = [q for q in range(g.players) if q != p and not g.left >> q & 1]
        theirs = sum(self.total(g, p, q) for q in others) / max(1, len(others))
        known = sum(1 for hand in g.hands for c in hand if c != NO_CARD and g.knowers[c] >> p & 1)
        return theirs - self.total(g, p, p) + 0.3 * known

    # -- matching -----------------------------------------------------------------------------------

    def match(self, g: Round, p: int) -> Action | None:
        """A match ``p`` makes now: its known card of the top's kind worth the most, if listed."""
        if not self.matching or not g.discard:
            return None
        top = g.discard[-1]
        value, knowers = g.value, g.knowers
        # A kind that is a number of the card's is compared here rather than through same(): this scan runs
        # before every rollout move (benchmarks/ismcts_time.py: its microseconds a move).
        kinds = g.rank if self.kind == "rank" else value if self.kind == "value" else None
        slot, best = -1, -1
        for s, c in enumerate(g.hands[p]):
            if c == NO_CARD or not knowers[c] >> p & 1 or value[c] <= best:
                continue
            if (kinds[c] == kinds[top]) if kinds is not None else self.same(g, c, top):
                slot, best = s, value[c]
        if slot < 0:
            return None
        for a in g.legal_actions(p):
            if type(a) is MatchAction and a.slots == (slot,) and (a.owner is None or a.owner == p):
                return a
        return None

    def matches(self, g: Round) -> None:
        """Every player, from the one after the player to move round to them, matches if it will."""
        n = g.players
        cur = g.current_player
        for i in range(1, n + 1):
            if g.phase == OVER:
                return
            q = (cur + i) % n
            a = self.match(g, q)
            if a is not None:
                self.play(g, a)

    # -- a player's own move ------------------------------------------------------------------------

    def play(self, g: Round, action: Action) -> None:
        """Apply ``action`` to ``g`` and count it in ``moves`` (what a search's budget counts); past the
        ``cpu_deadline`` (looked at every ``CHECK_EVERY`` moves), raise ``OutOfTime``. ``g`` is a search's sample,
        thrown away if a move fails: ``Round.apply_unguarded``."""
        g.apply_unguarded(action)
        self.moves += 1
        if self.cpu_deadline is not None and not self.moves % CHECK_EVERY and time.process_time() >= self.cpu_deadline:
            raise OutOfTime(self.moves)

    def choose(self, g: Round, p: int, legal: list[Action]) -> Action:
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
        if self.hinting:  # a phase of a plugin's: its mechanics' hints (the bots contract), from p's view
            hinted = hinted_move(self.hinting, g.seat_view(p), mine, GameWorth(self, g, p))
            if hinted is not None:
                return hinted
        return self.rng.choice(mine)

    def _draw(self, g: Round, p: int, mine: list[Action]) -> Action:
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
            if self.placing:  # where the top would lie, as the mechanics count it
                placed = self.best_place(g, p, g.discard[-1], range(len(g.hands[p])))
                if placed is not None and placed[0] >= 3:
                    return discard
            else:
                worst = self.worst(g, p)
                if worst is not None and worst[0] - g.value[g.discard[-1]] >= 3:
                    return discard
        return stock or discard or passing or mine[0]

    def _hold(self, g: Round, p: int, mine: list[Action]) -> Action:
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
        if self.placing:  # where the cards lie counts (the mechanics' place_worth)
            placed = self.best_place(g, p, held, replaces)
            if placed is None:
                return discard or mine[0]
            return replaces[placed[1]] if discard is None or placed[0] > 0.5 else discard
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

    def _power(self, g: Round, p: int, mine: list[Action]) -> Action:
        powers = [a for a in mine if isinstance(a, Power)]
        passing = next((a for a in mine if type(a) is Pass), None)
        if not powers:
            return passing or mine[0]
        if self.hinted:  # a power that gives hints (the bots contract): the seat's view says which is on offer
            view = g.seat_view(p)
            power = self.hinted.get(view.power or "")
            if power is not None:
                hinted = hinted_use(power, view, powers, passing, GameWorth(self, g, p))
                if hinted is not None:
                    return hinted
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

    def _call(self, g: Round, p: int, mine: list[Action]) -> Action:
        call = next((a for a in mine if type(a) is Call), None)
        if call is not None and self._should_call(g, p):
            return call
        return next((a for a in mine if type(a) is Pass), None) or mine[0]

    def _should_call(self, g: Round, p: int) -> bool:
        own = self.total(g, p, p)
        if own > self.threshold:
            return False
        others = [self.total(g, p, q) for q in range(g.players) if q != p and not g.left >> q & 1]
        return all(own < t for t in others)

    def _best_by_lookahead(self, g: Round, p: int, mine: list[Action]) -> Action:
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

    def actor(self, g: Round) -> int:
        """Whom the round waits for (the first of them)."""
        to_act = g.to_act
        return to_act[0] if to_act else g.current_player

    def play_out(self, g: Round, limit: int) -> None:
        """Play ``g`` on with this policy for at most ``limit`` moves, matches included."""
        for _ in range(limit):
            self.matches(g)
            if g.phase == OVER:
                return
            p = self.actor(g)
            self.play(g, self.choose(g, p, g.legal_actions(p)))
            if g.phase == OVER:
                return

    def rewards(self, g: Round, margin: float = 0.0) -> list[float]:
        """Each player's share of the win: 1 for a sole winner, 1/k for k tied winners. A round the rollout
        did not finish is judged as if it ended there: the ruleset's own ranking and scoring (its hooks,
        ``Round.standing``) on the table as it lies, not the card totals, which a ruleset scoring by
        position or by a plugin's hook does not rank by. With ``margin`` > 0, that much of the reward is
        instead how far the player's points are under the others' mean (0.5 when equal, towards 1 ten
        points under), a less noisy signal of a good position: the round's scores, or, once somebody has
        called, the card totals (a caller's bonus or penalty is the score of a match of rounds, not a
        position's: measured, shaping by it lost French games to the greedy bot)."""
        totals, winners, _, _, scores = g.judged() if g.phase == OVER else g.standing()
        n = g.players
        out = [0.0] * n
        for w in winners:
            out[w] = 1.0 / len(winners)
        if margin > 0:
            points = [float(s) for s in (scores if g.caller is None else totals)]
            everyone = sum(points)
            for p in range(n):
                others = (everyone - points[p]) / max(1, n - 1)
                shaped = 0.5 + 0.5 * math.tanh((others - points[p]) / 10.0)
                out[p] = (1.0 - margin) * out[p] + margin * shaped
        return out


class GameWorth:
    """The cards as the rollouts count them for player ``p`` (a ``tamalou.powers.CardWorth``, handed to a
    power's hints): a card ``p`` knows at its value, one it does not at the deck's mean."""

    __slots__ = ("_g", "_p", "_policy")

    def __init__(self, policy: RolloutPolicy, g: Round, p: int) -> None:
        self._policy = policy
        self._g = g
        self._p = p

    def value(self, card: str) -> float:
        return float(self._policy.values[card])

    def unseen(self) -> float:
        return self._policy.mean

    def at(self, player: int, slot: int) -> float:
        c = self._g.hands[player][slot]
        return self._policy.mean if c == NO_CARD else self._policy.belief(self._g, self._p, c)

    def layout(self, player: int) -> float:
        return self._policy.total(self._g, self._p, player)
