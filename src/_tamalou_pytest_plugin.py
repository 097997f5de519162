"""tamalou's pytest plugin: ``tamalou verify`` as pytest tests, and fixtures for scenario tests.

Installed with tamalou (entry point ``pytest11``), so any pytest run where tamalou is installed loads
it. It is a top-level module (as hypothesis's ``_hypothesis_pytestplugin``), not a module of the package,
so that loading it imports nothing of tamalou, nor hypothesis: only pytest. tamalou is imported when an
option, a fixture or a hypothesis profile of tamalou's is used; runs that use none of it behave as
without it.

- ``pytest --tamalou-variant FILE_OR_NAME`` (repeatable; ``a,b`` for a composition) adds the checks of
  that ruleset as test items (``pip install "tamalou[testing]"``): ``tamalou[FILE]::loads``, then one item
  per invariant of ``tamalou verify``, named as in its table (the names of ``tamalou.verify.INVARIANTS``,
  read when the items are collected: ``tamalou[FILE]::conservation``, ``...::slot_order``...), and
  ``tamalou[FILE]::small_deals`` (a hypothesis property: tiny stacked deals), and with ``--tamalou-exhaustive DEPTH``
  ``tamalou[FILE]::exhaustive`` (``tamalou verify --exhaustive``). The invariant items share one
  run of verify's games (``tamalou.testing.run_invariants``: ``tamalou.verify.verify``, each game
  checked by ``check_game``), played by the first of them that runs; each fails with the simplest game
  that broke its invariant and the ``tamalou verify FILE --games 1 --seed S --players N`` command that plays
  it again, or is skipped if no game checked it. ``--tamalou-examples N`` (verify's ``--games``; default: the
  hypothesis profile's ``max_examples``), ``--tamalou-seed S|random``, ``--tamalou-players N`` and
  ``--tamalou-workers N`` choose the games as verify's options do. ``-k illegal_untouched`` (an item of the
  suite before it ran verify's invariants) selects ``refusals`` and ``listing_complete``. A project's pytest
  configuration may name its rulesets instead (``tamalou_variants``, one a line) and its games
  (``tamalou_examples``): the command line's options win. ``--tamalou-adapters`` adds the machine-learning
  adapters' conformance checks (``tamalou.ai.conformance``: ``action_encoding``, ``pettingzoo``, ``openspiel``;
  the ``ai`` extra).
- ``--hypothesis-profile=tamalou`` (or ``tamalou-ci``, ``tamalou-thorough``) loads tamalou's
  settings profiles (no deadline).
- Fixtures: ``tamalou_game`` (a factory of games on a stacked deal), ``tamalou_events`` (a seat's
  event stream), ``tamalou_variant`` (the ruleset of ``@pytest.mark.tamalou_variant(...)``, else of
  the first ``--tamalou-variant``, else French).
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr

    from tamalou import Action, Event, Game, Variant
    from tamalou.testing import InvariantRun

INSTALL = 'pip install "tamalou[testing]"'
DEFAULT_VARIANT = "french"


def _has_hypothesis() -> bool:
    return importlib.util.find_spec("hypothesis") is not None


# ----------------------------------------------------------------------------- options


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tamalou", "tamalou: property tests of Tamalou rulesets")
    group.addoption(
        "--tamalou-variant",
        action="append",
        default=[],
        dest="tamalou_variants",
        metavar="FILE_OR_NAME",
        help="check this ruleset against every invariant of 'tamalou verify' (one test per invariant, named as in "
        "verify's table) and on small stacked deals: a variant file or a registered name; 'a,b' for a "
        "composition. Repeatable. Needs " + INSTALL + ".",
    )
    group.addoption(
        "--tamalou-examples",
        type=int,
        default=None,
        dest="tamalou_examples",
        metavar="N",
        help="random games of each --tamalou-variant (verify's --games) and examples of small_deals (default: the "
        "hypothesis profile's max_examples: 100 as verify, 50 with the 'tamalou' profile).",
    )
    group.addoption(
        "--tamalou-seed",
        default="0",
        dest="tamalou_seed",
        metavar="S",
        help="seed of the first game of --tamalou-variant, then +1 each (verify's --seed; default 0: the games of "
        "'tamalou verify FILE'); 'random': a seed drawn for the run (in the header), other games each run.",
    )
    group.addoption(
        "--tamalou-workers",
        type=int,
        default=1,
        dest="tamalou_workers",
        metavar="N",
        help="worker processes that play the games of --tamalou-variant (verify's --workers; default 1: pytest-xdist "
        "may share the tests instead).",
    )
    group.addoption(
        "--tamalou-players",
        type=int,
        default=None,
        dest="tamalou_players",
        metavar="N",
        help="players of the games of --tamalou-variant (verify's --players; default: every count the ruleset "
        "allows, in turn).",
    )

    group.addoption(
        "--tamalou-exhaustive",
        type=int,
        default=None,
        dest="tamalou_exhaustive",
        metavar="DEPTH",
        help="also walk every sequence of legal actions of each --tamalou-variant's small deals to DEPTH actions, the "
        "invariants checked at every node (tamalou verify --exhaustive): the item exhaustive.",
    )
    group.addoption(
        "--tamalou-adapters",
        action="store_true",
        default=False,
        dest="tamalou_adapters",
        help="also run the machine-learning adapters' conformance checks on each --tamalou-variant: the action "
        "numbering, PettingZoo's api_test and seed_test, OpenSpiel's random_sim_test (tamalou.ai.conformance). "
        'Needs pip install "tamalou[ai]".',
    )

    parser.addini(
        "tamalou_variants",
        type="linelist",
        default=[],
        help="rulesets to check as --tamalou-variant does, one a line, when the command line names none (a file "
        "is found from the folder of the configuration file)",
    )
    parser.addini(
        "tamalou_examples",
        default="",
        help="--tamalou-examples, when the command line does not give it",
    )


def _variants(config: pytest.Config) -> list[str]:
    """The rulesets to check: ``--tamalou-variant`` (repeated), else the ``tamalou_variants`` setting of the
    project's pytest configuration (``[tool.pytest.ini_options] tamalou_variants = ["golf-6"]``)."""
    given = config.getoption("tamalou_variants", None)
    if given:
        return list(given)
    return [str(spec) for spec in config.getini("tamalou_variants") or []]


def _examples(config: pytest.Config) -> int | None:
    """``--tamalou-examples``, else the ``tamalou_examples`` setting, else ``None`` (the hypothesis profile's)."""
    given = config.getoption("tamalou_examples", None)
    if given is not None:
        return int(given)
    setting = str(config.getini("tamalou_examples") or "").strip()
    if not setting:
        return None
    try:
        return int(setting)
    except ValueError:
        raise pytest.UsageError(f"tamalou_examples: expected a number of games, got {setting!r}") from None


@pytest.hookimpl(tryfirst=True)  # before hypothesis's plugin loads the profile it is given
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "tamalou_variant(spec): the ruleset of the tamalou_game and tamalou_variant fixtures in this test"
    )
    if _variants(config):
        if not _has_hypothesis():
            raise pytest.UsageError(f"--tamalou-variant runs property tests with hypothesis, not installed: {INSTALL}")
        examples = _examples(config)
        if examples is not None and examples < 1:
            raise pytest.UsageError(f"--tamalou-examples: expected a number of games of at least 1, got {examples}")
        for option, what in (("players", "players"), ("workers", "worker processes")):
            value = config.getoption(f"tamalou_{option}", None)
            if value is not None and value < 1:
                raise pytest.UsageError(f"--tamalou-{option}: expected a number of {what} of at least 1, got {value}")
        config.stash[SEED] = _first_seed(config)
    profile = config.getoption("--hypothesis-profile", None)
    if isinstance(profile, str) and profile.startswith("tamalou") and _has_hypothesis():
        import tamalou.testing  # noqa: F401  (registers the profiles)


def _first_seed(config: pytest.Config) -> int:
    """``--tamalou-seed``: a number, or ``random``, a seed drawn for the run (drawn once, by pytest-xdist's
    controller, which gives it to its workers: ``pytest_configure_node``)."""
    given = str(config.getoption("tamalou_seed", None) or "0").strip()
    if given == "random":
        drawn = getattr(config, "workerinput", {}).get("tamalou_seed")
        return int(drawn) if drawn is not None else random.SystemRandom().randrange(1_000_000)
    try:
        seed = int(given)
    except ValueError:
        seed = -1
    if seed < 0:
        raise pytest.UsageError(f"--tamalou-seed: expected a seed (a number, 0 or more) or 'random', got {given!r}")
    return seed


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's, when it is installed
def pytest_configure_node(node: Any) -> None:
    """The seed drawn for ``--tamalou-seed random``, the same in every worker."""
    if SEED in node.config.stash:
        node.workerinput["tamalou_seed"] = node.config.stash[SEED]


#: The seed of the first game of each ruleset, for this run (``--tamalou-seed``).
SEED = pytest.StashKey[int]()


def pytest_report_header(config: pytest.Config) -> str | None:
    if not _variants(config) or SEED not in config.stash:
        return None
    return f"tamalou: the games of tamalou verify from seed {config.stash[SEED]} (--tamalou-seed)"


# ----------------------------------------------------------------------------- the invariants of verify

#: Names the items of the suite answered to before they were verify's invariants, by the invariants that check
#: what they checked: ``-k illegal_untouched`` selects ``refusals`` and ``listing_complete``.
ALIASES: dict[str, tuple[str, ...]] = {
    "refusals": ("illegal_untouched",),
    "listing_complete": ("illegal_untouched",),
}
#: The item that is not one of verify's invariants: tiny stacked deals, drawn by hypothesis.
SMALL_DEALS = "small_deals"
#: When ``tamalou verify`` checks an invariant, by its ``when``.
WHEN = {
    "step": "after every action",
    "sample": "at sampled states of each game",
    "end": "on each finished round",
    "game": "over each whole game",
    "run": "once per run, over its games",
    "match": "on whole matches dealt from one game in four (rulesets of several rounds)",
}


def _resolve(spec: str, folders: Sequence[Path]) -> str | list[str]:
    """A ``--tamalou-variant`` value as ``load_variant`` takes it: each part that names a file of one
    of ``folders`` (or an absolute path) becomes that file's path; ``a,b`` is a composition."""
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    out = []
    for part in parts:
        found = next((str(f / part) for f in folders if (f / part).is_file()), None)
        out.append(found or part)
    return out[0] if len(out) == 1 else out


def _command_spec(spec: str | list[str], here: Path) -> str:
    """How ``tamalou verify``, run from ``here``, names the ruleset: a file relative to ``here`` when it is
    inside it, else its path; a composition as ``a+b``."""
    out = []
    for part in [spec] if isinstance(spec, str) else spec:
        path = Path(part)
        if path.is_absolute() and path.is_file() and path.is_relative_to(here):
            part = str(path.relative_to(here))
        out.append(part)
    return "+".join(out)


@pytest.hookimpl(tryfirst=True)  # before -k, -m and --deselect choose among the items
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    for spec in dict.fromkeys(_variants(config)):  # each ruleset once
        suite = TamalouSuite.from_parent(session, name=f"tamalou[{spec}]", nodeid=f"tamalou[{spec}]", spec=spec)
        items.extend(session.genitems(suite))


class TamalouSuite(pytest.Collector):
    """The checks of one ruleset, as test items: ``loads``, one item per invariant of ``tamalou verify``
    (the names of ``tamalou.verify.INVARIANTS``, read when the items are collected, so that an invariant
    added later is collected too), and ``small_deals``.

    The invariant items share one run of verify's games (``run_invariants``), played when the first of them
    runs: each reports its own invariant from it."""

    def __init__(self, *, spec: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec = spec
        config = self.config
        folders = [config.invocation_params.dir, config.rootpath]
        self.load_spec = _resolve(spec, folders)
        self.variant: Variant | None = None
        self.error: Exception | None = None
        self._run: InvariantRun | Exception | None = None

    def collect(self) -> Iterator[pytest.Item]:
        from tamalou import TamalouError, load_variant
        from tamalou.verify import INVARIANTS

        try:
            self.variant = load_variant(self.load_spec)
        except (TamalouError, OSError) as exc:
            self.error = exc
        yield TamalouLoads.from_parent(self, name="loads")
        if self.variant is not None:
            for name in INVARIANTS:
                item = TamalouInvariant.from_parent(self, name=name)
                item.extra_keyword_matches.update(ALIASES.get(name, ()))
                yield item
            yield TamalouProperty.from_parent(self, name=SMALL_DEALS)
            if self.config.getoption("tamalou_exhaustive", None):
                yield TamalouExhaustive.from_parent(self, name="exhaustive")
            if self.config.getoption("tamalou_adapters", False):
                for name in ADAPTERS:
                    yield TamalouAdapter.from_parent(self, name=name)

    def games(self) -> int:
        """``--tamalou-examples``, else the loaded hypothesis profile's ``max_examples`` (100 by default,
        as ``tamalou verify``)."""
        examples = _examples(self.config)
        if examples is not None:
            return int(examples)
        from hypothesis import settings

        return int(settings().max_examples)

    def invariant_run(self) -> InvariantRun:
        """verify's games of the ruleset, played once (by the first item that needs them)."""
        if self._run is None:
            from tamalou.testing import run_invariants

            assert self.variant is not None
            try:
                self._run = run_invariants(
                    self.variant,
                    games=self.games(),
                    seed=self.config.stash.get(SEED, 0),
                    players=self.config.getoption("tamalou_players", None),
                    workers=self.config.getoption("tamalou_workers", None) or 1,
                    command=_command_spec(self.load_spec, self.config.invocation_params.dir),
                )
            except Exception as exc:  # a --tamalou-players the ruleset does not allow...: every item fails
                self._run = exc
        if isinstance(self._run, Exception):
            raise self._run
        return self._run


class _TamalouItem(pytest.Item):
    parent: TamalouSuite

    def reportinfo(self) -> tuple[Path, int | None, str]:
        spec = self.parent.load_spec
        path = Path(spec) if isinstance(spec, str) and Path(spec).is_file() else self.path
        return path, 0, self.nodeid  # line 0: a skip is reported at the ruleset (FILE:1)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        from tamalou import TamalouError

        exc = excinfo.value
        if not isinstance(exc, AssertionError | TamalouError):
            return super().repr_failure(excinfo, style=style)
        lines = [f"{type(exc).__name__}: {exc}", f"({self.nodeid}: {self.what()})"]
        lines += [str(n) for n in getattr(exc, "__notes__", ())]
        return "\n".join(lines)

    def what(self) -> str:
        return ""


class TamalouLoads(_TamalouItem):
    """The ruleset loads (its files, keys and plugins are valid)."""

    def runtest(self) -> None:
        if self.parent.error is not None:
            raise self.parent.error

    def what(self) -> str:
        return "the ruleset loads"


class TamalouInvariant(_TamalouItem):
    """One invariant of ``tamalou verify`` (a name of ``INVARIANTS``) over verify's games of the suite's
    ruleset: it fails with the simplest game that broke it, the ``tamalou verify`` command that plays that
    game again and the ``tamalou.replay`` call of the state; it is skipped if no game reached it (every one
    broke another invariant first)."""

    def runtest(self) -> None:
        run = self.parent.invariant_run()
        violation = run.violation(self.name)
        if violation is not None:
            raise violation
        reason = run.unchecked(self.name)
        if reason is not None:  # reported at the item (the ruleset), not at this line
            raise pytest.skip.Exception(reason, _use_item_location=True)

    def what(self) -> str:
        from tamalou.verify import INVARIANTS

        inv = INVARIANTS.get(self.name)
        return "" if inv is None else f"{inv.description}; checked {WHEN.get(inv.when, inv.when)}"


class TamalouProperty(_TamalouItem):
    """A standard hypothesis property (``tamalou.testing.check_property``) on the suite's ruleset: the
    ``small_deals`` item."""

    def runtest(self) -> None:
        from tamalou.testing import check_property

        assert self.parent.variant is not None
        check_property(
            self.name,
            self.parent.variant,
            max_examples=_examples(self.config),
            players=self.config.getoption("tamalou_players", None),
            seed=self.config.stash.get(SEED, 0),  # (derandomized: the examples of --tamalou-seed, every run)
        )

    def what(self) -> str:
        from tamalou.testing import PROPERTIES

        return PROPERTIES[self.name]


class TamalouExhaustive(_TamalouItem):
    """``--tamalou-exhaustive DEPTH``: every sequence of legal actions of the suite's small deals to ``DEPTH``
    (``tamalou.verify.exhaustive``), the invariants checked at every node; it fails with the first broken, and the
    actions that lead to it from the deal."""

    def runtest(self) -> None:
        from tamalou.verify import exhaustive

        assert self.parent.variant is not None
        players = self.config.getoption("tamalou_players", None)
        depth = int(self.config.getoption("tamalou_exhaustive"))
        try:
            exhaustive(self.parent.variant, depth, players=None if players is None else [players])
        except AssertionError as failure:
            failure.add_note(f"after the actions: {getattr(failure, 'actions', [])}")
            raise

    def what(self) -> str:
        depth = self.config.getoption("tamalou_exhaustive")
        return f"every sequence of legal actions of small deals, to depth {depth}, keeps the invariants"


#: The adapters' checks of ``--tamalou-adapters``: item name -> (the function of ``tamalou.ai.conformance``, what
#: it checks).
ADAPTERS = {
    "action_encoding": (
        "check_action_encoding",
        "every listed action round-trips through its id; mask and listing agree",
    ),
    "pettingzoo": ("check_pettingzoo", "PettingZoo's api_test and seed_test pass on the environment"),
    "openspiel": ("check_openspiel", "OpenSpiel's random_sim_test passes on the game"),
}


class TamalouAdapter(_TamalouItem):
    """One of the machine-learning adapters' conformance checks (``tamalou.ai.conformance``) on the suite's
    ruleset, at the fewest and the most players it allows (``--tamalou-players``: that count)."""

    def runtest(self) -> None:
        try:
            import tamalou.ai
        except ImportError as exc:  # the ai extra: said, never skipped silently
            raise ImportError(f'--tamalou-adapters needs the ai extra (pip install "tamalou[ai]"): {exc}') from exc
        check = getattr(tamalou.ai, ADAPTERS[self.name][0])
        check(self.parent.load_spec, self.config.getoption("tamalou_players", None))

    def what(self) -> str:
        return ADAPTERS[self.name][1]


# ----------------------------------------------------------------------------- fixtures


def _variant_spec(request: pytest.FixtureRequest, *, option: bool = True) -> str | Path | list[str]:
    """The ruleset of a test: its ``tamalou_variant`` marker (a file beside the test module first), else
    (with ``option``) the first ``--tamalou-variant``, else French."""
    marker = request.node.get_closest_marker("tamalou_variant")
    if marker is not None:
        spec = marker.args[0] if marker.args else marker.kwargs.get("variant", DEFAULT_VARIANT)
        if isinstance(spec, str):
            return _resolve(spec, [request.path.parent, request.config.invocation_params.dir])
        return list(spec) if isinstance(spec, list | tuple) else spec
    given = _variants(request.config) if option else None
    if given:
        return _resolve(given[0], [request.config.invocation_params.dir, request.config.rootpath])
    return DEFAULT_VARIANT


@pytest.fixture
def tamalou_variant(request: pytest.FixtureRequest) -> Variant:
    """The ruleset of this test (``@pytest.mark.tamalou_variant("my-rules.toml")``, else the first
    ``--tamalou-variant``, else French), loaded."""
    from tamalou import load_variant

    return load_variant(_variant_spec(request))


def _cards(pile: Any) -> list[str]:
    """A hand or pile of a deal: a list of cards, or one string of cards separated by spaces."""
    if isinstance(pile, str):
        return pile.split()
    return [str(c) for c in pile]


@pytest.fixture
def tamalou_game(request: pytest.FixtureRequest) -> Callable[..., Game]:
    """A factory of games: ``tamalou_game(deal={"hands": [...], "stock": [...], "discard": [...]},
    variant=..., players=..., first_player=0, seed=1)``.

    ``deal`` is a stacked deal (hands slot 0 first, the stock top first, the discard bottom first; a
    hand or pile may be one string, ``"AS 2H 3C 4D"``; a missing stock or discard is empty), or
    ``None`` for a deal shuffled with ``seed``. ``variant`` defaults to the test's
    ``@pytest.mark.tamalou_variant(...)``, else French (never to ``--tamalou-variant``: a scenario is
    written for one ruleset); ``players`` to the number of hands, or the ruleset's fewest players.
    """

    def make(
        deal: dict[str, Any] | None = None,
        variant: str | Path | Variant | Sequence[str] | None = None,
        *,
        players: int | None = None,
        first_player: int | None = 0,
        seed: int | None = 1,
    ) -> Game:
        from tamalou import load_variant, new_game

        v = load_variant(_variant_spec(request, option=False) if variant is None else variant)
        spec: dict[str, Any] | None = None
        hands: list[list[str]] = []
        if deal is not None:
            hands = [_cards(h) for h in deal.get("hands", [])]
            spec = {"hands": hands, "stock": _cards(deal.get("stock", [])), "discard": _cards(deal.get("discard", []))}
            spec.update({k: x for k, x in deal.items() if k not in spec})  # unknown keys: refused by new_game
        if players is None:
            players = len(hands) if spec is not None else v.rules.players.min
        return new_game(v, players, seed=seed, deal=spec, first_player=first_player)

    return make


class EventStream:
    """The events of a game as one seat sees them (``seat=None``: everything, secrets included).

    ``apply(action)`` applies the action to the game and returns its events for the seat;
    ``all`` is the whole stream from the deal on, ``types`` its event types, ``last`` the events of
    the last ``apply``. Actions applied to the game directly are taken into account (the stream is
    then rebuilt from ``game.events_so_far``)."""

    def __init__(self, game: Game, seat: int | None) -> None:
        self.game = game
        self.seat = seat
        self._events: list[Event] = game.events_so_far(seat)
        self._seen = len(game.actions)
        self.last: list[Event] = []

    def _sync(self) -> None:
        if len(self.game.actions) != self._seen:
            self._events = self.game.events_so_far(self.seat)
            self._seen = len(self.game.actions)

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Apply ``action`` and return its events as the seat sees them."""
        self._sync()
        events = self.game.apply(action)
        mine = events if self.seat is None else [e.for_player(self.seat) for e in events]
        self._events.extend(mine)
        self._seen = len(self.game.actions)
        self.last = mine
        return mine

    @property
    def all(self) -> list[Event]:
        """Every event since the deal, as the seat sees them."""
        self._sync()
        return list(self._events)

    @property
    def types(self) -> list[str]:
        """The types of ``all``, in order."""
        return [e.type for e in self.all]

    def __len__(self) -> int:
        return len(self.all)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.all)

    def __repr__(self) -> str:
        who = "everything" if self.seat is None else f"seat {self.seat}"
        return f"<EventStream of {who}: {len(self._events)} events>"


@pytest.fixture
def tamalou_events() -> Callable[..., EventStream]:
    """A factory of event streams: ``stream = tamalou_events(game, seat=1)``, then
    ``stream.apply(action)`` (the events seat 1 sees), ``stream.all``, ``stream.types``."""

    def make(game: Game, seat: int | None = 0) -> EventStream:
        if seat is not None and not 0 <= seat < game.players:
            raise ValueError(f"no seat {seat} in a {game.players}-player game")
        return EventStream(game, seat)

    return make
