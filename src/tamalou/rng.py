"""The game's own seeded random number generator.

SplitMix64: one 64-bit integer of state, so a snapshot stays small and a seed gives the same
shuffles on every machine and every Python version (``random.Random`` makes no such promise
across versions, and its state is 2.5 KB of JSON). Bounded integers use Lemire's
multiply-and-reject method (no modulo bias).
"""

from __future__ import annotations

from struct import Struct
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only annotations name it (never evaluated): compiled, a machine integer; else a plain int
    from mypy_extensions import i64

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_TWO64 = 1 << 64
#: Interpreted, lists up to this long (two full decks) are shuffled with their draws computed together
#: (``_shuffle_lanes``); their constants, kept per length, stay under half a megabyte in all.
_LANES_MAX = 128
#: Per number of draws: the constants of ``_shuffle_lanes`` (a 1 per lane, k + 1 in lane k, the lanes'
#: masks, the struct that reads the lanes' low halves).
_LANES: dict[int, tuple[int, int, int, Struct]] = {}
#: The limb shuffle keeps ``z * n`` under 2**49: lists shorter than this (any deck) take it when compiled.
_LIMB_MAX = 1 << 16


def _probe() -> None:
    """A plain function: compiled by mypyc, it has no ``__code__``."""


#: Whether this module runs compiled (the compiled core, docs/compiled.md).
_COMPILED = not hasattr(_probe, "__code__")


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
        """Fisher-Yates shuffle in place: from the last place down, each place swapped with a place
        ``below(i + 1)`` picks. It runs at every deal, so it is computed the fastest way the module has
        (all give the same permutation and the same final state; ``tests/api/test_rng.py`` compares them):
        compiled, with machine integers (``_shuffle_limbs``); interpreted, with every draw's generator
        output computed at once (``_shuffle_lanes``), else one draw at a time (``_shuffle_plain``)."""
        n = len(items)
        if _COMPILED:
            if n < _LIMB_MAX:
                self._shuffle_limbs(items)
                return
        elif 2 < n <= _LANES_MAX and self._shuffle_lanes(items):
            return
        self._shuffle_plain(items)

    def _shuffle_lanes(self, items: list[int]) -> bool:
        """The shuffle with the generator's outputs for every place computed together: the k-th draw's
        state is ``seed + k * golden``, so the states are written side by side in one big integer, a
        128-bit lane each, and SplitMix64's mixing runs once on all the lanes (each step masked back to
        64 bits a lane; a product of two 64-bit numbers fits its 128-bit lane). Then Lemire's bound
        per place. Returns ``False``, changing nothing, if a draw would be rejected (a chance of about
        one in 10**16 per deal): the plain loop then redraws as the definition says."""
        n = len(items)
        draws = n - 1
        lanes = _LANES.get(draws)
        if lanes is None:
            ones = sum(1 << (128 * k) for k in range(draws))
            counts = sum((k + 1) << (128 * k) for k in range(draws))
            lanes = _LANES[draws] = (ones, counts, _MASK * ones, Struct("<" + "Q8x" * draws))
        ones, counts, lane_mask, unpack = lanes
        seed = self.state
        z = (seed * ones + _GOLDEN * counts) & lane_mask  # every draw's state
        z = ((z ^ (z >> 30)) & lane_mask) * _M1 & lane_mask
        z = ((z ^ (z >> 27)) & lane_mask) * _M2 & lane_mask
        z = (z ^ (z >> 31)) & lane_mask
        saved = items[:]
        mask = _MASK
        i = draws
        for out in unpack.unpack(z.to_bytes(16 * draws, "little")):
            m = out * (i + 1)
            if m & mask <= i:  # possibly rejected (the exact test is in ``below``): start again, plainly
                items[:] = saved
                return False
            j = m >> 64
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.state = (seed + _GOLDEN * draws) & mask
        return True

    def _shuffle_plain(self, items: list[int]) -> None:
        """The shuffle one draw at a time, the generator inlined."""
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

    def _shuffle_limbs(self, items: list[int]) -> None:
        """The same shuffle, each 64-bit number held as two 32-bit halves so that every intermediate
        value stays under 2**49: compiled, that is machine arithmetic (an int of 64 bits or more is a
        Python object, and the plain loop above spends its time allocating them); interpreted, it would
        be slower than the plain loop, which is why ``shuffle`` takes this path only when compiled. Both
        give the same permutation and the same final state (``tests/api/test_rng.py`` compares them)."""
        m32: i64 = 0xFFFFFFFF
        state = self.state
        sh: i64 = state >> 32
        sl: i64 = state & 0xFFFFFFFF  # (a Python int: the state has 64 bits)
        zl: i64
        zh: i64
        lo_a: i64
        lo_b: i64
        t: i64
        hi: i64
        pl: i64
        ph: i64
        j: i64 = 0
        i: i64 = len(items) - 1
        while i > 0:
            n: i64 = i + 1
            while True:
                # s += golden (mod 2**64)
                sl += 0x7F4A7C15
                sh = (sh + 0x9E3779B9 + (sl >> 32)) & m32
                sl &= m32
                # z = s ^ (s >> 30)
                zl = sl ^ (((sl >> 30) | (sh << 2)) & m32)
                zh = sh ^ (sh >> 30)
                # z *= 0xBF58476D1CE4E5B9 (mod 2**64): low half 0x1CE4E5B9 = 0x1CE4 << 16 | 0xE5B9
                lo_b = zl * 0xE5B9
                lo_a = zl * 0x1CE4
                t = lo_b + ((lo_a & 0xFFFF) << 16)
                hi = (t >> 32) + (lo_a >> 16)
                hi += zh * 0xE5B9 + ((zh * 0x1CE4 & 0xFFFF) << 16)  # zh * low half, mod 2**32
                hi += zl * 0x476D + ((zl * 0xBF58 & 0xFFFF) << 16)  # zl * high half 0xBF58476D, mod 2**32
                zl = t & m32
                zh = hi & m32
                # z ^= z >> 27
                zl ^= ((zl >> 27) | (zh << 5)) & m32
                zh ^= zh >> 27
                # z *= 0x94D049BB133111EB (mod 2**64): low half 0x133111EB = 0x1331 << 16 | 0x11EB
                lo_b = zl * 0x11EB
                lo_a = zl * 0x1331
                t = lo_b + ((lo_a & 0xFFFF) << 16)
                hi = (t >> 32) + (lo_a >> 16)
                hi += zh * 0x11EB + ((zh * 0x1331 & 0xFFFF) << 16)
                hi += zl * 0x49BB + ((zl * 0x94D0 & 0xFFFF) << 16)  # high half 0x94D049BB
                zl = t & m32
                zh = hi & m32
                # z ^= z >> 31
                zl ^= ((zl >> 31) | (zh << 1)) & m32
                zh ^= zh >> 31
                # Lemire: m = z * n; j = m >> 64, and the low 64 bits of m decide a (rare) rejection
                pl = zl * n
                ph = zh * n + (pl >> 32)
                j = ph >> 32
                if ph & m32 or (pl & m32) >= n:  # the low 64 bits are at least n: accepted
                    break
                # (in Python ints: 64 bits do not fit a signed native integer)
                if (int(ph & m32) << 32) | int(pl & m32) >= (_TWO64 - int(n)) % int(n):
                    break
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.state = (int(sh) << 32) | int(sl)
