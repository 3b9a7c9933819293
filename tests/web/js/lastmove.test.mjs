// The last move's marks as the board takes them: read from the server's records, never
// worked out from the events' fields (static/js/lastmove.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { lastMove, markOptions } from "../../../frontends/web/static/js/lastmove.js";

const marks = { dice: [17, 3], left: [[2, 1]], hero_faces: [[1, 0]] };
const records = [
  { seq: 0, type: "GameStarted", marks: null },
  { seq: 1, type: "DieTaken", die: 99, row: 4, col: 0, marks }, // its own fields are not read
];

test("the board after n events is marked as the record of event n - 1 says", () => {
  assert.equal(lastMove(records, 2), marks);
  assert.equal(lastMove(records, 1), null);
  assert.equal(lastMove(records, 5), null, "a record the page does not hold yet: nothing marked");
  assert.equal(lastMove([{ seq: 0, type: "DieTaken", die: 4 }], 1), null, "a record without marks marks nothing");
});

test("the marks become the sets the mountain and the cards look up", () => {
  const options = markOptions(marks);
  assert.deepEqual([...options.last], [17, 3]);
  assert.deepEqual([...options.left], ["2,1"]);
  assert.deepEqual([...options.lastHero], ["1:0"]);
  const none = markOptions(null);
  assert.equal(none.last.size + none.left.size + none.lastHero.size, 0);
});
