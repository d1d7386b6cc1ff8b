// Draws one seat's table, or a spectator's, from a state document: the board (an SVG from
// chickenfoot.svg.render_svg), the open ends, the hand, the other hands' sizes, the scores and the move
// history. It knows nothing of where the document comes from: the docs' playground (docs/_playground,
// Pyodide in the page) and the pages of `chickenfoot serve` (a WebSocket) both import this one file.
// It is given the document and what to call when the person picks a tile, an end or a past move.
//
// A state document is {view, svg, log, rounds, step, live, move, ended, comment} and, to name the
// seats, either names (one label per seat, like "P2 (greedy)") or bot (the bots' name, every other
// seat being one): view is chickenfoot.to_json of chickenfoot.observe for the seat, or of
// chickenfoot.spectate (no hand, no legal moves); log is [round, player, move] for every move. A page
// without a hand (the spectator's) has no #ends, #hand, #draw and #pass, and none is drawn.

export const $ = (id) => document.getElementById(id);

export function make(tag, attributes = {}, text = "") {
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

export const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

// Draws the whole table. `ui` holds `selected` (the hand tile picked, or null) and the callbacks
// `pick(tile)`, `target(node)` and (where the page steps through the game) `jump(step)`; nothing is
// playable unless `state.live`.
export function drawTable(state, ui) {
  const view = state.view;
  const mine = state.live && view.player !== undefined && view.current_player === view.player;
  const plays = mine ? view.legal_moves.filter((move) => move.includes("@")) : [];
  const fits = (node) => ui.selected !== null && plays.includes(`${ui.selected}@${node}`);

  // The board: its tiles and numbers carry data-node, so a click on either targets that node.
  $("board").innerHTML = state.svg;
  const ends = new Map(view.ends.map(([node, value]) => [node, value]));
  for (const element of $("board").querySelectorAll("[data-node]")) {
    const node = Number(element.dataset.node);
    if (!mine || !ends.has(node)) continue;
    element.classList.add("end");
    if (fits(node)) element.classList.add("fits");
    element.addEventListener("click", () => ui.target(node));
  }

  $("turn").textContent = turnText(state, mine);
  $("comment").hidden = !state.comment;
  $("comment").textContent = state.comment || "";
  document.body.dataset.turn = view.is_over ? "over" : mine ? "you" : state.live ? "bot" : "past";
  document.body.dataset.round = String(view.round_index);

  if ($("hand")) drawHand(view, ui, mine, plays, fits);
  $("others").textContent =
    view.hand_sizes
      .map((size, p) => (p === view.player ? null : `P${p} holds ${plural(size, "tile")}`))
      .filter(Boolean)
      .join(" · ") + ` · the yard holds ${view.yard_size}`;

  drawScores(view);
  drawHistory(state, ui);
}

function drawHand(view, ui, mine, plays, fits) {
  $("ends").replaceChildren(
    ...(mine ? view.ends : []).map(([node, value]) => {
      const button = make("button", { type: "button", class: "end", "data-node": node, "data-value": value });
      button.textContent = `#${node} · ${value}` + (node === view.pending ? " (pending)" : "");
      if (fits(node)) button.classList.add("fits");
      button.addEventListener("click", () => ui.target(node));
      return button;
    }),
  );

  $("hand").replaceChildren(
    ...view.hand.map((tile) => {
      const button = tileElement(tile, mine ? {} : { disabled: "" });
      if (plays.some((move) => move.startsWith(`${tile}@`))) button.classList.add("playable");
      if (tile === ui.selected) button.classList.add("selected");
      if (tile === view.drawn) button.classList.add("drawn");
      button.addEventListener("click", () => ui.pick(tile));
      return button;
    }),
  );
  $("draw").hidden = !mine || !view.legal_moves.includes("draw");
  $("pass").hidden = !mine || !view.legal_moves.includes("pass");
}

function turnText(state, mine) {
  const view = state.view;
  if (!state.live) return (state.step ? `${state.move}.` : "The deal.") + (state.ended ? ` ${state.ended}.` : "");
  const round = `Round ${view.round_index + 1} of ${state.rounds}`;
  if (view.is_over) {
    const names = view.winners.map((p) => (p === view.player ? "you" : state.names ? state.names[p] : `P${p}`));
    return `Game over. Won by ${names.join(" and ")}.`;
  }
  if (mine) return `${round}: your move.` + (view.drawn ? ` You drew ${view.drawn}.` : "");
  const mover = view.current_player;
  return `${round}: ${state.names ? state.names[mover] : `P${mover} (${state.bot})`} to move…`;
}

function drawScores(view) {
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

// The moves so far, a list per round; each is numbered as in the game record and jumps there when clicked.
function drawHistory(state, ui) {
  const rounds = [];
  state.log.forEach(([round, player, move], index) => {
    if (!rounds[round]) rounds[round] = [];
    const step = index + 1;
    const classes = [player === state.view.player ? "mine" : "", step === state.step ? "here" : ""];
    const item = make("li", { class: classes.join(" ").trim(), value: step, "data-step": step }, `P${player} ${move}`);
    if (ui.jump) item.addEventListener("click", () => ui.jump(step));
    rounds[round].push(item);
  });
  const current = state.step ? state.log[state.step - 1][0] : 0;
  $("history").replaceChildren(
    ...rounds.map((items, round) => {
      const block = make("details", round === current ? { open: "", "data-round": round } : { "data-round": round });
      block.append(make("summary", {}, `Round ${round + 1}: ${plural(items.length, "move")}`), make("ol", {}, ""));
      block.querySelector("ol").append(...items);
      return block;
    }),
  );
  const here = $("history").querySelector("li.here");
  if (state.live) $("history").scrollTop = $("history").scrollHeight; // the latest move in view, the page unmoved
  else if (here) here.scrollIntoView({ block: "nearest" });
}

// Shows why a move was refused and the ID of the rule it breaks: a link into the rules page at
// rulesUrl, or the bare ID where there is none to link to (rulesUrl null).
export function showRefusal(reason, rule, rulesUrl) {
  const box = $("refusal");
  box.replaceChildren(make("strong", {}, "Refused: "), make("span", { class: "reason" }, reason));
  if (rule && rulesUrl) {
    const href = `${rulesUrl}#rule-${rule.toLowerCase()}`;
    box.append(" ", make("a", { class: "rule", href, target: "_blank", rel: "noopener" }, rule)); // the game stays
  } else if (rule) {
    box.append(" ", make("code", { class: "rule", title: "the rule's ID in the rules" }, rule));
  }
  box.hidden = false;
}
