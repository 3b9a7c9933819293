// The replay viewer's analysis view, as lichess shows a game's: each seat's win chance
// through the game (solo: the expected final score) under the board, every move the
// analysis marks (inaccuracy, mistake, blunder) on that chart and in the event list, and
// at each position the move just played against the best found, and the best moves from
// here with their values, the best drawn on the board. The analysis is the server's
// (`dice-miner analyse`, run in the background on demand: GET/POST .../analysis); nothing
// is valued here. Everything a step needs is worked out once, when the analysis arrives,
// so drawing a position stays within a step's budget.

import { getJSON, postJSON } from "./api.js";
import { PLAYER_COLOURS, clear, el, shortName, svg } from "./util.js";

const W = 560;
const H = 140;
const PAD = { left: 34, right: 10, top: 10, bottom: 18 };
const POLL_MS = 400;
/** The best moves from a position listed with their values. */
const SHOWN = 5;
/** The marks' symbols, as a chess annotator writes them. */
const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** A node in a seat's colour (set through the CSSOM: the page's policy allows no style attribute). */
function colour(node, seat) {
  node.style.setProperty("--pc", PLAYER_COLOURS[seat % PLAYER_COLOURS.length]);
  return node;
}

/** A column head of the summary: the mark's symbol, its name said to a screen reader. */
function markHead(mark, plural, thresholds) {
  const unit = "points lost";
  return el("th", { title: `${plural}: ${thresholds[mark]} ${unit} or more` }, SYMBOL[mark], el("span", { class: "visually-hidden" }, ` ${plural}`));
}

/** "3rd", "11th". */
function ordinal(n) {
  const tens = n % 100;
  const suffix = tens > 10 && tens < 14 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/** The dice and hero faces a move would touch, for the board: {dice, heroFaces}. */
export function moveDice(move) {
  const dice = new Set();
  const heroFaces = new Set();
  if (!move) return { dice, heroFaces };
  if (Number.isInteger(move.die)) dice.add(move.die);
  if (Number.isInteger(move.hero_face)) heroFaces.add(`${move.seat}:${move.hero_face}`);
  for (const die of [...(move.targets || []), ...(move.dice || [])]) dice.add(die);
  return { dice, heroFaces };
}

/** Seconds in words: "25 s", "2 min". */
function inWords(seconds) {
  return seconds < 90 ? `${Math.max(1, Math.round(seconds))} s` : `${Math.round(seconds / 60)} min`;
}

export class AnalysisView {
  /**
   * base: the replay's API address; dom: {section, toggle, state, body, chart};
   * total: the game's length; names: the players; onSeek(position); onReady() once drawn.
   */
  constructor({ base, dom, total, names, onSeek, onReady }) {
    Object.assign(this, { base, dom, total, names, onSeek, onReady });
    this.document = null;
    this.position = null;
    this.open = false;
    dom.toggle.addEventListener("click", () => (this.open ? this.hide() : this.show()));
  }

  // -- asking the server ---------------------------------------------------

  /** Open the view: the analysis if it is done, its progress if it runs, else the button. */
  async show() {
    this.open = true;
    this.dom.section.hidden = false;
    this.dom.toggle.setAttribute("aria-expanded", "true");
    document.body.classList.add("analysing");
    if (this.document) return this.draw();
    this.status(await getJSON(`${this.base}/analysis`));
  }

  hide() {
    this.open = false;
    this.dom.section.hidden = true;
    this.dom.toggle.setAttribute("aria-expanded", "false");
    document.body.classList.remove("analysing");
    delete document.body.dataset.analysis;
    clearTimeout(this.timer);
    if (this.onReady) this.onReady(); // the board's best-move marks go with it
  }

  async start() {
    this.say("Starting the analysis…");
    try {
      this.status(await postJSON(`${this.base}/analysis`, {}));
    } catch (error) {
      this.say(`The analysis could not be started: ${error.message}`, true);
    }
  }

  status(answer) {
    clearTimeout(this.timer);
    if (answer.state === "done") return this.set(answer.analysis);
    if (answer.state === "running") {
      this.progress(answer.done, answer.total, answer.seconds_left);
      this.timer = setTimeout(async () => {
        try {
          this.status(await getJSON(`${this.base}/analysis`));
        } catch (error) {
          this.say(`Lost the analysis's progress: ${error.message}`, true);
        }
      }, POLL_MS);
      return;
    }
    if (answer.state === "failed") this.say(answer.error || "The analysis failed.", true);
    if (answer.estimate_s) this.estimate = answer.estimate_s; // measured on the server
    this.offer(answer.state === "failed" ? "Try again" : "Analyse this game");
  }

  offer(label) {
    const body = clear(this.dom.body);
    const players = this.names.length;
    const time = this.estimate ? `about ${inWords(this.estimate)}` : players === 1 ? "a few seconds" : "some seconds";
    body.append(
      el("p", { class: "hint" }, `Every decision weighed as the montecarlo bot would, on sampled futures of the dice no one had seen: ${time} on the server, and the page goes on meanwhile.`),
      el("button", { type: "button", class: "button primary", id: "analyse", onclick: () => this.start() }, label),
    );
    this.dom.state.textContent = "";
  }

  progress(done, total, left) {
    const body = clear(this.dom.body);
    const bar = el("progress", { id: "analysis-progress", max: String(total || 1), value: String(done) });
    const eta = left === undefined || left === null ? "" : ` About ${inWords(left)} left.`;
    body.append(el("p", { class: "hint", id: "analysis-eta" }, `Weighing the decisions: ${done} of ${total || "…"}.${eta}`), bar);
    this.dom.state.textContent = total ? `${Math.round((100 * done) / total)}%` : "";
  }

  say(text, error = false) {
    this.dom.state.textContent = "";
    clear(this.dom.body).append(el("p", { class: error ? "form-error" : "hint" }, text));
  }

  // -- the analysis, worked out once ----------------------------------------

  /** Keep the analysis and everything a position will ask of it. */
  set(document) {
    performance.mark("dm:analysis-arrived"); // read by benchmarks/web.py: the drawing's start
    this.document = document;
    const solo = document.log.mode === "solo";
    this.solo = solo;
    this.key = solo ? "expected_score" : "win_chance";
    this.unit = solo ? "points" : "%";
    // each position's chances (the state after n events), carried over undone events
    const byEvent = new Map(document.events.map((e) => [e.seq, solo ? [e.expected_score] : e.win_chance]));
    this.chances = [];
    let last = null;
    for (let n = 1; n <= this.total; n++) {
      if (byEvent.has(n - 1)) last = byEvent.get(n - 1);
      this.chances[n] = last;
    }
    // the decision made from each position, and the decision each event belongs to
    this.from = new Map(document.decisions.map((d) => [d.seq, d]));
    const standing = new Set(document.events.map((e) => e.seq));
    this.played = [];
    let current = null;
    for (let seq = 0; seq < this.total; seq++) {
      if (this.from.has(seq)) current = this.from.get(seq);
      this.played[seq] = standing.has(seq) ? current : null;
    }
    this.marked = new Map(document.decisions.filter((d) => d.mark).map((d) => [d.seq, d]));
    this.chartKey = null;
    this.draw();
  }

  /** Draw what does not change with the position: the summary, the chart, the marks. */
  draw() {
    const doc = this.document;
    const body = clear(this.dom.body);
    const t = doc.thresholds;
    this.dom.state.textContent = `${doc.decisions.length} decisions, ${doc.options.samples} futures each`;
    const rows = doc.summary.map((s) =>
      el(
        "tr",
        {},
        el("td", {}, colour(el("span", { class: "swatch" }), s.seat), shortName(s.player)),
        el("td", {}, s.accuracy === null ? "–" : String(s.accuracy)),
        el("td", { class: "mark-inaccuracy" }, String(s.inaccuracies)),
        el("td", { class: "mark-mistake" }, String(s.mistakes)),
        el("td", { class: "mark-blunder" }, String(s.blunders)),
      ),
    );
    body.append(
      el(
        "table",
        { class: "analysis-summary" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", {}, "Player"),
            el("th", { title: "lichess's accuracy over the decisions with a choice" }, "Accuracy"),
            markHead("inaccuracy", "inaccuracies", t),
            markHead("mistake", "mistakes", t),
            markHead("blunder", "blunders", t),
          ),
        ),
        el("tbody", {}, rows),
      ),
      this.dom.chart,
      el("div", { class: "analysis-now", id: "analysis-now", "aria-live": "polite" }),
    );
    this.dom.chart.removeAttribute("hidden"); // an <svg> has no hidden property to set
    this.drawChart();
    if (this.onReady) this.onReady(); // the board redrawn with the best move, the list marked
    document.body.dataset.analysis = "shown";
    performance.mark("dm:analysis"); // read by benchmarks/web.py
  }

  // -- the chart -----------------------------------------------------------

  scale() {
    const top = this.solo ? Math.max(10, ...this.chances.filter(Boolean).map((c) => c[0])) : 100;
    const span = Math.max(1, this.total - 1);
    const x = (p) => PAD.left + ((p - 1) / span) * (W - PAD.left - PAD.right);
    const y = (v) => H - PAD.bottom - (v / top) * (H - PAD.top - PAD.bottom);
    return { top, span, x, y };
  }

  drawChart() {
    const root = clear(this.dom.chart);
    root.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const { top, span, x, y } = this.scale();
    const label = this.solo ? "expected final score" : "win chance (%)";
    root.setAttribute("aria-label", `Each player's ${label} through the game; the moves marked as inaccuracies, mistakes and blunders`);
    for (const v of [0, top / 2, top]) {
      root.append(svg("line", { class: "grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }));
      root.append(svg("text", { class: "axis", x: PAD.left - 4, y: y(v), "text-anchor": "end", "dominant-baseline": "central" }, this.solo ? String(Math.round(v)) : `${Math.round(v)}%`));
    }
    const seats = this.solo ? 1 : this.names.length;
    for (let seat = 0; seat < seats; seat++) {
      let d = "";
      for (let n = 1; n <= this.total; n++) {
        const c = this.chances[n];
        if (!c) continue;
        d += d ? `L${x(n)} ${y(c[seat])}` : `M${x(n)} ${y(c[seat])}`;
      }
      const line = svg("path", { class: "series", d });
      line.style.stroke = PLAYER_COLOURS[seat % PLAYER_COLOURS.length];
      root.append(line);
    }
    for (const d of this.marked.values()) {
      const at = d.seq + 1;
      const c = this.chances[at] || [0];
      const dot = svg("circle", { class: `mark mark-${d.mark}`, cx: x(at), cy: y(c[this.solo ? 0 : d.seat]), r: d.mark === "blunder" ? 4.2 : 3.4, dataset: { seq: String(d.seq) } });
      dot.append(svg("title", {}, `event ${d.seq}, ${shortName(d.player)}: a ${d.mark} (${d.loss} lost)`));
      root.append(dot);
    }
    this.cursor = svg("line", { class: "cursor", x1: 0, x2: 0, y1: PAD.top - 4, y2: H - PAD.bottom });
    root.append(this.cursor);
    root.onclick = (event) => {
      const box = root.getBoundingClientRect();
      const ux = ((event.clientX - box.left) / box.width) * W;
      const p = Math.round(1 + ((ux - PAD.left) / (W - PAD.left - PAD.right)) * span);
      this.onSeek(Math.max(1, Math.min(this.total, p)));
    };
  }

  // -- each position -------------------------------------------------------

  /** The board's marks for the best move from position ``n`` (drawn only while open). */
  boardMarks(n) {
    const empty = { best: new Set(), bestHero: new Set() };
    if (!this.open || !this.document) return empty;
    const decision = this.from.get(n);
    if (!decision) return empty;
    // the candidate a reader chose to see on the board at this position, else the best
    const chosen = this.chosen && this.chosen.n === n ? decision.candidates[this.chosen.index] : null;
    const { dice, heroFaces } = moveDice((chosen || decision.best).move);
    return { best: dice, bestHero: heroFaces };
  }

  /** Draw candidate ``index`` of position ``n`` on the board (again: the best). */
  showCandidate(n, index) {
    this.chosen = index === 0 || (this.chosen && this.chosen.n === n && this.chosen.index === index) ? null : { n, index };
    if (this.onReady) this.onReady(); // the board redrawn with its marks, this panel with it
  }

  /** The position of the marked move (inaccuracy, mistake, blunder) after or before ``n``:
   * the position it was chosen from, its best move drawn on the board; null if none. */
  markedFrom(n, step) {
    const seqs = [...this.marked.keys()].sort((a, b) => a - b);
    const found = step > 0 ? seqs.find((seq) => seq > n) : seqs.filter((seq) => seq < n).at(-1);
    return found === undefined ? null : found;
  }

  /** "◂ Previous mistake" and "Next mistake ▸": lichess's jumps between the marked moves. */
  jumps(n) {
    const jump = (step, label, id) => {
      const to = this.markedFrom(n, step);
      const title = to === null ? "No marked move that way" : `Event ${to}: ${this.marked.get(to).mark}`;
      return el("button", { type: "button", class: "button small", id, disabled: to === null, title, onclick: () => this.onSeek(to) }, label);
    };
    return el(
      "div",
      { class: "analysis-jumps", role: "group", "aria-label": "Marked moves (inaccuracies, mistakes, blunders)" },
      jump(-1, "◂ Previous mistake", "previous-mistake"),
      jump(1, "Next mistake ▸", "next-mistake"),
    );
  }

  /** Each event line's mark, for the event list: Map<seq, mark>. */
  marks() {
    return new Map([...(this.marked || new Map()).values()].map((d) => [d.seq, d.mark]));
  }

  /** Show position ``n``: the cursor, the move just played, the best moves from here. */
  render(n) {
    this.position = n;
    if (!this.open || !this.document) return;
    const { x } = this.scale();
    this.cursor.setAttribute("x1", x(n));
    this.cursor.setAttribute("x2", x(n));
    const box = document.getElementById("analysis-now");
    if (!box) return;
    clear(box);
    if (this.marked.size) box.append(this.jumps(n));
    const chances = this.chances[n];
    if (chances) {
      const parts = chances.map((c, seat) => colour(el("span", { class: "chance" }, `${shortName(this.names[seat])} ${c}${this.unit}`), seat));
      box.append(el("p", { class: "chances" }, this.solo ? "Expected final score: " : "Win chances: ", parts));
    }
    const just = this.played[n - 1];
    if (just && just.seq <= n - 1) box.append(this.justPlayed(just));
    const decision = this.from.get(n);
    if (decision) box.append(this.fromHere(decision));
    else if (n === this.total) box.append(el("p", { class: "hint" }, this.resultWords()));
    else box.append(el("p", { class: "hint" }, "No one decides here: the events of one command happen together."));
  }

  justPlayed(d) {
    const value = (v) => `${v}${this.unit}`;
    const words = [`${shortName(d.player)} played: ${d.played.words} (${value(d.played.value)}`]; // "played: take die 2", as the terminal's review
    words.push(d.forced ? ", the only move)" : d.played.rank === 1 ? ", the best move found)" : `, the ${ordinal(d.played.rank)} best)`);
    const line = el("p", { class: `just ${d.mark ? `mark-${d.mark}` : ""}` }, el("strong", {}, `Event ${d.seq}: `), words.join(""));
    if (d.mark) {
      line.append(el("span", { class: `badge mark-${d.mark}` }, ` ${SYMBOL[d.mark]} a ${d.mark}`), `: ${d.loss} lost; best was ${d.best.words} (${value(d.best.value)}).`);
    }
    return line;
  }

  fromHere(d) {
    const value = (v) => `${v}${this.unit}`;
    const section = el("div", { class: "from-here" });
    section.append(
      el(
        "p",
        {},
        el("strong", {}, `${shortName(d.player)} to move`),
        ` (${d.legal} legal moves): the best found, drawn on the board, and the next ${Math.min(SHOWN, d.candidates.length) - 1} (press one to draw it instead).`,
      ),
    );
    const drawn = this.chosen && this.chosen.n === d.seq ? this.chosen.index : 0;
    const rows = d.candidates
      .slice(0, SHOWN)
      .map((c, i) =>
        el(
          "li",
          { class: [i === 0 ? "best" : "", c.command === d.played.command ? "played" : ""].join(" ").trim() },
          el(
            "button",
            { type: "button", class: "candidate", "aria-pressed": String(i === drawn), title: "Draw this move on the board", onclick: () => this.showCandidate(d.seq, i) },
            el("span", { class: "value" }, value(c.value)),
            el("span", { class: "words" }, c.words),
          ),
          c.command === d.played.command ? el("span", { class: "tag" }, "played") : null,
        ),
      );
    section.append(el("ol", { class: "candidates" }, rows));
    if (d.played.rank > SHOWN) section.append(el("p", { class: "hint" }, `Played: ${d.played.words} (${value(d.played.value)}, the ${ordinal(d.played.rank)} best).`));
    return section;
  }

  resultWords() {
    const r = this.document.result;
    if (this.solo) return `The game is over: ${r.score} points.`;
    return r.winners.length ? `The game is over: ${r.winners.map(shortName).join(" and ")} won.` : "The game is over.";
  }
}
