"""``ISMCTSBot``: information-set Monte Carlo tree search from a seat's view (the method is described in
``tamalou.bots.ismcts``), and ``SEARCHED``, the phases where it searches."""

from __future__ import annotations

import copy
import math
import random
import time
from typing import TYPE_CHECKING

from ...actions import Action, MatchAction, Tick
from ...engine.round import Round
from ...engine.rulebook import Rulebook, rulebook
from ...engine.state import CALL, DRAW, HOLD, OVER, POWER
from ...schema import Variant
from ...views import SeatView
from ..greedy import GreedyBot
from .determinizer import Determinizer, Unbuildable
from .paired import paired_search
from .rollout import SAMPLE_FAILURES, OutOfTime, RolloutPolicy
from .tree import Edge, Node, info_key

if TYPE_CHECKING:
    from typing import Self

#: The phases where the bot searches: the turn's whole state is in the view there.
SEARCHED = frozenset((DRAW, HOLD, POWER, CALL))

#: The moves a decision's samples may play in all, by default (``ISMCTSBot(budget=...)``).
#: ``benchmarks/ismcts_time.py`` measured a move (a sample's, a rollout's) at 10 to 17 microseconds by the
#: ruleset, on the shared two-core machine of ``docs/bots.md``: 8,000 keep the longest decision near 0.15 s
#: there alone, and under 0.25 s in a tournament on both cores, in every built-in ruleset, however long the
#: round still is.
BUDGET = 8_000

#: How much higher a searched move's mean reward must be than the fallback's move to be played instead, by
#: default (``ISMCTSBot(anchor=...)``). Measured on tuning deals (seeds 1 and 2, not the one of docs/bots.md's table;
#: 400 four-player games against ``GreedyBot`` each): in Kaboo 0 scored 0.30, 0.03 0.35, 0.05 0.38 and 0.08
#: 0.36; in Cambia 0.03 scored 0.31, 0.05 0.34 and 0.08 0.31. A search of a few hundred samples ranks moves
#: a few points apart by noise, and by its rollouts' biases (in Kaboo, even after 3,000 samples, it would
#: rather replace a known 4 than a known queen with a 9 it drew): the anchor keeps the greedy move unless
#: the search's evidence is clear. At two players the search alone is the stronger (``benchmarks/ismcts.py``,
#: French, 300 games against ``GreedyBot``: 0.647 without an anchor, 0.550 with 0.05): no anchor there by default.
ANCHOR = 0.05

#: The hard limit of a decision's search in CPU seconds (``time.process_time``), by default (``ISMCTSBot(cpu=...)``):
#: whichever of it and the move ``budget`` comes first stops the search. The budget decides on the machines measured
#: (the longest decision of ``tamalou tournament`` near 0.15 s alone); the limit is a bound for slower moves (a
#: plugin's hooks, a long round), checked between samples and every ``rollout.CHECK_EVERY`` moves within one.
CPU_LIMIT = 0.25

#: How the root's move is chosen (``ISMCTSBot(root=...)``): ``"tree"``, the tree search's most visited move (anchored);
#: ``"paired"``, the moves compared on the same samples by sequential halving, the rollout policy's move kept unless
#: another beats it by ``evidence`` standard errors (``tamalou.bots.ismcts.paired``, for wide decisions on few samples).
ROOTS = ("tree", "paired")


class ISMCTSBot:
    """Information-set MCTS from the seat's view (see ``tamalou.bots.ismcts`` for the method).

    What a searched decision may spend: ``iterations`` samples at most (default 400), and ``budget`` moves
    at most in all its samples (the seat's own, the other players', the rollouts', matches included;
    default ``BUDGET``, 8,000; ``None``: no budget): no iteration starts once the budget is spent (the
    last one may pass it by a round's length). Early in a round a rollout plays a hundred moves and the
    budget decides; near its end the iterations do. Both are counts: the choice stays a function of the
    view and the seed, on any machine. ``cpu`` (default ``CPU_LIMIT``, 0.25 s; ``None``: none) is a hard limit
    in CPU seconds (``time.process_time``: what other processes run does not count), whichever comes first: it
    is looked at between samples and every ``CHECK_EVERY`` moves within one (a sample it stops is dropped), so a
    decision never searches much longer whatever the ruleset or its plugins' hooks cost. The budget decides where
    the limit is not reached (the choice is then reproducible); ``last_limited`` says when it was (``limited``
    counts those decisions). ``seconds`` (default ``None``) adds a limit in wall-clock time, for
    a server that must answer in time: no iteration starts after it, so the choice then depends on the
    machine's speed too. On the project's shared two-core machine the defaults take 0.03 to 0.10 s a move
    on average at four players, by the ruleset, 0.25 s at most (``tamalou tournament``, ``docs/bots.md``).

    ``exploration``: UCB1's constant (rewards are in [0, 1]). ``expand_after``: how often an information
    set below the root is reached playing the policy's move before its moves are searched too.
    ``margin``: the part of the reward that is the seat's lead in points rather than the win (see
    ``RolloutPolicy.rewards``). ``rollout_limit``: moves a rollout plays at most before the round is
    judged as the table then lies, by the ruleset's own ranking and scoring (``Round.standing``).
    ``anchor`` (default ``None``: ``ANCHOR``, 0.05, at three players or more, 0 at two; 0: the most visited move,
    always): the move played is the fallback's (the ``GreedyBot``'s) unless the search's choice, its most visited
    move, has a mean reward higher than the fallback's move by ``anchor`` or more (a move the search never tried is
    not compared: the search's choice stands). ``call_at``: its calling level, the total at or under which it, its
    rollouts' players and its fallback call (default ``None``: the ruleset's call threshold). ``root`` (default
    ``"tree"``, the above): ``"paired"`` decides the root otherwise, for decisions with many moves and few samples
    (a grid's slots): each sample played out after every move still compared, the moves halved by mean reward
    in stages, and the rollout policy's move played unless the best beats it by ``evidence`` (2) standard errors
    of their paired differences; nothing below the root is searched (``tamalou.bots.ismcts.paired``, with its
    measurements; the ``anchor`` is then unused: the evidence is its rule). ``seed`` drives every
    random choice (samples, rollouts, ties): a game between seeded bots is reproducible (without ``seconds``). After
    each decision, ``last_search`` holds the root's statistics (action -> (visits, mean reward)) when it searched,
    ``last_prior`` the fallback's move it was compared with (``None`` without an anchor), ``last_iterations`` and
    ``last_moves`` what the search spent, and the counters ``searched``, ``fallbacks`` and ``failures`` (samples
    whose play raised: a template the rules did not accept) say how the decisions went.
    """

    def __init__(
        self,
        seed: int = 0,
        variant: Variant | str | None = None,
        *,
        iterations: int = 400,
        budget: int | None = BUDGET,
        seconds: float | None = None,
        exploration: float = 0.7,
        expand_after: int = 30,
        margin: float = 0.3,
        rollout_limit: int = 400,
        anchor: float | None = None,
        call_at: int | None = None,
        cpu: float | None = CPU_LIMIT,
        root: str = "tree",
        evidence: float = 2.0,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if budget is not None and budget < 1:
            raise ValueError(f"budget must be at least 1 move (or None: no budget), got {budget}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0 (or None: no time limit), got {seconds}")
        if anchor is not None and not 0 <= anchor <= 1:
            raise ValueError(f"anchor is a difference of mean rewards, from 0 to 1, got {anchor}")
        if cpu is not None and not cpu > 0:
            raise ValueError(f"cpu must be more than 0 seconds (or None: no CPU limit), got {cpu}")
        if root not in ROOTS:
            raise ValueError(f"root is one of {', '.join(map(repr, ROOTS))}, got {root!r}")
        if not evidence >= 0:
            raise ValueError(f"evidence is a number of standard errors, 0 or more, got {evidence}")
        self.seed = seed
        self.iterations = iterations
        self.budget = budget
        self.seconds = seconds
        self.cpu = cpu
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.expand_after = expand_after
        self.margin = margin
        self.anchor = anchor
        #: How the root's move is chosen (``ROOTS``), and, for ``"paired"``, the standard errors of evidence needed to
        #: play another move than the rollout policy's.
        self.root = root
        self.evidence = evidence
        #: Its calling level (its rollouts' and its fallback's): ``None``, the ruleset's call threshold.
        self.call_at = call_at
        self.rng = random.Random(seed)
        self.fallback = GreedyBot(seed + 1, call_at=call_at)
        self.player: int | None = None
        self.variant: Variant | None = None
        self._rb: Rulebook | None = None
        self.last_search: dict[Action, tuple[int, float]] = {}
        self.last_prior: Action | None = None
        self.last_iterations = 0
        self.last_moves = 0
        #: Whether the last decision's search was stopped by its CPU limit (``cpu``) rather than its counts.
        self.last_limited = False
        #: Decisions whose search its CPU limit stopped.
        self.limited = 0
        self.searched = 0
        self.fallbacks = 0
        self.failures = 0
        if variant is not None:
            self.setup(variant)

    def setup(self, variant: Variant | str, player: int | None = None) -> None:
        """Learn the ruleset; ``play_game`` calls it."""
        from ...rulesets.loader import load_variant

        v = variant if isinstance(variant, Variant) else load_variant(variant)
        self.variant = v
        self._rb = rulebook(v)
        self.player = player
        self.fallback.setup(v, player)

    def act(self, view: SeatView, legal_actions: list[Action]) -> Action | None:
        if not legal_actions:
            return None
        if self.variant is None or self._rb is None:
            self.setup("french", view.player)
        assert self.variant is not None
        self.last_search = {}
        self.last_prior = None
        self.last_limited = False
        mine = [a for a in legal_actions if not isinstance(a, MatchAction | Tick)]
        # A match of a card it knows is of the top's kind, or an out-of-turn chance: the greedy rule.
        matches: list[Action] = [a for a in legal_actions if isinstance(a, MatchAction)]
        if matches:
            sure = self.fallback.act(view, matches)
            if sure is not None or not mine:
                return sure
        if len(mine) > 1 and view.phase in SEARCHED and view.current_player == view.player:
            try:
                det = Determinizer(view, legal_actions, self.variant, self.rng)
            except Unbuildable:
                det = None
            if det is not None:
                paired = self.root == "paired"
                chosen = self._paired(det, mine) if paired else self.search(det, mine)
                if chosen is not None:
                    chosen = chosen if paired else self._anchored(view, mine, chosen)
                    self.searched += 1
                    self._remember(view, chosen)
                    return chosen
        self.fallbacks += 1
        action = self.fallback.act(view, legal_actions)
        if action is None and mine:
            action = mine[0]
        return action

    def _anchored(self, view: SeatView, mine: list[Action], chosen: Action) -> Action:
        """The searched ``chosen``, or the fallback's own move among ``mine`` when the search found ``chosen``
        better by less than ``anchor`` in mean reward (the fallback is asked on a copy: its own state, for a
        power's second step and the matches it skips, stays the one the move played leaves it)."""
        anchor = self.anchor if self.anchor is not None else ANCHOR if view.players > 2 else 0.0
        if anchor <= 0:
            return chosen
        prior = copy.deepcopy(self.fallback).act(view, mine)
        self.last_prior = prior
        stats = self.last_search
        if prior is None or prior == chosen or prior not in stats or stats[prior][0] == 0:
            return chosen
        return chosen if stats[chosen][1] - stats[prior][1] >= anchor else prior

    def _remember(self, view: SeatView, chosen: Action) -> None:
        """The fallback plays a power's second step: tell it which first step was taken."""
        self.fallback.used(view.power, chosen)

    # -- the search ---------------------------------------------------------------------------------

    def search(self, det: Determinizer, candidates: list[Action]) -> Action | None:
        """The most visited of ``candidates`` after ``iterations`` samples of ``det``, or fewer if the
        ``budget`` of moves or the ``seconds`` ran out first (``None`` if no sample could be played).

        Each iteration: a sample; from the root, the seat's own decisions are chosen in the tree (UCB1 with
        availability counts among the actions legal in the sample; below the root, the policy's move until
        the node was reached ``expand_after`` times) and the other players play the rollout policy
        (matches included) until the seat decides again; the seat's information set then (``info_key``)
        names the next node. The first new node ends the descent (its first action: the policy's, then the
        others at random) and the rollout policy plays the round out."""
        assert self._rb is not None
        me = det.player
        cpu_deadline = None if self.cpu is None else time.process_time() + self.cpu
        policy = RolloutPolicy(self._rb, self.rng, call_at=self.call_at, cpu_deadline=cpu_deadline)
        root = Node()
        allowed = set(candidates)
        c = self.exploration
        rng = self.rng
        played = 0
        budget = self.budget
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        ran = 0
        while ran < self.iterations:
            if budget is not None and policy.moves >= budget:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if cpu_deadline is not None and time.process_time() >= cpu_deadline:
                self._limited()
                break
            ran += 1
            g = det.sample(rng)
            path: list[Edge] = []
            node = root
            try:
                legal = [a for a in g.legal_actions(me) if a in allowed]
                while legal:
                    edges = node.edges
                    node.visits += 1
                    if node is not root and node.visits <= self.expand_after:
                        # A new information set plays the policy's move until it has been reached often.
                        action = policy.choose(g, me, legal)
                        edge = edges.get(action) or edges.setdefault(action, Edge())
                        for a in legal:
                            if a in edges:
                                edges[a].avail += 1
                        expanded = node.visits == 1
                    elif fresh := [a for a in legal if a not in edges]:
                        pick = policy.choose(g, me, legal)
                        action = pick if pick in fresh else rng.choice(fresh)
                        edge = edges[action] = Edge()
                        edge.avail = 1
                        for a in legal:
                            if a is not action and a in edges:
                                edges[a].avail += 1
                        expanded = True
                    else:
                        best: tuple[float, Action] | None = None
                        for a in legal:
                            e = edges[a]
                            e.avail += 1
                            if e.visits == 0:  # its only sample failed: as good as new
                                score = math.inf
                            else:
                                score = e.total / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
                            if best is None or score > best[0]:
                                best = (score, a)
                        assert best is not None
                        action = best[1]
                        edge = edges[action]
                        expanded = False
                    policy.play(g, action)
                    path.append(edge)
                    if expanded or not self._until_mine(g, me, policy):
                        break
                    key = info_key(g, me)
                    nxt = edge.after.get(key)
                    if nxt is None:
                        nxt = edge.after[key] = Node()
                    node = nxt
                    legal = [a for a in g.legal_actions(me) if type(a) is not MatchAction and type(a) is not Tick]
                if not path:
                    continue
                policy.play_out(g, self.rollout_limit)
                rewards = policy.rewards(g, self.margin)
            except OutOfTime:  # the CPU limit, within a sample: it is dropped, the search keeps what it found
                self._limited()
                break
            except SAMPLE_FAILURES:
                self.failures += 1
                continue
            played += 1
            r = rewards[me]
            for e in path:
                e.visits += 1
                e.total += r
        self.last_iterations, self.last_moves = ran, policy.moves
        if not played or not root.edges:
            return None
        self.last_search = {a: (e.visits, e.mean()) for a, e in root.edges.items()}
        return max(root.edges.items(), key=lambda item: (item[1].visits, item[1].total))[0]

    def _paired(self, det: Determinizer, mine: list[Action]) -> Action | None:
        """The paired root's move (``root="paired"``, ``tamalou.bots.ismcts.paired``), its statistics kept."""
        assert self._rb is not None
        found = paired_search(
            det,
            mine,
            self._rb,
            self.rng,
            iterations=self.iterations,
            budget=self.budget,
            seconds=self.seconds,
            cpu=self.cpu,
            call_at=self.call_at,
            rollout_limit=self.rollout_limit,
            margin=self.margin,
            evidence=self.evidence,
        )
        self.last_search, self.last_prior = found.stats, found.prior
        self.last_iterations, self.last_moves = found.rollouts, found.moves
        self.failures += found.failures
        if found.limited:
            self._limited()
        return found.choice

    def _limited(self) -> None:
        self.last_limited = True
        self.limited += 1

    def _until_mine(self, g: Round, me: int, policy: RolloutPolicy) -> bool:
        """Play the others (and every player's matches) by the policy until seat ``me`` has a move of its own
        to make; ``False`` if the round ended first."""
        for _ in range(self.rollout_limit):
            policy.matches(g)
            if g.phase == OVER:
                return False
            p = policy.actor(g)
            if p == me:
                return True
            policy.play(g, policy.choose(g, p, g.legal_actions(p)))
            if g.phase == OVER:
                return False
        return False

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A copy that decides as this one would (same generator states); the ruleset is shared."""
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.fallback = copy.deepcopy(self.fallback, memo)
        other.last_search = dict(self.last_search)
        return other

    def __repr__(self) -> str:
        root = ", root='paired'" if self.root == "paired" else ""
        return f"ISMCTSBot(iterations={self.iterations}{root})"
