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

/** Phase names in words. */
export const PHASES = {
  setup: "Choosing heroes",
  excavation: "Excavation",
  magic: "Magic phase",
  replenish: "Replenish",
  over: "Game over",
  solo: "Digging",
};

/** One line saying where the game stands. */
export function statusText(board) {
  if (!board) return "";
  const t = board.table;
  const names = board.players.map((p) => shortName(p.name));
  if (board.phase === "over") {
    if (board.mode === "solo" && t.solo_score) {
      return `Game over: ${t.solo_score.score} points, ${t.solo_score.rating}`;
    }
    const winners = t.winner_seats.map((s) => names[s]);
    if (!winners.length) return "Game over";
    const best = Math.max(...board.players.map((p) => p.total));
    const verb = winners.length === 1 ? "wins" : "share the win";
    return `Game over: ${winners.join(" and ")} ${verb} with ${best}`;
  }
  const parts = [];
  if (board.round) parts.push(`Round ${board.round}`);
  if (t.tiebreak) parts.push(`Tie-break ${t.tiebreak}`);
  parts.push(PHASES[board.phase] || board.phase);
  if (t.to_act_seat !== null && t.to_act_seat !== undefined) {
    let who = `${names[t.to_act_seat]} to act`;
    if (board.phase === "excavation" && t.beer_shared) {
      who += ` (${t.picks_left} ${t.picks_left === 1 ? "pick" : "picks"} left after a beer)`;
    }
    parts.push(who);
  }
  if (board.mode === "solo" && t.solo_score) {
    parts.push(`${t.solo_score.score} points so far`);
  }
  return parts.join(" · ");
}
