"""What a user of python-chess, OpenSpiel or pytest expects of a game library, tried the way a new user tries it:
copies (``copy.deepcopy``) of games and rulesets, the legal actions of the player to move without naming them,
games that compare equal, a table drawn with a legend of its marks, a timed action stamped in ``apply``, a refusal
past a deadline that says time ran out, a composition of two rulesets refused in words, and ``simulate`` or
``verify`` called from a script without ``if __name__ == "__main__":`` (played in one process, no traceback) or
killed (no worker left behind)."""

from __future__ import annotations

import copy
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import tamalou
from tamalou import Draw, IllegalAction, Tick, VariantError
from tamalou.engine import new_round

FRENCH_DEAL = {"hands": [["5S", "6S", "7S", "8S"], ["5H", "6H", "7H", "8H"]], "stock": ["2C", "3C", "4C"]}


def test_deepcopy_of_a_game_and_of_a_ruleset() -> None:
    game = tamalou.new_game("french", players=3, seed=4)
    twin = copy.deepcopy(game)
    assert twin is not game and twin == game
    twin.apply(twin.legal_actions()[0])
    assert twin != game and game.actions == []  # independent
    variant = game.variant
    assert copy.deepcopy(variant) == variant


def test_legal_actions_without_a_seat_are_those_of_the_player_to_move() -> None:
    game = tamalou.new_game("french", players=3, seed=4)
    assert game.legal_actions() == game.legal_actions(game.current_player)
    game.apply(game.legal_actions()[0])
    assert game.legal_actions() == game.legal_actions(game.current_player)
    with pytest.raises(IllegalAction, match="no player 7"):
        game.legal_actions(7)


def test_games_are_equal_when_they_are_the_same_game_in_the_same_state() -> None:
    a = tamalou.new_game("french", players=2, seed=9)
    b = tamalou.new_game("french", players=2, seed=9)
    assert a == b and a == a.copy() and tamalou.Game.from_json(a.to_json()) == a
    assert a != tamalou.new_game("french", players=2, seed=10)  # another deal
    assert a != tamalou.new_game("french", players=3, seed=9)
    b.apply(b.legal_actions()[0])
    assert a != b
    a.apply(b.actions[0])
    assert a == b
    assert a != "a game" and (a == object()) is False
    with pytest.raises(TypeError):
        hash(a)  # a game changes: no hash, as a list


def test_the_referee_s_table_and_a_seat_s_say_what_their_marks_mean() -> None:
    g = new_round("french", players=2, deal=FRENCH_DEAL, first_player=0)
    lines = repr(g).splitlines()
    assert lines[1] == "  P0: [ 5S] [ 6S] [7S*] [8S*]"  # French: each player has seen their two nearest cards
    assert lines[-1] == "  * a card its owner has not seen"
    g.turn_up(1, 3, [])
    assert repr(g).splitlines()[2] == "  P1: [ 5H] [ 6H] [7H*] [8H^]"
    assert repr(g).splitlines()[-1] == "  * a card its owner has not seen · ^ face up"
    seat = repr(g.view(0)).splitlines()
    assert seat[2] == "  P1: [ ??] [ ??] [ ??] [8H^]"
    assert seat[-1] == "  ?? a card this seat has not seen · ^ face up"
    grid = tamalou.variant_from_toml('name = "g"\nextends = "french"\n[rules.deal]\ngrid = [2, 2]\n')
    h = new_round(grid, players=2, deal=FRENCH_DEAL, first_player=0)
    h.throw_from(0, 1)  # an emptied slot (as a match empties one)
    text = repr(h)
    assert "[  ·]" in text and text.splitlines()[-1].endswith("· an empty slot")


def test_a_timed_action_is_stamped_in_apply_and_a_late_one_is_told_it_is_late() -> None:
    """tamalou-fun: ``apply(action, at=t)`` is the action stamped with ``t``. Player 0's draw stamped after their
    turn's deadline is refused as too late, though player 0 is still the player to move until then."""
    game = tamalou.new_game("tamalou-fun", players=2, seed=1, first_player=0)
    game.apply(Tick(game.deadline))
    assert game.phase == "draw" and game.current_player == 0
    due = game.deadline
    assert due is not None
    with pytest.raises(IllegalAction, match=rf"too late: time ran out at {due:g} s, before this action's"):
        game.apply(Draw(0, "stock"), at=due + 0.5)
    assert game.current_player == 0 and game.now < due  # nothing changed
    events = game.apply(Draw(0, "stock"), at=due - 1)
    assert events[0].type == "drew" and game.actions[-1].at == due - 1 and game.now == due - 1
    with pytest.raises(IllegalAction, match="'at' is a time in seconds"):
        game.apply(tamalou.Discard(0), at="soon")  # type: ignore[call-overload]


def test_a_composition_of_two_rulesets_of_their_own_that_does_not_fit_says_so_first() -> None:
    """French then Cabo: Cabo's keys replace French's, French's other keys stay (its powers of J and Q, its red
    kings) and do not fit Cabo's deck of numbers. The first line says that two rulesets of their own were composed;
    the problems follow, each naming the file of its key. (A composition of a ruleset and modifiers is the usual
    one; two whole rulesets that fit are composed as before: tests/api/test_variant.py.)"""
    with pytest.raises(VariantError) as caught:
        tamalou.load_variant(["french", "cabo"])
    lines = str(caught.value).splitlines()
    assert lines[0].startswith("french + cabo composes 2 rulesets of their own (french, cabo)")
    assert "as ['french', 'gabo']" in lines[0]
    assert lines[1] == (
        "french.toml: rules.powers.ranks.J: rank 'J' is not in the deck (expected one of 0 1 2 3 4 5 6 7 8 9 10 11 "
        "12 13 JK)"
    )
    assert caught.value.errors[1].key == "rules.powers.ranks.J"
    assert tamalou.load_variant(["french", "gabo"]).name == "french+gabo"


SCRIPT = """
import tamalou
from tamalou.verify import verify
report = tamalou.simulate("french", ["random"], games=6, workers=2)
print("simulate", report.run.workers, [note[:60] for note in report.run.notes])
found = verify("french", games=3, workers=2, determinism=False)
print("verify", found.ok, [note[:58] for note in found.notes])
"""


def test_a_script_without_the_main_guard_plays_in_one_process_and_says_so(tmp_path: Path) -> None:
    """At the top level of a script, the games are played in the script's process (the note says why and what to
    do); under ``if __name__ == "__main__":``, on the workers asked for."""
    script = tmp_path / "unguarded.py"
    script.write_text(SCRIPT, encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "bootstrapping" not in run.stderr
    assert run.stdout.splitlines() == [
        "simulate 1 ['played in this process: simulate was called at the top level']",
        "verify True ['played in this process: verify was called at the top level']",
    ]
    guarded = tmp_path / "guarded.py"
    body = textwrap.indent(SCRIPT.replace("import tamalou\n", "", 1), "    ")
    guarded.write_text(f'import tamalou\nif __name__ == "__main__":\n{body}', encoding="utf-8")
    run = subprocess.run([sys.executable, str(guarded)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["simulate 2 []", "verify True []"]


@pytest.mark.timing
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_killing_tamalou_simulate_stops_its_workers(tmp_path: Path) -> None:
    """``kill PID`` (SIGTERM) of ``tamalou simulate`` ends the command and every worker it started."""
    script = Path(sys.executable).with_name("tamalou")
    if not script.exists():
        pytest.skip("the tamalou command is not installed beside this Python (the cli extra)")
    command = [str(script), "simulate", "french", "-n", "200000", "-w", "2"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        workers: list[int] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the workers did not start"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 128 + signal.SIGTERM, err
        assert "stopped by SIGTERM" in err and "Traceback" not in err
        time.sleep(0.5)
        assert not [pid for pid in workers if _alive(pid)], "a worker outlived the command"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc, Linux), but the resource tracker's."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"resource_tracker" not in cmdline:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_an_event_reads_as_a_log_line_without_python_reprs() -> None:
    """``describe()`` writes lists as words (slots 0, 1; cards 4D 10C), hidden cards as how many they are, and the
    deal's cards once when every layout has as many."""
    g = tamalou.new_game("cartalogue", players=2, seed=1)
    dealt = g.events_so_far()[0]
    assert dealt.describe() == "2 players, 4 cards each; discard shows KS; player 0 starts"
    (peek,) = g.apply(tamalou.PeekAction(0, (0, 1)))
    assert peek.describe() == "player 0 looks at slots 0, 1: 4D 10C"
    assert peek.for_player(1).describe() == "player 0 looks at slots 0, 1: 2 cards"
    assert "[" not in peek.describe(lambda p: f"P{p}")


def test_a_composition_is_titled_by_its_parts() -> None:
    """``french`` + ``gabo``: the title names both (the last one's alone would call the game Gabo)."""
    assert tamalou.load_variant(["french", "gabo"]).title == "Tamalou (French rules) + Gabo (call at 7)"
    assert tamalou.load_variant("french").title == "Tamalou (French rules)"
