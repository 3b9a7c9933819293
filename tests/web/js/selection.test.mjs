// What a click means on the game page, from a seat's choices as the server words them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cacheCommand, clickPlan, recycleOrders, selectable, spendCommand, toggled } from "../../../frontends/web/static/js/selection.js";

const take = (die, label = `take die ${die}`) => ({ label, text: `take ${die}`, command: { t: "take", die } });
const excavation = {
  seat: 0,
  turn: true,
  phase: "excavation",
  take: { 17: [take(17)], 21: [take(21), { label: "take die 21 as 3", text: "take 21 as 3", command: { t: "take", die: 21, as_face: "3" } }] },
  beer: [{ label: "give die 12 (tunnel die, beer) to Bo", text: "beer 12 to Bo", command: { t: "beer", die: 12, to_seat: 1 } }],
};
const magic = {
  seat: 0,
  turn: true,
  phase: "magic",
  spend: [
    { die: 52, hero_face: null, symbols: 2, needed: 2, eligible: [3, 7, 9], label: "die 52 (2 magic)", forced: null, command: { seat: 0, targets: [], die: 52, hero_face: null, t: "spend" } },
    { die: 53, hero_face: null, symbols: 1, needed: 1, eligible: [3], label: "die 53 (1 magic)", forced: { command: { t: "spend", die: 53, targets: [3] } } },
    { die: null, hero_face: 0, symbols: 1, needed: 1, eligible: [3, 7], label: "hero face h0", forced: null },
  ],
  end: { label: "end my magic turn", text: "end", command: { t: "end" } },
};

test("nothing glows when it is not the seat's turn", () => {
  const none = selectable(null);
  assert.equal(none.mountain.size + none.trove.size + none.hero.size, 0);
  assert.equal(selectable({ seat: 0, turn: false }).mountain.size, 0);
});

test("the offered takes glow on the mountain, the beers in the trove", () => {
  const glow = selectable(excavation, { seat: 0 });
  assert.deepEqual([...glow.mountain].sort(), [17, 21]);
  assert.deepEqual([...glow.trove], [12]);
});

test("magic: the sources glow, then the dice the chosen source may reroll", () => {
  const glow = selectable(magic, { seat: 2 });
  assert.deepEqual([...glow.trove].sort(), [52, 53]);
  assert.deepEqual([...glow.hero], ["2:0"]);
  const targets = selectable(magic, { seat: 2, source: magic.spend[0] });
  assert.deepEqual([...targets.trove].sort(), [3, 7, 9]);
});

test("a click plays the one offered take, or opens a menu of several", () => {
  assert.deepEqual(clickPlan(excavation, {}, 17, "mountain"), { do: "send", command: { t: "take", die: 17 } });
  const menu = clickPlan(excavation, {}, 21, "mountain");
  assert.equal(menu.do, "menu");
  assert.equal(menu.options.length, 2);
  assert.equal(clickPlan(excavation, {}, 12, "trove").do, "menu");
});

test("a take not offered is sent all the same, for the engine to say why not", () => {
  assert.deepEqual(clickPlan(excavation, {}, 40, "mountain"), { do: "send", command: { t: "take", die: 40 } });
});

test("not this seat's turn: the click asks for the prompt", () => {
  assert.deepEqual(clickPlan(null, {}, 17, "mountain"), { do: "prompt" });
});

test("a forced spend (rule D6) is sent as the server gave it; a free one is chosen", () => {
  assert.deepEqual(clickPlan(magic, {}, 53, "trove"), { do: "send", command: { t: "spend", die: 53, targets: [3] } });
  assert.deepEqual(clickPlan(magic, {}, 52, "trove"), { do: "source", source: magic.spend[0] });
  assert.deepEqual(clickPlan(magic, { source: magic.spend[0] }, 7, "trove"), { do: "target", id: 7 });
});

test("the picks go into the offered shapes", () => {
  assert.deepEqual(spendCommand(magic.spend[0], [7, 3]), { seat: 0, t: "spend", die: 52, hero_face: null, targets: [7, 3] });
  const cache = { capacity: 3, dice: [2, 5, 9], command: { seat: 0, dice: [], t: "cache" } };
  assert.deepEqual(cacheCommand(cache, [9, 2, 5]), { seat: 0, t: "cache", dice: [2, 5, 9] });
  assert.deepEqual(toggled([1, 2], 2), [1]);
  assert.deepEqual(toggled([1], 2), [1, 2]);
});

test("solo recycling keeps to an order the engine takes", () => {
  const command = { seat: 0, targets: [], die: 55, hero_face: null, t: "spend" };
  const source = { die: 55, hero_face: null, needed: 2, eligible: [], orders: [[4, 9], [9, 4, 1], [6]], command };
  assert.deepEqual(recycleOrders(source, [9]), [
    [4, 9],
    [9, 4, 1],
  ]);
  assert.deepEqual(spendCommand(source, [9, 4]).targets, [4, 9]);
  const glow = selectable({ seat: 0, turn: true, phase: "solo", spend: [source], take: {} }, { source, picked: [9] });
  assert.deepEqual([...glow.mountain].sort(), [1, 4, 9]);
});
