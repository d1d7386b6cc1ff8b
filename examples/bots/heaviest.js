// A bot in the chickenfoot bot protocol, for Node: plays the heaviest tile it can, else draws or passes.
// Run it in a tournament:  chickenfoot tournament --bots "cmd:node examples/bots/heaviest.js",greedy
const readline = require("node:readline");

const pips = (move) => (move.includes("@") ? move.split("@")[0].split("-").reduce((a, b) => a + Number(b), 0) : -1);

console.log(JSON.stringify({ bot: "heaviest (Node)", protocol: 1 }));
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const view = JSON.parse(line);
  console.log(view.legal_moves.reduce((best, move) => (pips(move) > pips(best) ? move : best)));
});
