"""What the authors of two more games of the family (a Rat-a-Tat Cat and a Skyjo, outside packages) needed, written
the way they would write it: a plugin module of their own beside a TOML file, public names only (``tamalou``,
``tamalou.Mechanic``, ``tamalou.hookimpl``, ``tamalou.round_of``). Each test names the rule it writes.

French values (every ruleset here extends ``french``): A = 1, 2 to 10 their number, J and Q 10, red kings 0, black
kings 15. Deals are written as the scenario tests write them: ``hands`` per seat (slot 0 first), ``stock`` top
first, ``discard`` bottom first. French shows each player their slots 0 and 1 at the deal (``rules.peek``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import scenario
import tamalou
from tamalou import Discard, Draw, round_of
from tamalou.rulesets.effective import effective_rules

# ------------------------------------------------------------------ the highest opening cards play first

HIGHEST_OPENING = '''
"""Skyjo's first player: the highest sum of one's opening cards, turned face up for everyone, plays first; the first
of the tied seats from the dealt first player on. (The cards are public: a choice made on cards a seat saw alone would
tell the others something of them, which tamalou verify reports as a leak.)"""
import tamalou


class HighestOpening(tamalou.Mechanic):
    name = "highest_opening"

    def opening_done(self, g, events):
        def seen_sum(p):
            return sum(g.value[g.card_at(p, s)] for s in g.occupied(p) if g.is_up(p, s))

        order = [(g.first_player + i) % g.players for i in range(g.players)]
        best = max(order, key=seen_sum)  # the first of the highest, in the order of play
        events.append(tamalou.Event("opening_sums", {"player": best, "sum": seen_sum(best)}))
        return best


@tamalou.hookimpl
def tamalou_mechanics():
    return [HighestOpening]
'''


def house_rules(tmp_path: Path, module: str, source: str, toml: str) -> tamalou.Variant:
    """A house ruleset as an outside author writes one: a plugin module and a TOML file beside it."""
    (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    (tmp_path / f"{module}.toml").write_text(f'plugins = ["{module}"]\n{toml}', encoding="utf-8")
    return tamalou.load_variant(tmp_path / f"{module}.toml")


#: Seat 0 sees 2 + 3, seat 1 sees 10 + 9 (the highest), seat 2 sees 4 + 5.
OPENING_DEAL = {
    "hands": [["2S", "3S", "KS", "KC"], ["10H", "9H", "AS", "AD"], ["4D", "5D", "6C", "7C"]],
    "stock": ["5C", "6S", "5H"],
    "discard": ["3D"],
}


@pytest.mark.parametrize(
    "peek", ['mode = "fixed"\nslots = [0, 1]\npublic = true', 'mode = "choose"\ncount = 2\npublic = true']
)
def test_the_highest_opening_sum_plays_first_after_the_opening(tmp_path: Path, peek: str) -> None:
    """``Mechanic.opening_done``: once the opening is over (right after the deal when the cards are turned up then;
    after every seat has chosen its two otherwise), the mechanic names the seat that plays first. Seat 0 was dealt
    first; seat 1 turned up the highest cards and plays the first turn, turns go round from it, and a snapshot keeps
    it."""
    module = "highest_opening_" + peek.split('"')[1]  # (one module name per ruleset: both are imported)
    toml = f'extends = "french"\n[rules.peek]\n{peek}\n'
    variant = house_rules(tmp_path, module, HIGHEST_OPENING, toml)
    game = tamalou.new_game(variant, 3, deal=OPENING_DEAL, first_player=0)
    g = round_of(game)
    events: list[tamalou.Event] = []
    while g.phase != "draw":  # the chosen peek: each seat peeks at its slots 0 and 1
        p = g.to_act[0]
        events += game.apply(tamalou.PeekAction(p, (0, 1)))
    everything = game.events_so_far()
    sums = [e for e in everything if e.type == "opening_sums"]
    assert [(e.data["player"], e.data["sum"]) for e in sums] == [(1, 19)]
    assert g.first_player == 0 and g.starter == 1 and g.first_turn_player == 1
    assert game.current_player == 1 and [e.data["player"] for e in everything if e.type == "turn"] == [1]
    for p in (1, 2, 0):  # turns go round from seat 1
        assert game.current_player == p
        scenario.quiet_turn(g)
    again = tamalou.Game.from_json(game.to_json())
    assert round_of(again).starter == 1 and again.to_json() == game.to_json()
    assert (
        tamalou.replay(variant, 3, seed=game.seed, actions=game.actions, deal=OPENING_DEAL, first_player=0).to_json()
        == game.to_json()
    )


def test_an_opening_done_that_names_no_seat_is_refused(tmp_path: Path) -> None:
    """A seat is an ``int`` from 0 to players - 1: anything else is the plugin's error, said when the round starts."""
    broken = HIGHEST_OPENING.replace("return best", "return 7")
    variant = house_rules(tmp_path, "seven_first", broken, 'extends = "french"\n')
    with pytest.raises(ValueError, match="opening_done chooses a seat from 0 to 2, not 7"):
        tamalou.new_game(variant, 3, deal=OPENING_DEAL, first_player=0)


# ------------------------------------------------------------------ power cards replaced at the end of the round

REPLACE_POWER_CARDS = '''
"""At the end of the round, every power card left in a layout is thrown and replaced by the stock's top card, face
up for everyone; the new card is kept whatever it is."""
import tamalou


class ReplacePowerCards(tamalou.Mechanic):
    name = "replace_power_cards"

    def before_scoring(self, g, events):
        for p in range(g.players):
            for s in g.occupied(p):
                if g.power_of[g.card_at(p, s)] != "none":
                    g.replace_from_stock(p, s, events, face_up=True)


@tamalou.hookimpl
def tamalou_mechanics():
    return [ReplacePowerCards]
'''

#: Seat 0 holds the 9 of spades (a power card in French: look at an opponent's card) among 1 + 2 + 3; seat 1 holds
#: nothing but number cards, 4 + 5 + 6 + 6. The stock, top first: 5C and 6C (drawn and thrown in the round's two
#: turns), then the red king (0 points).
POWER_CARD_DEAL = {
    "hands": [["AS", "2S", "3S", "9S"], ["4D", "5D", "6D", "6H"]],
    "stock": ["5C", "6C", "KH", "5H", "6S"],
    "discard": ["3D"],
}


def test_a_power_card_left_in_a_layout_is_replaced_publicly_and_standing_scores_it_so(tmp_path: Path) -> None:
    """``Mechanic.before_scoring`` with ``g.replace_from_stock``: ``standing()`` (the table judged as if the round
    ended now: a search's cut-short rollout) scores seat 0's 9S as the stock's top that would replace it (5C: 1 + 2 +
    3 + 5 = 11), on a copy (the table is left as it lies); at the real end, two turns later, the red king replaces it
    in public (1 + 2 + 3 + 0 = 6), and ``standing()`` of the table just before the end said so."""
    variant = house_rules(tmp_path, "replace_power_cards", REPLACE_POWER_CARDS, 'extends = "french"\n')
    game = tamalou.new_game(variant, 2, deal=POWER_CARD_DEAL, first_player=0)
    g = round_of(game)
    before = game.to_json()
    totals, _, _, _, _ = g.standing()
    assert totals == [11, 21] and game.to_json() == before  # judged on a copy: nothing moved
    assert round_of(tamalou.new_game("french", 2, deal=POWER_CARD_DEAL, first_player=0)).standing()[0] == [15, 21]
    events = scenario.calling_turn(g)  # seat 0 draws 5C, throws it and calls
    events += g.apply(Draw(1, "stock")) + g.apply(Discard(1))  # seat 1 draws 6C and throws it: the last turn
    assert g.standing()[0] == [6, 21]
    events += scenario.play_out(g)
    replaced = [e for e in events if e.type == "replaced_from_stock"]
    assert [e.to_dict() for e in replaced] == [
        {"type": "replaced_from_stock", "player": 0, "slot": 3, "thrown": "9S", "card": "KH"}
    ]
    assert replaced[0].describe() == "player 0's slot 3: 9S is thrown and replaced from the stock by KH, face up"
    result = game.result()
    over = next(e for e in events if e.type == "round_over")
    assert over.data["hands"][0] == ["AS", "2S", "3S", "KH"] and result.totals == [6, 21]
    assert g.is_up(0, 3)  # the red king lies face up where the 9S was
    assert all(replaced[0].for_player(p) == replaced[0] for p in (0, 1))  # public: every seat reads the same


# ------------------------------------------------------------------ a suitless deck from -2, redrawn power cards

#: A Skyjo-like deck without suits, from -2 to 3, and power cards P (a peek at one's own card) that may not start
#: the discard.
LOW_DECK = """
name = "low-deck"
[rules.deck]
suits = []
ranks = ["-2", "-1", "0", "1", "2", "3", "P"]
[rules.deck.counts]
"-2" = 5
"-1" = 10
"0" = 15
P = 3
[rules.values.ranks]
P = 10
[rules.powers.ranks]
P = "peek_own"
[rules.deal]
first_player = 0
discard_redraw = ["P"]
"""


def test_a_minus_two_rank_is_written_as_such_and_valued_by_its_number() -> None:
    """Rank names may be negative numbers in a deck without suits (``-2``, ``-1``), worth their number without a
    ``values`` entry; their cards are written as the rank alone, in deals, actions, events and snapshots. ``show``
    counts the deck rank by rank."""
    variant = tamalou.variant_from_toml(LOW_DECK)
    assert tamalou.card_value(variant, "-2") == -2 and tamalou.card_value(variant, "-1") == -1
    assert tamalou.card_value(variant, "3") == 3 and tamalou.card_value(variant, "P") == 10
    assert tamalou.Card.parse("-2") == tamalou.Card("-2", "") and str(tamalou.Card("-2", "")) == "-2"
    deal = {"hands": [["-2", "-2", "-1", "0"], ["3", "2", "P", "1"]], "stock": ["0", "-1", "1"], "discard": ["2"]}
    game = tamalou.new_game(variant, 2, deal=deal, first_player=0)
    assert round_of(game).standing()[0] == [-5, 16]
    scenario.calling_turn(round_of(game))
    scenario.play_out(round_of(game))
    assert game.result().totals == [-5, 16] and game.result().winners == [0]
    assert tamalou.Game.from_json(game.to_json()).result() == game.result()
    words = effective_rules(variant).deck
    assert words == "45 cards without suits: -2 ×5, -1 ×10, 0 ×15, 1 to 3 ×4 each, P ×3"


def test_rank_names_refuse_what_is_no_number() -> None:
    """``--2``, ``-A`` and ``-100`` are no rank names (a negative number has one or two digits)."""
    for wrong in ("--2", "-A", "-100"):
        with pytest.raises(tamalou.VariantError, match="rank name"):
            tamalou.variant_from_toml(LOW_DECK.replace('"-2", "-1"', f'"{wrong}", "-1"').replace('"-2" = 5', ""))


def test_a_power_card_turned_up_at_the_deal_is_buried_and_another_turned_up() -> None:
    """``rules.deal.discard_redraw``: the P turned up to start the discard is buried at the bottom of the stock and
    the stock's top is turned up; again when that is a P too; an event each, after ``dealt`` (which names the card
    that stays). Nobody knows the cards of the stock."""
    variant = tamalou.variant_from_toml(LOW_DECK)
    deal = {"hands": [["-2", "-2", "-1", "0"], ["3", "2", "1", "1"]], "stock": ["P", "0", "-1"], "discard": ["P"]}
    game = tamalou.new_game(variant, 2, deal=deal, first_player=0)
    events = game.events_so_far()
    assert [e.to_dict() for e in events if e.type == "redrawn"] == [
        {"type": "redrawn", "card": "P", "discard_top": "P"},
        {"type": "redrawn", "card": "P", "discard_top": "0"},
    ]
    assert events[0].type == "dealt" and events[0].data["discard_top"] == "0"
    assert events[1].describe() == "P may not start the discard: it is buried in the stock and P is turned up"
    view = game.view(0)
    assert view.discard == ["0"] and view.stock_size == 3
    g = round_of(game)
    assert [g.text[c] for c in reversed(g.stock)] == ["-1", "P", "P"] and all(g.knowers[c] == 0 for c in g.stock)
    plain = tamalou.variant_from_toml(LOW_DECK.replace('discard_redraw = ["P"]', ""))
    assert tamalou.new_game(plain, 2, deal=deal, first_player=0).view(0).discard == ["P"]
    only_powers = {"hands": deal["hands"], "stock": ["P", "P"], "discard": ["P"]}  # no card may stay: the last does
    assert tamalou.new_game(variant, 2, deal=only_powers, first_player=0).view(0).discard == ["P"]


def test_discard_redraw_names_ranks_or_cards_of_the_deck() -> None:
    with pytest.raises(tamalou.VariantError, match=r"rules\.deal\.discard_redraw: expected a rank of the deck"):
        tamalou.variant_from_toml(LOW_DECK.replace('discard_redraw = ["P"]', 'discard_redraw = ["Q"]'))
    french = tamalou.variant_from_toml(
        'name = "no-king-first"\nextends = "french"\n[rules.deal]\ndiscard_redraw = ["K", "jh"]\n'
    )
    assert french.rules.deal.discard_redraw == ("K", "JH")


# ------------------------------------------------------------------ a call nobody checks; the bots' calling level


def test_show_says_any_total_may_call_when_no_rule_reads_the_threshold() -> None:
    """The threshold is read by a verified call, by winners bounded by it, or by a plugin's end-of-round hook: with
    none of them, any total may call and the threshold is only where the bots call."""
    low = effective_rules(tamalou.variant_from_toml(LOW_DECK))
    assert not low.threshold_read
    assert low.call[0] == "any total may call (no rule reads the call threshold; the bots call at 5 points or less)"
    verified = tamalou.variant_from_toml(LOW_DECK + "[rules.call]\nverified = true\n")
    assert effective_rules(verified).threshold_read
    assert effective_rules("french").threshold_read  # its plugin scores a caller by the threshold


def test_the_bots_calling_level_is_a_setting() -> None:
    """``call_at`` sets the total at or under which a bot calls (default: the ruleset's threshold); a bot's name
    may carry it (``greedy:call_at=8``), for the command line."""
    from tamalou.bots import GreedyBot, ISMCTSBot, make_bot

    assert GreedyBot(1, "french").call_level == 5 and GreedyBot(1, "french", call_at=9).call_level == 9
    assert make_bot("greedy:call_at=8").call_level == 8  # type: ignore[attr-defined]
    assert ISMCTSBot(1, call_at=-3).call_at == -3 and ISMCTSBot(1, call_at=-3).fallback.call_at == -3
    with pytest.raises(ValueError, match="call_at=N"):
        make_bot("random:call_at=3")
    # the level decides: with every card known at 3 points, a bot calling at 2 passes, one calling at 3 calls
    deal = {"hands": [["AS", "2S"], ["9H", "9D"]], "stock": ["5C", "6C", "5H"], "discard": ["3D"]}
    two = tamalou.variant_from_toml(
        'name = "two-cards"\nextends = "french"\n[rules.deal]\ncards = 2\n[rules.peek]\nslots = [0, 1]\n'
    )
    for level, calls in ((2, False), (3, True)):
        game = tamalou.new_game(two, 2, deal=deal, first_player=0)
        bot = GreedyBot(0, two, call_at=level)
        while game.phase != "call":
            game.apply(bot.act(game.view(0), game.legal_actions(0)))
        chosen = bot.act(game.view(0), game.legal_actions(0))
        assert isinstance(chosen, tamalou.Call) is calls


# ------------------------------------------------------------------ the bots keep a card where it completes a column

COLUMNS = '''
"""Columns of one rank cancel: in a grid of 2 rows, a full column whose cards share a rank scores 0."""
import tamalou


class Columns(tamalou.Mechanic):
    name = "columns"

    def place_worth(self, view, slot, card, worth):
        columns = view.grid[1]
        mine = view.hands[view.player]
        other = next((s for s in mine if s.slot % columns == slot % columns and s.slot != slot), None)
        if card is None or other is None or other.card is None or other.card[:-1] != card[:-1]:
            return None                                  # no column completed: the card counts its value
        return -worth.value(other.card)                  # the column cancels: its other card no longer counts


@tamalou.hookimpl
def tamalou_mechanics():
    return [Columns]


@tamalou.hookimpl
def tamalou_round_scores(variant, tally, winners):
    rows, columns = variant.rules.deal.grid
    scores = []
    for total, layout in zip(tally.totals, tally.layouts):
        for c in range(columns):
            cells = [layout[c + r * columns] if c + r * columns < len(layout) else None for r in range(rows)]
            if None not in cells and len({card[:-1] for card in cells}) == 1:
                total -= sum(tamalou.card_value(variant, card) for card in cells)
        scores.append(total)
    return scores
'''

GRID = "[rules.deal]\ngrid = [2, 2]\nfirst_player = 0\n[rules.matching]\nenabled = false\n"

#: Seat 0 sees its top row, 9S (above its slot 2) and 2S; it draws the 9 of hearts. Kept in slot 2, below the 9S,
#: it cancels the column: 9 + 9 count 0, a gain of the unseen card there plus 9 (the 9H, worth -9 where it lies).
#: Counted at their values alone, no slot gains from a 9: the bots throw it.
COLUMN_DEAL = {
    "hands": [["9S", "2S", "KC", "QD"], ["4D", "5D", "6D", "7D"]],
    "stock": ["9H", "5C", "6C"],
    "discard": ["3D"],
}


def test_the_bots_keep_a_card_where_a_mechanic_says_it_is_worth_more(tmp_path: Path) -> None:
    """``Mechanic.place_worth`` (the bots contract): the greedy and cautious bots and the ISMCTS rollouts keep the
    drawn 9H in slot 2, completing the column of the 9S; with the same scoring but no hint (the method renamed),
    each throws it, as it counts each card at its value."""
    from tamalou.bots import CautiousBot, GreedyBot
    from tamalou.bots.ismcts import RolloutPolicy

    hinted = house_rules(tmp_path, "columns", COLUMNS, f'extends = "french"\n{GRID}')
    blind = house_rules(
        tmp_path, "columns_blind", COLUMNS.replace("def place_worth", "def _place_worth"), f'extends = "french"\n{GRID}'
    )
    for variant, kept in ((hinted, tamalou.Replace(0, 2)), (blind, tamalou.Discard(0))):
        for bot in (GreedyBot(0, variant), CautiousBot(0, variant)):
            game = tamalou.new_game(variant, 2, deal=COLUMN_DEAL, first_player=0)
            game.apply(Draw(0, "stock"))
            assert bot.act(game.seat_view(0), game.legal_actions(0)) == kept, (variant.name, bot)
        g = round_of(tamalou.new_game(variant, 2, deal=COLUMN_DEAL, first_player=0))
        g.apply(Draw(0, "stock"))
        policy = RolloutPolicy(g.rb, random.Random(0))
        assert policy.choose(g, 0, g.legal_actions(0)) == kept, variant.name
    # the rule itself: the column of two 9s scores 0 at the end
    game = tamalou.new_game(hinted, 2, deal=COLUMN_DEAL, first_player=0)
    g = round_of(game)
    game.apply(Draw(0, "stock"))
    game.apply(tamalou.Replace(0, 2))
    scenario.play_out(g)  # nobody calls: quiet turns until the stock runs out
    assert game.result().scores[0] == 2 + 10  # 9S and 9H cancel: 2S and QD count
