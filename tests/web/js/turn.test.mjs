// The tab's title says whose turn it is.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MARKED_ICON, turnTitle } from "../../../frontends/web/static/js/turn.js";

test("the title gains and loses its 'Your turn' prefix, once", () => {
  const base = "Ann, Bo · Dice Miner";
  assert.equal(turnTitle(base, true), "Your turn · Ann, Bo · Dice Miner");
  assert.equal(turnTitle(turnTitle(base, true), true), "Your turn · Ann, Bo · Dice Miner");
  assert.equal(turnTitle(turnTitle(base, true), false), base);
  assert.equal(turnTitle(base, false), base);
});

test("the marked favicon is an SVG data URL", () => {
  assert.match(MARKED_ICON, /^data:image\/svg\+xml,/);
  assert.match(decodeURIComponent(MARKED_ICON), /<circle /);
});
