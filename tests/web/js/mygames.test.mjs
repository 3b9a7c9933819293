// The home page's list: whose turn each game is, "your turn" for the seats this browser plays.
import assert from "node:assert/strict";
import { test } from "node:test";

import { mySeats, rememberSeat, turnWords } from "../../../frontends/web/static/js/mygames.js";

class Memory {
  constructor() {
    this.items = new Map();
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
}

test("the seats opened here are remembered, by game", () => {
  const storage = new Memory();
  assert.deepEqual(mySeats(storage), {});
  rememberSeat("abc", 1, storage);
  rememberSeat("def", 0, storage);
  assert.deepEqual(mySeats(storage), { abc: 1, def: 0 });
});

test("a broken memory is an empty one", () => {
  const storage = new Memory();
  storage.setItem("dm-my-seats", "{not json");
  assert.deepEqual(mySeats(storage), {});
});

test("whose turn: yours, another's, or none once over", () => {
  const names = ["Ann", "Bo"];
  assert.equal(turnWords({ to_act: 1, over: false }, names, 1), "your turn");
  assert.equal(turnWords({ to_act: 1, over: false }, names, 0), "Bo to act");
  assert.equal(turnWords({ to_act: 0, over: false }, names), "Ann to act");
  assert.equal(turnWords({ to_act: null, over: true }, names, 0), null);
});
