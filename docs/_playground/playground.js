// The playground page. Every rule is Python's: the chickenfoot library runs in Pyodide, loaded
// from this folder (no network). The page talks to Python only through session.py's Table:
// state(step) gives the seat's view as JSON (chickenfoot.to_json of chickenfoot.observe) and its
// board as SVG, now or after any earlier move; play("9-5@3") sends a move in the move notation and
// gets back a refusal's reason and rule ID, if any. The page never sees a bot's tiles. Drawing is
// table.js's: it is handed each state document and knows nothing of Pyodide.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { $, drawTable, make, showRefusal } from "./table.js";

const params = new URLSearchParams(location.search);
const botDelay = Number(params.get("delay") ?? 350); // milliseconds between bot moves

let py; // the Pyodide interpreter
let session; // session.py, imported
let table; // the session.Table in play
let rulesUrl = "../rules.html";
let selected = null; // the hand tile picked, like "9-5"
let cursor = null; // the step looked at (moves from the deal), or null for the game as it stands
let state = null; // the last state document drawn
let dealt = 0; // how many games were started: a bots' loop of an earlier game stops

function setStatus(text) {
  $("status").textContent = text;
}

// -- drawing ------------------------------------------------------------------------------

function render() {
  state = JSON.parse(table.state(cursor ?? undefined)); // undefined reaches Python as None: now
  if (state.live) cursor = null; // stepped forward to the present: play on
  drawTable(state, { selected, pick, target, jump });
  $("where").textContent = `step ${state.step} of ${state.steps}` + (state.live ? "" : " (looking back)");
  $("step-back").disabled = $("step-first").disabled = state.step === 0;
  $("step-next").disabled = $("step-last").disabled = state.live;
}

// -- stepping through the game ------------------------------------------------------------

async function jump(step) {
  selected = null;
  $("refusal").hidden = true;
  cursor = Math.max(0, step);
  render();
  if (state.live) await runBots(); // back at the present: the bots move on if it is theirs
}

function stepBy(by) {
  const here = state.step;
  const target = { first: 0, back: here - 1, next: here + 1, last: state.steps }[by];
  jump(target);
}

// -- playing ------------------------------------------------------------------------------

function pick(tile) {
  selected = selected === tile ? null : tile;
  render();
}

function target(node) {
  if (selected === null) {
    showRefusal("pick a tile from your hand first, then the open end it goes onto", null, rulesUrl);
    return;
  }
  send(`${selected}@${node}`);
}

async function send(move) {
  if (!table || !state.live || state.view.current_player !== state.view.player) return;
  const answer = JSON.parse(table.play(move));
  if (answer.refused) {
    showRefusal(answer.refused, answer.rule, rulesUrl);
    return;
  }
  $("refusal").hidden = true;
  selected = null;
  render();
  await runBots();
}

async function runBots() {
  const game = dealt;
  const botsToMove = () => cursor === null && !state.view.is_over && state.view.current_player !== state.view.player;
  document.body.dataset.busy = "1";
  try {
    while (game === dealt && botsToMove()) {
      await sleep(botDelay);
      if (game !== dealt || !botsToMove()) break; // a new game, or the person stepped back, meanwhile
      table.bot_move();
      render();
    }
  } finally {
    if (game === dealt) delete document.body.dataset.busy;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(newTable, at = null) {
  if (table) table.destroy();
  table = newTable;
  dealt += 1;
  selected = null;
  cursor = at;
  $("refusal").hidden = true;
  $("table").hidden = false;
  $("save").disabled = $("copy-position").disabled = false;
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

// Loads a record to play on from its end, or (replay) to step through from its deal.
async function load(text, replay = false) {
  let loaded;
  try {
    loaded = session.load(text, $("bot").value, 0);
  } catch (error) {
    // A bad record raises InvalidRecordError; its last line names the fault.
    const lines = String(error.message).trim().split("\n");
    setStatus(lines[lines.length - 1].replace(/^[\w.]+Error: /, "Cannot load: "));
    return;
  }
  setStatus(replay ? "Game loaded: step through it with ▶, or ▶| to play on." : "Game loaded.");
  await start(loaded, replay ? 0 : null);
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
  for (const by of ["first", "back", "next", "last"]) {
    $(`step-${by}`).addEventListener("click", () => stepBy(by));
  }
  document.addEventListener("keydown", (event) => {
    if (!state || event.target.closest("input, textarea, select")) return;
    const by = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (by) {
      stepBy(by);
      event.preventDefault();
    }
  });
  $("save").addEventListener("click", save);
  $("load").addEventListener("click", () => load($("record").value));
  $("replay").addEventListener("click", () => load($("record").value, true));
  $("load-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) load(($("record").value = await file.text())); // |◀ then steps it from its deal
  });
  $("copy-position").addEventListener("click", copyPosition);
  $("new-game").disabled = false;
  $("side").hidden = false; // a saved game can be loaded before any is played
  setStatus(`chickenfoot ${version} on Python ${py.runPython("import sys; sys.version.split()[0]")}, ready.`);
  document.body.dataset.ready = "1";
  $("setup").requestSubmit(); // a game is dealt at once, with the settings shown: the table is never empty
}

boot().catch((error) => {
  setStatus(`Could not start Python: ${error}`);
  throw error;
});
