"""``tamalou.ai``: the fixed action numbering (``ActionSpace``, ``action_id`` / ``action_from_id`` /
``legal_mask`` of a game) and the observation tensor.

- every action listed in random games of every built-in ruleset has an id that gives it back, ids
  are unique, the mask is exactly the listing (an action on a slot beyond ``max_slots`` aside: it is the
  only kind left out), a plugin's power and a plugin's move included;
- the numbering is the same in another process (another hash seed);
- what cannot be numbered raises ``ActionEncodingError`` saying why;
- the observation has its documented layout, holds values in [-1, 1] and leaks nothing: exchanging
  two cards a seat does not know leaves its observation (and its text) unchanged, while exchanging a
  card it knows changes it.
"""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
import textwrap
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from optional import require

np = require("ai", "numpy")

import tamalou  # noqa: E402
from tamalou import Action, Draw, Give, MatchAction, Power, Replace, Tick  # noqa: E402
from tamalou.ai import (  # noqa: E402
    ActionEncodingError,
    ActionSpace,
    Observer,
    action_from_id,
    action_id,
    legal_mask,
    observation,
    observation_string,
)
from tamalou.ai.encoding import groups  # noqa: E402
from tamalou.verify import exchange_faces, random_playout  # noqa: E402

NAMES = tamalou.variant_names()


def seat_counts(v: tamalou.Variant) -> list[int]:
    lo, hi = v.rules.players.min, v.rules.players.max
    return sorted({lo, (lo + hi) // 2, hi})


def beyond(a: Action, max_slots: int) -> bool:
    """Whether ``a`` names a slot at or beyond ``max_slots`` (the one reason an action has no id)."""
    for f in fields(a):  # type: ignore[arg-type]
        v = getattr(a, f.name)
        if f.name.endswith("slot") and type(v) is int and v >= max_slots:
            return True
        if f.name.endswith("slots") and isinstance(v, tuple) and any(s >= max_slots for s in v):
            return True
    return False


def states(v: tamalou.Variant, players: int, seed: int) -> Any:
    """Every state of a random game (``random_playout``'s style: calls, matches, ticks), replayed."""
    done = random_playout(v, players, seed)
    game = tamalou.new_game(v, players, seed=seed)
    for a in done.actions:
        yield game
        game.apply(a)
    yield game


def check_listing(game: tamalou.Game, space: ActionSpace) -> tuple[int, int]:
    """Every listed action of every seat round-trips; the mask and ``legal_ids`` are the listing.
    Returns how many actions were numbered and how many were beyond ``max_slots``."""
    numbered = left_out = 0
    for p in range(game.players):
        ids = []
        for a in game.legal_actions(p):
            if type(a) is Tick:
                continue
            try:
                i = action_id(game, a)
            except ActionEncodingError as exc:
                assert beyond(a, space.max_slots), f"{a} has no id: {exc}"
                assert "max_slots" in str(exc)
                left_out += 1
                continue
            assert 0 <= i < space.size
            back = action_from_id(game, i, p)
            assert back == a and type(back) is type(a), (a, i, back)
            ids.append(i)
        assert len(set(ids)) == len(ids), "two listed actions share an id"
        mask = legal_mask(game, p)
        assert mask.dtype == np.bool_ and mask.shape == (space.size,)
        assert set(np.flatnonzero(mask).tolist()) == set(ids)
        assert space.legal_ids(game, p) == ids
        numbered += len(ids)
    return numbered, left_out


@pytest.mark.parametrize("name", NAMES)
def test_every_listed_action_round_trips_and_the_mask_is_the_listing(name: str) -> None:
    v = tamalou.load_variant(name)
    numbered = complete = states_seen = 0
    for k, n in enumerate(seat_counts(v)):
        space = ActionSpace.of(v, n)
        assert space is ActionSpace.of(name, n)  # made once
        for game in states(v, n, seed=100 + k):
            a, left_out = check_listing(game, space)
            numbered, complete, states_seen = numbered + a, complete + (left_out == 0), states_seen + 1
    # Random play grows layouts past 16 slots in some rounds (penalties): their actions there are the
    # only ones left out (checked above); most states have every action numbered.
    assert numbered > 100 and complete > states_seen // 2


def house(tmp_path: Path, plugin: str, extra: str = "") -> tamalou.Variant:
    path = tmp_path / f"house-{plugin.rsplit('.', 1)[-1]}.toml"
    path.write_text(f'extends = "french"\nplugins = ["{plugin}"]\n{extra}', encoding="utf-8")
    return tamalou.load_variant(path)


def test_a_plugin_move_and_a_plugin_power_are_in_the_space(tmp_path: Path) -> None:
    # Ordered pairs of slots (the held card takes the first named) and a power on any card of the table.
    exchange = house(tmp_path, "plugins_for_tests.exchange")
    peek_any = house(
        tmp_path,
        "plugins_for_tests.peek_any",
        '[rules.powers.ranks]\n"A" = "peek_any"\n"2" = "peek_any"\n"3" = "peek_any"\n"4" = "peek_any"\n',
    )
    space = ActionSpace.of(exchange, 2)
    assert "exchange" in [kind for kind, *_ in space.blocks()]
    kinds_seen: set[str] = set()
    for v in (exchange, peek_any):
        for seed in range(4):
            for game in states(v, 2, seed):
                check_listing(game, ActionSpace.of(v, 2))
                kinds_seen.update(a.type for p in range(2) for a in game.legal_actions(p))
                if game.seat_view(0).power == "peek_any":
                    kinds_seen.add("peek_any offered")
    assert {"exchange", "peek_any offered"} <= kinds_seen
    exchange_cls = tamalou.actions.ACTION_TYPES["exchange"]
    pair, reverse = space.id(exchange_cls(0, (0, 3))), space.id(exchange_cls(0, (3, 0)))
    assert pair != reverse and space.action(reverse, 0) == exchange_cls(0, (3, 0))


def test_ids_are_the_same_in_another_process() -> None:
    cases = [("french", 3), ("cabo", 4), ("kaboo", 5), ("cambia", 2)]

    def digest(name: str, n: int) -> str:
        return hashlib.sha256("\n".join(ActionSpace.of(name, n).names).encode()).hexdigest()

    here = [digest(name, n) for name, n in cases]
    code = textwrap.dedent(
        f"""
        import hashlib
        from tamalou.ai import ActionSpace
        for name, n in {cases!r}:
            print(hashlib.sha256("\\n".join(ActionSpace.of(name, n).names).encode()).hexdigest())
        """
    )
    for hash_seed in ("1", "987"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
        )
        assert out.stdout.split() == here
    french = ActionSpace.of("french", 3)
    assert len(set(french.names)) == french.size  # every id says something different


def test_the_documented_layout_of_the_french_space() -> None:
    space = ActionSpace.of("french", 3)
    assert (space.max_slots, space.max_group) == (16, 4)
    assert [kind for kind, *_ in space.blocks()] == [
        "call",
        "discard",
        "draw",
        "match",
        "pass",
        "power",
        "replace",
        "swap",
    ]
    assert space.id(tamalou.Call(2)) == 0 and space.id(Draw(1, "stock")) == 2 and space.id(Draw(1, "discard")) == 3
    # Seats are relative to the actor: the same power use has the same id from every seat.
    uses = [Power(p, slot=1, target=(p + 1) % 3, target_slot=2) for p in range(3)]
    assert len({space.id(u) for u in uses}) == 1
    assert space.describe(space.id(uses[0])) == "power slot=1 target=+1 target_slot=2"
    assert space.describe(space.id(uses[0]), player=2) == f"{uses[2].describe()} {uses[2].to_dict()}"
    assert len(groups(16, 4)) == 1 + 16 + 16 * 15 + 560 + 1820
    assert space.size == 1 + 1 + 2 + len(groups(16, 4)) * 4 + 1 + 17 * 4 * 17 * 4 + 16 + 16
    assert "power" in space.summary() and repr(space) == "<ActionSpace french players=3 size=15209>"


def test_what_cannot_be_numbered_says_why() -> None:
    space = ActionSpace.of("french", 3)
    with pytest.raises(ActionEncodingError, match="no action type 'give'"):
        space.id(Give(0, 1))
    with pytest.raises(ActionEncodingError, match="max_slots=16"):
        space.id(Replace(0, 16))
    assert not space.encodable(Replace(0, 16)) and space.encodable(Replace(0, 15))
    assert ActionSpace.of("french", 3, max_slots=20).encodable(Replace(0, 16))
    with pytest.raises(ActionEncodingError, match="increasing order"):
        space.id(MatchAction(0, (2, 1, 0)))
    with pytest.raises(ActionEncodingError, match="increasing order"):
        space.id(MatchAction(0, (1, 1)))
    assert space.encodable(MatchAction(0, (1, 0))) and space.encodable(MatchAction(0, (0, 1, 2)))
    with pytest.raises(ActionEncodingError, match="not a seat"):
        space.id(Power(0, target=5, target_slot=0))
    with pytest.raises(ActionEncodingError, match="not a seat"):
        space.id(Draw(3))
    with pytest.raises(ActionEncodingError, match="no action type 'tick'"):
        space.id(Tick(at=1.0))
    with pytest.raises(ActionEncodingError, match="ids go from 0"):
        space.action(space.size, 0)
    with pytest.raises(ActionEncodingError, match="not a seat"):
        space.action(0, 3)
    with pytest.raises(ActionEncodingError, match="the game is cabo"):
        space.mask(tamalou.new_game("cabo", 3, seed=1), 0)
    # A timed action is numbered as the same action untimed.
    assert space.id(Draw(1, "stock", at=3.5)) == space.id(Draw(1, "stock"))


PLUGIN = """
from dataclasses import dataclass
from typing import ClassVar

from pydantic import ConfigDict

import tamalou


@dataclass(frozen=True, slots=True)
class {cls}(tamalou.Action):
    player: int
    amount: int
    at: float | None = None
    type: ClassVar[str] = "{kind}"
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid", strict=False)
    {ranges}


class Betting(tamalou.Mechanic):
    name = "{kind}"
    actions = ({cls},)


@tamalou.hookimpl
def tamalou_mechanics():
    return [Betting]
"""


def test_a_plugin_field_with_no_known_range_must_declare_it(tmp_path: Path) -> None:
    (tmp_path / "betting.py").write_text(PLUGIN.format(cls="Bet", kind="bet", ranges=""), encoding="utf-8")
    (tmp_path / "wagers.py").write_text(
        PLUGIN.format(cls="Wager", kind="wager", ranges='ai_fields: ClassVar[dict] = {"amount": (5, 10, 20)}'),
        encoding="utf-8",
    )
    with pytest.raises(ActionEncodingError, match=r"cannot number field 'amount' of action type 'bet'.*ai_fields"):
        ActionSpace.of(house(tmp_path, "betting"), 2)
    space = ActionSpace.of(house(tmp_path, "wagers"), 2)
    wager = tamalou.actions.ACTION_TYPES["wager"]
    ids = [space.id(wager(1, amount)) for amount in (5, 10, 20)]
    assert ids == list(range(ids[0], ids[0] + 3)) and space.action(ids[2], 1) == wager(1, 20)
    with pytest.raises(ActionEncodingError, match="none of"):
        space.id(wager(1, 7))


def test_import_tamalou_imports_no_numpy_until_asked() -> None:
    code = (
        "import sys, tamalou\n"
        "g = tamalou.new_game('french', 2, seed=1)\n"
        "assert 'numpy' not in sys.modules and 'tamalou.ai' not in sys.modules\n"
        "import tamalou.ai\n"
        "tamalou.ai.legal_mask(g, 0)\n"
        "assert 'numpy' in sys.modules and 'pettingzoo' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------------------------- observations


@pytest.mark.parametrize("name", NAMES)
def test_the_observation_layout_is_contiguous_and_values_are_bounded(name: str) -> None:
    v = tamalou.load_variant(name)
    n = v.rules.players.min
    obs = Observer.of(v, n)
    end = 0
    for _, offset, size in obs.layout:
        assert offset == end and size > 0
        end += size
    assert end == obs.size == tamalou.ai.observation_size(name, n)
    for k, game in enumerate(states(v, n, seed=7)):
        if k % 5:
            continue
        for p in range(n):
            x = observation(game.seat_view(p), v)
            assert x.dtype == np.float32 and x.shape == (obs.size,)
            assert x.min() >= -1.0 and x.max() <= 1.0
            assert np.array_equal(x, observation(game.view(p), v))  # a PlayerView gives the same


def test_the_observation_shows_what_the_seat_knows_where_it_is() -> None:
    deal = {
        "hands": [["AS", "KS", "3S", "4S"], ["5S", "6S", "7S", "8S"], ["9S", "10S", "JS", "QS"]],
        "stock": ["2H", "3H", "4H", "5H"],
        "discard": ["KD"],
    }
    game = tamalou.new_game("french", 3, seed=1, deal=deal, first_player=1)
    obs = Observer.of(game.variant, 3)
    x = observation(game.seat_view(2), game.variant)
    width, s = len(obs.kinds) + 3, obs.max_slots
    slots = x[obs.section("slots")].reshape(3, s, width)
    # Seat 2 (relative +0) knows its slots 0 and 1 (French peeks at the two nearest), not 2 and 3.
    assert slots[0, :4, 0].tolist() == [1, 1, 1, 1] and slots[0, 4:, 0].sum() == 0
    assert slots[0, :4, 1].tolist() == [1, 1, 0, 0]
    assert slots[0, 1, 3 + obs.kind("10S")] == 1 and slots[0, 1, 2] == pytest.approx(10 / 15)
    assert slots[1:, :, 1].sum() == 0  # nothing of seats 0 and 1
    assert x[obs.section("current_player")].tolist() == [0, 0, 1]  # seat 1 to move: +2 from seat 2
    top = x[obs.section("discard_top")]
    assert top[obs.kind("KD")] == 1 and obs.kind("KD") != obs.kind("KS")  # red and black kings differ
    text = observation_string(game.seat_view(2))
    assert "seat 2 (me): 0:9S 1:10S 2:?? 3:??" in text and "seat 0: 0:?? 1:??" in text and "AS" not in text


def test_a_table_with_more_decks_is_observed_against_its_own_deck() -> None:
    """``rules.deck.copies = {2 = 1, 5 = 2}``: the observer of 5 players counts the stock and the discard
    against their 104 cards (each kind twice as many); the observer of 4 against 52."""
    v = tamalou.variant_from_toml(
        'name = "big-table"\nextends = "french"\n[rules.players]\nmax = 8\n[rules.deck]\ncopies = {2 = 1, 5 = 2}\n'
    )
    four, five = Observer.of(v, 4), Observer.of(v, 5)
    assert (four.deck_size, five.deck_size) == (52, 104)
    assert four.kinds == five.kinds and five.copies == [2 * k for k in four.copies]
    game = tamalou.new_game(v, 5, seed=3)
    x = observation(game.seat_view(0), v)
    public = x[five.section("public")]
    assert public[0] == pytest.approx((104 - 5 * 4 - 1) / 104) and public[1] == pytest.approx(1 / 104)
    top = game.seat_view(0).discard[-1]
    assert x[five.section("discard_counts")][five.kind(top)] == pytest.approx(1 / five.copies[five.kind(top)])
    for k, state in enumerate(states(v, 5, seed=4)):
        if k % 7 == 0:
            y = observation(state.seat_view(k % 5), v)
            assert y.min() >= -1.0 and y.max() <= 1.0


@pytest.mark.parametrize("name", ["french", "cabo", "kaboo", "cambia", "opponent-matching", "jokers"])
def test_exchanging_cards_a_seat_does_not_know_leaves_its_observation(name: str) -> None:
    v = tamalou.load_variant(name)
    n = min(3, v.rules.players.max)
    rng = random.Random(name)
    kind = Observer.of(v, n).kind
    tried = changed = 0
    for k, game in enumerate(states(v, n, seed=11)):
        if k % 3:
            continue
        for p in range(n):
            x, text = observation(game.seat_view(p), v), observation_string(game.seat_view(p))
            table = tamalou.round_of(game)  # the cards themselves, and who knows them
            unknown = [c for c in range(len(table.cards)) if not table.knows(p, c)]
            known = [c for c in range(len(table.cards)) if table.knows(p, c) and c not in table.discard]
            for _ in range(3):
                a, b = rng.sample(unknown, 2) if len(unknown) >= 2 else (None, None)
                if a is None or table.text[a] == table.text[b]:
                    continue
                other = exchange_faces(game, a, b)
                assert np.array_equal(observation(other.seat_view(p), v), x), (name, p, table.text[a], table.text[b])
                assert observation_string(other.seat_view(p)) == text
                tried += 1
            # A card it knows, in a layout or held, exchanged with one it does not: that shows.
            # (A card in a slot past max_slots is only counted: its face does not show.)
            slots = Observer.of(v, n).max_slots
            in_play = [
                c
                for c in known
                if any(c in hand[:slots] for hand in table.hands) or (c == table.held and table.holder == p)
            ]
            pairs = [(c, u) for c in in_play for u in unknown if kind(table.text[c]) != kind(table.text[u])]
            if pairs:
                c, u = rng.choice(pairs)
                assert not np.array_equal(observation(exchange_faces(game, c, u).seat_view(p), v), x)
                changed += 1
    assert tried > 50 and changed > 10


COUNTER_PLUGIN = '''
"""A mechanic that shows every seat how many cards have been thrown (an int with a bound), whether the stock is low
(a bool), a running total with no bound and a list of the last cards (not encoded)."""
from pydantic import BaseModel, Field

import tamalou


class CountersView(BaseModel):
    thrown: int = Field(ge=0, le=40)
    low_stock: bool
    drift: int
    recent: list[str]


class Counters(tamalou.Mechanic):
    name = "counters"
    view_model = CountersView

    def view_extra(self, g, p):
        thrown = len(g.discard) - 1
        return {"thrown": thrown, "low_stock": len(g.stock) < 30, "drift": -3 * thrown, "recent": []}


@tamalou.hookimpl
def tamalou_mechanics():
    return [Counters]
'''


def test_the_observation_encodes_a_mechanics_int_and_bool_view_fields(tmp_path: Path) -> None:
    """A mechanic's ``view_model`` fields declared ``int`` or ``bool`` are the section ``extra``, after the others
    (a ruleset without such fields keeps its layout): a bounded int over its bound, an unbounded one squashed as
    x / (1 + |x|), a bool as 0 or 1; a list is left out."""
    (tmp_path / "counters.py").write_text(COUNTER_PLUGIN, encoding="utf-8")
    (tmp_path / "counters.toml").write_text('extends = "french"\nplugins = ["counters"]\n', encoding="utf-8")
    variant = tamalou.load_variant(tmp_path / "counters.toml")
    obs = Observer.of(variant, 2)
    plain = Observer.of("french", 2)
    assert obs.extras == [("counters", "thrown", 40.0), ("counters", "low_stock", 0.0), ("counters", "drift", None)]
    assert obs.layout[:-1] == plain.layout and obs.layout[-1] == ("extra", plain.size, 3)
    game = tamalou.new_game(variant, 2, seed=3)
    g = tamalou.round_of(game)
    while len(g.discard) < 3:  # two cards thrown
        p = game.current_player
        game.apply(Draw(p, "stock"))
        game.apply(tamalou.Discard(p))
        while game.current_player == p and not game.is_over:
            game.apply(next(a for a in game.legal_actions(p) if a.type == "pass"))
    low = len(g.stock) < 30
    encoded = observation(game.seat_view(0), variant)[obs.section("extra")]
    assert encoded.tolist() == pytest.approx([2 / 40, float(low), -6 / 7])
