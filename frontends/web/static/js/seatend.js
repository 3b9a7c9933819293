// Leaving a game for good, its final standings (each category, as Board Game Arena shows
// them) and the rematch (templates/_standings.html, _leave.html). It follows the page the game's own
// script draws (the body's data-rendered-seq) and asks the server for the standings: the
// scores are the engine's, this only lays them out.

import { getJSON, postJSON } from "./api.js";
import { clear, el } from "./util.js";

const gameId = document.body.dataset.game;
const base = `/api/games/${encodeURIComponent(gameId)}`;
/** How often a finished game's page looks for a rematch someone else made (ms). */
const REMATCH_POLL = 3000;

function seatFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const seat = Number.parseInt(params.get("seat"), 10);
  return token && Number.isInteger(seat) ? { seat, token } : { seat: null, token: null };
}

class SeatEnd {
  constructor() {
    const { seat, token } = seatFromHash();
    this.seat = seat;
    this.token = token;
    this.dom = Object.fromEntries(
      ["standings", "standings-closed", "standings-table", "rematch", "leave", "leave-open", "leave-confirm", "leave-yes", "leave-no", "leave-error"].map((id) => [id, document.getElementById(id)]),
    );
    this.seen = null; // the seq of the last standings read
    this.asking = false;
    this.poll = null;
  }

  start() {
    this.dom["leave-open"].addEventListener("click", () => this.confirmLeave(true));
    this.dom["leave-no"].addEventListener("click", () => this.confirmLeave(false));
    this.dom["leave-yes"].addEventListener("click", () => this.leave());
    new MutationObserver(() => this.look()).observe(document.body, { attributes: true, attributeFilter: ["data-rendered-seq"] });
    this.look();
  }

  /** Read the standings again when the game has moved (once at a time). */
  async look() {
    if (this.asking) return;
    this.asking = true;
    try {
      const now = await getJSON(`${base}/standings`);
      if (now.seq !== this.seen || now.rematch !== this.rematch) {
        this.seen = now.seq;
        this.rematch = now.rematch;
        this.draw(now);
      }
    } catch {
      // the game page says what failed; the next change looks again
    } finally {
      this.asking = false;
    }
  }

  get mine() {
    return this.seat !== null && this.token !== null;
  }

  draw(now) {
    const person = this.mine && now.people.includes(this.seat);
    this.dom.leave.hidden = !person || now.over;
    if (!now.over) return;
    this.drawTable(now);
    this.drawRematch(now);
    if (!now.rematch && this.poll === null) {
      this.poll = setInterval(() => this.look(), REMATCH_POLL); // another person may make it
    } else if (now.rematch && this.poll !== null) {
      clearInterval(this.poll);
      this.poll = null;
    }
  }

  drawTable(now) {
    const box = this.dom.standings;
    box.hidden = false;
    const closed = this.dom["standings-closed"];
    closed.hidden = !now.closed;
    closed.textContent = now.closed ? `Closed before its end, no winner: ${now.closed}.` : "";
    const rounds = Array.from({ length: now.rounds || 0 }, (_, n) => `Round ${n + 1}`);
    const tiebreak = now.rows.some((row) => row.tiebreak !== null);
    const solo = now.mode === "solo";
    const head = ["Place", "Player", "", ...now.columns.map(([, label]) => label), ...rounds, ...(tiebreak ? ["Tie-break"] : []), "Total", ...(solo ? ["Rating"] : [])];
    const table = this.dom["standings-table"];
    clear(table);
    table.append(
      el("caption", { class: "visually-hidden" }, "Each player's points by category and round"),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          head.map((label, n) => el("th", { scope: "col", class: n === 2 ? "who" : null }, label || el("span", { class: "visually-hidden" }, "Who played"))),
        ),
      ),
      el(
        "tbody",
        {},
        now.rows.map((row) =>
          el(
            "tr",
            { class: row.winner ? "winner" : null, dataset: { seat: row.seat } },
            el("td", {}, solo ? "–" : String(row.place)),
            el("th", { scope: "row", class: "name", title: row.name }, row.winner ? `${row.name} ★` : row.name),
            el("td", { class: "who" }, row.who === "person" ? "" : row.who),
            row.categories.map((points) => el("td", {}, String(points))),
            rounds.map((_, n) => el("td", {}, n < row.rounds.length ? String(row.rounds[n]) : "–")),
            tiebreak ? el("td", {}, row.tiebreak === null ? "–" : String(row.tiebreak)) : null,
            el("td", { class: "total" }, String(row.total)),
            solo ? el("td", {}, row.rating) : null,
          ),
        ),
      ),
    );
  }

  drawRematch(now) {
    const box = this.dom.rematch;
    clear(box);
    if (now.rematch) {
      const id = encodeURIComponent(now.rematch);
      const href = this.mine ? `/games/${id}#seat=${this.seat}&token=${encodeURIComponent(this.token)}` : `/games/${id}`;
      box.append(el("p", {}, `A rematch was started: game ${now.rematch}.`), el("a", { class: "button primary", id: "rematch-link", href }, this.mine ? "Play the rematch" : "Watch the rematch"));
      return;
    }
    if (!this.mine) return;
    box.append(
      el("button", { type: "button", class: "button primary", id: "rematch-start", onclick: () => this.startRematch() }, "Rematch: the same seats and settings"),
      el("p", { class: "muted" }, "The others at the table get a link to it here."),
    );
  }

  async startRematch() {
    const button = document.getElementById("rematch-start");
    if (button) button.disabled = true;
    try {
      const made = await postJSON(`${base}/rematch`, {}, { "X-Seat-Token": this.token });
      location.assign(`/games/${encodeURIComponent(made.id)}#seat=${this.seat}&token=${encodeURIComponent(this.token)}`);
    } catch (error) {
      if (button) button.disabled = false;
      this.dom.rematch.append(el("p", { class: "form-error", role: "alert" }, `No rematch: ${error.message}`));
      this.look();
    }
  }

  confirmLeave(open) {
    this.dom["leave-confirm"].hidden = !open;
    this.dom["leave-open"].setAttribute("aria-expanded", String(open));
    (open ? this.dom["leave-no"] : this.dom["leave-open"]).focus();
  }

  async leave() {
    const error = this.dom["leave-error"];
    error.hidden = true;
    this.dom["leave-yes"].disabled = true;
    try {
      await postJSON(`${base}/leave`, {}, { "X-Seat-Token": this.token });
      // the seat is a bot's now: the page goes on as a spectator's (the log says who left)
      history.replaceState(null, "", location.pathname);
      location.reload();
    } catch (failed) {
      this.dom["leave-yes"].disabled = false;
      error.hidden = false;
      error.textContent = `You could not leave: ${failed.message}`;
    }
  }
}

new SeatEnd().start();
