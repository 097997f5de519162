"""tamalou's pytest plugin: the standard property suite of a ruleset, and fixtures for scenario tests.

Installed with tamalou (entry point ``pytest11``), so any pytest run where tamalou is installed loads
it. It is a top-level module (as hypothesis's ``_hypothesis_pytestplugin``), not a module of the package,
so that loading it imports nothing of tamalou, nor hypothesis: only pytest. tamalou is imported when an
option, a fixture or a hypothesis profile of tamalou's is used; runs that use none of it behave as
without it. (``tamalou.pytest_plugin`` re-exports ``EventStream`` from here for code that imported it.)

- ``pytest --tamalou-variant FILE_OR_NAME`` (repeatable; ``a,b`` for a composition) adds the standard
  properties of that ruleset (``tamalou.testing.PROPERTIES``) as test items, ``tamalou[FILE]::loads``,
  ``tamalou[FILE]::conservation``..., run with hypothesis (``pip install "tamalou[testing]"``);
  ``--tamalou-examples N`` sets how many games each property plays (default: the profile's).
- ``--hypothesis-profile=tamalou`` (or ``tamalou-ci``, ``tamalou-thorough``) loads tamalou's
  settings profiles (no deadline).
- Fixtures: ``tamalou_game`` (a factory of games on a stacked deal), ``tamalou_events`` (a seat's
  event stream), ``tamalou_variant`` (the ruleset of ``@pytest.mark.tamalou_variant(...)``, else of
  the first ``--tamalou-variant``, else French).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr

    from tamalou.actions import Action
    from tamalou.engine.game import Game
    from tamalou.events import Event
    from tamalou.schema import Variant

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
        help="run the standard property suite (conservation, no leak, termination...) on this ruleset: a "
        "variant file or a registered name; 'a,b' for a composition. Repeatable. Needs " + INSTALL + ".",
    )
    group.addoption(
        "--tamalou-examples",
        type=int,
        default=None,
        dest="tamalou_examples",
        metavar="N",
        help="random games each property of --tamalou-variant plays (default: the hypothesis profile's; "
        "50 with the 'tamalou' profile).",
    )


@pytest.hookimpl(tryfirst=True)  # before hypothesis's plugin loads the profile it is given
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "tamalou_variant(spec): the ruleset of the tamalou_game and tamalou_variant fixtures in this test"
    )
    if config.getoption("tamalou_variants", None):
        if not _has_hypothesis():
            raise pytest.UsageError(f"--tamalou-variant runs property tests with hypothesis, not installed: {INSTALL}")
        examples = config.getoption("tamalou_examples", None)
        if examples is not None and examples < 1:
            raise pytest.UsageError(f"--tamalou-examples: expected a number of games of at least 1, got {examples}")
    profile = config.getoption("--hypothesis-profile", None)
    if isinstance(profile, str) and profile.startswith("tamalou") and _has_hypothesis():
        import tamalou.testing  # noqa: F401  (registers the profiles)


# ----------------------------------------------------------------------------- the property suite


def _resolve(spec: str, folders: Sequence[Path]) -> str | list[str]:
    """A ``--tamalou-variant`` value as ``load_variant`` takes it: each part that names a file of one
    of ``folders`` (or an absolute path) becomes that file's path; ``a,b`` is a composition."""
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    out = []
    for part in parts:
        found = next((str(f / part) for f in folders if (f / part).is_file()), None)
        out.append(found or part)
    return out[0] if len(out) == 1 else out


@pytest.hookimpl(tryfirst=True)  # before -k, -m and --deselect choose among the items
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    for spec in dict.fromkeys(config.getoption("tamalou_variants", None) or ()):  # each ruleset once
        suite = TamalouSuite.from_parent(session, name=f"tamalou[{spec}]", nodeid=f"tamalou[{spec}]", spec=spec)
        items.extend(session.genitems(suite))


class TamalouSuite(pytest.Collector):
    """The standard properties of one ruleset, as test items."""

    def __init__(self, *, spec: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec = spec
        config = self.config
        folders = [config.invocation_params.dir, config.rootpath]
        self.load_spec = _resolve(spec, folders)
        self.variant: Variant | None = None
        self.error: Exception | None = None

    def collect(self) -> Iterator[pytest.Item]:
        from tamalou.errors import TamalouError
        from tamalou.testing import PROPERTIES
        from tamalou.variant import load_variant

        try:
            self.variant = load_variant(self.load_spec)
        except (TamalouError, OSError) as exc:
            self.error = exc
        yield TamalouLoads.from_parent(self, name="loads")
        if self.variant is not None:
            for name in PROPERTIES:
                yield TamalouProperty.from_parent(self, name=name)


class _TamalouItem(pytest.Item):
    parent: TamalouSuite

    def reportinfo(self) -> tuple[Path, int | None, str]:
        spec = self.parent.load_spec
        path = Path(spec) if isinstance(spec, str) and Path(spec).is_file() else self.path
        return path, None, self.nodeid

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        from tamalou.errors import TamalouError

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


class TamalouProperty(_TamalouItem):
    """One standard property (``tamalou.testing.check_property``) on the suite's ruleset."""

    def runtest(self) -> None:
        from tamalou.testing import check_property

        assert self.parent.variant is not None
        check_property(self.name, self.parent.variant, max_examples=self.config.getoption("tamalou_examples", None))

    def what(self) -> str:
        from tamalou.testing import PROPERTIES

        return PROPERTIES[self.name]


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
    given = request.config.getoption("tamalou_variants", None) if option else None
    if given:
        return _resolve(given[0], [request.config.invocation_params.dir, request.config.rootpath])
    return DEFAULT_VARIANT


@pytest.fixture
def tamalou_variant(request: pytest.FixtureRequest) -> Variant:
    """The ruleset of this test (``@pytest.mark.tamalou_variant("my-rules.toml")``, else the first
    ``--tamalou-variant``, else French), loaded."""
    from tamalou.variant import load_variant

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
        from tamalou.engine.game import new_game
        from tamalou.variant import load_variant

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
