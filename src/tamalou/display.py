"""The table drawn as text: ``repr(game)``, ``repr(view)``, ``repr(result)`` and their ``__rich__`` forms (each
object's ``__repr__`` draws its own lines here: ``game_lines``, ``view_lines``, ``result_lines``; ``panel`` for rich).

A ``PlayerView`` is drawn as its seat sees it (``??`` for a card that seat does not know); a ``Round`` as
the referee sees it (every card, each marked ``*`` where its owner does not know it); either marks ``^`` a card
lying face up, ``·`` an empty slot of a grid, and ends with a legend of the marks it used; a ``Result`` as
the table of totals, places and winners. Plain text needs nothing; the ``__rich__`` forms (used by
``rich.print`` and the command line) need ``rich``, which comes with the ``cli`` extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .schema import Variant


# What the drawings read, declared here so that this module imports nothing of what it draws (``tamalou.views``
# draws its models through it): ``PlayerView`` and ``SeatView`` are ``DrawnView``s, ``Result`` a ``DrawnResult``.


class DrawnSlot(Protocol):
    """An occupied slot as a view shows it (``SlotView``, ``Slot``)."""

    @property
    def slot(self) -> int: ...
    @property
    def card(self) -> str | None: ...
    @property
    def face_up(self) -> bool: ...


class DrawnResult(Protocol):
    """The end of a round as ``result_lines`` draws it (``Result``)."""

    @property
    def totals(self) -> Sequence[int]: ...
    @property
    def winners(self) -> Sequence[int]: ...
    @property
    def ranking(self) -> Sequence[Sequence[int]]: ...
    @property
    def caller(self) -> int | None: ...
    @property
    def last_lap(self) -> int | None: ...
    @property
    def card_counts(self) -> Sequence[int]: ...
    @property
    def reason(self) -> str: ...
    @property
    def scores(self) -> Sequence[int]: ...


class DrawnView(Protocol):
    """A seat's view as ``view_lines`` draws it (``PlayerView``, ``SeatView``)."""

    @property
    def player(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def current_player(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def hands(self) -> Sequence[Sequence[DrawnSlot]]: ...
    @property
    def grid(self) -> Sequence[int] | None: ...
    @property
    def held(self) -> str | None: ...
    @property
    def holding(self) -> int | None: ...
    @property
    def discard_top(self) -> str | None: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def caller(self) -> int | None: ...
    @property
    def last_lap(self) -> int | None: ...
    @property
    def last_lap_reason(self) -> str | None: ...
    @property
    def power(self) -> str | None: ...
    @property
    def left(self) -> Sequence[int]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> DrawnResult | None: ...


class RefereeTable(Protocol):
    """What ``game_lines`` reads of a round (``tamalou.engine.round.Round`` is one): every card, who knows it."""

    @property
    def variant(self) -> Variant: ...
    @property
    def players(self) -> int: ...
    @property
    def current_player(self) -> int: ...
    @property
    def text(self) -> Sequence[str]: ...
    @property
    def knowers(self) -> Sequence[int]: ...
    @property
    def face_up(self) -> int: ...
    @property
    def held(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    def card_at(self, owner: int, slot: int) -> int: ...
    def occupied(self, player: int) -> list[int]: ...
    def view(self, player: object) -> DrawnView: ...
    def final_result(self) -> DrawnResult: ...


UNKNOWN = "??"
#: After a card its owner has not seen (the referee's table), and after a card lying face up (any table).
UNSEEN, UP = "*", "^"
#: The words of each mark, in the order a legend says them.
_MARKS = (
    (UNKNOWN, "?? a card this seat has not seen"),
    (UNSEEN, "* a card its owner has not seen"),
    (UP, "^ face up"),
    ("·", "· an empty slot"),
)


def _legend(lines: Sequence[str]) -> list[str]:
    """The legend of the marks ``lines`` use (none: no legend)."""
    cells = [cell for line in lines for cell in line.split("[")[1:]]
    used = [words for mark, words in _MARKS if any(cell.split("]")[0].strip().endswith(mark) for cell in cells)]
    return ["  " + " · ".join(used)] if used else []


def _head(name: str, view: DrawnView) -> str:
    """The public facts of the table (the same for every seat), after ``name``."""
    parts = [name] if name else []
    if view.is_over:
        parts.append("round over")
    else:
        parts += [f"turn {view.turn + 1}", f"P{view.current_player} to play ({view.phase})"]
    parts += [f"stock {view.stock_size}", f"discard {view.discard_top or '-'}"]
    if view.last_lap is not None:
        parts.append(f"last lap: P{view.last_lap} ({view.last_lap_reason})")
    else:
        parts.append(f"P{view.caller} called" if view.caller is not None else "no call yet")
    return " · ".join(parts)


def _row(seat: int, cards: Sequence[str], marks: Sequence[str]) -> str:
    shown = " ".join(f"[{c:>3}]" for c in cards) if cards else "(no card)"
    tail = "  " + ", ".join(marks) if marks else ""
    return f"  P{seat}: {shown}{tail}"


#: An empty slot of a grid (its card left the layout, or was never dealt there).
EMPTY = _MARKS[3][0]


def _layout(seat: int, cards: dict[int, str], marks: Sequence[str], grid: Sequence[int] | None) -> list[str]:
    """A seat's layout (``cards``: slot -> what is shown): one line in slot order, or, with a ``grid`` (rows,
    columns), one line per row with ``EMPTY`` for a slot without a card, then the slots past the grid."""
    if grid is None:
        return [_row(seat, [cards[s] for s in sorted(cards)], marks)]
    rows, columns = grid
    lines = [
        _row(seat, [cards.get(s, EMPTY) for s in range(r * columns, (r + 1) * columns)], marks if r == 0 else ())
        for r in range(rows)
    ]
    beyond = [cards[s] for s in sorted(cards) if s >= rows * columns]
    if beyond:
        lines.append(_row(seat, beyond, ["(past the grid)"]))
    indent = " " * len(f"  P{seat}: ")  # (the seat is named on the first row only)
    return lines[:1] + [indent + line[len(indent) :] for line in lines[1:]]


def view_lines(view: DrawnView) -> list[str]:
    """The table as ``view.player`` sees it, one line per seat after a heading."""
    lines = [f"{_head('', view)} · seen by P{view.player}"]
    for seat, hand in enumerate(view.hands):
        marks = []
        if seat == view.player:
            marks.append("you")
        if view.holding == seat:
            marks.append(f"holding {view.held}" if seat == view.player and view.held else "holding a card")
        if seat in view.left:
            marks.append("left the round")
        shown = {s.slot: (s.card + UP if s.face_up else s.card) if s.card else UNKNOWN for s in hand}
        lines += _layout(seat, shown, marks, view.grid)
    lines += _legend(lines[1:])
    if view.power:
        lines.append(f"  power on offer: {view.power}")
    if view.result is not None:
        lines += ["", *result_lines(view.result)]
    return lines


def game_lines(game: RefereeTable) -> list[str]:
    """The table as the referee sees it: every card, ``*`` after a card its owner does not know."""
    view = game.view(game.current_player)
    lines = [f"{_head(game.variant.name, view)} · {game.players} players"]
    for seat in range(game.players):
        held = {s: game.card_at(seat, s) for s in game.occupied(seat)}
        cards = {
            s: game.text[c] + (UP if game.face_up >> c & 1 else "" if game.knowers[c] >> seat & 1 else UNSEEN)
            for s, c in held.items()
        }
        marks = []
        if view.holding == seat and view.holding is not None:
            marks.append(f"holding {game.text[game.held]}")
        if seat in view.left:
            marks.append("left the round")
        lines += _layout(seat, cards, marks, view.grid)
    lines += _legend(lines[1:])
    if game.is_over:
        lines += ["", *result_lines(game.final_result())]
    return lines


def result_lines(result: DrawnResult) -> list[str]:
    """Totals, places and winners of a round, one line per player in ranking order."""
    place_of = {p: i for i, place in enumerate(result.ranking, 1) for p in place}
    lines = [f"result ({result.reason})" + (f", P{result.caller} called" if result.caller is not None else "")]
    if result.last_lap is not None:
        lines[0] += f", P{result.last_lap} began the last lap"
    for p in sorted(range(len(result.totals)), key=lambda q: (place_of.get(q, 0), q)):
        mark = "  winner" if p in result.winners else ""
        lines.append(
            f"  {place_of.get(p, 0)}. P{p}: {result.totals[p]} points, {result.card_counts[p]} cards, "
            f"scores {result.scores[p]}{mark}"
        )
    if not result.winners:
        lines.append("  nobody wins")
    return lines


def panel(lines: list[str]) -> Any:
    """Lines drawn by ``view_lines``, ``result_lines`` or ``game_lines`` as a ``rich`` panel, the first line its
    title (needs ``rich``: the ``cli`` extra)."""
    from rich.panel import Panel
    from rich.text import Text

    title, body = lines[0], lines[1:]
    return Panel(Text("\n".join(line.removeprefix("  ") for line in body)), title=title, expand=False)
