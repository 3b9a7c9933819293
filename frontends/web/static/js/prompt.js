// The action panel's words and buttons for one moment of the game page: the prompt (the
// server's words for this seat's choices, with the page's picks so far), the buttons the
// choices offer, and whether the panel shows at all. Pure: the page draws what these say
// (static/js/actionview.js) and does what a button's `act` names.

import { cacheCommand } from "./selection.js";
import { shortName } from "./util.js";

/** The menu a beer opens, and the question a stop asks again before it ends the game. */
export const BEER_MENU = "Share a beer: reroll it, give it away, then take two dice";
export const STOP_QUESTION = "Stop digging and score now? This ends the game.";
export const STOP_YES = "Yes, stop and score";

// The commands one can type, by game: the solo game has no beers, caches or magic turns.
// a beer goes to a player by name (the page numbers no seat)
const multiHint = (other) => `or type a command: take 17 · beer 12 to ${other} · spend 52 on 3 7 · spend h0 on 3 · end · cache 4 9 · undo · help`;
const SOLO_HINT = "or type a command: take 17 · take 17 as 1 · take 30 freeze · spend 52 on 3 7 · refill · stop · undo · help";

/** The command box's placeholder: the commands this game takes, a beer to the next player by name. */
export function typedHint(mode, names, mySeat) {
  return mode === "solo" ? SOLO_HINT : multiHint(shortName(names[(mySeat + 1) % names.length]));
}

/**
 * The moment the panel shows, as the page holds it:
 * {board (the game now), choices, viewAt (null: now), myTurn, names, source, picked, records,
 *  canUndo, undo, busy, menu}.
 */

/** Solo, over: why it ended (its last event's words) and the rating band's range. */
export function soloEnding({ board, records, canUndo }) {
  const score = board.table.solo_score;
  const ended = records.findLast((r) => r && r.type === "SoloGameEnded");
  const why = ended ? ended.text : `${score.score} points, ${score.rating}`;
  return `${why} (${score.rating} is ${score.range} points).${canUndo ? " Undo takes back your last move." : ""}`;
}

/** The prompt: what this seat is asked now, or why it waits. */
export function promptText(m) {
  const { board, choices: c, viewAt, source, picked } = m;
  if (viewAt !== null) {
    return `Looking back at event ${viewAt - 1} of ${board.seq - 1}: press Now (or End) to play on.`;
  }
  if (board.phase === "over") return board.mode === "solo" ? soloEnding(m) : "The game is over.";
  if (!m.myTurn) {
    const seat = board.table.to_act_seat;
    return seat === null ? "" : `Waiting for ${shortName(m.names[seat])}…`;
  }
  if (!c) return "…";
  if (source) {
    // numbered as the event list and the typed command ("spend h0 on 3") number it
    const what = source.die !== null ? `die ${source.die}` : `hero face h${source.hero_face}`;
    const verb = c.phase === "solo" ? "recycle (top dice, one at a time)" : "reroll";
    return `Spending ${what} (${source.symbols} magic): pick ${source.needed} ${source.needed === 1 ? "die" : "dice"} to ${verb} — ${picked.length}/${source.needed}.`;
  }
  // the rest is the server's words for this seat's choices; the page adds only its picks
  if (c.cache) return `${c.prompt} ${picked.length} picked.`;
  return c.prompt || "";
}

/** Whether the panel shows ({action, typed, picking}), for a seat's page (``playing``) or a watcher's. */
export function panelShown({ board, choices, viewAt, source, canUndo, refused, playing }) {
  const over = board.phase === "over";
  const soloOver = board.mode === "solo" && over && canUndo; // its last move can be undone
  return {
    action: playing && !(over && !refused && !soloOver),
    typed: playing && !over && viewAt === null,
    // picking dice for a spend or a cache: on a phone the instruction and Cancel stay in view
    picking: Boolean(source || (choices && choices.cache && viewAt === null)),
  };
}

/**
 * The panel's buttons, in order: {label, act, cls, key}. ``act`` is what a click does:
 * {send: command}, {menu: {title, options}}, {confirm: {question, command, yes}}, or
 * {do: "reset" | "now"}. ``key`` is the terminal's key for it (static/js/keys.js).
 */
export function actionButtons(m) {
  const { source, picked, viewAt } = m;
  const c = m.myTurn ? m.choices : null;
  const buttons = [];
  const add = (label, act, cls = "button", key = null) => buttons.push({ label, act, cls, key });
  if (c && c.beer && c.beer.length && !source) add("Share a beer…", { menu: { title: BEER_MENU, options: c.beer } }, "button", "b");
  if (c && c.end && !source) add("End my magic turn", { send: c.end.command }, "button primary", "e");
  if (c && c.cache) {
    add(picked.length ? `Keep ${picked.length} ${picked.length === 1 ? "die" : "dice"}` : "Keep nothing", { send: cacheCommand(c.cache, picked) }, "button primary");
    if (picked.length) add("Clear", { do: "reset" });
  }
  if (c && c.refill && !source) add(c.refill.label, { send: c.refill.command }, "button", "r");
  // ending the game is asked twice: a stray click must not end it
  if (c && c.stop && !source) add("Stop and score…", { confirm: { question: STOP_QUESTION, command: c.stop.command, yes: STOP_YES } }, "button", "s");
  if (source || m.menu) add("Cancel", { do: "reset" });
  if (viewAt !== null) add("Now", { do: "now" }, "button primary");
  // only when the server says it would be taken (nothing of mine to undo, or a person moved since: not shown)
  else if (m.canUndo && m.undo) add(m.undo.label, { send: m.undo.command }, "button danger", "u");
  return buttons;
}
