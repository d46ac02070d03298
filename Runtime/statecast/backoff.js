/**
 * Reconnect delays: exponential back-off with jitter, and a short random wait when the
 * server announced a restart.
 *
 * When a server restarts, every tab loses its socket at the same moment; random
 * "equal jitter" spreads their reconnects so they do not arrive as one wave, and the
 * cap keeps a tab from waiting long once the server is back.
 *
 * @example
 * backoffDelay(0) // between 125 and 250 ms
 * backoffDelay(6) // between 2.5 and 5 s (the cap)
 * restartDelay()  // between 100 ms and 1 s
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

/**
 * The wait before reconnecting to a server that closed the socket with 1012 (it is
 * restarting or draining, and the session survives it). The socket was healthy, so
 * there is no reason to back off; the random spread keeps the tabs of a whole server
 * from coming back at the same instant, and 100 ms gives the old process time to stop
 * accepting sockets.
 * @param {() => number} [random] in [0, 1)
 * @returns {number} milliseconds, between 100 and 1000
 */
export function restartDelay(random = Math.random) {
  return 100 + random() * 900;
}
