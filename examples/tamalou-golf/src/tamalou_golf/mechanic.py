"""The Golf mechanic: face-up cards, the opening turn-up, the flip, going out, and columns that cancel.

The plugin module every Golf ruleset names (``plugins = ["tamalou_golf.mechanic"]``): it registers one
mechanic, ``Golf``, whose settings a ruleset writes in its TOML (tamalou validates them by ``GolfOptions``
when the ruleset loads, and ``tamalou show`` prints them); the layout's shape is tamalou's own key.

| key                    | golf-4 | golf-6 | golf-9 | what it says                                                    |
|------------------------|--------|--------|--------|-----------------------------------------------------------------|
| `rules.deal.grid`      | [2, 2] | [2, 3] | [3, 3] | the layout's rows and columns (slots numbered row by row)       |
| `options.golf.turn_up` | 0      | 2      | 3      | cards each player turns face up at the opening (phase `reveal`) |
| `options.golf.flip`    | false  | true   | true   | a stock card drawn and discarded turns a card up (phase `flip`) |
| `options.golf.go_out`  | false  | true   | true   | a player whose cards are all face up ends the round (`out`)     |

golf-6-knock extends golf-6 and keeps its settings (``[options.golf]`` merges through ``extends``). A ruleset
the mechanic cannot play is a ``VariantError`` naming the key: one without ``rules.deal.grid`` (the columns are
the grid's), one where a card taken from the discard may be discarded again (``rules.draw.discard_must_replace``
must be true, so that a discarded card is always a stock card), one whose opening turns up every card
(``options.golf.turn_up`` must leave one face down).

What the mechanic does, moment by moment (the moments of ``tamalou.Mechanic``):

- ``begin``: with ``turn_up``, the round starts in the phase ``reveal``: each player, in any order, turns
  ``turn_up`` of their cards face up (``TurnUp``); the first turn starts once everybody has.
- ``before_action`` / ``thrown(how="replaced")``: the card a ``replace`` puts in a slot goes face up (event
  ``placed``). The core's ``replace`` keeps the card's knowers (its holder saw it) and the ``thrown`` moment
  does not say which slot was filled, so ``before_action`` notes the slot of a ``replace`` about to be
  applied (``undo`` forgets it if the action is refused).
- ``thrown(how="discarded")``: with ``flip``, a card drawn from the stock and discarded takes the round to
  the phase ``flip``, where the player must turn one of their face-down cards face up (``Flip``).
- ``turn_ending``: with ``go_out``, a player whose cards are all face up at the end of their turn "goes
  out": they begin the round's last lap (tamalou's ``g.begin_last_lap``: every other player has one last
  turn, then the round ends with the reason ``"out"``; nobody is the caller, ``Result.last_lap`` names them).
- ``finished``: every full column of one rank (two cards in a grid of 2 rows, three in golf-9's 3) is said
  (event ``column_cancelled``); the cards stay where they lie.

The score is by position, through two of tamalou's hooks that read where the cards lie (``Tally.layouts``):
``tamalou_round_scores`` gives each player their total less every full column of one rank (``golf_scores``),
and ``tamalou_rank`` ranks the round by those scores (lowest first, ties sharing a place). ``Result.totals``
stay the cards' sums; ``Result.scores`` are Golf's, and a match adds them up.

Face up is kept per slot (``GolfState.up``) and shown to every seat in ``view.extra["golf"]["face_up"]`` (the
grid itself is tamalou's ``view.grid``); a face-up card is also known to every seat (``g.show``), so every view
shows it.

Bots: the built-in bots have no rule for ``reveal`` and ``flip``; the mechanic's hint (``hint``, tamalou's
bots contract) tells them which cards to turn up: in columns with no face-up card first. A face-up card is a
column that a drawn card of its rank can cancel, so cards turned up in different columns give more chances.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any, ClassVar

import tamalou
from pydantic import BaseModel, ConfigDict, Field
from tamalou import Action, Event, IllegalAction, PhaseSpec, Replace, Tally, TieBreak

from .actions import Flip, TurnUp, flip, turn_up

if TYPE_CHECKING:
    from tamalou import CardWorth, Round, SeatInfo, SeatView, Variant

#: The phase of the opening turn-up (golf-6, golf-9).
REVEAL = "reveal"
#: The phase where a player who discarded the card drawn from the stock turns a card up (golf-6, golf-9).
FLIP = "flip"
#: ``Result.reason`` of a round ended because a player's cards were all face up.
OUT = "out"
#: The most cards ``options.golf.turn_up`` may say (tamalou deals at most 12 cards a player); a ruleset's own
#: bound is one card fewer than its layout's.
MAX_TURN_UP = 11


class GolfState:
    """Golf's part of a round's state (saved in snapshots): ``up[p]``, bit ``s`` set when player ``p``'s
    slot ``s`` is face up; ``turned``, bit ``p`` set once player ``p`` did the opening turn-up;
    ``placing``, the slot a ``replace`` being applied fills (-1 between actions)."""

    __slots__ = ("placing", "turned", "up")

    def __init__(self, players: int) -> None:
        self.up = [0] * players
        self.turned = 0
        self.placing = -1


class GolfOptions(BaseModel):
    """The settings of a Golf ruleset: its table ``[options.golf]`` (the defaults: golf-6's, the usual game)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    turn_up: int = Field(
        2, ge=0, le=MAX_TURN_UP, description="Cards each player turns face up at the opening (0: no opening)."
    )
    flip: bool = Field(
        True, description="A card drawn from the stock and discarded turns one of one's face-down cards up."
    )
    go_out: bool = Field(
        True, description="A player whose cards are all face up ends the round: every other player plays once more."
    )


class GolfView(BaseModel):
    """What the Golf mechanic shows every seat (``view.extra["golf"]``): each player's face-up slots (public).
    The layouts' shape is tamalou's own ``view.grid``."""

    face_up: list[list[int]]


class Golf(tamalou.Mechanic):
    """Golf's rules that the core does not play (see the module's documentation)."""

    name = "golf"
    order = 5  # before matching (10) and powers (20): a placed card is face up before anybody reacts to a throw
    actions = (TurnUp, Flip)
    view_model = GolfView
    title = "face-up cards, the opening turn-up, the flip, going out, and columns of one rank that count 0"
    event_texts: ClassVar[dict[str, str]] = {
        "turned_up": "{player} turns up slots {slots}: {cards}",
        "placed": "{player} places {card} face up in slot {slot}",
        "flipped": "{player} turns up slot {slot}: {card}",
        "column_cancelled": "{player}'s column of slots {slots} is one rank ({cards}): it counts 0",
    }

    options_model = GolfOptions
    options: GolfOptions  # (tamalou's Mechanic reads the table [options.golf] into it)

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        grid = variant.rules.deal.grid
        if grid is None:
            raise tamalou.VariantError(
                "Golf scores the layout's columns: expected its shape, rules.deal.grid = [rows, columns]",
                key="rules.deal.grid",
            )
        #: The layout's shape (tamalou checked that rows × columns is rules.deal.cards).
        self.rows, self.columns = grid
        cards = variant.rules.deal.cards
        if self.options.turn_up >= cards:
            raise tamalou.VariantError(
                f"expected at most {cards - 1} (one of a layout's {cards} cards at least stays face down at the "
                f"opening), got {self.options.turn_up}",
                key="options.golf.turn_up",
            )
        if not variant.rules.draw.discard_must_replace:
            raise tamalou.VariantError(
                "Golf: a card taken from the discard is placed in the layout (rules.draw.discard_must_replace)",
                key="rules.draw.discard_must_replace",
            )
        if not self.options.turn_up:
            self.idle.add("begin")
        if not self.options.go_out:
            self.idle.add("turn_ending")

    # ---------------------------------------------------------------- state

    def new_state(self, g: Round) -> GolfState:
        return GolfState(g.players)

    def check_state(self, g: Round, st: Any) -> str | None:
        everyone = (1 << g.players) - 1
        for p, mask in enumerate(st.up):
            if not 0 <= mask < 1 << len(g.hands[p]):
                return f"face-up slots of player {p} that the layout does not have"
            if any(mask >> s & 1 and g.knowers[g.card_at(p, s)] != everyone for s in g.occupied(p)):
                return f"a face-up card of player {p} that a seat does not know"
        if not 0 <= st.turned <= everyone:
            return "the opening turn-up names players who are not there"
        if st.placing != -1:
            return "a card being placed between two actions"
        if g.phase == REVEAL and st.turned >> g.current_player & 1:
            return "the opening waits for a player who has turned their cards up already"
        up = st.up[g.current_player]
        if g.phase == FLIP and all(up >> s & 1 for s in g.occupied(g.current_player)):
            return "a flip owed by a player without a face-down card"
        return None

    def resample(self, g: Round, info: SeatInfo) -> None:
        """(search) The face-up slots are public: read them from the seat's view, and make their cards known
        to every seat (the rebuilt game knows them as the seat's own knowledge only)."""
        st: GolfState = g.ms[self.index]
        shown = info.view.extra.get(self.name, {}).get("face_up", [])
        for p, slots in enumerate(shown):
            for s in slots:
                if g.slot_ok(p, s):
                    st.up[p] |= 1 << s
                    g.show(g.card_at(p, s))
        everyone = (1 << g.players) - 1
        st.turned = everyone & ~info.waiting if g.phase == REVEAL else everyone

    # ---------------------------------------------------------------- reading

    def is_up(self, g: Round, p: int, s: int) -> bool:
        """Whether player ``p``'s slot ``s`` is face up."""
        return bool(g.ms[self.index].up[p] >> s & 1)

    def face_down(self, g: Round, p: int) -> list[int]:
        """Player ``p``'s occupied slots that are face down."""
        up = g.ms[self.index].up[p]
        return [s for s in g.occupied(p) if not up >> s & 1]

    def column_slots(self, column: int) -> list[int]:
        """The slots of ``column``, top row first."""
        return [column + r * self.columns for r in range(self.rows)]

    def view_extra(self, g: Round, p: int) -> dict[str, Any]:
        up = g.ms[self.index].up
        return {"face_up": [[s for s in g.occupied(q) if up[q] >> s & 1] for q in range(g.players)]}

    # ---------------------------------------------------------------- phases

    def phases(self) -> dict[str, PhaseSpec]:
        out: dict[str, PhaseSpec] = {}
        if self.options.turn_up:
            out[REVEAL] = PhaseSpec(
                self.list_turn_ups,
                {TurnUp: self.do_turn_up},
                open=False,
                waiting=self.yet_to_turn_up,
                auto=self.auto_turn_up,
            )
        if self.options.flip:
            out[FLIP] = PhaseSpec(self.list_flips, {Flip: self.do_flip}, open=False, auto=self.auto_flip)
        return out

    # ---------------------------------------------------------------- the opening turn-up

    def begin(self, g: Round, events: list[Event]) -> bool:
        g.phase = REVEAL
        self._next_to_turn_up(g)
        return True

    def yet_to_turn_up(self, g: Round) -> list[int]:
        turned = g.ms[self.index].turned
        return [p for p in range(g.players) if not turned >> p & 1]

    def _next_to_turn_up(self, g: Round) -> None:
        """The player to move during the opening: the first, from the first player on, yet to turn up."""
        turned = g.ms[self.index].turned
        for i in range(g.players):
            p = (g.first_player + i) % g.players
            if not turned >> p & 1:
                g.current_player = p
                return

    def _count(self, g: Round, p: int) -> int:
        return min(self.options.turn_up, g.card_count(p))

    def list_turn_ups(self, g: Round, p: int, out: list[Action]) -> None:
        if g.ms[self.index].turned >> p & 1:
            return
        out.extend(turn_up(p, combo) for combo in combinations(g.occupied(p), self._count(g, p)))

    def do_turn_up(self, g: Round, a: TurnUp) -> list[Event]:
        p = a.player
        st: GolfState = g.ms[self.index]
        if not g.player_ok(p) or st.turned >> p & 1:
            raise IllegalAction(f"player {p} has already turned their cards up", a)
        count = self._count(g, p)
        slots = tuple(a.slots)
        if len(slots) != count or not all(g.slot_ok(p, s) for s in slots):
            raise IllegalAction(f"turn up {count} of your own cards", a)
        if any(x == y for x, y in pairwise(slots)):  # (a set of slots: tamalou puts them in increasing order)
            raise IllegalAction("name each slot to turn up once", a)
        for s in slots:
            g.show(g.card_at(p, s))
            st.up[p] |= 1 << s
        cards = [g.text[g.card_at(p, s)] for s in slots]
        events = [Event("turned_up", {"player": p, "slots": list(slots), "cards": cards})]
        st.turned |= 1 << p
        if st.turned == (1 << g.players) - 1:
            g.start_turn(g.first_player, events)
        else:
            self._next_to_turn_up(g)
        return events

    def auto_turn_up(self, g: Round, events: list[Event]) -> None:
        """A timed ruleset's clock ran out: the player to move turns up their first slots."""
        p = g.current_player
        events.extend(self.do_turn_up(g, turn_up(p, tuple(g.occupied(p)[: self._count(g, p)]))))

    # ---------------------------------------------------------------- a card placed goes face up

    def before_action(self, g: Round, action: Action) -> object:
        if type(action) is not Replace:
            return None
        st: GolfState = g.ms[self.index]
        was = st.placing
        st.placing = action.slot
        return was

    def undo(self, g: Round, token: object) -> None:
        if isinstance(token, int):
            g.ms[self.index].placing = token

    def thrown(self, g: Round, card: int, how: str, events: list[Event]) -> bool:
        st: GolfState = g.ms[self.index]
        p = g.current_player
        if how == "replaced":
            s, st.placing = st.placing, -1
            if s >= 0 and g.slot_ok(p, s):
                placed = g.card_at(p, s)
                g.show(placed)
                st.up[p] |= 1 << s
                events.append(Event("placed", {"player": p, "slot": s, "card": g.text[placed]}))
            return False
        # A card discarded was drawn from the stock: one taken from the discard must be placed (checked above).
        if self.options.flip and how == "discarded" and self.face_down(g, p):
            g.phase = FLIP  # the turn goes on with the flip (end_play once it is done)
            return True
        return False

    # ---------------------------------------------------------------- the flip

    def list_flips(self, g: Round, p: int, out: list[Action]) -> None:
        if p == g.current_player:
            out.extend(flip(p, s) for s in self.face_down(g, p))

    def do_flip(self, g: Round, a: Flip) -> list[Event]:
        p = a.player
        if p != g.current_player:
            raise IllegalAction(f"it is player {g.current_player}'s turn, not player {p}'s", a)
        s = a.slot
        if not g.slot_ok(p, s):
            raise IllegalAction(f"slot {s} of player {p} holds no card", a)
        if self.is_up(g, p, s):
            raise IllegalAction(f"slot {s} is face up already: flip one of your face-down cards", a)
        card = g.card_at(p, s)
        g.show(card)
        g.ms[self.index].up[p] |= 1 << s
        events = [Event("flipped", {"player": p, "slot": s, "card": g.text[card]})]
        g.end_play(events)
        return events

    def auto_flip(self, g: Round, events: list[Event]) -> None:
        """A timed ruleset's clock ran out: the player to move flips their first face-down card."""
        p = g.current_player
        events.extend(self.do_flip(g, flip(p, self.face_down(g, p)[0])))

    # ---------------------------------------------------------------- going out

    def turn_ending(self, g: Round, events: list[Event]) -> bool:
        p = g.current_player
        if not self.face_down(g, p):  # every other player has one last turn (nothing if someone knocked)
            g.begin_last_lap(p, OUT, events)
        return False

    # ---------------------------------------------------------------- a hint for bots

    def hint(self, view: SeatView, action: Action, worth: CardWorth) -> float | None:
        """How good a ``turn_up`` or a ``flip`` is (tamalou's bots contract): 1, and 1 more for each column it
        turns a card up in that has no face-up card of the seat's yet. ``None`` for other moves."""
        if isinstance(action, TurnUp):
            slots: tuple[int, ...] = action.slots
        elif isinstance(action, Flip):
            slots = (action.slot,)
        else:
            return None
        face_up = view.extra.get(self.name, {}).get("face_up", [])
        up = face_up[view.player] if view.player < len(face_up) else []
        columns_up = {s % self.columns for s in up}
        return 1.0 + len({s % self.columns for s in slots} - columns_up)

    # ---------------------------------------------------------------- scoring

    def finished(self, g: Round, events: list[Event]) -> None:
        st: GolfState = g.ms[self.index]
        for p in range(g.players):
            hand = g.hands[p]
            for column in range(self.columns):
                slots = self.column_slots(column)
                if not all(g.slot_ok(p, s) for s in slots):
                    continue
                if len({g.rank[hand[s]] for s in slots}) != 1:
                    continue
                cards = [g.text[hand[s]] for s in slots]
                events.append(Event("column_cancelled", {"player": p, "slots": slots, "cards": cards}))
            st.up[p] = sum(1 << s for s in g.occupied(p))  # every card is turned up at the end


def golf_scores(variant: Variant, tally: Tally) -> list[int]:
    """Each player's Golf score: their cards' total, less every full column of one rank (``rules.deal.grid``: a
    column of a grid of ``rows`` x ``columns`` is the slots ``c``, ``c + columns``...). A column with an emptied
    slot, or one a layout does not reach (verify's made-up ends of rounds), is no full column."""
    grid = variant.rules.deal.grid
    assert grid is not None  # (the mechanic refuses a ruleset without one)
    rows, columns = grid
    scores = []
    for total, layout in zip(tally.totals, tally.layouts, strict=True):
        off = 0
        for column in range(columns):
            cards = [layout[s] if s < len(layout) else None for s in range(column, rows * columns, columns)]
            texts = [c for c in cards if c is not None]
            if len(texts) == rows and len({tamalou.parse_card(c).rank for c in texts}) == 1:
                off += sum(tamalou.card_value(variant, c) for c in texts)
        scores.append(total - off)
    return scores


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int]:
    """Golf's scores: the totals less the columns of one rank."""
    return golf_scores(variant, tally)


@tamalou.hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]]:
    """The round ranked by Golf's scores (lowest first; the ruleset's tie-breaks, none in Golf: ties share)."""
    return tamalou.rank_by_total(replace(tally, totals=tuple(golf_scores(variant, tally))), tiebreaks)


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Golf]
