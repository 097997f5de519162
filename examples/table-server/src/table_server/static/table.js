// The Tamalou table page: plain JavaScript, no build step, no library.
//
// At "/" it shows a lobby (rules, players, bots) that creates a room and sits at seat 0. At
// "/table?room=ID&token=T" it plays that seat: it opens the websocket "/ws/ID", says hello with its
// token and the number of events it already has, and draws what the server sends: the seat's own view
// of the table, the legal actions, the events as words. "/table?room=ID&invite=CODE" (an invitation) first
// takes the seat that invitation was made for, then plays it.
//
// The page never invents an action: every action it sends is one of the `legal` list it received,
// picked by the button or the card(s) the player clicked. The server validates it again anyway.
//
// Stable hooks for tests and scripts: the table root carries data-seat, data-seq, data-updates, data-phase,
// data-turn, data-to-act, data-my-move, data-over; each card is an element with data-seat, data-slot and,
// only when this seat knows it, data-card (the card code, e.g. "10H"); clickable cards have
// data-clickable; each action button has data-action (the action type) and data-legal (its JSON).
"use strict";

(() => {
  // ------------------------------------------------------------------ small DOM helpers

  const $ = (id) => document.getElementById(id);

  /** An element: `h("div", {class: "x", "data-seat": 1}, "text", otherNode)`. */
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "onclick") node.addEventListener("click", value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function showNotice(text, kind = "error") {
    const box = $("notice");
    box.textContent = text;
    box.dataset.kind = kind;
    box.hidden = !text;
  }

  async function api(method, path, body) {
    const response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try {
      data = await response.json();
    } catch (_) {
      data = null;
    }
    if (!response.ok) {
      const reason = data && data.error ? data.error : `${response.status} ${response.statusText}`;
      throw new Error(reason);
    }
    return data;
  }

  // ------------------------------------------------------------------ cards and words

  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

  /** How a card code reads: "10H" -> {rank: "10", suit: "♥", red: true}; "JK1" -> a joker. */
  function face(code) {
    const standard = /^(10|[2-9AJQK])([SHDC])$/.exec(code);
    if (standard) {
      const [, rank, suit] = standard;
      return { rank, suit: SUITS[suit], red: "HD".includes(suit) };
    }
    if (/^JK\d$/.test(code)) return { rank: "★", suit: "joker", red: false, joker: true };
    return { rank: code, suit: "", red: false }; // a deck without suits: the rank alone
  }

  /** A card inside a sentence: its face, or "a card" when this seat did not see it. */
  function cardWord(code) {
    if (code === null || code === undefined) return "a card";
    const f = face(code);
    const text = f.joker ? "Joker" : f.rank + f.suit;
    return h("span", { class: `card-word${f.red ? " red" : ""}`, "data-card": code }, text);
  }

  function cardList(codes) {
    if (!Array.isArray(codes)) return ["some cards"];
    const out = [];
    codes.forEach((c, i) => out.push(i ? ", " : "", cardWord(c)));
    return out;
  }

  const POWER_TITLES = {
    peek_own: "look at one of your own cards",
    peek_opponent: "look at one card of an opponent",
    blind_swap: "swap one of your cards with one of an opponent's, nobody looking",
    look_and_swap: "look at one card of an opponent, then swap it with one of yours, or not",
    play_again: "play again: draw once more, from the stock",
    swap_then_look: "swap one of your cards with another player's card, then look at the card you received",
    look_both_and_swap: "look at one of your cards and one of an opponent's, then swap those two, or not",
    swap_any_blind: "swap any two cards on the table, of two different layouts, nobody looking",
    look_any_two_and_swap: "pick any two cards of two different layouts, look at both, then swap them, or not",
    give_stock_card: "give the stock's top card, face down and seen by nobody, to another player",
  };

  function powerWords(name) {
    if (typeof name !== "string") return "a power";
    return POWER_TITLES[name] || name.replace(/_/g, " ");
  }

  /** What a call is named in the rulesets that name it (the ruleset's own name, for the French family). */
  const CALL_WORDS = {
    cabo: "Cabo",
    kaboo: "Kaboo",
    cambia: "Cambia",
    dutch: "Dutch",
    gabo: "Gabo",
    cartalogue: "Tamalo",
  };
  function callWord() {
    const ruleset = String(app.ruleset || "");
    const found = Object.keys(CALL_WORDS).find((k) => ruleset === k || ruleset.startsWith(`${k}-`));
    return found ? CALL_WORDS[found] : "Tamalou";
  }

  const PHASES = {
    peek: "choosing cards to peek at",
    opening: "opening peek",
    draw: "draw",
    hold: "holding a drawn card",
    power: "power on offer",
    swap: "swap or not",
    call: "end of the turn",
    give: "a card is owed",
    countdown: "last countdown",
    closing: "last chance to match",
    window: "matching window",
    over: "round over",
  };

  const REASONS = {
    called: "the call came back round",
    turn_limit: "the turn limit was reached",
    no_card_to_draw: "nothing was left to draw",
    emptied: "a layout was emptied",
    last_player: "one player was left",
    no_player_left: "nobody was left",
    stock_out: "the stock ran out",
  };

  // ------------------------------------------------------------------ the page's state

  const app = {
    room: null,
    token: null,
    seat: null,
    ruleset: "",
    players: 0,
    events: [], // every event this seat received, in order (for_player(seat) dicts)
    state: null, // the last STATE
    clock: null, // {now, at}: the server's game time and performance.now() when it arrived
    selection: [], // the cards clicked so far, as "seat:slot" keys, for actions naming several cards
    connected: false, // the socket is open and welcomed
    updates: 0, // how many states arrived (welcome and updates): tests wait on it
    pending: false, // an action was sent: wait for the answer before sending another
    socket: null,
    retries: 0,
    closedForGood: false,
    room_info: null, // GET /api/rooms/ID: bots' names, free seats (no card)
    invitations: null, // seat -> invitation code, in the page that created the room
  };

  const name = (p) => {
    if (p === app.seat) return "You";
    const bot = app.room_info && app.room_info.bots ? app.room_info.bots[String(p)] : null;
    return bot ? `P${p} (${bot})` : `P${p}`;
  };
  /** The subject of a sentence: "You draw" / "P1 draws". */
  const subject = (p, third, second) => (p === app.seat ? `You ${second}` : `${name(p)} ${third}`);
  /** The object: "you" / "P1". */
  const object = (p) => (p === app.seat ? "you" : name(p));
  /** Possessive: "your" / "P1's". */
  const whose = (p) => (p === app.seat ? "your" : `${name(p)}'s`);
  const names = (ps) => (Array.isArray(ps) && ps.length ? ps.map(object).join(", ") : "nobody");
  /** Whose card, from the actor's side: "your" / "their" (the actor's own), or "P1's" / "your" (another's). */
  const owned = (actor, owner) => {
    if (owner === undefined || owner === null || owner === actor) return actor === app.seat ? "your" : "their";
    return whose(owner);
  };
  const slotList = (slots) => (Array.isArray(slots) ? slots.join(", ") : String(slots));
  const seconds = (t) => (typeof t === "number" ? `${Math.round(t * 10) / 10} s` : "?");

  // ------------------------------------------------------------------ the events in words

  /** One event as a list of sentence parts (text and card nodes). Every event type of tamalou is said;
   *  an unknown one (a plugin's) reads as its type and facts. */
  function describe(e) {
    const p = e.player;
    switch (e.type) {
      case "dealt":
        return [
          `Dealt: ${e.players} players, ${Array.isArray(e.slots) ? e.slots.join("/") : e.slots} cards each; `,
          e.discard_top ? ["the discard shows ", cardWord(e.discard_top)] : "no card on the discard",
          `. ${subject(e.first_player, "starts", "start")}.`,
        ];
      case "peeked":
        // the cards are there for the one who peeked only (null for the others)
        if (!e.cards) return [subject(p, "peeks", "peek"), ` at slots ${slotList(e.slots)}`];
        return [subject(p, "peeks", "peek"), ` at slots ${slotList(e.slots)}: `, cardList(e.cards)];
      case "turn":
        return [`Turn ${e.turn + 1}: ${p === app.seat ? "your turn" : name(p)}`];
      case "drew":
        return [subject(p, "draws", "draw"), " ", cardWord(e.card), ` from the ${e.source}`];
      case "replaced":
        return [subject(p, "puts", "put"), ` the drawn card in slot ${e.slot} and throws `, cardWord(e.card)];
      case "discarded":
        return [subject(p, "throws", "throw"), " ", cardWord(e.card)];
      case "power_offered": {
        const verb = e.must ? "must use" : "may use";
        return [subject(p, verb, verb), ` a power: ${powerWords(e.power)}`];
      }
      case "power_passed":
        return [subject(p, "may use", "may use"), ` the power passed on, instead of drawing: ${powerWords(e.power)}`];
      case "looked":
        return [subject(p, "looks", "look"), ` at ${owned(p, e.owner)} slot ${e.slot}: `, cardWord(e.card)];
      case "turned_up": // a card turned face up for everyone where it lies (by someone else: "by")
        if ("by" in e) return [subject(e.by, "turns up", "turn up"), ` ${whose(p)} slot ${e.slot}: `, cardWord(e.card)];
        return [subject(p, "turns up", "turn up"), ` ${owned(p)} slot ${e.slot}: `, cardWord(e.card)];
      case "swapped":
        // with an owner: two cards of which neither need be the player's
        return [
          subject(p, "swaps", "swap"),
          ` ${"owner" in e ? whose(e.owner) : owned(p)} slot ${e.slot} with ${whose(e.target)} slot ${e.target_slot}`,
        ];
      case "passed":
        return [subject(p, ...PASSES[e.phase] || [`passes (${e.phase})`, `pass (${e.phase})`])];
      case "called": {
        const verdict = "right" in e ? ` (${e.right ? "right" : "wrong"}: ${e.total} points)` : "";
        return [subject(p, "calls", "call"), ` ${callWord()}!${verdict}`];
      }
      case "last_lap": // a round that ends without a call (Golf: a player's cards all face up)
        return [subject(p, "begins", "begin"), ` the last lap (${String(e.reason).replace(/_/g, " ")}): every other player plays once more`];
      case "matched":
        return [subject(p, "matches", "match"), ` with ${owned(p, e.owner)} `, cardWord(e.card), ` (slot ${e.slot})`];
      case "missed":
        return [
          subject(p, "misses", "miss"),
          ` with ${owned(p, e.owner)} `,
          cardWord(e.card),
          ` (slot ${e.slot}): it goes back`,
        ];
      case "late":
        return [subject(p, "is", "are"), " too late with ", cardWord(e.card), ` (slot ${e.slot}): it goes back`];
      case "penalty":
        return [subject(p, "takes", "take"), ` a penalty card, face down, in slot ${e.slot}`];
      case "penalty_capped":
        return [subject(p, "is", "are"), ` spared ${e.spared} penalty card(s): at most ${e.cap} cards in a layout`];
      case "no_penalty_card":
        return [`No card left for ${whose(p)} penalty`];
      case "give_owed":
        return [subject(p, "owes", "owe"), ` ${object(e.owner)} ${e.count} card(s)`];
      case "gave":
        return [subject(p, "gives", "give"), ` ${owned(p)} slot ${e.slot} to ${whose(e.target)} slot ${e.target_slot}`];
      case "given":
        return [subject(e.by, "gives", "give"), ` ${object(p)} the stock's top card, unseen, in slot ${e.slot}`];
      case "exchanged":
        return [
          subject(p, "throws", "throw"),
          " ",
          cardList(e.cards),
          ` from slots ${slotList(e.slots)} (${e.right ? "right" : "wrong: they go back"})`,
        ];
      case "reshuffled":
        return [`The discard is shuffled into a new stock of ${e.stock_size} cards`];
      case "skipped":
        return [subject(p, "misses", "miss"), ` the turn${e.reason ? ` (${e.reason})` : ""}`];
      case "draw_offered":
        return [subject(p, "may draw", "may draw"), " again"];
      case "play_again":
        return [subject(p, "plays", "play"), " again"];
      case "closing":
        return [`Last chance to match the last card thrown: ${names(e.players)}`];
      case "window":
        return ["The window on ", cardWord(e.card), ` is open: ${names(e.players)} may match or pass`];
      case "window_closed":
        return ["The window is closed"];
      case "opening":
        return [`The opening peek lasts until ${seconds(e.until)}`];
      case "opening_over":
        return [`The opening peek is over (${seconds(e.at)})`];
      case "countdown":
        return [`Last chance to match, until ${seconds(e.until)}`];
      case "timeout":
        return [subject(p, "runs", "run"), ` out of time (${PHASES[e.phase] || e.phase}, ${seconds(e.at)})`];
      case "left":
        return [subject(p, "runs", "run"), " out of clock and leave", p === app.seat ? "" : "s", " the round"];
      case "no_card":
        return [`No card left to deal to ${object(p)}`];
      case "round_over": {
        const reason = REASONS[e.reason] || String(e.reason).replace(/_/g, " ");
        const totals = Array.isArray(e.totals) ? e.totals.map((t, q) => `${name(q)} ${t}`).join(", ") : "";
        return [`Round over: ${reason}. Totals: ${totals}. Won: ${names(e.winners)}`];
      }
      default: {
        const facts = Object.entries(e)
          .filter(([k]) => k !== "type")
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(", ");
        return [`${String(e.type).replace(/_/g, " ")}${facts ? ": " + facts : ""}`];
      }
    }
  }

  const PASSES = {
    power: ["declines the power", "decline the power"],
    swap: ["does not swap", "do not swap"],
    give: ["gives no card", "give no card"],
    draw: ["does not draw again", "do not draw again"],
    call: ["ends the turn without calling", "end the turn without calling"],
    closing: ["lets the last chance to match go", "let the last chance to match go"],
    window: ["lets the window go", "let the window go"],
  };

  function logLine(e, index) {
    let parts;
    try {
      parts = describe(e);
    } catch (_) {
      parts = [`${e.type}: ${JSON.stringify(e)}`];
    }
    return h("li", { class: `event event-${e.type}`, "data-type": e.type, "data-index": index }, parts);
  }

  // ------------------------------------------------------------------ actions and the cards they name

  const key = (seat, slot) => `${seat}:${slot}`;

  /** The cards an action names, as "seat:slot" keys (none for draw, discard, pass, call...). */
  function cardsOf(a) {
    const out = [];
    const owner = typeof a.owner === "number" ? a.owner : a.player;
    if (Array.isArray(a.slots)) for (const s of a.slots) out.push(key(owner, s));
    if (typeof a.slot === "number") out.push(key(a.type === "power" ? owner : a.player, a.slot));
    if (typeof a.target === "number" && typeof a.target_slot === "number") out.push(key(a.target, a.target_slot));
    return out;
  }

  const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
  const contains = (big, small) => small.every((x) => big.includes(x));

  /** The legal actions this page may offer: all but `tick` (time is the server's). */
  function offered() {
    const legal = app.state && Array.isArray(app.state.legal) ? app.state.legal : [];
    return legal.filter((a) => a.type !== "tick" && (typeof a.player !== "number" || a.player === app.seat));
  }

  /** Whether the table waits for this seat (a move to make, not only a chance to match). */
  function myMove() {
    const state = app.state;
    const toAct = state.to_act || state.view.to_act || [];
    return !state.over && toAct.includes(app.seat) && offered().some((a) => a.type !== "match");
  }

  /** The words of a button for an action: the library's (``Action.describe``, sent beside each legal action), else
   * the page's own. */
  function actionLabel(a) {
    const words = Array.isArray(app.state.words) ? app.state.words[app.state.legal.indexOf(a)] : undefined;
    if (typeof words === "string" && words) return [words.charAt(0).toUpperCase() + words.slice(1)];
    return pageLabel(a);
  }

  /** The page's own words for an action (a server that sends none). */
  function pageLabel(a) {
    const view = app.state.view;
    switch (a.type) {
      case "draw":
        if (a.source === "discard") return ["Take the discard (", cardWord(view.discard_top), ")"];
        return ["Draw from the stock"];
      case "discard":
        return ["Throw ", cardWord(view.held)];
      case "replace":
        return [`Put it in slot ${a.slot}`];
      case "call":
        return [`Call ${callWord()}!`];
      case "pass":
        return [
          {
            power: "Skip the power",
            swap: "Don't swap",
            give: "Give nothing",
            draw: "Don't draw again",
            call: "End the turn",
            closing: "No match: pass",
            window: "No match: pass",
          }[view.phase] || "Pass",
        ];
      case "match":
        return [`Match with ${owned(a.player, a.owner)} slot${a.slots.length > 1 ? "s" : ""} ${slotList(a.slots)}`];
      case "peek":
        return [`Peek at slots ${slotList(a.slots)}`];
      case "swap":
        return [`Swap it with your slot ${a.slot}`];
      case "give":
        return [`Give your slot ${a.slot}`];
      case "flip":
        return [`Turn up your slot ${a.slot}`];
      case "exchange_equal": // cabo: claim equal cards, throw them all and keep the drawn card
        return [`Throw slots ${slotList(a.slots)} as equal cards and keep the drawn one`];
      case "power": {
        const cards = cardsOf(a);
        if (!cards.length && typeof a.target === "number") return [`Use the power on ${object(a.target)}`];
        if (!cards.length) return [`Use the power: ${powerWords(view.power)}`];
        const said = cards.map((k) => {
          const [seat, slot] = k.split(":").map(Number);
          return `${whose(seat)} slot ${slot}`;
        });
        return [`Use the power on ${said.join(" and ")}`];
      }
      default: {
        const facts = Object.entries(a)
          .filter(([k]) => k !== "type" && k !== "player")
          .map(([k, v]) => `${k} ${JSON.stringify(v)}`);
        return [`${a.type.replace(/_/g, " ")}${facts.length ? " (" + facts.join(", ") + ")" : ""}`];
      }
    }
  }

  function send(action) {
    if (!app.socket || app.socket.readyState !== WebSocket.OPEN || app.pending) return;
    app.pending = true;
    app.selection = [];
    showNotice(""); // a refusal shown earlier is answered by this new move
    app.socket.send(JSON.stringify({ type: "action", action }));
    renderTable();
  }

  /** A click on a card: add it to the selection; send the action once the selection names exactly one. */
  function clickCard(seat, slot) {
    if (app.pending) return;
    const actions = offered().map((a) => ({ a, cards: cardsOf(a) })).filter((x) => x.cards.length);
    const k = key(seat, slot);
    let selection = app.selection.includes(k) ? app.selection.filter((x) => x !== k) : [...app.selection, k];
    let candidates = actions.filter((x) => contains(x.cards, selection));
    if (selection.length && !candidates.length) {
      selection = [k]; // a card that goes with none of the cards chosen so far: start again from it
      candidates = actions.filter((x) => contains(x.cards, selection));
      if (!candidates.length) return;
    }
    const exact = candidates.filter((x) => sameSet(x.cards, selection));
    if (exact.length === 1 && candidates.length === 1) {
      send(exact[0].a);
      return;
    }
    app.selection = selection;
    renderTable();
  }

  // ------------------------------------------------------------------ drawing the table

  function cardNode(seat, slot, code, attrs = {}) {
    const known = code !== null && code !== undefined;
    const f = known ? face(code) : null;
    const classes = ["card", known ? "face-up" : "face-down"];
    if (f && f.red) classes.push("red");
    if (f && f.joker) classes.push("joker");
    if (attrs.clickable) classes.push("clickable");
    if (attrs.selected) classes.push("selected");
    if (attrs.candidate) classes.push("candidate");
    const node = h(
      attrs.clickable ? "button" : "div",
      {
        class: classes.join(" "),
        type: attrs.clickable ? "button" : null,
        "data-seat": seat,
        "data-slot": slot,
        "data-card": known ? code : null,
        "data-clickable": attrs.clickable ? "true" : null,
        "data-selected": attrs.selected ? "true" : null,
        title: slot === null ? null : `slot ${slot}`,
        "aria-label": known ? (f.joker ? "Joker" : `${f.rank}${f.suit}`) : "face-down card",
      },
      known
        ? [h("span", { class: "rank" }, f.rank), h("span", { class: "suit" }, f.suit)]
        : h("span", { class: "back" }),
      slot === null ? null : h("span", { class: "slot-number" }, slot),
    );
    if (attrs.clickable) node.addEventListener("click", () => clickCard(seat, slot));
    return node;
  }

  /** The little labels by a seat's name: to play, caller, holding a card, locked... */
  function seatMarks(view, p) {
    const mark = (kind, text, attrs = {}) => h("span", { class: `mark ${kind}`, ...attrs }, text);
    const marks = [];
    const playing = !view.is_over && view.phase !== "opening"; // in the opening peek nobody plays yet
    if (playing && view.current_player === p) marks.push(mark("turn", "to play"));
    else if (playing && (view.to_act || []).includes(p)) marks.push(mark("waiting", "to answer"));
    if (view.caller === p) marks.push(mark("caller", `called ${callWord()}`));
    if (view.holding === p) marks.push(mark("holding", "holds a card"));
    if (view.giver === p) marks.push(mark("giver", "must give a card"));
    if ((view.left || []).includes(p)) marks.push(mark("left", "left the round"));
    if ((view.absent || [])[p]) marks.push(mark("absent", "absent"));
    const locked = (view.locked_until || [])[p];
    if (typeof locked === "number") {
      marks.push(mark("locked", `matching locked until ${seconds(locked)}`, { "data-locked-until": locked }));
    }
    const free = app.room_info && Array.isArray(app.room_info.free) ? app.room_info.free : [];
    if (free.includes(p)) marks.push(mark("free", "invited, not seated yet"));
    return marks;
  }

  /** One seat: its name, its marks and its cards, face down or known (data-card only when known). */
  function seatNode(view, p, clickable, candidates) {
    const hand = view.hands[p] || [];
    const cards = hand.map((s) =>
      cardNode(p, s.slot, s.card, {
        clickable: clickable.has(key(p, s.slot)),
        selected: app.selection.includes(key(p, s.slot)),
        candidate: candidates.has(key(p, s.slot)),
      }),
    );
    const classes = ["seat"];
    if (p === app.seat) classes.push("me");
    if (view.current_player === p && !view.is_over) classes.push("current");
    return h(
      "div",
      { class: classes.join(" "), "data-seat": p, "data-cards": hand.length },
      h("div", { class: "seat-name" }, h("strong", {}, p === app.seat ? `You (P${p})` : name(p)), seatMarks(view, p)),
      h("div", { class: "cards" }, cards.length ? cards : h("span", { class: "empty" }, "no card")),
    );
  }

  const faceDown = () => h("div", { class: "card face-down" }, h("span", { class: "back" }));
  const emptyPile = () => h("div", { class: "card empty-pile" });
  const label = (text) => h("div", { class: "pile-label" }, text);

  /** The middle of the table: the stock, the discard (its top card and size), the card held now. */
  function middleNode(view) {
    const stock = h(
      "div",
      { class: "pile stock", "data-pile": "stock", "data-count": view.stock_size },
      view.stock_size > 0 ? faceDown() : emptyPile(),
      label(`Stock: ${view.stock_size}`),
    );
    const discardSize = Array.isArray(view.discard) ? view.discard.length : 0;
    const discard = h(
      "div",
      { class: "pile discard", "data-pile": "discard", "data-count": discardSize },
      view.discard_top ? cardNode(null, null, view.discard_top) : emptyPile(),
      label(`Discard: ${discardSize}`),
    );
    let held = null;
    if (view.held) {
      held = h("div", { class: "pile held", "data-pile": "held" }, cardNode(null, null, view.held), label("You hold"));
    } else if (typeof view.holding === "number") {
      held = h(
        "div",
        { class: "pile held", "data-pile": "held", "data-holder": view.holding },
        faceDown(),
        label(`${name(view.holding)} holds`),
      );
    }
    return [stock, discard, held];
  }

  /** What the seat may do now, in words (a list of sentence parts). */
  function hintParts(view, actions) {
    const state = app.state;
    const toAct = state.to_act || view.to_act || [];
    if (state.over) return ["The game is over."];
    if (!app.connected) return ["The connection is lost: reconnecting…"];
    if (app.pending) return ["Sent: waiting for the table…"];
    if (app.selection.length) {
      const more = actions.some((a) => cardsOf(a).length > app.selection.length && contains(cardsOf(a), app.selection));
      return [
        more ? "Click a highlighted card to complete the move, or pick a button. " : "Pick what to do with it. ",
        "Clicking a chosen card again drops it.",
      ];
    }
    const byCard = new Set(actions.filter((a) => cardsOf(a).length).map((a) => a.type));
    const matching = byCard.has("match")
      ? ["match the discard top (", cardWord(view.discard_top), ") by clicking one of your cards"]
      : null;
    if (!myMove()) {
      const others = toAct.filter((p) => p !== app.seat);
      const waiting =
        view.phase === "opening"
          ? "Opening peek: look at your cards while the time runs."
          : others.length
            ? `Waiting for ${names(others)}.`
            : "Waiting for the table.";
      return matching ? [waiting, " You may ", matching, "."] : [waiting];
    }
    const lead = {
      draw: ["Draw a card."],
      hold: actions.some((a) => a.type === "discard")
        ? ["You hold ", cardWord(view.held), ": throw it, or click one of your cards to put it there."]
        : ["You hold ", cardWord(view.held), ": click one of your cards to put it there."],
      power: [`Power: ${powerWords(view.power)}. Click the card(s) it uses, or skip it.`],
      swap: ["Click one of your cards to swap it with the card you looked at, or do not swap."],
      peek: ["Click the cards you want to peek at."],
      give: ["Click one of your cards to give it."],
      call: [`Call ${callWord()}, or end your turn.`],
      closing: ["Last chance: match the discard top, or pass."],
      window: ["Match the card just thrown, or pass."],
      countdown: ["Last chance to match."],
    }[view.phase] || ["Your move."];
    if (view.phase === "power" && !byCard.size) lead.splice(0, lead.length, `Power: ${powerWords(view.power)}.`);
    return matching && !["closing", "window", "countdown"].includes(view.phase) ? [lead, " Or ", matching, "."] : lead;
  }

  function renderStatus(view) {
    const state = app.state;
    const round = typeof state.round === "number" && state.round > 0 ? `Round ${state.round + 1} · ` : "";
    $("status-turn").textContent = `${round}Turn ${view.turn + 1}`;
    $("status-phase").textContent = PHASES[view.phase] || view.phase;
    const toAct = state.to_act || view.to_act || [];
    let who;
    const others = toAct.filter((p) => p !== app.seat);
    if (state.over) who = "Game over";
    else if (myMove()) who = "Your move";
    else if (view.phase === "opening") who = "Everybody looks at their cards";
    else who = `${names(others.length ? others : toAct)} to move`;
    $("status-who").textContent = who;
    $("status-who").dataset.mine = myMove() ? "true" : "false";
    const caller = view.caller;
    $("status-caller").textContent = typeof caller === "number" ? `${name(caller)} called ${callWord()}` : "";
    renderTimer();
  }

  /** The countdown to the deadline the server announced, counted down locally between its messages. */
  function renderTimer() {
    const node = $("timer");
    const state = app.state;
    const deadline = state ? (typeof state.deadline === "number" ? state.deadline : state.view.deadline) : null;
    if (!state || state.over || typeof deadline !== "number" || !app.clock) {
      node.hidden = true;
      delete node.dataset.deadline;
      return;
    }
    const now = app.clock.now + (performance.now() - app.clock.at) / 1000;
    const left = Math.max(0, deadline - now);
    node.hidden = false;
    node.dataset.deadline = String(deadline);
    node.dataset.now = String(app.clock.now);
    node.dataset.remaining = left.toFixed(1);
    const what =
      { opening: "Opening peek ends in", countdown: "Last chance ends in" }[state.view.phase] || "Turn ends in";
    node.textContent = `${what} ${left.toFixed(1)} s`;
    node.classList.toggle("urgent", left < 5);
  }

  function renderButtons(actions) {
    const box = $("buttons");
    box.replaceChildren();
    const withCards = actions.map((a) => ({ a, cards: cardsOf(a) }));
    let shown;
    if (app.selection.length) {
      // the actions naming exactly the chosen cards (a card may start a match or a power, say)
      shown = withCards.filter((x) => sameSet(x.cards, app.selection)).map((x) => x.a);
    } else {
      shown = withCards.filter((x) => !x.cards.length).map((x) => x.a);
    }
    for (const a of shown) {
      box.append(
        h(
          "button",
          {
            type: "button",
            class: `action action-${a.type}${a.type === "call" ? " primary" : ""}`,
            "data-action": a.type,
            "data-legal": JSON.stringify(a),
            disabled: app.pending,
            onclick: () => send(a),
          },
          actionLabel(a),
        ),
      );
    }
    if (app.selection.length) {
      const cancel = () => {
        app.selection = [];
        renderTable();
      };
      const attrs = { type: "button", class: "action cancel", "data-action": "cancel", onclick: cancel };
      box.append(h("button", attrs, "Cancel"));
    }
  }

  function resultTable(result, winners) {
    const place = (p) => {
      const i = (result.ranking || []).findIndex((group) => group.includes(p));
      return i < 0 ? "" : String(i + 1);
    };
    const head = ["Player", "Points"];
    if (Array.isArray(result.scores)) head.push("Score");
    if (Array.isArray(result.card_counts)) head.push("Cards");
    head.push("Place");
    const rows = [];
    for (let p = 0; p < app.players; p++) {
      const cells = [
        h("td", {}, p === app.seat ? `You (P${p})` : name(p)),
        h("td", { "data-total": "" }, (result.totals || [])[p]),
      ];
      if (Array.isArray(result.scores)) cells.push(h("td", { "data-score": "" }, result.scores[p]));
      if (Array.isArray(result.card_counts)) cells.push(h("td", {}, result.card_counts[p]));
      cells.push(h("td", {}, place(p)));
      rows.push(h("tr", { "data-seat": p, class: winners.includes(p) ? "winner" : null }, cells));
    }
    return h("table", {}, h("thead", {}, h("tr", {}, head.map((x) => h("th", {}, x)))), h("tbody", {}, rows));
  }

  /** The end: the last round's result and, for a match of several rounds, each round's scores. */
  function renderResult() {
    const box = $("result");
    const state = app.state;
    const round = state.result || state.view.result;
    const match = state.match;
    if (!state.over || !(round || match)) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    box.hidden = false;
    const several = match && Array.isArray(match.rounds) && match.rounds.length > 1;
    const decisive = several || !round ? match : round;
    const winners = Array.isArray(decisive.winners) ? decisive.winners : [];
    const title = !winners.length
      ? "Nobody wins"
      : winners.includes(app.seat)
        ? winners.length > 1 ? "You share the win!" : "You win!"
        : `${names(winners)} win${winners.length > 1 ? "" : "s"}`;
    box.append(h("h2", { "data-winners": winners.join(" ") }, title));
    if (round) {
      const reason = REASONS[round.reason] || String(round.reason || "").replace(/_/g, " ");
      const caller = typeof round.caller === "number" ? `${name(round.caller)} called. ` : "";
      box.append(
        h("p", { class: "hint" }, `${several ? "Last round: " : ""}${caller}The round ended: ${reason}.`),
        resultTable(round, round.winners || []),
      );
    }
    if (several) {
      box.append(
        h("h3", {}, "The match"),
        h(
          "table",
          { class: "rounds" },
          h("thead", {}, h("tr", {}, h("th", {}, "Round"), match.totals.map((_, p) => h("th", {}, name(p))))),
          h(
            "tbody",
            {},
            match.rounds.map((scores, r) => h("tr", {}, h("td", {}, r + 1), scores.map((s) => h("td", {}, s)))),
            h("tr", { class: "match-total" }, h("td", {}, "Total"), match.totals.map((t) => h("td", {}, t))),
          ),
        ),
      );
    }
    box.append(h("p", {}, h("a", { href: "/" }, "Start another table")));
  }

  function copy(text) {
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  }

  /** The invitations of the rooms this browser created: seat -> code (only the host has them). */
  function invitationsOf(room) {
    try {
      return JSON.parse(localStorage.getItem(`tamalou-invitations-${room}`) || "{}") || {};
    } catch (_) {
      return {};
    }
  }

  function keepInvitations(room, invitations) {
    try {
      localStorage.setItem(`tamalou-invitations-${room}`, JSON.stringify(invitations || {}));
    } catch (_) {
      // private browsing: the links are shown while this page is open only
    }
    app.invitations = invitations || {};
  }

  /** Links that give the free seats to the players they are sent to (while the room has free seats): each
   * link carries the invitation of one seat, and takes that seat only. */
  function renderInvitations() {
    const info = app.room_info;
    const codes = app.invitations || invitationsOf(app.room);
    const free = info && Array.isArray(info.free) ? info.free.filter((p) => codes[String(p)]) : [];
    const box = $("invite");
    box.hidden = !free.length || Boolean(app.state && app.state.over);
    const list = $("invite-links");
    list.replaceChildren();
    for (const p of free) {
      const code = encodeURIComponent(codes[String(p)]);
      const url = `${location.origin}/table?room=${encodeURIComponent(app.room)}&invite=${code}`;
      list.append(
        h(
          "li",
          {},
          `P${p}: `,
          h("a", { href: url, "data-invite-seat": p, target: "_blank", rel: "noopener" }, url),
          " ",
          h("button", { type: "button", class: "copy", onclick: () => copy(url) }, "Copy"),
        ),
      );
    }
  }

  function renderTable() {
    const state = app.state;
    if (!state) return;
    const view = state.view;
    const root = $("table");
    root.dataset.seat = String(app.seat);
    root.dataset.seq = String(app.events.length);
    root.dataset.updates = String(app.updates);
    root.dataset.phase = view.phase;
    root.dataset.turn = String(view.turn);
    root.dataset.toAct = (state.to_act || view.to_act || []).join(" ");
    root.dataset.myMove = myMove() ? "true" : "false";
    root.dataset.over = state.over ? "true" : "false";
    root.dataset.pending = app.pending ? "true" : "false";
    if (typeof state.round === "number") root.dataset.round = String(state.round);

    const actions = app.pending || state.over || !app.connected ? [] : offered();
    const cardActions = actions.map(cardsOf).filter((c) => c.length);
    const clickable = new Set(cardActions.flat());
    // the cards that would complete the cards chosen so far into some action
    const fitting = app.selection.length ? cardActions.filter((c) => contains(c, app.selection)).flat() : [];
    const candidates = new Set(fitting.filter((k) => !app.selection.includes(k)));

    renderStatus(view);
    const order = [];
    for (let i = 1; i < view.players; i++) order.push((app.seat + i) % view.players);
    $("opponents").replaceChildren(...order.map((p) => seatNode(view, p, clickable, candidates)));
    $("middle").replaceChildren(...middleNode(view).filter(Boolean));
    $("mine").replaceChildren(seatNode(view, app.seat, clickable, candidates));
    $("hint").replaceChildren(h("span", {}, hintParts(view, actions)));
    renderButtons(actions);
    renderResult();
    renderInvitations();
  }

  function appendEvents(events) {
    const log = $("log");
    for (const e of events) {
      log.append(logLine(e, app.events.length));
      app.events.push(e);
    }
    log.scrollTop = log.scrollHeight;
  }

  // ------------------------------------------------------------------ the websocket

  function setConnection(status, text) {
    const node = $("connection");
    node.dataset.connection = status;
    node.textContent = text;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.room)}`);
    app.socket = socket;
    setConnection("connecting", "connecting…");
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: app.token, since: app.events.length }));
    });
    socket.addEventListener("message", (message) => {
      let data;
      try {
        data = JSON.parse(message.data);
      } catch (_) {
        return;
      }
      receive(data);
    });
    socket.addEventListener("close", (closing) => {
      if (app.socket !== socket) return;
      app.socket = null;
      app.pending = false;
      app.connected = false;
      renderTable();
      // 4401: the token is not this room's; 4404: no such room. Trying again would not help.
      if (closing.code === 4401 || closing.code === 4404 || app.closedForGood) {
        setConnection("closed", "disconnected");
        return;
      }
      const delay = Math.min(5000, 250 * 2 ** app.retries++);
      setConnection("reconnecting", "reconnecting…");
      setTimeout(connect, delay);
    });
  }

  function receive(data) {
    if (data.type === "welcome") {
      app.retries = 0;
      app.connected = true;
      app.seat = data.seat;
      app.players = data.players;
      app.ruleset = data.ruleset;
      $("ruleset-title").textContent = data.ruleset || "";
      setConnection("open", `connected as P${data.seat}`);
      showNotice("");
      if (typeof data.seq === "number" && app.events.length + (data.events || []).length !== data.seq) {
        // the server's numbering and ours differ (a new server, say): take the whole stream again
        app.events = [];
        $("log").replaceChildren();
        app.socket.close(4000, "resync");
        return;
      }
      appendEvents(data.events || []);
      setState(data.state);
      refreshRoomInfo();
    } else if (data.type === "update") {
      appendEvents(data.events || []);
      setState(data.state);
      if (app.room_info && app.room_info.free && app.room_info.free.length) refreshRoomInfo();
    } else if (data.type === "notice") {
      showNotice(data.text || "");
    } else if (data.type === "error") {
      app.pending = false;
      showNotice(data.reason || "error");
      if (!app.state) app.closedForGood = true; // refused at hello: a bad token
      renderTable();
    }
  }

  function setState(state) {
    app.state = state;
    app.updates += 1;
    app.pending = Boolean(state.busy); // the bots are answering: the next update comes at once
    app.clock = { now: typeof state.now === "number" ? state.now : state.view.now || 0, at: performance.now() };
    // a selection made against older actions may no longer fit any: drop it
    const actions = offered().map(cardsOf);
    if (!actions.some((c) => contains(c, app.selection))) app.selection = [];
    renderTable();
  }

  async function refreshRoomInfo() {
    try {
      app.room_info = await api("GET", `/api/rooms/${encodeURIComponent(app.room)}`);
      if (app.room_info.title) $("ruleset-title").textContent = app.room_info.title;
      renderTable();
    } catch (_) {
      // the room's facts are a nicety (bot names, invitations): the table plays without them
    }
  }

  function startTable(room, token) {
    app.room = room;
    app.token = token;
    $("lobby").hidden = true;
    $("table").hidden = false;
    connect();
    setInterval(renderTimer, 100);
  }

  async function takeSeat(room, invitation) {
    try {
      const answer = await api("POST", `/api/rooms/${encodeURIComponent(room)}/join`, { invitation });
      history.replaceState(null, "", answer.url);
      startTable(room, answer.token);
    } catch (error) {
      showNotice(`Could not take the seat of this invitation: ${error.message}`);
      $("table").hidden = true;
      $("lobby").hidden = true;
    }
  }

  // ------------------------------------------------------------------ the lobby

  const BOT_NAMES = ["greedy", "cautious", "random"]; // tamalou's built-in bots

  async function showLobby() {
    $("lobby").hidden = false;
    $("table").hidden = true;
    let rulesets = [];
    try {
      rulesets = await api("GET", "/api/rulesets");
    } catch (error) {
      showNotice(`Could not read the rulesets: ${error.message}`);
      return;
    }
    const select = $("lobby-ruleset");
    for (const r of rulesets) {
      const [min, max] = r.players;
      const attrs = { value: r.name, "data-min": min, "data-max": max, "data-timed": r.timed ? "true" : "false" };
      select.append(h("option", attrs, `${r.title} (${r.name})${r.timed ? " · timed" : ""}`));
    }
    if (rulesets.some((r) => r.name === "french")) select.value = "french";
    const players = $("lobby-players");

    function fillPlayers() {
      const option = select.selectedOptions[0];
      const uploaded = $("lobby-toml").value.trim() !== "";
      const min = uploaded ? 2 : Number(option ? option.dataset.min : 2);
      const max = uploaded ? 8 : Number(option ? option.dataset.max : 2);
      const before = Number(players.value) || min;
      const counts = Array.from({ length: max - min + 1 }, (_, i) => min + i);
      players.replaceChildren(...counts.map((n) => h("option", { value: n }, n)));
      players.value = String(Math.min(max, Math.max(min, before)));
      $("lobby-ruleset-note").textContent = uploaded
        ? "Your uploaded rules are used (the list above is ignored)."
        : option && option.dataset.timed === "true"
          ? "Timed rules: every turn runs on the server's clock."
          : "";
      fillSeats();
    }

    function fillSeats() {
      const box = $("lobby-seats");
      const rows = [h("legend", {}, "Seats")];
      rows.push(h("div", { class: "seat-row" }, h("span", {}, "P0"), h("span", {}, "You")));
      for (let p = 1; p < Number(players.value); p++) {
        rows.push(
          h(
            "label",
            { class: "seat-row" },
            h("span", {}, `P${p}`),
            h(
              "select",
              { "data-seat": p, class: "seat-kind" },
              h("option", { value: "" }, "A player I invite"),
              BOT_NAMES.map((b) => h("option", { value: b }, `Bot: ${b}`)),
            ),
          ),
        );
      }
      box.replaceChildren(...rows);
    }

    select.addEventListener("change", fillPlayers);
    players.addEventListener("change", fillSeats);
    $("lobby-toml").addEventListener("input", fillPlayers);
    $("lobby-toml-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (file) {
        $("lobby-toml").value = await file.text();
        fillPlayers();
      }
    });
    fillPlayers();

    $("lobby-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = $("lobby-create");
      button.disabled = true;
      showNotice("");
      const body = { players: Number(players.value), bots: {} };
      const toml = $("lobby-toml").value.trim();
      if (toml) body.toml = toml;
      else body.ruleset = select.value;
      for (const kind of document.querySelectorAll(".seat-kind")) {
        if (kind.value) body.bots[kind.dataset.seat] = kind.value;
      }
      const seed = $("lobby-seed").value.trim();
      if (seed !== "") body.seed = Number(seed);
      try {
        const created = await api("POST", "/api/rooms", body);
        keepInvitations(created.room, created.invitations);
        const invitation = created.invitations["0"];
        const joined = await api("POST", `/api/rooms/${encodeURIComponent(created.room)}/join`, { invitation });
        history.replaceState(null, "", joined.url);
        startTable(created.room, joined.token);
      } catch (error) {
        showNotice(`Could not create the table: ${error.message}`);
      } finally {
        button.disabled = false;
      }
    });
  }

  // ------------------------------------------------------------------ start

  const query = new URLSearchParams(location.search);
  const room = query.get("room");
  const token = query.get("token");
  if (room && token) {
    startTable(room, token);
  } else if (room && query.get("invite")) {
    takeSeat(room, query.get("invite"));
  } else if (room) {
    showNotice("This link has no invitation: ask the host of the table for yours.");
  } else {
    showLobby();
  }
})();
