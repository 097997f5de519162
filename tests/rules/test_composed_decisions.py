"""Composable end-of-round decisions: a house tie-break is added to a ruleset's ranking, never replacing it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tamalou
from tamalou import Tally
from tamalou.rules import rulebook

HOUSE = 'extends = "french"\nplugins = ["plugins_for_tests.fewest_cards_tiebreak"]\n'


@pytest.fixture
def house(tmp_path: Path) -> tamalou.Variant:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE, encoding="utf-8")
    return tamalou.load_variant(path)


def three_way_tie(counts: tuple[int, int, int]) -> Tally:
    """Three players on 3 points; seat 0 called."""
    return Tally(totals=(3, 3, 3), card_counts=counts, caller=0, threshold=5)


def test_french_alone_the_caller_loses_the_tie_and_the_others_share_first_place() -> None:
    ranking, winners, _ = rulebook(tamalou.load_variant("french")).judge(three_way_tie((4, 4, 3)))
    assert ranking == [[1, 2], [0]]
    assert winners == [1, 2]


def test_a_house_tiebreak_comes_after_the_caller_rule_instead_of_replacing_it(house: tamalou.Variant) -> None:
    ranking, winners, _ = rulebook(house).judge(three_way_tie((4, 4, 3)))
    assert ranking == [[2], [1], [0]]  # the caller still last; seat 2 has fewer cards than seat 1
    assert winners == [2]


def test_the_caller_rule_comes_first_even_with_fewer_cards(house: tamalou.Variant) -> None:
    ranking, _, _ = rulebook(house).judge(three_way_tie((2, 4, 3)))
    assert ranking == [[2], [1], [0]]


def test_the_french_caller_over_the_threshold_still_cannot_win(house: tamalou.Variant) -> None:
    tally = Tally(totals=(6, 7, 7), card_counts=(4, 4, 3), caller=0, threshold=5)
    ranking, winners, _ = rulebook(house).judge(tally)
    assert ranking == [[2], [0], [1]]
    assert winners == [2]


def test_ranking_rule_lists_every_tiebreak_in_order(house: tamalou.Variant) -> None:
    lines = tamalou.ranking_rule(house)
    ties = [line for line in lines if line.startswith("tie-break")]
    assert ties == ["tie-break 1: the caller loses ties", "tie-break 2: fewer cards in front of you wins a tie"]
    assert "plugin tamalou.plugins.french" in lines[0]


def test_rank_by_total_takes_tiebreak_objects_and_builtin_names() -> None:
    tally = Tally(totals=(2, 2, 1), card_counts=(3, 4, 4), caller=1, threshold=5)
    assert tamalou.rank_by_total(tally, ["caller_ahead"]) == [[2], [1], [0]]
    assert tamalou.rank_by_total(tally, [tamalou.plugins.defaults.FEWER_CARDS]) == [[2], [0], [1]]
    assert tamalou.rank_by_total(tally, []) == [[2], [0, 1]]


def test_a_tiebreak_hook_that_returns_something_else_is_an_error_at_load(tmp_path: Path) -> None:
    mod = tmp_path / "bad_tiebreak_mod.py"
    mod.write_text(
        "import tamalou\n@tamalou.hookimpl\ndef tamalou_tiebreaks(variant):\n    return ['fewer']\n", encoding="utf-8"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        path = tmp_path / "bad.toml"
        path.write_text('extends = "french"\nplugins = ["bad_tiebreak_mod"]\n', encoding="utf-8")
        with pytest.raises(tamalou.VariantError, match=r"tamalou_tiebreaks.*expected tamalou\.TieBreak"):
            tamalou.load_variant(path)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("bad_tiebreak_mod", None)


def test_whole_games_on_the_house_rule_end_with_the_composed_ranking(house: tamalou.Variant) -> None:
    from tamalou.bots import RandomBot

    for seed in range(20):
        g = tamalou.new_game(house, players=3, seed=seed)
        bots = [RandomBot(seed * 10 + p) for p in range(3)]
        while not g.is_over:
            p = g.current_player
            action = bots[p].act(g.view(p), g.legal_actions(p))
            assert action is not None
            g.apply(action)
        r = g.result()
        tally = Tally(totals=tuple(r.totals), card_counts=tuple(r.card_counts), caller=r.caller, threshold=5)
        assert r.ranking == rulebook(house).judge(tally)[0]


def test_a_wrapper_adjusts_the_scores_of_the_rule_it_builds_on(tmp_path: Path) -> None:
    path = tmp_path / "wrapped.toml"
    path.write_text('extends = "french"\nplugins = ["plugins_for_tests.score_wrapper"]\n', encoding="utf-8")
    wrapped = tamalou.load_variant(path)
    plain = rulebook(tamalou.load_variant("french"))
    for tally in (
        Tally(totals=(3, 4, 9), card_counts=(4, 4, 4), caller=0, threshold=5),  # the caller wins: 0, then -5
        Tally(totals=(4, 3, 9), card_counts=(4, 4, 4), caller=0, threshold=5),  # the caller loses: +10
    ):
        _, winners, scores = rulebook(wrapped).judge(tally)
        _, plain_winners, plain_scores = plain.judge(tally)
        assert winners == plain_winners
        assert scores == [s - 5 if p in winners else s for p, s in enumerate(plain_scores)]
    assert rulebook(wrapped).judge(Tally(totals=(3, 4, 9), card_counts=(4, 4, 4), caller=0, threshold=5))[2] == [
        -5,
        4,
        9,
    ]
