// A move that was not played, in words: the engine's own message, or why the request failed
// (the seat's link, a game that moved on, the network). Pure: the page shows what it says.

import { ApiError } from "./api.js";

/** {message, code} for a failed move or request (``code``: kept for scripts, never shown). */
export function refusalFor(error) {
  if (error instanceof ApiError && error.status === 403) {
    return { message: "This link cannot move for this seat: ask for the seat's own link.", code: "forbidden" };
  }
  if (error instanceof ApiError && error.status === 409) {
    const at = Number.isInteger(error.detail.seq) ? ` (now at event ${error.detail.seq - 1})` : "";
    return { message: `The game moved on before your move arrived${at}, so it was not played: the board is up to date again, choose again.`, code: error.code };
  }
  if (!(error instanceof ApiError)) {
    return { message: `Your move could not reach the server (${error.message}); nothing was played. Try again.`, code: "offline" };
  }
  return { message: error.message, code: error.code };
}
