// What a game's page does when its WebSocket closes: stop and say why, or connect again after a wait.
//
// The close codes are the protocol's (docs/serving.md). A page stops where trying again would fail
// the same way: a frame the server refuses, a token it refuses, a game it does not have, a seat
// opened in a newer window (4410). A game with as many spectators as it takes, or too many joining
// (1013), is tried again a few times, more slowly, then the page stops. Anything else (the network,
// a server stopping with 1001, a client too slow for its frames) is tried again, sooner.

const FINAL = new Set([1003, 1009, 4400, 4401, 4404, 4410]);
const RETRY_SECONDS = [0.25, 0.5, 1, 2, 4]; // the waits before reconnecting; the last one repeats
const BUSY_SECONDS = [5, 15, 30, 60]; // the waits after a 1013; then the page stops
export const BUSY = 1013;

// Decides what to do after a close with `code`, `retries` reconnections after the last sync:
// {stop: true}, or {wait: seconds} before connecting again.
export function afterClose(code, retries) {
  if (FINAL.has(code)) return { stop: true };
  if (code === BUSY) return retries < BUSY_SECONDS.length ? { wait: BUSY_SECONDS[retries] } : { stop: true };
  return { wait: RETRY_SECONDS[Math.min(retries, RETRY_SECONDS.length - 1)] };
}
