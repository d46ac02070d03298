// Runtime/statecast.js is the runtime's modules without comments or indentation
// (Tests/JS/support/compact.js): the lexer must leave every literal as it is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compact } from "./support/compact.js";

test("comments, blank lines, indentation and trailing spaces go; line breaks between statements stay", () => {
  const source = [
    "/**",
    " * Doubles.",
    " * @param {number} x",
    " */",
    "export function twice(x) {",
    "  // the answer",
    "  return 2 * x; // doubled   ",
    "",
    "}",
    "const y = /** @type {number} */ (twice(2)) /* four */ + 1;",
    "",
  ].join("\n");
  assert.equal(compact(source), "export function twice(x) {\nreturn 2 * x;\n}\nconst y = (twice(2)) + 1;\n");
});

test("what looks like a comment inside a string, a template or a regular expression is kept", () => {
  const lines = [
    'const url = "http://example.test/*not a comment*/";',
    "const single = 'it\\'s // still a string';",
    "const pattern = /\\/\\/[^/]*\\/* /g;",
    "const inClass = /[/]/; // a comment after it",
    "const nested = `a ${`b ${{ c: '//' }.c}`} /* d */`;",
  ];
  assert.equal(
    compact(lines.join("\n")),
    [lines[0], lines[1], lines[2], "const inClass = /[/]/;", lines[4]].join("\n") + "\n",
  );
});

test("a template literal's lines keep their indentation and blank lines", () => {
  const source = "const html = `\n  <p>\n\n    ${value}\n  </p>`;\n  next();\n";
  assert.equal(compact(source), "const html = `\n  <p>\n\n    ${value}\n  </p>`;\nnext();\n");
});

test("a slash divides after a value and opens a regular expression elsewhere", () => {
  const source = [
    "const half = total / 2 / count;",
    "const ratio = (a + b) / c[1] / 'x'.length;",
    "return /^\\d+$/.test(text) ? x : /x/g;",
    "if (ok) run(/a/, [/b/], { c: /d/ });",
    "const r = typeof /x/;",
  ].join("\n");
  assert.equal(compact(source), `${source}\n`);
});

test("a comment that spans lines still ends the line it interrupts", () => {
  assert.equal(compact("const a = 1 /* one\n two */\nconst b = 2\n"), "const a = 1\nconst b = 2\n");
  assert.equal(compact("return/*\n*/value\n"), "return\nvalue\n", "automatic semicolon insertion sees the same break");
});

test("unterminated literals and comments are refused, not guessed", () => {
  assert.throws(() => compact('const a = "open\n'), /unterminated string/);
  assert.throws(() => compact("const a = `open"), /unterminated template/);
  assert.throws(() => compact("/* open"), /unterminated comment/);
  assert.throws(() => compact("const a = /open\n"), /unterminated regular expression/);
});
