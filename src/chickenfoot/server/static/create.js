// The create page: asks the server what it offers (GET /api/options), lets the person choose the
// rules, the set and who sits in each seat, creates the game (POST /api/games) and shows the links:
// one per person's seat, carrying its invitation after "#", and the spectators' link.
import { $, make } from "./table.js";

let options; // {presets, rules: {preset: rules document}, sets, bots, players: [fewest, most]}

function seatChoices() {
  const players = Number($("players").value);
  const kept = [...$("seat-kinds").querySelectorAll("select")].map((select) => select.value);
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    const select = make("select", { id: `seat-${seat}`, "data-seat": seat });
    for (const kind of ["human", ...options.bots]) {
      select.append(make("option", { value: kind }, kind === "human" ? "a person" : `bot: ${kind}`));
    }
    // The first seat is a person's, the rest bots', until chosen otherwise.
    select.value = kept[seat] ?? (seat === 0 ? "human" : options.bots.includes("greedy") ? "greedy" : options.bots[0]);
    rows.push(make("label", { for: `seat-${seat}` }, `Seat ${seat}`), select);
  }
  $("seat-kinds").replaceChildren(make("legend", {}, "Who sits where"), ...rows);
}

function rules() {
  const document = structuredClone(options.rules[$("preset").value]);
  document.rules.max_pip = Number($("set").value);
  return document;
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

async function create(event) {
  event.preventDefault();
  showError("");
  const seats = [...$("seat-kinds").querySelectorAll("select")].map((select) => select.value);
  $("submit").disabled = true;
  try {
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rules: rules(), seats }),
    });
    const body = await response.json();
    if (!response.ok) {
      showError(`The server refused the game: ${body.error}`);
      return;
    }
    showLinks(body);
  } catch (error) {
    showError(`Could not reach the server: ${error.message}. Is chickenfoot serve still running?`);
  } finally {
    $("submit").disabled = false;
  }
}

function showLinks(created) {
  $("game-id").textContent = created.game;
  $("links").replaceChildren(
    ...created.seats.map(({ seat, kind, link }) => {
      const item = make("li", { "data-seat": seat });
      item.append(make("span", {}, `Seat ${seat}: ${link ? "a person" : `bot ${kind}`}`));
      if (link) {
        const url = new URL(link, location.href).href;
        const field = make("input", { readonly: "", value: url, "aria-label": `seat ${seat}'s link` });
        field.addEventListener("focus", () => field.select());
        const row = make("span", { class: "link" });
        row.append(field, make("a", { href: url, target: "_blank", rel: "noopener", class: "seat-link" }, "open"));
        item.append(row);
      } else {
        item.append(make("span", { class: "bot" }, "the server plays this seat"));
      }
      return item;
    }),
  );
  const watch = new URL(created.watch, location.href).href;
  $("watch").href = watch;
  $("watch").textContent = watch;
  $("created").hidden = false;
  document.body.dataset.game = created.game;
}

async function boot() {
  const response = await fetch("/api/options");
  options = await response.json();
  for (const preset of options.presets) $("preset").append(make("option", { value: preset }, preset));
  for (const set of options.sets) {
    $("set").append(make("option", { value: set }, `double-${set} (${set + 1} rounds)`));
  }
  $("set").value = String(options.rules[options.presets[0]].rules.max_pip);
  const [fewest, most] = options.players;
  for (let count = fewest; count <= most; count++) $("players").append(make("option", {}, String(count)));
  $("players").value = String(Math.min(Math.max(3, fewest), most));
  $("players").addEventListener("change", seatChoices);
  seatChoices();
  $("create").addEventListener("submit", create);
  $("submit").disabled = false;
  document.body.dataset.ready = "1";
}

boot().catch((error) => showError(`Could not load the server's options: ${error.message}`));
