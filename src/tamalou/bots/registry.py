"""Bots by name: the built-in bots (``BUILTIN_BOTS``), those installed packages add through the entry-point
group ``tamalou.bots`` (``BOT_ENTRY_POINT_GROUP``), a trained bot's file (``file:PATH``: ``FILE_PREFIX``),
``bot_names``, ``bot_factory`` and ``make_bot``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import PluginError
from ..play import BotLike, as_bot
from .cautious import CautiousBot
from .greedy import GreedyBot
from .ismcts import ROOTS, ISMCTSBot
from .random_bot import RandomBot

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


#: The entry-point group through which an installed package adds bots: each entry point is named after
#: its bot and loads a factory ``(seed: int) -> Bot`` (a bot class whose first argument is the seed will do).
BOT_ENTRY_POINT_GROUP = "tamalou.bots"

#: How a bot is named by its file: ``file:agent.npz`` is the ``LinearBot`` that ``LinearBot.save`` wrote there.
FILE_PREFIX = "file:"

#: The built-in bots: a name -> a factory ``(seed) -> Bot``.
BUILTIN_BOTS: dict[str, Callable[[int], BotLike]] = {
    "random": RandomBot,
    "cautious": CautiousBot,
    "greedy": GreedyBot,
    "ismcts": ISMCTSBot,
}


def _entry_points() -> dict[str, list[EntryPoint]]:
    """The entry points of group ``tamalou.bots`` of the installed packages, by bot name (lower case), not
    loaded; a name of a built-in bot is left out (the built-in bot keeps it)."""
    from importlib.metadata import entry_points

    found: dict[str, list[EntryPoint]] = {}
    for ep in entry_points(group=BOT_ENTRY_POINT_GROUP):
        name = ep.name.strip().lower()
        if name not in BUILTIN_BOTS and all(ep.value != other.value for other in found.get(name, [])):
            found.setdefault(name, []).append(ep)
    return found


def _installed_bots() -> dict[str, Callable[[int], BotLike]]:
    """The factory of every bot of the installed packages, by name (each entry point loaded)."""
    return {name: bot_factory(name) for name in _entry_points()}


def _package(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None)
    return f"package {name!r}" if name else "an installed package"


def bot_names() -> list[str]:
    """The names ``make_bot`` knows: the built-in bots, then those of installed packages (entry-point
    group ``tamalou.bots``), sorted. Nothing is imported to list them."""
    return [*BUILTIN_BOTS, *sorted(_entry_points())]


def is_bot_file(name: str) -> bool:
    """Whether ``name`` names a bot by its file (``file:PATH``)."""
    return name.strip().lower().startswith(FILE_PREFIX)


def bot_factory(name: str) -> Callable[[int], BotLike]:
    """What makes the bot called ``name`` (case-insensitive; see ``bot_names``): a factory ``(seed) -> bot``.
    A built-in bot's class, or what the entry point of that name (group ``tamalou.bots``) of an installed
    package loads: only that entry point is loaded; or, for ``file:PATH``, the trained ``LinearBot`` of that
    file (read once). Find it once to make many bots (a simulation)."""
    if is_bot_file(name):
        from .linear import LinearBot

        path = name.strip()[len(FILE_PREFIX) :]
        try:
            weights = LinearBot.load(path).weights
        except ImportError as exc:  # (an extra missing: said as it is)
            raise ValueError(f"bot {name.strip()!r}: {exc}") from exc
        except (OSError, ValueError, KeyError) as exc:
            raise ValueError(f"bot {name.strip()!r}: {path!r} is not a trained bot's file: {exc}") from exc
        return lambda seed: LinearBot(weights, seed)
    key = name.strip().lower()
    factory = BUILTIN_BOTS.get(key)
    if factory is not None:
        return factory
    base, colon, setting = key.partition(":")
    if colon and base in BUILTIN_BOTS:
        return _set_up(name.strip(), base, setting)
    found = _entry_points().get(key)
    if not found:
        raise ValueError(
            f"unknown bot {name!r}: the bots are {', '.join(bot_names())} (an installed package adds one "
            f"through the entry-point group {BOT_ENTRY_POINT_GROUP!r})"
        )
    if len(found) > 1:
        raise ValueError(
            f"two installed bots are called {key!r}: "
            + " and ".join(f"{ep.value!r} of {_package(ep)}" for ep in found)
            + "; uninstall one of them"
        )
    ep = found[0]
    where = f"bot {key!r} ({ep.value!r} of {_package(ep)}, entry-point group {BOT_ENTRY_POINT_GROUP!r})"
    try:
        loaded = ep.load()
    except Exception as exc:
        raise PluginError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from exc
    if not callable(loaded):
        raise PluginError(f"{where} is {loaded!r}, not a factory (seed) -> bot")

    def make(seed: int) -> BotLike:
        bot: BotLike = loaded(seed)
        try:
            as_bot(bot)
        except TypeError:
            raise PluginError(f"{where} made {bot!r}, which has no act(view, legal_actions) method") from None
        return bot

    return make


#: The built-in bots that take a calling level (``call_at``): ``greedy:call_at=8`` names one set so.
CALLING_BOTS = ("cautious", "greedy", "ismcts")


def _set_up(name: str, base: str, setting: str) -> Callable[[int], BotLike]:
    """The factory of a built-in bot with a setting: ``greedy:call_at=8`` (its calling level, a total), or the search
    bot's root, ``ismcts:root=paired``."""
    key, equals, value = setting.partition("=")
    if base == "ismcts" and key.strip() == "root":
        root = value.strip()
        if not equals or root not in ROOTS:
            raise ValueError(f"bot {name!r}: the search bot's root is one of {', '.join(ROOTS)}, got {root!r}")
        return lambda seed: ISMCTSBot(seed, root=root)
    level = value.strip().lstrip("-")
    if base not in CALLING_BOTS or key.strip() != "call_at" or not equals or not level.isdecimal():
        takes = ", ".join(CALLING_BOTS)
        raise ValueError(
            f"bot {name!r}: a built-in bot's setting is call_at=N, its calling level (a total; {takes} take it), "
            "or the search bot's root=paired"
        )
    call_at = int(value)
    cls: Any = BUILTIN_BOTS[base]
    return lambda seed: cls(seed, call_at=call_at)


def make_bot(name: str, seed: int = 0) -> BotLike:
    """A new bot called ``name`` (case-insensitive; see ``bot_names``; or ``file:PATH``; a calling bot with its
    calling level, ``greedy:call_at=8``; the search bot with its paired root, ``ismcts:root=paired``), seeded with
    ``seed``: ``bot_factory(name)(seed)``.

    Simulations send bots to worker processes by name and seed, so a bot must be rebuilt the same from
    both: the built-in bots are (their random choices come from ``seed`` alone), and a package's bot
    should be too."""
    return bot_factory(name)(seed)
