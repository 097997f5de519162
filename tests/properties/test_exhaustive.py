"""Exhaustive small deals (``tamalou.verify.exhaustive``): every sequence of legal actions of a stacked small deal to a
depth, the invariants checked at every node, and the nodes counted by depth against the golden counts of
``tests/data/perft/`` (``scripts/gen_perft.py`` writes them; a rule change that alters them fails here until they are
written again and reviewed), as python-chess keeps its perft results."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tamalou
import tiers
from tamalou.cli import app
from tamalou.verify import InvariantViolation, exhaustive, perft, small_deals

ROOT = Path(__file__).resolve().parents[2]
PERFT = ROOT / "tests" / "data" / "perft"
RULESETS = sorted(p.stem for p in (ROOT / "variants").glob("*.toml"))
#: The depth compared: the golden files go to 3, the fast tier compares the first depths.
DEPTH = tiers.sized(fast=2, deep=3)


def test_every_built_in_ruleset_has_its_golden_counts() -> None:
    assert sorted(p.stem for p in PERFT.glob("*.json")) == RULESETS


@pytest.mark.scaled
@pytest.mark.parametrize("name", RULESETS)
def test_the_node_counts_are_the_golden_ones_and_every_node_keeps_the_invariants(name: str) -> None:
    golden = json.loads((PERFT / f"{name}.json").read_text(encoding="utf-8"))
    report = exhaustive(name, DEPTH)  # (checked at every node: an invariant broken raises)
    assert report.counts() == {n: nodes[: DEPTH + 1] for n, nodes in golden["nodes"].items()}


def test_a_small_deal_per_player_count_with_a_short_stock() -> None:
    deals = small_deals("french")
    assert [d.players for d in deals] == [2, 3, 4, 5, 6]
    for d in deals:
        assert all(len(hand) == 2 for hand in d.deal["hands"]) and len(d.deal["stock"]) == 3
        assert d.deal["discard"][-1][:-1] == d.deal["hands"][0][0][:-1]  # a card of player 0 matches the discard
        assert tamalou.card_power("french", d.deal["stock"][0]) != "none"  # the stock's top card has a power
        assert len(d.deal["discard"]) == 1


# ----------------------------------------------------------------------------- French, counted without the engine


def _french_moves(state: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Every move listed to any seat in a French round, written from the rules alone (enough for the first two moves
    of a deal: the draw, the hold, matches right and wrong): ``(kind, player, slot)``. Player ``turn`` draws from the
    stock, or from the discard when it has a card and a slot to put it in; holding, replaces a slot or throws the card
    drawn from the stock (one taken from the discard must replace one). Out of turn and in turn alike, a player
    matches any occupied slot on the thrown card on offer, three cards at most, unless another player won that card
    already, and while a penalty card can still be given."""
    hands, turn, window = state["hands"], state["turn"], state["window"]
    moves: list[tuple[str, int, int]] = []
    if state["held"] is None:
        if state["stock"]:
            moves.append(("draw_stock", turn, -1))
        if state["discard"] and any(c is not None for c in hands[turn]):
            moves.append(("draw_discard", turn, -1))
    else:
        moves += [("replace", turn, s) for s, c in enumerate(hands[turn]) if c is not None]
        if state["held_from"] == "stock":
            moves.append(("discard", turn, -1))
    if window is not None and (state["stock"] or len(state["discard"]) > 1):
        for p, hand in enumerate(hands):
            if state["tried"][p] < 3 and state["won_by"] in (None, p):
                moves += [("match", p, s) for s, c in enumerate(hand) if c is not None]
    return moves


def _french_after(state: dict[str, Any], move: tuple[str, int, int]) -> dict[str, Any]:
    """The round after ``move`` (the draws and the matches: what the first move of a deal plays)."""
    kind, p, slot = move
    s = {**state, "hands": [list(h) for h in state["hands"]], "stock": list(state["stock"])}
    s["discard"], s["tried"] = list(state["discard"]), list(state["tried"])
    if kind == "draw_stock":
        s["held"], s["held_from"] = s["stock"].pop(0), "stock"
    elif kind == "draw_discard":
        s["held"], s["held_from"], s["window"] = s["discard"].pop(), "discard", None  # the card on offer is gone
    elif kind == "match":
        card = s["hands"][p][slot]
        s["tried"][p] += 1
        if card[:-1] == s["window"][:-1]:  # the same rank: thrown on it, the card is won
            s["hands"][p][slot] = None
            s["discard"].append(card)
            s["won_by"] = p
        else:  # a miss: it goes back, and a penalty card from the stock into a new slot
            s["hands"][p].append(s["stock"].pop(0))
    else:  # pragma: no cover - the first move of a deal is a draw or a match
        raise AssertionError(f"not written: {kind}")
    return s


def _french_counts(deal: dict[str, list[str]], depth: int) -> list[int]:
    start = {
        "hands": [list(h) for h in deal["hands"]],
        "stock": list(deal["stock"]),
        "discard": list(deal["discard"]),
        "turn": 0,
        "held": None,
        "held_from": "",
        "window": deal["discard"][-1] if deal["discard"] else None,  # French: the dealt card may be matched
        "won_by": None,
        "tried": [0] * len(deal["hands"]),
    }
    counts = [0] * (depth + 1)

    def walk(state: dict[str, Any], d: int) -> None:
        counts[d] += 1
        moves = _french_moves(state)
        if d + 1 == depth:  # the last depth: counted, not played
            counts[depth] += len(moves)
        elif d < depth:
            for move in moves:
                walk(_french_after(state, move), d + 1)

    walk(start, 0)
    return counts


def test_the_first_depths_of_french_agree_with_an_enumerator_written_from_the_rules() -> None:
    """The engine's counts of French to depth 2, for every player count, are those of an enumerator written from the
    rules alone, above (no code of the engine): e.g. two players, 3H 4D against 10S 9H, 3C on the discard: player 0
    draws (2) or either player matches (4: 6); then 7 after the stock's 7S is drawn (3 holds, 4 matches), 2 after
    the 3C is taken (the card on offer is gone), 3 after player 0's 3H is matched right (player 1 may not match a
    card won), 7 after each of the three misses (a penalty slot more): 33."""
    for deal in small_deals("french"):
        assert deal.first_player == 0
        assert perft("french", deal, 2).nodes == _french_counts(deal.deal, 2), deal


def test_the_walk_names_the_first_broken_invariant_with_the_actions_to_it(tmp_path: Path) -> None:
    """A power that copies a card (tests/plugins_for_tests/broken_copy.py) breaks conservation within a few actions
    of a small deal: the failure names the invariant and the actions from the deal."""
    broken = tamalou.load_variant(ROOT / "tests" / "data" / "broken" / "copy.toml", allow_plugins=True)
    with pytest.raises(InvariantViolation, match=r"^conservation: ") as caught:
        exhaustive(broken, 3, players=[2])
    actions = caught.value.actions
    assert actions and actions[-1]["type"] in ("power", "swap", "pass", "discard", "match")


def test_the_command_prints_the_counts_and_the_speed() -> None:
    result = CliRunner().invoke(app, ["verify", "french", "--exhaustive", "--depth", "2"])
    assert result.exit_code == 0, result.output
    assert re.search(r"│ +2 │ +33 │ +53 │ +85 │ +125 │ +173 │ +469 │", result.output), result.output
    assert "nodes/s; no invariant broken" in result.output


def test_the_pytest_plugin_walks_the_small_deals_with_its_option(tmp_path: Path) -> None:
    """``pytest --tamalou-variant FILE --tamalou-exhaustive DEPTH`` adds the item ``tamalou[FILE]::exhaustive``: it
    passes on French and fails on the power that copies a card, naming the invariant and the actions."""
    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    broken = str(ROOT / "tests" / "data" / "broken" / "copy.toml")
    done = {}
    for spec in ("french", broken):
        done[spec] = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                "-p",
                "no:randomly",
                "--tamalou-variant",
                spec,
                "--tamalou-exhaustive",
                "3",
                "--tamalou-players",
                "2",
                "-k",
                "exhaustive",
                "-q",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            env=env,
        )
    assert done["french"].returncode == 0, done["french"].stdout[-2000:]
    failed = done[broken]
    assert failed.returncode == 1 and "conservation: cards not conserved" in failed.stdout, failed.stdout[-2000:]
    assert "after the actions: [{'type': 'draw'" in failed.stdout, failed.stdout[-2000:]
