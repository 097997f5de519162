"""A deck that depends on the number of players: ``rules.deck.copies`` is a number of decks, or a table of them
keyed by the fewest players from which each applies, up to the next key (``copies = {2 = 1, 5 = 2}``: one deck
from 2 players, two from 5). Its first key is at most ``rules.players.min``. Everything that reads the deck
reads the deck of the table actually seated: the deal, snapshots (card ids are indexes into that deck), the
checks between sections (a deal at every count must leave cards), verify, the bots, ``tamalou show``.

French Tamalou for 2 to 8 players with one deck up to 4 players and two from 5, made from text as a house rule
would be.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import Phase, find, settings
from typer.testing import CliRunner

import scenario
import tamalou
from tamalou import Call, InvariantViolation, Round, SetupError, SnapshotError
from tamalou.bots import GreedyBot, play_game
from tamalou.bots.ismcts import Determinizer, ISMCTSBot
from tamalou.cli import app
from tamalou.engine import new_round
from tamalou.engine.rulebook import rulebook
from tamalou.rulesets.effective import effective_rules, variant_to_toml
from tamalou.schema import Deck
from tamalou.testing import check_conservation, tweak, variants
from tamalou.verify import verify

BIG_TABLE = """name = "big-table"
extends = "french"
[rules.players]
max = 8
[rules.deck]
copies = {2 = 1, 5 = 2}
"""
FACES = frozenset(f"{r}{s}" for r in scenario.RANKS for s in "SHDC")


def big_table(text: str = BIG_TABLE) -> tamalou.Variant:
    return tamalou.variant_from_toml(text)


def dealt_cards(g: Round) -> Counter[str]:
    """Every card of the round, wherever it lies (stock, layouts, discard, held), by its face."""
    ids = [*g.stock, *g.discard, *(c for hand in g.hands for c in hand if c >= 0)]
    if g.held >= 0:
        ids.append(g.held)
    return Counter(g.text[c] for c in ids)


def play(g: Round, steps: int) -> None:
    """``steps`` actions of the player to move, drawn at random among those listed, a call apart."""
    rng = random.Random(steps)
    for _ in range(steps):
        g.apply(rng.choice([a for a in g.legal_actions(g.current_player) if not isinstance(a, Call)]))


# ----------------------------------------------------------------------------------- the deal


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (4, 1), (5, 2), (8, 2)])
def test_a_table_deals_from_its_own_deck(players: int, decks: int) -> None:
    """Up to 4 players the round holds the 52 cards once; from 5 players, twice (104 cards in the stock, the
    layouts and the discard)."""
    g = new_round(big_table(), players, seed=players)
    cards = dealt_cards(g)
    assert sum(cards.values()) == 52 * decks == len(g.cards)
    assert set(cards) == FACES and set(cards.values()) == {decks}
    assert len(g.stock) == 52 * decks - 4 * players - 1


def test_an_entry_applies_from_its_count_up_to_the_next() -> None:
    """The tables of one number of decks share one deck (made once per ruleset); an integer is every table's."""
    v = big_table()
    rb = rulebook(v)
    assert v.rules.deck.copies == {2: 1, 5: 2}
    assert [v.rules.deck.copies_at(n) for n in range(2, 9)] == [1, 1, 1, 2, 2, 2, 2]
    assert [v.rules.deck.size(n) for n in (4, 5)] == [52, 104]
    assert rb.deck_for(2) is rb.deck_for(4) and rb.deck_for(5) is rb.deck_for(8)
    assert rb.deck_for(5) == rb.one_deck * 2 and rb.deck_tables(6) is rb.deck_tables(7)
    with pytest.raises(ValueError, match="played by 2 to 8 players, got 9"):
        rb.deck_for(9)
    assert v.rules.deck.copies_by_players(2, 8) == [(2, 4, 1), (5, 8, 2)]
    french = tamalou.load_variant("french").rules.deck
    assert french.copies == 1 and french.copies_by_players(2, 6) == [(2, 6, 1)]
    assert Deck(copies=2).size(3) == 104


def test_a_stacked_deal_fits_the_deck_of_its_table() -> None:
    """Five players may be dealt the same card twice (two decks); four may not."""
    twice = [["AS", "AS", "2S", "3S"], ["4S", "5S", "6S", "7S"]]
    hands = [*twice, ["AH", "2H", "3H", "4H"], ["5H", "6H", "7H", "8H"], ["9H", "10H", "JH", "QH"]]
    g = new_round(big_table(), 5, deal={"hands": hands, "stock": ["KH", "KD"], "discard": []}, first_player=0)
    assert g.text[g.hands[0][0]] == g.text[g.hands[0][1]] == "AS"
    with pytest.raises(SetupError, match="does not fit the variant's deck"):
        new_round(big_table(), 4, deal={"hands": hands[:4], "stock": [], "discard": []}, first_player=0)


# ----------------------------------------------------------------------------------- snapshots


def test_a_snapshot_at_five_players_is_read_against_their_deck() -> None:
    """The snapshot names no cards (the variant's deck for its player count): card ids from 52 on are the
    second deck's. Read as a 4-player game, whose deck has 52 cards, the same ids are refused."""
    g = new_round(big_table(), 5, seed=11)
    play(g, 30)
    text = g.to_json()
    saved = json.loads(text)
    assert saved["cards"] is None and max(g.stock) >= 52
    again = Round.from_json(text, variant=big_table())
    assert again.to_json() == text and len(again.cards) == 104
    assert dealt_cards(again) == dealt_cards(g)
    play(again, 5)
    check_conservation(again)
    with pytest.raises(SnapshotError):
        Round.from_json(json.dumps({**saved, "players": 4}), variant=big_table())


# ----------------------------------------------------------------------------------- verify and the bots


def test_verify_passes_at_two_players_and_at_five_and_more() -> None:
    """Every invariant of verify, card conservation included (a shuffled round holds the deck of its table), at
    2 players (one deck) and at 5 and 8 (two)."""
    report = verify(big_table(), games=6, players=[2, 5, 8], determinism=False)
    assert report.ok, report
    assert report.games == 6


def test_conservation_finds_a_round_not_dealt_from_the_deck_of_its_table() -> None:
    """A shuffled round of 5 players holds their two decks: 104 aces of spades are no deck of theirs."""
    g = new_round(big_table(), 5, seed=2)
    check_conservation(g)
    g.cards = [rulebook(g.variant).one_deck[0]] * 104
    with pytest.raises(InvariantViolation, match=r"not the deck of 5 players \(104 cards"):
        check_conservation(g)


def test_bots_play_a_table_of_two_decks() -> None:
    """A greedy bot counts a card it has not seen at the mean of the unseen cards of the 104; a search deals the
    unseen cards of the two decks into the places it cannot see."""
    v = big_table()
    game = tamalou.new_game(v, 5, seed=4)
    result = play_game(game, [GreedyBot(p) for p in range(5)])
    assert game.is_over and len(result.totals) == 5
    g = new_round(v, 5, seed=5)
    me = g.current_player
    view = g.seat_view(me)
    seen = [tamalou.card_value(v, c) for c in [*view.discard, *(s.card for h in view.hands for s in h if s.card)]]
    both = 2 * sum(tamalou.card_value(v, c) for c in rulebook(v).one_deck)
    greedy = GreedyBot(0)
    greedy.setup(v, me)
    assert greedy.estimate(view) == pytest.approx((both - sum(seen)) / (104 - len(seen)))
    sample = Determinizer(g.seat_view(me), g.legal_actions(me), v, random.Random(1)).sample(random.Random(2))
    assert len(sample.cards) == 104 and sample.seat_view(me) == g.seat_view(me)
    check_conservation(sample)
    bot = ISMCTSBot(seed=1, iterations=6)
    bot.setup(v, me)
    assert bot.act(g.seat_view(me), g.legal_actions(me)) in g.legal_actions(me)
    assert bot.failures == 0


# ----------------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("copies", "key", "words"),
    [
        ("{3 = 1, 5 = 2}", "rules.deck.copies", "the table starts at 3 players but rules.players.min is 2"),
        ("{two = 1}", "rules.deck.copies.two", "expected a player count from 1 to 12 as key"),
        ("{0 = 1}", "rules.deck.copies.0", "expected a player count from 1 to 12"),
        ("{13 = 1}", "rules.deck.copies.13", "expected a player count from 1 to 12"),
        ("{2 = 5}", "rules.deck.copies.2", "expected a number less than or equal to 4"),
        ('{2 = "1"}', "rules.deck.copies.2", "expected an integer"),
        ("{2 = 1, 02 = 2}", "rules.deck.copies", "'2' and '02' both name 2 players"),
        ("{}", "rules.deck.copies", "expected at least one player count"),
        ("5", "rules.deck.copies", "expected a number less than or equal to 4"),
        ("true", "rules.deck.copies", "expected an integer or a table"),
    ],
)
def test_a_wrong_table_is_an_error_naming_its_key(copies: str, key: str, words: str) -> None:
    """Keys are player counts (TOML writes them as text), values numbers of decks; the first count is at most
    the fewest players; an integer is checked as before."""
    with pytest.raises(tamalou.VariantError) as caught:
        big_table(BIG_TABLE.replace("{2 = 1, 5 = 2}", copies))
    assert f"{key}: {words}" in str(caught.value)


def test_the_deal_must_fit_the_deck_of_every_count() -> None:
    """12 cards each: 4 players need 50 cards of one deck, 5 need 62. A table that gives 5 players one deck says
    so at ``rules.deck.copies`` with the count; at the largest table it offers fewer players too."""
    text = BIG_TABLE.replace("[rules.deck]", "[rules.deal]\ncards = 12\n[rules.deck]")
    assert big_table(text).rules.deal.cards == 12
    with pytest.raises(tamalou.VariantError) as caught:
        big_table(text.replace("{2 = 1, 5 = 2}", "{2 = 1, 6 = 2}"))
    assert (
        "rules.deck.copies: 5 players need 62 cards (5 x 12 dealt, 1 for the discard, 1 to draw) but "
        "rules.deck.copies gives 2 to 5 players 1 deck, 52 cards: expected more decks from 5 players (e.g. 5 = 2) "
        "or fewer cards dealt"
    ) in str(caught.value)
    with pytest.raises(tamalou.VariantError) as caught:
        big_table(text.replace("{2 = 1, 5 = 2}", "{2 = 1, 5 = 2, 8 = 1}"))
    assert "8 players need 98 cards" in str(caught.value)
    assert "expected more decks from 8 players (e.g. 8 = 2), at most 7 players (rules.players.max)" in str(caught.value)
    with pytest.raises(tamalou.VariantError, match=r"rules\.players\.max: 8 players need 98 cards .* the deck has 52"):
        big_table(text.replace("{2 = 1, 5 = 2}", "1"))  # one number of decks: as before, the largest table


# ----------------------------------------------------------------------------------- show and the random rulesets


def test_show_says_how_many_decks_each_table_shuffles(tmp_path: Path) -> None:
    path = tmp_path / "big-table.toml"
    path.write_text(BIG_TABLE, encoding="utf-8")
    result = CliRunner().invoke(app, ["show", str(path)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "deck: 52 cards a deck: A to K in 4 suits; 1 deck (2 to 4 players), 2 decks (5 to 8 players)\n" in (
        result.output
    )
    rules = effective_rules(big_table())
    assert rules.deck_size == 52 and rules.deck_sizes == {2: 52, 3: 52, 4: 52, 5: 104, 6: 104, 7: 104, 8: 104}
    assert effective_rules("french").deck == "52 cards: A to K in 4 suits"
    standalone = tmp_path / "standalone.toml"
    standalone.write_text(variant_to_toml(big_table()), encoding="utf-8")
    assert tamalou.load_variant(standalone).rules == big_table().rules  # the table written out reads back


def test_random_rulesets_sometimes_give_bigger_tables_more_decks() -> None:
    """``tweak`` moves a table's first count down to the fewest players; ``variants()`` draws such tables."""
    v = tweak("french", {"deck.copies": {"3": 2, "6": 3}, "players.max": 8})
    assert v.rules.deck.copies == {2: 2, 6: 3} and v.rules.players.max == 8
    drawn = find(
        variants("french", modifiers=False),
        lambda v: not isinstance(v.rules.deck.copies, int) and len(set(v.rules.deck.copies.values())) > 1,
        settings=settings(max_examples=2000, database=None, phases=[Phase.generate]),
    )
    n = drawn.rules.players.max
    g = new_round(drawn, n, seed=1)
    assert len(g.cards) == drawn.rules.deck.size(n)
    check_conservation(g)
