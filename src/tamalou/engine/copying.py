"""Copies of a round's state: ``copy_into`` (an independent copy: ``Round.copy``), ``save`` and ``restore`` (what
``Round.push`` keeps and ``Round.pop`` puts back), and the slots of a mechanic's state object (``state_slots``,
``copy_state``), which snapshots save too.

The undo keeps only what changes (the core's saved fields, the generator's state, the log's length, each
mechanic's slots), read and written through getters and setters made once per class: a push and a pop cost
a few microseconds (benchmarks/ismcts.py: the search pushes and pops at every simulated step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rng import Rng
from .round_state import State

if TYPE_CHECKING:
    from .flow import Flow


def _copy_value(v: Any) -> Any:
    if isinstance(v, list):
        return [list(x) if isinstance(x, list) else x for x in v]
    return v


_SLOTS: dict[type, tuple[str, ...]] = {}


def state_slots(obj: object) -> tuple[str, ...]:
    """Every slot of a state object's class and its bases (base classes' first), cached by class: what a
    snapshot saves of a mechanic's state."""
    cls = type(obj)
    names = _SLOTS.get(cls)
    if names is None:
        found: list[str] = []
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", ())
            found.extend([slots] if isinstance(slots, str) else slots)
        names = _SLOTS[cls] = tuple(found)
    return names


def copy_state(st: Any) -> Any:
    """A copy of a mechanic's state object (its slots; lists, and lists in lists, copied)."""
    if st is None:
        return None
    new = object.__new__(type(st))
    for name in state_slots(st):
        setattr(new, name, _copy_value(getattr(st, name)))
    return new


def copy_into(g: Flow, other: Flow) -> None:
    """Make ``g`` an independent copy of ``other``."""
    g.init_runtime(other.variant, other.players)
    g.deal_spec = other.deal_spec
    g.cards, g.text, g.rank, g.value, g.power_of = other.cards, other.text, other.rank, other.value, other.power_of
    for key in g.STATE:
        setattr(g, key, _copy_value(getattr(other, key)))
    g.rng = Rng(0)
    g.rng.state = other.rng.state
    g.actions = list(other.actions)
    g._result = other._result
    g.ms = [copy_state(st) for st in other.ms]


# ----------------------------------------------------------------------------- undo (push / pop)

#: What ``save`` keeps: the core's saved fields (``State.STATE``), the generator's state, how long the
#: action log was, the cached result, each mechanic's state object with its slots' values, and the log's last
#: action. A game's other attributes are fixed for the round (the variant, the rulebook, the cards' faces).
Memento = tuple[list[Any], int, int, Any, list[Any], list[Any], Any]

_GETTERS: dict[type, tuple[Any, Any, tuple[str, ...]]] = {}


def _getter(cls: type, names: tuple[str, ...]) -> tuple[Any, Any, tuple[str, ...]]:
    """For the slots ``names`` of ``cls``: a function returning their values (a tuple), one setting them
    from such a sequence, and the names. Both are made once per class (one attribute access each)."""
    from operator import attrgetter

    if not names:
        found: tuple[Any, Any, tuple[str, ...]] = (lambda obj: (), lambda obj, values: None, names)
    else:
        get = attrgetter(*names) if len(names) > 1 else (lambda obj, _n=names[0]: (getattr(obj, _n),))
        for n in names:
            if not n.isidentifier():  # pragma: no cover - slot names are identifiers
                raise ValueError(f"not a slot name: {n!r}")
        code = f"def set_all(obj, values):\n    {', '.join('obj.' + n for n in names)}, = values\n"
        scope: dict[str, Any] = {}
        exec(code, scope)  # one tuple assignment: several times quicker than a loop of setattr
        found = (get, scope["set_all"], names)
    _GETTERS[cls] = found
    return found


def _copied(values: tuple[Any, ...]) -> list[Any]:
    return [_copy_value(v) if type(v) is list else v for v in values]


def _core_copier(names: tuple[str, ...]) -> Any:
    """The core's fields, copied: ``hands`` (lists of card ids) list by list, the flat lists of ints
    (``stock``, ``discard``, ``knowers``) at C speed, anything else as ``_copy_value`` copies it."""

    def copy(values: tuple[Any, ...]) -> list[Any]:
        out = list(values)
        for i in flat:
            out[i] = out[i][:]
        for i in nested:
            out[i] = [x[:] for x in out[i]]
        for i in other:
            out[i] = _copy_value(out[i])
        return out

    flat = [i for i, n in enumerate(names) if n in ("stock", "discard", "knowers")]
    nested = [i for i, n in enumerate(names) if n == "hands"]
    other = [i for i, n in enumerate(names) if n not in ("stock", "discard", "knowers", "hands")]
    return copy


_CORE: list[Any] = []


def save(g: Flow) -> Memento:
    """What ``restore`` needs to put ``g`` back exactly as it is now: the mutable state only (lists
    copied, lists in lists too)."""
    if not _CORE:
        get, set_all, names = _getter(State, g.STATE)
        _CORE.extend((get, _core_copier(names), set_all))
    get_core, copy_core, _ = _CORE
    states: list[Any] = g.ms
    values: list[Any] = []
    for st in states:
        if st is None:
            values.append(None)
            continue
        found = _GETTERS.get(type(st))
        if found is None:
            found = _getter(type(st), state_slots(st))
        values.append(_copied(found[0](st)))
    log = g.actions
    last = log[-1] if log else None  # a quiet tick takes the last tick's place (Round.apply): put it back
    return (copy_core(get_core(g)), g.rng.state, len(log), g._result, list(states), values, last)


def restore(g: Flow, memento: Memento) -> None:
    """Put ``g`` back as it was when ``save`` made ``memento`` (which it takes over: use it once)."""
    core, rng_state, n_actions, result, states, values, last = memento
    _CORE[2](g, core)
    g.rng.state = rng_state
    del g.actions[n_actions:]
    if n_actions:
        g.actions[-1] = last
    g._result = result
    g.ms = states
    for st, saved in zip(states, values, strict=True):
        if st is not None:
            _GETTERS[type(st)][1](st, saved)
