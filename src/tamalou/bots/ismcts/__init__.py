"""``ISMCTSBot``: information-set Monte Carlo tree search, from a seat's view alone.

A bot never gets the game (``play_game`` hands it its ``SeatView`` and its legal actions), so the search
starts by rebuilding a full game the view is consistent with — a **determinization** — and samples many:

1. **A template from the view** (``Determinizer``). The cards the view shows — the whole discard pile,
   every card this seat knows in any layout, the card it holds — take their ids in the variant's deck;
   the other ids (the deck less those) fill, face down, every place the view shows without a card: the
   unknown slots of each layout, the stock (its size is public) and the card another player holds. The
   public facts come from the view (phase, player to move, turn, caller, players who left, the power on
   offer, the seats a window waits for, the game's time); the rest of the turn's state is what the view
   and the seat's legal actions imply (a card held from the discard when throwing it is not listed, a
   matching window open on the discard's top, a caller's layout locked as the rules say). Each
   mechanic's state starts as a new game's and is set from those facts. Knowledge: this seat knows what
   its view shows, everyone knows the discard, an opponent is taken to know the cards of their layout
   in the opening-peek slots and the card they hold. The template then goes through
   ``Round.to_json``/``Round.from_json``, which check it as a snapshot from storage is checked.
2. **A sample per iteration**: a copy of the template whose unknown places get the unknown ids in a
   fresh random order (uniform over the deals the view allows; knowledge stays with the places).
3. **The search** (single-observer ISMCTS, after Cowling, Powley & Whitehouse 2012). The tree holds
   the searching seat's decisions: its nodes are the seat's information sets (what it knows when it
   next has to decide: ``_info_key``), its edges the seat's moves. Each iteration descends it in a new
   sample, choosing among the moves legal *in that sample* by UCB1 with availability counts; between
   two of the seat's decisions the other players, and every player's matches, play the rollout policy
   (``RolloutPolicy``: greedy rules on what each player knows) — an opponent model rather than
   opponent nodes, so that the budget goes to the seat's own choices. A node below the root plays the
   policy's move until it has been reached ``expand_after`` times, then its moves are searched too;
   the first new node ends the descent and the policy plays the round out. The result is credited to
   every edge of the path: the seat's share of the win (1 alone, 1/k among k tied winners), mixed
   (``margin``) with how far its total is under the others' mean, a less noisy signal. Out-of-turn
   matches are not tree moves: a player matches when they know a card of their own of the top's kind,
   as the built-in bots do.

The search runs ``iterations`` samples, or fewer when their moves reach the ``budget`` (a count of moves,
so that the time a decision takes is bounded however long the round still is, and the choice stays
reproducible), or when the optional ``seconds`` have passed. The search's choice is the root's most visited action;
the move played is that choice if its mean reward beats the one of the move a ``GreedyBot`` would play by ``anchor``
(0.05) or more, else the greedy move: a few hundred samples rank moves a few points apart by noise and by the
rollouts' biases, so the greedy move stands unless the search's evidence is clear (measured: in Kaboo the search
alone scored 0.30 against three greedy bots, anchored 0.38). That is the default at three players or more; at two
players, where the search alone measured the stronger, the move played is the most visited one. Decisions the
template cannot stand for — a phase where the turn's hidden progress is not in the view (a power's second step, a
card owed to an opponent, a window after a power), or a view whose cards do not fit the deck — and out-of-turn
matches are left to a ``GreedyBot``, as is every decision with a single action. In a timed ruleset the samples play
their moves at the clock's time (a search takes no time at the table). Everything the bot decides is a function of
its view, its legal actions and its seeded generator: exchanging two cards it does not know changes nothing.

```python
import tamalou
from tamalou.bots import GreedyBot, play_game
from tamalou.bots.ismcts import ISMCTSBot

game = tamalou.new_game("french", players=2, seed=3)
result = play_game(game, [ISMCTSBot(seed=1, iterations=60), GreedyBot(2)])
print(result.winners, result.totals)
```
"""

from __future__ import annotations

from .bot import ANCHOR as ANCHOR
from .bot import BUDGET as BUDGET
from .bot import CPU_LIMIT as CPU_LIMIT
from .bot import ROOTS as ROOTS
from .bot import SEARCHED as SEARCHED
from .bot import ISMCTSBot
from .determinizer import Determinizer
from .determinizer import Unbuildable as Unbuildable
from .rollout import RolloutPolicy

__all__ = ["Determinizer", "ISMCTSBot", "RolloutPolicy"]
