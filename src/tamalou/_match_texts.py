"""What ``Match.to_json`` keeps between calls (package-internal): the JSON of the parts of a match snapshot that
never change once written (the variant, the stacked deals, each scored round's log and result), so that saving a
match after every action costs about what its round in play costs (benchmarks/match_snapshot.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .engine.snapshot import compact, variant_ref

if TYPE_CHECKING:
    from .actions import Action
    from .schema import Variant
    from .views import Result


class MatchTexts:
    """What ``Match.to_json`` keeps between calls: the JSON of the match's variant and of each scored
    round's log, each with what it was made from (checked by identity, so nothing stale is reused)."""

    __slots__ = ("_deals", "_deals_text", "_results", "_rounds", "_variant", "_variant_text")

    def __init__(self) -> None:
        self._variant: Variant | None = None
        self._variant_text = ""
        self._deals: tuple[dict[str, Any], ...] = ()
        self._deals_text = ""
        self._rounds: list[tuple[list[Action], int, str]] = []  # (the log, its length, its JSON)
        self._results: list[tuple[Result, str]] = []  # (a scored round's result, its JSON)

    def results(self, results: Sequence[Result]) -> str:
        """The JSON of the scored rounds' results (each encoded once: a result never changes)."""
        kept = self._results
        del kept[len(results) :]
        for i, r in enumerate(results):
            if i < len(kept) and kept[i][0] is r:
                continue
            entry = (r, r.model_dump_json())
            if i < len(kept):
                kept[i] = entry
            else:
                kept.append(entry)
        return "[" + ",".join(text for _, text in kept) + "]"

    def deals(self, deals: tuple[dict[str, Any], ...]) -> str:
        """The member ``,"deals":[...]`` of the match's stacked deals; nothing when there are none."""
        if self._deals is not deals:
            text = json.dumps(list(deals), separators=(",", ":"))
            self._deals_text = f',"deals":{text}' if deals else ""
            self._deals = deals
        return self._deals_text

    def variant(self, variant: Variant) -> str:
        """The JSON of ``variant_ref(variant)``."""
        if self._variant is not variant:
            self._variant_text = json.dumps(variant_ref(variant), separators=(",", ":"))
            self._variant = variant
        return self._variant_text

    def history(self, history: Sequence[list[Action]]) -> str:
        """The JSON of the scored rounds' logs (a list of ``_log_json`` lists): each encoded once."""
        kept = self._rounds
        del kept[len(history) :]
        for i, log in enumerate(history):
            if i < len(kept) and kept[i][0] is log and kept[i][1] == len(log):
                continue
            entry = (log, len(log), _log_json(log))
            if i < len(kept):
                kept[i] = entry
            else:
                kept.append(entry)
        return "[" + ",".join(text for _, _, text in kept) + "]"


def _log_json(actions: Sequence[Action]) -> str:
    return json.dumps([compact(a) for a in actions], separators=(",", ":"))
