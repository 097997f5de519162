"""tamalou-golf: Golf, the card game, refereed by tamalou, written with tamalou's published API alone.

The rulesets (``variants/``), found through the entry-point group ``tamalou``:

- ``golf-4``: 2×2, the bottom row peeked at the deal, the round ends by a knock;
- ``golf-6``: 2 rows of 3, two cards turned up at the opening, the flip, the round ends when a player's
  cards are all face up;
- ``golf-9``: 3×3, three cards turned up, three of a rank in a column cancel;
- ``golf-6-knock``: golf-6 with the knock (from one's second turn on) and two jokers worth -2.

golf-6 and golf-6-knock are for 2 to 8 players (one deck, two from 5 players: ``rules.deck.copies``); golf-4 and
golf-9 for 2 to 4 (the README shows the ruleset a larger table writes).

Most of Golf is tamalou's own keys: the layout's shape (``rules.deal.grid``: 2×2, 2×3, 3×3), a public opening
(``rules.peek.public``), cards placed face up (``rules.draw.placed``) and the flip (``rules.draw.discard_turns_up``).
The rest is one mechanic, ``Golf`` (going out, the columns), and Golf's scoring, in the plugin module every ruleset
names, ``tamalou_golf.mechanic``; its one setting is ``[options.golf] go_out`` (``GolfOptions``), validated when the
ruleset loads. golf-6-knock is golf-6 with keys (the knock from one's second turn, the jokers). The README says the
rules for players, and what the package needed from tamalou.
"""

from __future__ import annotations

from pathlib import Path

import tamalou

from .mechanic import OUT, Golf, GolfOptions, golf_scores

__all__ = [
    "OUT",
    "VARIANTS",
    "Golf",
    "GolfOptions",
    "golf_scores",
    "tamalou_variant_paths",
]

#: The folder of the rulesets this package ships.
VARIANTS = Path(__file__).parent / "variants"


@tamalou.hookimpl
def tamalou_variant_paths() -> list[Path]:
    return [VARIANTS]
