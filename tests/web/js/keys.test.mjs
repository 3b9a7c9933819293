// The game page's keys: the terminal's action keys, and the arrows among the dice.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ACTION_KEYS, direction, isLetterMove, nearest } from "../../../frontends/web/static/js/keys.js";

test("the terminal's action keys mean what they mean there", () => {
  assert.equal(ACTION_KEYS.b, "beer");
  assert.equal(ACTION_KEYS.e, "end");
  assert.equal(ACTION_KEYS.u, "undo");
  assert.equal(ACTION_KEYS.s, "stop");
  assert.equal(ACTION_KEYS[":"], "type");
});

test("arrows and h j k l move; only the letters are never the history's", () => {
  assert.deepEqual(direction("ArrowLeft"), [-1, 0]);
  assert.deepEqual(direction("j"), [0, 1]);
  assert.equal(direction("x"), null);
  assert.equal(isLetterMove("h"), true);
  assert.equal(isLetterMove("ArrowLeft"), false);
});

// a row of three dice and one below the middle one
const dice = [
  { x: 0, y: 0 },
  { x: 50, y: 0 },
  { x: 100, y: 0 },
  { x: 55, y: 60 },
];

test("the nearest die that way, preferring the one in line", () => {
  assert.equal(nearest(dice[1], dice, [1, 0]), 2);
  assert.equal(nearest(dice[1], dice, [-1, 0]), 0);
  assert.equal(nearest(dice[0], dice, [0, 1]), 3);
  assert.equal(nearest(dice[3], dice, [0, -1]), 1);
});

test("nothing that way: no move", () => {
  assert.equal(nearest(dice[2], dice, [1, 0]), -1);
  assert.equal(nearest(dice[0], dice, [0, -1]), -1);
});
