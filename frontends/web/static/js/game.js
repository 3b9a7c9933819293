// A live game: anyone watches it (events stream in over Server-Sent Events and
// resume after a reconnect); whoever opened a seat's secret link (#seat=S&token=T)
// also plays that seat. What can be clicked comes from the server's choices; a
// click sends the command the server offered, with the position it was chosen at
// and an id of its own (sent again, never played twice), and a refusal shows the
// engine's own message, as the terminal does. The game so far can be stepped
// through (the history bar, ← →) without leaving it; a finished game opens in the
// replay viewer and its log can be downloaded.
//
// This module holds the page's state and wires its parts: what it shows is drawn by
// modules of one job each (the board, the action panel, the chart, the history bar, the
// dice note, the game's end; docs/develop.md lists them), from what the server sends.

import { ApiError, getJSON, postJSON } from "./api.js";
import { Boards } from "./boards.js";
import { addSprite } from "./dice.js";
import { EventList, struck } from "./events.js";
import { isHelp } from "./help.js";
import { howToOpen, wireHowTo } from "./howto.js";
import { ICONS, icon } from "./icons.js";
// the page's jobs, each in its own module: talking to the server, what a click means, the history keys
import { backoff, isTransient, moveId, retrying, sleep, waitOrEvent } from "./connection.js";
import { historyTarget, keyIsElsewhere } from "./history.js";
import { ACTION_KEYS, direction, isLetterMove, nearest } from "./keys.js";
import { clickPlan, selectable, spendCommand, toggled } from "./selection.js";
import { rememberSeat } from "./mygames.js";
import { TurnSignal } from "./turn.js";
// and its drawing, a module a part: game.js only wires them
import { drawAction, drawHeroes } from "./actionview.js";
import { drawBoard } from "./boardview.js";
import { drawScoreChart } from "./chartview.js";
import { drawDiceNote } from "./dicenote.js";
import { FocusKeeper } from "./focus.js";
import { withMarks } from "./lastmove.js";
import { drawGameOver } from "./gameover.js";
import { drawHistory } from "./historybar.js";
import { drawInvite } from "./invite.js";
import { BEER_MENU, STOP_QUESTION, STOP_YES, promptText } from "./prompt.js";
import { refusalFor } from "./refusal.js";
import { mergeSeries } from "./series.js";

const gameId = document.body.dataset.game;
const base = `/api/games/${encodeURIComponent(gameId)}`;
/** How many times a move is sent again when the network, not the server, failed it. */
const RETRIES = 3;

function seatFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const seat = Number.parseInt(params.get("seat"), 10);
  return token && Number.isInteger(seat) ? { seat, token } : { seat: null, token: null };
}

class GamePage {
  constructor() {
    const { seat, token } = seatFromHash();
    this.mySeat = seat;
    this.token = token;
    this.board = null; // the game now
    this.boards = new Boards(); // the boards seen or fetched, by position
    this.viewAt = null; // the position looked at in the game so far (null: now)
    this.records = []; // every event record, by seq
    this.choices = null;
    this.canUndo = false; // the server says an undo for this seat would be taken now
    this.source = null; // the magic source being spent
    this.picked = []; // dice picked for a spend or a cache
    this.menu = null;
    this.helpOpen = false; // "help" was typed: the commands are shown until closed or a move is sent
    this.busy = false;
    this.inflight = null; // the move being sent, until its answer is drawn
    this.dom = Object.fromEntries(
      [
        "mountain",
        "players",
        "status",
        "chart",
        "events",
        "action",
        "prompt",
        "action-buttons",
        "menu",
        "refusal",
        "help",
        "heroes",
        "typed",
        "typed-input",
        "invite",
        "live-dot",
        "dice",
        "after",
        "history",
        "timeline",
        "position",
        "now",
        "trove-peek",
      ].map((id) => [id, document.getElementById(id)]),
    );
    this.focus = new FocusKeeper(this.dom);
  }

  async start() {
    addSprite();
    const game = await getJSON(base);
    this.names = game.players;
    this.seats = game.seats;
    this.scores = game.scores; // each seat's score so far, through the game (the server's)
    this.dice = game.dice;
    this.nowSeq = game.seq; // the position the scores and the dice are of
    if (this.dice && this.dice.kind === "branch") this.findParent();
    const events = withMarks(game.events, game.marks);
    for (const record of events) this.records[record.seq] = record;
    this.events = new EventList(this.dom.events, this.names, (position) => this.goTo(position));
    this.events.set(events);
    // from now on each new event is said by a screen reader; the history already there is not
    this.dom.events.setAttribute("aria-live", "polite");
    this.dom.events.setAttribute("aria-relevant", "additions");
    if (this.mySeat !== null && !(this.mySeat in this.seats && this.seats[this.mySeat].bot === null)) {
      this.mySeat = null; // not a person's seat: watch only
    }
    if (this.mySeat !== null) this.canUndo = Boolean(this.seats[this.mySeat].can_undo);
    if (this.mySeat !== null) rememberSeat(gameId, this.mySeat); // the home page's list marks it
    this.turn = new TurnSignal(this.mySeat !== null ? document.getElementById("turn-alert") : null);
    drawInvite(this.dom.invite, gameId, this.mySeat);
    this.wireInput();
    this.wireKeys(); // before the history's keys: on a die, the arrows are the dice's
    this.wireHistory();
    await this.setBoard(game.state, true);
    this.listen(game.seq);
  }

  // -- the stream ----------------------------------------------------------

  listen(from) {
    const stream = new EventSource(`${base}/stream?from=${from}`);
    this.stream = stream;
    stream.addEventListener("open", () => this.liveDot("on"));
    stream.addEventListener("error", () => this.liveDot(stream.readyState === EventSource.CLOSED ? "" : "off"));
    stream.addEventListener("step", (message) => {
      const { event, marks, ...now } = JSON.parse(message.data);
      this.noteEvent({ ...event, marks });
      if (now.state) this.setBoard(this.noteNow(now));
    });
    stream.addEventListener("end", () => {
      stream.close();
      this.liveDot("");
    });
  }

  liveDot(mode) {
    const dot = this.dom["live-dot"];
    dot.classList.toggle("on", mode === "on");
    dot.classList.toggle("off", mode === "off");
    dot.textContent = mode === "off" ? "reconnecting" : mode === "on" ? "live" : "finished";
  }

  noteEvent(event) {
    if (this.records[event.seq]) return; // already here (a command's answer, a resumed stream)
    this.records[event.seq] = event;
    this.events.append([event]);
    if (event.type === "CommandUndone") for (const seq of struck(event)) if (this.records[seq]) this.records[seq].undone = true;
  }

  /**
   * The game after a burst of the stream or a command's answer, as the server sends it: the
   * chart's points of its events (put in the series held, static/js/series.js) and where the
   * dice come from (a secret seed, once revealed), unless the page holds a later one. Returns
   * the board.
   */
  noteNow({ state, scores, dice }) {
    const newer = state.seq >= this.nowSeq;
    this.scores = mergeSeries(this.scores, scores, newer);
    if (newer) {
      this.nowSeq = state.seq;
      this.dice = { ...this.dice, ...dice }; // the parent's name and link (findParent) kept
    }
    return state;
  }

  // -- state and choices -----------------------------------------------------

  /** Draw ``board`` (the game now); ``offered``: the choices a command's answer brought for it. */
  async setBoard(board, force = false, offered = null) {
    if (this.board && board.seq < this.board.seq) return;
    const changed = force || !this.board || board.seq !== this.board.seq;
    this.board = board;
    this.boards.set(board);
    if (changed) {
      this.source = null;
      this.picked = [];
      this.menu = null;
      this.choices = null;
      // a refusal said of an earlier position is stale once the game has moved on from it
      if (this.refusal && board.seq > this.refusalSeq && !this.inflight) this.say(null);
    }
    // a player asks what they may do now (and whether an undo would be taken) at each change,
    // unless the answer to their move brought it
    if (this.mySeat !== null && changed) {
      if (offered && offered.seq === board.seq) this.takeChoices(offered);
      else await this.loadChoices(board.seq);
    }
    if (board.seq === this.board.seq) this.render();
  }

  /**
   * This seat's choices at position ``seq``, asked again with growing waits (and at once
   * when the browser is back online) while the network or the server fails, until they
   * come or the game moves on: a turn never stops for one failed request.
   */
  async loadChoices(seq) {
    const stale = () => !this.board || this.board.seq !== seq;
    let failed = false;
    try {
      const choices = await retrying(() => getJSON(`${base}/choices`), {
        shouldRetry: (error) => !stale() && isTransient(error, ApiError),
        onRetry: (error, _attempt, ms) => {
          if (!failed) this.render(); // the board meanwhile, with nothing to click yet
          failed = true;
          this.say(`Your choices could not be loaded (${error.message}): asking again in ${Math.round(ms / 1000) || 1} s…`, "choices-retrying");
        },
        wait: waitOrEvent(window, "online"),
      });
      if (failed && this.refusal && this.dom.refusal.dataset.code === "choices-retrying") this.say(null);
      if (stale() || choices.seq !== seq) return;
      this.takeChoices(choices);
    } catch (error) {
      if (!stale()) this.say(`Your choices could not be loaded: ${error.message}`, error.code || "choices-failed");
    }
  }

  /** The server's choices at the board now: this seat's, when it is its turn, and its undo. */
  takeChoices(choices) {
    this.canUndo = Boolean(choices.can_undo && choices.can_undo[this.mySeat]);
    this.undo = choices.undo && choices.undo[this.mySeat]; // this seat's undo, as the server offers it
    if (choices.seat === this.mySeat && choices.turn) this.choices = choices;
  }

  isMyTurn() {
    return this.mySeat !== null && this.viewAt === null && this.board && this.board.table.to_act_seat === this.mySeat;
  }

  /** The board on the screen: the game now, or the position looked at in the game so far. */
  shown() {
    return (this.viewAt !== null && this.boards.get(this.viewAt)) || this.board;
  }

  // -- the game so far -----------------------------------------------------

  wireHistory() {
    for (const button of this.dom.history.querySelectorAll("[data-step]")) {
      button.append(icon(ICONS[button.dataset.step]));
      button.addEventListener("click", () => this.goTo(this.shown().seq + (button.dataset.step === "next" ? 1 : -1)));
    }
    this.dom.timeline.addEventListener("input", () => this.goTo(Number(this.dom.timeline.value)));
    this.dom.now.addEventListener("click", () => this.goTo(null));
    document.addEventListener("keydown", (event) => {
      if (event.defaultPrevented || keyIsElsewhere(event) || howToOpen() || !this.board) return;
      const to = historyTarget(event.key, this.shown().seq);
      if (to === undefined) return;
      event.preventDefault();
      this.goTo(to);
    });
  }

  /**
   * Look at the board after ``n`` events (null or the last position: the game now). The
   * boards not seen yet come in one packed answer from the first missing one on.
   */
  async goTo(n) {
    if (!this.board) return;
    const now = this.board.seq;
    n = n === null ? now : Math.max(1, Math.min(now, Math.round(n) || 1));
    this.viewAt = n === now ? null : n;
    this.target = n;
    if (this.viewAt !== null && !this.boards.get(n)) {
      try {
        this.boards.add(await getJSON(`${base}/boards?from=${this.boards.firstMissing(now) || n}`));
      } catch (error) {
        this.viewAt = null;
        this.refuse(error);
      }
      if (this.target !== n) return; // a later step overtook this one
    }
    this.source = null;
    this.picked = [];
    this.menu = null;
    this.render();
  }

  // -- drawing -------------------------------------------------------------

  render() {
    const board = this.shown();
    const focus = this.focus.remember();
    const view = { records: this.records, sel: this.selection(), picked: this.picked, source: this.source, mySeat: this.mySeat };
    drawBoard(this.dom, board, view, { die: (id, where) => this.clickDie(id, where), heroFace: (index) => this.clickHeroFace(index) });
    // the tab's title and icon say when it is this seat's turn (static/js/turn.js)
    this.turn.set(this.mySeat !== null && this.board.phase !== "over" && this.board.table.to_act_seat === this.mySeat);
    const status = this.board.table.status; // the game now, wherever one looks
    if (this.dom.status.textContent !== status) this.dom.status.textContent = status; // a live region: said when it changes
    drawScoreChart(this.dom.chart, board, { series: this.scores, names: this.names, now: this.board.seq, onSeek: (p) => this.goTo(p) });
    this.events.show(board.seq);
    drawHistory(this.dom, board.seq, this.board.seq, this.viewAt !== null);
    drawDiceNote(this.dom.dice, this.dice, gameId);
    drawGameOver(this.dom.after, this.board, { gameId, base, seqNow: () => this.board.seq });
    drawAction(this.dom, this.moment(), {
      act: (act) => this.act(act),
      send: (command) => this.send(command),
      pick: (text) => {
        this.dom["typed-input"].value = text;
        this.dom["typed-input"].focus();
      },
      closeHelp: () => {
        this.helpOpen = false;
        this.render();
      },
    });
    drawHeroes(this.dom.heroes, this.isMyTurn() && this.choices && this.choices.heroes, (command) => this.send(command));
    this.focus.restore(focus);
    document.body.dataset.renderedSeq = String(board.seq);
    document.body.dataset.liveSeq = String(this.board.seq);
    document.dispatchEvent(new CustomEvent("dm:rendered", { detail: { seq: board.seq } }));
  }

  /** This moment of the page, as the action panel's words and buttons take it (static/js/prompt.js). */
  moment() {
    return {
      board: this.board,
      shown: this.shown(),
      choices: this.choices,
      viewAt: this.viewAt,
      myTurn: this.isMyTurn(),
      mySeat: this.mySeat,
      names: this.names,
      source: this.source,
      picked: this.picked,
      records: this.records,
      canUndo: this.canUndo,
      undo: this.undo,
      busy: this.busy,
      menu: this.menu,
      helpOpen: this.helpOpen,
      refused: Boolean(this.refusal),
    };
  }

  /** What a button of the action panel does (static/js/prompt.js, ``actionButtons``). */
  act(act) {
    if (act.send) return this.send(act.send);
    if (act.menu) return this.openMenu(act.menu.title, act.menu.options);
    if (act.confirm) return this.confirm(act.confirm.question, act.confirm.command, act.confirm.yes);
    if (act.do === "reset") return this.reset();
    if (act.do === "now") return this.goTo(null);
  }

  /** A what-if branch: the game it was branched from (its name and link, if the server has it). */
  async findParent() {
    try {
      const parent = await getJSON(`${base}/parent`);
      this.dice = { ...this.dice, parent_name: parent.name, parent_link: parent.link };
      if (this.board) drawDiceNote(this.dom.dice, this.dice, gameId);
    } catch {
      // named by its log's SHA-256 only
    }
  }

  /** What may be clicked now, from the server's choices and the selection so far. */
  selection() {
    const choices = this.viewAt === null ? this.choices : null;
    return selectable(choices, { source: this.source, picked: this.picked, seat: this.mySeat });
  }

  // -- clicks --------------------------------------------------------------

  clickDie(id, where) {
    const plan = clickPlan(this.isMyTurn() ? this.choices : null, { source: this.source }, id, where);
    if (!plan) return;
    if (plan.do === "prompt") return this.mySeat !== null && this.say(promptText(this.moment()));
    if (plan.do === "send") return this.send(plan.command);
    if (plan.do === "menu") return this.openMenu(plan.title, plan.options);
    if (plan.do === "source") return this.pickSource(plan.source);
    if (plan.do === "target") return this.pickTarget(id);
    if (plan.do === "toggle") return this.togglePick(id);
  }

  clickHeroFace(index) {
    const c = this.isMyTurn() ? this.choices : null;
    if (!c || !c.spend || this.source) return;
    const source = c.spend.find((s) => s.hero_face === index);
    if (source) this.pickSource(source);
    else this.send({ t: "spend", hero_face: index, targets: [] }); // the engine says why not
  }

  pickSource(source) {
    this.menu = null;
    // nothing to choose (rule D6): the server gives the whole spend
    if (source.forced) return this.send(source.forced.command);
    this.source = source;
    this.picked = [];
    this.render();
  }

  pickTarget(id) {
    this.picked = toggled(this.picked, id);
    if (this.picked.length >= this.source.needed) return this.send(spendCommand(this.source, this.picked));
    this.render();
  }

  togglePick(id) {
    this.picked = toggled(this.picked, id);
    this.render();
  }

  /** A final action, asked again before it is sent (the menu with one option and Cancel). */
  confirm(question, command, yes) {
    this.menu = { title: question, options: [{ label: yes, command }], final: true };
    this.focus.menuNext = true;
    this.render();
  }

  openMenu(title, options) {
    this.menu = { title, options };
    this.focus.menuNext = true; // the keyboard goes to its first option
    this.render();
  }

  reset() {
    this.helpOpen = false;
    this.source = null;
    this.picked = [];
    this.menu = null;
    this.render();
  }

  // -- talking to the server -----------------------------------------------

  /**
   * Send one intended move: with the position it was chosen at (``seq``: a game that has
   * moved on refuses it, 409) and an id of its own (``id``), the same id each time the
   * network fails it, so a move sent twice is played once.
   */
  /** Resolves once no move is in flight: a typed line waits its turn (a click does not). */
  async settled() {
    while (this.inflight) await this.inflight;
  }

  async send(command, text = null) {
    if (this.busy) return; // a second click while a move is in flight is not a second move
    this.busy = true;
    let finished;
    const mine = new Promise((resolve) => {
      finished = resolve;
    });
    this.inflight = mine;
    try {
      return await this.sendNow(command, text);
    } finally {
      if (this.inflight === mine) this.inflight = null;
      finished();
    }
  }

  async sendNow(command, text) {
    this.helpOpen = false;
    this.say(null);
    const body = { ...(text !== null ? { text } : { command }), seq: this.board.seq, id: moveId() };
    try {
      const answer = await this.post(body);
      for (const record of withMarks(answer.events, answer.marks)) this.noteEvent(record);
      this.busy = false;
      // the stream ends with the game: an undo after the end (solo) reopens it
      if (this.stream.readyState === EventSource.CLOSED && answer.state.phase !== "over") this.listen(answer.state.seq);
      await this.setBoard(this.noteNow(answer), true, answer.choices);
      return true;
    } catch (error) {
      this.busy = false;
      this.source = null;
      this.picked = [];
      this.refuse(error);
      if (error instanceof ApiError && error.status === 409) await this.catchUp();
      this.render();
      return false;
    }
  }

  /** POST a move, sending it again (the same id) when the network failed it, not the server. */
  post(body) {
    return retrying(() => postJSON(`${base}/commands`, body, { "X-Seat-Token": this.token }), {
      shouldRetry: (error, attempt) => !(error instanceof ApiError) && attempt < RETRIES,
      onRetry: (error) => this.say(`The connection failed (${error.message}): sending your move again…`, "retrying"),
      delay: (attempt) => backoff(attempt, { base: 400 }),
      wait: sleep,
    });
  }

  /** The board as the server has it now, after a move was refused as stale. */
  async catchUp() {
    try {
      await this.setBoard(await getJSON(`${base}/state`), true);
    } catch {
      // the stream brings it all the same
    }
  }

  refuse(error) {
    const { message, code } = refusalFor(error);
    this.say(message, code);
  }

  /** Show a refusal in the engine's words; its stable code is kept for scripts (data-code), not
   * shown: "die_covered" after the sentence told a player nothing. */
  say(message, code = null) {
    const box = this.dom.refusal;
    this.refusal = message;
    this.refusalSeq = this.board ? this.board.seq : 0; // the position it was said at
    box.hidden = !message;
    box.textContent = message || "";
    box.dataset.code = (message && code) || "";
  }

  /**
   * Keyboard play (static/js/keys.js): on a die, the arrows (and h j k l anywhere) move among
   * the dice that can be used now; b e u m r s : are the terminal's keys. Registered before
   * the history's keys, which take the arrows when no die has the focus.
   */
  wireKeys() {
    document.addEventListener("keydown", (event) => {
      if (event.defaultPrevented || keyIsElsewhere(event) || howToOpen() || !this.board || this.mySeat === null) return;
      const way = direction(event.key);
      const onDie = event.target && event.target.closest && event.target.closest("[role=button][data-die], [role=button][data-hero-face]");
      if (way && (onDie || isLetterMove(event.key))) {
        event.preventDefault();
        this.moveAmongDice(onDie, way);
        return;
      }
      const action = ACTION_KEYS[event.key];
      if (action && this.actionKey(action)) event.preventDefault();
    });
  }

  /** The dice and hero faces that can be used now, in the page's order. */
  usableDice() {
    return [...document.querySelectorAll("#mountain [role=button][data-die], #players [role=button][data-die], #players [role=button][data-hero-face]")];
  }

  moveAmongDice(from, way) {
    const dice = this.usableDice();
    if (!dice.length) return;
    if (!from) return dice[0].focus();
    const centre = (node) => {
      const box = node.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    };
    const next = nearest(centre(from), dice.map(centre), way);
    if (next >= 0) dice[next].focus();
  }

  /** One of the terminal's action keys; false when it does nothing now. */
  actionKey(action) {
    const c = this.isMyTurn() ? this.choices : null;
    if (action === "type") {
      if (this.dom.typed.hidden) return false;
      this.dom["typed-input"].focus();
      return true;
    }
    if (action === "undo") {
      if (!this.canUndo || !this.undo || this.viewAt !== null) return false;
      this.send(this.undo.command);
      return true;
    }
    if (!c || this.source) return false;
    if (action === "beer" && c.beer && c.beer.length) this.openMenu(BEER_MENU, c.beer);
    else if (action === "end" && c.end) this.send(c.end.command);
    else if (action === "refill" && c.refill) this.send(c.refill.command);
    else if (action === "stop" && c.stop) this.confirm(STOP_QUESTION, c.stop.command, STOP_YES);
    else if (action === "magic" && c.spend && c.spend.length) {
      const first = document.querySelector("#players [role=button][data-die], #players [role=button][data-hero-face]");
      if (!first) return false;
      first.focus();
    } else return false;
    return true;
  }

  wireInput() {
    this.dom.typed.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = this.dom["typed-input"];
      const text = input.value.trim();
      if (text && isHelp(text)) {
        // answered here from the choices the page has: nothing is sent, nothing is refused
        input.value = "";
        this.helpOpen = true;
        this.say(null);
        this.render();
        return;
      }
      if (!text) return;
      await this.settled(); // a line typed while the last move is in flight goes after it
      // cleared once sent, unless the player has typed the next line meanwhile
      if ((await this.send(null, text)) && input.value.trim() === text) input.value = "";
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !howToOpen()) this.reset(); // Esc in the panel only shuts it
    });
  }
}

wireHowTo(); // before the game loads: the rules can be read even if it fails to
const page = new GamePage();
window.dmGame = page;
page.start().catch((error) => {
  const status = document.getElementById("status");
  status.textContent = `Could not load the game: ${error.message}`;
  status.classList.add("error");
});
