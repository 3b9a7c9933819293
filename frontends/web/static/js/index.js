// The home page: the replays to open or upload, a form to start a game with
// seats for people and bots, and the games being played now.

import { getJSON, postFile, postJSON } from "./api.js";
import { dieSvg } from "./dice.js";
import { showSeatLinks } from "./links.js";
import { mySeats, turnWords } from "./mygames.js";
import { clear, el, shortName } from "./util.js";

// The first seat is the person starting the game: their name is asked, never assumed
// (everyone reads it: "greedy shared a beer with You" said nothing).
const DEFAULT_SEATS = [
  { type: "person", name: "" },
  { type: "greedy", name: "Brok" },
  { type: "greedy", name: "Cira" },
  { type: "empty", name: "Dain" },
];
/** The longest name the server takes (core.host.seats.MAX_NAME): a longer one is refused, not cut. */
const MAX_NAME = 24;

/** What a listed log is besides its name: a game of the server's store, a what-if branch. */
function logTags(r) {
  return [
    r.source === "store" ? el("span", { class: "tag stored", title: "a finished game kept by this server" }, "stored") : null,
    r.branch ? el("span", { class: "tag what-if", title: "a what-if branch of another game" }, `what-if at ${r.branch.at}`) : null,
    r.source === "upload" ? el("span", { class: "tag upload", title: `your upload of ${r.filename}, kept a while in memory` }, "your upload") : null,
  ];
}

async function loadReplays() {
  const box = document.getElementById("replay-list");
  try {
    const answer = await getJSON("/api/replays");
    const replays = [...(answer.uploads || []), ...answer.replays]; // this client's uploads first
    clear(box);
    if (!replays.length) {
      box.append(el("p", { class: "hint" }, "No replays in the replays folder or finished games here yet. Upload a log below."));
      return;
    }
    const rows = replays.map((r) =>
      el(
        "tr",
        {},
        el("td", {}, r.error ? r.name : el("a", { href: `/replay/${encodeURIComponent(r.name)}` }, r.name), logTags(r)),
        r.error
          ? el("td", { class: "damaged", colspan: 3 }, r.error)
          : [
              el("td", {}, r.players.map(shortName).join(", ")),
              el("td", { class: "col-extra" }, `${r.events}`),
              el("td", { class: "col-extra" }, r.result || "unfinished"), // the server's words: a solo game has a score, not a "tie"
            ],
      ),
    );
    box.append(
      el(
        "table",
        {},
        el("thead", {}, el("tr", {}, el("th", {}, "Log"), el("th", {}, "Players"), el("th", { class: "col-extra" }, "Events"), el("th", { class: "col-extra" }, "Result"))),
        el("tbody", {}, rows),
      ),
    );
  } catch (error) {
    clear(box).append(el("p", { class: "form-error" }, error.message));
  }
}

function wireUpload() {
  const form = document.getElementById("upload-form");
  const message = document.getElementById("upload-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "";
    const file = document.getElementById("upload-file").files[0];
    if (!file) {
      message.textContent = "Choose a game log first.";
      return;
    }
    try {
      const replay = await postFile("/api/replays", "log", file);
      location.href = `/replay/${encodeURIComponent(replay.name)}`;
    } catch (error) {
      const where = error.detail && error.detail.offset !== undefined ? ` (byte ${error.detail.offset}, record ${error.detail.record})` : "";
      message.textContent = `${error.message}${where && !error.message.includes("byte") ? where : ""}`;
    }
  });
}

/** A bot's label in the seat menu: its level of strength and what it was measured to do. */
function botLabel(kind, levels) {
  const level = levels.find((l) => l.kind === kind);
  if (!level) return `Bot: ${kind}`;
  const name = level.level === kind ? kind : `${level.level} (${kind})`;
  return `Bot: ${name}, ${level.measured}`;
}

function seatRow(index, seat, bots, levels) {
  const select = el(
    "select",
    { name: `type${index}`, "aria-label": `Seat ${index + 1}` },
    el("option", { value: "person" }, "Person"),
    bots.map((b) => el("option", { value: b }, botLabel(b, levels))),
    index >= 2 ? el("option", { value: "empty" }, "Empty seat") : null,
  );
  select.value = seat.type;
  // no maxlength: a pasted name would be cut without a word; too long a name is refused instead
  const name = el("input", { name: `name${index}`, value: seat.name, "aria-label": `Seat ${index + 1} name` });
  const sync = () => {
    name.disabled = select.value === "empty";
    name.placeholder = select.value === "person" ? (index === 0 ? "Your name" : "Their name") : "a name (optional)";
  };
  select.addEventListener("change", sync);
  sync();
  return el("div", { class: "seat-row" }, el("span", { class: "seat-no" }, String(index + 1)), select, name);
}

/** A seat's name refused in words (an Error naming its input), or the name as typed. */
function checkedName(input, seatNo, person) {
  const name = input.value.trim();
  const refuse = (text) => Object.assign(new Error(`Seat ${seatNo}: ${text}`), { input });
  if (person && !name) throw refuse("the name of the person playing it, please (everyone at the table sees it).");
  if (name.length > MAX_NAME) throw refuse(`a name has at most ${MAX_NAME} characters; this one has ${name.length}.`);
  return name || null;
}

/** The seats of the form as the API takes them; an Error (with the input to fix) if a name will not do. */
function seatsFromForm(form, count = 4) {
  const players = [];
  for (let i = 0; i < count; i++) {
    const type = form.elements[`type${i}`].value;
    if (type === "empty") continue;
    const person = type === "person" || count === 1;
    players.push({ name: checkedName(form.elements[`name${i}`], i + 1, person), bot: person ? null : type });
  }
  return players;
}

function showLinks(game) {
  showSeatLinks(document.getElementById("game-links"), game);
}

/** The largest seed the engine takes (2**64 - 1). */
const MAX_SEED = 18446744073709551615n;

/**
 * The seed field's digits, or null when it is empty; an Error in words when it is no seed.
 * A seed is sent as its exact digits: as a JavaScript number, 20 digits would be rounded and
 * 5,000 would become Infinity, which JSON writes as null (a random game, said nowhere).
 */
export function seedDigits(text) {
  const digits = text.trim();
  if (!digits) return null;
  if (!/^[0-9]+$/.test(digits) || digits.length > 20 || BigInt(digits) > MAX_SEED) {
    throw new Error("A seed is a whole number from 0 to 18446744073709551615 (or leave it empty).");
  }
  return digits.replace(/^0+(?=.)/, "");
}

/** The body of a new game as JSON text, the seed written with all its digits. */
function gameJSON(body, seed) {
  if (seed === null) return JSON.stringify(body);
  return JSON.stringify({ ...body, seed: 0 }).replace(/"seed":0(?=[,}])/, `"seed":${seed}`);
}

async function wireGameForm() {
  const form = document.getElementById("game-form");
  const rows = document.getElementById("seat-rows");
  const message = document.getElementById("game-error");
  let bots = ["greedy", "random"];
  let levels = [];
  try {
    const answer = await getJSON("/api/bots");
    bots = [...answer.levels.map((l) => l.kind), ...answer.bots.filter((b) => !answer.levels.some((l) => l.kind === b))];
    levels = answer.levels;
  } catch {
    // keep the usual ones
  }
  DEFAULT_SEATS.forEach((seat, i) => {
    rows.append(seatRow(i, seat, bots, levels));
  });
  const start = async (mode) => {
    message.textContent = "";
    for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    const body = { mode, pace: Number(form.elements.pace.value) };
    try {
      body.players = seatsFromForm(form, mode === "solo" ? 1 : 4);
      const seed = seedDigits(form.elements.seed.value);
      // a chosen seed is no secret: the game names who chose it, the person starting it
      const creator = body.players.find((p) => p.bot === null && p.name);
      if (seed !== null && creator) body.seed_chosen_by = creator.name;
      const game = await postJSON("/api/games", gameJSON(body, seed));
      showLinks(game);
      loadGames();
      const people = game.seats.filter((s) => s.token);
      if (people.length === 1) location.href = people[0].link;
    } catch (error) {
      message.textContent = error.message;
      if (error.input) {
        error.input.setAttribute("aria-invalid", "true");
        error.input.focus();
      }
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    start("multi");
  });
  document.getElementById("start-solo").addEventListener("click", () => start("solo"));
}

/** How long ago a time (seconds since the epoch) was, in words: "just now", "4 min ago". */
function ago(seconds) {
  const passed = Math.max(0, Date.now() / 1000 - seconds);
  if (passed < 60) return "just now";
  if (passed < 3600) return `${Math.floor(passed / 60)} min ago`;
  if (passed < 86400) return `${Math.floor(passed / 3600)} h ago`;
  return `${Math.floor(passed / 86400)} days ago`;
}

/** "your turn", marked, for a seat this browser plays (mygames.js); the cell names whose turn. */
function turnCell(game) {
  if (turnWords(game, game.players.map(shortName), mySeats()[game.id] ?? null) !== "your turn") return null;
  return el("span", { class: "turn-words yours", dataset: { turn: "your turn" } }, " · your turn");
}

async function loadGames() {
  const box = document.getElementById("game-list");
  try {
    const { games } = await getJSON("/api/games");
    clear(box);
    // being played: a finished game is listed with the replays (its standings on its page)
    const playing = games.filter((g) => !g.over).sort((a, b) => (b.changed || 0) - (a.changed || 0));
    if (!playing.length) {
      box.append(el("p", { class: "hint" }, "No game is being played on this server."));
      return;
    }
    const rows = playing.map((g) =>
      el(
        "tr",
        { dataset: { game: g.id } },
        el("td", {}, el("a", { href: `/games/${g.id}` }, g.players.map(shortName).join(", ")), el("span", { class: "game-id" }, g.id)),
        el("td", {}, g.to_act === null || g.to_act === undefined ? "–" : `${shortName(g.players[g.to_act])}${g.phase === "setup" ? " (choosing a hero)" : `, round ${g.round}`}`, turnCell(g)),
        el("td", { class: "col-extra" }, g.changed ? ago(g.changed) : "–"),
      ),
    );
    box.append(
      el("table", { class: "games-table" }, el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", {}, "To act"), el("th", { class: "col-extra" }, "Last move"))), el("tbody", {}, rows)),
    );
  } catch (error) {
    clear(box).append(el("p", { class: "form-error" }, error.message));
  }
}

function introDice() {
  const box = document.getElementById("intro-dice");
  const faces = [
    ["tunnel", "5"],
    ["treasure", "gem3"],
    ["hazard", "dragon2"],
    ["tool", "pickaxe"],
    ["magic", "magic2"],
    ["tunnel", "beer"],
  ];
  for (const [kind, face] of faces) box.append(dieSvg({ kind, face }, { size: 44, showId: false }));
}

introDice();
loadReplays();
wireUpload();
wireGameForm();
loadGames();
setInterval(loadGames, 5000);
