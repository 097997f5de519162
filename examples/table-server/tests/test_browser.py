"""The page in a real browser: headless Chromium driven by Playwright, two players in two browser contexts.

- ``test_two_players_play_a_whole_game``: the lobby creates a room, seat 1 opens the invitation link, and the
  two pages play a whole French game by clicking the buttons and cards the pages offer, until both show the
  result; the result is the one tamalou gives when it replays the actions the pages sent.
- ``test_no_card_leaks_to_seat_0``: every websocket frame seat 0's page receives and its whole DOM after every
  action carry only cards seat 0 may see, checked against tamalou replaying the game on its own.
- ``test_timed_countdown_follows_the_server_ticks``: a timed ruleset shows a countdown, counted down by the
  page and moved on by the server's tick.
- ``test_reload_and_server_restart_bring_the_table_back``: a reloaded page, a page opened again, and a page
  whose server was killed and restarted all get their table and their whole log back.
- ``test_the_lobby_uploads_rules_seats_a_bot_and_shows_refusals``: uploaded rules (refused with plugins, played
  without), a bot chosen in the lobby.
- ``test_the_page_plays_other_rulesets_against_bots``: the same page through other mechanics, to the end.
- ``test_a_wrong_token_or_a_taken_seat_is_refused_in_words``: refusals are said, and a bad token is not retried.

Screenshots go to the folder named by ``TABLE_ARTIFACTS`` (default: ``examples/table-server/artifacts``).
Chromium is Debian's (``/usr/bin/chromium``, or ``TABLE_CHROMIUM``); Playwright's own download is not used.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import tamalou
from playwright.sync_api import Browser, Page, WebSocket, sync_playwright
from tamalou.cards import RANKS, SUITS

from conftest import INVITATIONS, Server, create_room, join

HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("TABLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("TABLE_ARTIFACTS") or HERE.parent / "artifacts")
TIMEOUT_MS = 15_000  # any single wait in a page
MAX_STEPS = 300  # actions in one game, at most (a French game with these policies takes a few dozen)

# ----------------------------------------------------------------------------------------- card codes

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ALL_CODES = frozenset([f"{rank}{suit}" for rank in RANKS for suit in SUITS] + ["JK1", "JK2"])
DECK = frozenset(c for c in ALL_CODES if not c.startswith("JK"))  # the French deck: 52 cards, no joker
_ASCII = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")
_JOKER = re.compile(r"(?<![A-Za-z0-9])JK[12](?![A-Za-z0-9])")
_SYMBOL = re.compile(r"(?<![0-9])(10|[2-9AJQK])\s?([♠♥♦♣])")
_FROM_SYMBOL = {v: k for k, v in SUIT_SYMBOLS.items()}


def codes_in_text(text: str) -> set[str]:
    """Every card written in ``text``, as a code ("10H"), whether written "10H" or "10♥"."""
    found = {rank + suit for rank, suit in _ASCII.findall(text)}
    found |= {rank + _FROM_SYMBOL[symbol] for rank, symbol in _SYMBOL.findall(text)}
    return found | set(_JOKER.findall(text))


def codes_in_json(value: Any) -> set[str]:
    """Every card code among the strings of a JSON value."""
    if isinstance(value, str):
        return {value} if value in ALL_CODES else set()
    if isinstance(value, list):
        return set().union(*(codes_in_json(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(codes_in_json(v) for v in value.values())) if value else set()
    return set()


def test_the_card_scanners_find_cards_in_both_spellings() -> None:
    """The no-leak test relies on these: they must see a card whichever way the page writes it."""
    text = "P1 draws 10♥ then K ♣, throws QS; slot 10 ♦? no: 10♦ and 7H and AS. Stock: 43 P1 JK JK2"
    assert codes_in_text(text) == {"10H", "KC", "QS", "10D", "7H", "AS", "JK2"}
    assert codes_in_text("Turn 12 · P1 to play · 45.0 s · slots 0, 1") == set()
    assert codes_in_json({"a": ["9H", {"b": "X9H"}], "c": "KS", "d": 10}) == {"9H", "KS"}


# ----------------------------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set TABLE_CHROMIUM)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


_SNAPSHOT = """() => {
  const root = document.getElementById("table");
  const buttons = [...document.querySelectorAll("#buttons [data-action]")].map((b, i) => ({
    index: i, action: b.dataset.action, legal: b.dataset.legal ? JSON.parse(b.dataset.legal) : null}));
  const cards = [...document.querySelectorAll("#board .card[data-clickable]")].map((c) => ({
    seat: Number(c.dataset.seat), slot: Number(c.dataset.slot), candidate: c.classList.contains("candidate")}));
  return {phase: root.dataset.phase, turn: Number(root.dataset.turn), seat: Number(root.dataset.seat),
          myMove: root.dataset.myMove === "true", over: root.dataset.over === "true",
          pending: root.dataset.pending === "true", updates: Number(root.dataset.updates || 0),
          seq: Number(root.dataset.seq || 0), buttons, cards};
}"""

# What seat 0's page shows, for the no-leak test: every text node and every attribute value of the document.
_EVERYTHING = """() => {
  const parts = [];
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) parts.push(walker.currentNode.nodeValue);
  for (const el of document.querySelectorAll("*")) for (const a of el.attributes) parts.push(a.value);
  return parts.join(" ");
}"""

_BOARD = """() => [...document.querySelectorAll("#board .seat .card")].map((c) => [
  Number(c.dataset.seat), Number(c.dataset.slot), c.dataset.card === undefined ? null : c.dataset.card])"""

_LOG = """() => [...document.querySelectorAll("#log li")].map((li) => [li.dataset.type, li.textContent])"""


class Table:
    """One seat's page in its own browser context, with every websocket frame it sends and receives."""

    def __init__(self, browser: Browser, label: str) -> None:
        self.label = label
        self.context = browser.new_context(viewport={"width": 1280, "height": 860})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.frames: list[tuple[str, str]] = []  # ("in" | "out", text), in order
        self.errors: list[str] = []
        self.watch(self.page)

    def watch(self, page: Page) -> None:
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("websocket", self.on_socket)

    def on_socket(self, socket: WebSocket) -> None:
        def text(payload: str | bytes) -> str:
            return payload if isinstance(payload, str) else payload.decode()

        socket.on("framereceived", lambda payload: self.frames.append(("in", text(payload))))
        socket.on("framesent", lambda payload: self.frames.append(("out", text(payload))))

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.wait_ready()

    def reopen(self, url: str) -> None:
        """Open the address in a new page (a player who closed the page and comes back)."""
        if not self.page.is_closed():
            self.page.close()
        self.page = self.context.new_page()
        self.watch(self.page)
        self.open(url)

    def wait_ready(self) -> None:
        self.page.wait_for_selector("#table[data-updates]", state="attached")

    def snapshot(self) -> dict[str, Any]:
        result: dict[str, Any] = self.page.evaluate(_SNAPSHOT)
        return result

    def attr(self, name: str) -> str:
        return self.page.get_attribute("#table", name) or ""

    @property
    def updates(self) -> int:
        return int(self.attr("data-updates") or 0)

    def wait_updates_after(self, count: int) -> None:
        self.page.wait_for_function(
            "n => Number(document.getElementById('table').dataset.updates) > n && "
            "document.getElementById('table').dataset.pending === 'false'",
            arg=count,
        )

    def click_button(self, index: int) -> None:
        self.page.locator("#buttons [data-action]").nth(index).click()

    def click_card(self, seat: int, slot: int) -> None:
        self.page.locator(f"#board .card[data-seat='{seat}'][data-slot='{slot}']").click()

    def received(self) -> list[dict[str, Any]]:
        return [json.loads(text) for way, text in self.frames if way == "in"]

    def wait_frames(self) -> None:
        """Wait until every state the page has drawn was also seen here as a frame (Playwright reports frames
        on its own schedule)."""
        deadline = time.monotonic() + 5
        while sum(1 for m in self.received() if "state" in m) < self.updates:
            assert time.monotonic() < deadline, f"{self.label}: the page drew states whose frames never came"
            self.page.wait_for_timeout(20)

    def close(self) -> None:
        self.context.close()


def check_sent_actions_were_offered(table: Table) -> None:
    """Every action the page sent is one of the ``legal`` list of the last state it had received."""
    legal: list[dict[str, Any]] = []
    for way, text in table.frames:
        message = json.loads(text)
        if way == "in" and "state" in message:
            legal = message["state"]["legal"]
        elif way == "out" and message.get("type") == "action":
            assert message["action"] in legal, f"{table.label} sent {message['action']}, not in {legal}"
            legal = []  # one action per state
    assert not [m for m in table.received() if m.get("type") == "error"], f"{table.label}: the server refused"


# ----------------------------------------------------------------------------------------- playing


class Policy:
    """How the test player picks among what the page offers: seeded, calls from a given turn on, avoids
    matching at random (a deliberate out-of-turn match is made once, by ``match_out_of_turn``)."""

    def __init__(
        self,
        seed: int,
        call_from_turn: int = 3,
        prefer_powers: bool = False,
        on_choosing: Callable[[Table], None] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.on_choosing = on_choosing  # called when a click chose a card and the page waits for more
        self.call_from_turn = call_from_turn
        self.prefer_powers = prefer_powers
        self.kinds: list[str] = []  # "button" or "card", per action sent

    def act(self, table: Table) -> str:
        """Click until the page sends one action; returns what sent it ("button" or "card"), or "" when, once
        the page has drawn the bots' answers it was waiting for (``pending``), the move is no longer this seat's."""
        table.page.wait_for_function("() => document.getElementById('table').dataset.pending === 'false'")
        if not table.snapshot()["myMove"]:
            return ""
        for _ in range(4):
            view = table.snapshot()
            kind, target = self.pick(view)
            if kind == "button":
                table.click_button(target)
            else:
                table.click_card(*target)
            after = table.snapshot()
            if after["pending"] or after["updates"] > view["updates"]:
                self.kinds.append(kind)
                return kind
            if self.on_choosing is not None:
                self.on_choosing(table)
        raise AssertionError(f"{table.label}: four clicks and no action sent")

    def pick(self, view: dict[str, Any]) -> tuple[str, Any]:
        """A button (its index) or a card (its seat and slot) among what the page offers."""
        options = self.options(view)
        assert options, f"nothing to click in {view}"
        return options[0] if len(options) == 1 else self.rng.choice(options)

    def options(self, view: dict[str, Any]) -> list[tuple[str, Any]]:
        buttons = [b for b in view["buttons"] if b["action"] != "cancel"]
        not_matching = [b for b in buttons if b["action"] != "match"]
        if any(b["action"] == "cancel" for b in view["buttons"]):  # a card is chosen: complete the move
            cards = [("card", (c["seat"], c["slot"])) for c in view["cards"] if c["candidate"]]
            return cards + [("button", b["index"]) for b in (not_matching or buttons)]
        calls = [b for b in buttons if b["action"] == "call"]
        if calls and view["turn"] >= self.call_from_turn:
            return [("button", calls[0]["index"])]
        choices = [("button", b["index"]) for b in not_matching if b["action"] != "call"]
        if self.prefer_powers:  # draw from the stock and throw the card drawn: its power comes into play
            for wanted in ("discard", "draw"):
                found = [
                    ("button", b["index"])
                    for b in not_matching
                    if b["action"] == wanted and b["legal"].get("source", "stock") == "stock"
                ]
                if found:
                    return found
        if view["phase"] in ("hold", "power", "swap", "peek", "give"):  # cards stand for moves, not only matches
            cards = [("card", (c["seat"], c["slot"])) for c in view["cards"]]
            if self.prefer_powers and view["phase"] == "power" and cards:
                return cards
            choices += cards
        if not choices:  # only a match is left (the last chance to match, say): take it
            choices = [("button", b["index"]) for b in buttons] + [
                ("card", (c["seat"], c["slot"])) for c in view["cards"]
            ]
        return choices


def match_out_of_turn(table: Table) -> bool:
    """Seat ``table`` is not to move: match the discard top by clicking one of its own cards, if it may."""
    view = table.snapshot()
    own = [c for c in view["cards"] if c["seat"] == view["seat"]]
    if view["myMove"] or not own:
        return False
    table.click_card(own[0]["seat"], own[0]["slot"])
    after = table.snapshot()
    return bool(after["pending"] or after["updates"] > view["updates"])


def play(
    tables: list[Table],
    policy: Policy,
    *,
    after_step: Callable[[int], None] | None = None,
    match_at_step: int | None = None,
    stop: Callable[[int], bool] | None = None,
) -> int:
    """Play until the game is over (or ``stop(step)``): each step one page acts and every page gets the
    update. Returns the number of steps."""
    for step in range(MAX_STEPS):
        views = [t.snapshot() for t in tables]
        if all(v["over"] for v in views) or (stop is not None and stop(step)):
            return step
        before = [v["updates"] for v in views]
        movers = [t for t, v in zip(tables, views, strict=True) if v["myMove"]]
        assert movers, f"nobody to move and the game is not over: {views}"
        matched = False
        if match_at_step is not None and step >= match_at_step and "matched" not in policy.kinds:
            idle = [t for t in tables if t not in movers]
            matched = bool(idle) and match_out_of_turn(idle[0])
            if matched:
                policy.kinds.append("matched")
        if not matched:
            policy.act(movers[0])
        for table, count in zip(tables, before, strict=True):
            table.wait_updates_after(count)
        if after_step is not None:
            after_step(step)
    raise AssertionError(f"the game did not end within {MAX_STEPS} actions")


def replay(ruleset: str, seed: int, actions: list[dict[str, Any]]) -> tamalou.Match:
    """The match tamalou plays from ``seed`` with these actions (a single-round ruleset)."""
    match = tamalou.new_match(tamalou.load_variant(ruleset), 2, seed=seed)
    for action in actions:
        match.game.apply(action)
    return match


# ----------------------------------------------------------------------------------------- the tests


def test_two_players_play_a_whole_game(browser: Browser, shared_server: Server) -> None:
    started = time.monotonic()
    seed = 7
    host, guest = Table(browser, "seat 0"), Table(browser, "seat 1")
    try:
        # the lobby: French rules, two players, the second one invited, a fixed deal
        host.page.goto(shared_server.url + "/")
        host.page.wait_for_selector("#lobby-ruleset option[value='french']", state="attached")
        host.page.select_option("#lobby-ruleset", "french")
        host.page.select_option("#lobby-players", "2")
        host.page.fill("#lobby-seed", str(seed))
        shot(host.page, "game-01-lobby")
        host.page.click("[data-action='create-room']")
        host.wait_ready()
        invitation = host.page.locator("[data-invite-seat='1']")
        invitation.wait_for()
        assert "token=" in host.page.url and host.attr("data-seat") == "0"
        shot(host.page, "game-02-invitation")

        guest.open(str(invitation.get_attribute("href")))
        assert "token=" in guest.page.url and guest.attr("data-seat") == "1"
        host.page.wait_for_timeout(100)
        shot(host.page, "game-03-seat0-start")
        shot(guest.page, "game-03-seat1-start")

        pictures: set[str] = set()

        def picture_of_a_choice(table: Table) -> None:
            if "choice" not in pictures:
                pictures.add("choice")
                shot(table.page, f"game-04-choice-seat{table.attr('data-seat')}")

        policy = Policy(seed=1, on_choosing=picture_of_a_choice)

        def pictures_of_moments(step: int) -> None:
            for table in (host, guest):
                view = table.snapshot()
                if view["over"] or not view["myMove"]:
                    continue
                moment = {"hold": "holding", "power": "power", "call": "call"}.get(view["phase"])
                if moment and moment not in pictures:
                    pictures.add(moment)
                    shot(table.page, f"game-04-{moment}-seat{view['seat']}")

        steps = play([host, guest], policy, after_step=pictures_of_moments, match_at_step=2)

        for table in (host, guest):
            table.page.locator("#result h2").wait_for()
        shot(host.page, "game-05-seat0-result")
        shot(guest.page, "game-05-seat1-result")

        # the pages played a real game: buttons and cards, an out-of-turn match, the invitation gone
        assert steps >= 6, steps
        assert {"button", "card", "matched"} <= set(policy.kinds), policy.kinds
        assert host.page.locator("#invite").is_hidden()
        for table in (host, guest):
            assert not table.errors, table.errors
            assert table.page.locator("#notice").is_hidden()
            check_sent_actions_were_offered(table)
            log_types = [t for t, _ in table.page.evaluate(_LOG)]
            assert {"matched", "missed"} & set(log_types), log_types
            assert log_types[-1] == "round_over" and len(log_types) == int(table.attr("data-seq"))

        # the result both pages show is the one tamalou gives for the actions the pages sent, in their order
        sent = [a for _, a in sorted(ordered_actions([host, guest]))]
        referee = replay("french", seed, sent)
        assert referee.game.is_over
        result = referee.game.result()
        for table in (host, guest):
            winners = table.page.get_attribute("#result h2", "data-winners")
            assert winners == " ".join(map(str, result.winners))
            totals = table.page.locator("#result td[data-total]").all_inner_texts()
            assert totals == [str(t) for t in result.totals]
    finally:
        host.close()
        guest.close()
    assert time.monotonic() - started < 60


def ordered_actions(tables: list[Table]) -> list[tuple[int, dict[str, Any]]]:
    """Every action the pages sent, keyed by the server's event count when it was sent (the pages take turns:
    one action at a time, each answered before the next), to put two pages' actions in one order."""
    out: list[tuple[int, dict[str, Any]]] = []
    for table in tables:
        seq = 0
        for way, text in table.frames:
            message = json.loads(text)
            if way == "in" and "seq" in message:
                seq = message["seq"]
            elif way == "out" and message.get("type") == "action":
                out.append((seq, message["action"]))
    assert len({seq for seq, _ in out}) == len(out), "two actions sent at the same point of the game"
    return out


def test_no_card_leaks_to_seat_0(browser: Browser, shared_server: Server) -> None:
    seed = 11
    room = create_room(shared_server, "french", 2, seed=seed)
    seats = [join(shared_server, room, 0), join(shared_server, room, 1)]
    me, other = Table(browser, "seat 0"), Table(browser, "seat 1")
    referee = tamalou.new_match(tamalou.load_variant("french"), 2, seed=seed)
    hidden_seen: set[str] = set()  # cards of seat 1 that seat 0 could not see at some step
    checked_frames = 0

    def check(step: int) -> None:
        nonlocal checked_frames
        # tamalou, on its own, plays the same actions in the same order the pages sent them
        me.wait_frames()
        other.wait_frames()
        sent = [a for _, a in sorted(ordered_actions([me, other]))]
        for action in sent[len(referee.game.actions) :]:
            referee.game.apply(action)
        game = referee.game
        view = game.view(0).model_dump(mode="json")
        events = [e.to_dict() for e in game.events_so_far(0)]
        may_see = codes_in_json(view) | codes_in_json(events)
        secret = DECK - may_see  # every card of the French deck seat 0 has not been shown
        assert secret or game.is_over, "nothing is hidden from seat 0: this step checks nothing"
        hidden_seen.update(secret)

        # every frame seat 0 received: what tamalou says seat 0 sees, and no other card
        received = me.received()
        got_events: list[dict[str, Any]] = []
        for message in received:
            assert message["type"] in ("welcome", "update"), message
            got_events.extend(message["events"])
            assert codes_in_json(message) <= may_see, codes_in_json(message) - may_see
        checked_frames = len(received)
        assert got_events == events
        assert received[-1]["state"]["view"] == view
        assert received[-1]["state"]["legal"] == [a.to_dict() for a in game.legal_actions(0)]

        # the whole DOM: no card seat 0 may not see; the board shows exactly the view's cards
        shown = codes_in_text(me.page.evaluate(_EVERYTHING))
        assert shown <= may_see, f"step {step}: the page shows {shown - may_see}"
        board = me.page.evaluate(_BOARD)
        expected = [[p, s["slot"], s["card"]] for p in (1, 0) for s in view["hands"][p]]
        assert sorted(board, key=str) == sorted(expected, key=str)
        assert (view["held"] is None) == (me.page.locator("[data-pile='held'] [data-card]").count() == 0)

    try:
        me.open(shared_server.url + seats[0]["url"])
        other.open(shared_server.url + seats[1]["url"])
        check(-1)
        policy = Policy(seed=5, call_from_turn=5, prefer_powers=True)
        play([me, other], policy, after_step=check, match_at_step=3)
        # at the end every card is shown: the scanner must now find seat 1's cards on seat 0's page
        final = {c for c in tamalou.round_of(referee.game).layout(1) if c is not None}  # the referee's table
        assert final <= codes_in_text(me.page.evaluate(_EVERYTHING))
        shot(me.page, "noleak-seat0-end")
    finally:
        me.close()
        other.close()
    assert hidden_seen and checked_frames > 10
    looks = [e for e in referee.game.events_so_far(0) if e.type == "looked" and e["player"] == 0]
    assert looks, "seat 0 never looked at a card with a power: a weak game for this test"


def test_timed_countdown_follows_the_server_ticks(browser: Browser, shared_server: Server) -> None:
    # tamalou-fun: a 5-second opening peek, then 45-second turns, all on the server's clock
    room = create_room(shared_server, "tamalou-fun", 2)
    seat = join(shared_server, room, 0)
    table = Table(browser, "seat 0")
    try:
        table.open(shared_server.url + seat["url"])
        timer = table.page.locator("#timer")
        timer.wait_for()
        assert table.attr("data-phase") == "opening"
        assert float(str(timer.get_attribute("data-deadline"))) == 5.0
        assert "Opening peek ends in" in timer.inner_text()
        first = float(str(timer.get_attribute("data-remaining")))
        assert 0 < first <= 5
        table.page.wait_for_timeout(700)
        later = float(str(timer.get_attribute("data-remaining")))
        assert later < first  # the page counts down between the server's messages
        shot(table.page, "timed-01-opening")

        # the server's tick at 5 s ends the opening: the phase moves on and the countdown starts a new turn
        updates = table.updates
        table.page.wait_for_function("() => document.getElementById('table').dataset.phase === 'draw'")
        assert table.updates > updates
        assert float(str(timer.get_attribute("data-now"))) >= 5.0
        assert float(str(timer.get_attribute("data-deadline"))) == 50.0
        assert 40 < float(str(timer.get_attribute("data-remaining"))) <= 45
        assert "Turn ends in" in timer.inner_text()
        log_types = [t for t, _ in table.page.evaluate(_LOG)]
        assert "opening_over" in log_types
        shot(table.page, "timed-02-after-tick")
        assert not table.errors, table.errors
    finally:
        table.close()


def test_reload_and_server_restart_bring_the_table_back(browser: Browser, server: Server) -> None:
    seed = 3
    room = create_room(server, "french", 2, seed=seed)
    urls = [server.url + join(server, room, p)["url"] for p in (0, 1)]
    me, other = Table(browser, "seat 0"), Table(browser, "seat 1")
    policy = Policy(seed=2, call_from_turn=50)

    def table_of(t: Table) -> tuple[Any, Any, str, str]:
        return t.page.evaluate(_LOG), t.page.evaluate(_BOARD), t.attr("data-seq"), t.attr("data-phase")

    try:
        me.open(urls[0])
        other.open(urls[1])
        play([me, other], policy, stop=lambda step: step >= 4)
        before = table_of(me)
        assert len(before[0]) > 4

        # a reload: the page asks for everything again and draws the same table and log
        me.page.reload()
        me.wait_ready()
        me.page.wait_for_function("n => document.getElementById('table').dataset.seq === n", arg=before[2])
        assert table_of(me) == before

        # a player who closes the page and comes back later gets the events played meanwhile
        while not me.snapshot()["myMove"]:
            play([me, other], policy, stop=lambda step: step >= 1)
        other.page.close()
        play([me], policy, stop=lambda step: step >= 1)
        other.reopen(urls[1])
        assert other.attr("data-seq") == me.attr("data-seq")
        assert [t for t, _ in other.page.evaluate(_LOG)] == [t for t, _ in me.page.evaluate(_LOG)]

        # the server is killed and restarted: the open pages reconnect by themselves and miss nothing
        before = table_of(me)
        server.stop()
        me.page.locator("#connection[data-connection='reconnecting']").wait_for()
        shot(me.page, "reconnect-01-server-down")
        server.start()
        for table in (me, other):
            table.page.locator("#connection[data-connection='open']").wait_for()
        assert table_of(me) == before
        play([me, other], policy, stop=lambda step: step >= 2)
        log = me.page.evaluate(_LOG)
        assert len(log) == int(me.attr("data-seq")) > int(before[2])
        assert [t for t, _ in other.page.evaluate(_LOG)] == [t for t, _ in log]
        shot(me.page, "reconnect-02-after-restart")
        for table in (me, other):
            assert not table.errors, table.errors
            check_sent_actions_were_offered(table)
    finally:
        me.close()
        other.close()


def test_the_lobby_uploads_rules_seats_a_bot_and_shows_refusals(browser: Browser, shared_server: Server) -> None:
    table = Table(browser, "seat 0")
    try:
        page = table.page
        page.goto(shared_server.url + "/")
        page.wait_for_selector("#lobby-ruleset option[value='french']", state="attached")
        page.click("#lobby-upload summary")
        page.fill("#lobby-toml", 'name = "forbidden"\nextends = "french"\nplugins = ["os"]\n')
        page.click("[data-action='create-room']")
        notice = page.locator("#notice")
        notice.wait_for()
        assert "Could not create the table" in notice.inner_text() and "plugin" in notice.inner_text()
        assert page.locator("#table").is_hidden()
        shot(page, "lobby-refused-upload")

        page.fill("#lobby-toml", 'name = "french-seven"\nextends = "french"\n\n[rules.call]\nthreshold = 7\n')
        page.select_option("#lobby-players", "2")
        page.select_option(".seat-kind[data-seat='1']", "greedy")
        page.click("[data-action='create-room']")
        table.wait_ready()
        assert page.locator("#ruleset-title").inner_text() == "french-seven"
        page.locator(".seat[data-seat='1'] .seat-name", has_text="P1 (greedy)").wait_for()
        assert page.locator("#invite").is_hidden()  # the only other seat is the bot's
        # the bot plays its turns by itself (half a second after each change): seat 0 plays up to its second turn
        policy = Policy(seed=4, call_from_turn=50)
        turns = 0
        while turns < 3 and not table.snapshot()["over"]:
            if table.snapshot()["myMove"]:
                before = table.updates
                policy.act(table)
                table.wait_updates_after(before)
            else:
                page.wait_for_function(
                    "() => ['myMove', 'over'].some((k) => document.getElementById('table').dataset[k] === 'true')"
                )
            turns = [t for t, _ in table.page.evaluate(_LOG)].count("turn")
        log = table.page.evaluate(_LOG)
        assert any(t == "drew" and text.startswith("P1 (greedy) draws") for t, text in log), log
        shot(page, "lobby-uploaded-rules-with-bot")
        assert not table.errors, table.errors
        check_sent_actions_were_offered(table)
    finally:
        table.close()


def play_against_bots(table: Table, url: str, policy: Policy) -> None:
    """Open the seat's page at ``url`` and play by ``policy`` whenever the move is the seat's, each move waiting
    for the page to draw the bots' answers, until the round's result is shown."""
    table.open(url)
    for _ in range(MAX_STEPS):
        view = table.snapshot()
        if view["over"]:
            break
        if view["myMove"]:
            policy.act(table)
        table.page.wait_for_function(
            "n => { const t = document.getElementById('table').dataset;"
            " return Number(t.updates) > n && t.pending === 'false'; }",
            arg=view["updates"],
        )
    table.page.locator("#result h2").wait_for()


@pytest.mark.parametrize("ruleset", ["cabo", "kaboo", "cambia", "dutch"])
def test_the_page_plays_other_rulesets_against_bots(browser: Browser, shared_server: Server, ruleset: str) -> None:
    """Other mechanics through the same page: a chosen opening peek and claimed exchanges (cabo), matching an
    opponent's card and giving one back (kaboo), a matching window after each power (cambia), a match of
    rounds and a power that gives a card (dutch)."""
    room = create_room(shared_server, ruleset, 3, bots={1: "greedy", 2: "random"}, seed=4)
    table = Table(browser, "seat 0")
    policy = Policy(seed=3, call_from_turn=6)
    try:
        play_against_bots(table, shared_server.url + join(shared_server, room, 0)["url"], policy)
        shot(table.page, f"rulesets-{ruleset}-end")
        assert table.attr("data-over") == "true"
        assert {"button", "card"} <= set(policy.kinds), policy.kinds
        assert len(table.page.evaluate(_LOG)) == int(table.attr("data-seq"))
        assert not table.errors, table.errors
        check_sent_actions_were_offered(table)
    finally:
        table.close()


#: Golf (examples/tamalou-golf): a game of the family written outside tamalou, its cards face up.
GOLF = "golf-6"


def require_golf() -> None:
    """Golf installed beside the server (``run_tests.sh`` installs it); without it the test is skipped, saying
    so, or fails where ``TAMALOU_REQUIRE_EXTRAS=1`` (the repository's CI)."""
    if GOLF in tamalou.variant_names():
        return
    why = "Golf is not installed: pip install ./examples/tamalou-golf"
    if os.environ.get("TAMALOU_REQUIRE_EXTRAS") == "1":
        pytest.fail(why)
    pytest.skip(why)


def test_a_golf_room_plays_in_the_page(browser: Browser, shared_server: Server) -> None:
    """Golf, from a package installed beside the server, through the same page: its moves (the public opening's
    ``peek``, the ``flip`` after a card drawn and thrown) come as buttons; the page plays the round to its end
    against two bots, sending only what was offered, and shows the cards turned face up to every seat."""
    require_golf()
    room = create_room(shared_server, GOLF, 3, bots={1: "greedy", 2: "random"}, seed=4)
    table = Table(browser, "seat 0")
    policy = Policy(seed=3)
    try:
        play_against_bots(table, shared_server.url + join(shared_server, room, 0)["url"], policy)
        shot(table.page, "rulesets-golf-6-end")
        assert table.attr("data-over") == "true"
        sent = [json.loads(text)["action"]["type"] for way, text in table.frames if way == "out" and '"action"' in text]
        assert {"peek", "flip"} <= set(sent), sent
        assert not table.errors, table.errors
        check_sent_actions_were_offered(table)
        # During the round, the bots' face-up cards are shown to seat 0 (and only those of their cards).
        views = [m["state"]["view"] for m in table.received() if "state" in m and not m["state"]["over"]]
        seen = 0
        for view in views:
            face_up = [[s["slot"] for s in hand if s["face_up"]] for hand in view["hands"]]
            for seat in (1, 2):
                shown = {s["slot"]: s["card"] for s in view["hands"][seat]}
                assert all(shown[slot] is not None for slot in face_up[seat]), (seat, face_up, shown)
                assert all(card is None for slot, card in shown.items() if slot not in face_up[seat]), shown
                seen += len(face_up[seat])
        assert seen, "no face-up card of a bot in any state seat 0 received"

    finally:
        table.close()


def test_a_wrong_token_or_a_taken_seat_is_refused_in_words(browser: Browser, shared_server: Server) -> None:
    room = create_room(shared_server, "french", 2)
    join(shared_server, room, 1)
    table = Table(browser, "nobody")
    try:
        page = table.page
        page.goto(f"{shared_server.url}/table?room={room}&token=not-a-token")
        page.locator("#connection[data-connection='closed']").wait_for()
        assert "unknown token" in page.locator("#notice").inner_text()
        page.wait_for_timeout(600)  # no second try: the page would show "reconnecting"
        assert page.locator("#connection").get_attribute("data-connection") == "closed"
        assert sum(1 for way, text in table.frames if way == "out" and '"hello"' in text) == 1

        page.goto(f"{shared_server.url}/table?room={room}&invite={INVITATIONS[room][1]}")  # already used
        notice = page.locator("#notice")
        notice.wait_for()
        assert "this invitation was used" in notice.inner_text()
        page.goto(f"{shared_server.url}/table?room={room}&seat=0")  # a room's id is no invitation
        notice.wait_for()
        assert "no invitation" in page.locator("#notice").inner_text()
        page.goto(f"{shared_server.url}/table?room={room}&invite={INVITATIONS[room][0]}")  # seat 0's is
        table.wait_ready()
        assert table.attr("data-seat") == "0" and "token=" in page.url
    finally:
        table.close()
