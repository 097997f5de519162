"""The project's speed floor: French Tamalou random playouts, hand-written, with nothing configurable.

    python benchmarks/floor_french.py [GAMES]

This file does not import tamalou. It plays 4-player games of the ruleset ``french``
(``variants/french.toml`` and ``tamalou/plugins/french.py``) as the engine plays them, with the random
policy of ``random_playout.py``: at each step it lists the legal actions of the player to move, that
player's matches included, and picks one uniformly; an offered call is taken with probability 0.05
(and otherwise left out of the pick), or whenever it is the only action. It prints a line in the same
shape as ``random_playout.py`` (``... N actions/s ...``), which that script reads to print the ratio.

What it plays, step for step as the engine lists and applies it:

- 52 cards, no jokers. A to 10 are worth their number, J and Q 10, the black kings (spades, clubs)
  15, the red kings 0.
- The deal: 4 cards face down to each player, one at a time around the table; one card turned up to
  start the discard; a random first player. Each player knows their first two cards (no action).
- The draw: from the stock (the discard but its top is shuffled into a new stock when the stock is
  empty), or the discard's top, which must then replace a card (unless the player's cards were all
  matched away meanwhile). A player with no card may not take the discard.
- Holding the drawn card: ``replace`` one of your cards (it goes face up on the discard) or throw the
  drawn card on the discard.
- Powers: a card drawn from the stock and thrown at once offers its power, if it has a use; it may be
  declined (``pass``). 7 and 8 look at one of your cards; 9 and 10 at an opponent's; J and Q swap one
  of yours with an opponent's, nobody looking; a black king looks at an opponent's card, then the
  player swaps it with one of theirs or passes (a second step). Every use is listed whole: each slot,
  each opponent with a card and each of their slots. A replaced card gives no power.
- Matching: the card a turn threw (and the card turned up at the deal) opens a window until the next
  one is thrown or it is taken from the discard. The player to move may throw one of their cards on it,
  one match per occupied slot listed, in every phase of their turn: a card of the same rank goes to the
  discard (the first right match wins the window: nobody else may match on it any more); a wrong card
  goes back, face up, and costs a penalty card drawn face down from the stock into a new place of the
  layout. Three cards at most per player on one thrown card. No match is listed while no penalty card could
  be given (the stock empty, the discard holding only its top).
- The call: once the drawn card is resolved, if nobody has called yet, the player may call or ``pass``,
  whatever their total; a player whose cards are all gone must call instead of drawing. After a call,
  each other player plays once more (a player with no card left is skipped). Then the closing window:
  on the window's card, each player who may still match on it gets one ``match`` or ``pass``, in seat
  order from the seat after the last one to play; a right match ends it at once.
- The end: a called round as above; no card left to draw at all; or 400 turns. Totals; places by total,
  the caller behind in every tie, and a caller over 5 who is alone in first place goes behind the lowest
  of the others; the first place wins; scores are the totals, but the caller scores 0 when winning and
  10 more when not.
- Knowledge: one bit per player on each card, kept exact (a peek, a look and a draw show one player; a
  card thrown or a wrong match shows everybody; swaps keep what each knows; a penalty card is seen by
  nobody; a reshuffle forgets; everything is shown at the end).

Where it simplifies, none of which changes the game or what the random policy picks from:

- Only the player to move is asked for their actions, as the engine's benchmark loop asks only them
  (the engine would list the other players' matches too, if asked).
- A layout is a plain list: a matched card is removed from it and a penalty card appended, where the
  engine keeps an emptied slot empty; the choices are the same ones (one per card).
- A card thrown on a window somebody else already won is never offered, so it is not handled.
- No events, no validation of an action (each comes from the list just made), no snapshot, no view,
  no time, no plugin; the random generator is Python's own (the engine deals with its own SplitMix64).
"""

from __future__ import annotations

import random
import sys
import time

CALL_P = 0.05
PLAYERS = 4
EVERYONE = (1 << PLAYERS) - 1
THRESHOLD = 5
CALLER_PENALTY = 10
MAX_TRIES = 3  # cards one player may throw on one thrown card
MAX_TURNS = 400

# Cards are ints 0..51: rank index * 4 + suit index, suits in the order S, H, D, C.
RANK = [c // 4 for c in range(52)]
VALUE = [min(c // 4 + 1, 10) for c in range(52)]
for _c in range(48, 52):  # the kings: black 15, red 0
    VALUE[_c] = 15 if _c % 4 in (0, 3) else 0

# Powers of a card drawn from the stock and thrown at once.
NO_POWER, PEEK_OWN, PEEK_OPPONENT, BLIND_SWAP, LOOK_AND_SWAP = 0, 1, 2, 3, 4
POWER = [NO_POWER] * 52
for _c in range(52):
    _rank = _c // 4 + 1
    if _rank in (7, 8):
        POWER[_c] = PEEK_OWN
    elif _rank in (9, 10):
        POWER[_c] = PEEK_OPPONENT
    elif _rank in (11, 12):
        POWER[_c] = BLIND_SWAP
    elif _rank == 13 and _c % 4 in (0, 3):
        POWER[_c] = LOOK_AND_SWAP

# Phases.
DRAW, HOLD, USE, SWAP, CALL, CLOSING, OVER = range(7)

# Actions are tuples, the kind first.
A_DRAW_STOCK, A_DRAW_DISCARD, A_REPLACE, A_THROW, A_MATCH, A_CALL, A_PASS = range(7)
A_PEEK_OWN, A_PEEK_OPPONENT, A_BLIND_SWAP, A_LOOK, A_SWAP = range(7, 12)

Action = tuple[int, ...]

DRAW_STOCK: Action = (A_DRAW_STOCK,)
DRAW_DISCARD: Action = (A_DRAW_DISCARD,)
THROW: Action = (A_THROW,)
CALL_IT: Action = (A_CALL,)
PASS: Action = (A_PASS,)
# One action per place of a layout (a layout grows by penalties: 3 per thrown card at most).
REPLACES: list[Action] = [(A_REPLACE, i) for i in range(64)]
MATCHES: list[Action] = [(A_MATCH, i) for i in range(64)]
PEEKS_OWN: list[Action] = [(A_PEEK_OWN, i) for i in range(64)]
SWAPS: list[Action] = [(A_SWAP, i) for i in range(64)]


class Round:
    """One round of French Tamalou for 4 players, dealt from ``rng``."""

    __slots__ = (
        "caller",
        "discard",
        "hands",
        "held",
        "held_from_stock",
        "known",
        "looked",
        "phase",
        "player",
        "power",
        "reason",
        "rng",
        "scores",
        "stock",
        "tried",
        "turn",
        "waiting",
        "win",
        "win_by",
    )

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        deck = list(range(52))
        rng.shuffle(deck)
        self.hands: list[list[int]] = [[], [], [], []]
        for _ in range(4):
            for hand in self.hands:
                hand.append(deck.pop())
        self.stock = deck
        self.discard = [deck.pop()]
        self.known = [0] * 52  # per card, one bit per player who knows it
        self.known[self.discard[0]] = EVERYONE
        for p, hand in enumerate(self.hands):
            self.known[hand[0]] |= 1 << p
            self.known[hand[1]] |= 1 << p
        self.held = -1
        self.held_from_stock = False
        self.caller = -1
        self.turn = 0
        self.power = NO_POWER
        self.looked: tuple[int, int, int] = (-1, -1, -1)  # a black king's look: opponent, place, card
        # The matching window: the card (-1: none), who won it (-1: nobody yet), cards each player threw
        # on it; in the closing window, one bit per player still to match or pass.
        self.win = self.discard[0]
        self.win_by = -1
        self.tried = [0] * PLAYERS
        self.waiting = 0
        self.reason = ""
        self.scores: list[int] = []
        self.player = 0
        self.phase = DRAW
        self.start_turn(rng.randrange(PLAYERS))

    # ------------------------------------------------------------------ listing

    def legal(self) -> list[Action]:
        """The actions of the player to move, their matches included."""
        p = self.player
        hand = self.hands[p]
        phase = self.phase
        if phase == DRAW:
            if not hand and self.caller < 0:
                return [CALL_IT]  # no card: they must call (and have nothing to match with)
            out: list[Action] = []
            if self.stock or len(self.discard) > 1:
                out.append(DRAW_STOCK)
            if self.discard and hand:
                out.append(DRAW_DISCARD)
        elif phase == HOLD:
            out = REPLACES[: len(hand)]
            if self.held_from_stock or not hand:
                out.append(THROW)
        elif phase == USE:
            out = self.uses(p, hand)
            out.append(PASS)
        elif phase == SWAP:
            q, s, c = self.looked
            other = self.hands[q]
            out = SWAPS[: len(hand)] if s < len(other) and other[s] == c else []
            out.append(PASS)
        elif phase == CALL:
            out = [CALL_IT, PASS]
        elif phase == CLOSING:
            out = [PASS]
        else:
            return []
        if (
            self.win >= 0
            and self.tried[p] < MAX_TRIES
            and (self.win_by < 0 or self.win_by == p)
            and (self.stock or len(self.discard) > 1)
        ):
            out += MATCHES[: len(hand)]
        return out

    def uses(self, p: int, hand: list[int]) -> list[Action]:
        """Every use of the power on offer."""
        power = self.power
        if power == PEEK_OWN:
            return PEEKS_OWN[: len(hand)]
        hands = self.hands
        places = [(q, s) for q in range(PLAYERS) if q != p for s in range(len(hands[q]))]
        if power == PEEK_OPPONENT:
            return [(A_PEEK_OPPONENT, q, s) for q, s in places]
        if power == LOOK_AND_SWAP:
            return [(A_LOOK, q, s) for q, s in places]
        return [(A_BLIND_SWAP, i, q, s) for i in range(len(hand)) for q, s in places]

    def usable(self, power: int, p: int) -> bool:
        hands = self.hands
        if power == PEEK_OWN:
            return bool(hands[p])
        others = any(hands[q] for q in range(PLAYERS) if q != p)
        if power == BLIND_SWAP:
            return others and bool(hands[p])
        return others

    # ------------------------------------------------------------------ applying

    def apply(self, a: Action) -> None:
        kind = a[0]
        p = self.player
        if kind == A_MATCH:
            self.match(p, a[1])
        elif kind == A_DRAW_STOCK:
            if not self.stock:
                self.reshuffle()
            c = self.stock.pop()
            self.known[c] = 1 << p
            self.held = c
            self.held_from_stock = True
            self.phase = HOLD
        elif kind == A_DRAW_DISCARD:
            c = self.discard.pop()
            if c == self.win:
                self.win = -1
            self.held = c
            self.held_from_stock = False
            self.phase = HOLD
        elif kind == A_REPLACE:
            hand = self.hands[p]
            old = hand[a[1]]
            hand[a[1]] = self.held
            self.held = -1
            self.thrown(old, False)
        elif kind == A_THROW:
            c = self.held
            self.held = -1
            self.thrown(c, self.held_from_stock)
        elif kind == A_PASS:
            phase = self.phase
            if phase == CALL:
                self.end_turn()
            elif phase == CLOSING:
                self.waiting &= ~(1 << p)
                self.closing_moves_on()
            else:  # a power declined
                self.power = NO_POWER
                self.end_play()
        elif kind == A_CALL:
            self.caller = p
            self.end_turn()
        elif kind == A_PEEK_OWN:
            self.known[self.hands[p][a[1]]] |= 1 << p
            self.power = NO_POWER
            self.end_play()
        elif kind == A_PEEK_OPPONENT:
            self.known[self.hands[a[1]][a[2]]] |= 1 << p
            self.power = NO_POWER
            self.end_play()
        elif kind == A_BLIND_SWAP:
            mine, theirs, s = self.hands[p], self.hands[a[2]], a[3]
            mine[a[1]], theirs[s] = theirs[s], mine[a[1]]
            self.power = NO_POWER
            self.end_play()
        elif kind == A_LOOK:
            q, s = a[1], a[2]
            c = self.hands[q][s]
            self.known[c] |= 1 << p
            self.power = NO_POWER
            if self.hands[p]:
                self.looked = (q, s, c)
                self.phase = SWAP
            else:
                self.end_play()
        elif kind == A_SWAP:
            q, s, _ = self.looked
            mine, theirs = self.hands[p], self.hands[q]
            mine[a[1]], theirs[s] = theirs[s], mine[a[1]]
            self.end_play()
        else:
            raise ValueError(f"not an action: {a!r}")

    def match(self, p: int, i: int) -> None:
        hand = self.hands[p]
        self.tried[p] += 1
        phase = self.phase
        if phase == CLOSING:
            self.waiting &= ~(1 << p)
        c = hand[i]
        if RANK[c] == RANK[self.win]:
            del hand[i]
            self.discard.append(c)
            self.known[c] = EVERYONE
            self.win_by = p
        else:  # it goes back, face up, and a penalty card comes
            self.known[c] = EVERYONE
            if not self.stock and len(self.discard) > 1:
                self.reshuffle()
            if self.stock:
                c = self.stock.pop()
                self.known[c] = 0
                hand.append(c)
        if phase == CLOSING:
            self.closing_moves_on()
        elif phase == DRAW and not self.stock and not self.can_play(p):
            self.finish("no_card_to_draw")

    def reshuffle(self) -> None:
        """The discard but its top becomes the new stock, face down: nobody knows those cards."""
        pile = self.discard
        top = pile.pop()
        known = self.known
        for c in pile:
            known[c] = 0
        self.rng.shuffle(pile)
        self.stock = pile
        self.discard = [top]

    def thrown(self, c: int, power_ok: bool) -> None:
        """A card of the turn lands on the discard: it opens the window, and may offer its power."""
        self.discard.append(c)
        self.known[c] = EVERYONE
        self.win = c
        self.win_by = -1
        self.tried = [0] * PLAYERS
        if power_ok:
            power = POWER[c]
            if power != NO_POWER and self.usable(power, self.player):
                self.power = power
                self.phase = USE
                return
        self.end_play()

    def end_play(self) -> None:
        if self.caller < 0:
            self.phase = CALL
        else:
            self.end_turn()

    def end_turn(self) -> None:
        self.turn += 1
        self.start_turn((self.player + 1) % PLAYERS)

    def can_play(self, p: int) -> bool:
        """Whether a turn of ``p`` has something to play: a draw, or the call of an empty layout."""
        if self.stock or len(self.discard) > 1:
            return True
        return bool(self.discard) if self.hands[p] else self.caller < 0

    def start_turn(self, p: int) -> None:
        self.held = -1
        for _ in range(PLAYERS + 1):
            if p == self.caller:
                self.round_ending()
                return
            if self.turn >= MAX_TURNS:
                self.finish("turn_limit")
                return
            self.player = p
            self.phase = DRAW
            if self.caller >= 0 and not self.hands[p]:  # nothing left to play with: skipped
                self.turn += 1
                p = (p + 1) % PLAYERS
                continue
            if not self.can_play(p):
                self.finish("no_card_to_draw")
            return
        self.finish("no_player_left")

    def round_ending(self) -> None:
        """The turn came back to the caller: the closing window, if anybody may match."""
        waiting = 0
        if self.win >= 0 and (self.stock or len(self.discard) > 1):
            for q in range(PLAYERS):
                if self.tried[q] < MAX_TRIES and self.win_by in (-1, q) and self.hands[q]:
                    waiting |= 1 << q
        if not waiting:
            self.finish("called")
            return
        self.waiting = waiting
        self.phase = CLOSING
        self.next_waiting()

    def next_waiting(self) -> None:
        for i in range(1, PLAYERS + 1):
            q = (self.player + i) % PLAYERS
            if self.waiting >> q & 1:
                self.player = q
                return

    def closing_moves_on(self) -> None:
        waiting = self.waiting
        if self.win_by >= 0:  # matched: nobody else may match it any more
            waiting &= 1 << self.win_by
        if not self.stock and len(self.discard) < 2:  # no penalty card left: nobody may match
            waiting = 0
        for q in range(PLAYERS):
            if waiting >> q & 1 and (self.tried[q] >= MAX_TRIES or not self.hands[q]):
                waiting &= ~(1 << q)
        self.waiting = waiting
        if waiting:
            self.next_waiting()
        else:
            self.finish("called")

    def finish(self, reason: str) -> None:
        self.phase = OVER
        self.reason = reason
        known = self.known
        for hand in self.hands:
            for c in hand:
                known[c] = EVERYONE
        if self.held >= 0:
            known[self.held] = EVERYONE
        totals = [sum([VALUE[c] for c in hand]) for hand in self.hands]
        caller = self.caller
        order = sorted(range(PLAYERS), key=lambda q: (totals[q], q == caller))
        places: list[list[int]] = []
        last: tuple[int, bool] | None = None
        for q in order:
            key = (totals[q], q == caller)
            if key == last:
                places[-1].append(q)
            else:
                places.append([q])
                last = key
        if caller >= 0 and totals[caller] > THRESHOLD and places[0] == [caller] and len(places) > 1:
            places[0], places[1] = places[1], places[0]
        winners = places[0]
        scores = totals
        if caller >= 0:
            if caller in winners:
                scores[caller] = 0
            else:
                scores[caller] += CALLER_PENALTY
        self.scores = scores


def play(rng: random.Random) -> int:
    """One random game; returns the number of actions played."""
    r = Round(rng)
    legal = r.legal
    apply = r.apply
    choice = rng.choice
    steps = 0
    while r.phase != OVER:
        actions = legal()
        if CALL_IT in actions:
            if rng.random() < CALL_P or len(actions) == 1:
                action = CALL_IT
            else:
                action = choice([a for a in actions if a is not CALL_IT])
        else:
            action = choice(actions)
        apply(action)
        steps += 1
    return steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(1)
    start = time.perf_counter()
    actions = 0
    for _ in range(games):
        actions += play(rng)
    elapsed = time.perf_counter() - start
    print(
        f"floor_french: {games} games, {actions} actions, {games / elapsed:.0f} games/s, "
        f"{actions / elapsed:.0f} actions/s, {actions / games:.1f} actions/game"
    )


if __name__ == "__main__":
    main()
