// What the last move touched, for the board to mark it: the slots its dice left on the
// mountain, the dice it took, shared, rerolled or cached, the hero face it spent. Read
// from the event records (their own fields: die, row, col, rolls, ...), never worked out
// from the rules. A command's follow-on events (the excavation ending, a round scored)
// come after its move with no player of their own: the mark stays on the move.

/** How far back a position looks for its move through events no player made. */
const FOLLOW_ON = 8;

/** Marks of one move's record, or null when it has nothing to mark on the board. */
export function moveMarks(record) {
  const dice = new Set();
  const left = new Set();
  const heroFaces = new Set();
  switch (record.type) {
    case "DieTaken":
    case "SoloDieTaken":
      dice.add(record.die);
      left.add(`${record.row},${record.col}`);
      break;
    case "BeerShared":
      dice.add(record.die);
      break;
    case "MagicSpent":
      if (Number.isInteger(record.die)) dice.add(record.die);
      else if (Number.isInteger(record.hero_face)) heroFaces.add(`${record.seat}:${record.hero_face}`);
      for (const [die] of record.rolls || []) dice.add(die);
      break;
    case "SoloMagicSpent":
      for (const [, row, col] of record.recycled || []) left.add(`${row},${col}`);
      break;
    case "DiceCached":
      for (const die of record.dice || []) dice.add(die);
      break;
    default:
      return null;
  }
  return { seq: record.seq, dice, left, heroFaces };
}

/** The marks of the move that led to position ``n`` (the state after n events), or null. */
export function lastMove(records, n) {
  for (let k = n - 1; k >= 0 && k >= n - FOLLOW_ON; k--) {
    const record = records[k];
    if (!record || record.type === "CommandUndone") return null;
    if (record.player !== null) return moveMarks(record); // a move: its marks, or none
  }
  return null;
}

/** The options renderMountain and renderPlayers take for a move's marks. */
export function markOptions(marks) {
  if (!marks) return { last: new Set(), left: new Set(), lastHero: new Set() };
  return { last: marks.dice, left: marks.left, lastHero: marks.heroFaces };
}
