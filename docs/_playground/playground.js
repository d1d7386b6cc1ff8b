// The playground page. Every rule is Python's: the chickenfoot library runs in Pyodide, loaded
// from this folder (no network). The page talks to Python only through session.py's Table:
// state() gives the seat's view as JSON (chickenfoot.to_json of chickenfoot.observe) and its board
// as SVG, play("9-5@3") sends a move in the move notation and gets back a refusal's reason and
// rule ID, if any. The page never sees a bot's tiles.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const botDelay = Number(params.get("delay") ?? 350); // milliseconds between bot moves

let py; // the Pyodide interpreter
let session; // session.py, imported
let table; // the session.Table in play
let rulesUrl = "../rules.html";
let selected = null; // the hand tile picked, like "9-5"
let view = null; // the last view (JSON)

function make(tag, attributes = {}, text = "") {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text) element.textContent = text;
  return element;
}

function tileElement(tile, attributes) {
  const button = make("button", { type: "button", class: "tile", "data-tile": tile, ...attributes });
  const [high, low] = tile.split("-");
  button.append(make("span", {}, high), make("span", {}, low));
  button.setAttribute("aria-label", tile);
  return button;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function setStatus(text) {
  $("status").textContent = text;
}

// -- drawing ------------------------------------------------------------------------------

function render() {
  const state = JSON.parse(table.state());
  view = state.view;
  const mine = view.current_player === view.player;
  const plays = view.legal_moves.filter((move) => move.includes("@"));

  $("board").innerHTML = state.svg; // drawn by chickenfoot.svg.render_svg from the view's board
  const ends = new Map(view.ends.map(([node, value]) => [node, value]));
  for (const group of $("board").querySelectorAll("g")) {
    const title = group.querySelector("title");
    const match = title && /^#(\d+) /.exec(title.textContent);
    if (!match || !ends.has(Number(match[1]))) continue;
    const node = Number(match[1]);
    group.classList.add("end");
    if (selected !== null && plays.includes(`${selected}@${node}`)) group.classList.add("fits");
    group.addEventListener("click", () => target(node));
  }

  if (view.is_over) {
    const names = view.winners.map((p) => (p === view.player ? "you" : `P${p}`)).join(" and ");
    $("turn").textContent = `Game over. Won by ${names}.`;
  } else if (mine) {
    $("turn").textContent = `Round ${view.round_index + 1}: your move.` + (view.drawn ? ` You drew ${view.drawn}.` : "");
  } else {
    $("turn").textContent = `Round ${view.round_index + 1}: P${view.current_player} (${state.bot}) to move…`;
  }
  document.body.dataset.turn = view.is_over ? "over" : mine ? "you" : "bot";

  $("ends").replaceChildren(
    ...view.ends.map(([node, value]) => {
      const fits = selected !== null && plays.includes(`${selected}@${node}`);
      const button = make("button", { type: "button", class: "end", "data-node": node, "data-value": value });
      button.textContent = `#${node} · ${value}` + (node === view.pending ? " (pending)" : "");
      if (fits) button.classList.add("fits");
      button.addEventListener("click", () => target(node));
      return button;
    }),
  );

  $("hand").replaceChildren(
    ...view.hand.map((tile) => {
      const button = tileElement(tile, {});
      if (mine && plays.some((move) => move.startsWith(`${tile}@`))) button.classList.add("playable");
      if (tile === selected) button.classList.add("selected");
      if (tile === view.drawn) button.classList.add("drawn");
      button.addEventListener("click", () => pick(tile));
      return button;
    }),
  );
  $("draw").hidden = !mine || !view.legal_moves.includes("draw");
  $("pass").hidden = !mine || !view.legal_moves.includes("pass");
  $("others").textContent =
    view.hand_sizes
      .map((size, p) => (p === view.player ? null : `P${p} holds ${size} tile${size === 1 ? "" : "s"}`))
      .filter(Boolean)
      .join(" · ") + ` · the yard holds ${view.yard_size}`;

  renderScores();
  renderHistory(state.log);
}

function renderScores() {
  const seats = view.hand_sizes.map((_, p) => (p === view.player ? "you" : `P${p}`));
  const head = make("tr");
  head.append(make("th", {}, "round"), ...seats.map((name) => make("th", {}, name)));
  $("scores").tHead.replaceChildren(head);
  const rows = view.round_scores.map((scores, r) => {
    const row = make("tr", { "data-round": r });
    row.append(make("th", {}, `${r + 1} (${view.round_doubles[r]}-${view.round_doubles[r]})`));
    row.append(...scores.map((score) => make("td", {}, String(score))));
    return row;
  });
  $("scores").tBodies[0].replaceChildren(...rows);
  const total = make("tr");
  total.append(make("th", {}, "total"), ...view.totals.map((score) => make("td", {}, String(score))));
  $("scores").tFoot.replaceChildren(total);
}

function renderHistory(log) {
  const rounds = [];
  for (const [round, player, move] of log) {
    if (!rounds[round]) rounds[round] = [];
    rounds[round].push(make("li", { class: player === view.player ? "mine" : "" }, `P${player} ${move}`));
  }
  $("history").replaceChildren(
    ...rounds.map((items, round) => {
      const block = make("details", round === rounds.length - 1 ? { open: "" } : {});
      block.append(make("summary", {}, `Round ${round + 1}: ${items.length} moves`), make("ol", {}, ""));
      block.querySelector("ol").append(...items);
      return block;
    }),
  );
  $("history").scrollTop = $("history").scrollHeight; // the latest move in view, the page unmoved
}

function showRefusal(reason, rule) {
  const box = $("refusal");
  box.replaceChildren(make("strong", {}, "Refused: "), make("span", { class: "reason" }, reason));
  if (rule) {
    box.append(" ", make("a", { class: "rule", href: `${rulesUrl}#rule-${rule.toLowerCase()}` }, rule));
  }
  box.hidden = false;
}

// -- playing ------------------------------------------------------------------------------

function pick(tile) {
  selected = selected === tile ? null : tile;
  render();
}

function target(node) {
  if (selected === null) {
    showRefusal("pick a tile from your hand first, then the open end it goes onto", null);
    return;
  }
  send(`${selected}@${node}`);
}

async function send(move) {
  if (!table || view.current_player !== view.player) return;
  const answer = JSON.parse(table.play(move));
  if (answer.refused) {
    showRefusal(answer.refused, answer.rule);
    return;
  }
  $("refusal").hidden = true;
  selected = null;
  render();
  await runBots();
}

async function runBots() {
  document.body.dataset.busy = "1";
  try {
    while (!view.is_over && view.current_player !== view.player) {
      await sleep(botDelay);
      table.bot_move();
      render();
    }
  } finally {
    delete document.body.dataset.busy;
  }
}

async function start(newTable) {
  if (table) table.destroy();
  table = newTable;
  selected = null;
  $("refusal").hidden = true;
  $("table").hidden = $("side").hidden = false;
  render();
  await runBots();
}

// -- saving, loading, sharing ---------------------------------------------------------------

function save() {
  const text = table.record();
  $("record").value = text;
  const link = make("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })) });
  link.download = `chickenfoot-seed-${JSON.parse(text).seed}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

async function load(text) {
  try {
    await start(session.load(text, $("bot").value, 0));
    setStatus("Game loaded.");
  } catch (error) {
    // A bad record raises InvalidRecordError; its last line names the fault.
    const lines = String(error.message).trim().split("\n");
    setStatus(lines[lines.length - 1].replace(/^[\w.]+Error: /, "Cannot load: "));
  }
}

function copyPosition() {
  const text = table.position();
  $("position").value = text;
  $("position").select();
  navigator.clipboard?.writeText(text).catch(() => {}); // the field keeps it if the clipboard refuses
}

// -- start-up -----------------------------------------------------------------------------

async function boot() {
  for (const id of ["preset", "players", "seed", "bot"]) {
    if (params.has(id)) $(id).value = params.get(id);
  }
  const manifest = await (await fetch("manifest.json")).json();
  rulesUrl = manifest.rules_url;
  py = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
  for (const wheel of manifest.wheels) {
    py.unpackArchive(await (await fetch(`wheels/${wheel}`)).arrayBuffer(), "wheel");
  }
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.FS.writeFile(`${sitePackages}/session.py`, await (await fetch("session.py")).text());
  session = py.pyimport("session");
  const version = py.runPython("import chickenfoot; chickenfoot.__version__");

  $("setup").addEventListener("submit", (event) => {
    event.preventDefault();
    const seed = Math.max(0, Math.trunc(Number($("seed").value) || 0));
    start(session.new_table($("preset").value, Number($("players").value), seed, $("bot").value, 0));
  });
  $("draw").addEventListener("click", () => send("draw"));
  $("pass").addEventListener("click", () => send("pass"));
  $("save").addEventListener("click", save);
  $("load").addEventListener("click", () => load($("record").value));
  $("load-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) load(($("record").value = await file.text()));
  });
  $("copy-position").addEventListener("click", copyPosition);
  $("new-game").disabled = false;
  setStatus(`chickenfoot ${version} on Python ${py.runPython("import sys; sys.version.split()[0]")}, ready.`);
  document.body.dataset.ready = "1";
}

boot().catch((error) => {
  setStatus(`Could not start Python: ${error}`);
  throw error;
});
