"""The search bot on a game it was never tuned for: a Skyjo-like grid written in this file as an outside author writes
one (a plugin module and a TOML file, public names only), which tells the bots what it knows by its hints alone.

The game (``GRID_GAME``): each player has a 2x3 grid of face-down cards, two turned up for everyone at the opening; a
placed card lies face up, a stock card thrown turns one of yours up; a column of two cards of one rank counts 0; a
player whose cards are all face up goes out, and the others play one last turn. As in Skyjo, going out is a risk: who
goes out without the round's lowest score alone is ranked last. The bots are told of the columns (``place_worth``)
and which card to turn up (``hint``); nothing tells them of the risk of going out: the greedy bot, which plays by the
hints, goes out whenever it can, and the search bot reads it from the ruleset's own ranking (``Round.standing``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tamalou
from tamalou.bots import GreedyBot, play_game
from tamalou.bots.ismcts import ISMCTSBot
from tamalou.simulation import Estimate

GRID_GAME = '''
"""A Skyjo-like grid: columns of one rank count 0; all face up, you go out; going out without the lowest score
alone ranks you last."""
from dataclasses import replace

import tamalou


class GridOut(tamalou.Mechanic):
    name = "grid_out"

    def __init__(self, variant):
        super().__init__(variant)
        self.rows, self.columns = variant.rules.deal.grid

    def turn_ending(self, g, events):
        p = g.current_player
        if not g.face_down(p):
            g.begin_last_lap(p, "out", events)
        return False

    def place_worth(self, view, slot, card, worth):
        if card is None:
            return None
        mine = {s.slot: s for s in view.hands[view.player]}
        column = [slot % self.columns + r * self.columns for r in range(self.rows)]
        others = [mine.get(s) for s in column if s != slot]
        if any(o is None or o.card is None or o.card[:-1] != card[:-1] for o in others):
            return None
        return -sum(worth.value(o.card) for o in others)

    def hint(self, view, action, worth):
        if not isinstance(action, tamalou.Flip):
            return None
        up = {s.slot % self.columns for s in view.hands[view.player] if s.face_up}
        return 1.0 + (action.slot % self.columns not in up)


def scores(variant, tally):
    rows, columns = variant.rules.deal.grid
    out = []
    for total, layout in zip(tally.totals, tally.layouts, strict=True):
        for c in range(columns):
            cells = [layout[c + r * columns] if c + r * columns < len(layout) else None for r in range(rows)]
            texts = [x for x in cells if x is not None]
            if len(texts) == rows and len({x[:-1] for x in texts}) == 1:
                total -= sum(tamalou.card_value(variant, x) for x in texts)
        out.append(total)
    return out


@tamalou.hookimpl
def tamalou_round_scores(variant, tally, winners):
    return scores(variant, tally)


@tamalou.hookimpl
def tamalou_rank(variant, tally, tiebreaks):
    return tamalou.rank_by_total(replace(tally, totals=tuple(scores(variant, tally))), tiebreaks)


@tamalou.hookimpl
def tamalou_mechanics():
    return [GridOut]
'''

GRID_TOML = """
plugins = ["grid_out"]
name = "grid-out"
[rules.players]
min = 2
max = 4
[rules.deal]
cards = 6
grid = [2, 3]
discard = 1
[rules.peek]
mode = "choose"
count = 2
public = true
[rules.values.ranks]
A = 1
"2" = -2
K = 0
[rules.draw]
from_discard = true
discard_must_replace = true
placed = "face_up"
discard_turns_up = true
[rules.matching]
enabled = false
[rules.call]
enabled = false
[rules.end]
ties = []
"""


def grid_game(tmp_path: Path) -> tamalou.Variant:
    """The grid game, as its author ships it: ``grid_out.py`` beside ``grid-out.toml``."""
    (tmp_path / "grid_out.py").write_text(GRID_GAME, encoding="utf-8")
    (tmp_path / "grid-out.toml").write_text(GRID_TOML, encoding="utf-8")
    return tamalou.load_variant(tmp_path / "grid-out.toml")


def search_score(variant: tamalou.Variant, players: int, games: int) -> Estimate:
    """The search bot alone against greedy bots: game ``i`` dealt with seed ``70_000 + i``, the search bot (seeded
    ``i``, no CPU limit: its budget of moves decides, so the run is a function of its seeds) at seat ``i % players``;
    its share of the wins (1/k for a win shared by k) with its 95 % Wilson interval."""
    score = 0.0
    for i in range(games):
        me = i % players
        seats: list[Any] = [GreedyBot(1000 * i + s) for s in range(players)]
        seats[me] = ISMCTSBot(seed=i, cpu=None)
        result = play_game(tamalou.new_game(variant, players=players, seed=70_000 + i), seats)
        if me in result.winners:
            score += 1 / len(result.winners)
    return Estimate.wilson(score, games)


def test_a_search_bot_plays_the_grid_game_out(tmp_path: Path) -> None:
    """The grid game plays to its end with the search bot at a small budget: every one of its moves was listed."""
    variant = grid_game(tmp_path)
    bot = ISMCTSBot(seed=1, iterations=20, cpu=None)
    result = play_game(tamalou.new_game(variant, players=3, seed=5), [bot, GreedyBot(1), GreedyBot(2)])
    assert result.reason == "out" and bot.searched > 0


@pytest.mark.deep  # a statistical strength test: many games
def test_the_search_bot_beats_greedy_bots_on_a_grid_game_it_was_never_tuned_for(tmp_path: Path) -> None:
    """With its defaults (but the CPU limit, so that the run is the same on any machine), at two players, the search
    bot's share of the wins is above the even share by more than its 95 % interval."""
    estimate = search_score(grid_game(tmp_path), players=2, games=60)
    assert estimate.low > 0.5, estimate
