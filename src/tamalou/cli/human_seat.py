"""A person at the table: ``tamalou play RULESET --bots human,greedy,cautious``.

Each seat named ``human`` is played by a person at the terminal (several: hot-seat, one keyboard passed around).
What a person sees is their seat's view and nothing more: the table drawn at 80 columns (their layout with the
cards they know, the others' layouts, the discard's top, the card they hold, whose turn, the call), the events as
their seat receives them, and a numbered menu of their legal actions in words (``Action.describe``).

- **Out of turn**: whenever a card that person may match is thrown, the table pauses for them (one question a
  thrown card): a number matches, Enter lets the card go.
- **Powers** ask for their targets one at a time (the owner, your slot, the player, their slot).
- **Keys**: ``?`` shows what the greedy bot would do and why; ``q`` leaves, writing a snapshot that
  ``tamalou play --resume FILE`` plays on from.
- **Hot-seat**: before a person's screen is drawn, a screen that hides the table asks the next person to sit down
  (Enter), and the log shows only what every seat may see (the private facts are in each person's own view).
- **Time** (timed rulesets): the clock is real; the time left is shown with the menu, and a person who lets it
  run out is handled by the rules (the referee's ``Tick`` at the deadline: a timeout, an absent player's turn).
  While only time can pass (a timed opening peek, the last countdown) the table waits for it.
- **Pipes**: the choices may come from a pipe, one line each, exactly as typed (a test or a script plays so); the
  end of the input leaves as ``q`` does.
"""

from __future__ import annotations

import json
import select
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, Protocol

from rich.console import Console

from ..action_words import Words
from ..actions import Action, MatchAction, Power, Tick, timed
from ..bots import BotLike, GreedyBot, seat_bot
from ..engine.round import Round
from ..events import Event, power_title
from ..views import PlayerView, Result
from .log import seat

#: The columns a person's screen takes.
WIDTH = 80
#: The name of a person's seat in ``--bots``.
HUMAN = "human"
#: The format of the file ``q`` writes (``tamalou play --resume FILE``).
SNAPSHOT_FORMAT = "tamalou-play/1"
#: The fields a power's use is asked by, in order (each asked only when the uses differ in it).
_POWER_STEPS = ("owner", "slot", "target", "target_slot")


class Clock(Protocol):
    """The table's time, in the game's seconds (``Round.now``)."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class RealClock:
    """Wall-clock time, counted from ``start`` (a resumed game goes on from its own time)."""

    def __init__(self, start: float = 0.0) -> None:
        self._zero = time.monotonic() - start

    def now(self) -> float:
        return time.monotonic() - self._zero

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class Keyboard:
    """Lines typed (or piped) in; ``read`` gives ``None`` when ``timeout`` seconds pass first (a terminal only: a
    pipe's lines are there at once) and raises ``EOFError`` at the end of the input."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        #: Whether what is typed shows on the screen by itself (a terminal); else ``HumanTable`` shows it.
        self.echoes = self._waits()

    def read(self, timeout: float | None = None) -> str | None:
        if timeout is not None and self._waits():
            ready, _, _ = select.select([self.stream], [], [], max(0.0, timeout))
            if not ready:
                return None
        line = self.stream.readline()
        if not line:
            raise EOFError
        return line.strip()

    def _waits(self) -> bool:
        try:
            return self.stream.isatty() and self.stream.fileno() >= 0
        except (AttributeError, ValueError, OSError):
            return False


class _Leave(Exception):
    """The person pressed ``q`` (or the input ended): ``HumanTable.play`` stops and returns ``None``."""


def explain(view: Any, legal: list[Action], variant: Any) -> str:
    """What the greedy bot would do in ``view`` and why (``?``): its move in words, then its reasons
    (``GreedyBot.explain``), reading nothing the seat does not see."""
    bot = GreedyBot(0)
    bot.setup(variant, view.player)
    action, why = bot.explain(view, legal)
    if action is None:
        return f"the greedy bot would let it go: {why}"
    return f"the greedy bot would {action.describe(view)}: {why}"


class HumanTable:
    """Plays rounds with people at some seats (``kinds[p] == "human"``) and bots at the others."""

    def __init__(
        self,
        kinds: Sequence[str],
        console: Console,
        keyboard: Keyboard,
        clock_for: Callable[[float], Clock] = RealClock,
    ) -> None:
        self.kinds = list(kinds)
        self.humans = [p for p, k in enumerate(kinds) if k == HUMAN]
        self.out = console
        self.keyboard = keyboard
        self.clock_for = clock_for
        self.seated: int | None = None  # the person at the keyboard now (hot-seat)
        self.asked: set[tuple[int, int, str | None]] = set()  # (seat, discard size, discard top): windows asked

    # ------------------------------------------------------------------ drawing

    def names(self, p: int) -> str:
        return f"{seat(p)} (you)" if p == self.seated and len(self.humans) == 1 else seat(p)

    def say(self, text: str) -> None:
        """A line of the screen, wrapped at 80 columns (a wrapped line goes on indented)."""
        indent = " " * (len(text) - len(text.lstrip()) + 2)
        for line in textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]:
            self.out.print(line, soft_wrap=True, markup=False, highlight=False)

    def tell(self, g: Round, events: list[Event]) -> None:
        """The events, as the person at the table may see them (with several people: as no seat sees them)."""
        viewer = self.humans[0] if len(self.humans) == 1 else g.players  # (no seat: every secret hidden)
        for event in events:
            if event.type == "dealt":  # (the table drawn says it)
                continue
            line = event.for_player(viewer).describe(seat)
            self.say(line if event.type == "turn" else f"  {line}")

    def draw(self, g: Round, p: int, clock: Clock | None) -> PlayerView:
        """``p``'s view of the table, at 80 columns; the view drawn."""
        view = g.view(p)
        self.say("")
        for line in repr(view).splitlines():
            self.say(line)
        if view.held is not None:
            self.say(f"  you hold: {view.held}")
        if clock is not None and view.deadline is not None:
            self.say(f"  time left: {max(0.0, view.deadline - clock.now()):.0f} s")
        return view

    def sit(self, g: Round, p: int) -> None:
        """Hot-seat: hide the table before another person's screen is drawn."""
        if self.seated == p:
            return
        if len(self.humans) > 1:
            if self.out.is_terminal:
                self.out.clear()
            self.say("=" * 80)
            self.say(f"{seat(p)}'s turn to look: the others look away. {seat(p)}, press Enter.")
            self.say("=" * 80)
            self.line(None)
            if self.out.is_terminal:
                self.out.clear()
        self.seated = p

    def line(self, timeout: float | None) -> str | None:
        try:
            answer = self.keyboard.read(timeout)
        except EOFError:
            raise _Leave from None
        if answer is not None and not self.keyboard.echoes:  # a pipe's choice, shown as if typed
            self.say(f"  > {answer}")
        return answer

    # ------------------------------------------------------------------ choosing

    def choose(
        self, g: Round, p: int, legal: list[Action], clock: Clock | None, *, window: bool = False
    ) -> Action | None:
        """The person at ``p`` picks one of ``legal`` (``None``: they let a window go, or their time ran out)."""
        self.sit(g, p)
        view = self.draw(g, p, clock)
        items = _menu(legal)
        if window:
            self.say(f"  {seat(p)}, a card you may match was thrown ({view.discard_top}):")
        for i, (label, _) in enumerate(items, 1):
            self.say(f"  {i:>2}. {label(view)}")
        keys = "Enter lets it go, ? a hint, q leaves" if window else "? a hint, q leaves"
        while True:
            left = None if clock is None or view.deadline is None else view.deadline - clock.now()
            prompt = f"  your choice (1-{len(items)}; {keys})"
            self.say(prompt + (f" [{max(0.0, left):.0f} s left]" if left is not None else "") + ":")
            answer = self.line(left)
            if answer is None:
                self.say("  time is up")
                return None
            if answer == "" and window:
                return None
            if answer.lower() == "q":
                raise _Leave
            if answer == "?":
                self.say("  " + explain(g.seat_view(p), legal, g.variant))
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(items):
                choices = items[int(answer) - 1][1]
                picked = choices[0] if len(choices) == 1 else self.power_steps(view, p, choices)
                if picked is not None:
                    return picked
                continue
            self.say(f"  {answer!r} is not on the menu")

    def power_steps(self, view: PlayerView, p: int, uses: list[Action]) -> Action | None:
        """A power's use, asked one target at a time (its options worded from ``view``, ``p``'s); ``None`` if the
        person goes back (Enter)."""
        left = list(uses)
        for name in _POWER_STEPS:
            values = sorted({_field(a, name, p) for a in left})
            if len(values) < 2:
                continue
            self.say(f"  {_STEP_QUESTIONS[name]}")
            options = [(v, _step_words(view, name, v, left, p)) for v in values]
            for i, (_, words) in enumerate(options, 1):
                self.say(f"  {i:>2}. {words}")
            while True:
                self.say(f"  (1-{len(options)}; Enter goes back):")
                answer = self.line(None)
                if answer == "":
                    return None
                if answer is not None and answer.lower() == "q":
                    raise _Leave
                if answer is not None and answer.isdigit() and 1 <= int(answer) <= len(options):
                    chosen = options[int(answer) - 1][0]
                    left = [a for a in left if _field(a, name, p) == chosen]
                    break
                self.say(f"  {answer!r} is not on the menu")
        return left[0]

    # ------------------------------------------------------------------ playing

    def play(self, g: Round, bots: Sequence[BotLike | None]) -> Result | None:
        """Play ``g`` to its end and return its result; ``None`` if a person left (``q``, or the end of the
        input: the round stays as it is, to be saved). ``bots[p]`` is ``None`` at a person's seat."""
        try:
            return self._play(g, bots)
        except _Leave:
            return None

    def _play(self, g: Round, bots: Sequence[BotLike | None]) -> Result:
        n = g.players
        seated = [None if b is None else seat_bot(b) for b in bots]
        for p, s in enumerate(seated):
            if s is not None:
                s.sit(g.variant, p)
        acts = [None if s is None else s.act for s in seated]
        timed_rules = g.variant.rules.timing.turn_seconds > 0
        clock = self.clock_for(g.now) if timed_rules else None
        self.tell(g, g.events_so_far() if not g.actions else [])

        def apply(action: Action) -> None:
            if clock is not None and not isinstance(action, Tick):
                action = timed(action, max(g.now, round(clock.now(), 2)))  # (to the hundredth: "until 10.05 s")
            self.tell(g, g.apply(action))

        def overdue() -> bool:
            """Timed: the clock is past the round's deadline, whose Tick is played first (the rules decide: a
            timeout, an absent player's move, the end of the opening); then the table looks again."""
            if clock is None or g.is_over or g.deadline is None or clock.now() < g.deadline:
                return False
            apply(Tick(at=max(g.now, g.deadline)))
            return True

        while not g.is_over:
            if overdue():
                continue
            cur = g.current_player
            for q in [(cur + i) % n for i in range(1, n)]:  # out of turn: matches on the card just thrown
                legal = g.legal_actions(q)
                if not legal or not all(isinstance(a, MatchAction) for a in legal):
                    continue
                act = acts[q]
                if act is None:
                    view = g.view(q)  # a window is a card thrown: the discard's size and top say which
                    key = (q, len(view.discard), view.discard_top)
                    if key in self.asked:
                        continue
                    self.asked.add(key)
                    action = self.choose(g, q, legal, clock, window=True)
                else:
                    action = act(g.seat_view(q), legal)
                if action is not None and not overdue():
                    apply(action)
                if g.is_over or g.current_player != cur:
                    break
            if g.is_over or overdue():
                continue
            mover, legal = _mover(g)
            if mover < 0:  # only time can pass: wait for the next deadline
                if clock is None:
                    raise RuntimeError(f"nobody can act in phase {g.phase!r}")
                deadline = g.deadline if g.deadline is not None else g.now
                clock.sleep(deadline - clock.now())
                apply(Tick(at=max(g.now, deadline)))
                continue
            act = acts[mover]
            if act is None:
                action = self.choose(g, mover, legal, clock)
                if action is None:  # the person's time ran out: the rules decide
                    deadline = g.deadline if g.deadline is not None else g.now
                    apply(Tick(at=max(g.now, deadline)))
                    continue
            else:
                action = act(g.seat_view(mover), legal)
                if action is None:
                    raise TypeError(f"the bot of {seat(mover)} must act now (phase {g.phase!r}) but returned None")
            if not overdue():
                apply(action)
        return g.result()


def _mover(g: Round) -> tuple[int, list[Action]]:
    """The first seat with a move of its own (not only matches or time), from the player to move on."""
    n = g.players
    for i in range(n):
        p = (g.current_player + i) % n
        legal = g.legal_actions(p)
        if any(not isinstance(a, MatchAction | Tick) for a in legal):
            return p, legal
    return -1, []


def _menu(legal: list[Action]) -> list[tuple[Callable[[Any], str], list[Action]]]:
    """The menu's lines: each action alone, but a power's uses under one line (asked step by step) when it has
    several; time (``Tick``) is the table's, never the person's."""
    items: list[tuple[Callable[[Any], str], list[Action]]] = []
    powers: list[Action] = [a for a in legal if isinstance(a, Power)]
    grouped = len(powers) > 1
    for a in legal:
        if isinstance(a, Tick):
            continue
        if grouped and isinstance(a, Power):
            if a is powers[0]:
                items.append((_power_line, powers))
            continue
        items.append((a.describe, [a]))
    return items


def _power_line(view: Any) -> str:
    title = power_title(view.power or "the power")
    return f"use the power: {title[:1].lower()}{title[1:]} (choose its targets next)"


_STEP_QUESTIONS = {
    "owner": "whose card first?",
    "slot": "which card?",
    "target": "which player?",
    "target_slot": "which of their cards?",
}


def _field(a: Action, name: str, p: int) -> int:
    value = getattr(a, name, None)
    if name == "owner" and value is None:
        return p
    return -1 if value is None else int(value)


def _step_words(view: Any, name: str, value: int, uses: list[Action], p: int) -> str:
    """One option of a power's step, in words: a player, or a card of the layout the use names."""
    if name in ("owner", "target"):
        return "you" if value == p else seat(value)
    use = next(a for a in uses if _field(a, name, p) == value)
    owner = _field(use, "owner", p) if name == "slot" else _field(use, "target", p)
    return Words(use, view, seat).slot(owner, value)  # (the phrase the action's own words use)


# ---------------------------------------------------------------------- the snapshot ``q`` writes


def write_snapshot(path: Path, rulesets: Sequence[str], kinds: Sequence[str], seed: int, state: dict[str, Any]) -> None:
    """What ``--resume`` needs: the rulesets as named, the seats, the seed and the game or match (``to_json``)."""
    document = {"format": SNAPSHOT_FORMAT, "rulesets": list(rulesets), "bots": list(kinds), "seed": seed, **state}
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")


def read_snapshot(path: Path) -> dict[str, Any]:
    """The document ``write_snapshot`` wrote; ``ValueError`` saying what is wrong otherwise."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a snapshot of tamalou play ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"{path}: not a snapshot of tamalou play (no format {SNAPSHOT_FORMAT!r})")
    ok = (
        isinstance(document.get("rulesets"), list)
        and all(isinstance(r, str) for r in document["rulesets"])
        and isinstance(document.get("bots"), list)
        and all(isinstance(b, str) for b in document["bots"])
        and isinstance(document.get("seed"), int)
        and (isinstance(document.get("game"), str) or isinstance(document.get("match"), str))
    )
    if not ok:
        raise ValueError(f"{path}: a snapshot of tamalou play names its rulesets, bots, seed and game or match")
    return document
