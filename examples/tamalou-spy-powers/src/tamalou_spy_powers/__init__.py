"""tamalou-spy-powers: two card powers for tamalou, usable on any ruleset.

- ``spy_peek_any``: look at any one card on the table, one's own included (a 5 in ``french-spy``);
- ``spy_swap_look``: swap one of your cards with an opponent's, then look at the card you received (a
  Queen in ``french-spy``).

The package is a tamalou plugin found through the entry-point group ``tamalou``: ``tamalou_powers``
registers the powers, ``tamalou_variant_paths`` ships the ruleset ``french-spy`` (a TOML file inside
the package). Any ruleset can use the powers by naming the module and the powers::

    extends = "gabo"
    name = "gabo-spy"
    plugins = ["tamalou_spy_powers"]

    [rules.powers.ranks]
    "5" = "spy_peek_any"
"""

from __future__ import annotations

from pathlib import Path

import tamalou

from .powers import POWERS, SpyPeekAny, SpySwapLook

__all__ = ["VARIANTS", "SpyPeekAny", "SpySwapLook", "tamalou_powers", "tamalou_variant_paths"]

#: The folder of the rulesets this package ships.
VARIANTS = Path(__file__).parent / "variants"


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return list(POWERS)


@tamalou.hookimpl
def tamalou_variant_paths() -> list[Path]:
    return [VARIANTS]
