"""``GreedyBot``: a memory-based greedy player, each decision taking the most points it can count on now;
and its table of what it does in each phase (``_PHASES``). It plays powers by their hints (the bots
contract, ``tamalou.powers``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..actions import Action, Call, Discard, Draw, Give, MatchAction, Pass, PeekAction, Power, Replace, Tick
from ..powers import hinted_next, hinted_use
from ..schema import Variant
from ..views import SeatView, Slot
from .view_reader import ViewReader

_Decision = Callable[["GreedyBot", SeatView, list[Action]], Action | None]


class GreedyBot(ViewReader):
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
    - **Powers**: by their hints (``CardPower.hint``, and ``next_hint`` for a second step: the bots
      contract), counting the cards as above (``card_worth``): the best use when its hint is above 0, else
      it passes. It remembers the power and the use it chose, for the second step. The built-in powers'
      hints (``tamalou.plugins.powers``) learn first: a look at its own unknown cards, then at the unknown
      cards of the opponent who looks lowest; a swap of a known high card of its own for an opponent's known
      lower card (with one unknown card, an expected gain of ``BLIND_GAIN`` points); a look and swap's look
      where it may find a low card, and the swap when the card seen is lower than its worst; a card given
      to the opponent who looks lowest; playing again.
    - **Matching**: only cards it knows are of the discard top's kind, never blind, the highest first,
      never a card worth less than nothing; an opponent's known card (opponent matching) when the card
      it gives for it is worth more.
    - **Calling**: when its known cards plus the mean of the unseen cards for each unknown one come to
      at most its calling level (``call_at``; default: the ruleset's call threshold).

    Whatever it does not know (a power without hints or a phase a plugin adds, or a move that is all a
    phase offers) it plays by the hints of the ruleset's mechanics (``Mechanic.hint``: the best hinted move,
    ``tamalou.powers.hinted_move``), and where none has an opinion at random among the listed actions, with its
    seeded generator: it plays every ruleset,
    never an action that is not listed, and a game between seeded bots is reproducible. Moves it does
    not know are left aside when a move it knows is listed with them.
    """

    def __init__(self, seed: int = 0, variant: Variant | str | None = None, *, call_at: int | None = None) -> None:
        #: The power it used (its name, as offered) and the use it chose, for the power's second step.
        self._pending: tuple[str, Power] | None = None
        #: How many out-of-turn chances to let go without looking (see ``may_match``).
        self._skips = 0
        super().__init__(seed, variant, call_at=call_at)

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
        if action is None:  # something it does not know: the mechanics' hints, else any listed action
            action = self.hinted(view, mine) or self.rng.choice(mine)
        return action

    def explain(self, view: SeatView, legal_actions: list[Action]) -> tuple[Action | None, str]:
        """Its move (``act``) and why, in words for the seat whose ``view`` this is (``tamalou play``'s ``?``): the
        points it counts, read from the view alone (a card the seat has not seen is worth the mean of those it
        has not seen)."""
        action = self.act(view, legal_actions)
        est = self.estimate(view)
        values = self.facts.values
        own = {s.slot: s.card for s in view.hands[view.player]}
        unseen = f"about {est:.1f}, the mean of the cards you have not seen"
        top, held = view.discard_top, view.held
        if action is None:
            return None, f"it matches only a card it knows is of the {top}'s kind, and you know none"
        if isinstance(action, MatchAction):
            owner = view.player if action.owner is None else action.owner
            known = [s.card for s in view.hands[owner] if s.slot in action.slots and s.card is not None]
            return action, f"you know it is the {' and the '.join(known)}, of the {top}'s kind: fewer points in play"
        if isinstance(action, Draw):
            worst = self._worst(view, est)
            low = f"your worst card (about {worst[0]:.1f})" if worst is not None else "your worst card"
            if action.source == "discard" and top is not None:
                gain = f"the {top} ({values[top]} points) in place of {low} gains more"
                return action, f"{gain} than a card of the stock (worth {unseen})"
            return (
                action,
                f"a card of the stock (worth {unseen}) is expected to gain more than the {top} would in place of {low}",
            )
        if isinstance(action, Replace) and held is not None:
            there = own.get(action.slot)
            worth = f"the {there}, {values[there]} points" if there else f"a card you have not seen, {unseen}"
            return action, f"the {held} ({values[held]} points) is lower than your slot {action.slot} ({worth})"
        if isinstance(action, Discard) and held is not None:
            return action, f"the {held} ({values[held]} points) is no lower than any card of yours it could replace"
        total = self.expected_total(view, view.player, est)
        threshold = self.call_level
        counted = f"your cards come to about {total:.1f} points (unseen ones at {est:.1f})"
        if isinstance(action, Call):
            return action, f"{counted}, at most its calling level of {threshold}"
        if isinstance(action, Pass) and view.phase == "call":
            return action, f"{counted}, over its calling level of {threshold}"
        if isinstance(action, Power):
            return action, "by the power's hints (what a use would show or gain), this use is worth the most"
        if isinstance(action, Pass) and view.phase in ("power", "swap"):
            return action, "by the power's hints, no use is worth more than passing"
        return action, "by the hints of the ruleset's mechanics, or at random among the listed moves"

    def should_call(self, view: SeatView, est: float) -> bool:
        """Its known cards plus ``est`` for each unknown card come to at most the call threshold."""
        return self.expected_total(view, view.player, est) <= self.call_level

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
        counts = dict(facts.deck(view.players).value_counts)
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
        if from_discard is not None and self.facts.placing:  # where the top would lie, as the mechanics count it
            placed = self.best_place(view, top, (s.slot for s in view.hands[view.player]))
            from_discard = None if placed is None else placed[0]
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
        worth = self.card_worth(view) if self.facts.placing else None
        for s in own:
            slot, card = s.slot, s.card
            if slot not in replaces:
                continue
            # The card replaced goes to the discard: a known card of its kind may follow it.
            if worth is not None:  # where the cards lie counts (the mechanics' place_worth)
                gain = self.placed(view, slot, card, worth) - self.placed(view, slot, held, worth)
                gain += 0.0 if card is None else self._match_gain(own, card, slot)
            else:
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
        """The power's best use by its hints (``None``, to play at random, when it gives none)."""
        name = view.power or ""
        power = self.facts.rb.powers.get(name)
        if power is None or not power.hints:
            return None  # a power it does not know
        powers = [a for a in mine if isinstance(a, Power)]
        passing = next((a for a in mine if isinstance(a, Pass)), None)
        if not powers:
            return passing
        use = hinted_use(power, view, powers, passing, self.card_worth(view))
        if isinstance(use, Power):
            self._pending = (name, use)
        return use

    def used(self, power: str | None, first: Action | None) -> None:
        """Tell the bot the first step of ``power`` its seat played (``None``: none), when another decided it (the
        ISMCTS bot searches a power's first step and leaves the second to this bot): the second step is then
        played by the power's ``next_hint`` with that use."""
        self._pending = (power, first) if power is not None and isinstance(first, Power) else None

    def _swap(self, view: SeatView, mine: list[Action]) -> Action | None:
        """The second step of a power it used, by the power's hints (``None`` when it gives none)."""
        pending, self._pending = self._pending, None
        if pending is None:
            return None
        name, first = pending
        power = self.facts.rb.powers.get(name)
        if power is None or not power.next_hints:
            return None
        return hinted_next(power, view, mine, self.card_worth(view), first)

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
