// The replay viewer: first / previous / play / next / last, a timeline slider,
// the playback speed, arrow keys, the position in the URL (?at=N: the state
// after the first N events), the event list and the score chart. The page holds
// every board of the game once it has loaded them (one packed answer, fetched
// while the first board is drawn), so a step or a seek draws at once, without the
// server; until then a position costs one small request (the server seeks from
// snapshots), and the states next to it are prefetched into a small cache.

import { AnalysisView } from "./analysis.js";
import { getJSON } from "./api.js";
import { renderMountain, renderPlayers } from "./board.js";
import { Boards } from "./boards.js";
import { BranchTools } from "./branches.js";
import { renderChart } from "./chart.js";
import { EventList } from "./events.js";
import { howToOpen, wireHowTo } from "./howto.js";
import { ICONS, icon } from "./icons.js";
import { lastMove, markOptions, withMarks } from "./lastmove.js";
import { keyIsElsewhere, keyPressesControl } from "./history.js";
import { historyLabel } from "./historybar.js";
import { el } from "./util.js";

const CACHE_SIZE = 64;
const PREFETCH = 3;

class Viewer {
  constructor(name) {
    this.name = name;
    this.base = `/api/replays/${encodeURIComponent(name)}`;
    this.boards = new Boards(); // every board of the game, once loaded
    this.cache = new Map(); // boards asked for one by one before that
    this.position = 0;
    this.target = 0;
    this.total = 0;
    this.playing = false;
    this.timer = null;
    this.dom = {
      mountain: document.getElementById("mountain"),
      players: document.getElementById("players"),
      status: document.getElementById("status"),
      chart: document.getElementById("chart"),
      slider: document.getElementById("timeline"),
      position: document.getElementById("position"),
      speed: document.getElementById("speed"),
      controls: document.getElementById("controls"),
      announce: document.getElementById("announce"),
    };
  }

  async start() {
    const asked = Number.parseInt(new URLSearchParams(location.search).get("at"), 10);
    const events = Number.parseInt(document.body.dataset.events, 10) || Infinity; // a link past the end shows the end
    const first = Number.isFinite(asked) && asked >= 1 ? Math.min(asked, events) : 1;
    const early = this.stateAt(first); // in parallel with the rest (a bad position fails alone)
    early.catch(() => {});
    const all = getJSON(`${this.base}/boards`); // the whole game, while the first board is drawn
    all.catch(() => {}); // without it the viewer still works, a request per position
    const [summary, records] = await Promise.all([getJSON(this.base), this.allEvents()]);
    this.summary = summary;
    this.records = records;
    this.total = summary.events;
    this.names = summary.players;
    this.events = new EventList(document.getElementById("events"), this.names, (p) => this.go(p));
    this.events.set(records);
    this.analysis = new AnalysisView({
      base: this.base,
      dom: {
        section: document.getElementById("analysis"),
        toggle: document.getElementById("analysis-toggle"),
        state: document.getElementById("analysis-state"),
        body: document.getElementById("analysis-body"),
        chart: document.getElementById("winchart"),
      },
      total: this.total,
      names: this.names,
      onSeek: (p) => this.go(p),
      onReady: () => this.analysisReady(),
    });
    this.wireControls();
    // the game's what-if family and "Play from here", loaded beside the first board
    this.family = new BranchTools({ base: this.base, names: this.names, total: this.total, onSeek: (p) => this.go(p) });
    const family = this.family.load().catch((error) => this.family.failed(error));
    const analysing = new URLSearchParams(location.search).get("analysis") === "1";
    const opened = analysing ? this.analysis.show().catch((error) => this.showError(error)) : null;
    await this.go(first);
    this.holdAll(await all);
    await Promise.all([opened, family]);
  }

  /** The analysis has arrived (or the view closed): its marks in the event list, the board redrawn. */
  analysisReady() {
    this.events.mark(this.analysis.open ? this.analysis.marks() : new Map());
    this.shareLater(this.position);
    if (!this.shownBoard) return;
    this.drawBoard(this.shownBoard); // only what the analysis changes: the board and its panel
    this.analysis.render(this.shownBoard.seq);
  }

  /** Keep every board of the game: from now on steps and seeks never wait on the server. */
  holdAll(pack) {
    this.boards.add(pack);
    this.cache.clear();
    document.body.dataset.boards = this.boards.holds(this.total) ? "all" : "some";
    performance.mark("dm:boards"); // read by benchmarks/web.py
  }

  async allEvents() {
    const records = [];
    for (;;) {
      const page = await getJSON(`${this.base}/events?from=${records.length}`);
      records.push(...withMarks(page.events, page.marks)); // each with the board's marks after it
      if (!page.events.length || records.length >= page.total) return records;
    }
  }

  wireControls() {
    for (const button of this.dom.controls.querySelectorAll("[data-action]")) {
      const action = button.dataset.action;
      button.append(icon(ICONS[action]));
      button.addEventListener("click", () => this.act(action));
    }
    const slider = this.dom.slider;
    slider.max = String(this.total);
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    this.dom.speed.addEventListener("change", () => this.playing && this.schedule());
    document.addEventListener("keydown", (event) => this.key(event));
  }

  key(event) {
    // Space or Enter on a focused button presses that button, not the playback
    if (keyIsElsewhere(event) || keyPressesControl(event) || howToOpen()) return;
    const actions = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" };
    if (event.key === "PageUp" || event.key === "PageDown") {
      event.preventDefault();
      this.go(this.target + (event.key === "PageDown" ? 10 : -10));
      return;
    }
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    this.act(action);
  }

  act(action) {
    if (action === "play") return this.toggle();
    if (action !== "next") this.pause();
    const to = { first: 1, prev: this.target - 1, next: this.target + 1, last: this.total }[action];
    return this.go(to);
  }

  toggle() {
    if (this.playing) return this.pause();
    if (this.target >= this.total) this.go(1);
    this.playing = true;
    this.updatePlayButton();
    this.schedule();
  }

  pause() {
    const was = this.playing;
    this.playing = false;
    clearTimeout(this.timer);
    this.updatePlayButton();
    if (was) this.announceLater(this.position);
  }

  schedule() {
    clearTimeout(this.timer);
    const delay = 1000 / Number(this.dom.speed.value || 4);
    this.timer = setTimeout(async () => {
      if (!this.playing) return;
      if (this.target >= this.total) return this.pause();
      await this.go(this.target + 1);
      if (this.playing) this.schedule();
    }, delay);
  }

  updatePlayButton() {
    const button = this.dom.controls.querySelector("[data-action=play]");
    button.replaceChildren(icon(this.playing ? ICONS.pause : ICONS.play));
    button.setAttribute("aria-label", this.playing ? "Pause" : "Play");
    button.classList.toggle("playing", this.playing);
  }

  /** The board after ``n`` events: held, cached, or one request. */
  stateAt(n) {
    const held = this.boards.get(n);
    if (held) return Promise.resolve(held);
    let entry = this.cache.get(n);
    if (!entry) {
      entry = getJSON(`${this.base}/state?at=${n}`);
      entry.catch(() => this.cache.delete(n));
      this.cache.set(n, entry);
      if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value);
    }
    return entry;
  }

  async go(n) {
    n = Math.max(1, Math.min(this.total, Math.round(n) || 1));
    this.target = n;
    const held = this.boards.get(n);
    if (held) return this.render(held); // drawn now: no request, no waiting for a promise
    let board;
    try {
      board = await this.stateAt(n);
    } catch (error) {
      this.showError(error);
      return;
    }
    if (this.target !== n) return; // a later step overtook this one
    this.render(board);
    for (let k = 1; k <= PREFETCH; k++) if (n + k <= this.total) this.stateAt(n + k);
  }

  /** The mountain and the cards: the last move marked; with the analysis open, the best move from here. */
  drawBoard(board) {
    const n = board.seq;
    const marks = { ...markOptions(lastMove(this.records, n)), ...(this.analysis ? this.analysis.boardMarks(n) : {}) };
    renderMountain(this.dom.mountain, board, marks);
    renderPlayers(this.dom.players, board, marks);
  }

  render(board) {
    const n = board.seq;
    this.shownBoard = board;
    this.position = n;
    this.drawBoard(board);
    const status = board.table.status;
    this.dom.status.textContent = status;
    this.dom.status.title = status; // the line may be cut to its height: the whole of it
    this.dom.status.classList.remove("error");
    this.dom.chart.closest(".card").hidden = board.mode === "solo"; // a solo score is no round total
    renderChart(this.dom.chart, this.summary.scores, this.names, this.total, n, (p) => this.go(p));
    this.events.show(n);
    if (this.analysis) this.analysis.render(n);
    if (this.family) this.family.update(board); // where "Play from here" may start
    this.dom.slider.value = String(n);
    // The event just shown and the last one, both by their seq as the event list, `log show`,
    // the dumps and the analysis number them (from 0): one way of counting, never two
    // (the game page's history bar says it in the same words).
    this.dom.position.textContent = historyLabel(n, this.total, true);
    this.dom.slider.setAttribute("aria-valuetext", this.dom.position.textContent);
    this.shareLater(n);
    if (!this.playing) this.announceLater(n);
    if (!this.firstRender) {
      this.firstRender = true;
      performance.mark("dm:first-render"); // read by benchmarks/web.py
    }
    document.body.dataset.renderedSeq = String(n);
    document.dispatchEvent(new CustomEvent("dm:rendered", { detail: { seq: n } }));
  }

  /**
   * Tell a screen reader the event just shown and where the game stands, once stepping
   * settles: a held arrow key or a dragged timeline says only where it stopped, and
   * playback says nothing until it is paused (one line per event would drown it).
   */
  announceLater(n) {
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => {
      if (this.playing || this.position !== n) return;
      const record = this.records[n - 1];
      const what = record ? `Event ${record.seq}: ${record.text}.` : "";
      this.dom.announce.textContent = `${what} ${this.dom.status.textContent}`.trim();
    }, 250);
  }

  /** Put the position in the URL once stepping settles (replaceState is slow, and throttled). */
  shareLater(n) {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      const url = new URL(location.href);
      url.searchParams.set("at", String(n));
      if (this.analysis && this.analysis.open)
        url.searchParams.set("analysis", "1"); // the view too
      else url.searchParams.delete("analysis");
      history.replaceState(null, "", url);
    }, 120);
  }

  showError(error) {
    this.dom.status.replaceChildren(el("span", {}, `Could not load the replay: ${error.message}`));
    this.dom.status.classList.add("error");
  }
}

wireHowTo(); // before the replay loads: the rules can be read even if it fails to
const viewer = new Viewer(document.body.dataset.replay);
window.dmViewer = viewer;
viewer.start().catch((error) => viewer.showError(error));
