"""Cards: their text notation (both ways: rank then suit, ``AS``, ``10H``, ``KC``; ``T`` accepted for 10;
jokers ``JK1``, ``JK2``) and the decks a variant builds."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import tamalou
from tamalou import Card, VariantError, parse_card
from tamalou.cards import DEFAULT_RANK_COUNT, JOKER, RANKS, SUITS, build_deck, check_cards_in_deck, deck_counter
from tamalou.engine import new_round

ALL_FACES = [(rank, suit) for suit in SUITS for rank in RANKS]


# --- the text notation ---------------------------------------------------------------------


def test_the_notation_lists_every_rank_and_suit() -> None:
    # The notation: rank A 2 3 4 5 6 7 8 9 10 J Q K (+ JK joker) and suit S H D C.
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


def test_a_card_read_again_is_the_same_and_an_error_raises_again() -> None:
    """``parse_card`` keeps the card of a short text (plugins read the same texts at every end of a round): the
    same card each time, whatever the spelling; a bad text raises each time; a long text is read, never kept."""
    from tamalou import cards

    assert parse_card("10h") is parse_card("10h") == parse_card(" TH ") == Card("10", "H")
    for _ in range(2):
        with pytest.raises(ValueError, match="unknown suit"):
            parse_card("AX")
    before = cards._parse_short.cache_info().currsize
    long = " " * 100 + "QS"
    assert parse_card(long) == Card("Q", "S")
    assert cards._parse_short.cache_info().currsize == before


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


def _universe_size(game: tamalou.Round) -> int:
    view = game.view(0)
    in_hands = sum(len(game.layout(p)) for p in range(game.players))
    return in_hands + view.stock_size + len(view.discard)


def test_a_french_game_is_played_with_52_cards() -> None:
    game = new_round("french", players=4, seed=3)
    assert _universe_size(game) == 52
    seen = [c for p in range(4) for c in game.layout(p)] + [str(game.view(0).discard_top)]
    assert len(set(seen)) == len(seen)


@pytest.mark.parametrize(("jokers", "copies", "size"), [(2, 1, 54), (0, 2, 104), (1, 2, 106)])
def test_a_variant_deck_sets_the_game_universe(tmp_path: Path, jokers: int, copies: int, size: int) -> None:
    path = tmp_path / "big.toml"
    path.write_text(f'extends = "french"\n[rules.deck]\njokers = {jokers}\ncopies = {copies}\n', encoding="utf-8")
    game = new_round(tamalou.load_variant(path), players=3, seed=11)
    assert _universe_size(game) == size


# --- decks without suits (Cabo's 0 to 13) ----------------------------------------------------

CABO_RANKS = tuple(str(n) for n in range(14))
CABO_COUNTS = {"0": 2, "13": 2}


@pytest.mark.parametrize("rank", [*CABO_RANKS, "99", "100"])
def test_a_suitless_card_is_written_as_its_rank_alone_and_read_back(rank: str) -> None:
    card = Card(rank, "")
    assert str(card) == rank
    assert parse_card(rank) == card
    assert parse_card(f" {rank} ") == card
    assert parse_card(str(card)) == card
    assert card.suit == ""
    assert not card.is_joker
    assert not card.is_black


def test_a_bare_number_is_a_suitless_card_and_the_standard_notation_is_unchanged() -> None:
    assert parse_card("10") == Card("10", "")
    assert parse_card("10H") == Card("10", "H")
    assert parse_card("1") == Card("1", "")
    assert parse_card("1S") == Card("A", "S")
    assert parse_card("TH") == Card("10", "H")
    assert parse_card("0") == Card("0", "")
    assert parse_card("13") == Card("13", "")
    assert parse_card("JK1") == Card(JOKER, "", 1)
    assert str(parse_card("JK2")) == "JK2"
    assert parse_card("10") != parse_card("10H")


def test_a_name_that_cannot_be_read_as_a_standard_card_is_a_suitless_card() -> None:
    assert parse_card("X") == Card("X", "")
    assert parse_card("wiz") == Card("WIZ", "")
    assert str(parse_card("wiz")) == "WIZ"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1000", "unknown rank"),
        ("0H", "unknown rank"),
        ("13S", "unknown rank"),
        ("A", "rank then suit"),
        ("K", "rank then suit"),
        ("H", "rank then suit"),
        ("KX", "unknown suit"),
        ("XS", "unknown rank"),
        ("--7", "unknown"),
        ("-100", "unknown"),
        ("7.5", "unknown"),
    ],
)
def test_text_that_is_neither_a_suited_nor_a_suitless_card_is_refused(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason) as info:
        parse_card(text)
    assert repr(text) in str(info.value)


def test_a_cabo_deck_has_two_0_two_13_and_four_of_each_other_rank() -> None:
    deck = build_deck(CABO_RANKS, (), 0, 1, CABO_COUNTS)
    assert len(deck) == 52
    assert all(c.suit == "" for c in deck)
    counts = deck_counter(deck)
    assert counts["0"] == 2
    assert counts["13"] == 2
    assert {counts[str(n)] for n in range(1, 13)} == {4}
    assert set(counts) == set(CABO_RANKS)
    assert DEFAULT_RANK_COUNT == 4


def test_a_suitless_deck_is_in_rank_order_with_each_ranks_copies_together() -> None:
    deck = build_deck(CABO_RANKS, (), 2, 1, CABO_COUNTS)
    texts = [str(c) for c in deck]
    assert texts[:6] == ["0", "0", "1", "1", "1", "1"]
    assert texts[-4:] == ["13", "13", "JK1", "JK2"]
    assert deck == build_deck(CABO_RANKS, (), 2, 1, CABO_COUNTS)


def test_a_suitless_deck_without_counts_has_four_of_each_rank_and_copies_repeat_it() -> None:
    deck = build_deck(("1", "2", "3"), (), 0, 2)
    assert len(deck) == 3 * 4 * 2
    assert deck_counter(deck) == Counter({"1": 8, "2": 8, "3": 8})
    assert deck[:12] == deck[12:]


def test_counts_do_not_change_a_suited_deck() -> None:
    assert build_deck(RANKS, SUITS, 0, 1, {}) == build_deck(RANKS, SUITS, 0, 1)


# --- which cards a stacked deal may take from a deck ---------------------------------------------


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def test_cards_a_deck_holds_are_accepted() -> None:
    french = build_deck(RANKS, SUITS, 0, 1)
    assert check_cards_in_deck(french, cards("AS 10H KC 5S")) is None
    assert check_cards_in_deck(french, french) is None
    assert check_cards_in_deck(french, []) is None
    two_decks = build_deck(RANKS, SUITS, 2, 2)
    assert check_cards_in_deck(two_decks, cards("5S 5S JK1 JK1 JK2")) is None
    cabo = build_deck(CABO_RANKS, (), 0, 1, CABO_COUNTS)
    assert check_cards_in_deck(cabo, cards("0 0 13 13 7 7 7 7")) is None


def test_a_card_taken_more_often_than_the_deck_holds_it_is_named() -> None:
    french = build_deck(RANKS, SUITS, 0, 1)
    assert check_cards_in_deck(french, cards("AS 5S KC 5S")) == "card 5S appears 2 times but the deck holds it once"
    cabo = build_deck(CABO_RANKS, (), 0, 1, CABO_COUNTS)
    assert check_cards_in_deck(cabo, cards("13 1 13 13")) == "card 13 appears 3 times but the deck holds it twice"
    assert check_cards_in_deck(cabo, cards("7 7 7 7 7")) == "card 7 appears 5 times but the deck holds it 4 times"


def test_a_card_the_deck_does_not_hold_is_named() -> None:
    french = build_deck(RANKS, SUITS, 0, 1)
    assert check_cards_in_deck(french, cards("AS JK1")) == "card JK1 is not in this deck (no jokers)"
    assert check_cards_in_deck(build_deck(RANKS, SUITS, 1, 1), cards("JK2")) == (
        "card JK2 is not in this deck (jokers: JK1)"
    )
    assert check_cards_in_deck(french, cards("7")) == "card 7 is not in this deck (its cards have suits)"
    cabo = build_deck(CABO_RANKS, (), 0, 1, CABO_COUNTS)
    assert check_cards_in_deck(cabo, cards("1 14 2")) == "card 14 is not in this deck"
    assert check_cards_in_deck(cabo, cards("7S")) == "card 7S is not in this deck (its cards have no suit)"
    small = build_deck(("A", "2"), ("H",), 0, 1)
    assert check_cards_in_deck(small, cards("AH KS")) == "card KS is not in this deck"


def test_the_first_offending_card_is_named() -> None:
    french = build_deck(RANKS, SUITS, 0, 1)
    message = check_cards_in_deck(french, cards("2S 9D JK2 9D"))
    assert message == "card 9D appears 2 times but the deck holds it once"
