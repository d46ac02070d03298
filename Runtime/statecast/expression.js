/**
 * The small expression language of declarative bindings.
 *
 * A binding names a value of the state by a path and may negate or compare it, which
 * covers what pages need without ever evaluating code from an attribute:
 *
 *     count                  dotted path, relative to the current scope
 *     /user/first name       JSON Pointer (for keys containing dots), also relative
 *     todos.length           the length of an array
 *     !loading               negation (truthiness as below)
 *     filter == "active"     comparison with a JSON literal (bare words are strings)
 *     count >= 10            numeric comparison (>, >=, <, <=)
 *     $item  $item.title     the current list row's item (same as a plain path in a row)
 *     $root.user.name        the topic's whole state, from inside a list row
 *     $index  $key           the current row's position and key
 *
 * Truthiness: missing, `null`, `false`, `0`, `""` and `[]` are false; everything else,
 * including `{}` (how Swift encodes a payload-less enum case), is true. So
 * `data-sc-show="phase.loading"` shows an element while `phase` is `{"loading":{}}`.
 *
 * @module
 */

import { formatPointer, lookup, parsePointer } from "./pointer.js";

/**
 * @typedef {object} Scope
 * @property {unknown} value the value plain paths are relative to (the state, or a row's item)
 * @property {unknown} root the topic's whole state
 * @property {number} [index] position of the current row
 * @property {string} [key] key of the current row
 */

/**
 * @typedef {object} Expression
 * @property {string} source
 * @property {"scope" | "root" | "index" | "key"} base
 * @property {string[]} tokens path tokens below the base
 * @property {string} dependency pointer whose changes can change the result ("" for index/key)
 * @property {number} negations
 * @property {null | { operator: string, literal: unknown }} comparison
 */

/** @type {Map<string, Expression>} */
const cache = new Map();

/** Thrown for an expression that cannot be parsed. */
export class ExpressionError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ExpressionError";
  }
}

/**
 * Parses (and caches) an expression.
 * @param {string} source
 * @returns {Expression}
 */
export function parseExpression(source) {
  const cached = cache.get(source);
  if (cached) return cached;
  const expression = parse(source);
  if (cache.size > 2000) cache.clear();
  cache.set(source, expression);
  return expression;
}

/**
 * @param {string} source
 * @returns {Expression}
 */
function parse(source) {
  let text = source.trim();
  let comparison = null;
  const match = /^(.*?)\s*(==|!=|>=|<=|>|<)\s*(.*)$/.exec(text);
  if (match && match[1] !== "" && !/^!+$/.test(match[1])) {
    text = match[1].trim();
    comparison = { operator: match[2], literal: parseLiteral(match[3].trim()) };
  }
  let negations = 0;
  while (text[negations] === "!") negations++;
  text = text.slice(negations).trim();
  if (text === "") throw new ExpressionError(`binding "${source}" names no path`);

  /** @type {Expression["base"]} */
  let base = "scope";
  let rest = text;
  if (text === "$index" || text === "$key") {
    base = text === "$index" ? "index" : "key";
    rest = "";
  } else if (text === "$root" || text.startsWith("$root.") || text.startsWith("$root/")) {
    base = "root";
    rest = text.slice(5);
  } else if (text === "$item" || text.startsWith("$item.") || text.startsWith("$item/")) {
    rest = text.slice(5);
  } else if (text[0] === "$") {
    throw new ExpressionError(`unknown name "${text}" in binding "${source}"`);
  }
  const tokens = pathTokens(rest);
  let dependency = "";
  if (base === "scope" || base === "root") {
    const watched = tokens[tokens.length - 1] === "length" ? tokens.slice(0, -1) : tokens;
    dependency = formatPointer(watched);
  }
  return { source, base, tokens, dependency, negations, comparison };
}

/**
 * Turns the path part of an expression into reference tokens.
 * @param {string} path `a.b.0`, `.a.b`, `/a/b` or empty
 * @returns {string[]}
 */
export function pathTokens(path) {
  if (path === "" || path === ".") return [];
  if (path[0] === "/") return parsePointer(path);
  const dotted = path[0] === "." ? path.slice(1) : path;
  return dotted.split(".");
}

/**
 * @param {string} text
 * @returns {unknown}
 */
function parseLiteral(text) {
  if (text.length >= 2 && text[0] === "'" && text[text.length - 1] === "'") return text.slice(1, -1);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Reads the value an expression's path names (before negation and comparison).
 * @param {Expression} expression
 * @param {Scope} scope
 * @returns {unknown}
 */
export function resolve(expression, scope) {
  switch (expression.base) {
    case "index":
      return scope.index;
    case "key":
      return scope.key;
    case "root":
      return readPath(scope.root, expression.tokens);
    default:
      return readPath(scope.value, expression.tokens);
  }
}

/**
 * @param {unknown} value
 * @param {string[]} tokens
 * @returns {unknown}
 */
function readPath(value, tokens) {
  if (tokens.length > 0 && tokens[tokens.length - 1] === "length") {
    const parent = lookup(value, tokens.slice(0, -1));
    if (Array.isArray(parent)) return parent.length;
  }
  return lookup(value, tokens);
}

/**
 * Evaluates an expression in a scope. Never throws: a missing path is `undefined`.
 * @param {Expression} expression
 * @param {Scope} scope
 * @returns {unknown}
 */
export function evaluate(expression, scope) {
  let value = resolve(expression, scope);
  if (expression.comparison) value = compare(value, expression.comparison.operator, expression.comparison.literal);
  for (let i = 0; i < expression.negations; i++) value = !truthy(value);
  return value;
}

/**
 * @param {unknown} value
 * @param {string} operator
 * @param {unknown} literal
 * @returns {boolean}
 */
function compare(value, operator, literal) {
  switch (operator) {
    case "==":
      return looseEqual(value, literal);
    case "!=":
      return !looseEqual(value, literal);
    default: {
      if (typeof value !== "number" || typeof literal !== "number") return false;
      if (operator === ">") return value > literal;
      if (operator === ">=") return value >= literal;
      if (operator === "<") return value < literal;
      return value <= literal;
    }
  }
}

/**
 * Equality for comparisons: a missing value equals `null`; otherwise strict.
 * @param {unknown} a
 * @param {unknown} b
 */
function looseEqual(a, b) {
  if (a === undefined) a = null;
  return a === b;
}

/**
 * Binding truthiness (see the module comment).
 * @param {unknown} value
 * @returns {boolean}
 */
export function truthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

/**
 * The text shown for a value: strings as they are, numbers and booleans printed,
 * missing and `null` as nothing, objects and arrays as JSON.
 * @param {unknown} value
 * @returns {string}
 */
export function displayText(value) {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * Parses a list of `name: expression` pairs separated by `;` (class and attribute bindings).
 * @param {string} source e.g. `"done: completed; active: !paused"`
 * @returns {{ name: string, expression: Expression }[]}
 */
export function parsePairs(source) {
  const pairs = [];
  for (const part of source.split(";")) {
    if (part.trim() === "") continue;
    const colon = part.indexOf(":");
    if (colon <= 0) throw new ExpressionError(`"${part.trim()}" should read "name: expression"`);
    const name = part.slice(0, colon).trim();
    pairs.push({ name, expression: parseExpression(part.slice(colon + 1)) });
  }
  return pairs;
}
