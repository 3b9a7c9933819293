// The games this browser plays a seat of (remembered when a seat's link is opened), so the
// home page's list says whose turn it is and marks "your turn". The words are pure
// (tests/web/js/mygames.test.mjs); the memory is the browser's localStorage.

const KEY = "dm-my-seats";

/** {gameId: seat} of the seats this browser has played. */
export function mySeats(storage = globalThis.localStorage) {
  try {
    return JSON.parse((storage && storage.getItem(KEY)) || "{}") || {};
  } catch {
    return {};
  }
}

/** Remember that this browser plays ``seat`` of game ``gameId``. */
export function rememberSeat(gameId, seat, storage = globalThis.localStorage) {
  const seats = mySeats(storage);
  if (seats[gameId] === seat) return;
  seats[gameId] = seat;
  storage.setItem(KEY, JSON.stringify(seats));
}

/**
 * Whose turn a listed game is (``game``: the server's summary, with ``to_act`` a seat and
 * ``names`` the players' short names), from the view of ``mySeat`` (null: not one of mine).
 */
export function turnWords(game, names, mySeat = null) {
  if (game.over || game.to_act === null || game.to_act === undefined) return null;
  if (mySeat !== null && mySeat !== undefined && game.to_act === mySeat) return "your turn";
  return `${names[game.to_act]} to act`;
}
