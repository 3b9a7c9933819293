// What the last move touched, for the board to mark it: the slots its dice left on the
// mountain, the dice it took, shared, rerolled or cached, the hero face it spent. The server
// sends them beside the event records (``marks``: what the board marks after each event;
// frontends/web/lastmove.py); the page keeps each on its record and works nothing out of
// the events' fields.

/** The records with the server's marks beside them kept on each (``marks[i]`` is ``records[i]``'s). */
export function withMarks(records, marks) {
  return records.map((record, i) => ({ ...record, marks: marks ? (marks[i] ?? null) : null }));
}

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
