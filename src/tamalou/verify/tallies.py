"""The end-of-round hooks on made-up ends of rounds: ``synthetic_tallies`` and ``check_end_hooks``.

A ranking, tie-break or scoring rule sees the end of a round as a ``tamalou.Tally``. Random games reach
the ordinary ends: somebody called, totals all different. A rule that breaks only on a rare end — two
players tied at 0 points, one of them with no card left — hides from them: a tie-break reading
``tally.hands[p][0]`` raises ``IndexError`` on an emptied layout, and none of 500 random games has one
in a tie. Here the ends are made, not played:

- **hands**: an emptied layout, one card (the lowest, the highest, a card of each value), the deal's
  size and the most cards a layout may hold (of the lowest cards, of the highest), out of the deck of the
  table (``rules.deck.copies`` may give more players more decks), as text in slot order, the totals their
  sum (``tamalou.card_value``), as the engine makes them;
- **tallies**: for every player count the ruleset allows, everyone holding the same hand (a tie of all
  at every total, 0 and an emptied layout included); each hand at each seat, the others holding the deal
  of the lowest cards; each pair of different hands with the same total (a card, and two cards that add
  up to it; an emptied layout and a card worth 0) at the first two seats and at the last and the first,
  the others emptied; in a timed ruleset where players may leave, the ties of all with each seat gone
  (``left``); each with nobody calling and with each seat calling.

``check_end_hooks(variant)`` hands each tally to the rulebook's ``judge`` (the engine's own path at the
end of a round: the ranking with its tie-breaks, the winners, the round scores, each plugin's answer
checked), and a hook that raises or answers wrongly is an ``InvariantViolation`` of ``end_hooks`` naming
the tally. It runs once per ruleset, not per game: a few thousand tallies, a fraction of a second.

>>> tallies = list(synthetic_tallies("french", players=[2]))
>>> len(tallies) > 50, all(len(t.totals) == 2 for t in tallies)
(True, True)
>>> check_end_hooks("french") > 0   # every synthetic end of a French round is judged
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from ..engine.rulebook import rulebook
from ..errors import InvariantViolation, what_raised
from ..hookspecs import Tally
from ..resolver import resolve
from ..schema import Variant

#: A hand: the cards' texts in slot order, and their total.
_Hand = tuple[tuple[str, ...], int]


def _hands(variant: Variant, most: int | None, players: int) -> tuple[dict[str, _Hand], list[tuple[_Hand, _Hand]]]:
    """The hands of the tallies of ``players``, out of the deck of that table, by a name saying what each is,
    and the pairs of different hands with the same total."""
    _, texts, _, values, _ = rulebook(variant).deck_tables(players)
    order = sorted(range(len(texts)), key=lambda c: (values[c], texts[c]))  # the deck, lowest first

    def hand(cards: Sequence[int]) -> _Hand:
        return tuple(texts[c] for c in cards), sum(values[c] for c in cards)

    deal = variant.rules.deal.cards
    if most is None:  # no layout may grow past the cap; without one, twice the deal is plenty
        most = variant.rules.matching.penalty_cap or 2 * deal
    most = min(most, len(order))
    deal = min(deal, len(order))
    hands: dict[str, _Hand] = {
        "emptied": ((), 0),
        "one lowest card": hand(order[:1]),
        "one highest card": hand(order[-1:]),
        "the deal of the lowest cards": hand(order[:deal]),
        "the deal of the highest cards": hand(order[-deal:]),
        "the most cards, the lowest": hand(order[:most]),
        "the most cards, the highest": hand(order[-most:]),
    }
    first_of_value: dict[int, int] = {}
    for c in order:
        first_of_value.setdefault(values[c], c)
    ties: list[tuple[_Hand, _Hand]] = []
    for value, c in first_of_value.items():
        hands.setdefault(f"one card worth {value}", hand([c]))
        two = next(((a, b) for a in order for b in order if a < b and values[a] + values[b] == value), None)
        if two is not None:  # a card, and two cards worth as much
            ties.append((hand([c]), hand(two)))
        if value == 0:  # a card worth nothing, and no card at all
            ties.append((hand([c]), hands["emptied"]))
    return hands, ties


def synthetic_tallies(
    variant: Variant | str | Sequence[str],
    *,
    players: Iterable[int] | None = None,
    callers: bool = True,
    most: int | None = None,
) -> Iterator[Tally]:
    """Made-up ends of rounds of ``variant`` (see the module's documentation), for every player count in
    ``players`` (default: ``rules.players.min`` to ``max``), each with nobody calling and, with
    ``callers``, with each seat calling. ``most``: the most cards of a layout (default: the matching
    penalty's cap, or twice the deal without one). Deterministic, and bounded: for ``h`` hands (about
    7 plus one per card value) and ``t`` ties, ``(h + h·n + 2t)·(n + 1)`` tallies for ``n`` players
    (``h·n·(n + 1)`` more in a timed ruleset where players may leave).

    >>> t = next(iter(synthetic_tallies("french", players=[3], callers=False)))
    >>> t.totals, t.card_counts, t.hands, t.caller
    ((0, 0, 0), (0, 0, 0), ((), (), ()), None)
    """
    v = resolve(variant)
    rb = rulebook(v)
    threshold = rb.threshold
    timing = v.rules.timing
    leaving = timing.turn_seconds > 0 and timing.absent_turns_to_leave > 0  # players may leave the round
    counts = range(v.rules.players.min, v.rules.players.max + 1) if players is None else players
    dealt_cards = v.rules.deal.cards
    made: dict[int, tuple[dict[str, _Hand], list[tuple[_Hand, _Hand]]]] = {}  # by deck (rules.deck.copies)
    for n in counts:
        deck = id(rb.deck_for(n))
        if deck not in made:
            made[deck] = _hands(v, most, n)
        hands, ties = made[deck]
        # (the hands, dealt to the seats in order; the players who left the round)
        deals: list[tuple[list[_Hand], tuple[int, ...]]] = []
        for h in hands.values():  # a tie of all, at every total (and, in a timed ruleset, each seat gone)
            deals += [([h] * n, left) for left in [(), *[(k,) for k in range(n) if leaving]]]
        filler = hands["the deal of the lowest cards"]
        for h in hands.values():  # each hand at each seat
            deals += [([h if p == k else filler for p in range(n)], ()) for k in range(n)]
        emptied = hands["emptied"]
        for a, b in ties:  # two different hands with one total, at the first two seats, then the last and the first
            deals.append(([a, b, *[emptied] * (n - 2)], ()))
            deals.append(([b, *[emptied] * (n - 2), a] if n > 1 else [a], ()))
        for dealt, left in deals:
            for caller in [None, *range(n)] if callers else [None]:
                yield Tally(
                    totals=tuple(total for _, total in dealt),
                    card_counts=tuple(len(cards) for cards, _ in dealt),
                    caller=caller,
                    threshold=threshold,
                    left=left,
                    hands=tuple(cards for cards, _ in dealt),
                    # (a hand of fewer cards than were dealt lies in the first slots, the others emptied)
                    layouts=tuple(cards + (None,) * (dealt_cards - len(cards)) for cards, _ in dealt),
                )


def describe_tally(tally: Tally) -> str:
    """A tally in words, for messages.

    >>> describe_tally(Tally(totals=(3, 0), card_counts=(1, 0), caller=None, threshold=5, hands=(("3S",), ())))
    'totals [3, 0], hands [3S] [], nobody called'
    """
    hands = " ".join(f"[{' '.join(cards)}]" for cards in tally.hands)
    called = "nobody called" if tally.caller is None else f"player {tally.caller} called"
    left = f", left {list(tally.left)}" if tally.left else ""
    return f"totals {list(tally.totals)}, hands {hands}, {called}{left}"


def check_end_hooks(
    variant: Variant | str | Sequence[str], *, players: Iterable[int] | None = None, most: int | None = None
) -> int:
    """Judge every synthetic tally of ``variant`` (``synthetic_tallies``) as the engine judges the end of a
    round (``Rulebook.judge``: ``tamalou_rank`` with the tie-breaks of ``tamalou_tiebreaks``,
    ``tamalou_winners``, ``tamalou_round_scores``; a plugin's answer checked, a wrong one a
    ``PluginError``). Raises ``InvariantViolation`` (invariant ``end_hooks``) naming the first tally on
    which a hook raised or answered wrongly, and the error; returns how many tallies were judged. Once per
    ruleset (``tamalou verify`` runs it once per run, not per game).

    >>> check_end_hooks("cabo") > 100
    True
    """
    v = resolve(variant)
    rb = rulebook(v)
    judged = 0
    for tally in synthetic_tallies(v, players=players, most=most):
        try:
            rb.judge(tally)
        except Exception as exc:
            raise InvariantViolation(
                f"judging the end of a round with {describe_tally(tally)} raised {what_raised(exc)}",
                invariant="end_hooks",
            ) from exc
        judged += 1
    return judged
