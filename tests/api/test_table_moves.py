"""The moves of the table a mechanic sees (``tamalou.round_table.RoundTable``) do what ``MOVE_EFFECTS`` says, the table
docs/write-a-mechanic.md draws: each move is run on a stacked French round of three seats, and the events it emits
and what each seat knows afterwards are compared with the declared effect.

The deal: seat 0 holds AS 2S 3S 4S, seat 1 5H 6H 7H 8H, seat 2 9D 10D JD QD (French shows each seat its slots 0 and
1); the stock, top first, 5C 6C 7C; the discard 3D.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tamalou
from tamalou import round_of
from tamalou.engine import NO_CARD
from tamalou.round_table import MOVE_EFFECTS, RoundTable

DEAL = {
    "hands": [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "8H"], ["9D", "10D", "JD", "QD"]],
    "stock": ["5C", "6C", "7C"],
    "discard": ["3D"],
}
EVERY = 0b111


def table() -> Any:
    return round_of(tamalou.new_game("french", 3, deal=DEAL, first_player=0))


def card(g: Any, text: str) -> int:
    return g.text.index(text)


#: Each move of the moves section, run on a fresh table: (how it is called, the cards whose knowers change and to
#: what, as bit masks over the seats).
RUNS: dict[str, tuple[Callable[[Any, list[tamalou.Event]], object], dict[str, int]]] = {
    "look": (lambda g, ev: g.look(0, 1, 2, ev), {"7H": 0b001}),
    "show": (lambda g, ev: g.show(card(g, "8H")), {"8H": EVERY}),
    "turn_up": (lambda g, ev: g.turn_up(1, 3, ev), {"8H": EVERY}),
    "show_layout": (lambda g, ev: g.show_layout(2), {"JD": EVERY, "QD": EVERY, "9D": EVERY, "10D": EVERY}),
    "swap": (lambda g, ev: g.swap(0, (0, 3), (1, 3), ev), {}),
    "move": (lambda g, ev: (g.throw_from(0, 3), g.move((1, 3), (0, 3))), {"4S": EVERY}),
    "throw_from": (lambda g, ev: g.throw_from(2, 3), {"QD": EVERY}),
    "place_held": (lambda g, ev: _hold(g), {"5C": 0b001}),  # seen when drawn (``_hold``), kept
    "replace_from_stock": (lambda g, ev: g.replace_from_stock(1, 3, ev, face_up=True), {"8H": EVERY, "5C": EVERY}),
    "deal_unseen": (lambda g, ev: g.deal_unseen(2, ev, 2), {"5C": 0, "6C": 0}),
    "penalty": (lambda g, ev: g.penalty(2, 1, ev), {"5C": 0}),
    "peek": (lambda g, ev: g.peek(0, (2, 3), ev), {"3S": 0b001, "4S": 0b001}),
}


def _hold(g: Any) -> int:
    g.held = g.stock.pop()
    g.holder = 0
    g.knowers[g.held] = 0b001
    return int(g.place_held(None))


def moves_of_sections(*titles: str) -> list[str]:
    """The methods of ``RoundTable`` under the ``# ---`` section titles given, in the module's order."""
    import tamalou.round_table as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    tree = ast.parse(source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RoundTable")
    lines = source.splitlines()
    names, section = [], ""
    for node in cls.body:
        for line in lines[node.lineno - 2 : node.lineno - 1]:
            if line.strip().startswith("# ---"):
                section = line.strip().lstrip("# -")
        if isinstance(node, ast.FunctionDef) and section in titles:
            names.append(node.name)
    return names


def test_every_move_and_transition_says_what_it_tells() -> None:
    """``MOVE_EFFECTS`` covers the moves and the transitions of ``RoundTable``, no more and no less, and every move
    is run below."""
    moves = moves_of_sections("moves that keep knowledge exact")
    transitions = moves_of_sections("turn transitions")
    assert moves and transitions
    assert set(MOVE_EFFECTS) == set(moves) | set(transitions)
    assert set(RUNS) == set(moves)
    assert all(hasattr(RoundTable, name) for name in MOVE_EFFECTS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_move_emits_what_it_declares_and_tells_whom_it_says(name: str) -> None:
    g = table()
    run, changed = RUNS[name]
    before = list(g.knowers)
    events: list[tamalou.Event] = []
    run(g, events)
    assert {e.type for e in events} <= set(MOVE_EFFECTS[name].events)
    if MOVE_EFFECTS[name].events[:1] and name != "peek":  # the move's own event is there
        assert events and events[0].type == MOVE_EFFECTS[name].events[0]
    if not MOVE_EFFECTS[name].events:
        assert events == []
    expected = list(before)
    for text, mask in changed.items():
        expected[card(g, text)] = mask
    assert list(g.knowers) == expected
    cards = sorted(c for hand in g.hands for c in hand if c != NO_CARD) + g.stock + g.discard
    assert sorted(cards) == list(range(len(g.text)))  # every card in one place


def test_replace_from_stock_face_down_and_with_no_card_left() -> None:
    """Face down, the new card is seen by nobody and the event names only the thrown card; with no card to draw
    (the stock empty, the discard a single card), nothing moves and ``no_card`` says so."""
    g = table()
    events: list[tamalou.Event] = []
    new = g.replace_from_stock(0, 0, events, face_up=False, by=2)
    assert g.text[new] == "5C" and g.knowers[new] == 0 and not g.is_up(0, 0)
    assert [e.to_dict() for e in events] == [
        {"type": "replaced_from_stock", "player": 0, "slot": 0, "thrown": "AS", "by": 2}
    ]
    g.stock.clear()
    g.discard[:] = g.discard[-1:]
    events = []
    assert g.replace_from_stock(0, 1, events) == NO_CARD and [e.type for e in events] == ["no_card"]
    assert g.text[g.hands[0][1]] == "2S"
