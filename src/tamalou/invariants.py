"""Moved to ``tamalou.verify`` (the invariants: ``tamalou.verify.registry`` and the ``checks_*`` modules;
random playouts: ``tamalou.verify.playout`` and ``tamalou.verify.chooser``; ``verify``:
``tamalou.verify.runner``); this path keeps working for this release.

Import from ``tamalou.verify`` instead::

    from tamalou.verify import INVARIANTS, check_all, random_playout, verify
"""

from __future__ import annotations

from .verify import (
    INVARIANTS,
    Chooser,
    Failure,
    Invariant,
    InvariantViolation,
    RandomChooser,
    VerifyReport,
    check_accepted_is_listed,
    check_all,
    check_conservation,
    check_illegal_leaves_state,
    check_knowledge,
    check_knowledge_events,
    check_legal_actions_accepted,
    check_listing_complete,
    check_no_crash,
    check_no_leak,
    check_refusals,
    check_replay,
    check_result,
    check_slot_order,
    check_snapshot_roundtrip,
    check_step_knowledge,
    check_termination,
    choose_action,
    exchange_faces,
    play_out,
    random_action,
    random_playout,
    step_bound,
    turn_bound,
    verify,
)

__all__ = [
    "INVARIANTS",
    "Chooser",
    "Failure",
    "Invariant",
    "InvariantViolation",
    "RandomChooser",
    "VerifyReport",
    "check_accepted_is_listed",
    "check_all",
    "check_conservation",
    "check_illegal_leaves_state",
    "check_knowledge",
    "check_knowledge_events",
    "check_legal_actions_accepted",
    "check_listing_complete",
    "check_no_crash",
    "check_no_leak",
    "check_refusals",
    "check_replay",
    "check_result",
    "check_slot_order",
    "check_snapshot_roundtrip",
    "check_step_knowledge",
    "check_termination",
    "choose_action",
    "exchange_faces",
    "play_out",
    "random_action",
    "random_playout",
    "step_bound",
    "turn_bound",
    "verify",
]
