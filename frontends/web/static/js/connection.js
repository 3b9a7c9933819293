// Talking to the server when the network may fail: ids that make a move safe to send
// again, and asking again with growing waits (a moment offline must not stop a turn for
// good). Pure: no DOM, importable by node (tests/web/js/connection.test.mjs).

/** Wait ``ms`` milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh id for one intended move: the server plays a move once, however often it is sent. */
export function moveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // works on plain http too
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The wait before try ``attempt + 1``: 0.5 s, 1 s, 2 s, ... at most ``cap``. */
export function backoff(attempt, { base = 500, cap = 8000 } = {}) {
  return Math.min(cap, base * 2 ** attempt);
}

/**
 * Run ``task`` until it succeeds; after a failure ``shouldRetry(error, attempt)`` decides
 * whether to try again (false: the error is thrown), ``onRetry(error, attempt, ms)`` is
 * told, and ``wait(ms)`` waits (the page's wait also ends when the browser is back online).
 */
export async function retrying(task, { shouldRetry = () => true, onRetry = () => {}, delay = backoff, wait = sleep } = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await task(attempt);
    } catch (error) {
      if (!shouldRetry(error, attempt)) throw error;
      const ms = delay(attempt);
      onRetry(error, attempt, ms);
      await wait(ms);
    }
  }
}

/** True for a failure worth trying again: the network's, or a server that is away (5xx). */
export function isTransient(error, ApiErrorClass) {
  return !(error instanceof ApiErrorClass) || error.status >= 500;
}

/**
 * A wait that ends early when ``target`` fires ``eventName`` (the window's ``online``): the
 * next try goes as soon as the network is back, not at the end of a long wait.
 */
export function waitOrEvent(target, eventName) {
  return (ms) =>
    new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        target.removeEventListener(eventName, done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      target.addEventListener(eventName, done);
    });
}
