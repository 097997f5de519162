"""The contract between matching and the other mechanics (docs/write-a-mechanic.md): what matching asks of
them (``MatchBlocker``, ``MatchListener``) and its version. What matching offers them is the methods of
``tamalou.mechanics.matching.Matching`` marked "(contract)"; ``Matching.of(rulebook)`` finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..round_table import RoundTable

#: The version of the matching contract: ``MatchBlocker``, ``MatchListener`` and the methods of ``Matching`` marked
#: "(contract)". A change that would break a mechanic written against them raises it.
MATCHING_CONTRACT = 1


@runtime_checkable
class MatchBlocker(Protocol):
    """A mechanic that may forbid matching: ``match_blocked(g, p)`` says why ``p`` may not match now, or
    ``None``. Matching asks each one when it lists and when it applies a throw (contract 1)."""

    def match_blocked(self, g: RoundTable, p: int) -> str | None: ...


@runtime_checkable
class MatchListener(Protocol):
    """A mechanic told of every throw on the card on offer: ``match_result(g, p, right)`` after ``p`` threw one
    or more cards on it, all right (``True``) or not; a late right card taken back is not a throw (contract 1)."""

    def match_result(self, g: RoundTable, p: int, right: bool) -> None: ...
