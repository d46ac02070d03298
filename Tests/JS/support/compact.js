/**
 * JavaScript without its comments, blank lines and indentation: what a browser needs
 * to run the runtime, about half the bytes of the commented modules.
 *
 * The bundle (`bundle.js`) passes every module through `compact` so that a page
 * downloads, scans and compiles less before it is live; the modules stay the readable
 * source. Line breaks between statements are kept (automatic semicolon insertion sees
 * the same lines, and a stack trace's line still points at one statement), so this is
 * no minifier: names and spacing inside a line are untouched.
 *
 * A small lexer decides what is a comment: it knows string literals, template literals
 * (with `${…}` nested to any depth), regular-expression literals (a `/` after a value
 * divides, anywhere else it opens a regular expression) and both kinds of comment.
 * Nothing inside a literal changes, not even the indentation of a template's lines.
 *
 * @example
 * compact("/** Twice. *\/\nfunction twice(x) {\n  return 2 * x; // doubled\n}\n")
 * // "function twice(x) {\nreturn 2 * x;\n}\n"
 */

/** Words after which a `/` opens a regular expression rather than dividing. */
const KEYWORDS_BEFORE_EXPRESSION = new Set([
  "await", "case", "delete", "do", "else", "in", "instanceof", "new", "of", "return", "throw", "typeof", "void", "yield",
]);

const WORD = /[A-Za-z0-9_$\u0080-\uffff]/;

/**
 * @param {string} source a script or module
 * @returns {string} the same program without comments, empty lines or indentation
 */
export function compact(source) {
  /** @type {string[]} */
  const lines = [];
  let line = "";
  /** The brace depth at each open `${` of the templates we are inside. */
  const templates = [];
  let depth = 0;
  /** The last token of code: a word, or one punctuator character. */
  let previous = "";
  let inTemplate = false;
  let i = 0;

  const newline = () => {
    if (inTemplate) {
      lines.push(line);
    } else {
      const trimmed = line.trimEnd();
      if (trimmed !== "") lines.push(trimmed);
    }
    line = "";
  };
  const fail = (what) => {
    throw new Error(`compact: ${what} at line ${source.slice(0, i).split("\n").length}`);
  };
  /** Copies a quoted literal that starts at `i` and ends with `quote`. */
  const copyQuoted = (quote) => {
    const start = i++;
    while (i < source.length && source[i] !== quote) {
      if (source[i] === "\n") fail("unterminated string");
      i += source[i] === "\\" ? 2 : 1;
    }
    if (i >= source.length) fail("unterminated string");
    line += source.slice(start, ++i);
  };
  const copyRegex = () => {
    const start = i++;
    let inClass = false;
    while (i < source.length && (inClass || source[i] !== "/")) {
      if (source[i] === "\n") fail("unterminated regular expression");
      if (source[i] === "[") inClass = true;
      else if (source[i] === "]") inClass = false;
      i += source[i] === "\\" ? 2 : 1;
    }
    if (i >= source.length) fail("unterminated regular expression");
    line += source.slice(start, ++i);
  };

  while (i < source.length) {
    const c = source[i];
    if (inTemplate) {
      if (c === "\n") {
        newline();
        i++;
      } else if (c === "\\") {
        line += source.slice(i, i + 2);
        i += 2;
      } else if (c === "`") {
        line += c;
        i++;
        inTemplate = false;
        previous = "`";
      } else if (c === "$" && source[i + 1] === "{") {
        line += "${";
        i += 2;
        templates.push(depth);
        inTemplate = false;
        previous = "{";
      } else {
        line += c;
        i++;
      }
      continue;
    }
    if (c === "\n") {
      newline();
      i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      if (line !== "" && !/[ \t]$/.test(line)) line += c;
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      if (end < 0) fail("unterminated comment");
      const spansLines = source.slice(i, end).includes("\n");
      i = end + 2;
      if (spansLines) newline();
      else if (line !== "" && !line.endsWith(" ")) line += " ";
    } else if (c === "/") {
      const divides = WORD.test(previous.slice(-1)) ? !KEYWORDS_BEFORE_EXPRESSION.has(previous) : ")]`\"'".includes(previous);
      if (divides) {
        line += c;
        i++;
        previous = c;
      } else {
        copyRegex();
        previous = ")"; // a value, as after a closing parenthesis
      }
    } else if (c === '"' || c === "'") {
      copyQuoted(c);
      previous = c;
    } else if (c === "`") {
      line += c;
      i++;
      inTemplate = true;
    } else if (WORD.test(c)) {
      const start = i;
      while (i < source.length && WORD.test(source[i])) i++;
      previous = source.slice(start, i);
      line += previous;
    } else {
      if (c === "{") {
        depth++;
      } else if (c === "}") {
        if (templates.length > 0 && templates[templates.length - 1] === depth) {
          templates.pop();
          inTemplate = true;
        } else {
          depth--;
        }
      }
      line += c;
      i++;
      previous = c;
    }
  }
  if (inTemplate || templates.length > 0) fail("unterminated template literal");
  newline();
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
