"""``tamalou play``: a seeded game (a whole match for a ruleset of several rounds) between bots, printed as
the referee's log (``tamalou.cli.log``) and its result tables, or as one JSON document (``--json``); with the
helpers that set it up: the bots of each seat and round, the game or match made from the options.

``tamalou.cli.commands`` registers it on the application."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from ..bots import BotLike, make_bot, play_game
from ..engine.game import round_of
from ..engine.round import Round, new_round
from ..errors import SetupError, TamalouError, VariantError
from ..events import Event
from ..match import Match, MatchResult, new_match
from ..rulesets.effective import match_words
from ..schema import Variant
from ..simulation import bot_seed
from ..views import Result
from ._options import (
    RULE_FAILURE,
    BotsOption,
    OlderVariantOption,
    RulesetsArgument,
    bot_list,
    check_players,
    chosen_rulesets,
    console_out,
    echo_document,
    fail_command,
    load_ruleset,
)
from .human_seat import HUMAN
from .log import Narrator, cards, seat
from .result_tables import match_table, result_table


def bot_kinds(spec: str, players: int, people: bool = False) -> list[str]:
    kinds = bot_list(spec, people)
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        fail_command(f"--bots names one bot for every seat, or one for all: {players} players, {len(kinds)} bots")
    return kinds


def seat_bots(kinds: list[str], seed: int) -> list[BotLike]:
    """One bot per seat, each seeded from the game's seed and its seat (as ``simulate`` seeds them)."""
    return [make_bot(k, bot_seed(seed, seat)) for seat, k in enumerate(kinds)]


def round_bots(kinds: list[str], seed: int, round_index: int) -> list[BotLike]:
    """The bots of round ``round_index`` (0 for the first) of a match played with ``seed``."""
    return [make_bot(k, bot_seed(seed, seat, round_index)) for seat, k in enumerate(kinds)]


def start_game(variant: Variant, players: int, seed: int) -> Round:
    try:
        return new_round(variant, players=players, seed=seed)
    except (VariantError, SetupError) as exc:
        fail_command(str(exc))


def start_match(variant: Variant, players: int, seed: int) -> Match:
    try:
        return new_match(variant, players=players, seed=seed)
    except (VariantError, SetupError) as exc:
        fail_command(str(exc))


def is_match(v: Variant) -> bool:
    return v.rules.rounds.form != "single"


# ----------------------------------------------------------------------------- play


class RoundOrMatch:
    """Plays one round between bots, saying it line by line (``say`` is ``None``: silently)."""

    def __init__(self, game: Round, kinds: list[str], say: Callable[[str], None] | None) -> None:
        self.game, self.kinds, self.say = game, kinds, say
        self.narrator = Narrator(game)
        self.last_turn = -1  # the last turn event's ``turn``

    def event(self, event: Event) -> None:
        if event.type == "turn":
            self.last_turn = event["turn"]
        line = self.narrator.line(event)
        if line is not None and self.say is not None:
            self.say(line if event.type == "turn" else f"  {line}")

    def play(self, bots: list[BotLike]) -> Result:
        g, say = self.game, self.say
        if say is not None:
            for p in range(g.players):
                say(f"  {seat(p)} ({self.kinds[p]}): {cards(g.layout(p), g.variant.rules.deal.grid)}")
            top = g.discard_top
            say(f"  discard: {top if top is not None else 'empty'}, stock: {len(g.stock)} cards")
        for event in g.events_so_far():  # the deal, the opening and the first turn
            self.event(event)
        try:
            return play_game(g, bots, on_event=self.event)
        except TamalouError as exc:  # a plugin's hook failed during the game
            fail_command(str(exc), RULE_FAILURE)

    @property
    def turns(self) -> int:
        """Turns begun, as the log numbers them (the last ``-- turn N``)."""
        return self.last_turn + 1


def play_json(v: Variant, players: int, seed: int, kinds: list[str]) -> dict[str, Any]:
    """The whole game (or match) as one JSON document."""
    rounds: list[dict[str, Any]] = []

    def one(game: Round, bots: list[BotLike]) -> None:
        try:
            result = play_game(game, bots)
        except TamalouError as exc:
            fail_command(str(exc), RULE_FAILURE)
        rounds.append(
            {
                "seed": game.seed,
                "first_player": game.first_player,
                "events": [e.to_dict() for e in game.events_so_far()],
                "result": result.model_dump(mode="json"),
            }
        )

    match: MatchResult | None = None
    if is_match(v):
        m = start_match(v, players, seed)
        while not m.is_over:
            one(round_of(m.game), round_bots(kinds, seed, m.round))
            m.next_round()
        match = m.result()
    else:
        one(start_game(v, players, seed), seat_bots(kinds, seed))
    return {
        "variant": v.name,
        "players": players,
        "seed": seed,
        "bots": kinds,
        "rounds": rounds,
        "match": match.model_dump(mode="json") if match is not None else None,
    }


def play(
    rulesets: RulesetsArgument = None,
    variant: OlderVariantOption = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            metavar="N",
            help="Number of players (default: one a bot when --bots names several, else 4).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="N", help="Seed of the deal and of the bots.")] = 0,
    bots: BotsOption = "cautious",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the results.")] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar="FILE",
            help="Play on from the snapshot a person wrote by leaving with q (its rulesets, seats and seed).",
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            metavar="FILE",
            help="Where q writes the snapshot (default: tamalou-play-RULESET-SEED.json here, or the --resume file).",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the game as one JSON document: per round its seed, first player, every event (every "
            "card shown) and result; the match's result. An event's 'turn' counts the turns played before it "
            "(0 for the first), so the log's 'turn 1' is the event's turn 0.",
        ),
    ] = False,
) -> None:
    """Play a seeded game between bots, printing the referee's log (every card shown); or take a seat yourself.

    A ruleset of several rounds (rules.rounds) is played as a whole match, round by round. The log counts
    turns from 1. Without a ruleset: french.

    A seat named human is played by a person at the terminal: their view of the table and a numbered menu of
    their moves in words (several people: hot-seat, a screen hides the table between them). ? shows what the
    greedy bot would do and why; q leaves, writing a snapshot that --resume plays on from. Choices may come from
    a pipe, one a line.

    $ tamalou play french --players 3 --seed 7 --bots random
    $ tamalou play french gabo -p 2 -b greedy,cautious
    $ tamalou play tamalou-fun+jokers --quiet
    $ tamalou play our-table.toml --json > game.json
    $ tamalou play french --bots human,greedy,cautious
    $ tamalou play --resume tamalou-play-french-0.json
    """
    if resume is not None:
        if as_json:
            fail_command("--json plays bots only: a game with people cannot be printed as one document")
        from .human_play import resume_with_people

        resume_with_people(resume, save)
        return
    named = chosen_rulesets(rulesets, variant)
    v = load_ruleset(named)
    if players is None:
        listed = len(bots.split(","))
        players = listed if listed > 1 else 4
    check_players(v, players)
    kinds = bot_kinds(bots, players, people=True)
    if HUMAN in kinds:
        if as_json:
            fail_command("--json plays bots only: a game with people cannot be printed as one document")
        from .human_play import play_with_people

        play_with_people(v, named, players, seed, kinds, save)
        return
    if as_json:
        echo_document(json.dumps(play_json(v, players, seed, kinds), indent=1, ensure_ascii=False))
        return
    out = console_out()

    def say(line: str) -> None:
        out.print(line, soft_wrap=True)

    log = None if quiet else say
    title = v.title or v.name
    if not is_match(v):
        game = start_game(v, players, seed)
        if not quiet:
            say(f"{title}: {players} players, seed {seed}, bots {', '.join(kinds)}")
        rnd = RoundOrMatch(game, kinds, log)
        result = rnd.play(seat_bots(kinds, seed))
        out.print(result_table(result, game, kinds))
        winners = ", ".join(seat(p) for p in result.winners) or "nobody"
        caller = seat(result.caller) if result.caller is not None else "nobody"
        say(f"winners: {winners}; caller: {caller}; turns: {rnd.turns}; actions: {len(game.actions)}")
        return
    m = start_match(v, players, seed)
    say(f"{title}: {match_words(v)}; {players} players, seed {seed}, bots {', '.join(kinds)}")
    while not m.is_over:
        r, game = m.round, round_of(m.game)
        say(f"== round {r + 1}: {seat(game.first_player)} plays first")
        rnd = RoundOrMatch(game, kinds, log)
        result = rnd.play(round_bots(kinds, seed, r))
        if not quiet:
            out.print(result_table(result, game, kinds, title=f"Round {r + 1}"))
        m.next_round()
        totals = m.totals()
        scored = ", ".join(f"{seat(p)} {result.scores[p]}" for p in range(players))
        so_far = ", ".join(f"{seat(p)} {totals[p]}" for p in range(players))
        say(f"round {r + 1} ({result.reason}, {rnd.turns} turns): scores {scored}; totals {so_far}")
    match = m.result()
    out.print(match_table(match, kinds))
    winners = ", ".join(seat(p) for p in match.winners) or "nobody"
    say(f"match winners: {winners}; rounds: {len(match.rounds)}")
