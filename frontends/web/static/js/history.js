// The keys that step through a game so far, shared by the game page and the replay viewer.
// Pure: no DOM, importable by node (tests/web/js/history.test.mjs).

/** True when a key press is not the page's to take: a modifier held, or typing in a field. */
export function keyIsElsewhere(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return true;
  const tag = event.target && event.target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
}

/** True when the key presses the focused control itself (Space or Enter on a button or link). */
export function keyPressesControl(event) {
  const tag = event.target && event.target.tagName;
  const control = tag === "BUTTON" || tag === "A" || (event.target && event.target.getAttribute && event.target.getAttribute("role") === "button");
  return control && (event.key === " " || event.key === "Enter");
}

/**
 * The position a history key goes to from ``at`` (``null``: the game now, End), or
 * ``undefined`` when the key is no history key. ``last`` is the last position (the viewer's
 * End), ``null`` for a live game's "now".
 */
export function historyTarget(key, at, last = null) {
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, PageUp: at - 10, PageDown: at + 10, Home: 1, End: last }[key];
  return to;
}
