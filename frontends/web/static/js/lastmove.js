// What the last move touched, for the board to mark it: the slots its dice left on the
// mountain, the dice it took, shared, rerolled or cached, the hero face it spent. The server
// sends them with each event's record (``marks``: what the board marks after that event;
// frontends/web/lastmove.py), so the page reads them and works nothing out of the events.

/** The marks of the board after ``n`` events (the record of event n - 1), or null. */
export function lastMove(records, n) {
  const record = records[n - 1];
  return (record && record.marks) || null;
}

/** The options renderMountain and renderPlayers take for a move's marks. */
export function markOptions(marks) {
  if (!marks) return { last: new Set(), left: new Set(), lastHero: new Set() };
  return {
    last: new Set(marks.dice),
    left: new Set(marks.left.map(([row, col]) => `${row},${col}`)),
    lastHero: new Set(marks.hero_faces.map(([seat, index]) => `${seat}:${index}`)),
  };
}
