"""Composable end-of-round decisions: a house tie-break is added to a ruleset's ranking, never replacing it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import scenario
import tamalou
from tamalou import Tally
from tamalou.engine.rulebook import rulebook

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
    assert ties == [
        "tie-break 1: the caller loses ties",
        "tie-break 2: fewer cards in front of you wins a tie (added by plugin plugins_for_tests.fewest_cards_tiebreak)",
    ]
    assert "plugin tamalou.plugins.french" in lines[0]


NO_TIES = 'name = "french-no-ties"\nextends = "french"\n[rules.end]\nties = []\n'


def test_decided_ties_empty_over_french_leaves_a_tie_shared_and_show_says_so() -> None:
    """Decided: "A `ties` list in a ruleset file decides the tie-breaks ... `ties = []` over `french` leaves a
    tie at the lowest total shared." The caller's tie rule is French's ``ties = ["caller_behind"]``, a key: the
    French plugin adds no tie-break of its own (it did, so ``ties = []`` still applied it). A caller over the
    threshold still cannot win (the French plugin's ranking), tied or not."""
    french = tamalou.load_variant("french")
    no_ties = tamalou.variant_from_toml(NO_TIES)
    tie = Tally(totals=(4, 4, 9), card_counts=(4, 4, 4), caller=0, threshold=5)
    assert rulebook(french).judge(tie)[:2] == ([[1], [0], [2]], [1])
    assert rulebook(no_ties).judge(tie)[:2] == ([[0, 1], [2]], [0, 1])
    over = Tally(totals=(6, 6, 9), card_counts=(4, 4, 4), caller=0, threshold=5)  # a 6-6 tie, the caller over 5
    assert rulebook(no_ties).judge(over)[:2] == ([[1], [0], [2]], [1])
    lines = tamalou.ranking_rule(no_ties)
    assert "tie-breaks: none (players with the same total share a place)" in lines
    assert not any(line.startswith("tie-break ") for line in lines)
    assert "tie-break 1: the caller loses ties" in tamalou.ranking_rule(french)


def test_ties_empty_over_french_a_6_6_tie_in_play_is_shared() -> None:
    """The same in a stacked deal: a house rule over ``french`` with ``ties = []`` and a threshold of 6; the
    caller calls at 6 and ties an opponent at 6: both win (French alone: the opponent)."""
    house = tamalou.variant_from_toml(NO_TIES + "[rules.call]\nthreshold = 6\n")
    french = tamalou.variant_from_toml(
        NO_TIES.replace("ties = []", 'ties = ["caller_behind"]') + "[rules.call]\nthreshold = 6\n"
    )
    results = []
    for v in (house, french):
        g = scenario.deal(
            [["AS", "AH", "2S", "2H"], ["3S", "3H", "KH", "KD"]],  # p0: 6 points; p1: 6 (red kings are 0)
            stock=["4C", "4D", "5C"],
            discard=["9D"],
            variant=v,
        )
        scenario.calling_turn(g)  # p0 throws the 4C and calls at 6
        scenario.quiet_turn(g)  # p1 throws the 4D: the round ends
        results.append(g.result())
    assert [r.totals for r in results] == [[6, 6], [6, 6]] and results[0].caller == 0
    assert results[0].winners == [0, 1] and results[0].ranking == [[0, 1]]
    assert results[1].winners == [1] and results[1].ranking == [[1], [0]]


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


def test_ranking_rule_says_each_step_of_the_decision_in_words() -> None:
    """``ranking_rule`` (what ``tamalou show`` prints) words the whole decision: the default ranking, or the
    plugin that replaces it and what it falls back on; the tie-breaks; who wins, with the bound of the
    winners' total (the call threshold, or a number); the scores, with the caller's 0 when they win and the
    penalty when they do not. Pinned by mutation testing (docs/mutation.md)."""
    default_rank = "ranking: lowest total first; players who left the round last"
    assert tamalou.ranking_rule("cambia") == [
        default_rank,
        "tie-break 1: the caller wins ties",
        "winners: the first place",
        "round scores: each player's card total",
    ]
    assert tamalou.ranking_rule("dutch")[2:] == [
        "winners: the first place",
        "round scores: each player's card total; a caller who does not win adds 10",
    ]
    assert tamalou.ranking_rule("cartalogue")[2] == "winners: the first place, at or under 5 points"
    seven = tamalou.variant_from_toml('name = "cambia-seven"\nextends = "cambia"\n[rules.end]\nwin_max = 7\n')
    assert tamalou.ranking_rule(seven)[2] == "winners: the first place, at or under 7 points"
    french = tamalou.ranking_rule("french")
    assert french[0].endswith(f"(plugin tamalou.plugins.french; where it has no answer: {default_rank})")
    assert french[3] == (
        "round scores: each player's card total; a caller who wins scores 0; a caller who does not win adds 10"
    )


def test_an_old_style_hookwrapper_is_refused_and_the_error_names_its_plugin(tmp_path: Path) -> None:
    """A decision hook wrapped the old pluggy way (``hookwrapper=True``) is refused when the round is judged, with
    a ``PluginError`` that names the plugin and says what to use instead. Pinned by mutation testing
    (docs/mutation.md)."""
    mod = tmp_path / "old_style_wrapper_mod.py"
    mod.write_text(
        "import tamalou\n"
        "@tamalou.hookimpl(hookwrapper=True)\n"
        "def tamalou_round_scores(variant, tally, winners):\n"
        "    yield\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(tmp_path))
    try:
        path = tmp_path / "old.toml"
        path.write_text('extends = "french"\nplugins = ["old_style_wrapper_mod"]\n', encoding="utf-8")
        old = tamalou.load_variant(path)
        with pytest.raises(tamalou.PluginError, match="old-style hookwrapper=True is not supported") as info:
            rulebook(old).judge(three_way_tie((4, 4, 3)))
        assert info.value.plugin == "old_style_wrapper_mod"
        assert info.value.hook == "tamalou_round_scores"
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("old_style_wrapper_mod", None)


def test_a_tiebreak_hook_that_raises_is_an_error_at_load_that_says_where(tmp_path: Path) -> None:
    """A ``tamalou_tiebreaks`` hook that raises makes the ruleset fail to load: a ``VariantError`` on the ruleset's
    ``plugins`` key, naming the plugin, the exception, and the file and line it was raised at. Pinned by mutation
    testing (docs/mutation.md)."""
    mod = tmp_path / "raising_tiebreak_mod.py"
    mod.write_text(
        "import tamalou\n@tamalou.hookimpl\ndef tamalou_tiebreaks(variant):\n    raise KeyError('oops')\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(tmp_path))
    try:
        path = tmp_path / "raising.toml"
        path.write_text('extends = "french"\nplugins = ["raising_tiebreak_mod"]\n', encoding="utf-8")
        with pytest.raises(tamalou.VariantError) as info:
            tamalou.load_variant(path)
        message = str(info.value)
        assert "tamalou_tiebreaks of plugin 'raising_tiebreak_mod' raised KeyError('oops')" in message
        assert "(at " in message and "raising_tiebreak_mod.py:4)" in message
        assert [e.key for e in info.value.errors] == ["plugins"]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("raising_tiebreak_mod", None)


def test_a_ranking_hook_that_leaves_a_place_empty_is_the_plugins_error(tmp_path: Path) -> None:
    """A ``tamalou_rank`` hook ranks every player once, each place holding at least one: a ranking with an empty
    place is refused as the plugin's error, whatever players the other places hold. Pinned by mutation testing
    (docs/mutation.md)."""
    mod = tmp_path / "empty_place_mod.py"
    mod.write_text(
        "import tamalou\n@tamalou.hookimpl\ndef tamalou_rank(variant, tally):\n    return [[0], [], [1, 2]]\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(tmp_path))
    try:
        path = tmp_path / "empty.toml"
        path.write_text('extends = "french"\nplugins = ["empty_place_mod"]\n', encoding="utf-8")
        with pytest.raises(tamalou.PluginError) as info:
            rulebook(tamalou.load_variant(path)).judge(three_way_tie((4, 4, 3)))
        assert (info.value.plugin, info.value.hook) == ("empty_place_mod", "tamalou_rank")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("empty_place_mod", None)
