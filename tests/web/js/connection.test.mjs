// Asking the server again when the network fails: the waits grow, a refusal is not retried.
import assert from "node:assert/strict";
import { test } from "node:test";

import { backoff, isTransient, moveId, retrying, waitOrEvent } from "../../../frontends/web/static/js/connection.js";

class ApiError extends Error {
  constructor(status) {
    super(`status ${status}`);
    this.status = status;
  }
}

test("the waits double up to a cap", () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((n) => backoff(n)),
    [500, 1000, 2000, 4000, 8000, 8000],
  );
  assert.equal(backoff(0, { base: 400 }), 400);
});

test("a task that fails twice is tried a third time, after growing waits", async () => {
  const waits = [];
  const told = [];
  let calls = 0;
  const value = await retrying(
    async () => {
      calls += 1;
      if (calls < 3) throw new TypeError("Failed to fetch");
      return "choices";
    },
    { wait: async (ms) => waits.push(ms), onRetry: (error, attempt) => told.push([error.message, attempt]) },
  );
  assert.equal(value, "choices");
  assert.deepEqual(waits, [500, 1000]);
  assert.deepEqual(told, [
    ["Failed to fetch", 0],
    ["Failed to fetch", 1],
  ]);
});

test("an error not worth retrying is thrown at once", async () => {
  let calls = 0;
  await assert.rejects(
    retrying(
      async () => {
        calls += 1;
        throw new ApiError(403);
      },
      { shouldRetry: (error) => isTransient(error, ApiError), wait: async () => {} },
    ),
    /status 403/,
  );
  assert.equal(calls, 1);
});

test("a network failure or a server away (5xx) is transient; a refusal (4xx) is not", () => {
  assert.equal(isTransient(new TypeError("Failed to fetch"), ApiError), true);
  assert.equal(isTransient(new ApiError(503), ApiError), true);
  assert.equal(isTransient(new ApiError(409), ApiError), false);
});

test("a wait ends early when the browser is back online", async () => {
  const target = new EventTarget();
  const started = Date.now();
  const waiting = waitOrEvent(target, "online")(60_000);
  target.dispatchEvent(new Event("online"));
  await waiting;
  assert.ok(Date.now() - started < 1000);
});

test("each move has a fresh 128-bit id", () => {
  const a = moveId();
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.notEqual(a, moveId());
});
