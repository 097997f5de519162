"""Matches of rounds: the ``multi-round`` modifier and ``tamalou.new_match`` (docs/rules/multi-round.md;
the caller's score follows the sheet author's answer to Patrice).

The rule is the French rule sheet "Le Tamalou", Variantes 3: "il est commun de convenir d’un nombre de
manches à jouer à l’issue duquel le joueur ayant le total de points le plus bas est déclaré gagnant.
Après chaque manche, les joueurs additionnent les points des cartes qu’ils ont dans leur jeu et les
ajoutent au total des manches précédentes. De cette façon, l’annonceur du Tamalou ne marque aucun point
s’il est gagnant [...] et marque une pénalité de 10 points s’il est perdant." — and the answer to
Patrice: "Plutôt qu'un nombre de manches limité, vous pouvez également opter pour une limite de points à
ne pas dépasser ; dans ce cas, la partie se termine dès lors qu'un joueur la franchit. Enfin, pour un
jeu plus simple, il est possible de comptabiliser le nombre de victoires : à chaque manche, le(s)
gagnant(s) marque(nt) 1 point."

``new_match`` deals seeded rounds, so the rounds here are played by a simple full-information
policy (draw, keep the lower card, call at 5 or less or after many turns) and every expectation is
computed from the cards on the table (``game.layout``) with the French rules written out below,
never read back from the engine's own scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import scenario
import tamalou
from scenario import deal
from tamalou import (
    Call,
    Discard,
    Draw,
    Match,
    Pass,
    PeekAction,
    Replace,
    Round,
    Variant,
)

# --------------------------------------------------------------------------------- French rules, written out


def french_value(card: str) -> int:
    """ "As, 2, 3, 4, 5, 6, 7, 8, 9 et 10 : valeur numérique", "Valet et Dame : 10 points",
    "♠Roi et ♣Roi : 15 points", "♥Roi et ♦Roi : 0 point" """
    rank, suit = card[:-1], card[-1]
    if rank == "K":
        return 15 if suit in "SC" else 0
    if rank in ("J", "Q"):
        return 10
    if rank == "A":
        return 1
    return int(rank)


def expected_round(g: Round) -> tuple[list[int], list[int]]:
    """(winners, scores) of a finished French round, from the cards on the table.

    "L’annonceur du Tamalou gagne s’il totalise un maximum de 5 points et s’il a moins de points que
    ses adversaires. Si l’une ou l’autre condition n’est pas remplie, c’est l’adversaire totalisant le
    moins de points qui remporte la partie." Scores (Variantes 3, Decided): the card total;
    the caller 0 if they won, their total + 10 if they lost."""
    totals = [sum(french_value(c) for c in g.layout(p) if c is not None) for p in range(g.players)]
    caller = g.caller
    if caller is None:
        winners = [p for p in range(g.players) if totals[p] == min(totals)]
    else:
        others = [p for p in range(g.players) if p != caller]
        if totals[caller] <= 5 and all(totals[caller] < totals[q] for q in others):
            winners = [caller]
        else:
            lowest = min(totals[q] for q in others)
            winners = [q for q in others if totals[q] == lowest]
    scores = list(totals)
    if caller is not None:
        scores[caller] = 0 if caller in winners else totals[caller] + 10
    return winners, scores


def ranking_of(totals: Sequence[int], best: str) -> list[list[int]]:
    """Places, best first ('low' or 'high' totals first); equal totals share a place."""
    order = sorted(set(totals), reverse=best == "high")
    return [[p for p in range(len(totals)) if totals[p] == t] for t in order]


# --------------------------------------------------------------------------------- helpers


def variant(tmp_path: Path, name: str, extends: Sequence[str] = ("french", "multi-round"), **rounds: Any) -> Variant:
    """A variant file in ``tmp_path`` that extends ``extends`` and sets ``[rules.rounds]`` keys."""
    lines = [f'name = "{name}"', "extends = [" + ", ".join(f'"{e}"' for e in extends) + "]", "", "[rules.rounds]"]
    for key, value in rounds.items():
        lines.append(f"{key} = {value}" if isinstance(value, int) else f'{key} = "{value}"')
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tamalou.load_variant(path)


def step(g: Round, call_after: int = 30) -> None:
    """One action of a simple full-information policy: draw from the stock, keep the drawn card in
    place of a higher one, decline powers, call at 5 or less (or once ``call_after`` turns passed)."""
    if g.phase == "peek":
        p = next(q for q in range(g.players) if g.legal_actions(q))
        g.apply(PeekAction(p, (0, 1)))
        return
    p = g.current_player
    legal = g.legal_actions(p)
    if g.phase == "draw":
        if legal == [Call(p)]:
            g.apply(Call(p))
        else:
            g.apply(Draw(p, "stock") if Draw(p, "stock") in legal else Draw(p, "discard"))
    elif g.phase == "hold":
        held = g.view(p).held
        assert held is not None
        layout, occupied = g.layout(p), g.occupied(p)
        worst = max(occupied, key=lambda s: (french_value(layout[s] or ""), s)) if occupied else None
        if worst is not None and (french_value(held) < french_value(layout[worst] or "") or Discard(p) not in legal):
            g.apply(Replace(p, worst))
        else:
            g.apply(Discard(p))
    elif g.phase == "call":
        g.apply(Call(p) if g.total(p) <= 5 or g.turn >= call_after else Pass(p))
    else:  # power, swap, closing
        g.apply(Pass(p))


def play_round(g: Round, call_after: int = 30) -> None:
    while not g.is_over:
        step(g, call_after)


def play_match(m: Match) -> list[tuple[list[int], list[int]]]:
    """Play every round to the end; return each round's expected (winners, scores)."""
    out = []
    while not m.is_over:
        rd = tamalou.round_of(m.game)
        play_round(rd)
        out.append(expected_round(rd))
        m.next_round()
    return out


def stacked(v: Variant, hands: Sequence[Sequence[str]]) -> Round:
    """A French stacked deal; seat 0 plays first, calls on its first turn; the others play a quiet
    last turn, and nobody matches the last thrown card in the closing window. The hands never change."""
    pool = [c for c in ("6C", "5C", "3C", "2C", "6D", "5D") if all(c not in h for h in hands)]
    g = deal(hands, stock=pool[1 : len(hands) + 1], discard=pool[:1], variant=v)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(Call(0))
    while not g.is_over:
        p = g.current_player
        if g.phase == "closing":
            g.apply(Pass(p))
            continue
        g.apply(Draw(p, "stock"))
        g.apply(Discard(p))
    return g


# --------------------------------------------------------------------------------- the variant


def test_modifier_alone_is_french_played_as_five_rounds() -> None:
    """ "convenir d’un nombre de manches à jouer" — Decided: 5 rounds by default; loaded
    alone, the modifier applies to French."""
    french = tamalou.load_variant("french")
    v = tamalou.load_variant("multi-round")
    assert tamalou.load_variant("manches").rules == v.rules == tamalou.load_variant(["french", "multi-round"]).rules
    assert v.rules.rounds.form == "fixed" and v.rules.rounds.count == 5 and v.rules.rounds.limit == 100
    assert v.rules.model_dump(exclude={"rounds"}) == french.rules.model_dump(exclude={"rounds"})
    assert french.rules.rounds.form == "single"
    m = tamalou.new_match("multi-round", players=3, seed=4)
    expected = play_match(m)
    assert len(expected) == 5 and m.result().rounds == [s for _, s in expected]


def test_ruling_03_caller_scores_zero_if_won_total_plus_ten_if_lost() -> None:
    """Patrice, Variantes 3: "l’annonceur du Tamalou ne marque aucun point s’il est gagnant (c’est-à
    dire s’il totalise 5 points ou moins et moins de points que ses adversaires) et marque une pénalité
    de 10 points s’il est perdant." The others score their card total."""
    v = tamalou.load_variant("multi-round")
    won = stacked(v, [["AS", "2S", "KH", "KD"], ["9S", "9H", "9D", "9C"], ["4S", "4H", "AH", "KC"]])
    assert won.result().totals == [3, 36, 24] and won.result().winners == [0]
    assert won.result().scores == [0, 36, 24]
    over_five = stacked(v, [["AS", "2S", "3S", "KH"], ["9S", "9H", "9D", "9C"]])  # 6: lowest, but over 5
    assert over_five.result().winners == [1] and over_five.result().scores == [16, 36]
    tied = stacked(v, [["AS", "AH", "2S", "KH"], ["AD", "AC", "2H", "KD"]])  # 4 and 4: the caller loses
    assert tied.result().winners == [1] and tied.result().scores == [14, 4]
    for g in (won, over_five, tied):
        assert list(g.result().scores) == expected_round(g)[1]
    # French's own file already scores a round so (the answer to Patrice); a single round is just not added up.
    single = stacked(tamalou.load_variant("french"), [["AS", "2S", "3S", "KH"], ["9S", "9H", "9D", "9C"]])
    assert single.result().scores == [16, 36]


def test_ruling_03_scoring_composes_over_cartalogue() -> None:
    """The modifier's scoring ("ne marque aucun point s’il est gagnant", "une pénalité de 10 points")
    is its own key: composed over Cartalogue, it replaces Cartalogue's plain totals."""
    cartalogue = tamalou.load_variant("cartalogue")
    v = tamalou.load_variant(["cartalogue", "multi-round"])
    assert (cartalogue.rules.scoring.caller_won, cartalogue.rules.scoring.caller_lost_penalty) == ("total", 0)
    assert (v.rules.scoring.caller_won, v.rules.scoring.caller_lost_penalty) == ("zero", 10)
    assert v.rules.model_dump(exclude={"scoring", "rounds"}) == cartalogue.rules.model_dump(
        exclude={"scoring", "rounds"}
    )
    m = tamalou.new_match(v, players=3, seed=8)
    seen_won = seen_lost = False
    while not m.is_over:
        play_round(tamalou.round_of(m.game))
        result = m.game.result()
        expected = list(result.totals)
        if result.caller is not None:
            c = result.caller
            seen_won |= c in result.winners
            seen_lost |= c not in result.winners
            expected[c] = 0 if c in result.winners else result.totals[c] + 10
        assert result.scores == expected
        m.next_round()
    assert seen_won and seen_lost
    assert m.result().totals == [sum(r[p] for r in m.result().rounds) for p in range(3)]


# --------------------------------------------------------------------------------- the three forms


def test_fixed_form_count_rounds_lowest_cumulative_score_wins(tmp_path: Path) -> None:
    """ "un nombre de manches à jouer à l’issue duquel le joueur ayant le total de points le plus bas
    est déclaré gagnant. Après chaque manche, les joueurs additionnent les points des cartes qu’ils ont
    dans leur jeu et les ajoutent au total des manches précédentes." """
    v = variant(tmp_path, "three-rounds", form="fixed", count=3)
    m = tamalou.new_match(v, players=3, seed=0)
    rounds: list[list[int]] = []
    callers_won: list[bool] = []
    for k in range(3):
        assert m.round == k and not m.is_over
        rd = tamalou.round_of(m.game)
        play_round(rd)
        winners, scores = expected_round(rd)
        assert m.game.result().winners == winners
        assert m.game.result().scores == scores
        if rd.caller is not None:
            callers_won.append(rd.caller in winners)
        rounds.append(scores)
        m.next_round()
        assert m.totals() == [sum(r[p] for r in rounds) for p in range(3)]
    assert m.is_over
    assert True in callers_won and False in callers_won  # both halves of the caller's scoring were played
    result = m.result()
    totals = [sum(r[p] for r in rounds) for p in range(3)]
    assert result.form == "fixed"
    assert result.rounds == rounds and result.totals == totals
    assert result.ranking == ranking_of(totals, "low")
    assert result.winners == [p for p in range(3) if totals[p] == min(totals)]
    with pytest.raises(RuntimeError):
        m.next_round()  # no fourth round


def test_points_form_ends_when_a_cumulative_score_passes_the_limit(tmp_path: Path) -> None:
    """Patrice: "une limite de points à ne pas dépasser ; dans ce cas, la partie se termine dès lors
    qu'un joueur la franchit." — passes: a score equal to the limit does not end the match."""
    probe = tamalou.new_match(variant(tmp_path, "probe", form="points", limit=10**6), players=3, seed=6)
    probe_round = tamalou.round_of(probe.game)
    play_round(probe_round)
    first = expected_round(probe_round)[1]
    limit = max(first)
    # The same seed deals the same rounds whatever the limit; the policy plays them the same way.
    at_limit = tamalou.new_match(variant(tmp_path, "at-limit", form="points", limit=limit), players=3, seed=6)
    under = tamalou.new_match(variant(tmp_path, "under", form="points", limit=limit - 1), players=3, seed=6)
    for m in (at_limit, under):
        rd = tamalou.round_of(m.game)
        play_round(rd)
        assert rd.layout(0) == probe_round.layout(0) and expected_round(rd)[1] == first
        m.next_round()
    assert under.is_over and under.result().rounds == [first]
    assert under.result().winners == [p for p in range(3) if first[p] == min(first)]
    assert not at_limit.is_over and at_limit.round == 1  # reaching the limit is not passing it
    with pytest.raises(RuntimeError):
        at_limit.result()
    # Played on, it stops at the first round where a cumulative score passes the limit.
    expected = [first, *(s for _, s in play_match(at_limit))]
    result = at_limit.result()
    assert result.form == "points" and result.rounds == expected
    cumulative = [[sum(r[p] for r in expected[: k + 1]) for p in range(3)] for k in range(len(expected))]
    assert all(max(c) <= limit for c in cumulative[:-1])
    assert max(cumulative[-1]) > limit
    assert result.totals == cumulative[-1]
    assert result.ranking == ranking_of(result.totals, "low")


def test_points_form_always_ends_max_rounds(tmp_path: Path) -> None:
    """A 'points' match that never reaches its limit still ends (a safety bound), after
    ``rounds.max_rounds`` rounds."""
    v = variant(tmp_path, "endless", form="points", limit=10**6, max_rounds=3)
    m = tamalou.new_match(v, players=2, seed=3)
    expected = play_match(m)
    assert len(expected) == 3
    result = m.result()
    assert result.rounds == [s for _, s in expected]
    assert max(result.totals) <= 10**6
    assert result.winners == ranking_of(result.totals, "low")[0]


def test_wins_form_each_rounds_winners_score_one_most_wins_wins(tmp_path: Path) -> None:
    """Patrice: "pour un jeu plus simple, il est possible de comptabiliser le nombre de victoires : à
    chaque manche, le(s) gagnant(s) marque(nt) 1 point." """
    v = variant(tmp_path, "four-wins", form="wins", count=4)
    m = tamalou.new_match(v, players=3, seed=1)
    expected = play_match(m)
    assert len(expected) == 4
    wins = [sum(1 for winners, _ in expected if p in winners) for p in range(3)]
    result = m.result()
    assert result.form == "wins"
    assert result.wins == wins and result.totals == wins
    assert result.rounds == [s for _, s in expected]  # the round scores are still kept
    assert result.ranking == ranking_of(wins, "high")
    assert result.winners == [p for p in range(3) if wins[p] == max(wins)]


@pytest.mark.parametrize(("form", "best"), [("fixed", "low"), ("wins", "high")])
def test_tied_players_share_the_match(tmp_path: Path, form: str, best: str) -> None:
    """ "le(s) gagnant(s)": players tied on the best total (or the most wins) share the win and the
    place. The first seed whose two-round match ends in a tie is looked for among 300."""
    v = variant(tmp_path, f"two-{form}", form=form, count=2)
    for seed in range(300):
        m = tamalou.new_match(v, players=3, seed=seed)
        expected = play_match(m)
        if form == "wins":
            totals = [sum(1 for winners, _ in expected if p in winners) for p in range(3)]
        else:
            totals = [sum(s[p] for _, s in expected) for p in range(3)]
        ranking = ranking_of(totals, best)
        if len(ranking[0]) > 1:
            break
    else:
        pytest.fail("no tied match in 300 seeds")
    result = m.result()
    assert result.totals == totals
    assert result.winners == ranking[0] and len(result.winners) > 1
    assert result.ranking == ranking


# --------------------------------------------------------------------------------- rounds and seats


def test_first_player_moves_one_seat_each_round(tmp_path: Path) -> None:
    """Decided (the sheet does not say who starts each round): the first player moves one seat each
    round."""
    v = variant(tmp_path, "six-rounds", form="fixed", count=6)
    m = tamalou.new_match(v, players=4, seed=9)
    firsts: list[int] = []
    while not m.is_over:
        g = tamalou.round_of(m.game)
        assert g.turn == 0 and g.current_player == g.first_player
        firsts.append(g.first_player)
        play_round(g)
        m.next_round()
    assert firsts == [(firsts[0] + k) % 4 for k in range(6)]
    # With a fixed first seat in the deal, the rotation starts there.
    path = tmp_path / "seat-two.toml"
    path.write_text(
        'name = "seat-two"\nextends = ["french", "multi-round"]\n\n[rules.deal]\nfirst_player = 2\n', encoding="utf-8"
    )
    m = tamalou.new_match(tamalou.load_variant(path), players=3, seed=9)
    firsts = []
    while not m.is_over:
        firsts.append(m.game.current_player)
        play_round(tamalou.round_of(m.game))
        m.next_round()
    assert firsts == [2, 0, 1, 2, 0]


def test_next_round_before_the_round_ends_raises(tmp_path: Path) -> None:
    v = variant(tmp_path, "two-rounds", form="fixed", count=2)
    m = tamalou.new_match(v, players=2, seed=5)
    with pytest.raises(RuntimeError):
        m.next_round()  # not a single action played
    rd = tamalou.round_of(m.game)
    step(rd)
    step(rd)
    before = m.to_json()
    with pytest.raises(RuntimeError):
        m.next_round()
    assert m.to_json() == before and m.round == 0


def test_result_before_the_match_ends_raises(tmp_path: Path) -> None:
    v = variant(tmp_path, "two-rounds", form="fixed", count=2)
    m = tamalou.new_match(v, players=2, seed=5)
    with pytest.raises(RuntimeError):
        m.result()
    play_round(tamalou.round_of(m.game))
    m.next_round()
    with pytest.raises(RuntimeError):
        m.result()  # one round of two
    play_round(tamalou.round_of(m.game))
    assert m.game.is_over and not m.is_over
    with pytest.raises(RuntimeError):
        m.result()  # the last round is over, but not scored yet
    m.next_round()
    assert m.is_over and len(m.result().rounds) == 2


# --------------------------------------------------------------------------------- snapshots and replays


def test_snapshot_mid_match_continues_identically(tmp_path: Path) -> None:
    v = variant(tmp_path, "three-rounds", form="fixed", count=3)
    m = tamalou.new_match(v, players=3, seed=8)
    play_round(tamalou.round_of(m.game))
    m.next_round()
    rd = tamalou.round_of(m.game)
    for _ in range(7):
        step(rd)
    snapshot = m.to_json()
    restored = Match.from_json(snapshot)
    assert restored.to_json() == snapshot
    assert restored.round == m.round == 1 and restored.actions == m.actions
    for match in (m, restored):
        play_match(match)
    assert restored.to_json() == m.to_json()
    assert restored.result() == m.result()
    assert restored.actions == m.actions


def test_replay_match_gives_the_same_json(tmp_path: Path) -> None:
    v = variant(tmp_path, "three-rounds", form="fixed", count=3)
    m = tamalou.new_match(v, players=3, seed=11)
    checkpoints = []
    play_round(tamalou.round_of(m.game))
    checkpoints.append(m.to_json())  # a round over, not scored yet
    m.next_round()
    rd = tamalou.round_of(m.game)
    for _ in range(5):
        step(rd)
    checkpoints.append(m.to_json())  # in the middle of round 2
    play_match(m)
    checkpoints.append(m.to_json())  # the end
    assert m.is_over
    # Each checkpoint replays from the seed and its actions.
    replayed = tamalou.replay_match(v, 3, seed=m.seed, actions=m.actions)
    assert replayed.to_json() == checkpoints[-1]
    assert replayed.result() == m.result()
    for snapshot in checkpoints[:-1]:
        saved = Match.from_json(snapshot)
        again = tamalou.replay_match(v, 3, seed=saved.seed, actions=saved.actions)
        assert again.to_json() == snapshot


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left("multi-round", [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
