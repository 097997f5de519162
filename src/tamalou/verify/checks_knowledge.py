"""The checks of who knows what: ``check_knowledge`` (the discard known to all, a held card to its
holder, every card at the end), ``check_step_knowledge`` and ``check_knowledge_events`` (a seat learns a
card only from an event that shows it to them, and knows every card an event shows them), and
``check_no_leak`` with ``exchange_faces`` (exchanging cards a seat does not know changes neither its view
nor its legal actions)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, action_to_dict
from ..engine import NO_CARD, Round
from ..engine.game import Game, round_of
from ..events import Event
from ..views import PlayerView
from .violation import ASK_AGAIN, card_text, check_rng, dealt_again, outside_state, value_diff, violation_of


def check_knowledge(game: Game | Round) -> None:
    """What everybody must know: the whole discard (it is face up), a card lying face up in a layout
    (``face_up``, which marks only cards in layouts), the held card by its holder, and at the end of the
    round every card of every layout.

    >>> from tamalou import new_game
    >>> check_knowledge(new_game("french", players=2, seed=3))
    """
    game = round_of(game)
    everyone = range(game.players)
    for c in game.discard:
        blind = [p for p in everyone if not game.knows(p, c)]
        if blind:
            raise violation_of(
                game, f"{card_text(game, c)} is face up on the discard but unknown to players {blind}", "knowledge"
            )
    if game.face_up:
        laid = {c for hand in game.hands for c in hand if c != NO_CARD}
        for c in range(len(game.cards)):
            if not game.face_up >> c & 1:
                continue
            if c not in laid:
                raise violation_of(game, f"{card_text(game, c)} is marked face up but lies in no layout", "knowledge")
            blind = [p for p in everyone if not game.knows(p, c)]
            if blind:
                raise violation_of(
                    game,
                    f"{card_text(game, c)} lies face up in a layout but is unknown to players {blind}",
                    "knowledge",
                )
    if game.held != NO_CARD and game.phase != "over" and not game.knows(game.holder, game.held):
        raise violation_of(
            game, f"player {game.holder} holds {card_text(game, game.held)} without knowing it", "knowledge"
        )
    if game.is_over:
        for hand in game.hands:
            for c in hand:
                blind = [p for p in everyone if c != NO_CARD and not game.knows(p, c)]
                if blind:
                    raise violation_of(
                        game, f"the round is over but {card_text(game, c)} is unknown to players {blind}", "knowledge"
                    )


def _texts(value: object, into: set[str]) -> None:
    """Every string in an event's field (cards are named by their text, alone or in lists)."""
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, list | tuple):
        for v in value:
            _texts(v, into)
    elif isinstance(value, dict):
        for v in value.values():
            _texts(v, into)


def check_step_knowledge(game: Game | Round, before: Sequence[int], events: Sequence[Event]) -> None:
    """One step of ``knowledge_events``: ``before`` is ``round_of(game).knowers`` (a copy) before the step,
    and ``events`` what the step returned. Who knows what must follow from what each seat was told:

    - a seat that now knows a card it did not know was shown that card by an event of the step: its
      text is in the public facts of an event, or in the secret facts of an event the seat sees (a
      card moved in sight keeps its knowers; the end of the round shows every layout to all);
    - a seat shown a card in secret by an event of the step knows it (or it was shown to all).

    A power that marks a card known by the wrong seat, or whose event shows it to the wrong seat,
    breaks one or the other. Cards are compared by their text (two cards of the same face count as
    one: the check is weaker with several decks, never wrong).

    >>> from tamalou import new_game, round_of
    >>> g = new_game("french", players=2, seed=1)
    >>> before = list(round_of(g).knowers)
    >>> check_step_knowledge(g, before, g.apply(g.legal_actions(g.current_player)[0]))
    """
    game = round_of(game)
    n = game.players
    public: set[str] = set()
    secret: list[set[str]] = [set() for _ in range(n)]
    for e in events:
        _texts(e.data, public)
        if e.secret:
            shown: set[str] = set()
            _texts(e.secret, shown)
            for p in range(n):
                if e.sees(p):
                    secret[p] |= shown
    after, text = game.knowers, game.text
    if len(before) != len(after):
        raise violation_of(
            game, f"the step changed the number of cards known from {len(before)} to {len(after)}", "knowledge_events"
        )
    over = game.is_over  # the end shows every layout (and a held card) to all: check_knowledge says so
    for c, (was, now) in enumerate(zip(before, after, strict=True)):
        gained = now & ~was
        if not gained or text[c] in public or over:
            continue
        for p in range(n):
            if gained >> p & 1 and text[c] not in secret[p]:
                raise violation_of(
                    game,
                    f"player {p} now knows {card_text(game, c)} but no event of the step showed it to them "
                    f"(events: {', '.join(e.type for e in events) or 'none'})",
                    "knowledge_events",
                )
    for p in range(n):
        unknown = secret[p] - public
        if not unknown:
            continue
        for c, t in enumerate(text):
            if t in unknown and after[c] >> p & 1:
                unknown.discard(t)
        if unknown:
            face = sorted(unknown)[0]
            kinds = ", ".join(e.type for e in events if e.secret and e.sees(p) and face in str(e.secret))
            raise violation_of(
                game,
                f"an event ({kinds}) showed player {p} the {face}, but they do not know any {face} after the step",
                "knowledge_events",
            )


def check_knowledge_events(game: Game | Round) -> None:
    """``knowledge_events`` over the whole round so far: the game is played again from its deal (it
    keeps no events), and ``check_step_knowledge`` checks every step, the deal's included.
    O(actions): a check for the end of a game or a test, not for every step (``tamalou verify``
    checks each step as it is played).

    >>> from tamalou.verify import random_playout
    >>> check_knowledge_events(random_playout("french", players=3, seed=2))
    """
    game = round_of(game)
    fresh = dealt_again(game)
    check_step_knowledge(fresh, [0] * len(fresh.knowers), fresh.start())
    for a in game.actions:
        before = list(fresh.knowers)
        check_step_knowledge(fresh, before, fresh.apply(a))


def exchange_faces(game: Game | Round, a: int, b: int) -> Round:
    """A copy of ``game`` where card ids ``a`` and ``b`` have exchanged faces (text, rank, value):
    every place and every player's knowledge stay as they are, only what the two cards *are*
    changes. The original game is untouched.

    >>> from tamalou.engine import new_round
    >>> g = new_round("french", players=2, seed=1)
    >>> exchange_faces(g, g.stock[-1], g.stock[0]).text[g.stock[-1]] == g.text[g.stock[0]]
    True
    """
    g = _own_faces(round_of(game))
    _exchange(g, ((a, b),))
    # A result cached by the copy is only there once the round is over, when every card in a
    # layout is known to all: an exchange of unknown cards cannot change it.
    return g


def _own_faces(game: Round) -> Round:
    """A copy of ``game`` with face tables of its own (a copy shares them with the original)."""
    g = game.copy()
    g.cards, g.text, g.rank, g.value = list(g.cards), list(g.text), list(g.rank), list(g.value)
    g.power_of = list(g.power_of)
    return g


def _unknown_pairs(game: Round, player: int, rng: random.Random, pairs: int) -> list[tuple[int, int]]:
    """Pairs of different-faced cards unknown to ``player``: first each of their own unknown cards
    with the unknown card elsewhere whose value differs most from it (what changes their hidden total
    most: a call or a rule decided on it shows up), then up to ``pairs`` random pairs, half of them
    with a card in play (a layout or held), where a leak would matter most; every pair if there are
    fewer."""
    text, value = game.text, game.value
    unknown = [c for c in range(len(game.cards)) if not game.knows(player, c)]
    if len(unknown) < 2:
        return []
    if len(unknown) * (len(unknown) - 1) // 2 <= pairs:
        return [(x, y) for i, x in enumerate(unknown) for y in unknown[i + 1 :] if text[x] != text[y]]
    own = set(game.hands[player]) if 0 <= player < len(game.hands) else set()
    elsewhere = [c for c in unknown if c not in own]
    out: list[tuple[int, int]] = []
    for c in (c for c in unknown if c in own):
        # The unknown card elsewhere whose value differs most: the hidden total moves as far as it can.
        others = [x for x in elsewhere if text[x] != text[c]]
        if others:
            out.append((c, max(others, key=lambda x: (abs(value[x] - value[c]), x))))
    in_play = set(c for hand in game.hands for c in hand if c != NO_CARD)
    if game.held != NO_CARD:
        in_play.add(game.held)
    hot = [c for c in unknown if c in in_play]
    for i in range(pairs):
        first = rng.choice(hot) if hot and i % 2 == 0 else rng.choice(unknown)
        others = [c for c in unknown if text[c] != text[first]]
        if others:
            out.append((first, rng.choice(others)))
    return out


def _exchange(g: Round, pairs: Sequence[tuple[int, int]]) -> None:
    """Exchange the faces of each pair of card ids of ``g`` in place (disjoint pairs: done twice, undone). ``g``
    must have face tables of its own (``_own_faces``)."""
    for a, b in pairs:
        g.cards[a], g.cards[b] = g.cards[b], g.cards[a]
        g.text[a], g.text[b] = g.text[b], g.text[a]
        g.rank[a], g.rank[b] = g.rank[b], g.rank[a]
        g.value[a], g.value[b] = g.value[b], g.value[a]
        g.power_of[a], g.power_of[b] = g.power_of[b], g.power_of[a]


def _extremes(game: Round, player: int) -> list[list[tuple[int, int]]]:
    """Two exchanges of several cards at once: ``player``'s unknown cards given the lowest, then the
    highest, faces among the cards they do not know (their hidden total at its least and at its most).
    Any arrangement of the faces of unknown cards is as indistinguishable as one exchange: a rule that
    decides on the hidden total (a call allowed only when it is low) shows up even far from its edge."""
    if not 0 <= player < len(game.hands):
        return []
    value, text = game.value, game.text
    own = [c for c in game.hands[player] if c != NO_CARD and not game.knows(player, c)]
    owned = set(own)
    elsewhere = [c for c in range(len(game.cards)) if c not in owned and not game.knows(player, c)]
    if not own or not elsewhere:
        return []
    k = len(own)
    lows = sorted(elsewhere, key=lambda c: (value[c], c))[:k]
    highs = sorted(elsewhere, key=lambda c: (-value[c], c))[:k]
    high_first, low_first = sorted(own, key=lambda c: (-value[c], c)), sorted(own, key=lambda c: (value[c], c))
    down = [(c, x) for c, x in zip(high_first, lows, strict=False) if value[x] < value[c]]
    up = [(c, x) for c, x in zip(low_first, highs, strict=False) if value[x] > value[c]]
    return [[(c, x) for c, x in pairs if text[c] != text[x]] for pairs in (down, up) if pairs]


def check_no_leak(game: Game | Round, player: int, rng: random.Random | None = None, *, pairs: int = 12) -> None:
    """What ``player`` sees and may do depends only on what they know: exchanging the faces of two
    cards unknown to them leaves ``view(player)`` and ``legal_actions(player)`` (order included)
    unchanged. Tried: their unknown cards given the lowest faces they do not know, then the highest,
    all at once (a call, or any rule, decided on their hidden total changes the listing); each of
    their own unknown cards with the unknown card elsewhere whose value differs most; then ``pairs``
    random pairs drawn with ``rng`` (default: seeded from the game); every pair if there are fewer.

    >>> from tamalou import new_game
    >>> check_no_leak(new_game("french", players=4, seed=2), 0)
    """
    game = round_of(game)
    rng = rng if rng is not None else check_rng(game, "no_leak")
    base_view = game.view(player)
    base_actions = game.legal_actions(player)
    tries = [ex for ex in _extremes(game, player) if ex] + [[pair] for pair in _unknown_pairs(game, player, rng, pairs)]
    if not tries:
        return
    # One copy for every exchange tried, each made on it and undone after: a round copy per exchange was a third
    # of what verify spent (benchmarks/verify_games.py). ``game`` itself is never touched.
    swapped = _own_faces(game)
    public: set[int] | None = None  # the cards once seen by every seat (found when first needed: a replay)
    for exchange in tries:
        problem = _exchanged(swapped, game, player, exchange, base_view, base_actions)
        if problem is None:
            continue
        _same_when_asked_again(swapped, player, base_view, base_actions)  # else no exchange is to blame
        # A card every seat saw (thrown, turned up) and that then went back out of sight (reshuffled into the stock)
        # keeps its face in every seat's memory: what a mechanic keeps of it by card (how often it was thrown) is
        # public. An exchange of its face is no world a seat could be in; only the other pairs are tried.
        public = _once_public(game) if public is None else public
        kept = [(a, b) for a, b in exchange if a not in public and b not in public]
        if len(kept) < len(exchange):
            problem = _exchanged(swapped, game, player, kept, base_view, base_actions) if kept else None
        if problem is not None:
            raise violation_of(game, problem, "no_leak")


def _exchanged(
    swapped: Round,
    game: Round,
    player: int,
    exchange: Sequence[tuple[int, int]],
    base_view: PlayerView,
    base_actions: list[Action],
) -> str | None:
    """What changes for ``player`` when the faces of ``exchange`` are exchanged on ``swapped`` (a copy of ``game``
    with face tables of its own, left as it was), or ``None``."""
    _exchange(swapped, exchange)
    try:
        cards = ", ".join(f"{card_text(game, a)} and {card_text(game, b)}" for a, b in exchange)
        what = f"{cards}, {'both' if len(exchange) == 1 else 'all'} unknown to player {player}"
        view = swapped.view(player)
        if view != base_view:
            before, after = base_view.model_dump(mode="json"), view.model_dump(mode="json")
            return f"leak: exchanging {what}, changes their view: {value_diff(before, after, 'view')}"
        actions = swapped.legal_actions(player)
        if actions != base_actions:
            listed = [action_to_dict(x) for x in base_actions]
            return (
                f"leak: exchanging {what}, changes their legal actions: "
                f"{value_diff(listed, [action_to_dict(x) for x in actions], 'legal_actions')}"
            )
        return None
    finally:
        _exchange(swapped, exchange)  # undone


def _same_when_asked_again(game: Round, player: int, view: PlayerView, actions: list[Action]) -> None:
    """``view`` and ``actions`` are what ``player``'s view and listing are when asked again of ``game`` (nothing
    exchanged, ``ASK_AGAIN`` times); else the cause of a change is no leak but state kept outside the round."""
    for _ in range(ASK_AGAIN):
        again = game.view(player)
        if again != view:
            diff = value_diff(view.model_dump(mode="json"), again.model_dump(mode="json"), "view")
            raise outside_state(game, f"player {player}'s view", diff, "no_leak")
        listed = game.legal_actions(player)
        if listed != actions:
            diff = value_diff(
                [action_to_dict(x) for x in actions], [action_to_dict(x) for x in listed], "legal_actions"
            )
            raise outside_state(game, f"player {player}'s legal actions", diff, "no_leak")


def _once_public(game: Round) -> set[int]:
    """The cards every seat knew at once at some moment of the round so far (the round played again from its deal);
    none if it cannot be played again."""
    seen: set[int] = set()
    try:
        fresh = dealt_again(game)
        fresh.start()
        everyone = fresh.all_mask
        seen.update(c for c, k in enumerate(fresh.knowers) if k == everyone)
        for a in game.actions:
            fresh.apply(a)
            seen.update(c for c, k in enumerate(fresh.knowers) if k == everyone)
    except Exception:  # a round that does not play again: every exchange stands (``replay`` reports that)
        return set()
    return seen
