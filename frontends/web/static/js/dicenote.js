// Where a live game's dice come from, in words: a secret seed committed to, then revealed; a
// chosen seed; or a what-if branch's luck (the dice its parent rolled, or a fresh seed, both
// known to anyone). ``diceNote`` is pure (its parts), ``drawDiceNote`` puts them in the page.

import { clear, el } from "./util.js";

/**
 * The note's parts in order: a string, {code: text} (a long hex, shown cut with the whole in
 * its title), {link: text, href} or {command: text}. ``dice``: the server's ``dice`` (with the
 * parent's ``parent_name`` and ``parent_link`` once known); ``gameId``: for the log's name.
 */
export function diceNote(dice, gameId) {
  if (dice.kind === "branch") {
    const parent = dice.parent_name
      ? [{ link: dice.parent_name, href: dice.parent_link || `/replay/${encodeURIComponent(dice.parent_name)}` }]
      : ["another game (its log's SHA-256 ", { code: dice.parent }, ")"];
    const luck =
      dice.luck === "same" ? "same luck: the dice are known (each position rolls what that game rolled there)." : `fresh luck: dice from seed ${dice.seed}, recorded in the log (not secret).`;
    return ["A what-if branch of ", ...parent, ` at event ${dice.at}, `, luck];
  }
  if (dice.kind === "secret") return ["Dice from a secret seed, revealed when the game ends (SHA-256 ", { code: dice.commitment }, ")."];
  if (dice.kind === "revealed") {
    return [
      "Dice from the secret seed ",
      { code: dice.secret },
      ", revealed now the game is over; its SHA-256 ",
      { code: dice.commitment },
      " was in the log from the start. Check every roll: download the log and run ",
      { command: `dice-miner log verify web-${gameId}.dmlog` },
      ".",
    ];
  }
  if (dice.kind === "chosen") return [`Seed ${dice.seed}, chosen by ${dice.chosen_by}: not secret (whoever knows it can foresee the dice).`];
  return [`Seed ${dice.seed}.`];
}

/** Draw the note into ``box`` (hidden without dice; drawn again only when they change). */
export function drawDiceNote(box, dice, gameId) {
  box.hidden = !dice;
  if (!dice) return;
  const key = JSON.stringify(dice);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  clear(box);
  for (const part of diceNote(dice, gameId)) {
    if (typeof part === "string") box.append(part);
    else if (part.code !== undefined) box.append(el("code", { title: part.code }, `${part.code.slice(0, 8)}…`));
    else if (part.link !== undefined) box.append(el("a", { href: part.href }, part.link));
    else box.append(el("code", {}, part.command));
  }
  box.dataset.kind = dice.kind;
}
