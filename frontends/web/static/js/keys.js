// Keyboard play on the game page with the terminal's keys (frontends/cli/tui/keys.py):
// the arrows (or h j k l) move among the dice that can be used, Enter or Space uses the
// focused one, and b e u m r s : do what the terminal's do. Pure: no DOM, importable by
// node (tests/web/js/keys.test.mjs); game.js applies them.

/** The terminal's action keys, by what they do. */
export const ACTION_KEYS = { b: "beer", e: "end", u: "undo", m: "magic", r: "refill", s: "stop", ":": "type" };

const DIRECTIONS = {
  ArrowLeft: [-1, 0],
  h: [-1, 0],
  ArrowRight: [1, 0],
  l: [1, 0],
  ArrowUp: [0, -1],
  k: [0, -1],
  ArrowDown: [0, 1],
  j: [0, 1],
};

/** The direction a key moves in, ``[dx, dy]`` on the screen, or null. */
export function direction(key) {
  return DIRECTIONS[key] || null;
}

/** True for the letters that move (h j k l): always the dice's, never the history's. */
export function isLetterMove(key) {
  return key.length === 1 && key in DIRECTIONS;
}

/**
 * The index of the candidate nearest ``from`` in direction ``[dx, dy]`` (centres
 * ``{x, y}`` on the screen), or -1 when none lies that way. Distance along the way counts
 * once, distance across it twice, so ↓ goes to the die below rather than one far aside.
 */
export function nearest(from, candidates, [dx, dy]) {
  let best = -1;
  let bestCost = Number.POSITIVE_INFINITY;
  candidates.forEach((c, i) => {
    const along = (c.x - from.x) * dx + (c.y - from.y) * dy;
    if (along <= 1) return; // not that way (or the same place)
    const across = Math.abs((c.x - from.x) * dy) + Math.abs((c.y - from.y) * dx);
    const cost = along + 2 * across;
    if (cost < bestCost) {
      bestCost = cost;
      best = i;
    }
  });
  return best;
}
