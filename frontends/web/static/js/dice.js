// Dice as SVG: a rounded die in its type's colour with the face's glyphs.
// The glyphs are symbols in one sprite (added to the page once); a face is drawn
// as 1 to 4 copies of its symbol, a tunnel face as its number.

import { svg } from "./util.js";

/** Symbol paths, in a 24 x 24 box. */
const SYMBOLS = {
  gem: [
    ["path", { d: "M7 4h10l5 6-10 11L2 10z", class: "g-fill" }],
    ["path", { d: "M2 10h20M7 4l5 6 5-6M12 10v11", class: "g-line" }],
  ],
  cavein: [
    ["path", { d: "M2 21l5-9 3 4 4-8 8 13z", class: "g-fill" }],
    ["path", { d: "M7 12l2 9M14 8l-1 13", class: "g-line" }],
  ],
  dragon: [["path", { d: "M12 2c1 5 6 7 6 13a6 6 0 0 1-12 0c0-3 2-5 3-6 0 2 1 3 2 3 0-4-1-7 1-10z", class: "g-fill" }]],
  pickaxe: [
    ["path", { d: "M3 9C7 3 17 3 21 9l-2 1c-3-4-11-4-14 0z", class: "g-fill" }],
    ["path", { d: "M11 6h2v16h-2z", class: "g-fill" }],
  ],
  shield: [
    ["path", { d: "M12 2l8 3v6c0 5-3.5 9-8 11-4.5-2-8-6-8-11V5z", class: "g-fill" }],
    ["path", { d: "M12 5v14M7 10h10", class: "g-line" }],
  ],
  chest: [
    ["path", { d: "M3 10h18v10H3z", class: "g-fill" }],
    ["path", { d: "M3 9c0-4 4-5 9-5s9 1 9 5z", class: "g-fill" }],
    ["path", { d: "M3 10h18M10 10h4v4h-4z", class: "g-line" }],
  ],
  magic: [["path", { d: "M12 1.5l2.9 6.9 7.4.6-5.6 4.9 1.7 7.3L12 17.3l-6.4 3.9 1.7-7.3L1.7 9l7.4-.6z", class: "g-fill" }]],
  beer: [
    ["path", { d: "M5 8h11v13H5z", class: "g-beer" }],
    ["path", { d: "M16 10h2.5a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2H16v-2h2.5v-4H16z", class: "g-beer" }],
    ["path", { d: "M4 8c0-3 2-4 4-3 1-2 4-2 5 0 2-1 4 0 4 3z", class: "g-foam" }],
  ],
  lock: [
    ["path", { d: "M6 11V8a6 6 0 0 1 12 0v3h-2V8a4 4 0 0 0-8 0v3z", class: "g-fill" }],
    ["path", { d: "M4 11h16v11H4z", class: "g-fill" }],
  ],
  snow: [["path", { d: "M12 2v20M3.3 7l17.4 10M3.3 17L20.7 7", class: "g-line" }]],
  // a neutralized hazard: a tick on a disc
  check: [
    ["circle", { cx: 12, cy: 12, r: 11, class: "g-fill" }],
    ["path", { d: "M6.5 12.5l3.6 3.6 7.4-8", class: "g-mark" }],
  ],
  // the tool die that neutralizes one: a chain link on a disc
  link: [
    ["circle", { cx: 12, cy: 12, r: 11, class: "g-fill" }],
    ["path", { d: "M10.8 8.2l1.6-1.6a3.3 3.3 0 0 1 4.7 4.7l-1.6 1.6M13.2 15.8l-1.6 1.6a3.3 3.3 0 0 1-4.7-4.7l1.6-1.6M9.8 14.2l4.4-4.4", class: "g-mark" }],
  ],
};

/** A face's symbol and how many times it shows. */
export function faceGlyph(face) {
  if (face === null || face === undefined) return null;
  if (/^[1-5]$/.test(face)) return { number: face };
  const match = /^([a-z]+?)(\d)$/.exec(face);
  if (match) {
    const name = { gem: "gem", cavein: "cavein", dragon: "dragon", chest: "chest", magic: "magic" }[match[1]];
    return { symbol: name, count: Number(match[2]) };
  }
  return { symbol: face, count: 1 }; // beer, pickaxe, shield
}

let faceTable = null;

/** Give the faces' words (the server's table; a page reads it from #face-words itself). */
export function setFaceWords(table) {
  faceTable = table;
}

function faceWordsTable() {
  if (!faceTable && typeof document !== "undefined") {
    const node = document.getElementById("face-words");
    faceTable = node ? JSON.parse(node.textContent) : null;
  }
  return faceTable || {};
}

/** A face in words, as the server words it ("3" is "tunnel 3"; null: still in the bag). */
export function faceWords(face) {
  const words = faceWordsTable()[face === null || face === undefined ? "" : face];
  return words === undefined ? String(face) : words;
}

let spriteAdded = false;

/** Add the symbol sprite to the page (once). */
export function addSprite() {
  if (spriteAdded) return;
  spriteAdded = true;
  const defs = svg("defs");
  for (const [name, parts] of Object.entries(SYMBOLS)) {
    const symbol = svg("symbol", { id: `sym-${name}`, viewBox: "0 0 24 24" });
    for (const [tag, attrs] of parts) symbol.append(svg(tag, attrs));
    defs.append(symbol);
  }
  const sprite = svg("svg", { class: "sprite", width: 0, height: 0, "aria-hidden": "true" }, defs);
  document.body.prepend(sprite);
}

// Where 1 to 4 copies of a symbol go on a 40 x 40 die: [x, y, size] each.
const LAYOUTS = {
  1: [[8, 8, 24]],
  2: [
    [3, 11, 17],
    [20, 11, 17],
  ],
  3: [
    [11.5, 3, 17],
    [3, 19, 17],
    [20, 19, 17],
  ],
  4: [
    [4, 4, 15],
    [21, 4, 15],
    [4, 21, 15],
    [21, 21, 15],
  ],
};

function use(name, x, y, size, extra = {}) {
  return svg("use", { href: `#sym-${name}`, x, y, width: size, height: size, ...extra });
}

/**
 * A die as an <svg> element (40 x 40 units, drawn at ``size`` pixels).
 * die: {id, kind, face, spent?, cached?, frozen?, neutralized?} and, in the solo game,
 * its partner from the board's pairs: neutralizedBy / neutralizes (a hazard and its
 * tool die), frozenOn / holds (a frozen treasure and its chest die).
 * options: {size, x, y, hero (a hero face: no id, dashed), showId, classes, title,
 * decorative (no name: what it shows is said by its container)}
 */
export function dieSvg(die, options = {}) {
  addSprite();
  const size = options.size || 40;
  const classes = ["die", `die-${die.kind}`];
  if (die.face === "beer") classes.push("face-beer");
  for (const flag of ["spent", "cached", "frozen", "neutralized"]) if (die[flag]) classes.push(flag);
  if (die.neutralizes !== undefined) classes.push("neutralizer");
  if (die.holds && die.holds.length) classes.push("holding");
  if (options.hero) classes.push("hero-face");
  if (options.classes) classes.push(...options.classes);
  const node = svg("svg", {
    class: classes.join(" "),
    viewBox: "0 0 40 40",
    width: size,
    height: size,
    x: options.x,
    y: options.y,
    // named by its <title> alone (also the mouse's tooltip): an aria-label beside it made axe's
    // label-content-name-mismatch (the title's text and the die's id are its content)
    role: options.decorative ? null : "img",
    "aria-hidden": options.decorative ? "true" : null,
  });
  if (die.id !== undefined && die.id !== null) node.dataset.die = String(die.id);
  if (!options.decorative) node.append(svg("title", {}, options.title || dieTitle(die, options.hero)));
  node.append(svg("rect", { class: "die-ring", x: 0.5, y: 0.5, width: 39, height: 39, rx: 9 }));
  node.append(svg("rect", { class: "die-body", x: 2, y: 2, width: 36, height: 36, rx: 7.5 }));
  node.append(svg("path", { class: "die-shine", d: "M6 9.5a5 5 0 0 1 5-5h18" }));
  const glyph = faceGlyph(die.face);
  if (glyph && glyph.number) {
    node.append(svg("text", { class: "die-number", x: 20, y: 21, "text-anchor": "middle", "dominant-baseline": "central" }, glyph.number));
  } else if (glyph) {
    const count = Math.min(glyph.count, 4);
    for (const [x, y, s] of LAYOUTS[count]) node.append(use(glyph.symbol, x, y, s, { class: "glyph" }));
  }
  if (options.showId !== false && die.id !== undefined && die.id !== null && !options.hero) {
    node.append(svg("text", { class: "die-id", x: 38, y: 38.5 }, String(die.id)));
  }
  if (die.cached) node.append(use("lock", 27, 1, 11, { class: "badge badge-lock" }));
  if (die.frozen || (die.holds && die.holds.length)) node.append(use("snow", 27, 1, 11, { class: "badge badge-snow" }));
  // a neutralized hazard scores and its tool is used up: marked as a pair, not struck out
  if (die.neutralized) node.append(use("check", 27, 1, 11, { class: "badge badge-check" }));
  if (die.neutralizes !== undefined) node.append(use("link", 27, 1, 11, { class: "badge badge-link" }));
  if (die.spent) node.append(svg("path", { class: "die-strike", d: "M7 33L33 7" }));
  return node;
}

/** "die 3", "dice 3 and 7", "dice 3, 7 and 9". */
function diceWords(ids) {
  if (ids.length === 1) return `die ${ids[0]}`;
  return `dice ${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
}

/** What a die's flags and pairs say, in words. */
function flagWords(die) {
  const words = ["spent", "cached"].filter((f) => die[f]);
  if (die.frozen) words.push(die.frozenOn !== undefined ? `frozen on the chest of die ${die.frozenOn}` : "frozen");
  if (die.neutralized) words.push(die.neutralizedBy !== undefined ? `neutralized by die ${die.neutralizedBy}` : "neutralized");
  if (die.neutralizes !== undefined) words.push(`neutralizes die ${die.neutralizes}`);
  if (die.holds && die.holds.length) words.push(`holds frozen ${diceWords(die.holds)}`);
  return words;
}

/** What a die is, for its tooltip and screen readers. */
export function dieTitle(die, hero = false) {
  const flags = flagWords(die);
  const what = hero ? `hero face: ${faceWords(die.face)}` : `die ${die.id}: ${die.kind}, ${faceWords(die.face)}`;
  return flags.length ? `${what} (${flags.join(", ")})` : what;
}

/** The die type a face belongs to (for colouring hero faces); beer has none. */
export function faceKind(face) {
  if (/^[1-5]$/.test(face)) return "tunnel";
  if (face.startsWith("gem")) return "treasure";
  if (face.startsWith("cavein") || face.startsWith("dragon")) return "hazard";
  if (face === "pickaxe" || face === "shield" || face.startsWith("chest")) return "tool";
  if (face.startsWith("magic")) return "magic";
  return "tunnel";
}
