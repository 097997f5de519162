"""The game's generator (``tamalou.rng``): SplitMix64, its shuffle, and the two ways the shuffle is computed.

A seed must give the same deal on every machine, every Python version and every release (a saved game is
its seed and its actions), and the compiled core must deal exactly what the pure package deals. The
compiled core shuffles with 32-bit halves (``Rng._shuffle_limbs``) and the pure package with Python's
big integers: both are checked here against each other and against fixed answers, in whichever core runs
the suite.
"""

from __future__ import annotations

import random

import pytest

from tamalou.rng import Rng

# The published first outputs of SplitMix64 for the seed 0.
SPLITMIX64_SEED_0 = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]

# A 52-card shuffle of seed 7 and the generator's state after it: any change here changes every saved game.
SEED_7_DECK = [
    34, 6, 15, 18, 41, 22, 48, 8, 50, 30, 16, 19, 13, 2, 44, 40, 42, 37, 43, 7, 26, 23, 9, 35, 29, 1,
    27, 25, 12, 10, 3, 38, 24, 49, 46, 31, 51, 32, 33, 36, 39, 4, 17, 5, 14, 47, 11, 21, 28, 45, 0, 20,
]  # fmt: skip
SEED_7_STATE = 9587389500487022646


def _reference_shuffle(seed: int, items: list[int]) -> int:
    """Fisher-Yates with SplitMix64 and Lemire's bounded integers, written plainly from their definitions
    (one ``next64`` and one ``below`` per card); returns the final state."""
    rng = Rng(seed)
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return rng.state


def _lanes_or_plain(rng: Rng, items: list[int]) -> None:
    """``_shuffle_lanes``, or (when it declines: a draw that may be rejected) ``_shuffle_plain``."""
    if len(items) < 2 or not rng._shuffle_lanes(items):
        rng._shuffle_plain(items)


def test_a_draw_that_may_be_rejected_falls_back_to_the_plain_loop() -> None:
    """Lemire's method rejects a draw when the low 64 bits of ``output * bound`` are under ``2**64 % bound``:
    the lanes give up (leaving the list and the state as they were) whenever those bits are under the
    bound, and the plain loop redraws. A seed whose first draw lands there is found by inverting the
    generator's mixing (each step is invertible): its first output is the smallest with ``output * 52 >=
    2**64``, so the product's low 64 bits are under 52."""

    def unmix(z: int) -> int:  # SplitMix64's mixing, inverted step by step
        z = _unshift(z, 31)
        z = (z * pow(0x94D049BB133111EB, -1, 2**64)) % 2**64
        z = _unshift(z, 27)
        z = (z * pow(0xBF58476D1CE4E5B9, -1, 2**64)) % 2**64
        return _unshift(z, 30)

    output = -(-(2**64) // 52)  # ceil(2**64 / 52)
    assert (output * 52) % 2**64 < 52
    seed = (unmix(output) - 0x9E3779B97F4A7C15) % 2**64
    assert Rng(seed).next64() == output
    rng = Rng(seed)
    items = list(range(52))
    assert rng._shuffle_lanes(items) is False
    assert items == list(range(52)) and rng.state == seed
    expected = list(range(52))
    expected_state = _reference_shuffle(seed, expected)
    rng.shuffle(items)
    assert items == expected and rng.state == expected_state


def _unshift(z: int, k: int) -> int:
    """The inverse of ``z ^ (z >> k)`` on 64 bits."""
    out = z
    for _ in range(64 // k + 1):
        out = z ^ (out >> k)
    return out


def test_next64_gives_the_published_splitmix64_outputs() -> None:
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == SPLITMIX64_SEED_0


def test_a_seed_deals_the_same_deck_in_every_release() -> None:
    rng = Rng(7)
    deck = list(range(52))
    rng.shuffle(deck)
    assert deck == SEED_7_DECK
    assert rng.state == SEED_7_STATE


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 16, 52, 54, 200, 1000])
def test_both_ways_of_shuffling_agree_with_the_plain_definition(size: int) -> None:
    seeds = [0, 1, 7, 2**63 - 1, 2**64 - 1, *(random.Random(size).getrandbits(64) for _ in range(300))]
    for seed in seeds:
        expected = list(range(size))
        expected_state = _reference_shuffle(seed, expected)
        for shuffle in (Rng.shuffle, Rng._shuffle_limbs, Rng._shuffle_plain, _lanes_or_plain):
            rng = Rng(seed)
            items = list(range(size))
            shuffle(rng, items)
            assert items == expected, (shuffle.__name__, seed)
            assert rng.state == expected_state, (shuffle.__name__, seed)
