"""``tamalou play`` with people at the table (``--bots human,...``) and ``--resume``: a round, or a whole match
round by round, played through ``human_seat.HumanTable``; ``q`` writes a snapshot and ``--resume`` plays on
from it (the bots start again from what their seats see: a bot's memory is its view)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..bots import BotLike, make_bot
from ..engine.game import Game, round_of
from ..engine.round import Round, new_round
from ..errors import SetupError, SnapshotError, TamalouError, VariantError
from ..match import Match, new_match
from ..schema import Variant
from ..simulation import bot_seed
from ._options import RULE_FAILURE, console_out, fail_command, load_ruleset
from .human_seat import HUMAN, HumanTable, Keyboard, read_snapshot, write_snapshot
from .log import seat
from .result_tables import match_table, result_table


def _seats(kinds: Sequence[str], seed: int, round_index: int | None) -> list[BotLike | None]:
    """The bots of a round (``None`` at a person's seat), seeded as ``tamalou play`` seeds them."""
    return [
        None
        if k == HUMAN
        else make_bot(k, bot_seed(seed, p) if round_index is None else bot_seed(seed, p, round_index))
        for p, k in enumerate(kinds)
    ]


def _default_save(named: Sequence[str], seed: int) -> Path:
    stem = "+".join(Path(n).stem if n.endswith(".toml") else n for n in named)
    return Path(f"tamalou-play-{stem}-{seed}.json")


def play_with_people(
    v: Variant, named: Sequence[str], players: int, seed: int, kinds: list[str], save: Path | None
) -> None:
    """A new game (or match) of ``v`` with people at the ``human`` seats."""
    try:
        if v.rules.rounds.form != "single":
            _play_match(new_match(v, players=players, seed=seed), named, seed, kinds, save)
        else:
            _play_round(new_round(v, players=players, seed=seed), named, seed, kinds, save)
    except (VariantError, SetupError) as exc:
        fail_command(str(exc))


def resume_with_people(path: Path, save: Path | None) -> None:
    """Play on from the snapshot at ``path`` (written by ``q``); ``q`` again writes it to ``save`` or ``path``."""
    try:
        document = read_snapshot(path)
    except ValueError as exc:
        fail_command(str(exc))
    named, kinds, seed = document["rulesets"], document["bots"], document["seed"]
    v = load_ruleset(named)
    try:
        if "match" in document:
            match = Match.from_json(document["match"], v)
            if len(kinds) != match.players:
                raise SnapshotError(f"{len(kinds)} seats named for a match of {match.players} players")
            _play_match(match, named, seed, kinds, save or path)
        else:
            game = round_of(Game.from_json(document["game"], v))
            if len(kinds) != game.players:
                raise SnapshotError(f"{len(kinds)} seats named for a game of {game.players} players")
            _play_round(game, named, seed, kinds, save or path)
    except SnapshotError as exc:
        fail_command(f"{path}: {exc}")


def _table(kinds: Sequence[str]) -> HumanTable:
    return HumanTable(kinds, console_out(), Keyboard())


def _left(path: Path) -> None:
    console_out().print(
        f"you left the table: the game is saved in {path}; play on with: tamalou play --resume {path}", soft_wrap=True
    )


def _play_round(game: Round, named: Sequence[str], seed: int, kinds: list[str], save: Path | None) -> None:
    out = console_out()
    title = game.variant.title or game.variant.name
    seats = ", ".join(f"{seat(p)} {k}" for p, k in enumerate(kinds))
    out.print(f"{title}: {game.players} players, seed {seed}; {seats}", soft_wrap=True)
    table = _table(kinds)
    try:
        result = table.play(game, _seats(kinds, seed, None))
    except TamalouError as exc:  # a plugin's hook failed during the game
        fail_command(str(exc), RULE_FAILURE)
    if result is None:  # the person left
        path = save or _default_save(named, seed)
        write_snapshot(path, named, kinds, seed, {"game": game.to_json()})
        _left(path)
        return
    out.print(result_table(result, game, kinds))
    winners = ", ".join(seat(p) for p in result.winners) or "nobody"
    out.print(f"winners: {winners}; turns: {game.turn}; actions: {len(game.actions)}")


def _play_match(match: Match, named: Sequence[str], seed: int, kinds: list[str], save: Path | None) -> None:
    out = console_out()
    v = match.variant
    out.print(f"{v.title or v.name}: {match.players} players, seed {seed}; {', '.join(kinds)}", soft_wrap=True)
    table = _table(kinds)
    while not match.is_over:
        r, game = match.round, round_of(match.game)
        if not game.is_over:
            out.print(f"== round {r + 1}: {seat(game.first_player)} plays first")
            try:
                played = table.play(game, _seats(kinds, seed, r))
            except TamalouError as exc:
                fail_command(str(exc), RULE_FAILURE)
            if played is None:  # the person left
                path = save or _default_save(named, seed)
                write_snapshot(path, named, kinds, seed, {"match": match.to_json()})
                _left(path)
                return
            out.print(result_table(played, game, kinds, title=f"Round {r + 1}"))
        match.next_round()
    result = match.result()
    out.print(match_table(result, kinds))
    out.print(f"match winners: {', '.join(seat(p) for p in result.winners) or 'nobody'}; rounds: {len(result.rounds)}")
