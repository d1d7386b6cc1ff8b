// A seat's page (/games/{game}/seat/{seat}) or a spectator's (/games/{game}/watch): the table, kept
// up to date over the game's WebSocket (the protocol: docs/serving.md, protocol.schema.json).
//
// A seat's page claims its seat once with the invitation after "#" in its link (POST
// /api/games/{game}/seats/{seat}) and keeps the token it gets in localStorage, so a reload, a
// dropped network or a restarted server reconnects to the same seat: each connection says hello
// with the token, and the server answers with a sync (everything the seat may know), then a state
// frame per stored move. Every move is the server's to check; a refused one shows the server's
// reason and rule ID. A spectator's page says hello with no seat and draws no hand, having none.
import { BUSY, afterClose } from "./closes.js";
import { $, drawTable, make, plural, showRefusal } from "./table.js";

const parts = location.pathname.split("/").map(decodeURIComponent); // ["", "games", game, "seat", N] or [.., "watch"]
const game = parts[2];
const seat = parts[3] === "seat" ? Number(parts[4]) : null; // null: watching
const tokenKey = `chickenfoot:${game}:seat:${seat}`;

let token = null; // the seat's token (a seat's page)
let socket = null; // the open (or opening) WebSocket
let retries = 0; // reconnections tried since the last sync
let timer = null; // the reconnection waiting to run
let table = null; // the sync's table: the game as anyone may see it (players, rounds, seats)
let log = []; // [round, player, move] for every move so far
let seq = 0; // the number of moves so far: a move is sent at this number
let view = null; // the seat's view (or the spectator's), as the server last sent it
let svg = ""; // the board drawn for this seat by the server
let selected = null; // the hand tile picked, like "9-5"

// -- what the page shows ------------------------------------------------------------------

const label = (p) => {
  if (p === seat) return "you";
  const sitter = table.seats[p];
  return sitter.kind === "bot" ? `P${p} (${sitter.name})` : `P${p}`;
};

function setConnection(status, text) {
  document.body.dataset.connection = status;
  $("status").textContent = text;
}

const ENDINGS = { blocked: "blocked, nobody could play", unfillable_foot: "a chicken foot could not be filled" };

// The last round's end in words, shown through the first turns of the next round and once the game is over.
function roundNews() {
  const done = view.round_scores.length;
  if (!done || (!view.is_over && view.history.length >= view.players)) return null;
  const r = done - 1;
  const outcome = view.round_outcomes[r];
  const how =
    view.round_went_out[r] !== null
      ? `${label(view.round_went_out[r])} went out`
      : (ENDINGS[outcome.termination] ?? outcome.termination.replaceAll("_", " "));
  const scores = view.round_scores[r].map((score, p) => `${label(p)} ${score}`).join(", ");
  return `Round ${r + 1} of ${table.rounds} is over: ${how}. It scored ${scores}.`;
}

function render() {
  const state = { view, svg, log, rounds: table.rounds, names: table.seats.map((_, p) => label(p)), live: true };
  state.step = log.length;
  state.comment = roundNews();
  drawTable(state, { selected, pick, target });
  document.body.dataset.seq = String(seq);
  drawSeats();
  $("record-link").hidden = !view.is_over;
  $("table").hidden = $("side").hidden = false;
}

function drawSeats() {
  $("seats").replaceChildren(
    ...table.seats.map((sitter, p) => {
      const item = make("li", { "data-seat": p, class: p === view.current_player ? "mover" : "" });
      const how =
        p === seat ? "you" : sitter.kind === "bot" ? `bot ${sitter.name}` : sitter.claimed ? "a person" : "invited, not here yet";
      item.append(`P${p} `, make("span", { class: "how" }, `· ${how} · ${plural(view.hand_sizes[p], "tile")}`));
      return item;
    }),
  );
}

// -- playing ------------------------------------------------------------------------------

function pick(tile) {
  selected = selected === tile ? null : tile;
  render();
}

function target(node) {
  if (selected === null) {
    showRefusal("pick a tile from your hand first, then the open end it goes onto", null, null);
    return;
  }
  send(`${selected}@${node}`);
}

function send(move) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showRefusal("not connected to the server, so the move was not sent: the page is reconnecting", null, null);
    return;
  }
  socket.send(JSON.stringify({ type: "move", seq, move }));
}

// -- the connection -----------------------------------------------------------------------

function receive(message) {
  switch (message.type) {
    case "sync":
      ({ table, log, seq, view, svg } = message);
      retries = 0;
      setConnection(
        "open",
        seat === null ? "Watching: only what everyone at the table sees, no hand." : `Connected: you sit in seat ${seat} (P${seat}).`,
      );
      break;
    case "state":
      if (message.seq !== seq + 1) return socket.close(); // a frame missed: reconnect for a sync
      log.push(message.last);
      ({ seq, view, svg } = message);
      break;
    case "ack": // the move is stored; its state frame follows
      selected = null;
      $("refusal").hidden = true;
      return;
    case "refused":
      showRefusal(message.reason, message.rule, "/static/rules.html"); // the rules by ID, served beside this page
      return;
    case "seats":
      table.seats = message.seats;
      break;
    default:
      return; // a later server's frame: nothing this page shows
  }
  render();
}

function connect() {
  timer = null;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/api/games/${encodeURIComponent(game)}/ws`);
  socket = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", seat, token, svg: true })));
  ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ws.addEventListener("close", (event) => closed(ws, event));
}

function closed(ws, event) {
  if (socket !== ws) return;
  socket = null;
  const next = afterClose(event.code, retries);
  if (next.stop) {
    if (event.code === 4401) localStorage.removeItem(tokenKey); // refused: the link can claim the seat afresh
    const why = event.reason || `code ${event.code}`;
    const later = event.code === BUSY ? " Reload the page later to try again." : "";
    setConnection("failed", `The server closed the connection: ${why}.${later}`);
    return;
  }
  retries += 1;
  const why = event.reason ? ` (${event.reason})` : "";
  setConnection("lost", `Connection lost${why}: reconnecting in ${next.wait} s…`);
  timer = setTimeout(connect, next.wait * 1000);
}

// Gets the seat's token: the one this browser keeps, or a new one, claimed with the link's invitation.
async function seatToken() {
  const invite = decodeURIComponent(location.hash.slice(1));
  let saved = localStorage.getItem(tokenKey);
  if (!saved) {
    if (!invite) throw new Error("this page needs its seat's link, with the invitation after #, from whoever created the game");
    const response = await fetch(`/api/games/${encodeURIComponent(game)}/seats/${seat}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ invite }),
    });
    const body = await response.json().catch(() => ({ error: `the server answered HTTP ${response.status}` }));
    if (!response.ok) throw new Error(body.error);
    saved = body.token;
    localStorage.setItem(tokenKey, saved);
  }
  if (invite) history.replaceState(null, "", location.pathname); // the invitation is spent: out of the address bar
  return saved;
}

async function boot() {
  const title = seat === null ? `Watching game ${game}` : `Seat ${seat} of game ${game}`;
  $("title").textContent = `Chicken Foot · ${title}`;
  document.title = `${title} · chickenfoot serve`;
  if (seat !== null) {
    token = await seatToken();
    $("draw").addEventListener("click", () => send("draw"));
    $("pass").addEventListener("click", () => send("pass"));
    $("watch").href = `/games/${encodeURIComponent(game)}/watch`;
  }
  $("record").href = `/api/games/${encodeURIComponent(game)}/record`;
  window.addEventListener("online", () => {
    if (timer !== null) {
      clearTimeout(timer);
      connect(); // the network is back: no need to wait out the retry
    }
  });
  setConnection("connecting", "Connecting…");
  connect();
}

boot().catch((error) => setConnection("failed", `Cannot join: ${error.message}.`));
