"""``LinearBot``: a bot whose turn decisions are a learned linear score of a few features of each move (the bot
that ``docs/train-a-bot.md`` trains), saved to and loaded from a file: ``make_bot("file:agent.npz")`` or
``tamalou play --bots file:agent.npz``.

**What it decides.** On its turn, in the phases ``draw``, ``hold``, ``power`` and ``call``, each listed move gets
the features below (``features(view, action)``: what a seat's view says of that move, counted as the greedy bot
counts cards: a card it has not seen at the mean of the cards it has not seen) and the bot plays the move of the
highest score ``weights · features`` (the first of the best). The other decisions (an opening peek, out-of-turn
matches, a power's second step, a card owed to an opponent, the moves of other phases) it leaves to a
``GreedyBot``, as the ISMCTS bot does.

**The features** (``FEATURES``, all in points / 10 or 0/1): drawing from the stock, and what the stock's mean
card would gain on the worst own card; drawing the discard's top, and what it would gain; keeping the held card
in a slot (what it gains there, and whether that slot's card is unknown); throwing the held card (and what it
would have gained on the worst own card); using a power (its hint: ``CardPower.hint``, the bots contract);
a move a mechanic hints at (``Mechanic.hint``); passing; calling (with the own expected total against the call
threshold and against the lowest opponent's expected total).

**The file**: ``LinearBot(weights).save(path)`` writes a NumPy ``.npz`` (the weights and the features' names;
``numpy`` is needed to save and load, not to play) or, for any other suffix, JSON; ``LinearBot.load(path)``
reads either and checks that the features are the ones this version computes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..actions import Action, Call, Discard, Draw, Pass, Power, Replace
from ..schema import Variant
from ..views import SeatView
from .greedy import GreedyBot
from .view_reader import card_at

if TYPE_CHECKING:
    from typing import Self

__all__ = ["FEATURES", "LinearBot"]

#: The features of a move, in order (see the module's text).
FEATURES: tuple[str, ...] = (
    "draw_stock",
    "draw_stock_gain",
    "draw_discard",
    "draw_discard_gain",
    "keep",
    "keep_gain",
    "keep_unknown",
    "throw",
    "throw_forgone",
    "power",
    "power_hint",
    "hinted_move",
    "move_hint",
    "pass",
    "call",
    "call_over_threshold",
    "call_over_opponents",
)
_AT = {name: i for i, name in enumerate(FEATURES)}
#: The phases where it decides by its weights.
DECIDED = frozenset(("draw", "hold", "power", "call"))


class LinearBot(GreedyBot):
    """Plays its turns by ``weights · features(view, move)`` (see the module's text); ``weights`` has one number
    per name of ``FEATURES``."""

    def __init__(self, weights: Sequence[float], seed: int = 0, variant: Variant | str | None = None) -> None:
        if len(weights) != len(FEATURES):
            raise ValueError(f"a LinearBot has {len(FEATURES)} weights ({', '.join(FEATURES)}), got {len(weights)}")
        self.weights = [float(w) for w in weights]
        super().__init__(seed, variant)

    # -- deciding ---------------------------------------------------------------------------------

    def decides(self, view: SeatView, legal_actions: list[Action]) -> bool:
        """Whether this decision is the weights' (else the greedy bot's)."""
        return (
            view.phase in DECIDED and view.player in view.to_act and any(a.player == view.player for a in legal_actions)
        )

    def features(self, view: SeatView, action: Action) -> list[float]:
        """The features of ``action`` (one of the seat's listed moves) in ``view``, in the order of ``FEATURES``."""
        return self.features_of(view, [action])[0]

    def features_of(self, view: SeatView, actions: Sequence[Action]) -> list[list[float]]:
        """``features(view, a)`` for each of ``actions``, what the view says of the cards worked out once."""
        worth = self.card_worth(view)
        est = worth.unseen()  # the mean of the unseen cards, worked out once
        values = self.facts.values
        me = view.player
        own = [est if s.card is None else float(values[s.card]) for s in view.hands[me]]
        worst = max(own, default=0.0)
        power = self.facts.rb.powers.get(view.power or "")
        out = []
        for action in actions:
            f = [0.0] * len(FEATURES)
            if isinstance(action, Draw):
                if action.source == "discard" and view.discard_top is not None:
                    f[_AT["draw_discard"]] = 1.0
                    f[_AT["draw_discard_gain"]] = (worst - values[view.discard_top]) / 10
                else:
                    f[_AT["draw_stock"]] = 1.0
                    f[_AT["draw_stock_gain"]] = (worst - est) / 10
            elif isinstance(action, Replace) and view.held is not None:
                card = card_at(view, me, action.slot)
                there = est if card is None else float(values[card])
                f[_AT["keep"]] = 1.0
                f[_AT["keep_gain"]] = (there - values[view.held]) / 10
                f[_AT["keep_unknown"]] = 1.0 if card is None else 0.0
            elif isinstance(action, Discard) and view.held is not None:
                f[_AT["throw"]] = 1.0
                f[_AT["throw_forgone"]] = (worst - values[view.held]) / 10
            elif isinstance(action, Power):
                f[_AT["power"]] = 1.0
                hint = power.hint(view, action, worth) if power is not None else None
                f[_AT["power_hint"]] = (hint or 0.0) / 10
            elif isinstance(action, Pass):
                f[_AT["pass"]] = 1.0
            elif isinstance(action, Call):
                total = sum(own)
                others = [
                    self.expected_total(view, p, est) for p in range(view.players) if p != me and p not in view.left
                ]
                f[_AT["call"]] = 1.0
                f[_AT["call_over_threshold"]] = (total - self.call_level) / 10
                f[_AT["call_over_opponents"]] = (total - min(others, default=total)) / 10
            else:  # a mechanic's move (a plugin's, or a built-in one such as Cabo's exchange of equal cards)
                f[_AT["hinted_move"]] = 1.0
                hint = next((h for m in self.facts.hinting if (h := m.hint(view, action, worth)) is not None), None)
                f[_AT["move_hint"]] = (hint or 0.0) / 10
            out.append(f)
        return out

    def act(self, view: SeatView, legal_actions: list[Action]) -> Action | None:
        if not legal_actions or not self.decides(view, legal_actions):
            return super().act(view, legal_actions)
        mine = [a for a in legal_actions if a.player == view.player and a.type != "match"]
        if not mine:
            return super().act(view, legal_actions)
        scores = [sum(w * x for w, x in zip(self.weights, f, strict=True)) for f in self.features_of(view, mine)]
        choice = mine[scores.index(max(scores))]  # the first of the best
        if isinstance(choice, Power):
            self.used(view.power, choice)  # its second step is the greedy bot's, told what was chosen
        return choice

    # -- the file ---------------------------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Write the weights to ``path``: NumPy's ``.npz`` (needs numpy) or, for another suffix, JSON."""
        target = Path(path)
        if target.suffix == ".npz":
            np = _numpy()

            np.savez(target, weights=np.asarray(self.weights, dtype=np.float64), features=np.asarray(FEATURES))
        else:
            target.write_text(json.dumps({"features": list(FEATURES), "weights": self.weights}) + "\n", "utf-8")
        return target

    @classmethod
    def load(cls, path: str | Path, seed: int = 0) -> Self:
        """A bot with the weights of ``path`` (written by ``save``). The file is read as one from outside: a
        regular file of ``MAX_FILE_BYTES`` at most; a ``.npz`` must hold the two arrays ``save`` writes, their
        shapes and types checked from their headers before anything is read; JSON must be the object ``save``
        writes. Anything else is a ``ValueError`` in one line (a ``.npz`` is never unpickled)."""
        source = Path(path)
        if not source.is_file():
            raise ValueError(f"{source}: no such file (a bot's file is a regular file)")
        size = source.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ValueError(f"{source}: {size} bytes, a bot's file is {MAX_FILE_BYTES} bytes at most")
        names, weights = _read_npz(source) if source.suffix == ".npz" else _read_json(source)
        if tuple(names) != FEATURES:
            raise ValueError(f"{source}: its features are not this version's ({', '.join(FEATURES)})")
        if not all(math.isfinite(w) for w in weights):
            raise ValueError(f"{source}: a weight is not a finite number")
        return cls(weights, seed)

    def __repr__(self) -> str:
        return f"LinearBot({', '.join(f'{n}={w:.2f}' for n, w in zip(FEATURES, self.weights, strict=True))})"


#: The largest bot file read (one ``save`` writes is about 2 KB).
MAX_FILE_BYTES = 64 * 1024
#: The longest feature name a file may hold (this version's are under 30 characters).
_MAX_NAME = 64


def _read_npz(source: Path) -> tuple[list[str], list[float]]:
    """The features and weights of a ``.npz`` that ``save`` wrote, each member's header read and checked (its
    shape, its type, its size) before its data, so that a file declaring a huge array is refused at once."""
    import zipfile

    np = _numpy()
    want = {"weights.npy": ("f", 8), "features.npy": ("U", 4 * _MAX_NAME)}
    arrays: dict[str, Any] = {}
    try:
        with zipfile.ZipFile(source) as archive:
            members = {info.filename: info for info in archive.infolist()}
            if set(members) != set(want):
                raise ValueError(f"it holds {sorted(members)[:5]}, expected the arrays weights and features")
            for name, (kind, most) in want.items():
                info = members[name]
                if info.file_size > MAX_FILE_BYTES:
                    raise ValueError(f"{name}: {info.file_size} bytes unpacked, at most {MAX_FILE_BYTES}")
                with archive.open(info) as member:
                    version = np.lib.format.read_magic(member)
                    if version == (1, 0):
                        shape, _order, dtype = np.lib.format.read_array_header_1_0(member)
                    elif version == (2, 0):
                        shape, _order, dtype = np.lib.format.read_array_header_2_0(member)
                    else:
                        raise ValueError(f"{name}: NumPy format {version} is not read")
                    if shape != (len(FEATURES),) or dtype.kind != kind or dtype.itemsize > most or dtype.hasobject:
                        raise ValueError(
                            f"{name}: an array of shape {shape} and type {dtype}, expected {len(FEATURES)} "
                            + ("numbers" if kind == "f" else "names")
                        )
                    data = member.read(dtype.itemsize * len(FEATURES))
                arrays[name] = np.frombuffer(data, dtype=dtype, count=len(FEATURES))
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ValueError(f"not a bot's .npz ({exc})") from None
    except ValueError as exc:
        raise ValueError(f"not a bot's .npz: {str(exc)[:300]}") from None
    return [str(n) for n in arrays["features.npy"]], [float(w) for w in arrays["weights.npy"]]


def _read_json(source: Path) -> tuple[list[str], list[float]]:
    """The features and weights of a JSON bot file: ``{"features": [names], "weights": [numbers]}``."""
    with source.open("rb") as f:
        raw = f.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"more than {MAX_FILE_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError("not a bot's JSON (nested too deep)") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"not JSON ({str(exc)[:200]})") from None
    if not isinstance(data, dict) or set(data) != {"features", "weights"}:
        raise ValueError('expected the JSON object {"features": [names], "weights": [numbers]}')
    names, weights = data["features"], data["weights"]
    if not isinstance(names, list) or not all(isinstance(n, str) and len(n) <= _MAX_NAME for n in names):
        raise ValueError("features: a list of the features' names")
    if not isinstance(weights, list) or not all(type(w) in (int, float) for w in weights):
        raise ValueError("weights: a list of numbers")
    if len(weights) != len(names):
        raise ValueError(f"{len(weights)} weights for {len(names)} features")
    return names, [float(w) for w in weights]


def _numpy() -> Any:
    """NumPy, for ``.npz`` files; without it, an ``ImportError`` that says which extra brings it."""
    try:
        import numpy
    except ImportError:
        raise ImportError(
            "a .npz bot file needs numpy (the ai extra): pip install 'tamalou[ai]', or save the bot as .json",
            name="numpy",
        ) from None
    return numpy
