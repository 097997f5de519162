"""Determinism across processes: a game is a function of its ruleset, its seed and its actions, whichever
process plays it. ``verify`` and ``replay`` otherwise play a game again in the same process, where a rule keyed on
``hash()`` of a string (``PYTHONHASHSEED`` differs from one process to the next), on a module's variable or on
randomness not drawn from the game gives the same answer twice and hides.

- ``RunDeterminism``: the games of a ``verify`` run, played again in two fresh processes, each under its own
  ``PYTHONHASHSEED``, beside the run: the same games (the same digests: actions, state and result) in both, and
  as the run's own (``tamalou verify`` does it for every run; ``check_run_determinism`` does it at once);
- ``check_determinism``: one game's recorded actions applied again in fresh processes (the ``determinism``
  invariant on a game: what ``tamalou replay`` checks for such a counterexample).

A fresh process is ``python -m tamalou.verify.determinism``: it reads ``sys.path`` and then the work (the
variant pickled as worker processes receive it: its plugin modules imported again from their folders) on its
standard input, and writes what it played on its standard output.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import pickle
import random
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..actions import Action, action_to_dict
from ..engine import Round
from ..engine.game import Game, round_of
from ..errors import InvariantViolation
from ..schema import Variant
from .bounds import stalled, step_bound, turn_bound
from .chooser import PlayStyle, RandomChooser, choose_action, style_of

#: The fresh processes ``check_determinism`` starts: each under its own ``PYTHONHASHSEED``, so that a rule
#: keyed on ``hash()`` answers differently in one of them (a coin flip each, for a tie broken by a hash).
PROCESSES = 3

#: The longest a fresh process may take, in seconds.
TIMEOUT = 600.0


@dataclass
class Trace:
    """A game as one process played it: the actions (JSON), a digest of each step's events (the deal's
    first), the final state (JSON, without the action log) and the result (JSON; ``""`` if the round did not
    end)."""

    actions: list[dict[str, Any]]
    steps: list[str]
    state: str
    result: str
    digest: str = ""


def _digest(events: Sequence[Any]) -> str:
    text = json.dumps([e.to_dict() for e in events], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_digest(game: Game | Round) -> str:
    """A digest of a game: its whole state (the action log included) and, once over, its result. Two processes
    that played the same game give the same digest (what ``check_game`` keeps in ``GameReport.digest``)."""
    rd = round_of(game)
    result = rd.final_result().model_dump_json() if rd.is_over else ""
    return hashlib.sha256((rd.to_json() + result).encode()).hexdigest()


def _finish(game: Round, trace: Trace) -> Trace:
    trace.digest = game_digest(game)
    log, game.actions = game.actions, []
    try:
        trace.state = game.to_json()
    finally:
        game.actions = log
    trace.result = game.final_result().model_dump_json() if game.is_over else ""
    return trace


def play_trace(variant: Variant, players: int, seed: int, style: PlayStyle | None = None) -> Trace:
    """The game of ``seed`` that ``tamalou verify`` plays (in ``style``, default ``style_of(seed)``), played
    here without checks, as a ``Trace``; it stops at the round's bounds (``step_bound``, ``turn_bound``)."""
    style = style_of(seed) if style is None else style
    game = Round(variant, players, seed=seed)
    trace = Trace([], [_digest(game.start())], "", "")
    chooser = RandomChooser(random.Random(seed))
    bound, per_turn = step_bound(game), turn_bound(game)
    turn, since = game.turn, 0
    while not game.is_over and stalled(game, since, bound, per_turn) is None:
        action = choose_action(game, chooser, style)
        trace.actions.append(action_to_dict(action))
        trace.steps.append(_digest(game.apply(action)))
        turn, since = game.turn, 0 if game.turn != turn else since + 1
    return _finish(game, trace)


def replay_trace(
    variant: Variant,
    players: int,
    seed: int,
    actions: Sequence[Action | dict[str, Any]],
    deal: dict[str, Any] | None = None,
    first_player: int | None = None,
) -> Trace:
    """``actions`` applied again to the game dealt with ``seed`` (or ``deal``), as a ``Trace``; it stops at the
    first action refused (the trace then has fewer actions)."""
    game = Round(variant, players, seed=seed, deal=deal, first_player=first_player)
    trace = Trace([], [_digest(game.start())], "", "")
    for a in actions:
        try:
            events = game.apply(a)
        except Exception:
            break
        trace.actions.append(a if isinstance(a, dict) else action_to_dict(a))
        trace.steps.append(_digest(events))
    return _finish(game, trace)


# ----------------------------------------------------------------------------- fresh processes


def _hash_seeds(count: int, salt: int) -> list[str]:
    """``count`` values of ``PYTHONHASHSEED``, none of them this process's own (when it has one)."""
    own = os.environ.get("PYTHONHASHSEED")
    rng = random.Random(f"hash-seeds/{salt}")
    seeds: list[str] = []
    while len(seeds) < count:
        s = str(rng.randrange(1, 4_294_967_295))
        if s != own and s not in seeds:
            seeds.append(s)
    return seeds


#: The environment variable that tells a fresh process its parent's pid: it stops when its parent is gone.
_PARENT = "TAMALOU_DETERMINISM_PARENT"


def _die_with_parent() -> None:
    """In a fresh process: be stopped when the process that started it ends (Linux: ``PR_SET_PDEATHSIG``), and stop
    now if it already has; elsewhere the closed standard input ends it (its next read meets the end)."""
    parent = os.environ.get(_PARENT)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if parent is not None and str(os.getppid()) != parent:  # the parent ended before the line above
        os._exit(1)


class FreshProcess:
    """Work done by ``python -m tamalou.verify.determinism`` under its own ``PYTHONHASHSEED``: started at once
    (``start``), it runs beside whatever this process does, and writes each game's trace as soon as it is played;
    ``traces(count)`` waits for the first ``count`` of them only (a run that stopped early, or whose games failed,
    does not wait for games it will not compare), then stops the process."""

    def __init__(self, work: dict[str, Any], hash_seed: str) -> None:
        self._start(hash_seed)
        payload = pickle.dumps(list(sys.path)) + pickle.dumps(work)
        self.feeding = threading.Thread(target=self._feed, args=(payload,), daemon=True)
        self.feeding.start()  # the process starts its work at once, beside this one's

    def _start(self, hash_seed: str) -> None:
        """The process, under ``hash_seed``, told who its parent is (``_die_with_parent``)."""
        self.hash_seed = hash_seed
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, _PARENT: str(os.getpid())}
        command = [sys.executable, "-m", "tamalou.verify.determinism"]
        # A file, not a pipe: a plugin that prints much cannot block the process; it lives as long as the process.
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, env=env
        )

    def _feed(self, payload: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(payload)
            stdin.close()
        except (BrokenPipeError, OSError, ValueError):  # the process ended (or was stopped) first
            pass

    def _read(self, count: int | None, timeout: float) -> tuple[list[Trace], bool]:
        """The traces written next, ``count`` of them (``None``: to the end of the output), waiting at most
        ``timeout`` seconds (then the process is stopped); and whether the time ran out."""
        late: list[bool] = []

        def too_long() -> None:  # the read that waits meets the end of the output
            late.append(True)
            self.stop()

        watchdog = threading.Timer(timeout, too_long)
        watchdog.start()
        traces: list[Trace] = []
        try:
            out = self.process.stdout
            assert out is not None
            while count is None or len(traces) < count:
                try:
                    traces.append(pickle.load(out))
                except (EOFError, pickle.UnpicklingError, ValueError, OSError):  # it ended, or was stopped
                    break
        finally:
            watchdog.cancel()
        return traces, bool(late)

    def _failure(self, late: bool, timeout: float, what: str) -> RuntimeError:
        """Why the process did not give its traces (its last line of errors), once it is stopped."""
        self.errors.seek(0)
        lines = self.errors.read().decode(errors="replace").strip().splitlines()
        why = f"no answer within {timeout:g} s" if late else lines[-1] if lines else "it ended early"
        return RuntimeError(f"the fresh process playing {what} again failed: {why}")

    def traces(self, count: int | None = None, timeout: float = TIMEOUT) -> list[Trace]:
        """The traces of the first ``count`` games of the work (all of them if ``None``), waiting for them at most
        ``timeout`` seconds; the process is stopped after. ``RuntimeError`` if it failed or took too long."""
        try:
            traces, late = self._read(count, timeout)
        finally:
            self.stop()
        failed = len(traces) < count if count is not None else self.process.returncode != 0
        try:
            if failed:
                raise self._failure(late, timeout, "the games")
        finally:
            self.errors.close()
        return traces

    def stop(self) -> None:
        """Stop the process if it still runs (an interrupted run leaves none behind)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


class PoolProcess(FreshProcess):
    """A fresh process that plays one work after another (``check_determinism``'s pool): started once, under its
    own ``PYTHONHASHSEED``, reused by every check of this process, stopped at its exit (``stop_pool``) and never
    outliving it (``_die_with_parent``)."""

    def __init__(self, hash_seed: str) -> None:
        self._start(hash_seed)
        self._send(pickle.dumps(list(sys.path)))

    def _send(self, payload: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(payload)
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):  # it ended: ``receive`` says why
            pass

    def send(self, work: dict[str, Any]) -> None:
        """Start ``work`` (the process reads it whole before it plays: nothing can block both sides)."""
        self._send(pickle.dumps({**work, "path": list(sys.path), "more": True}))

    def receive(self, count: int, timeout: float = TIMEOUT) -> list[Trace]:
        """The ``count`` traces of the work sent; ``RuntimeError`` if the process failed or took too long (it is
        then stopped, and the pool starts another next time)."""
        traces, late = self._read(count, timeout)
        if len(traces) < count:
            self.stop()
            raise self._failure(late, timeout, "the game")
        return traces

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        super().stop()


#: ``check_determinism``'s processes, by hash seed (started on first use, ``PROCESSES`` at most).
_POOL: dict[str, PoolProcess] = {}
_POOL_LOCK = threading.Lock()


def _pool(count: int) -> list[PoolProcess]:
    """``count`` processes of the pool (its hash seeds fixed: the same answer whatever this process's own), started
    where missing or ended."""
    if not _POOL:
        atexit.register(stop_pool)
    chosen = []
    for hash_seed in _hash_seeds(count, 0):
        process = _POOL.get(hash_seed)
        if process is None or not process.alive:
            process = _POOL[hash_seed] = PoolProcess(hash_seed)
        chosen.append(process)
    return chosen


def stop_pool() -> None:
    """Stop ``check_determinism``'s processes (done at exit; they never outlive this process anyway)."""
    with _POOL_LOCK:
        for process in _POOL.values():
            process.stop()
        _POOL.clear()


def _first_difference(here: Trace, there: Trace) -> str | None:
    """Where two traces of one game part, in words, or ``None``."""
    for k, (a, b) in enumerate(zip(here.actions, there.actions, strict=False)):
        if a != b:
            return f"action {k} differs: {json.dumps(a)} here, {json.dumps(b)} there"
    for k, (mine, theirs) in enumerate(zip(here.steps, there.steps, strict=False)):
        if mine != theirs:
            step = "the deal" if k == 0 else f"action {k - 1} ({json.dumps(here.actions[k - 1])})"
            return f"the events of {step} differ"
    if len(here.actions) != len(there.actions):
        return f"{len(here.actions)} actions here, {len(there.actions)} there"
    if here.result != there.result:
        return f"the result differs: {here.result} here, {there.result} there"
    if here.state != there.state:
        return "the final state differs"
    return None


_OUTSIDE = (
    "The rule depends on something outside the game: hash() of a string, a variable of a module, the time, "
    "randomness not drawn from the game"
)


def _within(seconds: float | None, play: Callable[[], Trace]) -> Trace:
    """``play()``, stopped after ``seconds`` (an alarm, where there is one): a game stopped so is a trace with
    no digest, left out of the comparison (the run reports it under ``termination``)."""
    if seconds is None or not hasattr(signal, "setitimer"):
        return play()

    def ring(signum: int, frame: object) -> None:
        raise _Stopped

    previous = signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return play()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Stopped:
        return Trace([], [], "", "")
    finally:
        signal.signal(signal.SIGALRM, previous)


class _Stopped(BaseException):
    """A game of the fresh process stopped by its time limit."""


class RunDeterminism:
    """``determinism`` over a ``verify`` run: ``RunDeterminism(variant, games, salt)`` starts two fresh processes,
    each under its own ``PYTHONHASHSEED`` (drawn from ``salt``, none this process's own), playing the games
    ``(seed, players)`` of the run (each in ``style_of(seed)``) beside the run's own; ``compare(digests)`` then
    takes the digests the run's games ended with (``GameReport.digest``, by seed: games that failed are left
    out) and returns the first game that differs, as ``(seed, players, actions, message)``, or ``None``.
    ``stop()`` if the run ends early.

    The two fresh processes are compared with each other first: their hash seeds are fixed by ``salt``, so
    whether a rule keyed on ``hash()`` answers differently in them does not depend on the hash seed of the
    process that runs ``verify`` (the same run finds the same failure every time); then each game of the run
    with the first of them."""

    def __init__(
        self, variant: Variant, games: Sequence[tuple[int, int]], salt: int = 0, timeout: float | None = None
    ) -> None:
        self.variant = variant
        self.games = list(games)
        work = {"variant": variant, "play": self.games, "timeout": timeout}
        self.fresh = [FreshProcess(work, hash_seed) for hash_seed in _hash_seeds(2, salt)]

    def compare(self, digests: dict[int, str]) -> tuple[int, int, list[dict[str, Any]], str] | None:
        first, second = self.fresh
        needed = [k for k, (seed, _) in enumerate(self.games) if seed in digests]
        count = needed[-1] + 1 if needed else 0  # the games after the last one compared are not waited for
        ones, others = first.traces(count), second.traces(count)
        for (seed, players), one, other in zip(self.games[:count], ones, others, strict=True):
            if seed not in digests or not one.digest or not other.digest:
                continue  # failed here, or stopped by its time limit there
            if one.digest != other.digest:
                differs = _first_difference(one, other) or "the final state or the result differs"
                where = f"played in fresh processes with PYTHONHASHSEED={first.hash_seed} and {second.hash_seed}"
                return seed, players, one.actions, self._message(seed, players, where, differs)
            if digests[seed] != one.digest:
                here = play_trace(self.variant, players, seed)
                differs = _first_difference(here, one) or "the final state or the result differs"
                where = f"played again in a fresh process with PYTHONHASHSEED={first.hash_seed}"
                return seed, players, here.actions, self._message(seed, players, where, differs)
        return None

    @staticmethod
    def _message(seed: int, players: int, where: str, differs: str) -> str:
        return f"the game of seed {seed} ({players} players), {where}, is not the same game: {differs}. {_OUTSIDE}"

    def stop(self) -> None:
        for fresh in self.fresh:
            fresh.stop()


def check_run_determinism(
    variant: Variant, games: Sequence[tuple[int, int]], *, salt: int = 0
) -> tuple[int, int, list[dict[str, Any]], str] | None:
    """``RunDeterminism`` at once: the games ``(seed, players)`` played here and in two fresh processes, each under
    another ``PYTHONHASHSEED``; ``None`` if each is the same game in all three, else the first that differs as
    ``(seed, players, actions, message)``."""
    check = RunDeterminism(variant, games, salt)
    return check.compare({s: play_trace(variant, n, s).digest for s, n in games})


def check_determinism(game: Game | Round, *, processes: int = PROCESSES) -> None:
    """``determinism`` on one game: its actions applied again in ``processes`` fresh processes, each under
    another ``PYTHONHASHSEED`` (drawn from the game's seed), give the same events, final state and result as
    each other and as here; else ``InvariantViolation`` naming the two processes and the first difference.
    The processes are a pool, started on the first check and reused by every later one (a check then costs the
    replays alone); they stop when this process ends.

    >>> from tamalou.verify import random_playout
    >>> check_determinism(random_playout("french", players=2, seed=1), processes=1)
    """
    rd = round_of(game)
    first = rd.first_player if rd.first_given else None
    mine = replay_trace(rd.variant, rd.players, rd.seed, rd.actions, rd.deal_spec, first)
    work = {
        "variant": rd.variant,
        "replay": [(rd.players, rd.seed, [action_to_dict(a) for a in rd.actions], rd.deal_spec, first)],
    }
    with _POOL_LOCK:
        started = _pool(processes)
        for fresh in started:
            fresh.send(work)
        played = [(fresh.hash_seed, fresh.receive(1)[0]) for fresh in started]
    # The fresh processes with each other first (their hash seeds are fixed: the same answer whatever this
    # process's own), then with this process.
    pairs = [(played[0], other) for other in played[1:]] + [(("this one's", mine), other) for other in played]
    for (one_seed, one), (other_seed, other) in pairs:
        differs = _first_difference(one, other)
        if differs is not None:
            raise InvariantViolation(
                f"the game played in processes with PYTHONHASHSEED={one_seed} and {other_seed} is not the same game: "
                f"{differs}. {_OUTSIDE} [after {len(rd.actions)} actions]",
                invariant="determinism",
            )


def process_main() -> None:
    """A fresh process's work: ``sys.path``, then ``{"variant": ..., "play": [(seed, players)...]}`` or
    ``{"variant": ..., "replay": [(players, seed, actions, deal, first_player)...]}``, pickled on standard
    input; the traces, pickled one by one as they are played, on standard output."""
    _die_with_parent()
    stdin = sys.stdin.buffer
    sys.path[:] = pickle.load(stdin)
    out = sys.stdout.buffer
    while True:  # one work, or (a pool's process) one after another until its standard input ends
        try:
            work = pickle.load(stdin)
        except EOFError:
            return
        if "path" in work:
            sys.path[:] = work["path"]
        for trace in _traces(work):  # each trace as soon as it is played: the caller reads only as many as it needs
            pickle.dump(trace, out)
            out.flush()
        if not work.get("more"):
            return


def _traces(work: dict[str, Any]) -> Iterator[Trace]:
    """The traces of a work, played one by one."""
    v = work["variant"]
    if "play" in work:
        timeout = work.get("timeout")
        plays = [partial(_within, timeout, partial(play_trace, v, n, s)) for s, n in work["play"]]
    else:
        plays = [partial(replay_trace, v, n, s, actions, deal, first) for n, s, actions, deal, first in work["replay"]]
    for play in plays:
        yield play()


if __name__ == "__main__":  # run as the module's own copy, so that what it pickles is the package's
    from tamalou.verify.determinism import process_main as main

    main()
