// The last move's marks as the board takes them: the server's, sent beside the records and
// kept on them, never worked out from the events' fields (static/js/lastmove.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { lastMove, markOptions, withMarks } from "../../../frontends/web/static/js/lastmove.js";

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

test("the marks sent beside the records are kept on each, the records themselves untouched", () => {
  const sent = [
    { seq: 0, type: "GameStarted" },
    { seq: 1, type: "DieTaken" },
  ];
  const kept = withMarks(sent, [null, marks]);
  assert.deepEqual(kept, [
    { seq: 0, type: "GameStarted", marks: null },
    { seq: 1, type: "DieTaken", marks },
  ]);
  assert.equal(sent[1].marks, undefined);
  assert.deepEqual(
    withMarks(sent, undefined).map((r) => r.marks),
    [null, null],
    "none sent: nothing marked",
  );
});
