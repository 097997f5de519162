"""The pictures of the documentation, drawn from the code (``scripts/gen_reference.py`` writes them into the
pages): each is a Mermaid diagram made by playing a seeded game with the library's public API, so a change of
the engine that changes what a picture shows changes the picture, and ``gen_reference.py --check`` (a test of
the fast tier) fails until the page is regenerated.

- ``table``: the table as one seat sees it (``game.view(p)``): every seat's slots, the stock, the discard;
- ``server_sequence``: the messages of a server between two clients and the game (``game.apply``,
  ``event.for_player(p).to_dict()``, a refusal);
- ``reaction_turns``: who the PettingZoo environment asks, turn and react turns, in a seeded round;
- ``action_blocks``: the blocks of action ids of ``tamalou.ai.ActionSpace`` (and ``action_table``, the same as a
  table).

Mermaid's text is escaped where it must be (``"`` in a label, ``;`` and ``#`` in a sequence message).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import tamalou
from tamalou.bots import make_bot

# ------------------------------------------------------------------------------------------- helpers


def _label(text: str) -> str:
    """``text`` inside a Mermaid node's ``["..."]``: quotes as entities."""
    return text.replace('"', "#quot;")


def _message(text: str) -> str:
    """``text`` as a sequence diagram's message (after its ``:``): ``;`` and ``#`` as entities."""
    return text.replace("#", "#35;").replace(";", "#59;")


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "))


def _greedy_seats(players: int, seed: int) -> list[Callable[..., Any]]:
    return [make_bot("greedy", seed=seed + p).act for p in range(players)]


def _bot_step(game: tamalou.Game, acts: Sequence[Callable[..., Any]]) -> tamalou.Action:
    """The next action of a round played by bots, as ``play_game`` asks them: the seats after the one to move
    may match first (in seat order), then the seat that must act acts."""
    mover = game.to_act[0] if game.to_act else game.current_player
    for i in range(1, game.players):
        p = (mover + i) % game.players
        listed = game.legal_actions(p)
        if listed:
            choice = acts[p](game.seat_view(p), listed)
            if choice is not None:
                return choice  # type: ignore[no-any-return]
    choice = acts[mover](game.seat_view(mover), game.legal_actions(mover))
    assert choice is not None, "a seat that must act returned no action"
    return choice  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------------- the table

TABLE = {"variant": "french", "players": 3, "seed": 10, "seat": 0}


def table_moment(variant: str, players: int, seed: int, seat: int) -> tamalou.Game:
    """A seeded round of greedy bots, stopped at the first moment ``seat`` is to move and knows a card of
    another seat's (a power showed it): the moment the picture of the table draws."""
    game = tamalou.new_game(variant, players=players, seed=seed)
    acts = _greedy_seats(players, seed)
    while not game.is_over:
        view = game.view(seat)
        knows_other = any(s.card for q, hand in enumerate(view.hands) if q != seat for s in hand)
        if knows_other and game.current_player == seat and game.phase == "draw":
            return game
        game.apply(_bot_step(game, acts))
    raise AssertionError(f"{variant} seed {seed}: seat {seat} never knew another seat's card")


def table(variant: str = TABLE["variant"], players: int = TABLE["players"], seed: int = TABLE["seed"],
          seat: int = TABLE["seat"]) -> str:  # fmt: skip
    """The table as ``seat`` sees it (``game.view(seat)``), as a Mermaid flowchart: a box per seat with its
    slots (a card the seat knows, ``?`` for one it does not, face-up cards marked), the stock and the discard."""
    game = table_moment(str(variant), int(players), int(seed), int(seat))
    view = game.view(int(seat))
    lines = ["flowchart TB"]
    order = [q for q in range(view.players) if q != seat] + [int(seat)]
    for q in order:
        who = f"P{q}: this seat, to move" if q == seat else f"P{q}"
        lines.append(f'    subgraph P{q}["{_label(who)}"]')
        for s in view.hands[q]:
            if s.card is None and not s.face_up:
                lines.append(f'        P{q}s{s.slot}["slot {s.slot}<br/>?"]:::unknown')
            else:
                up = " (face up)" if s.face_up else ""
                lines.append(f'        P{q}s{s.slot}["slot {s.slot}<br/>{_label(s.card or "?")}{up}"]:::known')
        lines.append("    end")
    lines.append('    subgraph middle["the middle of the table"]')
    lines.append(f'        stock[("stock<br/>{view.stock_size} cards, face down")]:::unknown')
    top = _label(str(view.discard_top))
    lines.append(f'        discard["discard<br/>{top} on top, {len(view.discard)} cards"]:::known')
    lines.append("    end")
    # The boxes one under the other: an invisible link from a slot of each to one of the next (a link between
    # the boxes themselves would set their slots one under the other too).
    first = {q: f"P{q}s{view.hands[q][0].slot}" if view.hands[q] else None for q in order}
    chain = [first[q] for q in order[:-1]] + ["stock", first[int(seat)]]
    lines.append("    " + " ~~~ ".join(c for c in chain if c))
    lines.append("    classDef known fill:#e8f5e9,stroke:#2e7d32,color:#1b5e20")
    lines.append("    classDef unknown fill:#eeeeee,stroke:#9e9e9e,color:#424242")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------- a server's messages

SERVER = {"variant": "french", "players": 2, "seed": 3, "actions": 3}


def server_sequence(variant: str = SERVER["variant"], players: int = SERVER["players"],
                    seed: int = SERVER["seed"], actions: int = SERVER["actions"]) -> str:  # fmt: skip
    """A server between its clients and the game, as a Mermaid sequence diagram: the game made, each seat sent
    its view, then ``actions`` actions of greedy bots (the client's JSON, ``game.apply``, each seat's
    ``event.for_player(seat).to_dict()``), and an action of a seat out of its turn, refused."""
    variant, players, seed, actions = str(variant), int(players), int(seed), int(actions)
    game = tamalou.new_game(variant, players=players, seed=seed)
    acts = _greedy_seats(players, seed)
    lines = ["sequenceDiagram"]
    for p in range(players):
        if p == players // 2:
            lines += ["    participant S as your server", "    participant G as tamalou Game"]
        lines.append(f"    participant C{p} as seat {p}'s client")
    lines.append(f"    S->>G: new_game({variant!r}, players={players}, seed={seed})")
    for p in range(players):
        view = game.view(p)
        own = [s.card or "?" for s in view.hands[p]]
        lines.append(_message(f"    S->>C{p}: game.view({p}): own slots {' '.join(own)}, discard {view.discard_top}"))
    for _ in range(actions):
        action = _bot_step(game, acts)
        lines.append(_message(f"    C{action.player}->>S: {_compact(action.to_dict())}"))
        lines.append("    S->>G: game.apply(action), player checked against the socket's seat")
        events = game.apply(action)
        lines.append(_message(f"    G-->>S: events: {', '.join(e.type for e in events)}"))
        for p in range(players):
            seen = [e.for_player(p).to_dict() for e in events]
            text = "; ".join(_compact(d) for d in seen)
            lines.append(_message(f"    S->>C{p}: {text}"))
    waiting = next(p for p in range(players) if p not in game.to_act)
    wrong = {"type": "draw", "player": waiting, "source": "stock"}
    lines.append(_message(f"    C{waiting}->>S: {_compact(wrong)}"))
    lines.append("    S->>G: game.apply(action)")
    try:
        game.apply(wrong)
    except tamalou.IllegalAction as exc:
        lines.append(_message(f"    G-->>S: IllegalAction: {exc}"))
    else:  # pragma: no cover - the picture shows a refusal
        raise AssertionError(f"{wrong} was accepted")
    lines.append(_message(f"    S->>C{waiting}: the refusal, to this socket only (the game is unchanged)"))
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------- PettingZoo's turns

TURNS = {"variant": "french", "players": 3, "seed": 2, "after": 3}


def reaction_turns(variant: str = TURNS["variant"], players: int = TURNS["players"], seed: int = TURNS["seed"],
                   after: int = TURNS["after"]) -> str:  # fmt: skip
    """Who ``tamalou.ai.pettingzoo.env`` asks, as a Mermaid sequence diagram: greedy bots play its agents
    (``NOOP`` where a bot lets a match go) from the deal until ``after`` steps past the first match made in a
    react turn. Each step is a turn (a seat of ``game.to_act``, asked for one of its listed actions) or a react
    turn (shaded: ``NOOP`` legal). Drawn: the first seat's whole turn, then the turn of that first match."""
    from tamalou.ai.pettingzoo import env

    variant, players, seed, after = str(variant), int(players), int(seed), int(after)
    table_ = env(variant, players=players)
    table_.reset(seed=seed)
    raw = table_.unwrapped
    acts = _greedy_seats(players, seed)
    steps: list[tuple[int, bool, str]] = []  # (seat, react turn, what it answered)
    starts: list[int] = []  # the steps that begin a seat's turn (its draw)
    matched: int | None = None
    for agent in table_.agent_iter():
        _, _, terminated, truncated, _ = table_.last()
        if terminated or truncated or (matched is not None and len(steps) > matched + after):
            break
        p = raw.possible_agents.index(agent)
        game = raw.game
        react = bool(table_.observe(agent)["action_mask"][-1])
        if not react and game.phase == "draw":
            starts.append(len(steps))
        choice = acts[p](game.seat_view(p), [a for a in game.legal_actions(p) if raw.space.encodable(a)])
        i = raw.noop if choice is None else raw.space.id(choice)
        if react and choice is not None and matched is None:
            matched = len(steps)
        steps.append((p, react, "NOOP" if choice is None else f"{i} = {raw.space.describe(i)}"))
        table_.step(i)
    if matched is None:
        raise AssertionError(f"{variant} seed {seed}: no match was made in a react turn")
    first_turn = range(starts[0], starts[1])
    last_turn = range(max(s for s in starts if s <= matched), len(steps))
    everyone = f"E,P{players - 1}"
    lines = ["sequenceDiagram", "    participant E as env (the round)"]
    lines += [f"    participant P{p} as player_{p}" for p in range(players)]

    def draw(shown: range) -> None:
        shaded = False
        for n in shown:
            p, react, said = steps[n]
            if react != shaded:
                lines.append("    rect rgb(255, 243, 224)" if react else "    end")
                shaded = react
            ask = "react turn: a match, or NOOP" if react else "turn: one of its listed actions"
            lines.append(f"    E->>P{p}: {ask}")
            lines.append(_message(f"    P{p}->>E: {said}"))
            if n == matched:
                lines.append(f"    Note over {everyone}: a match made in a react turn: react turns again")
        if shaded:
            lines.append("    end")

    draw(first_turn)
    lines.append(f"    Note over {everyone}: ... {last_turn.start - first_turn.stop} steps later ...")
    draw(last_turn)
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------------- action ids

BLOCKS = {"variant": "french", "players": 3}


def _size(size: int, fields_: Sequence[str]) -> str:
    """``"2 ids: source"``: a block's size, and its fields multiplied (mixed radix)."""
    count = f"{size} id" + ("s" if size > 1 else "")
    return f"{count}: " + " × ".join(f.split(":")[0] for f in fields_) if fields_ else count


def action_blocks(variant: str = BLOCKS["variant"], players: int = BLOCKS["players"]) -> str:
    """The blocks of ``ActionSpace.of(variant, players)``, in id order, as a Mermaid flowchart."""
    from tamalou.ai import ActionSpace

    space = ActionSpace.of(str(variant), int(players))
    lines = ["flowchart LR"]
    names = []
    for n, (kind, first, size, fields_) in enumerate(space.blocks()):
        last = first + size - 1
        ids = f"{first}" if first == last else f"{first} – {last}"
        lines.append(f'    b{n}["{kind}<br/>{ids}<br/>{_label(_size(size, fields_))}"]')
        names.append(f"b{n}")
    lines.append("    " + " --> ".join(names))
    return "\n".join(lines) + "\n"


def _counted(field: str) -> str:
    """A field as ``ActionSpace.blocks`` says it, its count of values in brackets unless the text says it."""
    text, _, count = field.rpartition(" — ")
    n = count.split()[0]
    return text if f"({n} " in text else f"{text} ({n})"


def action_table(variant: str = BLOCKS["variant"], players: int = BLOCKS["players"]) -> str:
    """The blocks of ``ActionSpace.of(variant, players)`` as a Markdown table: ids, action type, fields."""
    from tamalou.ai import ActionSpace

    space = ActionSpace.of(str(variant), int(players))
    rows = ["| ids | type | fields |", "|---|---|---|"]
    for kind, first, size, fields_ in space.blocks():
        last = first + size - 1
        ids = f"{first}" if first == last else f"{first} – {last}"
        text = " × ".join(_counted(f) for f in fields_)
        rows.append(f"| {ids} | {kind} | {text} |")
    return "\n".join(rows) + "\n"


# ------------------------------------------------------------------------------------------- the layers

#: What each layer of ``[tool.importlinter]`` holds, by its first module (a layer this does not know stops the
#: script: a new layer is described when it is added).
LAYERS = {
    "cli": "the tamalou command",
    "ai": "machine learning (extras) · many games, tournaments · hypothesis strategies, properties",
    "bots": "bots, ISMCTS · invariants, verify, shrinking, counterexamples · the built-in plugins",
    "mechanics": "the built-in mechanics · finding, composing, validating rulesets · matches · bots at a table",
    "_match_texts": "what a match snapshot keeps between saves (package-internal)",
    "engine": "the round: its state, card moves, flow, rulebook, phase table, deal, clock, views, snapshots",
    "plugin_managers": "the plugin managers: the built-in plugins and the entry points",
    "hookspecs": "the hooks a plugin implements",
    "mechanic": "the base class of mechanics, the phase table's rows",
    "powers": "the base class of powers, the bots' contract",
    "round_table": "the table a mechanic sees: its contract",
    "actions": "the actions and their JSON",
    "action_words": "the words of actions",
    "views": "what a seat sees, a result",
    "display": "the table drawn as text · how the engine reaches the ruleset loader",
    "schema": "what a ruleset is: the variant file's keys",
    "cards": "cards and decks",
    "_compiling": "package-internal helpers · errors, events, the generator, the snapshot's shape, the version",
}


def layers(pyproject: str) -> str:
    """The layers of the package, as import-linter checks them (``[tool.importlinter]``'s layers contract in the
    text of ``pyproject.toml``), as a Mermaid flowchart: each layer imports only those below it; ``|`` separates
    modules that do not import each other, ``:`` modules that may."""
    import tomllib

    config = tomllib.loads(pyproject)["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    lines = ["flowchart TB"]
    for n, layer in enumerate(contract["layers"]):
        modules = re.sub(r"\btamalou\.", "", layer)
        first = re.split(r"\s*[|:]\s*", modules)[0]
        if first not in LAYERS:
            raise SystemExit(f"the layer {modules!r} has no description in doc_pictures.LAYERS")
        lines.append(f'    L{n}["<b>{_label(modules)}</b><br/>{_label(LAYERS[first])}"]')
    lines.append("    " + " --> ".join(f"L{n}" for n in range(len(contract["layers"]))))
    return "\n".join(lines) + "\n"
