// Small DOM helpers. Everything a player typed (names) goes in as text, never as markup.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: el("button", {class: "x", onclick: f}, "text", child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** An SVG element, the same way. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Remove every child of a node. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Each seat's colour, in seat order (also in app.css as --p0..--p3). */
export const PLAYER_COLOURS = ["#4cc9f0", "#f77f00", "#b5e48c", "#f15bb5"];

/** A player's name without the bot's kind: "Brok (greedy)" -> "Brok". */
export function shortName(name) {
  const match = /^(.+) \(([a-z][a-z0-9_-]*)\)$/.exec(name || "");
  return match ? match[1] : name;
}

/** The kind of bot a name says, or null: "Brok (greedy)" -> "greedy". */
export function botKind(name) {
  const match = /^(.+) \(([a-z][a-z0-9_-]*)\)$/.exec(name || "");
  return match ? match[2] : null;
}
