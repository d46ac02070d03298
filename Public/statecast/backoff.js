/**
 * Reconnect delays: exponential back-off with jitter.
 *
 * When a server restarts, every tab loses its socket at the same moment; random
 * "equal jitter" spreads their reconnects so they do not arrive as one wave, and the
 * cap keeps a tab from waiting long once the server is back.
 *
 * @example
 * backoffDelay(0) // between 125 and 250 ms
 * backoffDelay(6) // between 2.5 and 5 s (the cap)
 * @module
 */

/**
 * @param {number} attempt failed attempts so far, from 0
 * @param {{ base?: number, cap?: number, random?: () => number }} [options]
 *   `base` first delay in ms (250), `cap` largest delay in ms (5000), `random` in [0, 1)
 * @returns {number} milliseconds to wait before the next attempt
 */
export function backoffDelay(attempt, options = {}) {
  const base = options.base ?? 250;
  const cap = options.cap ?? 5000;
  const random = options.random ?? Math.random;
  const ceiling = Math.min(cap, base * 2 ** Math.min(attempt, 30));
  return ceiling / 2 + random() * (ceiling / 2);
}
