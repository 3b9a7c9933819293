// The totals chart: each player's total through the game as a step line over
// the event positions, the rounds marked, the current position as a cursor.

import { PLAYER_COLOURS, clear, shortName, svg } from "./util.js";

const W = 360;
const H = 170;
const PAD = { left: 30, right: 10, top: 12, bottom: 36 };
const LEGEND_ROW = 15; // height of one row of the legend
const CHAR_W = 6.4; // a generous width of one character of the 11px legend text
const MAX_NAME = 14; // longer names are cut with an ellipsis

/**
 * series: {points: [[position, [totals...]], ...], rounds: [positions]}
 * names: player names; total: last position; position: the cursor; onSeek(position)
 */
export function renderChart(root, series, names, total, position, onSeek) {
  clear(root);
  root.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const points = series.points.length ? series.points : [[1, names.map(() => 0)]];
  const values = points.flatMap(([, totals]) => totals);
  const top = Math.max(10, ...values);
  const bottom = Math.min(0, ...values);
  const span = Math.max(1, total - 1);
  const x = (p) => PAD.left + ((p - 1) / span) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - ((v - bottom) / (top - bottom)) * (H - PAD.top - PAD.bottom);

  // Grid and axis labels.
  const step = niceStep(top - bottom);
  for (let v = Math.ceil(bottom / step) * step; v <= top; v += step) {
    root.append(svg("line", { class: "grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }));
    root.append(svg("text", { class: "axis", x: PAD.left - 5, y: y(v), "text-anchor": "end", "dominant-baseline": "central" }, String(v)));
  }
  series.rounds.forEach((p, i) => {
    root.append(svg("line", { class: "round-mark", x1: x(p), x2: x(p), y1: PAD.top, y2: H - PAD.bottom }));
    root.append(svg("text", { class: "axis", x: x(p), y: H - PAD.bottom + 11, "text-anchor": "middle" }, i < 3 ? `R${i + 1}` : `TB${i - 2}`));
  });

  // One step line per player.
  names.forEach((_name, seat) => {
    let d = "";
    let last = null;
    for (const [p, totals] of points) {
      const v = totals[seat] ?? 0;
      d += last === null ? `M${x(p)} ${y(v)}` : `H${x(p)} V${y(v)}`;
      last = v;
    }
    d += `H${x(total)}`;
    const line = svg("path", { class: "series", d });
    line.style.stroke = PLAYER_COLOURS[seat % PLAYER_COLOURS.length];
    root.append(line);
  });

  // The cursor at the current position, and each player's total there.
  const now = totalsAt(points, position);
  root.append(svg("line", { class: "cursor", x1: x(position), x2: x(position), y1: PAD.top - 4, y2: H - PAD.bottom }));
  now.forEach((v, seat) => {
    const dot = svg("circle", { class: "cursor-dot", cx: x(position), cy: y(v), r: 3.5 });
    dot.style.fill = PLAYER_COLOURS[seat % PLAYER_COLOURS.length];
    root.append(dot);
  });

  // Legend under the plot: as many rows as the names need, the picture growing to hold them.
  const rows = legendRows(names.map((name, seat) => `${clip(shortName(name))} ${now[seat] ?? 0}`));
  root.setAttribute("viewBox", `0 0 ${W} ${H + (rows.length - 1) * LEGEND_ROW}`);
  rows.forEach((row, r) => {
    const y0 = H - 14 + r * LEGEND_ROW;
    for (const { seat, label, x: lx } of row) {
      const swatch = svg("rect", { x: lx, y: y0, width: 10, height: 10, rx: 2 });
      swatch.style.fill = PLAYER_COLOURS[seat % PLAYER_COLOURS.length];
      root.append(swatch);
      root.append(svg("text", { class: "legend", x: lx + 14, y: y0 + 9 }, svg("title", {}, names[seat]), label)); // a clipped name whole on hover
    }
  });

  if (onSeek) {
    root.onclick = (event) => {
      const box = root.getBoundingClientRect();
      const ux = ((event.clientX - box.left) / box.width) * W;
      const p = Math.round(1 + ((ux - PAD.left) / (W - PAD.left - PAD.right)) * span);
      onSeek(Math.max(1, Math.min(total, p)));
    };
  }
}

function clip(name) {
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}

/** The legend's labels placed in rows that fit the chart's width: [[{seat, label, x}]]. */
export function legendRows(labels) {
  const rows = [[]];
  let x = PAD.left;
  labels.forEach((label, seat) => {
    const width = 14 + label.length * CHAR_W;
    if (rows.at(-1).length && x + width > W - PAD.right) {
      rows.push([]);
      x = PAD.left;
    }
    rows.at(-1).push({ seat, label, x });
    x += width + 10;
  });
  return rows;
}

/** Each player's total at a position (the last change at or before it). */
export function totalsAt(points, position) {
  let found = points.length ? points[0][1].map(() => 0) : [];
  for (const [p, totals] of points) {
    if (p > position) break;
    found = totals;
  }
  return found;
}

function niceStep(range) {
  const raw = range / 4;
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}
