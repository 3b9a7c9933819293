// The score chart's series as the page holds it: the server's (frontends/web/readmodel.py,
// ScoreSeries), whole in the game's summary, then in parts with each stream burst and each
// command's answer (only its points after the position the page held, ``after``). The
// parts are put together by position, so one arriving late or twice changes nothing.

/** The series ``held`` with the part ``sent`` put in: the points by position, each once, and
 *  the rounds as ``sent`` has them when it is the newer (``newer``). */
export function mergeSeries(held, sent, newer = true) {
  if (!sent) return held;
  if (!held || sent.after === undefined) return { points: sent.points, rounds: sent.rounds };
  const byPosition = new Map(held.points.map((point) => [point[0], point]));
  for (const point of sent.points) byPosition.set(point[0], point);
  const points = [...byPosition.values()].sort((a, b) => a[0] - b[0]);
  return { points, rounds: newer ? sent.rounds : held.rounds };
}
