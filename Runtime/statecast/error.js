/**
 * The error every failed request rejects with.
 *
 * Server errors keep the protocol's stable `code` (`bad_action`, `forbidden`,
 * `rate_limited`, ...), so pages can branch on it. The runtime adds its own codes for
 * failures that happen on the client side:
 *
 * - `connection_lost`: the socket dropped after the request was sent and before its
 *   reply. The server may or may not have applied it; the runtime does not re-send it.
 * - `not_joined`: the topic was left, closed by the server, or failed to join.
 * - `stopped`: the client was stopped.
 *
 * @example
 * try { await counter.send({ increment: {} }); }
 * catch (error) { if (error.code === "rate_limited") showSlowDown(); }
 * @module
 */

export class StatecastError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{ topic?: string, action?: unknown }} [context]
   */
  constructor(code, message, context = {}) {
    super(message);
    this.name = "StatecastError";
    /** @type {string} */
    this.code = code;
    /** @type {string | undefined} */
    this.topic = context.topic;
    /** @type {unknown} */
    this.action = context.action;
  }

  /**
   * Builds the error for a server `reply` whose status is `"error"`.
   * @param {any} reply
   * @param {{ topic?: string, action?: unknown }} [context]
   */
  static fromReply(reply, context) {
    const error = reply && typeof reply.error === "object" && reply.error !== null ? reply.error : {};
    const code = typeof error.code === "string" ? error.code : "error";
    const message = typeof error.message === "string" ? error.message : `the server answered ${code}`;
    return new StatecastError(code, message, context);
  }
}
