/**
 * Longest increasing subsequence, to move as few list rows as possible.
 *
 * After a list changes, the rows that keep their relative order can stay where they
 * are; only the others are moved. Moving a DOM node blurs it and restarts its CSS
 * transitions, so the fewer moves the better.
 * @module
 */

/**
 * Positions (into `values`) of a longest strictly increasing subsequence, skipping
 * entries below zero (rows that are new).
 * @param {ReadonlyArray<number>} values
 * @returns {Set<number>}
 * @example
 * longestIncreasing([0, 4, 1, 2, -1, 3]) // Set {0, 2, 3, 5}
 */
export function longestIncreasing(values) {
  /** @type {number[]} positions ending the best subsequence of each length */
  const tails = [];
  /** @type {number[]} */
  const previous = new Array(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value < 0) continue;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]] < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[i] = tails[low - 1];
    tails[low] = i;
  }
  const result = new Set();
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) result.add(i);
  return result;
}
