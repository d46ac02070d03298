/**
 * A minimal DOM for the runtime's binding tests: enough of Node, Element, forms,
 * templates, events and focus to run the bindings as a browser would, plus `html()`
 * to build a tree from markup. Removing a focused element (also by moving it) blurs
 * it, as browsers do, so tests can check that untouched list rows keep their focus.
 */

const VOID = new Set(["input", "br", "img", "hr", "meta", "link"]);

export class Node {
  constructor(ownerDocument) {
    this.ownerDocument = ownerDocument;
    this.parentNode = null;
    /** @type {Node[]} */
    this.childNodes = [];
  }

  get firstChild() {
    return this.childNodes[0] ?? null;
  }

  get lastChild() {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }

  get nextSibling() {
    if (!this.parentNode) return null;
    const siblings = this.parentNode.childNodes;
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }

  get previousSibling() {
    if (!this.parentNode) return null;
    const siblings = this.parentNode.childNodes;
    return siblings[siblings.indexOf(this) - 1] ?? null;
  }

  get children() {
    return this.childNodes.filter((node) => node instanceof Element);
  }

  get firstElementChild() {
    return this.children[0] ?? null;
  }

  get isConnected() {
    let node = this;
    while (node.parentNode) node = node.parentNode;
    return node instanceof Document;
  }

  /** @param {Node} node */
  contains(node) {
    for (let current = node; current; current = current.parentNode) if (current === this) return true;
    return false;
  }

  /** @param {Node} node @param {Node | null} reference */
  insertBefore(node, reference) {
    if (node instanceof DocumentFragment) {
      for (const child of [...node.childNodes]) this.insertBefore(child, reference);
      return node;
    }
    if (node.parentNode) node.parentNode.removeChild(node);
    node.parentNode = this;
    if (reference === null) {
      this.childNodes.push(node);
    } else {
      const index = this.childNodes.indexOf(reference);
      if (index < 0) throw new Error("reference is not a child");
      this.childNodes.splice(index, 0, node);
    }
    this.domMutations = (this.domMutations ?? 0) + 1;
    return node;
  }

  /** @param {Node} node */
  appendChild(node) {
    return this.insertBefore(node, null);
  }

  /** @param {...Node} nodes */
  append(...nodes) {
    for (const node of nodes) this.appendChild(typeof node === "string" ? this.ownerDocument.createTextNode(node) : node);
  }

  /** @param {Node} node */
  removeChild(node) {
    const index = this.childNodes.indexOf(node);
    if (index < 0) throw new Error("not a child");
    const document = this.ownerDocument ?? this;
    if (document.activeElement && node.contains(document.activeElement)) document.activeElement = null;
    this.childNodes.splice(index, 1);
    node.parentNode = null;
    return node;
  }

  remove() {
    this.parentNode?.removeChild(this);
  }

  get textContent() {
    return this.childNodes.map((node) => node.textContent).join("");
  }

  set textContent(text) {
    for (const child of [...this.childNodes]) this.removeChild(child);
    if (text !== "") this.appendChild(this.ownerDocument.createTextNode(String(text)));
    this.textWrites = (this.textWrites ?? 0) + 1;
  }
}

export class Text extends Node {
  constructor(ownerDocument, data) {
    super(ownerDocument);
    this.data = data;
  }

  get nodeType() {
    return 3;
  }

  get textContent() {
    return this.data;
  }

  set textContent(text) {
    this.data = String(text);
  }

  cloneNode() {
    return new Text(this.ownerDocument, this.data);
  }
}

export class DocumentFragment extends Node {
  cloneNode(deep) {
    const copy = new DocumentFragment(this.ownerDocument);
    if (deep) for (const child of this.childNodes) copy.appendChild(child.cloneNode(true));
    return copy;
  }
}

class ClassList {
  constructor(element) {
    this.element = element;
  }

  get tokens() {
    return (this.element.getAttribute("class") ?? "").split(/\s+/).filter(Boolean);
  }

  contains(name) {
    return this.tokens.includes(name);
  }

  add(...names) {
    const tokens = this.tokens;
    for (const name of names) if (!tokens.includes(name)) tokens.push(name);
    this.element.setAttribute("class", tokens.join(" "));
  }

  remove(...names) {
    if (!this.element.hasAttribute("class")) return;
    this.element.setAttribute("class", this.tokens.filter((token) => !names.includes(token)).join(" "));
  }

  toggle(name, force) {
    const on = force === undefined ? !this.contains(name) : force;
    if (on) this.add(name);
    else this.remove(name);
    return on;
  }
}

export class Element extends Node {
  get nodeType() {
    return 1;
  }

  constructor(ownerDocument, localName) {
    super(ownerDocument);
    this.localName = localName.toLowerCase();
    this.tagName = this.localName.toUpperCase();
    /** @type {{ name: string, value: string }[]} */
    this.attributes = [];
    this.listeners = [];
    this.classList = new ClassList(this);
    /** @type {Record<string, string>} inline styles, as set */
    this.style = {};
  }

  getAttribute(name) {
    return this.attributes.find((attr) => attr.name === name.toLowerCase())?.value ?? null;
  }

  hasAttribute(name) {
    return this.getAttribute(name) !== null;
  }

  getAttributeNames() {
    return this.attributes.map((attr) => attr.name);
  }

  setAttribute(name, value) {
    const lower = name.toLowerCase();
    const existing = this.attributes.find((attr) => attr.name === lower);
    if (existing) existing.value = String(value);
    else this.attributes.push({ name: lower, value: String(value) });
  }

  removeAttribute(name) {
    this.attributes = this.attributes.filter((attr) => attr.name !== name.toLowerCase());
  }

  get className() {
    return this.getAttribute("class") ?? "";
  }

  set className(value) {
    this.setAttribute("class", value);
  }

  get id() {
    return this.getAttribute("id") ?? "";
  }

  get hidden() {
    return this.hasAttribute("hidden");
  }

  set hidden(on) {
    if (on) this.setAttribute("hidden", "");
    else this.removeAttribute("hidden");
  }

  addEventListener(type, listener) {
    this.listeners.push({ type, listener });
  }

  removeEventListener(type, listener) {
    this.listeners = this.listeners.filter((entry) => entry.type !== type || entry.listener !== listener);
  }

  /** Dispatches an event that bubbles to the document. */
  dispatchEvent(event) {
    event.target ??= this;
    for (let node = this; node && !event.propagationStopped; node = node.parentNode) {
      event.currentTarget = node;
      for (const { type, listener } of [...(node.listeners ?? [])]) if (type === event.type) listener.call(node, event);
      if (event.bubbles === false) break;
    }
    return !event.defaultPrevented;
  }

  focus() {
    if (this.isConnected) this.ownerDocument.activeElement = this;
  }

  blur() {
    if (this.ownerDocument.activeElement === this) {
      this.ownerDocument.activeElement = null;
      this.dispatchEvent(new FakeEvent("blur", { bubbles: false }));
    }
  }

  cloneNode(deep) {
    const copy = this.ownerDocument.createElement(this.localName);
    copy.attributes = this.attributes.map((attr) => ({ ...attr }));
    if (deep) {
      for (const child of this.childNodes) copy.appendChild(child.cloneNode(true));
      if (this.content) copy.content = this.content.cloneNode(true);
    }
    copy.initialiseFromAttributes?.();
    return copy;
  }

  /** Text of the element's subtree, in document order, for assertions. */
  get innerText() {
    return this.textContent.replace(/\s+/g, " ").trim();
  }

  /** Finds descendants by a tiny selector: `tag`, `.class`, `[attr]` or `[attr="value"]`. */
  querySelectorAll(selector) {
    const matches = [];
    const test = compileSelector(selector);
    const walk = (node) => {
      for (const child of node.children) {
        if (test(child)) matches.push(child);
        walk(child);
      }
    };
    walk(this);
    return matches;
  }

  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

/** Inputs, text areas, selects and buttons: value, checked, defaults and type. */
export class FormControl extends Element {
  constructor(ownerDocument, localName) {
    super(ownerDocument, localName);
    this.initialiseFromAttributes();
  }

  initialiseFromAttributes() {
    this.value = this.localName === "textarea" ? this.textContent : (this.getAttribute("value") ?? (this.localName === "input" && this.type === "checkbox" ? "on" : ""));
    this.checked = this.hasAttribute("checked");
  }

  get type() {
    if (this.localName === "select") return "select-one";
    if (this.localName === "textarea") return "textarea";
    return (this.getAttribute("type") ?? (this.localName === "button" ? "submit" : "text")).toLowerCase();
  }

  get valueAsNumber() {
    return this.value === "" ? NaN : Number(this.value);
  }

  get defaultValue() {
    return this.getAttribute("value") ?? "";
  }

  get disabled() {
    return this.hasAttribute("disabled");
  }

  /** What a user does: set the value and fire input (and change). */
  type_(text) {
    this.focus();
    this.value = text;
    this.dispatchEvent(new FakeEvent("input"));
  }

  /** What a click on a checkbox does. */
  click() {
    if (this.type === "checkbox") this.checked = !this.checked;
    if (this.type === "radio") this.checked = true;
    this.dispatchEvent(new FakeEvent("click"));
    if (this.type === "checkbox" || this.type === "radio") {
      this.dispatchEvent(new FakeEvent("input"));
      this.dispatchEvent(new FakeEvent("change"));
    }
  }
}

export class FormElement extends Element {
  reset() {
    for (const control of this.querySelectorAll("input")) control.initialiseFromAttributes();
    for (const control of this.querySelectorAll("textarea")) control.initialiseFromAttributes();
  }

  /** What pressing Enter or a submit button does. */
  submit_() {
    return this.dispatchEvent(new FakeEvent("submit"));
  }
}

export class Document extends Node {
  constructor() {
    super(null);
    this.ownerDocument = this;
    this.activeElement = null;
    this.documentElement = this.createElement("html");
    this.head = this.createElement("head");
    this.body = this.createElement("body");
    this.appendChild(this.documentElement);
    this.documentElement.append(this.head, this.body);
  }

  createElement(name) {
    const lower = name.toLowerCase();
    if (lower === "input" || lower === "textarea" || lower === "select" || lower === "button") return new FormControl(this, lower);
    if (lower === "form") return new FormElement(this, lower);
    const element = new Element(this, lower);
    if (lower === "template") element.content = new DocumentFragment(this);
    return element;
  }

  createTextNode(text) {
    return new Text(this, text);
  }

  createDocumentFragment() {
    return new DocumentFragment(this);
  }
}

export class FakeEvent {
  constructor(type, init = {}) {
    this.type = type;
    this.bubbles = init.bubbles ?? true;
    this.key = init.key;
    this.button = init.button ?? 0;
    this.ctrlKey = init.ctrlKey ?? false;
    this.metaKey = init.metaKey ?? false;
    this.shiftKey = init.shiftKey ?? false;
    this.altKey = init.altKey ?? false;
    this.detail = init.detail;
    this.defaultPrevented = false;
    this.propagationStopped = false;
    this.target = null;
    this.currentTarget = null;
  }

  preventDefault() {
    this.defaultPrevented = true;
  }

  stopPropagation() {
    this.propagationStopped = true;
  }
}

function compileSelector(selector) {
  const attr = /^\[([\w-]+)(?:="([^"]*)")?\]$/.exec(selector);
  if (attr) return (el) => (attr[2] === undefined ? el.hasAttribute(attr[1]) : el.getAttribute(attr[1]) === attr[2]);
  if (selector[0] === ".") return (el) => el.classList.contains(selector.slice(1));
  return (el) => el.localName === selector.toLowerCase();
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" };

function decode(text) {
  return text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name) => ENTITIES[name]);
}

/**
 * Parses markup into the given document's body (or a fresh document) and returns the
 * first element created.
 * @param {string} markup
 * @param {Document} [document]
 */
export function html(markup, document = new Document()) {
  const stack = [document.body];
  const created = [];
  const pattern = /<!--[\s\S]*?-->|<\/([a-zA-Z0-9-]+)\s*>|<([a-zA-Z0-9-]+)((?:\s+[^\s"'>\/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>|([^<]+)/g;
  let match;
  while ((match = pattern.exec(markup))) {
    const parent = stack[stack.length - 1];
    const into = parent.localName === "template" ? parent.content : parent;
    if (match[1]) {
      const name = match[1].toLowerCase();
      while (stack.length > 1 && stack[stack.length - 1].localName !== name) stack.pop();
      if (stack.length > 1) stack.pop();
    } else if (match[2]) {
      const element = document.createElement(match[2]);
      const attributes = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
      let attribute;
      while ((attribute = attributes.exec(match[3] ?? ""))) {
        element.setAttribute(attribute[1], decode(attribute[2] ?? attribute[3] ?? attribute[4] ?? ""));
      }
      element.initialiseFromAttributes?.();
      into.appendChild(element);
      created.push(element);
      if (!VOID.has(element.localName) && !match[4]) stack.push(element);
    } else if (match[5] !== undefined && !match[0].startsWith("<!--")) {
      if (match[5].trim() !== "" || into === parent) into.appendChild(document.createTextNode(decode(match[5])));
    }
  }
  for (const element of created) if (element.localName === "textarea") element.initialiseFromAttributes();
  return created[0];
}

/** A window stand-in: location, history and window-level listeners. */
export class FakeWindow {
  constructor(href = "http://example.test/") {
    this.location = new URL(href);
    this.pushed = [];
    this.replaced = [];
    this.listeners = [];
    this.history = {
      pushState: (_state, _title, url) => {
        this.location = new URL(url, this.location);
        this.pushed.push(url);
      },
      replaceState: (_state, _title, url) => {
        this.location = new URL(url, this.location);
        this.replaced.push(url);
      },
    };
  }

  addEventListener(type, listener) {
    this.listeners.push({ type, listener });
  }

  removeEventListener(type, listener) {
    this.listeners = this.listeners.filter((entry) => entry.type !== type || entry.listener !== listener);
  }

  /** The user pressed Back: the URL changes, then popstate fires. */
  back(url) {
    this.location = new URL(url, this.location);
    for (const { type, listener } of [...this.listeners]) if (type === "popstate") listener(new FakeEvent("popstate"));
  }
}
