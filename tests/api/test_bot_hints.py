"""A mechanic's hints for bots (``Mechanic.hint``, ``tamalou.powers.hinted_move``: the bots contract, version 3).

The ruleset ``bots-glance`` (tests/data/bots/glance.toml, plugin ``plugins_for_tests.glance``) is French with a
phase no built-in bot has a rule for: after a thrown 6 the thrower looks at one of its own cards, of its choice.
Its mechanic hints at a card the seat has not seen. With the hint, the greedy and the cautious bot and the ISMCTS
bot's rollouts look at a card they have not seen whenever there is one; without it (``bots-glance-unhinted``)
the greedy bot picks at random and the cautious bot the first card, a card it knows after the opening peek.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import tamalou
from tamalou import Action, Pass, SeatView
from tamalou.bots import CautiousBot, GreedyBot, play_game
from tamalou.bots.ismcts.rollout import RolloutPolicy
from tamalou.engine.game import round_of
from tamalou.engine.rulebook import rulebook
from tamalou.powers import HINT_CONTRACT, hinted_move

DATA = Path(__file__).resolve().parents[1] / "data" / "bots"


@pytest.fixture
def glance(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(DATA))

    def load(hinted: bool = True) -> tamalou.Variant:
        return tamalou.load_variant(str(DATA / ("glance.toml" if hinted else "glance-unhinted.toml")))

    return load


class Watcher:
    """A bot that counts its choices in the phase ``glance``: of a card it had not seen, of one it knew while
    it had not seen another."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.unseen = 0
        self.known = 0

    def setup(self, variant: tamalou.Variant, player: int | None = None) -> None:
        self.bot.setup(variant, player)

    def act(self, view: SeatView, legal: list[Action]) -> Action | None:
        action = self.bot.act(view, legal)
        if view.phase == "glance" and action is not None and view.current_player == view.player:
            cards = {s.slot: s.card for s in view.hands[view.player]}
            if any(card is None for card in cards.values()):
                if cards[action.slot]:  # type: ignore[attr-defined]
                    self.known += 1
                else:
                    self.unseen += 1
        return action


def choices(variant: tamalou.Variant, make: Any, games: int = 40) -> tuple[int, int]:
    unseen = known = 0
    for seed in range(games):
        seats = [Watcher(make(seed * 8 + p)) for p in range(2)]
        play_game(tamalou.new_game(variant, players=2, seed=seed), seats)
        unseen += sum(w.unseen for w in seats)
        known += sum(w.known for w in seats)
    return unseen, known


@pytest.mark.parametrize("bot", [GreedyBot, CautiousBot], ids=["greedy", "cautious"])
def test_the_bots_play_a_plugin_s_phase_by_its_mechanic_s_hints(glance: Any, bot: type) -> None:
    unseen, known = choices(glance(), bot)
    assert unseen >= 8 and known == 0, (unseen, known)
    # The control: without the hint, the greedy bot chooses at random, the cautious bot the first card (known).
    unseen, known = choices(glance(hinted=False), bot)
    assert known >= 5, (unseen, known)


def test_the_rollouts_of_the_search_bot_follow_the_hints(glance: Any) -> None:
    for hinted, expected in ((True, True), (False, False)):
        v = glance(hinted)
        policy = RolloutPolicy(rulebook(v), random.Random(0))
        picks: list[bool] = []
        for seed in range(40):
            game = tamalou.new_game(v, players=2, seed=seed)
            rng = random.Random(seed)
            while not game.is_over and game.phase != "glance":
                p = game.to_act[0] if game.to_act else game.current_player
                legal = [a for a in game.legal_actions(p) if not isinstance(a, tamalou.Call)]
                game.apply(rng.choice(legal or game.legal_actions(p)))
            if game.is_over:
                continue
            g = round_of(game)
            p = g.current_player
            unknown = {s for s, c in enumerate(g.hands[p]) if g.slot_ok(p, s) and not g.knowers[c] >> p & 1}
            if not unknown:
                continue
            action = policy.choose(g, p, g.legal_actions(p))
            picks.append(action.slot in unknown)  # type: ignore[attr-defined]
        assert len(picks) >= 10, picks
        assert all(picks) if expected else not all(picks), picks


class Opinions(tamalou.Mechanic):
    """A stand-in for a mechanic's hints: a table of action -> hint (absent: no opinion)."""

    name = "opinions"

    def __init__(self, variant: tamalou.Variant, table: dict[Action, float]) -> None:
        super().__init__(variant)
        self.table = table

    def hint(self, view: SeatView, action: Action, worth: tamalou.CardWorth) -> float | None:
        return self.table.get(action)


def test_hinted_move_plays_the_best_hint_above_0_else_passes() -> None:
    french = tamalou.load_variant("french")
    view: Any = None
    worth: Any = None
    a, b, passing = tamalou.Discard(0), tamalou.Draw(0, "stock"), Pass(0)
    first = Opinions(french, {a: 1.0, b: 2.0})
    assert hinted_move([first], view, [a, b, passing], worth) == b
    assert hinted_move([Opinions(french, {a: -1.0, b: 0.0})], view, [a, b, passing], worth) == passing
    assert hinted_move([Opinions(french, {a: -1.0, b: -2.0})], view, [a, b], worth) == a  # no pass: the best
    assert hinted_move([Opinions(french, {})], view, [a, b, passing], worth) is None  # no opinion
    # The first mechanic with an opinion on an action is the one heard; ties go to the first action listed.
    assert hinted_move([Opinions(french, {b: -5.0}), first], view, [a, b], worth) == a
    assert hinted_move([Opinions(french, {a: 1.0, b: 1.0})], view, [a, b], worth) == a
    assert HINT_CONTRACT == 4
