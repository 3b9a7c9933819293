// The home page: the replays to open or upload, a form to start a game with
// seats for people and bots, and the games being played now.

import { getJSON, postFile, postJSON } from "./api.js";
import { dieSvg } from "./dice.js";
import { clear, el, shortName } from "./util.js";

const DEFAULT_SEATS = [
  { type: "person", name: "You" },
  { type: "greedy", name: "Brok" },
  { type: "greedy", name: "Cira" },
  { type: "empty", name: "Dain" },
];

async function loadReplays() {
  const box = document.getElementById("replay-list");
  try {
    const { replays } = await getJSON("/api/replays");
    clear(box);
    if (!replays.length) {
      box.append(el("p", { class: "hint" }, "No replays in the replays folder yet. Upload a log below."));
      return;
    }
    const rows = replays.map((r) =>
      el(
        "tr",
        {},
        el("td", {}, r.error ? r.name : el("a", { href: `/replay/${encodeURIComponent(r.name)}` }, r.name)),
        r.error
          ? el("td", { class: "damaged", colspan: 3 }, r.error)
          : [
              el("td", {}, r.players.map(shortName).join(", ")),
              el("td", { class: "col-extra" }, `${r.events}`),
              el("td", { class: "col-extra" }, r.winners.map(shortName).join(", ") || (r.over ? "tie" : "unfinished")),
            ],
      ),
    );
    box.append(
      el(
        "table",
        {},
        el("thead", {}, el("tr", {}, el("th", {}, "Log"), el("th", {}, "Players"), el("th", { class: "col-extra" }, "Events"), el("th", { class: "col-extra" }, "Winner"))),
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

function seatRow(index, seat, bots) {
  const select = el(
    "select",
    { name: `type${index}`, "aria-label": `Seat ${index + 1}` },
    el("option", { value: "person" }, "Person"),
    bots.map((b) => el("option", { value: b }, `Bot: ${b}`)),
    index >= 2 ? el("option", { value: "empty" }, "Empty seat") : null,
  );
  select.value = seat.type;
  const name = el("input", { name: `name${index}`, value: seat.name, maxlength: 24, "aria-label": `Seat ${index + 1} name` });
  const sync = () => {
    name.disabled = select.value === "empty";
  };
  select.addEventListener("change", sync);
  sync();
  return el("div", { class: "seat-row" }, el("span", { class: "seat-no" }, String(index + 1)), select, name);
}

function seatsFromForm(form) {
  const players = [];
  for (let i = 0; i < 4; i++) {
    const type = form.elements[`type${i}`].value;
    if (type === "empty") continue;
    players.push({ name: form.elements[`name${i}`].value, bot: type === "person" ? null : type });
  }
  return players;
}

function showLinks(game) {
  const box = document.getElementById("game-links");
  clear(box);
  box.hidden = false;
  const people = game.seats.filter((s) => s.token);
  const heading = el("h2", { tabindex: "-1" }, "Your game is ready");
  box.append(heading);
  if (people.length > 1) {
    box.append(el("p", { class: "hint" }, "Send each person their own link: it lets only them move for their seat."));
  }
  for (const seat of people) {
    const url = new URL(seat.link, location.href).href;
    const copy = el("button", { type: "button", class: "button" }, "Copy");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Select and copy";
      }
    });
    box.append(
      el(
        "div",
        { class: "link-row" },
        el("a", { class: "button primary", href: seat.link }, `Play as ${shortName(seat.name)}`),
        el("code", {}, url),
        copy,
      ),
    );
  }
  box.append(el("div", { class: "link-row" }, el("a", { class: "button", href: game.watch }, "Watch only"), el("code", {}, new URL(game.watch, location.href).href)));
  heading.focus(); // the links appear below the form: the keyboard and a screen reader go to them
  try {
    localStorage.setItem(`dm-links-${game.id}`, JSON.stringify(people.map((s) => ({ name: s.name, link: s.link }))));
  } catch {
    // private mode: the links above are all there is
  }
}

async function wireGameForm() {
  const form = document.getElementById("game-form");
  const rows = document.getElementById("seat-rows");
  const message = document.getElementById("game-error");
  let bots = ["greedy", "random"];
  try {
    bots = (await getJSON("/api/bots")).bots;
  } catch {
    // keep the usual ones
  }
  DEFAULT_SEATS.forEach((seat, i) => rows.append(seatRow(i, seat, bots)));
  const start = async (body) => {
    message.textContent = "";
    const seed = form.elements.seed.value.trim();
    if (seed) body.seed = Number(seed);
    body.pace = Number(form.elements.pace.value);
    try {
      const game = await postJSON("/api/games", body);
      showLinks(game);
      loadGames();
      const people = game.seats.filter((s) => s.token);
      if (people.length === 1) location.href = people[0].link;
    } catch (error) {
      message.textContent = error.message;
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    start({ players: seatsFromForm(form), mode: "multi" });
  });
  document.getElementById("start-solo").addEventListener("click", () => {
    const first = form.elements.name0.value || "You";
    start({ players: [{ name: first, bot: null }], mode: "solo" });
  });
}

async function loadGames() {
  const box = document.getElementById("game-list");
  try {
    const { games } = await getJSON("/api/games");
    clear(box);
    if (!games.length) {
      box.append(el("p", { class: "hint" }, "No game is being played on this server."));
      return;
    }
    const rows = [...games].reverse().map((g) =>
      el(
        "tr",
        {},
        el("td", {}, el("a", { href: `/games/${g.id}` }, g.players.map(shortName).join(", "))),
        el("td", {}, g.over ? `over: ${g.winners.map(shortName).join(", ")}` : g.phase === "setup" ? "choosing heroes" : `round ${g.round}, ${g.phase}`),
      ),
    );
    box.append(el("table", { class: "games-table" }, el("thead", {}, el("tr", {}, el("th", {}, "Players"), el("th", {}, "Now"))), el("tbody", {}, rows)));
  } catch (error) {
    clear(box).append(el("p", { class: "form-error" }, error.message));
  }
}

function introDice() {
  const box = document.getElementById("intro-dice");
  const faces = [["tunnel", "5"], ["treasure", "gem3"], ["hazard", "dragon2"], ["tool", "pickaxe"], ["magic", "magic2"], ["tunnel", "beer"]];
  for (const [kind, face] of faces) box.append(dieSvg({ kind, face }, { size: 44, showId: false }));
}

introDice();
loadReplays();
wireUpload();
wireGameForm();
loadGames();
setInterval(loadGames, 5000);
