"""The end-of-round hooks on made-up ends of rounds (``tamalou.verify.tallies``).

- ``synthetic_tallies`` is deterministic and bounded, and covers what random games rarely reach: every
  player count, emptied layouts, one card, the most cards, zero totals, ties at each total (between
  different hands too), nobody calling and each seat calling; its totals are the hands' values;
- ``check_end_hooks`` passes every built-in ruleset, and catches a tie-break that raises only when a tied
  player has an emptied layout (``tests/plugins_for_tests/tally_tiebreak.py``), which a short ``verify``
  run does not, and a ranking that leaves a player out (the engine refuses it: ``PluginError``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tamalou
from tamalou import InvariantViolation
from tamalou.verify import verify
from tamalou.verify.tallies import check_end_hooks, describe_tally, synthetic_tallies

BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken"


def test_synthetic_tallies_are_deterministic_and_bounded() -> None:
    first = list(synthetic_tallies("french"))
    assert first == list(synthetic_tallies("french"))
    assert 100 < len(first) < 10_000


def test_synthetic_tallies_cover_the_rare_ends() -> None:
    v = tamalou.load_variant("french")
    tallies = list(synthetic_tallies(v))
    assert {len(t.totals) for t in tallies} == set(range(v.rules.players.min, v.rules.players.max + 1))
    for t in tallies:  # consistent: totals and counts are the hands'
        assert t.totals == tuple(sum(tamalou.card_value(v, c) for c in hand) for hand in t.hands)
        assert t.card_counts == tuple(len(hand) for hand in t.hands)
        assert t.threshold == 5
    counts = {c for t in tallies for c in t.card_counts}
    assert {0, 1, 4, 8} <= counts  # emptied, one card, the deal, the most (twice the deal without a cap)
    assert any(0 in t.totals and t.card_counts[t.totals.index(0)] > 0 for t in tallies)  # 0 points, with cards
    callers = {(len(t.totals), t.caller) for t in tallies}
    assert all((n, c) in callers for n in range(2, 7) for c in [None, *range(n)])
    # ties between different hands: an emptied layout and a card worth 0; a card and two cards worth as much
    assert any(t.totals[0] == t.totals[1] and t.hands[0] != t.hands[1] and () in t.hands[:2] for t in tallies)
    assert any(t.totals[0] == t.totals[1] == 7 and {len(t.hands[0]), len(t.hands[1])} == {1, 2} for t in tallies)
    # a tie at every total a hand of the tallies has
    totals = {total for t in tallies for total in t.totals}
    assert all(any(t.totals.count(total) >= 2 for t in tallies) for total in totals)


def test_a_timed_ruleset_has_players_who_left() -> None:
    assert not any(t.left for t in synthetic_tallies("french"))
    timed = list(synthetic_tallies("tamalou-fun"))
    assert {(len(t.totals), t.left) for t in timed if t.left} == {(n, (k,)) for n in range(2, 6) for k in range(n)}


def test_synthetic_tallies_options() -> None:
    tallies = list(synthetic_tallies("french", players=[3], callers=False, most=12))
    assert {len(t.totals) for t in tallies} == {3}
    assert {t.caller for t in tallies} == {None}
    assert max(c for t in tallies for c in t.card_counts) == 12


@pytest.mark.parametrize("variant", tamalou.variant_names())
def test_builtin_rulesets_pass(variant: str) -> None:
    v = tamalou.load_variant(variant)
    assert check_end_hooks(v, players=sorted({v.rules.players.min, v.rules.players.max})) > 0


def test_a_tiebreak_raising_on_an_emptied_layout_is_caught() -> None:
    path = str(BROKEN / "tally_tiebreak.toml")
    with pytest.raises(InvariantViolation) as caught:
        check_end_hooks(path)
    assert caught.value.invariant == "end_hooks"
    message = str(caught.value)
    assert "IndexError" in message and "tamalou_rank" in message and "tally_tiebreak.py" in message
    assert "hands [] []" in message and "totals [0, 0]" in message  # the tally: two emptied layouts, tied
    # Random games do not reach it: the games of a short verify run pass, and the run fails on end_hooks alone.
    report = verify(path, games=10, workers=1)
    assert report.failed == {"end_hooks": 1}, report.failed
    (failure,) = report.details
    assert failure.actions == [] and "hands [] []" in failure.message


def test_a_ranking_leaving_a_player_out_is_caught() -> None:
    with pytest.raises(InvariantViolation) as caught:
        check_end_hooks(str(BROKEN / "ranking.toml"))
    assert caught.value.invariant == "end_hooks"
    assert "PluginError" in str(caught.value) and "every player" in str(caught.value)
    assert "called" in str(caught.value)


def test_describe_tally() -> None:
    t = tamalou.Tally(totals=(3, 0), card_counts=(1, 0), caller=1, threshold=5, left=(0,), hands=(("3S",), ()))
    assert describe_tally(t) == "totals [3, 0], hands [3S] [], player 1 called, left [0]"
