// Steps a replay widget (chickenfoot.notebook.ReplayWidget). Each round's board is drawn in advance
// with every tile the round will hold, each tile and number tagged data-node; a frame says how many
// nodes are placed and where the marks go, so stepping only toggles classes the SVG's own stylesheet
// draws (cf-hidden, cf-pending, cf-last, cf-playable). Hands, the move and its comment are text.
function chickenfootReplay(root) {
  if (!root || root.dataset.ready) return; // a notebook may run the same output's script twice
  root.dataset.ready = "1";
  const data = JSON.parse(root.querySelector(".cf-replay-data").textContent);
  const frames = data.frames;
  const slider = root.querySelector('input[type="range"]');
  const select = root.querySelector("select");
  const boards = [...root.querySelectorAll(".cf-replay-round")];
  let step = data.start;

  function make(tag, className, text) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text) element.textContent = text;
    return element;
  }

  function hand(frame, seat, viewer) {
    const row = make("div", "cf-replay-hand" + (seat === frame.mover ? " cf-to-move" : ""));
    row.dataset.seat = String(seat);
    row.append(make("span", "cf-replay-name", data.names[seat]));
    const tiles = frame.hands[seat] ? frame.hands[seat].split(" ") : [];
    if (viewer !== null && viewer !== seat) {
      row.append(` ${tiles.length} tile${tiles.length === 1 ? "" : "s"}, face down`);
      return row;
    }
    for (const tile of tiles) {
      const chip = make("span", "cf-chip", tile);
      if (seat === frame.mover && frame.playable_tiles.includes(tile)) chip.classList.add("cf-playable");
      if (seat === frame.mover && tile === frame.drawn) chip.classList.add("cf-drawn");
      row.append(chip);
    }
    if (!tiles.length) row.append("no tiles");
    return row;
  }

  function show(next) {
    step = Math.max(0, Math.min(frames.length - 1, next));
    const frame = frames[step];
    const viewer = select.value === "all" ? null : Number(select.value);
    const shown = viewer === null || viewer === frame.mover; // only the viewer's options are marked
    slider.value = String(step);
    boards.forEach((board, index) => {
      board.hidden = index !== frame.board;
    });
    for (const element of boards[frame.board].querySelectorAll("[data-node]")) {
      const node = Number(element.dataset.node);
      element.classList.toggle("cf-hidden", node >= frame.nodes);
      element.classList.toggle("cf-pending", node === frame.pending);
      element.classList.toggle("cf-last", node === frame.last);
      element.classList.toggle("cf-playable", shown && frame.playable.includes(node));
    }
    root.querySelector(".cf-replay-move").textContent = frame.text;
    const comment = root.querySelector(".cf-replay-comment");
    comment.hidden = !frame.comment;
    comment.textContent = frame.comment || "";
    root.querySelector(".cf-replay-hands").replaceChildren(...frame.hands.map((_, seat) => hand(frame, seat, viewer)));
    const totals = frame.totals.map((total, seat) => `P${seat} ${total}`).join(", ");
    root.querySelector(".cf-replay-totals").textContent = `step ${step} of ${frames.length - 1} · yard ${frame.yard} · totals ${totals}`;
    root.dataset.step = String(step);
  }

  const moves = { first: () => 0, back: () => step - 1, next: () => step + 1, last: () => frames.length - 1 };
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-go]");
    if (button) show(moves[button.dataset.go]());
  });
  root.addEventListener("keydown", (event) => {
    if (event.target === slider || event.target === select) return; // they step themselves
    const keys = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[event.key]) {
      show(moves[keys[event.key]]());
      event.preventDefault();
    }
  });
  slider.addEventListener("input", () => show(Number(slider.value)));
  select.addEventListener("change", () => show(step));
  show(step);
}
