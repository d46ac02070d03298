/**
 * Timers that fire only when a test says so, so back-off and debounce are tested
 * without waiting and without timing assertions.
 */
export class ManualTimers {
  constructor() {
    this.now = 0;
    this.nextId = 1;
    /** @type {Map<number, { at: number, fn: () => void, delay: number }>} */
    this.timers = new Map();
    this.setTimeout = (/** @type {() => void} */ fn, /** @type {number} */ delay) => {
      const id = this.nextId++;
      this.timers.set(id, { at: this.now + delay, fn, delay });
      return id;
    };
    this.clearTimeout = (/** @type {number} */ id) => {
      this.timers.delete(id);
    };
  }

  /** Delays of the timers that are waiting, in the order they were set. */
  get pendingDelays() {
    return [...this.timers.values()].map((timer) => timer.delay);
  }

  /** Moves time forward, firing every timer that falls due. @param {number} ms */
  advance(ms) {
    const target = this.now + ms;
    for (;;) {
      let nextId = -1;
      let next = null;
      for (const [id, timer] of this.timers) {
        if (timer.at <= target && (next === null || timer.at < next.at)) {
          next = timer;
          nextId = id;
        }
      }
      if (next === null) break;
      this.timers.delete(nextId);
      this.now = next.at;
      next.fn();
    }
    this.now = target;
  }

  /** Fires the earliest timer, whatever its delay. */
  runNext() {
    let earliest = null;
    for (const timer of this.timers.values()) if (earliest === null || timer.at < earliest.at) earliest = timer;
    if (earliest) this.advance(earliest.at - this.now);
  }
}

/** Lets pending promise callbacks run (the runtime's replies resolve through promises). */
export function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}
