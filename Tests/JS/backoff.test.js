// Reconnect delays.
import { test } from "node:test";
import assert from "node:assert/strict";
import { backoffDelay, restartDelay } from "../../Runtime/statecast/backoff.js";

test("delays double from the base, stay within [ceiling/2, ceiling] and stop at the cap", () => {
  const low = (attempt) => backoffDelay(attempt, { random: () => 0 });
  const high = (attempt) => backoffDelay(attempt, { random: () => 0.999999 });
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 50].map(low), [125, 250, 500, 1000, 2000, 2500, 2500, 2500]);
  assert.ok(Math.abs(high(0) - 250) < 0.01);
  assert.ok(Math.abs(high(10) - 5000) < 0.01);
});

test("custom base and cap", () => {
  assert.equal(backoffDelay(3, { base: 100, cap: 400, random: () => 0 }), 200);
});

test("a restarting server is retried after 100 ms to 1 s, spread by the random source", () => {
  assert.equal(restartDelay(() => 0), 100);
  assert.equal(restartDelay(() => 0.5), 550);
  assert.ok(Math.abs(restartDelay(() => 0.999999) - 1000) < 0.01);
});
