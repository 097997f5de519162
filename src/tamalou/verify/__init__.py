"""Invariants of a round, checkable on any game, and ``tamalou verify`` as a library: the verification
layer of tamalou.

Each ``check_*`` function raises ``InvariantViolation`` (an ``AssertionError``) with a message that
says what broke, where (turn, phase, player to play) and with which cards; it returns ``None`` when
the invariant holds. Every argument but the game has a default: a check that samples (pairs of
cards, random actions) draws from a generator seeded from the game itself, so the same state is
checked the same way every time. They need no test framework, so a server can run them on live
games, a ruleset author in plain tests, and ``tamalou verify`` on random play::

    import tamalou
    from tamalou.verify import check_all, check_conservation, check_no_leak, random_playout

    game = random_playout("french", players=4, seed=7, check_every=1)  # all checks, every step
    check_conservation(game)
    check_no_leak(game, player=0)
    check_all(game)

``verify`` plays many random games with every check, in worker processes, and reports by invariant;
a failure shrinks to a counterexample that replays anywhere::

    from tamalou.verify import Counterexample, shrink, verify

    report = verify("my_rules.toml", games=200, workers=2)
    for name, count in report.checks.items():
        print(name, count, report.failed.get(name, 0))
    if not report.ok:
        example = shrink("my_rules.toml", report.details[0])   # a Counterexample (pydantic)
        example.write("counterexample.json")

    example = Counterexample.read("counterexample.json")
    outcome = example.check()            # plays the actions again, checks the invariant that broke
    print(outcome.violation or "fixed")  # what ``tamalou replay counterexample.json`` says

Where each subject lives (everything public is importable from here):

- ``violation.py``: ``InvariantViolation``, and how a check words one (where, which card, the first
  difference);
- ``registry.py``: ``INVARIANTS`` (each ``Invariant`` by its stable name, described) and ``check_all``;
- ``checks_cards.py``: where the cards lie (``check_conservation``, ``check_slot_order``);
- ``checks_knowledge.py``: who knows what (``check_knowledge``, ``check_step_knowledge``,
  ``check_knowledge_events``, ``exchange_faces``, ``check_no_leak``);
- ``checks_actions.py``: listed, refused and accepted actions (``check_legal_actions_accepted``,
  ``check_illegal_leaves_state``, ``check_refusals``, ``check_accepted_is_listed``,
  ``check_listing_complete``, ``check_no_crash``) and ``random_action``;
- ``checks_round.py``: a round as a whole (``check_snapshot_roundtrip``, ``check_replay``,
  ``check_result``, ``check_termination``);
- ``bounds.py``: how long a turn and a round may run (``turn_bound``, ``step_bound``);
- ``chooser.py``: random choices of a legal action (``Chooser``, ``RandomChooser``, ``choose_action``);
- ``playout.py``: random games played to their end (``play_out``, ``random_playout``);
- ``game_check.py``: one game of ``verify`` checked (``check_game``, ``GameReport``, ``Failure``), the
  playing styles (``STYLES``, ``style_of``) and ``SAMPLES``;
- ``runner.py``: many games in worker processes (``verify``, ``VerifyReport``, ``default_workers``);
- ``reproduction.py``: recorded actions played again and checked (``reproduce``, ``Reproduction``);
- ``counterexample.py``: counterexample files (``Counterexample``, ``EmbeddedVariant``,
  ``counterexample_name``);
- ``shrink.py``: a failure made a small counterexample (``shrink``, ``ShrinkBudget``; ``shortest``: the
  failure of a run to shrink).

``tamalou.invariants`` and ``tamalou.verification``, where these lived before, re-export them for this
release; ``tamalou.testing`` builds hypothesis strategies on them.
"""

from __future__ import annotations

from .bounds import step_bound, turn_bound
from .checks_actions import (
    check_accepted_is_listed,
    check_illegal_leaves_state,
    check_legal_actions_accepted,
    check_listing_complete,
    check_no_crash,
    check_refusals,
    random_action,
)
from .checks_cards import check_conservation, check_slot_order
from .checks_knowledge import (
    check_knowledge,
    check_knowledge_events,
    check_no_leak,
    check_step_knowledge,
    exchange_faces,
)
from .checks_round import check_replay, check_result, check_snapshot_roundtrip, check_termination
from .chooser import Chooser, RandomChooser, choose_action
from .counterexample import Counterexample, EmbeddedVariant, counterexample_name
from .game_check import SAMPLES, STYLES, Failure, GameReport, check_game, style_of
from .playout import play_out, random_playout
from .registry import INVARIANTS, Invariant, check_all
from .reproduction import Reproduction, reproduce
from .runner import VerifyReport, default_workers, verify
from .shrink import ShrinkBudget, shortest, shrink
from .violation import InvariantViolation

__all__ = [
    "INVARIANTS",
    "SAMPLES",
    "STYLES",
    "Chooser",
    "Counterexample",
    "EmbeddedVariant",
    "Failure",
    "GameReport",
    "Invariant",
    "InvariantViolation",
    "RandomChooser",
    "Reproduction",
    "ShrinkBudget",
    "VerifyReport",
    "check_accepted_is_listed",
    "check_all",
    "check_conservation",
    "check_game",
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
    "counterexample_name",
    "default_workers",
    "exchange_faces",
    "play_out",
    "random_action",
    "random_playout",
    "reproduce",
    "shortest",
    "shrink",
    "step_bound",
    "style_of",
    "turn_bound",
    "verify",
]
