"""What an untrusted client can and cannot do: tokens, seats, bad messages, time, uploaded rules, and what
a seat's socket carries (never a card that seat may not see)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import tamalou
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conftest import Player, Server, action_log, create_room, join
from test_server import QUICK_TIMED, facts


def refused_hello(server: Server, room: str, first: str) -> tuple[dict[str, Any], int | None]:
    """Send ``first`` as the first message; return the server's answer and the close code."""
    with connect(f"{server.ws_url}/ws/{room}", open_timeout=10) as ws:
        ws.send(first)
        answer = json.loads(ws.recv(10))
        with pytest.raises(ConnectionClosed):
            ws.recv(10)
        assert ws.close_code is not None
        return answer, ws.close_code


@pytest.mark.parametrize(
    "first",
    [
        json.dumps({"type": "hello", "token": "not-a-token", "since": 0}),
        json.dumps({"type": "hello"}),
        json.dumps({"type": "hello", "token": 12}),
        json.dumps({"type": "action", "action": {"type": "draw", "player": 0, "source": "stock"}}),
        "not json at all",
    ],
)
def test_a_socket_without_a_valid_token_is_refused_and_logged(shared_server: Server, first: str) -> None:
    room = create_room(shared_server, "french", 2, {1: "greedy"})
    answer, code = refused_hello(shared_server, room, first)
    assert answer == {"type": "error", "reason": "unknown token"} and code == 4401
    assert f"room {room}: a socket from" in shared_server.log_text()


def test_a_token_opens_only_its_own_room(shared_server: Server) -> None:
    room, other = create_room(shared_server, "french", 2), create_room(shared_server, "french", 2)
    token = join(shared_server, room)["token"]
    answer, code = refused_hello(shared_server, other, json.dumps({"type": "hello", "token": token}))
    assert answer["type"] == "error" and code == 4401
    assert Player(shared_server, room, token).welcome["type"] == "welcome"


def test_acting_for_another_seat_is_refused_and_logged(shared_server: Server) -> None:
    room = create_room(shared_server, "french", 2, seed=1)
    zero, one = (Player(shared_server, room, join(shared_server, room)["token"]) for _ in range(2))
    mover, other = (zero, one) if zero.must_act() else (one, zero)
    before = facts(shared_server, room)["actions"]
    claim = {**mover.must_act()[0], "player": mover.seat}
    other.act(claim)  # the other seat claims the mover's action
    answer = other.receive()
    assert answer == {"type": "error", "reason": f"you play seat {other.seat} only"}
    assert f"room {room}: seat {other.seat} tried to act for player {mover.seat}: refused" in shared_server.log_text()
    other.act({**claim, "player": True})  # not a seat at all
    assert other.receive()["type"] == "error"
    assert facts(shared_server, room)["actions"] == before
    with pytest.raises(TimeoutError):  # the refusals went to that socket only
        mover.receive(0.3)
    mover.act(mover.must_act()[0])  # the real mover still plays
    assert mover.receive()["type"] == "update" and other.receive()["type"] == "update"


def test_an_illegal_action_is_answered_to_that_seat_only(shared_server: Server) -> None:
    room = create_room(shared_server, "french", 2, seed=1)
    zero, one = (Player(shared_server, room, join(shared_server, room)["token"]) for _ in range(2))
    waiting = one if zero.must_act() else zero
    waiting.act({"type": "draw", "source": "stock"})  # not its turn
    answer = waiting.receive()
    assert answer["type"] == "error" and "turn" in answer["reason"]
    with pytest.raises(TimeoutError):
        (zero if waiting is one else one).receive(0.3)


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[1, 2]",
        json.dumps({"type": "shout"}),
        json.dumps({"type": "hello", "token": "again"}),
        json.dumps({"type": "action", "action": "draw"}),
        json.dumps({"type": "action", "action": {"type": "draw", "source": "stock", "extra": 1}}),
        json.dumps({"type": "action", "action": {"type": "replace", "slot": True}}),
        json.dumps({"type": "action", "action": {"type": "tick", "at": 100}}),
        json.dumps({"type": "action", "action": {"type": "draw", "source": "x" * 10_000}}),
    ],
)
def test_bad_messages_are_answered_with_an_error_and_change_nothing(shared_server: Server, text: str) -> None:
    room = create_room(shared_server, "french", 2, {1: "greedy"}, seed=3)
    player = Player(shared_server, room, join(shared_server, room)["token"])
    player.wait_until_turn_or_over()
    before = facts(shared_server, room)["actions"]
    player.send_text(text)
    answer = player.receive()
    assert answer["type"] == "error" and 0 < len(answer["reason"]) < 300, answer
    assert facts(shared_server, room)["actions"] == before
    player.act(player.must_act()[0])  # the socket still works
    assert player.receive()["type"] == "update"


def test_the_client_never_sets_the_time(shared_server: Server) -> None:
    room = create_room(shared_server, None, 2, {1: "greedy"}, toml=QUICK_TIMED, seed=4)
    player = Player(shared_server, room, join(shared_server, room)["token"])
    player.wait_until_turn_or_over()
    player.act({**player.must_act()[0], "at": 10_000})
    assert player.receive()["type"] == "update"
    mine = [a for r in action_log(shared_server, room) for a in r if a.get("player") == 0]
    assert mine and all(a["at"] < 60 for a in mine)


@pytest.mark.parametrize(
    ("toml", "reason"),
    [
        ('name = "x"\nextends = "french"\nplugins = ["this"]\n', "plugin module 'this' is not allowed"),
        ('name = "x"\nextends = "../../variants/french.toml"\n', "files are not followed"),
        ('name = "x"\nextends = "french"\n[rules.call]\nthreshold = "seven"\n', "threshold"),
    ],
)
def test_uploaded_rules_may_not_import_code_or_read_files(shared_server: Server, toml: str, reason: str) -> None:
    r = httpx.post(shared_server.url + "/api/rooms", json={"toml": toml, "players": 2}, timeout=10)
    assert r.status_code == 400 and reason in r.json()["error"], r.text
    # `import this` prints the Zen of Python: had the module been imported, the log would show it.
    assert "Beautiful is better than ugly" not in shared_server.log_text()


def card_texts(value: Any) -> set[str]:
    """Every string in a JSON value that is the text of a card of a 52-card deck."""
    if isinstance(value, dict):
        return set().union(*(card_texts(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_texts(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and value in DECK else set()


DECK = {rank + suit for rank in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for suit in "SHDC"}


def test_a_seat_never_receives_a_card_it_may_not_see(shared_server: Server) -> None:
    room = create_room(shared_server, "french", 2, {1: "greedy"}, seed=99)
    player = Player(shared_server, room, join(shared_server, room)["token"])
    while not player.state["over"]:
        player.wait_until_turn_or_over()
        if player.must_act():
            player.act(player.must_act()[0])
            assert player.receive()["type"] == "update"
    frames = [player.welcome] + [json.loads(f) for f in player.frames]
    # Replay the saved log with tamalou: after each action, what seat 0 may see, and the opponent's cards
    # seat 0 does not know (the referee's layout where seat 0's view shows a face-down card).
    game = tamalou.new_match("french", 2, seed=99).game
    seen: dict[int, list[tuple[dict[str, Any], set[str]]]] = {}

    def record() -> None:
        view = game.view(0)
        hidden = {
            text
            for slot, text in enumerate(tamalou.round_of(game).layout(1))
            if text is not None and view.hands[1][slot].card is None and text in DECK
        }
        seen.setdefault(len(game.events_so_far()), []).append((view.model_dump(mode="json"), hidden))

    record()
    for action in action_log(shared_server, room)[0]:
        game.apply(action)
        record()
    checked_hidden = 0
    for frame in frames:
        points = seen[frame["seq"]]
        # What the server sent is what tamalou gives seat 0 at that point of the game...
        assert frame["state"]["view"] in [view for view, _ in points]
        hidden = set.intersection(*(h for _, h in points))
        # ...and no card of the opponent that seat 0 does not know appears anywhere in it.
        assert not card_texts(frame) & hidden, (frame, hidden)
        checked_hidden += len(hidden)
    assert checked_hidden > 0
    assert len(frames) > 3
