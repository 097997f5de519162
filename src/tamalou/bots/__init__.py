"""Bots: players that see only their own view, and ``play_game`` to seat them at a table.

A bot is an object with ``act(view, legal_actions) -> action`` (or a plain callable with the same
signature). ``view`` is the ``SeatView`` of its seat and ``legal_actions`` the list that
``Game.legal_actions`` gives that seat: a bot never gets the game itself, so it cannot read a hidden
card. Out of its turn a bot is only asked about matches, and returns ``None`` to let the chance go;
when it has to act (its turn, an opening peek, a card to give) it must return one of the listed
actions.

A bot may also define ``setup(variant, player)``, ``needs_view = False`` and ``may_match()``: see
``tamalou.play``, where ``Bot`` and ``play_game`` live (they are re-exported here).

The built-in bots, by name (``make_bot(name, seed)``): ``random`` (``RandomBot``), ``cautious``
(``CautiousBot``), ``greedy`` (``GreedyBot``) and ``ismcts`` (``ISMCTSBot``). An installed package adds bots
through the entry-point group ``tamalou.bots`` (``BOT_ENTRY_POINT_GROUP``); a trained ``LinearBot`` is named by
its file: ``make_bot("file:agent.npz")``.

The package, by subject: ``random_bot`` (``RandomBot``), ``facts`` (what the ruleset tells a bot),
``view_reader`` (what a view tells of the cards, shared by the cautious and the greedy bot), ``cautious``
(``CautiousBot``), ``greedy`` (``GreedyBot``), ``ismcts`` (``ISMCTSBot``, its determinizations, rollouts and
search tree), ``linear`` (``LinearBot``, a bot of learned weights, saved to a file) and ``registry`` (bots by
name: ``make_bot``, ``bot_names``, ``bot_factory``).

```python
import tamalou
from tamalou.bots import CautiousBot, GreedyBot, RandomBot, play_game

g = tamalou.new_game("french", players=3, seed=7)
result = play_game(g, [GreedyBot(1), CautiousBot(2), RandomBot(3)])
print(result.winners)
```
"""

from __future__ import annotations

from ..play import Bot, BotLike, Seated, as_bot, play_game, seat_bot
from .cautious import CautiousBot
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .linear import LinearBot
from .random_bot import RandomBot
from .registry import BOT_ENTRY_POINT_GROUP, BUILTIN_BOTS, FILE_PREFIX, bot_factory, bot_names, is_bot_file, make_bot

__all__ = [
    "BOT_ENTRY_POINT_GROUP",
    "BUILTIN_BOTS",
    "FILE_PREFIX",
    "Bot",
    "BotLike",
    "CautiousBot",
    "GreedyBot",
    "ISMCTSBot",
    "LinearBot",
    "RandomBot",
    "Seated",
    "as_bot",
    "bot_factory",
    "bot_names",
    "is_bot_file",
    "make_bot",
    "play_game",
    "seat_bot",
]
