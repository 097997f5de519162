"""``LinearBot`` (``tamalou.bots.linear``): its turn decisions are the best score of its weights on the features
of each listed move, the others the greedy bot's; a file of weights is a bot by its name (``file:PATH``)
wherever bots are named: ``make_bot``, ``simulate``, ``tournament`` and the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tamalou
from tamalou.bots import FILE_PREFIX, GreedyBot, LinearBot, make_bot, play_game
from tamalou.bots.linear import FEATURES
from tamalou.cli import app


def weights(**named: float) -> list[float]:
    return [named.get(name, 0.0) for name in FEATURES]


#: A bot that keeps a card where it gains most, throws it otherwise, and never calls.
KEEPER = weights(keep_gain=5, throw_forgone=-5, draw_stock_gain=5, draw_discard_gain=5, power_hint=5, call=-10)


def test_its_moves_are_the_best_score_of_its_features() -> None:
    game = tamalou.new_game("french", players=2, seed=4)
    bot = LinearBot(KEEPER, seed=1)
    bot.setup(game.variant, 0)
    while not game.is_over:
        p = game.to_act[0] if game.to_act else game.current_player
        view, legal = game.seat_view(p), game.legal_actions(p)
        if p == 0 and bot.decides(view, legal):
            mine = [a for a in legal if a.type != "match"]
            scores = [sum(w * x for w, x in zip(KEEPER, f, strict=True)) for f in bot.features_of(view, mine)]
            choice = bot.act(view, legal)
            assert choice == mine[scores.index(max(scores))]
            assert all(len(f) == len(FEATURES) for f in bot.features_of(view, mine))
            assert not isinstance(choice, tamalou.Call)  # call weighs -10
        else:
            choice = (bot if p == 0 else GreedyBot(2)).act(view, legal)
            if choice is None:
                choice = next(a for a in legal if a.type != "match")
        game.apply(choice)


def test_the_features_say_what_a_move_gains() -> None:
    game = tamalou.new_game("french", players=2, seed=4)
    p = game.current_player
    game.apply(tamalou.Draw(p, "stock"))
    view = game.seat_view(p)
    bot = LinearBot(KEEPER)
    bot.setup(game.variant, p)
    held = bot.value(view.held)
    for slot in view.hands[p]:
        (f,) = bot.features_of(view, [tamalou.Replace(p, slot.slot)])
        there = bot.estimate(view) if slot.card is None else bot.value(slot.card)
        assert f[FEATURES.index("keep")] == 1.0
        assert f[FEATURES.index("keep_gain")] == pytest.approx((there - held) / 10)
        assert f[FEATURES.index("keep_unknown")] == (1.0 if slot.card is None else 0.0)


def test_a_file_of_weights_is_a_bot_by_its_name(tmp_path: Path) -> None:
    path = LinearBot(KEEPER).save(tmp_path / "Agent.json")
    assert json.loads(path.read_text("utf-8"))["features"] == list(FEATURES)
    bot = make_bot(f"{FILE_PREFIX}{path}", seed=3)
    assert isinstance(bot, LinearBot) and bot.weights == KEEPER
    result = play_game(tamalou.new_game("french", players=2, seed=1), [bot, GreedyBot(1)])
    assert result.winners
    report = tamalou.simulate("french", [f"file:{path}", "greedy"], games=4, backend="inline", players=2)
    assert report.bots == [f"file:{path}", "greedy"]  # its case is kept: it is a path
    with pytest.raises(ValueError, match="not a trained bot's file"):
        make_bot(f"file:{tmp_path / 'missing.json'}")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"features": ["a"], "weights": [1.0]}), "utf-8")
    with pytest.raises(ValueError, match="features are not this version's"):
        make_bot(f"file:{other}")
    with pytest.raises(ValueError, match="has 17 weights"):
        LinearBot([1.0])


def test_the_command_line_seats_a_file(tmp_path: Path) -> None:
    path = LinearBot(KEEPER).save(tmp_path / "agent.json")
    runner = CliRunner()
    done = runner.invoke(app, ["play", "french", "-p", "2", "--bots", f"file:{path},greedy", "--seed", "2", "-q"])
    assert done.exit_code == 0, done.output
    wrong = runner.invoke(app, ["play", "french", "--bots", f"file:{tmp_path / 'nope.npz'}"])
    assert wrong.exit_code != 0 and "not a trained bot's file" in wrong.output


def test_a_npz_file_without_numpy_says_which_extra_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without numpy (the ai extra), seating a ``.npz`` bot says so in one line, naming the extra; a JSON file
    needs nothing."""
    path = tmp_path / "agent.npz"
    path.write_bytes(b"PK")  # (what is in it is never read: numpy is needed first)
    monkeypatch.setitem(sys.modules, "numpy", None)  # an import of numpy now fails, as where it is not installed
    done = CliRunner().invoke(app, ["play", "french", "--bots", f"file:{path}"])
    assert done.exit_code == 2
    assert " ".join(done.output.split()) == (  # (one line, wrapped at the terminal's width)
        f"error: bot 'file:{path}': a .npz bot file needs numpy (the ai extra): pip install 'tamalou[ai]', or save "
        "the bot as .json"
    )
    json_bot = LinearBot(KEEPER).save(tmp_path / "agent.json")
    assert make_bot(f"file:{json_bot}") is not None


@pytest.mark.parametrize(
    "text",
    [
        "[]",
        "[" * 100_000 + "]" * 100_000,  # nested past Python's parser
        '{"features": "draw_stock", "weights": [1]}',
        '{"features": [1, 2], "weights": [1, 2]}',
        '{"features": ["a"], "weights": ["1"]}',
        '{"features": ["a"], "weights": [true]}',
        '{"features": ["a", "b"], "weights": [1]}',
        '{"features": [], "weights": [], "extra": 1}',
        "\xff\xfe not utf-8",
        json.dumps({"features": list(FEATURES), "weights": [float("nan")] * len(FEATURES)}),
    ],
    ids=["list", "deep", "text", "numbers", "strings", "bool", "lengths", "extra-key", "not-utf8", "nan"],
)
def test_every_json_bot_file_of_the_wrong_shape_is_one_line(tmp_path: Path, text: str) -> None:
    """A bot file is read as one from outside: whatever its JSON holds, a one-line ``ValueError``."""
    path = tmp_path / "agent.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape") if text[0] != "\xff" else b"\xff\xfe not utf-8")
    with pytest.raises(ValueError, match="not a trained bot's file") as refused:
        make_bot(f"file:{path}")
    assert "\n" not in str(refused.value)


def test_a_device_a_folder_and_a_huge_file_are_refused_at_once(tmp_path: Path) -> None:
    """``file:/dev/zero`` would read forever: a bot's file is a regular file of ``MAX_FILE_BYTES`` at most."""
    from tamalou.bots.linear import MAX_FILE_BYTES

    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    for path in ("/dev/zero", str(tmp_path), str(huge)):
        with pytest.raises(ValueError, match="not a trained bot's file") as refused:
            make_bot(f"file:{path}")
        assert "\n" not in str(refused.value)
