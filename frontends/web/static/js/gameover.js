// A finished live game: open it in the replay viewer, download its log, or have it analysed
// (the standings and the rematch are static/js/seatend.js's).

import { postJSON } from "./api.js";
import { el } from "./util.js";

/** The log's name a finished game is downloaded and replayed under. */
export function logName(gameId) {
  return `web-${gameId}.dmlog`;
}

/**
 * Show the box once the game is over (drawn once; ``base``: the game's API address;
 * ``seqNow()``: the game's position when the analysis is asked for, a reveal may follow the end).
 */
export function drawGameOver(box, board, { gameId, base, seqNow }) {
  const over = board.phase === "over";
  box.hidden = !over;
  if (!over || box.childElementCount) return;
  const name = logName(gameId);
  box.append(
    el("h2", {}, "The game is over"),
    el(
      "div",
      { class: "link-row" },
      el("a", { class: "button primary", href: `/replay/${encodeURIComponent(name)}?at=${board.seq}`, id: "open-replay" }, "Open in the replay viewer"),
      el("a", { class: "button", href: `${base}/log`, download: name, id: "download-log" }, `Download the log (${name})`),
      el("button", { type: "button", class: "button", id: "analyse-game", onclick: () => analyse(box, name, seqNow()) }, "Analyse this game"),
    ),
  );
}

/** Start the finished game's analysis on the server, then watch it in the replay viewer. */
async function analyse(box, name, seq) {
  const replay = `/api/replays/${encodeURIComponent(name)}`;
  try {
    await postJSON(`${replay}/analysis`, {});
    location.href = `/replay/${encodeURIComponent(name)}?at=${seq}&analysis=1`;
  } catch (error) {
    box.append(el("p", { class: "form-error", role: "alert" }, `The analysis could not be started: ${error.message}`));
  }
}
