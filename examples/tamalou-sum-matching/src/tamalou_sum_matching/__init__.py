"""tamalou-sum-matching: a house rule for tamalou, "sum matching".

On a thrown card, a player may throw two of their own cards *together* when their values add up to
the thrown card's value (on a 10: a 6 and a 4). A right sum takes both cards; a wrong sum is a miss:
both cards go back to their slots face up (everyone saw them) and the player takes the variant's
matching penalty. The move is listed in the same windows as matching, under the same limits.

The package is a tamalou plugin found through the entry-point group ``tamalou``:

- ``tamalou_mechanics`` registers the mechanic (``SumMatching``), which brings the new action type
  ``sum_match`` (``SumMatch``);
- ``tamalou_variant_paths`` ships the ruleset ``french-sum-matching`` (French Tamalou with sum
  matching), a TOML file inside the package.

Any ruleset with matching can take the rule by naming the module::

    extends = "french"
    plugins = ["tamalou_sum_matching"]
"""

from __future__ import annotations

from pathlib import Path

import tamalou

from .mechanic import SumMatch, SumMatching

__all__ = ["VARIANTS", "SumMatch", "SumMatching", "tamalou_mechanics", "tamalou_variant_paths"]

#: The folder of the rulesets this package ships.
VARIANTS = Path(__file__).parent / "variants"


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [SumMatching]


@tamalou.hookimpl
def tamalou_variant_paths() -> list[Path]:
    return [VARIANTS]
