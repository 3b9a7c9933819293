// The answer to "help" typed in the game page's command box, as the terminal's
// command line answers it: the commands this seat may type now (the text forms of
// the server's choices, never worked out here) and the syntax. It is drawn in the
// page and nothing is sent, so asking for help can never be taken for a move.

import { clear, el } from "./util.js";

const MULTI_SYNTAX = [
  ["hero NAME", "choose your hero (at the start)"],
  ["take DIE", "take a die from the mountain"],
  ["beer DIE to PLAYER", "share a beer: reroll it, give it to PLAYER (by name, as the page shows it), then take two dice"],
  ["spend DIE on DICE…", "spend a magic die to reroll those dice of your trove"],
  ["spend hN on DICE…", "the same with your hero's face N (h0, h1, …)"],
  ["end", "end your magic turn"],
  ["cache DICE…", "keep those dice as they are through the replenish (cache alone keeps none)"],
  ["undo", "take back your last move"],
  ["help", "this list"],
];

const SOLO_SYNTAX = [
  ["take DIE", "take a top die of the mountain"],
  ["take DIE as FACE", "take a die showing beer as the face you choose (1…5, gem1, pickaxe, …)"],
  ["take DIE freeze", "take a treasure die and freeze it on a chest"],
  ["spend DIE on DICE…", "spend a magic die: recycle those top dice into the bag, one at a time"],
  ["refill", "refill the mountain from the bag"],
  ["stop", "stop digging and score"],
  ["undo", "take back your last move"],
  ["help", "this list"],
];

/** True for a line asking for help ("help", "?"), as the terminal's command line reads it. */
export function isHelp(text) {
  const word = text.trim().split(/\s+/)[0].toLowerCase();
  return word === "help" || word === "?";
}

/**
 * The commands the server's choices allow now, as [text to type, what it does].
 * Spends and caches come as their parts (the server gives them so), typed with the
 * dice still to add: "spend 52 on "; a spend with nothing to choose comes whole.
 */
export function commandsNow(choices) {
  if (!choices || !choices.turn) return [];
  const out = [];
  const option = (o) => out.push([o.text, o.label]);
  for (const o of choices.heroes || []) option(o);
  for (const options of Object.values(choices.take || {})) options.forEach(option);
  for (const o of choices.beer || []) option(o);
  for (const s of choices.spend || []) {
    if (s.forced) {
      option(s.forced); // nothing to choose (rule D6): the whole command
      continue;
    }
    const source = s.die !== null ? String(s.die) : `h${s.hero_face}`;
    const verb = choices.phase === "solo" ? "recycle" : "reroll";
    out.push([`spend ${source} on `, `${verb} ${s.needed} of dice ${s.eligible.join(" ")}`]);
  }
  if (choices.end) option(choices.end);
  if (choices.cache) {
    const { capacity, dice } = choices.cache;
    out.push(["cache ", `keep up to ${capacity} of dice ${dice.join(" ")} (cache alone keeps none)`]);
  }
  if (choices.refill) option(choices.refill);
  if (choices.stop) option(choices.stop);
  return out;
}

/**
 * Draw the help into ``box``.
 * options: {choices (null when it is not this seat's turn), solo, waiting (what the page
 *           says while waiting), onPick(text) (put a command in the box), onClose()}
 */
export function renderHelp(box, options) {
  clear(box);
  box.append(el("div", { class: "help-head" }, el("strong", {}, "Commands"), el("button", { type: "button", class: "button small", onclick: options.onClose }, "Close")));
  const now = commandsNow(options.choices);
  if (now.length) {
    box.append(el("p", { class: "hint" }, "You can type now (click one to put it in the box):"));
    const items = [...now, ["undo", "take back your last move"]].map(([text, note]) =>
      el("li", {}, el("button", { type: "button", class: "cmd", dataset: { text }, onclick: () => options.onPick(text) }, text.trim()), el("span", { class: "note" }, note)),
    );
    box.append(el("ul", { class: "help-now" }, items));
  } else {
    box.append(el("p", { class: "hint" }, options.waiting || "Nothing to type now: it is not your turn."));
  }
  box.append(el("p", { class: "hint" }, "How commands are written:"));
  const syntax = options.solo ? SOLO_SYNTAX : MULTI_SYNTAX;
  box.append(
    el(
      "dl",
      { class: "help-syntax" },
      syntax.flatMap(([form, what]) => [el("dt", {}, form), el("dd", {}, what)]),
    ),
  );
}
