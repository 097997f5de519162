"""The game's own seeded random number generator.

SplitMix64: one 64-bit integer of state, so a snapshot stays small and a seed gives the same
shuffles on every machine and every Python version (``random.Random`` makes no such promise
across versions, and its state is 2.5 KB of JSON). Bounded integers use Lemire's
multiply-and-reject method (no modulo bias).
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_TWO64 = 1 << 64


class Rng:
    """Deterministic generator; ``state`` is a plain int that restores it exactly."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def __reduce__(self) -> tuple[type[Rng], tuple[int]]:
        return (Rng, (self.state,))

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = s = (self.state + _GOLDEN) & _MASK
        s = ((s ^ (s >> 30)) * _M1) & _MASK
        s = ((s ^ (s >> 27)) * _M2) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        while True:
            m = self.next64() * n
            low = m & _MASK
            if low >= n or low >= (_TWO64 - n) % n:
                return m >> 64

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates shuffle in place (the generator inlined: this runs at every deal)."""
        s = self.state
        golden, mask, m1, m2, two64 = _GOLDEN, _MASK, _M1, _M2, _TWO64  # locals: read once, not per card
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            while True:
                s = (s + golden) & mask
                z = ((s ^ (s >> 30)) * m1) & mask
                z = ((z ^ (z >> 27)) * m2) & mask
                m = (z ^ (z >> 31)) * n
                low = m & mask
                if low >= n or low >= (two64 - n) % n:
                    break
            j = m >> 64
            items[i], items[j] = items[j], items[i]
        self.state = s
