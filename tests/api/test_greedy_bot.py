"""The greedy bot (``tamalou.bots.GreedyBot``): each decision on a stacked deal a reader can follow, then
every bot on every ruleset (plugins' powers, moves and phases included), the greedy bot's strength, and
the bots page of the documentation, run.

French deals: 4 cards per seat, slot 0 first; each player knows their slots 0 and 1 from the start;
seat 0 plays first; the stock is listed top first, the discard bottom first. Values: A 1 ... 10 10, J Q 10,
black kings 15, red kings 0; the threshold is 5. Powers (a card drawn from the stock and thrown at once):
7 8 look at one of your own cards, 9 10 at an opponent's, J Q blind swap, black K look and swap.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from test_bots import Checked

import scenario
import tamalou
from tamalou import Action, Call, Discard, Draw, Game, MatchAction, Pass, Power, Replace, SeatView, Swap
from tamalou.bots import GreedyBot, ISMCTSBot, RandomBot, bot_names, make_bot, play_game
from tamalou.engine.rulebook import rulebook
from tamalou.engine.state import Reason
from tutorials import run_page

FRENCH = tamalou.load_variant("french")
deal = partial(scenario.deal, variant=FRENCH)
DATA = Path(__file__).resolve().parents[1] / "data" / "bots"
OPPONENT = ["8C", "8D", "10C", "10D"]  # seat 1, when it does not matter
ENDINGS = {str(r) for r in Reason} | {"stock_out"}  # the engine's, and Cabo's stock running out


def greedy(player: int, variant: tamalou.Variant = FRENCH, seed: int = 0) -> GreedyBot:
    bot = GreedyBot(seed)
    bot.setup(variant, player)
    return bot


def decide(bot: GreedyBot, g: Game) -> Action | None:
    """The bot's answer for its seat now, which must be listed (or ``None`` out of turn)."""
    p = bot.player
    assert p is not None
    legal = g.legal_actions(p)
    action = bot.act(g.seat_view(p), legal)
    assert action is None or action in legal
    return action


def play(bot: GreedyBot, g: Game) -> Action:
    """The bot decides and its action is applied."""
    action = decide(bot, g)
    assert action is not None
    g.apply(action)
    return action


def card(g: Game, viewer: int, owner: int, slot: int) -> str | None:
    return scenario.seen(g, viewer, owner)[slot]


# ----------------------------------------------------------------------------- keeping and replacing


def test_keeps_low_cards_throws_a_higher_draw_and_peeks_at_its_unknown_cards() -> None:
    # Seat 0 knows AS, 2S; its slots 2 and 3 are unknown, worth the mean of the unseen cards (about 6.5).
    g = deal([["AS", "2S", "9D", "9H"], OPPONENT], stock=["8H", "6C", "6D"], discard=["JC"])
    bot = greedy(0)
    assert 6 < bot.estimate(g.seat_view(0)) < 7
    assert play(bot, g) == Draw(0, "stock")  # a jack on the discard improves nothing
    assert play(bot, g) == Discard(0)  # an 8 is higher than the A, the 2 and an unknown card
    assert g.phase == "power" and g.seat_view(0).power == "peek_own"
    assert play(bot, g) == Power(0, slot=2)  # the 8's power: its first unknown card
    assert card(g, 0, 0, 2) == "9D"
    assert play(bot, g) == Pass(0)  # 1 + 2 + 9 + an unknown card: far above 5


def test_replaces_its_worst_known_card_with_a_lower_draw() -> None:
    g = deal([["KS", "AS", "9D", "9H"], OPPONENT], stock=["2H", "QD"], discard=["8S"])
    bot = greedy(0)
    assert play(bot, g) == Draw(0, "stock")  # an 8 for the KS gains 7; the stock is expected to gain more
    assert play(bot, g) == Replace(0, 0)  # the black king (15) goes
    assert g.seat_view(0).discard_top == "KS"
    assert card(g, 0, 0, 0) == "2H"


def test_replaces_an_unknown_card_valued_at_the_mean_of_the_unseen_cards() -> None:
    g = deal([["AS", "2S", "9D", "9H"], OPPONENT], stock=["3H", "QD"], discard=["JC"])
    bot = greedy(0)
    g.apply(Draw(0, "stock"))
    assert bot.estimate(g.seat_view(0)) > 3
    assert play(bot, g) == Replace(0, 2)  # a 3 beats the mean of an unknown card, not the A or the 2


def test_takes_a_low_discard_card_in_place_of_a_known_high_card() -> None:
    g = deal([["KC", "3S", "9D", "9H"], OPPONENT], stock=["8H", "QD"], discard=["AH"])
    bot = greedy(0)
    assert play(bot, g) == Draw(0, "discard")  # an ace for a black king: 14 points, sure
    assert play(bot, g) == Replace(0, 0)


def test_throws_a_drawn_card_of_a_kind_it_holds_then_matches_its_own() -> None:
    g = deal([["6S", "2S", "9D", "9H"], OPPONENT], stock=["6H", "QD", "QC"], discard=["KH"])
    bot = greedy(0)
    g.apply(Draw(0, "stock"))
    assert play(bot, g) == Discard(0)  # the 6H thrown, its 6S can follow: 6 points less
    assert play(bot, g) == MatchAction(0, (0,))
    assert [s.slot for s in g.seat_view(0).hands[0]] == [1, 2, 3]


# ----------------------------------------------------------------------------- matching


def test_matches_a_known_card_of_the_top_rank_and_never_an_unknown_one() -> None:
    # Seat 1 knows 7D (slot 0); its 7S (slot 2) is unknown to it. The discard shows 7H; seat 0 is to play.
    g = deal([["2S", "3S", "4S", "5S"], ["7D", "AC", "7S", "9C"]], stock=["QH", "QD", "QC"], discard=["7H"])
    bot = greedy(1)
    assert MatchAction(1, (2,)) in g.legal_actions(1)  # listed, right or wrong: it cannot know
    assert play(bot, g) == MatchAction(1, (0,))
    assert decide(bot, g) is None  # slot 2 would be right, but it does not know that


def test_matches_a_card_of_no_value_but_never_one_worth_less_than_nothing() -> None:
    # A red king is worth 0: one card less is still better. A joker is worth -1: it stays.
    g = deal([["2S", "3S", "4S", "5S"], ["KD", "AC", "8S", "9C"]], stock=["QH", "QD"], discard=["KH"])
    assert play(greedy(1), g) == MatchAction(1, (0,))
    jokers = tamalou.load_variant("jokers")
    g = scenario.deal(
        [["2S", "3S", "4S", "5S"], ["JK1", "AC", "8S", "9C"]], stock=["QH", "QD"], discard=["JK2"], variant=jokers
    )
    bot = greedy(1, jokers)
    assert bot.value("JK1") == -1
    assert MatchAction(1, (0,)) in g.legal_actions(1)
    assert decide(bot, g) is None


def test_declining_out_of_turn_spares_the_next_questions_until_a_card_can_be_thrown() -> None:
    g = deal([["2S", "3S", "4S", "5S"], ["7D", "AC", "8S", "9C"]], stock=["QH", "QD", "6C"], discard=["6H"])
    bot = greedy(1)
    assert g.phase == "draw" and g.current_player == 0
    assert decide(bot, g) is None  # no 6 known
    assert bot.may_match() is False  # asked again after seat 0's draw: nothing thrown yet
    assert bot.may_match() is True  # seat 0 holds a card: its next move may throw it
    scenario.draw_and_throw(g)  # the QH: a power for seat 0, then the call
    assert g.phase == "power"
    assert decide(bot, g) is None  # no queen known
    assert [bot.may_match() for _ in range(3)] == [False, False, True]  # the power, the call, then a draw


def test_after_its_own_power_it_looks_again_at_once() -> None:
    """Its own power may show it a card of the top's kind: the matches it let go then may become sure."""
    g = deal([["AS", "2S", "9D", "9H"], OPPONENT], stock=["7H", "6C", "6D"], discard=["JC"])
    bot = greedy(0)
    g.apply(Draw(0, "stock"))
    assert play(bot, g) == Discard(0)
    assert any(isinstance(a, MatchAction) for a in g.legal_actions(0))  # matches on the 7H are offered
    assert play(bot, g) == Power(0, slot=2)  # it peeks instead
    assert bot.may_match() is True
    assert play(bot, g) == Pass(0)  # the call: nothing it does shows it a card
    assert [bot.may_match() for _ in range(3)] == [False, False, True]


# ----------------------------------------------------------------------------- powers


def test_looks_at_an_opponent_once_its_own_cards_are_known() -> None:
    g = deal([["AS", "2S"], OPPONENT], stock=["9H", "7H", "6C", "6D"], discard=["QD"])
    bot = greedy(0)
    assert play(bot, g) == Draw(0, "stock")
    assert play(bot, g) == Discard(0)
    assert g.seat_view(0).power == "peek_opponent"
    assert play(bot, g) == Power(0, target=1, target_slot=0)  # an unknown card of the only opponent
    assert card(g, 0, 1, 0) == "8C"
    assert play(bot, g) == Call(0)  # 1 + 2 = 3: at most 5
    # A peek at its own cards when it knows them all: nothing to learn.
    g = deal([["AS", "2S"], OPPONENT], stock=["7H", "6C", "6D"], discard=["QD"])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.seat_view(0).power == "peek_own"
    assert decide(bot, g) == Pass(0)


def test_blind_swaps_a_known_high_card_for_an_opponents_known_low_card() -> None:
    g = deal([["10S", "AS", "5D", "5H"], ["9C", "4C", "2C", "3C"]], stock=["AD", "QH", "6D", "6H"], discard=["6C"])
    scenario.draw_and_throw(g)  # seat 0 throws the AD...
    g.apply(Pass(0))
    g.apply(Draw(1, "discard"))  # ...seat 1 takes it, face up: everybody knows where it is
    g.apply(Replace(1, 0))
    g.apply(Pass(1))
    bot = greedy(0)
    assert card(g, 0, 1, 0) == "AD"
    assert play(bot, g) == Draw(0, "stock")  # the 9C on the discard would gain 1 point in place of the 10S
    assert play(bot, g) == Discard(0)  # a queen (10) is no lower than its 10S
    assert g.seat_view(0).power == "blind_swap"
    assert play(bot, g) == Power(0, slot=0, target=1, target_slot=0)  # its 10S for their AD: 9 points
    assert card(g, 0, 0, 0) == "AD"


def test_looks_at_an_opponents_card_then_swaps_its_worst_card_for_it() -> None:
    g = deal([["10S", "AS", "5D", "5H"], ["2C", "4C", "9C", "3C"]], stock=["KC", "6D", "6H"], discard=["6C"])
    bot = greedy(0)
    g.apply(Draw(0, "stock"))
    assert play(bot, g) == Discard(0)  # a black king (15) is its highest card: thrown
    assert g.seat_view(0).power == "look_and_swap"
    assert play(bot, g) == Power(0, target=1, target_slot=0)
    assert g.phase == "swap" and card(g, 0, 1, 0) == "2C"
    assert play(bot, g) == Swap(0, 0)  # the 10S for the 2C it saw
    assert card(g, 0, 0, 0) == "2C" and card(g, 0, 1, 0) == "10S"


def test_plays_a_power_it_does_not_know_at_random_among_the_listed_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(DATA))
    v = tamalou.load_variant(str(DATA / "plugin-moves.toml"))
    g = scenario.deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6D", "7D"], variant=v)
    scenario.draw_and_throw(g)
    view, legal = g.seat_view(0), g.legal_actions(0)
    assert view.power == "peek_any"
    picks = [greedy(0, v, seed).act(view, legal) for seed in range(30)]
    assert all(a in legal and not isinstance(a, MatchAction) for a in picks)
    assert picks == [greedy(0, v, seed).act(view, legal) for seed in range(30)]  # seeded: the same again
    assert len(set(picks)) > 5  # at random, not by a rule


# ----------------------------------------------------------------------------- calling


@pytest.mark.parametrize(
    ("hand", "calls"),
    [
        (["AS", "3S"], True),
        (["KH", "5D"], True),  # 0 + 5: at the threshold
        (["3S", "3D"], False),
        (["AS", "9S"], False),
        (["AS", "2S", "KD"], False),  # the KD (0) is unknown to it: counted at the mean, about 6.5
    ],
)
def test_calls_at_or_under_the_threshold_counting_unknown_cards_at_the_mean(hand: list[str], calls: bool) -> None:
    g = deal([hand, OPPONENT], stock=["6C", "QD", "QC"], discard=["KS"])
    scenario.draw_and_throw(g)
    assert g.phase == "call"
    assert decide(greedy(0), g) == (Call(0) if calls else Pass(0))


def test_reads_the_threshold_of_the_ruleset() -> None:
    gabo = tamalou.load_variant("gabo")  # call at 7 or less
    assert rulebook(gabo).threshold == 7
    for variant, calls in ((FRENCH, False), (gabo, True)):
        g = scenario.deal([["3S", "3D"], OPPONENT], stock=["6C", "QD"], discard=["KS"], variant=variant)
        scenario.draw_and_throw(g)
        assert decide(greedy(0, variant), g) == (Call(0) if calls else Pass(0))


# ----------------------------------------------------------------------------- every ruleset, every bot


class Recorder(Checked):
    """``Checked`` that also counts the powers its bot was offered."""

    def __init__(self, bot: Any, offered: Counter[str]) -> None:
        super().__init__(bot)
        self.offered = offered

    def act(self, view: SeatView, legal: list[Action]) -> Action | None:
        if view.phase == "power" and view.player == view.current_player and view.power:
            self.offered[view.power] += 1
        return super().act(view, legal)


def _player_counts(v: tamalou.Variant) -> list[int]:
    low, high = v.rules.players.min, v.rules.players.max
    return sorted({n for n in (2, 4) if low <= n <= high} or {low})


def _bot(name: str, seed: int) -> Any:
    """``make_bot(name, seed)``; the search bot with a small budget (its own tests measure its play)."""
    return ISMCTSBot(seed, iterations=2, rollout_limit=30) if name == "ismcts" else make_bot(name, seed)


def _finish(v: tamalou.Variant, bot: str, seeds: range, offered: Counter[str] | None = None) -> Counter[str]:
    reasons: Counter[str] = Counter()
    for players in _player_counts(v):
        for seed in seeds:
            game = tamalou.new_game(v, players=players, seed=seed)
            counts = Counter[str]() if offered is None else offered
            seats = [Recorder(_bot(bot, seed * 8 + p), counts) for p in range(players)]
            result = play_game(game, seats)  # an IllegalAction would propagate
            assert game.is_over and result.reason in ENDINGS, result.reason
            reasons[result.reason] += 1
    return reasons


@pytest.mark.parametrize("name", tamalou.variant_names())
def test_every_bot_finishes_seeded_games_of_every_built_in_ruleset(name: str) -> None:
    v = tamalou.load_variant(name)
    assert _player_counts(v)
    for bot in bot_names():
        reasons = _finish(v, bot, range(6))
        assert sum(reasons.values()) == 6 * len(_player_counts(v))


def test_every_bot_finishes_games_with_powers_moves_and_phases_it_does_not_know(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(DATA))
    v = tamalou.load_variant(str(DATA / "plugin-moves.toml"))
    for bot in bot_names():
        offered: Counter[str] = Counter()
        _finish(v, bot, range(12), offered)
        if bot == "greedy":
            assert offered["peek_any"] and offered["look_then_move"], offered


# ----------------------------------------------------------------------------- strength


@pytest.mark.deep  # a statistical strength test: many games
def test_greedy_bot_beats_the_random_bot_clearly() -> None:
    """200 two-player French games, the greedy bot's seat alternating: by symmetry a random bot would
    win about half of them. Measured: 199 of 200; asserted: over 90 %."""
    games = 200
    wins = 0
    for seed in range(games):
        seat = seed % 2
        bots: list[Any] = [GreedyBot(seed * 8 + p) if p == seat else RandomBot(seed * 8 + p) for p in range(2)]
        result = play_game(tamalou.new_game(FRENCH, players=2, seed=seed), bots)
        wins += seat in result.winners
    assert wins / games > 0.9, wins


def test_greedy_bot_holds_its_own_against_the_cautious_bot() -> None:
    """One greedy bot against three cautious ones, its seat rotating: about a quarter of the wins would be
    even. Measured: 65 of 200; asserted: over 20 %."""
    games = 200
    wins = 0
    for seed in range(games):
        seat = seed % 4
        bots = [make_bot("greedy" if p == seat else "cautious", seed * 8 + p) for p in range(4)]
        result = play_game(tamalou.new_game(FRENCH, players=4, seed=seed), bots)
        wins += seat in result.winners
    assert wins / games > 0.2, wins


@pytest.mark.parametrize("name", ["french", "opponent-matching", "cambia", "kaboo", "tamalou-fun"])
def test_sparing_views_out_of_turn_changes_almost_no_game(name: str) -> None:
    """``may_match`` lets chances go only where no card can have been thrown: the same bots asked every
    time play the same games, but for a card that came into their layout by an opponent's swap. Measured:
    every one of these games the same; asserted: 27 of 30."""

    class AlwaysAsked(GreedyBot):
        def may_match(self) -> bool:
            return True

    v = tamalou.load_variant(name)
    same = 0
    for seed in range(30):
        runs = []
        for kind in (GreedyBot, AlwaysAsked):
            game = tamalou.new_game(v, players=4, seed=seed)
            play_game(game, [kind(seed * 8 + p) for p in range(4)])
            runs.append([tamalou.action_to_dict(a) for a in game.actions])
        same += runs[0] == runs[1]
    assert same >= 27, same


# ----------------------------------------------------------------------------- the documentation


def test_the_bots_page_runs(tmp_path: Path) -> None:
    """docs/bots.md, block by block as a reader would (the tutorials' runner of test_docs.py); its tournaments
    (two hours of search at their size, and the ratings of the quick bots: the deep tier's
    tests/api/test_tournament.py checks both) with the quick bots, on a few games."""
    search = [
        (f"-c golf-6 -b ismcts -n 400 -p {n}", f"-b cautious -n 4 -p {n}") for n in (4, 2)
    ]  # (golf-6: an example)
    ratings = ("-b cautious,random --against greedy -n 400", "-b cautious,random --against greedy -n 8")
    counts = run_page("bots.md", tmp_path, [*search, ratings])
    assert counts["python"] >= 3 and counts["output"] >= 3 and counts["file"] >= 2, counts
