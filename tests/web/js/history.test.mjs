// The history keys, shared by the game page and the replay viewer.
import assert from "node:assert/strict";
import { test } from "node:test";

import { historyTarget, keyIsElsewhere, keyPressesControl } from "../../../frontends/web/static/js/history.js";

const key = (k, tagName = "BODY", extra = {}) => ({ key: k, target: { tagName, getAttribute: () => null }, ...extra });

test("the arrows step one event, the page keys ten, Home and End go to the ends", () => {
  assert.equal(historyTarget("ArrowLeft", 20), 19);
  assert.equal(historyTarget("ArrowRight", 20), 21);
  assert.equal(historyTarget("PageUp", 20), 10);
  assert.equal(historyTarget("PageDown", 20), 30);
  assert.equal(historyTarget("Home", 20), 1);
  assert.equal(historyTarget("End", 20), null);
  assert.equal(historyTarget("End", 20, 138), 138);
  assert.equal(historyTarget("x", 20), undefined);
});

test("keys typed into a field or with a modifier are not the page's", () => {
  assert.equal(keyIsElsewhere(key("ArrowLeft", "INPUT")), true);
  assert.equal(keyIsElsewhere(key("ArrowLeft", "BODY", { ctrlKey: true })), true);
  assert.equal(keyIsElsewhere(key("ArrowLeft")), false);
});

test("Space or Enter on a focused button presses the button", () => {
  assert.equal(keyPressesControl(key(" ", "BUTTON")), true);
  assert.equal(keyPressesControl(key("Enter", "A")), true);
  assert.equal(keyPressesControl(key(" ", "BODY")), false);
  assert.equal(keyPressesControl({ key: " ", target: { tagName: "G", getAttribute: () => "button" } }), true);
});
