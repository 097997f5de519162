"""Correct plugins that ``tamalou verify`` once failed: no false alarm.

The control of ``tests/plugins_for_tests/per_card_table.py`` keeps a table with an entry per card of the game (how
often each was thrown: 104 entries with two decks) and shows every seat how many aces were thrown. Snapshots refused
its table past 64 entries (a state list may now be as long as the game's cards); and once a thrown ace was reshuffled
into the stock, ``no_leak`` exchanged its face with a card never seen, which changed the count shown: a world no
seat could be in (everyone saw that card thrown), reported as a leak.
"""

from __future__ import annotations

import json

import pytest

import tamalou
from tamalou.verify import check_game, check_no_leak, random_playout, verify

PER_CARD_TABLE = """extends = "french"
name = "per-card-table"
plugins = ["plugins_for_tests.per_card_table"]
[rules.deck]
copies = 2
"""


@pytest.fixture(scope="module")
def per_card_table(tmp_path_factory: pytest.TempPathFactory) -> tamalou.Variant:
    path = tmp_path_factory.mktemp("per_card_table") / "per-card-table.toml"
    path.write_text(PER_CARD_TABLE, encoding="utf-8")
    return tamalou.load_variant(path, allow_plugins=True)


@pytest.mark.parametrize("players", [2, 6])
def test_a_state_list_as_long_as_the_game_s_cards_is_saved_by_snapshots(
    per_card_table: tamalou.Variant, players: int
) -> None:
    game = random_playout(per_card_table, players, seed=3)
    table = tamalou.round_of(game).state_of("aces_thrown").counts
    assert len(table) == 104 and sum(table) > 0
    again = tamalou.Game.from_json(game.to_json(), per_card_table)
    assert tamalou.round_of(again).state_of("aces_thrown").counts == table


def test_a_state_list_longer_than_the_game_s_cards_is_refused_with_its_bound(per_card_table: tamalou.Variant) -> None:
    game = tamalou.new_game(per_card_table, players=3, seed=1)
    saved = json.loads(game.to_json())
    saved["m"]["aces_thrown"][0] = [0] * 105
    with pytest.raises(tamalou.SnapshotError, match=r"aces_thrown\.counts: .*a list of 104 entries at most"):
        tamalou.Game.from_json(json.dumps(saved), per_card_table)


def test_no_leak_does_not_count_public_facts_of_a_card_reshuffled_into_the_stock(
    per_card_table: tamalou.Variant,
) -> None:
    """The game of seed 19 at six players: an ace thrown, reshuffled into the stock and dealt again as a penalty card
    (seen by nobody) is counted among the aces thrown; exchanging its face with a card nobody saw changed the count:
    reported as a leak, before. An exchange of cards nobody ever saw still shows a leak (the check still bites)."""
    assert check_game(per_card_table, 6, 19).failure is None


def test_the_per_card_table_passes_verify_at_two_to_six_players(per_card_table: tamalou.Variant) -> None:
    report = verify(per_card_table, games=10, players=range(2, 7), workers=1)  # (two games a count)
    assert report.ok, [(f.seed, f.players, f.message) for f in report.details]


def test_a_public_count_of_cards_never_seen_is_still_a_leak(per_card_table: tamalou.Variant) -> None:
    """The same mechanic showing the aces *in the stock* (a fresh stock: cards nobody saw) leaks: no_leak says so."""
    game = tamalou.new_game(per_card_table, players=2, seed=4)
    g = tamalou.round_of(game)
    mechanic = g.mechanic("aces_thrown")
    assert mechanic is not None
    shown = type(mechanic).view_extra

    def aces_in_stock(self: object, g: tamalou.Round, p: int) -> dict[str, int]:
        return {"aces": sum(g.text[c][:-1] == "A" for c in g.stock)}

    try:
        type(mechanic).view_extra = aces_in_stock  # type: ignore[method-assign, assignment]
        with pytest.raises(tamalou.verify.InvariantViolation, match=r"leak: exchanging .*aces_thrown\.aces: "):
            check_no_leak(game, 0)
    finally:
        type(mechanic).view_extra = shown  # type: ignore[method-assign]
