// The boards of a game held in the page, by position (the board after n events), as
// lichess holds a game's moves: once a game's boards are here, stepping and seeking draw
// without asking the server. They come packed (frontends/web/readmodel.py, pack_boards):
// each distinct part once, each board naming its parts; put back together here, the
// boards share their parts (nothing draws by changing a board, so sharing is safe).

/** The boards of a pack, whole again: [board, ...] for positions pack.from, pack.from + 1, ... */
export function unpack(pack) {
  const values = pack.values;
  return pack.boards.map((entry) => {
    const board = {};
    for (const [key, ref] of Object.entries(entry)) {
      if (key === "players") board.players = ref.map((i) => values[i]);
      else if (key === "table") board.table = Object.fromEntries(Object.entries(ref).map(([name, i]) => [name, values[i]]));
      else board[key] = values[ref];
    }
    return board;
  });
}

export class Boards {
  constructor() {
    this.at = []; // at[n]: the board after n events
  }

  /** Keep one board (from the server: a state, a command's answer, the stream). */
  set(board) {
    if (board && Number.isInteger(board.seq)) this.at[board.seq] = board;
  }

  /** Keep every board of a pack. */
  add(pack) {
    unpack(pack).forEach((board, i) => {
      this.at[pack.from + i] = board;
    });
  }

  /** The board after ``n`` events, if the page holds it. */
  get(n) {
    return this.at[n];
  }

  /** True if every board from 1 to ``last`` is here. */
  holds(last) {
    for (let n = 1; n <= last; n++) if (!this.at[n]) return false;
    return true;
  }

  /** The first position from 1 to ``last`` whose board is not here (null when all are). */
  firstMissing(last) {
    for (let n = 1; n <= last; n++) if (!this.at[n]) return n;
    return null;
  }
}
