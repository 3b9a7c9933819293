// The game page's board: the mountain and the players' cards (static/js/board.js draws them)
// with the last move marked, what this seat may use now glowing and its picks so far shown.

import { renderMountain, renderPlayers } from "./board.js";
import { lastMove, markOptions } from "./lastmove.js";

/** What this seat has picked so far, as board.js marks it: the dice, the magic source being spent. */
export function pickMarks({ picked, source, mySeat }) {
  return {
    picked: new Set(picked),
    pickedHero: source && source.hero_face !== null ? `${mySeat}:${source.hero_face}` : null,
    highlight: new Set(source && source.die !== null ? [source.die] : []),
  };
}

/**
 * Draw ``board`` into the mountain and the players' cards.
 * view: {records, sel (selection.js ``selectable``), picked, source, mySeat};
 * on: {die(id, where: "mountain" | "trove" | "other"), heroFace(index)} (this seat's own only).
 */
export function drawBoard(dom, board, view, on) {
  const marks = markOptions(lastMove(view.records, board.seq)); // the last move, marked
  const picks = pickMarks(view);
  const mine = view.mySeat;
  renderMountain(dom.mountain, board, { ...marks, selectable: view.sel.mountain, picked: picks.picked, onDie: (id) => on.die(id, "mountain") });
  renderPlayers(dom.players, board, {
    ...marks,
    ...picks,
    mySeat: mine,
    selectable: view.sel.trove,
    heroSelectable: view.sel.hero,
    onDie: (id, seat) => on.die(id, seat === mine ? "trove" : "other"),
    onHeroFace: (seat, index) => seat === mine && on.heroFace(index),
  });
}
