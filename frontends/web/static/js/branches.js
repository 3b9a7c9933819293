// The replay viewer's what-if tools: the game's family (the game it was branched from,
// linked at the point where they part, and the branches of it that the server sees),
// their points marked under the timeline, and "Play from here": a live game branched
// from the position shown, with the same luck or fresh, each seat a person or a bot.
// The server says where a branch may start (where a command's events end) and refuses
// in words what the game refuses (the same luck of a secret seed not revealed yet).

import { getJSON, postJSON } from "./api.js";
import { howToOpen } from "./howto.js";
import { showSeatLinks } from "./links.js";
import { botKind, clear, el, shortName } from "./util.js";

const SOURCES = { file: "replays folder", upload: "upload", game: "stored", store: "stored" };

const LUCK_WORDS = {
  same: "Same luck: every position rolls the dice this game rolled there, so an unchanged move brings the same dice (anyone with this game's log knows them).",
  fresh: "Fresh luck: new dice from a seed the server draws and records in the branch's log (no secret).",
};

/**
 * The bot a seat's name says it is: a logged bot, "Brok (greedy)", or a bot of a series of
 * bot games (the sample replays), "random-3" in seat 3 (core.bots.series.player_names).
 */
function namedKind(name, seat, bots) {
  const series = /^([a-z][a-z0-9_]*)-(\d+)$/.exec(name || "");
  const kind = botKind(name) || (series && Number(series[2]) === seat + 1 ? series[1] : null);
  return kind && bots.includes(kind) ? kind : null;
}

/** Where a position sits along the slider (its thumb's centre), as a CSS length. */
function along(position, total) {
  const f = total > 1 ? (position - 1) / (total - 1) : 0;
  return `calc(8px + (100% - 16px) * ${f.toFixed(5)})`;
}

export class BranchTools {
  /** ``base``: the replay's API address; ``names``: its players; ``onSeek(n)`` moves the viewer. */
  constructor({ base, names, total, onSeek }) {
    this.base = base;
    this.names = names;
    this.total = total;
    this.onSeek = onSeek;
    this.points = [];
    this.board = null;
    this.dom = {
      marks: document.getElementById("branch-marks"),
      family: document.getElementById("family"),
      body: document.getElementById("family-body"),
      toggle: document.getElementById("play-from"),
      form: document.getElementById("branch-form"),
    };
    this.dom.toggle.addEventListener("click", () => this.toggle());
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || this.dom.form.hidden || howToOpen()) return;
      this.toggle(); // Esc shuts the form, and the keyboard is back on its button
      this.dom.toggle.focus();
    });
  }

  /** Fetch the family and the bot kinds; draw the family, the marks and the form. */
  async load() {
    const [family, bots] = await Promise.all([
      getJSON(`${this.base}/branches`),
      getJSON("/api/bots").then(
        (answer) => answer.bots,
        () => ["greedy", "random"],
      ),
    ]);
    this.family = family;
    this.points = family.points;
    this.pointSet = new Set(family.points);
    this.bots = bots;
    this.renderFamily();
    this.renderMarks();
    this.buildForm();
    if (this.board) this.update(this.board);
    document.body.dataset.family = "loaded";
  }

  // -- the family ----------------------------------------------------------

  renderFamily() {
    const { parent, branches } = this.family;
    const body = clear(this.dom.body);
    this.dom.family.hidden = !parent && !branches.length;
    if (parent) {
      const at = this.seekButton(parent.at);
      const from = parent.link
        ? el("a", { href: parent.link, class: "parent-link" }, parent.name)
        : el("span", {}, "a game this server does not have (its log's SHA-256 ", el("code", { title: parent.sha256 }, `${parent.sha256.slice(0, 12)}…`), ")");
      body.append(el("p", { class: "family-parent" }, "A what-if branch of ", from, " at ", at, ": its events before are that game's own."));
    }
    if (branches.length) {
      body.append(
        el("p", { class: "hint" }, `Branched from this game: ${branches.length === 1 ? "one what-if" : `${branches.length} what-ifs`}, each at the event where it parts (marked on the timeline).`),
      );
      const rows = branches.map((b) =>
        el(
          "li",
          { class: "family-branch" },
          b.link ? el("a", { href: b.link }, b.name) : el("span", {}, b.name),
          el("span", { class: "at" }, "at ", this.seekButton(b.at)),
          el("span", { class: "hint" }, b.players.map(shortName).join(", ")),
          el("span", { class: b.source === "store" || b.source === "game" ? "tag stored" : "tag" }, SOURCES[b.source] || b.source),
          el("span", { class: "tag" }, b.over ? "finished" : b.link && b.link.startsWith("/games/") ? "being played" : "unfinished"),
        ),
      );
      body.append(el("ul", { class: "family-list" }, rows));
    }
  }

  /** A button naming an event that moves the viewer to the position where a branch parts. */
  seekButton(at, label = null) {
    const title = `Show the board where they part: after event ${at - 1}, before event ${at}`;
    return el("button", { type: "button", class: "link-button", "data-at": at, title, onclick: () => this.onSeek(at) }, label || `event ${at}`);
  }

  renderMarks() {
    const box = clear(this.dom.marks);
    const { parent, branches } = this.family;
    const seen = new Set();
    for (const b of branches) {
      if (seen.has(b.at)) continue;
      seen.add(b.at);
      const names = branches
        .filter((x) => x.at === b.at)
        .map((x) => x.name)
        .join(", ");
      box.append(this.mark(b.at, "branch-mark", `What-if at event ${b.at}: ${names}`));
    }
    if (parent) box.append(this.mark(parent.at, "branch-mark parent-mark", `Parted here from ${parent.name || "its parent"}`));
  }

  /** A mark under the slider at position ``at`` (placed through the CSSOM: the page's CSP
   * allows no inline style attribute); a click shows the board there. */
  mark(at, className, title) {
    const mark = el("button", { type: "button", tabindex: "-1", class: className, "data-at": at, title, onclick: () => this.onSeek(at) });
    mark.style.left = along(at, this.total);
    return mark;
  }

  // -- "Play from here" ------------------------------------------------------

  toggle() {
    const open = this.dom.form.hidden;
    this.dom.form.hidden = !open;
    this.dom.toggle.setAttribute("aria-expanded", String(open));
    if (open && this.board) this.update(this.board);
    if (open) this.dom.form.querySelector("input:checked, select, button")?.focus(); // its first field, not the controls before it
  }

  buildForm() {
    this.seatsChosen = false; // until a person picks one, the defaults follow the board shown
    this.seatSelects = this.names.map((_, seat) =>
      el(
        "select",
        { id: `branch-seat-${seat}`, name: `seat${seat}`, onchange: () => (this.seatsChosen = true) },
        el("option", { value: "person" }, "Person"),
        this.bots.map((b) => el("option", { value: b }, `Bot: ${b}`)),
      ),
    );
    this.defaultSeats();
    const luck = (value, text) => el("label", {}, el("input", { type: "radio", name: "luck", value, checked: value === "same" }), text);
    this.dom.where = el("p", { class: "hint", id: "branch-where" });
    this.dom.luckHint = el("p", { class: "hint", id: "luck-hint" }, LUCK_WORDS.same);
    this.dom.start = el("button", { type: "submit", class: "button primary", id: "branch-start" }, "Start the branch");
    this.dom.error = el("p", { class: "form-error", id: "branch-error", role: "alert" });
    this.dom.links = el("div", { class: "links", id: "branch-links", hidden: true });
    const form = el(
      "form",
      { autocomplete: "off" },
      el("h2", { id: "branch-form-title" }, "Play from here"),
      this.dom.where,
      el("fieldset", {}, el("legend", {}, "Luck"), el("div", { class: "choices" }, luck("same", "Same luck"), luck("fresh", "Fresh luck"))),
      this.dom.luckHint,
      el(
        "div",
        { class: "seat-rows" },
        this.names.map((name, seat) => el("div", { class: "seat-row" }, el("label", { for: `branch-seat-${seat}` }, name), this.seatSelects[seat])),
      ),
      el("div", { class: "form-row" }, this.dom.start),
      this.dom.error,
    );
    form.addEventListener("change", (event) => {
      if (event.target.name === "luck") this.dom.luckHint.textContent = LUCK_WORDS[event.target.value];
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.start(form);
    });
    clear(this.dom.form).append(form, this.dom.links);
  }

  /** The viewer shows ``board``: say whether a branch can start there, and why not. */
  /** Each seat's default where the viewer stands: a person for the seat to act (the first,
   * if none is); the others keep the bot their name says ("montecarlo-1" once played as a
   * greedy one), or a greedy one. Called again as the board comes or
   * changes, so a board that arrives after the form never leaves stale defaults. */
  defaultSeats() {
    const toAct = (this.board && this.board.table && this.board.table.to_act_seat) ?? 0;
    this.seatSelects.forEach((select, seat) => {
      const kind = namedKind(this.names[seat], seat, this.bots);
      select.value = seat === toAct || this.names.length === 1 ? "person" : kind || (this.bots.includes("greedy") ? "greedy" : "person");
    });
  }

  update(board) {
    this.board = board;
    if (!this.dom.where) return;
    if (!this.seatsChosen) this.defaultSeats();
    const n = board.seq;
    const where = clear(this.dom.where);
    let ok = false;
    if (board.phase === "over") {
      where.append("The game is over here: a branch would have nothing to play. Step back to an earlier event.");
    } else if (!this.pointSet.has(n)) {
      const before = this.points.filter((p) => p < n).at(-1);
      const after = this.points.find((p) => p > n);
      where.append(`A branch starts where a command's events end, and event ${n - 1} is not the last of its command's: the nearest branch points are `);
      // a point named after the event it follows: the last one has no "event N" in this game
      where.append(...[before, after].filter((p) => p !== undefined).flatMap((p, i) => [i ? " and " : "", this.seekButton(p, `after event ${p - 1}`)]), ".");
    } else {
      ok = true;
      const next = n < this.total ? `, then plays on another way where event ${n} was played` : ", all it has, and plays on from where it stops";
      where.append(`A live what-if game from here: it keeps this game's first ${n} events (0 to ${n - 1})${next}.`);
    }
    this.at = ok ? n : null;
    this.dom.start.disabled = !ok;
    this.dom.form.dataset.at = ok ? String(n) : "";
  }

  async start(form) {
    if (this.at === null) return;
    this.dom.error.textContent = "";
    const body = {
      at: this.at,
      luck: form.elements.luck.value,
      players: this.names.map((name, seat) => {
        const choice = this.seatSelects[seat].value;
        return { name, bot: choice === "person" ? null : choice };
      }),
    };
    this.dom.start.disabled = true;
    try {
      const game = await postJSON(`${this.base}/branch`, body);
      showSeatLinks(this.dom.links, game);
      const people = game.seats.filter((s) => s.token);
      if (people.length === 1) location.href = people[0].link;
    } catch (error) {
      this.dom.error.textContent = error.message;
    } finally {
      this.dom.start.disabled = this.at === null;
    }
  }

  failed(error) {
    this.dom.family.hidden = false;
    clear(this.dom.body).append(el("p", { class: "form-error" }, `Could not load the game's branches: ${error.message}`));
  }
}
