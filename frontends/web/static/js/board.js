// The board: the mountain pyramid with the bag, and each player's card (hero,
// trove, round scores, total). Drawn from the server's board JSON only; what can
// be clicked is what the caller says is selectable (from the server's choices).

import { addSprite, dieSvg, dieTitle, faceKind, faceWords } from "./dice.js";
import { PLAYER_COLOURS, botKind, clear, el, shortName, svg } from "./util.js";

const KIND_ORDER = { tunnel: 0, treasure: 1, hazard: 2, tool: 3, magic: 4 };
const CELL = 60; // horizontal distance between two slots of a row
const ROW_H = 53; // vertical distance between rows
const DIE = 52;
const LEFT = 30;
const TOP = 22;

/**
 * Let a die that can be clicked be reached with Tab and used with Enter or Space,
 * as a button is (its <title> says which die it is; a picked one is "pressed").
 */
function actionable(node, activate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  if (node.classList.contains("picked")) node.setAttribute("aria-pressed", "true");
  node.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    activate();
  });
}

/** Where slot (row, col) is drawn: the top-left corner of its die. */
export function slotXY(row, col) {
  return [LEFT + (col + row / 2) * CELL + (CELL - DIE) / 2, TOP + (4 - row) * ROW_H];
}

/** The mountain's height in the picture: the pyramid, the ground, the column labels under it. */
const HEIGHT = 308;

function mountainBackdrop() {
  const g = svg("g", { class: "backdrop" });
  g.append(svg("path", { class: "rock", d: "M6 292 L146 14 L274 14 L414 292 Z" }));
  g.append(svg("path", { class: "rock-edge", d: "M6 292 L146 14 L274 14 L414 292" }));
  g.append(svg("path", { class: "ground", d: "M0 292 H420" }));
  return g;
}

/**
 * The board's coordinates, as RULES.md and the events give them ("from row 3, col 0"):
 * each row numbered at its left end (0 at the bottom), each column under the bottom row
 * (a die at row r, col i rests on cols i and i + 1 of the row below: col i runs up and
 * to the right from its label).
 */
function coordinates() {
  const g = svg("g", { class: "coords", "aria-hidden": "true" });
  for (let row = 0; row < 5; row++) {
    const [x, y] = slotXY(row, 0);
    g.append(svg("text", { class: "coord coord-row", x: x - 5, y: y + DIE / 2, "text-anchor": "end", "dominant-baseline": "central" }, `row ${row}`));
  }
  for (let col = 0; col < 6; col++) {
    const [x] = slotXY(0, col);
    g.append(svg("text", { class: "coord coord-col", x: x + DIE / 2, y: HEIGHT - 4, "text-anchor": "middle" }, `col ${col}`));
  }
  return g;
}

function bagBadge(board) {
  const g = svg("g", { class: "bag", transform: "translate(356 8)" });
  g.append(svg("path", { class: "bag-sack", d: "M14 12 C6 18 4 30 8 38 C12 44 32 44 36 38 C40 30 38 18 30 12 Z" }));
  g.append(svg("path", { class: "bag-tie", d: "M14 12 Q22 6 30 12 L27 8 Q22 4 17 8 Z" }));
  g.append(svg("text", { class: "bag-count", x: 22, y: 31, "text-anchor": "middle" }, String(board.bag.length)));
  g.append(svg("text", { class: "bag-label", x: 22, y: 56, "text-anchor": "middle" }, "in the bag"));
  if (board.mode === "solo") {
    g.append(svg("text", { class: "bag-label", x: 22, y: 70, "text-anchor": "middle" }, `${board.out_of_game.length} out of game`));
  }
  return g;
}

/** The mountain's layers, made once per <svg>: what never changes, then one place per slot. */
function mountainLayers(root) {
  if (root.dmLayers) return root.dmLayers;
  clear(root);
  root.setAttribute("viewBox", `0 0 420 ${HEIGHT}`);
  const slots = svg("g", { class: "slots" });
  const bag = svg("g", { class: "bag-layer" });
  root.append(mountainBackdrop(), coordinates(), slots, bag);
  // one listener for every die, ever: a die drawn again keeps working without one of its own
  const use = (event) => {
    const node = event.target.closest && event.target.closest("[data-die]");
    if (node && root.dmOnDie) root.dmOnDie(Number(node.dataset.die));
  };
  root.addEventListener("click", use);
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!event.target.closest || !event.target.closest("[role=button][data-die]")) return;
    event.preventDefault();
    event.stopPropagation();
    use(event);
  });
  root.dmLayers = { slots, bag, keys: [], bagKey: null };
  return root.dmLayers;
}

/** What a die in the mountain is now: the same key, the same drawing. */
function slotDrawing(row, col, die, options, top, side) {
  const slot = `${row},${col}`;
  const left = options.left && options.left.has(slot);
  const [x, y] = slotXY(row, col);
  if (!die) {
    const key = `empty ${left}`;
    const classes = ["slot-empty", left ? "left" : null].filter(Boolean).join(" ");
    return {
      key,
      make: () =>
        svg(
          "rect",
          { class: classes, x: x + 3, y: y + 3, width: DIE - 6, height: DIE - 6, rx: 8, dataset: { slot } },
          left ? svg("title", {}, `row ${row}, col ${col}: the last move's die came from here`) : null,
        ),
    };
  }
  const where = top.has(die.id) ? "top" : side.has(die.id) ? "side" : "covered";
  const classes = [where];
  const mark = (set, name) => set && set.has(die.id) && classes.push(name);
  mark(options.selectable, "selectable");
  mark(options.picked, "picked");
  mark(options.highlight, "highlight");
  mark(options.last, "last-move");
  mark(options.best, "best-move");
  if (left) classes.push("left");
  // its name says where it lies, in the event list's words ("from row 4, col 0")
  let title = `${dieTitle(die)}; ${where === "top" ? "on top" : where}, row ${row}, col ${col}`;
  if (classes.includes("last-move")) title += "; rolled by the last move";
  if (classes.includes("best-move")) title += "; part of the best move found";
  if (left) title += "; it slid into the place the last move's die left";
  const key = JSON.stringify([die, classes, title]);
  const make = () => {
    const node = dieSvg(die, { size: DIE, x, y, classes, title });
    node.dataset.slot = slot;
    if (classes.includes("selectable")) {
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      if (classes.includes("picked")) node.setAttribute("aria-pressed", "true");
    }
    return node;
  };
  return { key, make };
}

/**
 * Draw the mountain into an <svg>: each of the 20 slots is drawn again only when what it
 * shows changed (a step moves a die or two), so stepping through a game stays fast.
 * options: {selectable, picked, highlight, last (dice the last move touched), best (dice of
 *           the best move found): Set<die id>; left: Set<"row,col"> (the slots the last move's
 *           dice left); onDie(id)}
 */
export function renderMountain(root, board, options = {}) {
  addSprite();
  const layers = mountainLayers(root);
  root.dmOnDie = options.onDie || null;
  const occupied = new Map(board.mountain.map((slot) => [`${slot.row},${slot.col}`, slot.die]));
  const top = new Set(board.table.top);
  const side = new Set(board.table.side);
  let k = 0;
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 6 - row; col++, k++) {
      const drawing = slotDrawing(row, col, occupied.get(`${row},${col}`), options, top, side);
      if (layers.keys[k] === drawing.key) continue;
      const node = drawing.make();
      const old = layers.slots.children[k];
      const focused = old && old.contains(document.activeElement);
      if (old) old.replaceWith(node);
      else layers.slots.append(node);
      layers.keys[k] = drawing.key;
      if (focused && node.getAttribute("tabindex") !== null) node.focus();
    }
  }
  const bagKey = `${board.mode} ${board.bag.length} ${board.out_of_game.length}`;
  if (layers.bagKey !== bagKey) {
    layers.bag.replaceChildren(bagBadge(board));
    layers.bagKey = bagKey;
  }
  const dice = board.mountain.length;
  root.setAttribute("aria-label", `The mountain: ${dice} ${dice === 1 ? "die" : "dice"}, ${top.size} on top; ${board.bag.length} in the bag`);
  root.dataset.seq = String(board.seq);
  if (root.parentElement) root.parentElement.classList.toggle("empty", !board.mountain.length);
}

function sortedTrove(trove) {
  return [...trove].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || String(a.face).localeCompare(String(b.face)) || a.id - b.id);
}

/**
 * Solo: each trove die with its partner from the server's pairs (rule D9 area: a
 * hazard and the tool die that neutralizes it; a frozen treasure and its chest die),
 * and the pairs as groups to draw together.
 */
function soloPairs(trove, board) {
  const byId = new Map(trove.map((die) => [die.id, { ...die }]));
  const links = [];
  for (const [hazard, tool] of board.table.neutralized || []) {
    const h = byId.get(hazard);
    const t = byId.get(tool);
    if (!h || !t) continue;
    h.neutralizedBy = tool;
    t.neutralizes = hazard;
    links.push({ dice: [h, t], link: "neutralized", title: `die ${tool} neutralizes die ${hazard}`, order: KIND_ORDER.hazard });
  }
  const chests = new Map();
  for (const [treasure, chest] of board.table.frozen || []) {
    const d = byId.get(treasure);
    const c = byId.get(chest);
    if (!d || !c) continue;
    d.frozenOn = chest;
    c.holds = [...(c.holds || []), treasure];
    if (!chests.has(chest)) chests.set(chest, { dice: [], link: "frozen", order: KIND_ORDER.treasure + 0.5, chest: c });
    chests.get(chest).dice.push(d);
  }
  for (const group of chests.values()) {
    group.dice.push(group.chest);
    const ids = group.dice.slice(0, -1).map((d) => d.id);
    group.title = `${ids.length === 1 ? "die" : "dice"} ${ids.join(" and ")} frozen on the chests of die ${group.chest.id}`;
    links.push(group);
  }
  return { dice: [...byId.values()], links };
}

/**
 * The trove in groups, each drawn apart: by die type, and in the solo game each
 * tunnel sequence on its own, from its 1 up (the server's sequences), since what
 * may be taken next depends on where each sequence ends; each neutralized hazard
 * with its tool die, each chest die with the treasures frozen on it.
 * A group: {dice, link?: "neutralized" | "frozen", title?}.
 */
function troveGroups(trove, board) {
  const solo = board.mode === "solo";
  const { dice, links } = solo ? soloPairs(trove, board) : { dice: trove, links: [] };
  const byId = new Map(dice.map((die) => [die.id, die]));
  const sequences = solo ? board.table.sequences || [] : [];
  const groups = sequences
    .map((seq) => seq.map((id) => byId.get(id)).filter(Boolean))
    .filter((g) => g.length)
    .map((g) => ({ dice: g }));
  const grouped = new Set([...groups, ...links].flatMap((g) => g.dice.map((die) => die.id)));
  const rest = [];
  let last = null;
  for (const die of sortedTrove(dice.filter((d) => !grouped.has(d.id)))) {
    if (!last || last.dice[0].kind !== die.kind) {
      last = { dice: [], order: KIND_ORDER[die.kind] };
      rest.push(last);
    }
    last.dice.push(die);
  }
  const ordered = [...rest, ...links].sort((a, b) => a.order - b.order); // stable: kinds before their pairs
  return [...groups, ...ordered];
}

/** One die of a trove, clickable (and reachable with Tab) when the caller says it is selectable. */
function troveDie(die, seat, options) {
  const classes = [];
  if (options.selectable && options.selectable.has(die.id)) classes.push("selectable");
  if (options.picked && options.picked.has(die.id)) classes.push("picked");
  if (options.highlight && options.highlight.has(die.id)) classes.push("highlight");
  if (options.last && options.last.has(die.id)) classes.push("last-move");
  if (options.best && options.best.has(die.id)) classes.push("best-move");
  let title = dieTitle(die);
  if (classes.includes("last-move")) title += "; the last move";
  if (classes.includes("best-move")) title += "; part of the best move found";
  const node = dieSvg(die, { size: 34, classes, title });
  if (options.onDie) {
    node.addEventListener("click", () => options.onDie(die.id, seat));
    if (classes.includes("selectable")) actionable(node, () => options.onDie(die.id, seat));
  }
  return node;
}

/** A score with a true minus sign for negatives: "−2". */
function signed(value) {
  return value < 0 ? `\u2212${-value}` : String(value);
}

/** Each seat's score if the round in play ended now (the server's scoring), with its parts. */
function nowLine(seat, board) {
  const now = board.table.round_now && board.table.round_now[seat];
  if (!now) return null;
  const [tunnels, treasure, hazards] = now;
  return el(
    "div",
    { class: "now", title: "this round's score if it were scored now" },
    "this round so far: ",
    el("b", {}, signed(board.table.round_now_total[seat])),
    el("span", { class: "parts" }, ` (tunnels ${tunnels} · treasure ${treasure} · hazards ${signed(hazards)})`),
  );
}

/** The solo score's parts and the refills left. */
function soloLine(board) {
  const score = board.table.solo_score;
  if (!score || !score.breakdown) return null;
  const b = score.breakdown;
  const refills = board.table.refills_left;
  return el(
    "div",
    { class: "now solo" },
    el("b", {}, score.rating),
    el("span", { class: "parts" }, `: tunnels ${b.tunnels} · treasure ${b.treasure} · frozen ${b.frozen} · hazards ${b.hazards}`),
    refills === undefined ? null : el("span", { class: "refills" }, ` · ${refills} ${refills === 1 ? "refill" : "refills"} left`),
  );
}

/** A bot playing a person's seat, at the seat: until they move again, or for good. */
function standIn(t, seat) {
  const kind = t.stand_ins && t.stand_ins[String(seat)];
  if (!kind) return null;
  const left = (t.left || []).includes(seat);
  const words = left ? `left · a ${kind} bot plays on` : `away · a ${kind} bot stands in`;
  return el("p", { class: "stand-in", title: left ? "They left the game for good" : "They take the seat back by moving" }, words);
}

function roundsLine(player, board) {
  const line = el("div", { class: "rounds" });
  const rounds = board.mode === "solo" ? [] : [0, 1, 2];
  for (const r of rounds) {
    const score = player.round_scores[r];
    const b = player.breakdowns[r];
    const title = b ? `tunnels ${b[0]}, treasure ${b[1]}, hazards ${b[2]}` : "not scored yet";
    line.append(el("span", { class: `round${score === undefined ? " unscored" : ""}`, title }, `R${r + 1} `, el("b", {}, score === undefined ? "–" : String(score))));
  }
  player.tiebreak_scores.forEach((score, i) => {
    line.append(el("span", { class: "round tiebreak", title: `tie-break ${i + 1}` }, `TB${i + 1} `, el("b", {}, String(score))));
  });
  return line;
}

/** The hero faces of ``seat`` in a set of "seat:index" keys. */
function heroFacesIn(set, seat) {
  return set ? [...set].filter((key) => key.startsWith(`${seat}:`)).sort() : [];
}

function cardKey(player, seat, board, options, best) {
  const t = board.table;
  const marks = (set) => (set ? player.trove.filter((d) => set.has(d.id)).map((d) => d.id) : []);
  const heroMarks = player.hero_faces.map((_, i) => `${seat}:${i}`).filter((k) => (options.heroSelectable && options.heroSelectable.has(k)) || options.pickedHero === k);
  return JSON.stringify([
    player,
    board.mode,
    board.phase,
    best,
    t.to_act_seat === seat,
    t.winner_seats.includes(seat),
    t.hero_spent[seat] || [],
    t.solo_score || null,
    options.mySeat === seat,
    (t.round_now && t.round_now[seat]) || null,
    t.sequences || null,
    t.refills_left ?? null,
    t.neutralized || null,
    t.frozen || null,
    marks(options.selectable),
    marks(options.picked),
    marks(options.highlight),
    heroMarks,
    marks(options.last),
    marks(options.best),
    heroFacesIn(options.lastHero, seat),
    heroFacesIn(options.bestHero, seat),
  ]);
}

/**
 * Draw the players' cards into a container.
 * options: {selectable: Set<die id>, picked: Set<die id>, heroSelectable: Set<"seat:index">,
 *           highlight: Set<die id>, onDie(id, seat), onHeroFace(seat, index), mySeat,
 *           last, best: Set<die id> (the last move's dice, the best move's), lastHero, bestHero:
 *           Set<"seat:index"> (a hero face the last move, or the best one, spent)}
 */
export function renderPlayers(container, board, options = {}) {
  addSprite();
  const t = board.table;
  const best = Math.max(...board.players.map((p) => p.total));
  const cards = [...container.children];
  while (cards.length > board.players.length) cards.pop().remove();
  board.players.forEach((player, seat) => {
    // A card is rebuilt only when something it shows changed (most steps touch one trove).
    const key = cardKey(player, seat, board, options, best);
    if (cards[seat] && cards[seat].dataset.key === key) return;
    const classes = ["player", `p${seat}`];
    if (t.to_act_seat === seat) classes.push("to-act");
    if (t.winner_seats.includes(seat)) classes.push("winner");
    if (options.mySeat === seat) classes.push("mine");
    const kind = botKind(player.name);
    const total = board.mode === "solo" && t.solo_score ? t.solo_score.score : player.total;
    const head = el(
      "header",
      {},
      el("span", { class: "dot" }),
      el("span", { class: "name", id: `player-name-${seat}`, title: player.name }, shortName(player.name)), // cut with an ellipsis when long: the whole name on hover
      t.to_act_seat === seat ? el("span", { class: "visually-hidden" }, " (to act)") : null,
      kind ? el("span", { class: "tag" }, kind) : null,
      options.mySeat === seat ? el("span", { class: "tag you" }, "you") : null,
      player.hero ? el("span", { class: "hero" }, player.hero) : null,
      el("span", { class: `total${total === best && board.phase === "over" ? " best" : ""}`, title: "total" }, String(total)),
    );
    const trove = el("div", { class: "trove" });
    for (const [n, group] of troveGroups(player.trove, board).entries()) {
      if (n) trove.append(el("span", { class: "gap" }));
      const nodes = group.dice.map((die) => troveDie(die, seat, options));
      if (group.link) trove.append(el("span", { class: `link-group link-${group.link}`, title: group.title, dataset: { link: group.link } }, nodes));
      else trove.append(...nodes);
    }
    if (!player.trove.length) trove.append(el("span", { class: "empty-trove" }, "no dice yet"));
    const heroFaces = el("div", { class: "hero-faces" });
    const spent = new Set((t.hero_spent[seat] || []).map(Number));
    player.hero_faces.forEach((face, index) => {
      const key = `${seat}:${index}`;
      const faceClasses = [];
      if (options.heroSelectable && options.heroSelectable.has(key)) faceClasses.push("selectable");
      if (options.pickedHero === key) faceClasses.push("picked");
      if (options.lastHero && options.lastHero.has(key)) faceClasses.push("last-move");
      if (options.bestHero && options.bestHero.has(key)) faceClasses.push("best-move");
      let title = `hero face h${index}: ${faceWords(face)}${spent.has(index) ? " (spent)" : ""}`; // as "spend h0 on 3" numbers it
      if (faceClasses.includes("last-move")) title += "; the last move";
      if (faceClasses.includes("best-move")) title += "; the best move found";
      const node = dieSvg({ kind: faceKind(face), face, spent: spent.has(index) }, { size: 28, hero: true, classes: faceClasses, title });
      node.dataset.heroFace = key;
      if (options.onHeroFace) node.addEventListener("click", () => options.onHeroFace(seat, index));
      if (options.onHeroFace && faceClasses.includes("selectable")) actionable(node, () => options.onHeroFace(seat, index));
      heroFaces.append(node);
    });
    const body = el("div", { class: "player-body" }, trove);
    if (player.hero_faces.length) body.append(el("div", { class: "hero-strip" }, el("span", { class: "hero-label" }, "hero"), heroFaces));
    const card = el(
      "article",
      { class: classes.join(" "), "aria-labelledby": `player-name-${seat}`, dataset: { seat: String(seat), key } },
      head,
      standIn(t, seat),
      roundsLine(player, board),
      board.mode === "solo" ? soloLine(board) : nowLine(seat, board),
      body,
    );
    card.style.setProperty("--pc", PLAYER_COLOURS[seat % PLAYER_COLOURS.length]);
    if (cards[seat]) cards[seat].replaceWith(card);
    else container.append(card);
  });
  container.className = `players n${board.players.length}`;
  container.dataset.seq = String(board.seq);
}
