/**
 * How an action is sent again when its answer may have been lost, safely: each action
 * carries an idempotency key (`key` in the `action` message), and the server applies an
 * action whose key it has applied already at most once, answering `ok` again. So an
 * action whose socket dropped before the reply, or that was answered `unavailable`
 * (storage failed, or the process that owned the room died after storing it), is sent
 * again with the same key: either it was applied and the retry is answered `ok` without
 * a second change, or it was not and the retry applies it.
 */

/** How many times one action is sent at most, the first attempt included. */
export const MAX_ATTEMPTS = 4;

/**
 * The wait before sending again an action the server answered `unavailable`: 250 ms,
 * then 500 ms, then 1 s (the time a cluster takes to find a new owner for a room).
 * @param {number} attempts how many times the action was sent so far
 * @returns {number} milliseconds
 */
export function unavailableRetryDelay(attempts) {
  return 250 * 2 ** Math.max(0, attempts - 1);
}

/**
 * A fresh idempotency key: 128 random bits from the browser's cryptographic generator,
 * as 22 characters of base64url (the protocol allows `A-Z a-z 0-9 - _`, 64 at most).
 * @returns {string}
 */
export function newActionKey() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
