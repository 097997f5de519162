"""``CautiousBot``: a simple, sensible player that uses only its view (keeps known low cards, matches only
what it knows, calls when it expects to be lowest)."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Call, Discard, Draw, MatchAction, Pass, PeekAction, Power, Replace, Tick
from ..powers import CardPower
from ..schema import Variant
from ..views import SeatView
from .view_reader import ViewReader, card_at


class CautiousBot(ViewReader):
    """A simple, sensible player that uses only its view.

    - keeps known low cards; puts a low drawn card in place of its highest known card (or of an
      unknown one, valued at the average of the cards it has not seen);
    - takes a low card from the discard; throws a drawn card of a rank it holds, then matches;
    - plays a power by its hints (the bots contract, ``tamalou.powers``; the built-in powers': it peeks at
      its own unknown cards, looks at opponents' cards, swaps its high cards for known low ones, or blindly
      when its card is clearly high), more cautious than they are: an exchange made at once (a power that
      ``exchanges`` with no second step) only for ``SWAP_GAIN`` points, the swap after a look only for
      ``SURE_GAIN``; it chooses at random among uses hinted equally; a power without hints it passes (or
      plays its first use);
    - matches only cards it knows are of the top's rank (so it never misses);
    - calls when its known cards plus the estimate for unknown ones is at most its calling level (``call_at``;
      default: the ruleset's call threshold) and lower than what it expects of every opponent;
    - plays a phase a plugin adds by its mechanics' hints (``Mechanic.hint``: the best hinted move), else its
      first move.

    ``seed`` drives its few random choices (among the uses a power hints equally), so a game between
    seeded bots is reproducible. ``variant`` gives card values and powers; ``play_game``
    passes it through ``setup``, and the French rules are assumed when neither is given.
    """

    #: A replacement must gain at least this many points (known or expected) to be made.
    MIN_GAIN = 1.0
    #: An exchange made at once (a blind swap) is made when its hint (its gain, expected) is at least this.
    SWAP_GAIN = 3.0
    #: The swap after a look is made when its hint (its gain) is at least this.
    SURE_GAIN = 2.0

    def __init__(self, seed: int = 0, variant: Variant | str | None = None, *, call_at: int | None = None) -> None:
        #: The power it used (its name, as offered) and the use it chose, for the power's second step.
        self._pending: tuple[str, Power] | None = None
        super().__init__(seed, variant, call_at=call_at)

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
            return self.hinted(view, mine) or mine[0]
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
        hinted = self.hinted(view, mine)  # a phase of a plugin's: its mechanics' hints, else the first move
        return hinted or next((a for a in mine if not isinstance(a, Call)), mine[0])

    def should_call(self, view: SeatView, est: float) -> bool:
        """Known cards plus the estimate for the unknown ones at most the threshold, and below
        what every opponent is expected to hold."""
        me = view.player
        mine = self.expected_total(view, me, est)
        if mine > self.call_level:
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
            card = card_at(view, owner, a.slots[0])
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
            if self.facts.placing:  # where the top would lie, as the mechanics count it
                placed = self.best_place(view, top, (s.slot for s in view.hands[view.player]))
                if placed is not None and placed[0] >= 4:
                    return discard
            elif worst is not None and worst[0] - v >= 4 and v <= est - 1:
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
        own = view.hands[me]
        # Throw it, then match the one we hold (also where matching is off: how this bot was measured, docs/bots.md;
        # a ruleset whose mechanics weigh where cards lie is played by their place_worth instead).
        matching = self.facts.can_match or not self.facts.placing
        if matching and discard is not None and any(s.card is not None and self._same_kind(s.card, held) for s in own):
            return discard
        if self.facts.placing:  # where the cards lie counts (the mechanics' place_worth)
            placed = self.best_place(view, held, replaces)
            if placed is None:
                return discard or mine[0]
            if discard is None or placed[0] >= self.MIN_GAIN:
                return replaces[placed[1]]
            return discard
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
        powers = [a for a in mine if isinstance(a, Power)]
        passing = next((a for a in mine if isinstance(a, Pass)), None)
        self._pending = None
        if not powers:
            return passing or mine[0]
        name = view.power or ""
        power = self.rb.powers.get(name)
        if power is None or not power.hints:
            return passing or powers[0]  # a power it does not know
        worth = self.card_worth(view)
        scored = [(h, a) for a in powers if (h := power.hint(view, a, worth)) is not None]
        # An exchange made at once, nobody looking first, only when it surely gains.
        need = self.SWAP_GAIN if power.exchanges and not power.next_hints else 0.0
        use = self._best(scored, passing, need)
        if use is None:
            return passing or powers[0]
        if isinstance(use, Power):
            self._pending = (name, use)
        return use

    def _swap(self, view: SeatView, mine: list[Action], est: float) -> Action:
        passing = next((a for a in mine if isinstance(a, Pass)), None)
        pending, self._pending = self._pending, None
        power: CardPower | None = None
        if pending is not None:
            power = self.rb.powers.get(pending[0])
        if pending is None or power is None or not power.next_hints:
            return passing or mine[0]
        worth = self.card_worth(view)
        first = pending[1]
        scored = [
            (h, a) for a in mine if a is not passing and (h := power.next_hint(view, a, worth, first)) is not None
        ]
        return self._best(scored, passing, self.SURE_GAIN) or passing or mine[0]

    def _best(self, scored: Sequence[tuple[float, Action]], passing: Action | None, need: float) -> Action | None:
        """One of the best hinted actions, at random, when its hint is above 0 and at least ``need`` (or when it
        may not pass); else the ``pass``; ``None`` when nothing was hinted."""
        if not scored:
            return None
        best = max(h for h, _ in scored)
        if passing is not None and (best <= 0 or best < need):
            return passing
        return self.rng.choice([a for h, a in scored if h == best])

    def __repr__(self) -> str:
        return "CautiousBot()"
