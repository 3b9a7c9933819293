// The score chart beside a live game: the server's series (static/js/series.js holds it)
// drawn up to the game now, the cursor at the position shown; hidden in the solo game,
// whose score is no round total. A click on it looks at that position.

import { renderChart } from "./chart.js";

/** Draw ``series`` for ``board`` (the one shown) of a game now at position ``now``. */
export function drawScoreChart(chart, board, { series, names, now, onSeek }) {
  chart.closest(".card").hidden = board.mode === "solo";
  renderChart(chart, series, names, chartLength(now), board.seq, onSeek);
}

/** The chart's last position: the game now, at least 2 (a line needs two ends). */
export function chartLength(now) {
  return Math.max(now, 2);
}
