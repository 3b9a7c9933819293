// The chart's series put together from the server's parts (static/js/series.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { mergeSeries } from "../../../frontends/web/static/js/series.js";

const summary = {
  points: [
    [1, [0, 0]],
    [8, [0, 1]],
  ],
  rounds: [],
};

test("a part's points after the position held are added in order, the newer rounds kept", () => {
  const part = {
    after: 9,
    points: [
      [10, [2, 1]],
      [12, [2, 5]],
    ],
    rounds: [12],
  };
  assert.deepEqual(mergeSeries(summary, part), {
    points: [
      [1, [0, 0]],
      [8, [0, 1]],
      [10, [2, 1]],
      [12, [2, 5]],
    ],
    rounds: [12],
  });
});

test("a part arriving late or twice fills its place and changes nothing else", () => {
  const later = mergeSeries(summary, { after: 11, points: [[12, [2, 5]]], rounds: [12] });
  const filled = mergeSeries(later, { after: 9, points: [[10, [2, 1]]], rounds: [] }, false);
  assert.deepEqual(
    filled.points.map(([p]) => p),
    [1, 8, 10, 12],
  );
  assert.deepEqual(filled.rounds, [12], "an older part's rounds are not taken");
  assert.deepEqual(mergeSeries(filled, { after: 11, points: [[12, [2, 5]]], rounds: [12] }), filled);
});

test("a whole series (no after) replaces what is held; no part keeps it", () => {
  const whole = { points: [[1, [0, 0]]], rounds: [] };
  assert.deepEqual(mergeSeries(summary, whole), whole);
  assert.equal(mergeSeries(summary, null), summary);
  assert.equal(mergeSeries(summary, undefined), summary);
});
