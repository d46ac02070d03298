/**
 * The DOM of a conformance case as one comparable string: what the binding
 * conformance cases (`Tests/Conformance/bindings.json`) compare, here for the runtime's
 * fake DOM and in `BindingConformanceTests.swift` for the server's renderer, by the same
 * rules: attributes sorted by name, classes sorted, whitespace in text collapsed and
 * trimmed (whitespace-only text dropped), form fields as their current values (an
 * input's `value` when not empty, `checked`, a text area's text, the selected option),
 * and the runtime's `sc-joining` class and the renderer's `data-sc-rendered` row
 * marker left out.
 */

/**
 * @param {any[]} nodes
 * @returns {string}
 */
export function normalizeNodes(nodes) {
  return nodes.map((node) => normalizeNode(node, null)).join("");
}

/**
 * @param {any} node
 * @param {string | null} selectValue the value of the enclosing select, for its options
 * @returns {string}
 */
function normalizeNode(node, selectValue) {
  if (node.localName === undefined) {
    const text = node.textContent.replace(/\s+/g, " ").trim();
    return escapeText(text);
  }
  const name = node.localName;
  /** @type {Map<string, string>} */
  const attributes = new Map();
  for (const { name: attribute, value } of node.attributes) {
    if (attribute === "data-sc-rendered") continue;
    attributes.set(attribute, value);
  }
  if (attributes.has("class")) {
    const classes = attributes
      .get("class")
      .split(/\s+/)
      .filter((token) => token !== "" && token !== "sc-joining")
      .sort();
    if (classes.length === 0) attributes.delete("class");
    else attributes.set("class", classes.join(" "));
  }
  let children = node.localName === "template" && node.content ? node.content.childNodes : node.childNodes;
  let inner = null;
  if (name === "input") {
    attributes.delete("checked");
    if (node.checked) attributes.set("checked", "");
    const type = (node.getAttribute("type") ?? "text").toLowerCase();
    if (type !== "checkbox" && type !== "radio") {
      attributes.delete("value");
      if (node.value !== "") attributes.set("value", node.value);
    }
  } else if (name === "textarea") {
    inner = escapeText(String(node.value).replace(/\s+/g, " ").trim());
  } else if (name === "option" && selectValue !== null) {
    attributes.delete("selected");
    const value = node.getAttribute("value") ?? node.textContent.replace(/\s+/g, " ").trim();
    if (value === selectValue) attributes.set("selected", "");
  }
  const nextSelect = name === "select" ? selectedValue(node) : selectValue;
  const sorted = [...attributes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const head = `<${name}${sorted.map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join("")}>`;
  if (name === "input" || name === "img" || name === "br" || name === "hr" || name === "meta" || name === "link") return head;
  if (inner === null) inner = Array.from(children, (child) => normalizeNode(child, nextSelect)).join("");
  return `${head}${inner}</${name}>`;
}

/** @param {string} text */
function escapeText(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** @param {string} text */
function escapeAttribute(text) {
  return escapeText(text).replace(/"/g, "&quot;");
}

/**
 * A select's value: its `value` property, or (in a document just parsed, where the
 * fake DOM does not derive it) the option marked `selected`.
 * @param {any} select
 * @returns {string}
 */
function selectedValue(select) {
  if (select.value !== "") return String(select.value);
  const option = select.querySelectorAll("option").find((/** @type {any} */ each) => each.hasAttribute("selected"));
  return option ? (option.getAttribute("value") ?? option.textContent.replace(/\s+/g, " ").trim()) : "";
}
