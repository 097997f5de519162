"""``ISMCTSBot``'s paired root (``ISMCTSBot(root="paired")``): the seat's moves compared on the same samples, by
sequential halving, and the rollout policy's own move kept unless another beats it with evidence.

Why (measured on a Skyjo-like game of an outside author's: a 3x4 grid, face-up cards, columns of one rank that
cancel, the columns told to the bots by ``Mechanic.place_worth``; 2 players against ``GreedyBot``, 40 to 60 games):
a decision there has a dozen moves (keep a drawn card in one of twelve slots, or throw it), and a rollout about
seventy moves, so the CPU limit of a decision allows some forty to a hundred samples in all: a handful for each
move. The tree's UCB1 statistics then rank moves whose true values differ by a few points of win rate by noise, and
its most visited move is the best of a dozen noisy means, a move worse on average than the one it displaces (the
winner's curse). The tree scored 0.31 and 0.39 (with no CPU limit), 0.30 anchored at 0.05; the rollout policy alone
plays as well as the greedy bot there (0.505 over 300 games). So the cause is the statistics of a wide decision on
few samples, not the rollouts' play.

What this root does instead:

1. **Paired samples.** Each sample (a deal the view allows, and a seed for the rollout policy's random choices) is
   played out once after *each* move still compared: the differences between two moves are measured on the same
   hidden cards and the same draws, without the noise of the deal between them.
2. **Sequential halving** (Karnin, Koren & Somekh 2013): the search's means are cut into as many stages as halvings
   bring the moves down to two (a stage ends when the most spent of its limits, the move ``budget``, the ``cpu``
   seconds, the ``seconds`` or the ``iterations``, passes its share); after each stage, the better half by mean
   reward goes on, the policy's move always among them. A budget for finding the best move rather than for the
   rewards of the moves tried (UCB1's aim).
3. **Evidence to leave the policy's move**, on fresh samples: the last stage's two moves are compared on the samples
   drawn after the choice of them (those that chose a move favour it: the winner's curse again), and the other one
   is played only if its mean reward there beats the policy's move's by ``evidence`` standard errors of their
   paired differences (2 by default); otherwise, or when the search stopped before its last stage, the policy's
   move, which reads the ruleset's hints as every rollout does.

Where the CPU limit is what ends the stages, the choice depends on the machine's speed, as the tree's does when the
limit stops it; with ``cpu=None`` and no ``seconds`` it is a function of the view and the seed.

Measured on the same game against greedy bots (the CPU limit of a decision, 0.25 s): 39.6 % [31.3 %, 48.5 %] at four
players over 120 games (the tree, anchored: 12.5 % over 40), 55.0 % [47.7 %, 62.1 %] at two over 180 (a first version
that tested on all the samples, the choosing ones included: 52.5 %; with ``evidence=1``: 35 %, then 50 %). In
2-player French, 100 games: 53 % (the tree: 62 %). So it is a setting, not the default. Below the root nothing is
searched: the rollout policy plays every seat.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ...actions import Action
from ...engine.round import Round
from ...engine.rulebook import Rulebook
from .determinizer import Determinizer
from .rollout import SAMPLE_FAILURES, OutOfTime, RolloutPolicy


@dataclass(slots=True)
class PairedSearch:
    """What ``paired_search`` found: the move to play (``None``: no sample could be played), the policy's move, each
    move's samples and mean reward, and what it spent (rollouts, moves, samples that failed, whether the CPU limit
    stopped it)."""

    choice: Action | None
    prior: Action | None
    stats: dict[Action, tuple[int, float]]
    rollouts: int
    moves: int
    failures: int
    limited: bool


def paired_search(
    det: Determinizer,
    candidates: list[Action],
    rb: Rulebook,
    rng: random.Random,
    *,
    iterations: int,
    budget: int | None,
    seconds: float | None,
    cpu: float | None,
    call_at: int | None,
    rollout_limit: int,
    margin: float,
    evidence: float,
) -> PairedSearch:
    """The move among ``candidates`` by the paired root (the module's documentation), within ``iterations``
    (rollouts), ``budget`` (moves), ``seconds`` (wall clock) and ``cpu`` (CPU seconds); the rollouts as
    ``ISMCTSBot``'s (``RolloutPolicy`` with ``call_at``, ``rollout_limit`` moves at most, rewards with ``margin``)."""
    me = det.player
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    cpu_deadline = None if cpu is None else cpu_start + cpu
    policy = RolloutPolicy(rb, rng, call_at=call_at, cpu_deadline=cpu_deadline)

    def progress() -> float:
        """How much of the search's means is spent: the most spent of its limits, each as a fraction."""
        spent = ran / iterations
        if budget is not None:
            spent = max(spent, policy.moves / budget)
        if cpu is not None:
            spent = max(spent, (time.process_time() - cpu_start) / cpu)
        if seconds is not None:
            spent = max(spent, (time.perf_counter() - wall_start) / seconds)
        return spent

    allowed = set(candidates)
    rewards: dict[Action, list[float]] = {a: [] for a in candidates}
    prior: Action | None = None
    alive = list(candidates)
    stages = max(1, math.ceil(math.log2(len(candidates))))
    stage = ran = failures = fresh = 0
    limited = False
    try:
        while True:
            spent = progress()
            if spent >= 1:
                limited = cpu is not None and time.process_time() - cpu_start >= cpu
                break
            if prior is not None and stage < stages - 1 and spent >= (stage + 1) / stages:
                stage += 1
                alive = _better_half(alive, rewards, prior)
                fresh = len(rewards[prior])  # the last stage's test is on the samples drawn after its choice
                continue
            base = det.sample(rng)
            if prior is None:  # the policy's move, on what the seat knows (the same in every sample)
                prior = policy.choose(base.copy(), me, [a for a in base.legal_actions(me) if a in allowed])
                if prior not in allowed:
                    prior = None
                    break
            played = _play_each(policy, base, alive, me, rng.getrandbits(64), rollout_limit, margin)
            ran += len(alive)
            if played is None:
                failures += 1
                continue
            for a, r in played.items():
                rewards[a].append(r)
    except OutOfTime:  # the CPU limit, within a sample: it is dropped (no move got its rollout of it)
        limited = True
    finally:
        policy.rng = rng
    stats = {a: (len(r), sum(r) / len(r) if r else 0.0) for a, r in rewards.items()}
    choice = prior  # (a search stopped before its last stage has no fresh samples to test on: the policy's move)
    if prior is not None and stage == stages - 1 and len(rewards[prior]) > fresh:
        choice = _with_evidence(alive, {a: rewards[a][fresh:] for a in alive}, prior, evidence)
    return PairedSearch(choice, prior, stats, ran, policy.moves, failures, limited)


def _play_each(
    policy: RolloutPolicy, base: Round, moves: list[Action], me: int, seed: int, limit: int, margin: float
) -> dict[Action, float] | None:
    """Each of ``moves`` played on a copy of the sample ``base``, then the round played out by ``policy`` with its
    random choices drawn from ``seed`` (the same for every move): ``me``'s reward after each; ``None`` if one failed
    (the sample is dropped whole, so that the moves stay compared on the same samples)."""
    out: dict[Action, float] = {}
    for a in moves:
        g = base.copy()
        policy.rng = random.Random(seed)
        try:
            policy.play(g, a)
            policy.play_out(g, limit)
            out[a] = policy.rewards(g, margin)[me]
        except SAMPLE_FAILURES:
            return None
    return out


def _mean(r: list[float]) -> float:
    return sum(r) / len(r) if r else -math.inf


def _better_half(alive: list[Action], rewards: dict[Action, list[float]], prior: Action) -> list[Action]:
    """The better half of ``alive`` by mean reward (two at least), the policy's move ``prior`` always kept."""
    if len(alive) <= 2:
        return alive
    ranked = sorted(alive, key=lambda a: -_mean(rewards[a]))  # (a stable sort: ties keep the listing's order)
    kept = ranked[: math.ceil(len(alive) / 2)]
    if prior not in kept:
        kept[-1] = prior
    return kept


def _with_evidence(alive: list[Action], rewards: dict[Action, list[float]], prior: Action, z: float) -> Action:
    """The best of ``alive`` by mean reward if it beats ``prior`` by ``z`` standard errors of their paired
    differences (their samples are the same ones), else ``prior``."""
    best = max(alive, key=lambda a: _mean(rewards[a]))
    if best == prior:
        return prior
    mine, theirs = rewards[best], rewards[prior]
    n = min(len(mine), len(theirs))
    if n < 2:
        return prior
    diffs = [mine[i] - theirs[i] for i in range(n)]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return best if mean > z * spread / math.sqrt(n) else prior
