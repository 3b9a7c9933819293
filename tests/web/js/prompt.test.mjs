// The action panel's words and buttons for a moment of the game page (static/js/prompt.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { BEER_MENU, STOP_QUESTION, actionButtons, panelShown, promptText, soloEnding, typedHint } from "../../../frontends/web/static/js/prompt.js";

const names = ["Ann", "Brok (greedy)", "Cira (greedy)"];
const board = (extra = {}) => ({ seq: 26, mode: "multi", phase: "excavation", table: { to_act_seat: 0, status: "" }, ...extra });
const moment = (extra = {}) => ({
  board: board(),
  choices: null,
  viewAt: null,
  myTurn: true,
  mySeat: 0,
  names,
  source: null,
  picked: [],
  records: [],
  canUndo: false,
  undo: null,
  menu: null,
  ...extra,
});
const take = { seat: 0, turn: true, phase: "excavation", prompt: "Take a glowing top die.", take: {} };
const magic = { seat: 0, turn: true, phase: "magic", prompt: "Spend magic or end.", spend: [], end: { label: "end my magic turn", command: { t: "end" } } };
const undo = { label: "Undo my last move", text: "undo", command: { t: "undo", seat: 0 } };

test("the prompt is the server's words for the choices, the page adding only its picks", () => {
  assert.equal(promptText(moment({ choices: take })), "Take a glowing top die.");
  const cache = { ...take, prompt: "Keep dice through the replenish.", cache: { command: { t: "cache", dice: [] } } };
  assert.equal(promptText(moment({ choices: cache, picked: [4, 9] })), "Keep dice through the replenish. 2 picked.");
  assert.equal(promptText(moment({ choices: null })), "…");
});

test("a magic source being spent says what it is and how many dice are picked of how many", () => {
  const source = { die: 52, hero_face: null, symbols: 2, needed: 2 };
  assert.equal(promptText(moment({ choices: magic, source, picked: [3] })), "Spending die 52 (2 magic): pick 2 dice to reroll — 1/2.");
  const hero = { die: null, hero_face: 0, symbols: 1, needed: 1 };
  const solo = { ...magic, phase: "solo" };
  assert.equal(promptText(moment({ choices: solo, source: hero })), "Spending hero face h0 (1 magic): pick 1 die to recycle (top dice, one at a time) — 0/1.");
});

test("waiting, looking back and the end are said, whoever's page it is", () => {
  const waiting = moment({ myTurn: false, board: board({ table: { to_act_seat: 1 } }) });
  assert.equal(promptText(waiting), "Waiting for Brok…");
  assert.equal(promptText(moment({ myTurn: false, board: board({ table: { to_act_seat: null } }) })), "");
  assert.equal(promptText(moment({ viewAt: 10 })), "Looking back at event 9 of 25: press Now (or End) to play on.");
  assert.equal(promptText(moment({ board: board({ phase: "over" }) })), "The game is over.");
});

test("a solo game's end says why, from its last event, with the band's range", () => {
  const over = board({ mode: "solo", phase: "over", table: { solo_score: { score: 52, rating: "Master Miner", range: "46–60" } } });
  const records = [
    { seq: 0, type: "SoloGameStarted", text: "began" },
    { seq: 1, type: "SoloGameEnded", text: "You stopped digging: 52 points" },
  ];
  assert.equal(soloEnding({ board: over, records, canUndo: false }), "You stopped digging: 52 points (Master Miner is 46–60 points).");
  assert.equal(soloEnding({ board: over, records: [], canUndo: true }), "52 points, Master Miner (Master Miner is 46–60 points). Undo takes back your last move.");
});

test("the buttons are the choices', each with what it does and its terminal key", () => {
  const beer = [{ label: "give die 12 to Bo", command: { t: "beer", die: 12, to_seat: 1 } }];
  const labels = (m) => actionButtons(m).map((b) => b.label);
  const excavation = actionButtons(moment({ choices: { ...take, beer }, canUndo: true, undo }));
  assert.deepEqual(
    excavation.map(({ label, act, key }) => [label, act, key]),
    [
      ["Share a beer…", { menu: { title: BEER_MENU, options: beer } }, "b"],
      ["Undo my last move", { send: undo.command }, "u"],
    ],
  );
  assert.deepEqual(labels(moment({ choices: magic })), ["End my magic turn"]);
  assert.deepEqual(labels(moment({ choices: magic, source: { die: 52 } })), ["Cancel"], "a source being spent: only Cancel");
  assert.deepEqual(labels(moment({ choices: magic, myTurn: false })), [], "not this seat's turn: nothing of the choices");
  assert.deepEqual(labels(moment({ choices: magic, viewAt: 3, canUndo: true, undo })), ["End my magic turn", "Now"], "looking back: Now, never Undo");
});

test("a cache keeps the picked dice in the server's command; a stop is asked again", () => {
  const cache = { ...take, cache: { command: { seat: 0, t: "cache", dice: [] } } };
  const [none] = actionButtons(moment({ choices: cache }));
  assert.deepEqual([none.label, none.act.send.dice], ["Keep nothing", []]);
  const [keep, clear] = actionButtons(moment({ choices: cache, picked: [9, 4] }));
  assert.equal(keep.label, "Keep 2 dice");
  assert.deepEqual(keep.act.send, { seat: 0, t: "cache", dice: [4, 9] });
  assert.deepEqual(clear.act, { do: "reset" });
  const stop = { seat: 0, turn: true, phase: "solo", stop: { command: { t: "stop" } }, refill: { label: "Refill (2 left)", command: { t: "refill" } } };
  const [refill, ask] = actionButtons(moment({ choices: stop }));
  assert.deepEqual([refill.label, refill.key], ["Refill (2 left)", "r"]);
  assert.deepEqual(ask.act.confirm.question, STOP_QUESTION);
  assert.deepEqual(ask.act.confirm.command, { t: "stop" });
});

test("the panel shows to a seat's page only, and after the end only for a refusal or a solo undo", () => {
  const over = board({ phase: "over" });
  assert.deepEqual(panelShown({ board: board(), playing: false }), { action: false, typed: false, picking: false });
  assert.deepEqual(panelShown({ board: board(), playing: true, viewAt: null }), { action: true, typed: true, picking: false });
  assert.equal(panelShown({ board: board(), playing: true, viewAt: 4 }).typed, false);
  assert.equal(panelShown({ board: over, playing: true }).action, false);
  assert.equal(panelShown({ board: over, playing: true, refused: true }).action, true);
  assert.equal(panelShown({ board: { ...over, mode: "solo" }, playing: true, canUndo: true }).action, true);
  assert.equal(panelShown({ board: board(), playing: true, viewAt: null, choices: { cache: {} } }).picking, true);
  assert.equal(panelShown({ board: board(), playing: true, viewAt: 2, choices: { cache: {} } }).picking, false);
});

test("the command box suggests a beer to the next player by name, or the solo game's commands", () => {
  assert.match(typedHint("multi", names, 0), /beer 12 to Brok ·/);
  assert.match(typedHint("multi", names, 2), /beer 12 to Ann ·/);
  assert.match(typedHint("solo", ["You"], 0), /take 30 freeze · spend 52 on 3 7 · refill · stop/);
});
