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
- ``checks_events.py``: what each seat receives (``check_event_leaks``, ``check_opaque_ids``,
  ``exchange_ids``), the fields of events (``check_event_schema``) and knowledge that follows the cards
  it saw move (``check_moves_known``, ``places``; both over a round: ``check_events_of_round``);
- ``checks_round.py``: a round as a whole (``check_snapshot_roundtrip``, ``check_replay``,
  ``check_result``, ``check_termination``, ``check_played_turns``);
- ``determinism.py``: games played again in fresh processes (``check_determinism``,
  ``check_run_determinism``);
- ``bounds.py``: how long a turn and a round may run (``turn_bound``, ``step_bound``) and a turn that
  comes back to a state it was in (``TurnWatch``);
- ``chooser.py``: random choices of a legal action (``Chooser``, ``RandomChooser``, ``choose_action``)
  and the playing styles of verify's games (``STYLES``, ``style_of``);
- ``playout.py``: random games played to their end (``play_out``, ``random_playout``);
- ``game_check.py``: one game of ``verify`` checked (``check_game``, ``GameReport``, ``Failure``) and
  ``SAMPLES``;
- ``checks_hints.py``: the hints bots play by, asked and answering (``check_hints``, ``ViewCards``), the invariant
  ``hints``;
- ``checks_sent.py``: every event as it was sent and of a bounded size (``SentEvents``, ``check_events_kept``,
  ``event_bound``), the invariant ``events_kept``;
- ``exhaustive_walks.py``: every sequence of legal actions of small stacked deals to a depth, checked at every node
  (``exhaustive``, ``perft``, ``small_deals``): node counts by depth, as perft;
- ``neighbourhood.py``: every action next to the listed ones (``near_actions``, ``check_near_actions``), tried
  by ``refusals`` and ``listing_complete``;
- ``tallies.py``: made-up ends of rounds (``synthetic_tallies``) judged by the end-of-round hooks
  (``check_end_hooks``);
- ``match_check.py``: whole matches of a ruleset of several rounds (``check_match``, ``check_match_result``,
  ``plays_matches``), the invariant ``match``;
- ``lints.py``: what loads and plays but is likely a mistake (``lint_variant``, ``check_lints``, ``Lint``);
- ``limits.py``, ``hook_timing.py``, ``interruptions.py``: a game's time limit (``Limits``), the hooks
  slower than their budget (``SlowHook``), and Ctrl-C;
- ``runner.py``: many games in worker processes (``verify``, ``VerifyReport``, ``VerifyInterrupted``,
  ``default_workers``);
- ``reproduction.py``: recorded actions played again and checked (``reproduce``, ``Reproduction``);
- ``counterexample.py``: counterexample files (``Counterexample``, ``EmbeddedVariant``,
  ``counterexample_name``);
- ``shrink.py``: a failure made a small counterexample (``shrink``, ``ShrinkBudget``; ``shortest``: the
  failure of a run to shrink).

``tamalou.testing`` builds hypothesis strategies on them.
"""

from __future__ import annotations

from ..errors import VerifyInterrupted
from .bounds import TurnWatch, step_bound, turn_bound
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
from .checks_events import (
    check_event_leaks,
    check_event_schema,
    check_events_of_round,
    check_moves_known,
    check_opaque_ids,
    exchange_ids,
    places,
)
from .checks_hints import ViewCards, check_hints
from .checks_knowledge import (
    check_knowledge,
    check_knowledge_events,
    check_no_leak,
    check_step_knowledge,
    exchange_faces,
)
from .checks_round import check_played_turns, check_replay, check_result, check_snapshot_roundtrip, check_termination
from .checks_sent import SentEvents, check_events_kept, event_bound
from .chooser import PLAIN, STYLES, Chooser, PlayStyle, RandomChooser, choose_action, style_of
from .counterexample import Counterexample, EmbeddedVariant, counterexample_name
from .determinism import check_determinism, check_run_determinism
from .diagram import phase_diagram, phase_transitions
from .exhaustive_walks import DEPTH, ExhaustiveReport, Perft, SmallDeal, exhaustive, perft, small_deals
from .game_check import SAMPLES, Failure, GameReport, check_game
from .hook_timing import SlowHook
from .limits import TIMEOUT_INVARIANT, TIMEOUT_WORDS, GameTimeout, Limits, alarm, available, timed_out
from .lints import Lint, check_lints, lint_variant
from .match_check import check_match, check_match_result, plays_matches
from .neighbourhood import check_near_actions, near_actions
from .playout import play_out, random_playout
from .registry import INVARIANTS, Invariant, check_all
from .reproduction import Reproduction, reproduce
from .runner import GAME_TIMEOUT, VerifyReport, default_workers, verify
from .shrink import ShrinkBudget, shortest, shrink
from .tallies import check_end_hooks, synthetic_tallies
from .violation import InvariantViolation

__all__ = [
    "DEPTH",
    "GAME_TIMEOUT",
    "INVARIANTS",
    "PLAIN",
    "SAMPLES",
    "STYLES",
    "TIMEOUT_INVARIANT",
    "TIMEOUT_WORDS",
    "Chooser",
    "Counterexample",
    "EmbeddedVariant",
    "ExhaustiveReport",
    "Failure",
    "GameReport",
    "GameTimeout",
    "Invariant",
    "InvariantViolation",
    "Limits",
    "Lint",
    "Perft",
    "PlayStyle",
    "RandomChooser",
    "Reproduction",
    "SentEvents",
    "ShrinkBudget",
    "SlowHook",
    "SmallDeal",
    "TurnWatch",
    "VerifyInterrupted",
    "VerifyReport",
    "ViewCards",
    "alarm",
    "available",
    "check_accepted_is_listed",
    "check_all",
    "check_conservation",
    "check_determinism",
    "check_end_hooks",
    "check_event_leaks",
    "check_event_schema",
    "check_events_kept",
    "check_events_of_round",
    "check_game",
    "check_hints",
    "check_illegal_leaves_state",
    "check_knowledge",
    "check_knowledge_events",
    "check_legal_actions_accepted",
    "check_lints",
    "check_listing_complete",
    "check_match",
    "check_match_result",
    "check_moves_known",
    "check_near_actions",
    "check_no_crash",
    "check_no_leak",
    "check_opaque_ids",
    "check_played_turns",
    "check_refusals",
    "check_replay",
    "check_result",
    "check_run_determinism",
    "check_slot_order",
    "check_snapshot_roundtrip",
    "check_step_knowledge",
    "check_termination",
    "choose_action",
    "counterexample_name",
    "default_workers",
    "event_bound",
    "exchange_faces",
    "exchange_ids",
    "exhaustive",
    "lint_variant",
    "near_actions",
    "perft",
    "phase_diagram",
    "phase_transitions",
    "places",
    "play_out",
    "plays_matches",
    "random_action",
    "random_playout",
    "reproduce",
    "shortest",
    "shrink",
    "small_deals",
    "step_bound",
    "style_of",
    "synthetic_tallies",
    "timed_out",
    "turn_bound",
    "verify",
]
