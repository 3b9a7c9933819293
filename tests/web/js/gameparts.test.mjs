// The game page's small pure parts: the dice note's words, the history bar's, a refusal's,
// the marks of what a seat has picked, the invite links kept by the home page.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError } from "../../../frontends/web/static/js/api.js";
import { pickMarks } from "../../../frontends/web/static/js/boardview.js";
import { chartLength } from "../../../frontends/web/static/js/chartview.js";
import { diceNote } from "../../../frontends/web/static/js/dicenote.js";
import { logName } from "../../../frontends/web/static/js/gameover.js";
import { historyLabel } from "../../../frontends/web/static/js/historybar.js";
import { keptLinks } from "../../../frontends/web/static/js/invite.js";
import { refusalFor } from "../../../frontends/web/static/js/refusal.js";

const text = (parts) => parts.map((p) => (typeof p === "string" ? p : (p.code ?? p.link ?? p.command))).join("");

test("the dice's origin in words: secret, revealed with the command to check it, chosen, plain", () => {
  assert.deepEqual(diceNote({ kind: "secret", commitment: "ab".repeat(32) }, "g1")[1], { code: "ab".repeat(32) });
  const revealed = diceNote({ kind: "revealed", commitment: "c0ffee", secret: "5eed" }, "g1");
  assert.match(text(revealed), /^Dice from the secret seed 5eed, revealed now the game is over; its SHA-256 c0ffee was in the log/);
  assert.deepEqual(revealed.at(-2), { command: "dice-miner log verify web-g1.dmlog" });
  assert.equal(text(diceNote({ kind: "chosen", seed: 11, chosen_by: "the game's creator" }, "g")), "Seed 11, chosen by the game's creator: not secret (whoever knows it can foresee the dice).");
  assert.equal(text(diceNote({ kind: "seed", seed: 3 }, "g")), "Seed 3.");
});

test("a what-if branch names its parent (linked once known) and its luck", () => {
  const branch = { kind: "branch", parent: "f00d", at: 12, luck: "same", seed: null };
  assert.equal(text(diceNote(branch, "g")), "A what-if branch of another game (its log's SHA-256 f00d) at event 12, same luck: the dice are known (each position rolls what that game rolled there).");
  const named = diceNote({ ...branch, luck: "fresh", seed: 9, parent_name: "web-p.dmlog" }, "g");
  assert.deepEqual(named[1], { link: "web-p.dmlog", href: "/replay/web-p.dmlog" });
  assert.match(text(named), /fresh luck: dice from seed 9, recorded in the log \(not secret\)\.$/);
});

test("the history bar counts events by seq, as the event list does", () => {
  assert.equal(historyLabel(26, 26, false), "event 25, now");
  assert.equal(historyLabel(10, 26, true), "event 9 of 25");
});

test("a refusal is the engine's sentence; a stale move, a wrong link and the network are said in words", () => {
  assert.deepEqual(refusalFor(new ApiError(400, { code: "die_covered", message: "Die 5 is covered." })), { message: "Die 5 is covered.", code: "die_covered" });
  assert.equal(refusalFor(new ApiError(403, { code: "forbidden", message: "x" })).code, "forbidden");
  const stale = refusalFor(new ApiError(409, { code: "stale_position", message: "x", seq: 30 }));
  assert.match(stale.message, /^The game moved on before your move arrived \(now at event 29\), so it was not played/);
  assert.deepEqual(refusalFor(new TypeError("Failed to fetch")), { message: "Your move could not reach the server (Failed to fetch); nothing was played. Try again.", code: "offline" });
});

test("what a seat has picked is marked: the dice, the die or hero face being spent", () => {
  const die = pickMarks({ picked: [3, 7], source: { die: 52, hero_face: null }, mySeat: 1 });
  assert.deepEqual([[...die.picked], die.pickedHero, [...die.highlight]], [[3, 7], null, [52]]);
  const hero = pickMarks({ picked: [], source: { die: null, hero_face: 2 }, mySeat: 1 });
  assert.deepEqual([hero.pickedHero, [...hero.highlight]], ["1:2", []]);
  assert.equal(pickMarks({ picked: [], source: null, mySeat: 0 }).pickedHero, null);
});

test("the invite links are read from what the home page kept, and a broken entry is none", () => {
  const storage = (value) => ({ getItem: () => value });
  const links = [{ name: "Ann", link: "/games/g#seat=0&token=t" }];
  assert.deepEqual(keptLinks("g", storage(JSON.stringify(links))), links);
  assert.equal(keptLinks("g", storage("{not json")), null);
  assert.equal(keptLinks("g", storage(null)), null);
  assert.equal(logName("ab12"), "web-ab12.dmlog");
});

test("the chart runs to the game now, two positions at least", () => {
  assert.equal(chartLength(1), 2);
  assert.equal(chartLength(40), 40);
});
