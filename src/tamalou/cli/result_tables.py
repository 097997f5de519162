"""The result tables of ``tamalou play``: a round's (a row per seat: its cards, total, score and place) and a
match's (a row per round, a column per seat), for bots' games and people's alike."""

from __future__ import annotations

from rich.table import Table

from ..display import EMPTY
from ..engine.round import Round
from ..match import MatchResult
from ..views import Result
from .log import cards, seat


def result_table(result: Result, game: Round, names: list[str], title: str = "Result") -> Table:
    place = {p: i + 1 for i, group in enumerate(result.ranking) for p in group}
    table = Table(title=f"{title} ({result.reason})")
    table.add_column("seat", no_wrap=True)
    table.add_column("bot")
    table.add_column("cards")
    table.add_column("total", justify="right")
    table.add_column("score", justify="right")
    table.add_column("place", justify="right")
    table.add_column("", no_wrap=True)
    empty = False
    for p in range(game.players):
        marks = []
        if p in result.winners:
            marks.append("winner")
        if p == result.caller:
            marks.append("caller")
        shown = cards(game.layout(p), game.variant.rules.deal.grid)
        empty = empty or EMPTY in shown.split()
        table.add_row(
            seat(p),
            names[p],
            shown,
            str(result.totals[p]),
            str(result.scores[p]) if p < len(result.scores) else "",
            str(place.get(p, "")),
            ", ".join(marks),
        )
    if empty:
        table.caption = f"{EMPTY} an empty slot ({emptied_words(game)})"
    return table


def emptied_words(game: Round) -> str:
    """How a slot of ``game`` came to be empty, in the words of the mechanics whose rules empty slots
    (``Mechanic.emptied_words``: "its card was matched away"); neutral words when none says."""
    words = [m.emptied_words for m in game.rb.mechanics if m.emptied_words]
    return f"its card was {' or '.join(words)}" if words else "its card left the layout"


def match_table(result: MatchResult, names: list[str]) -> Table:
    """The match, a row per round and a column per seat (so it reads at 80 columns for up to 6 seats); a round
    whose place bonus changed a seat's total shows it after the score: ``3 -5``."""
    place = {p: i + 1 for i, group in enumerate(result.ranking) for p in group}
    table = Table(title=f"Match ({result.form}, {len(result.rounds)} rounds)")
    table.add_column("round", no_wrap=True)
    for p, name in enumerate(names):
        table.add_column(f"{seat(p)}\n{name}", justify="right", no_wrap=True)
    bonus = False
    for r, scores in enumerate(result.rounds):
        row = [f"r{r + 1}"]
        for p in range(len(names)):
            extra = result.adjustments[r][p] if r < len(result.adjustments) else 0
            bonus = bonus or bool(extra)
            row.append(f"{scores[p]} {extra:+d}" if extra else str(scores[p]))
        table.add_row(*row)
    table.add_section()
    table.add_row("total", *[str(result.totals[p]) for p in range(len(names))])
    table.add_row("place", *[str(place.get(p, "")) for p in range(len(names))])
    table.add_row("", *["winner" if p in result.winners else "" for p in range(len(names))])
    if bonus:
        table.caption = "3 -5: the round's score, then what its place added to the total (a bonus: below 0)"
    return table
