"""Write the golden node counts of the exhaustive walks (``tamalou.verify.exhaustive``) of every built-in ruleset:
``tests/data/perft/RULESET.json``, the nodes by depth of each small deal, by its player count, to ``DEPTH``.

``tests/properties/test_exhaustive.py`` compares the engine's counts with these (to depth 2 in the fast tier, to
``DEPTH`` in the deep one): a change to a rule that alters them fails until they are written again and the
difference reviewed, as python-chess keeps its perft results.

Usage (from the repository root)::

    python scripts/gen_perft.py            # rewrite the files
    python scripts/gen_perft.py --check    # exit 1 if a committed file differs from the engine's counts
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tamalou.verify import exhaustive

ROOT = Path(__file__).resolve().parents[1]
PERFT = ROOT / "tests" / "data" / "perft"
#: The depth the golden counts go to.
DEPTH = 3


def rulesets() -> list[str]:
    """Every built-in ruleset: the games and the modifiers (a modifier alone plays on its base)."""
    return sorted(p.stem for p in (ROOT / "variants").glob("*.toml"))


def counts(name: str) -> str:
    """The file of ``name``: its counts, a line per player count (the nodes at depth 0, 1, 2...)."""
    nodes = exhaustive(name, DEPTH, check=False).counts()
    lines = [f'    "{n}": {json.dumps(by_depth)}' for n, by_depth in nodes.items()]
    return "{\n" + f'  "ruleset": "{name}",\n  "depth": {DEPTH},\n  "nodes": {{\n' + ",\n".join(lines) + "\n  }\n}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    stale = []
    PERFT.mkdir(parents=True, exist_ok=True)
    for name in rulesets():
        path = PERFT / f"{name}.json"
        text = counts(name)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"perft counts differ from tests/data/perft/ for: {', '.join(stale)} (python scripts/gen_perft.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
