"""Exhaustive small deals: every sequence of legal actions from a stacked small deal, up to a depth or the end of the
round, with the invariants checked at every node, and the nodes counted by depth (``perft``, as python-chess counts
the positions its move generator reaches, to pin the rules down).

Random games sample; they do not prove. A rule path that random play reaches rarely (a window that opens only with
an empty stock, a power on the last card) can hide from every invariant: walking every sequence of a small deal
reaches it. **The deals** (``small_deals``): for each player count the ruleset allows, ``HAND`` cards a hand dealt
from its deck shuffled by a generator seeded with the count (``random.Random(players)``), a power card on top of a
stock of ``STOCK`` cards (if the ruleset has one) and, on the discard, a card of the rank of player 0's first card
(one to match): few cards and a short stock, so that powers, matches right and wrong, the stock's end, the reshuffle,
penalties without a card and calls come within a few moves. **The nodes**: the dealt round is the node of depth 0;
the children of a node are the rounds after each
action listed to any seat (its turn's moves and the matches out of turn alike), in seat order, then in the order of
the listing; a round that is over has none. **The checks at every node**: ``conservation``, ``knowledge``,
``knowledge_events``, ``event_schema``, ``knowledge_follows_moves`` and ``no_crash`` (every listed action is played:
``listed_accepted``), and on a finished round ``result`` and ``slot_order``; with ``thorough``, every invariant
``tamalou verify`` samples too (``no_leak``, ``event_leak``, ``refusals``, ``snapshot``...), at every node.

The walk plays and takes back (``Round.push`` and ``pop``): the counts are a function of the ruleset and the deal,
the same on every machine, pure or compiled. ``tests/data/perft/`` keeps them for every built-in ruleset: a change to
a rule that alters them fails until the new counts are reviewed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, action_to_dict
from ..engine import Round
from ..engine.rulebook import rulebook
from ..errors import IllegalAction
from ..events import Event
from ..resolver import resolve
from ..schema import Variant
from .checks_cards import check_conservation, check_slot_order
from .checks_events import check_event_schema, check_moves_known, places
from .checks_knowledge import check_knowledge, check_step_knowledge
from .checks_round import check_result
from .registry import INVARIANTS
from .violation import InvariantViolation

#: The cards of the stock of a small deal.
STOCK = 3
#: The cards of each hand of a small deal (the ruleset's, when it deals fewer).
HAND = 2
#: ``tamalou verify --exhaustive``'s depth by default (French: 18 s, 185,000 nodes over its five deals).
DEPTH = 5


@dataclass
class SmallDeal:
    """A stacked small deal: ``players``, the ``deal`` (``new_game(..., deal=...)``) and who plays first."""

    players: int
    deal: dict[str, Any]
    first_player: int = 0

    def new_round(self, variant: Variant) -> Round:
        return Round(variant, self.players, seed=0, deal=self.deal, first_player=self.first_player)


def small_deals(variant: Variant | str | Sequence[str], stock: int = STOCK) -> list[SmallDeal]:
    """One small deal for each player count ``variant`` allows (the module's documentation says how it is made)."""
    v = resolve(variant)
    rb = rulebook(v)
    out = []
    for n in range(v.rules.players.min, v.rules.players.max + 1):
        cards = list(rb.deck_for(n))
        random.Random(n).shuffle(cards)
        deck = [str(c) for c in cards]
        powers = {str(c) for c in cards if rb.power_name(c) != "none"}
        k = min(v.rules.deal.cards, HAND)
        hands = [deck[p * k : (p + 1) * k] for p in range(n)]
        rest = deck[k * n :]
        rank = hands[0][0][:-1]  # the discard's top: a card of the rank of player 0's first card, if one is left
        top = next((c for c in rest if c[:-1] == rank), rest[-1])
        rest.remove(top)
        power = next((c for c in rest if c in powers), None)  # the stock's top: a power card
        if power is not None:
            rest.remove(power)
            rest.insert(0, power)
        discard = [top] if v.rules.deal.discard else []
        if not discard:
            rest.insert(stock, top)
        out.append(SmallDeal(n, {"hands": hands, "stock": rest[:stock], "discard": discard}))
    return out


@dataclass
class Perft:
    """The nodes of one small deal's walk by depth (``nodes[d]``: the rounds ``d`` actions from the deal), the rounds
    that ended within the depth, and the time it took."""

    deal: SmallDeal
    nodes: list[int] = field(default_factory=list)
    ends: int = 0
    seconds: float = 0.0


def perft(
    variant: Variant | str | Sequence[str],
    deal: SmallDeal,
    depth: int = DEPTH,
    *,
    thorough: bool = False,
    check: bool = True,
) -> Perft:
    """Walk every sequence of legal actions of ``deal`` up to ``depth`` actions (or the end of the round), checking
    the invariants at every node (none without ``check``); an ``InvariantViolation`` names the first that breaks,
    its ``actions`` those that lead to it from the deal."""
    v = resolve(variant)
    game = deal.new_round(v)
    events = game.start()
    result = Perft(deal, [0] * (depth + 1))
    sampled = [inv for inv in INVARIANTS.values() if inv.when == "sample"] if thorough else []
    start = time.perf_counter()
    _walk(game, events, [0] * len(game.knowers), places(game), 0, depth, result, check, sampled, [])
    result.seconds = time.perf_counter() - start
    return result


def _walk(
    game: Round,
    events: list[Event],
    before: list[int],
    where: list[Any],
    d: int,
    depth: int,
    result: Perft,
    check: bool,
    sampled: list[Any],
    path: list[Action],
) -> None:
    result.nodes[d] += 1
    if check:
        _check_node(game, events, before, where, sampled, path)
    if game.is_over:
        result.ends += 1
        return
    if d == depth:
        return
    listed = [a for p in range(game.players) for a in game.legal_actions(p)]
    knew, was = list(game.knowers), places(game) if check else []  # (every child starts here: pop puts it back)
    for a in listed:
        path.append(a)
        try:
            after = game.push(a)
        except IllegalAction as exc:
            raise _failure(
                f"the listed action {action_to_dict(a)} was refused: {exc}", "listed_accepted", path
            ) from None
        except Exception as exc:
            raise _failure(f"the listed action {action_to_dict(a)} crashed: {exc!r}", "no_crash", path) from exc
        _walk(game, after, knew, was, d + 1, depth, result, check, sampled, path)
        game.pop()
        path.pop()


def _check_node(
    game: Round, events: list[Event], before: list[int], where: list[Any], sampled: list[Any], path: list[Action]
) -> None:
    checks: list[tuple[str, Callable[[], object]]] = [
        ("conservation", lambda: check_conservation(game)),
        ("knowledge", lambda: check_knowledge(game)),
        ("knowledge_events", lambda: check_step_knowledge(game, before, events)),
        ("event_schema", lambda: check_event_schema(game, events)),
    ]
    if path:
        checks.append(("knowledge_follows_moves", lambda: check_moves_known(game, where, before, events)))
    if game.is_over:
        checks += [("result", lambda: check_result(game)), ("slot_order", lambda: check_slot_order(game))]
    for inv in sampled:
        checks.append((inv.name, lambda inv=inv: inv(game)))  # type: ignore[misc]
    for name, run in checks:
        try:
            run()
        except InvariantViolation as exc:
            raise _failure(str(exc), exc.invariant or name, path) from None
        except Exception as exc:
            raise _failure(f"checking {name} raised {exc!r}", name, path) from exc


def _failure(message: str, invariant: str, path: list[Action]) -> InvariantViolation:
    return InvariantViolation(f"{invariant}: {message}", invariant=invariant, actions=[action_to_dict(a) for a in path])


@dataclass
class ExhaustiveReport:
    """The walks of every small deal of a ruleset (``Perft`` each), and the node counts by depth summed over them."""

    variant: str
    depth: int
    walks: list[Perft]

    @property
    def nodes(self) -> list[int]:
        return [sum(w.nodes[d] for w in self.walks) for d in range(self.depth + 1)]

    @property
    def seconds(self) -> float:
        return sum(w.seconds for w in self.walks)

    def counts(self) -> dict[str, list[int]]:
        """The node counts by depth of each deal, by its player count (what ``tests/data/perft/`` keeps)."""
        return {str(w.deal.players): w.nodes for w in self.walks}


def exhaustive(
    variant: Variant | str | Sequence[str],
    depth: int = DEPTH,
    *,
    players: Sequence[int] | None = None,
    thorough: bool = False,
    check: bool = True,
) -> ExhaustiveReport:
    """``perft`` of each small deal of ``variant`` (of ``players`` only, if given) up to ``depth``."""
    v = resolve(variant)
    deals = [d for d in small_deals(v) if players is None or d.players in players]
    walks = [perft(v, d, depth, thorough=thorough, check=check) for d in deals]
    return ExhaustiveReport(v.name, depth, walks)
