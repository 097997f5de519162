"""Cards: the text notation of RULES.md §1 (both ways) and the decks a variant builds."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import tamalou
from tamalou import Card, VariantError, parse_card
from tamalou.cards import JOKER, RANKS, SUITS, build_deck

ALL_FACES = [(rank, suit) for suit in SUITS for rank in RANKS]


# --- the text notation ---------------------------------------------------------------------


def test_the_notation_lists_every_rank_and_suit() -> None:
    # RULES.md §1: rank A 2 3 4 5 6 7 8 9 10 J Q K (+ JK joker) and suit S H D C.
    assert RANKS == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    assert SUITS == ("S", "H", "D", "C")
    assert JOKER == "JK"


@pytest.mark.parametrize(("rank", "suit"), ALL_FACES)
def test_every_card_is_written_rank_then_suit_and_read_back(rank: str, suit: str) -> None:
    card = Card(rank, suit)
    text = f"{rank}{suit}"
    assert str(card) == text
    assert parse_card(text) == card
    assert Card.parse(text) == card
    assert parse_card(str(parse_card(text))) == card
    assert parse_card(text).rank == rank
    assert parse_card(text).suit == suit
    assert not card.is_joker


@pytest.mark.parametrize(("rank", "suit"), ALL_FACES)
def test_input_is_read_in_any_case(rank: str, suit: str) -> None:
    assert parse_card(f"{rank}{suit}".lower()) == Card(rank, suit)
    assert parse_card(f"{rank.lower()}{suit}") == Card(rank, suit)
    assert parse_card(f"{rank}{suit.lower()}") == Card(rank, suit)


@pytest.mark.parametrize("suit", SUITS)
def test_t_is_read_as_ten_and_written_10(suit: str) -> None:
    for text in (f"T{suit}", f"t{suit}", f"t{suit.lower()}"):
        card = parse_card(text)
        assert card == Card("10", suit)
        assert str(card) == f"10{suit}"


def test_named_examples_from_the_rules() -> None:
    assert parse_card("AS") == Card("A", "S")
    assert parse_card("10H") == Card("10", "H")
    assert parse_card("KC") == Card("K", "C")
    assert parse_card("kc") == Card("K", "C")
    assert str(parse_card("TH")) == "10H"


def test_surrounding_spaces_are_ignored() -> None:
    assert parse_card(" 10H ") == Card("10", "H")
    assert parse_card("\tJK2\n") == parse_card("JK2")


@pytest.mark.parametrize("index", [1, 2])
def test_jokers_are_jk1_and_jk2_both_ways(index: int) -> None:
    text = f"JK{index}"
    card = parse_card(text)
    assert card.is_joker
    assert card.rank == JOKER
    assert card.suit == ""
    assert card.index == index
    assert str(card) == text
    assert parse_card(text.lower()) == card
    assert parse_card(str(card)) == card


def test_the_two_jokers_are_different_cards() -> None:
    assert parse_card("JK1") != parse_card("JK2")
    assert len({parse_card("JK1"), parse_card("JK2")}) == 2


def test_colour_of_a_card() -> None:
    assert parse_card("AS").is_black
    assert parse_card("KC").is_black
    assert not parse_card("KH").is_black
    assert not parse_card("10D").is_black
    assert not parse_card("JK1").is_black


def test_distinct_texts_are_distinct_cards() -> None:
    cards = {parse_card(f"{rank}{suit}") for rank, suit in ALL_FACES}
    assert len(cards) == 52
    assert len({str(c) for c in cards}) == 52


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "rank then suit"),
        ("   ", "rank then suit"),
        ("A", "rank then suit"),
        ("S", "rank then suit"),
        ("ZS", "unknown rank"),
        ("11H", "unknown rank"),
        ("0H", "unknown rank"),
        ("1010H", "unknown rank"),
        ("AX", "unknown suit"),
        ("10", "unknown suit"),
        ("KH1", "unknown"),
        ("A S", "unknown"),
        ("JK", "JK1 or JK2"),
        ("JK0", "JK1 or JK2"),
        ("JK3", "JK1 or JK2"),
        ("JKS", "JK1 or JK2"),
        ("JK12", "JK1 or JK2"),
    ],
)
def test_bad_text_raises_value_error_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason) as info:
        parse_card(text)
    # The message quotes what was given, so a user can find it.
    assert repr(text) in str(info.value) or text.strip().upper() in str(info.value)


@pytest.mark.parametrize("value", [None, 10, 1.5, ("A", "S"), b"AS"])
def test_a_card_that_is_not_text_raises_value_error(value: object) -> None:
    with pytest.raises(ValueError, match="text"):
        parse_card(value)  # type: ignore[arg-type]


def test_a_bad_card_in_a_stacked_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="ZZ"):
        tamalou.new_game(
            "french",
            players=2,
            deal={"hands": [["AS", "2S", "3S", "ZZ"], ["4S", "5S", "6S", "7S"]], "stock": ["8S"]},
            first_player=0,
        )


def test_a_bad_card_key_in_a_variant_names_the_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "weird.toml"
    path.write_text('extends = "french"\n[rules.values.cards]\nZQ = 3\n', encoding="utf-8")
    with pytest.raises(VariantError) as info:
        tamalou.load_variant(path)
    message = str(info.value)
    assert "weird.toml" in message
    assert "rules.values.cards" in message
    assert "ZQ" in message


def test_card_keys_in_a_variant_accept_the_input_notation(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text('extends = "french"\n[rules.values.cards]\nth = 4\n"jk1" = -3\n', encoding="utf-8")
    values = tamalou.load_variant(path).rules.values.cards
    assert values["10H"] == 4
    assert values["JK1"] == -3
    assert "th" not in values


# --- decks -----------------------------------------------------------------------------------


def test_a_plain_deck_has_the_52_cards_once() -> None:
    deck = build_deck(RANKS, SUITS, 0, 1)
    assert len(deck) == 52
    assert set(deck) == {Card(rank, suit) for rank, suit in ALL_FACES}
    assert not any(c.is_joker for c in deck)


@pytest.mark.parametrize(("jokers", "size"), [(0, 52), (1, 53), (2, 54)])
def test_jokers_are_added_to_the_deck(jokers: int, size: int) -> None:
    deck = build_deck(RANKS, SUITS, jokers, 1)
    assert len(deck) == size
    assert len(set(deck)) == size
    assert sorted(str(c) for c in deck if c.is_joker) == [f"JK{i}" for i in range(1, jokers + 1)]


@pytest.mark.parametrize("copies", [1, 2, 3, 4])
def test_copies_repeat_the_whole_deck(copies: int) -> None:
    deck = build_deck(RANKS, SUITS, 2, copies)
    assert len(deck) == 54 * copies
    counts = Counter(deck)
    assert set(counts.values()) == {copies}
    assert len(counts) == 54


def test_a_deck_of_some_ranks_and_suits() -> None:
    deck = build_deck(("A", "2", "3"), ("H", "D"), 0, 1)
    assert sorted(map(str, deck)) == sorted(["AH", "2H", "3H", "AD", "2D", "3D"])


def test_the_deck_order_is_canonical() -> None:
    deck = build_deck(RANKS, SUITS, 2, 1)
    assert deck == build_deck(RANKS, SUITS, 2, 1)
    assert [str(c) for c in deck[:13]] == [f"{rank}S" for rank in RANKS]
    assert [str(c) for c in deck[-2:]] == ["JK1", "JK2"]


def test_more_than_two_jokers_is_a_variant_error() -> None:
    with pytest.raises(VariantError, match="jokers"):
        build_deck(RANKS, SUITS, 3, 1)


def _universe_size(game: tamalou.Game) -> int:
    view = game.view(0)
    in_hands = sum(len(game.layout(p)) for p in range(game.players))
    return in_hands + view.stock_size + len(view.discard)


def test_a_french_game_is_played_with_52_cards() -> None:
    game = tamalou.new_game("french", players=4, seed=3)
    assert _universe_size(game) == 52
    seen = [c for p in range(4) for c in game.layout(p)] + [str(game.view(0).discard_top)]
    assert len(set(seen)) == len(seen)


@pytest.mark.parametrize(("jokers", "copies", "size"), [(2, 1, 54), (0, 2, 104), (1, 2, 106)])
def test_a_variant_deck_sets_the_game_universe(tmp_path: Path, jokers: int, copies: int, size: int) -> None:
    path = tmp_path / "big.toml"
    path.write_text(f'extends = "french"\n[rules.deck]\njokers = {jokers}\ncopies = {copies}\n', encoding="utf-8")
    game = tamalou.new_game(tamalou.load_variant(path), players=3, seed=11)
    assert _universe_size(game) == size
