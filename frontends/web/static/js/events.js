// The event list in words: one line per event, the current one highlighted and
// kept in view, undone ones struck through; clicking a line jumps to it (and on the
// focused list, ↑ and ↓ step from line to line).

import { PLAYER_COLOURS, clear, el } from "./util.js";

/** The words a screen reader says after an undone event (the line is struck through). */
/**
 * The events an undo record strikes, as the server lists them (``undoes``, on a live game's
 * records); a stored log's records come with each event's ``undone`` already set.
 */
export function struck(record) {
  return record.undoes ?? [];
}

const UNDONE = () => el("span", { class: "visually-hidden" }, " (undone)");

const ROUND_TYPES = new Set(["RoundScored", "TieBreakScored", "GameEnded", "SoloGameEnded", "RoundBegan"]);

export class EventList {
  /** root: an <ol>; names: player names; onPick(position) when a line is clicked. */
  constructor(root, names, onPick) {
    this.root = root;
    this.names = names;
    this.onPick = onPick;
    this.items = [];
    this.current = null;
    // the list scrolls: the keyboard reaches it (Tab) and steps its lines (↑ ↓), as a click does
    root.tabIndex = 0;
    if (onPick) root.addEventListener("keydown", (event) => this.key(event));
  }

  /** ↑ and ↓ on the focused list: the line before or after the current one. */
  key(event) {
    const step = { ArrowUp: -1, ArrowDown: 1 }[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || !this.current) return;
    event.preventDefault();
    this.onPick(Number(this.current.dataset.seq) + 1 + step);
  }

  /** Replace the whole list. */
  set(records) {
    clear(this.root);
    this.items = [];
    this.current = null;
    this.append(records);
  }

  /** Add events at the end (a live game). */
  append(records) {
    const fragment = document.createDocumentFragment();
    for (const record of records) {
      if (this.items[record.seq]) continue; // already shown (a resumed stream)
      const item = this.line(record);
      this.items[record.seq] = item;
      fragment.append(item);
    }
    this.root.append(fragment);
    for (const record of records) {
      if (record.type === "CommandUndone") this.markUndone(struck(record));
    }
  }

  line(record) {
    const seat = this.names.indexOf(record.player);
    const classes = ["event"];
    if (ROUND_TYPES.has(record.type)) classes.push("milestone");
    if (record.type === "CommandUndone") classes.push("undo");
    if (record.undone) classes.push("undone");
    const dot = el("span", { class: "who" });
    if (seat >= 0) dot.style.background = PLAYER_COLOURS[seat % PLAYER_COLOURS.length];
    const item = el(
      "li",
      { class: classes.join(" "), dataset: { seq: String(record.seq) }, title: record.command ? `command: ${record.command}` : undefined },
      el("span", { class: "seq" }, String(record.seq)),
      dot,
      el("span", { class: "text" }, record.text),
      record.undone ? UNDONE() : null,
    );
    if (this.onPick) item.addEventListener("click", () => this.onPick(record.seq + 1));
    return item;
  }

  /** The events an undo struck (the server's list) are no longer standing. */
  markUndone(seqs) {
    for (const seq of seqs) {
      const item = this.items[seq];
      if (item && !item.classList.contains("undo") && !item.classList.contains("undone")) {
        item.classList.add("undone");
        item.append(UNDONE()); // struck through on screen, said in words to a screen reader
      }
    }
  }

  /**
   * Mark the events the analysis marks (Map<seq, "inaccuracy" | "mistake" | "blunder">):
   * the line of a move that lost win chance gets its symbol (?!, ?, ??) and says it in words.
   */
  mark(marks) {
    for (const item of this.root.querySelectorAll(".event[data-mark]")) {
      item.classList.remove(`mark-${item.dataset.mark}`);
      item.querySelector(".mark-badge").remove();
      delete item.dataset.mark;
    }
    for (const [seq, mark] of marks) {
      const item = this.items[seq];
      if (!item) continue;
      item.dataset.mark = mark;
      item.classList.add(`mark-${mark}`);
      const symbol = { inaccuracy: "?!", mistake: "?", blunder: "??" }[mark];
      item.querySelector(".text").after(el("span", { class: "mark-badge", title: `a ${mark}` }, symbol, el("span", { class: "visually-hidden" }, ` (a ${mark})`)));
    }
  }

  /** Highlight the event at ``position`` (the state after it is shown) and keep it in view. */
  show(position, { scroll = true } = {}) {
    const item = this.items[position - 1];
    if (this.current === item) return;
    if (this.current) {
      this.current.classList.remove("current");
      this.current.removeAttribute("aria-current");
    }
    this.current = item || null;
    if (!item) return;
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
    if (scroll) this.scrollLater(item);
  }

  /**
   * Keep ``item`` in view, in the next frame: reading where it lies lays the page out, and
   * done in the middle of drawing a board it would lay it out twice (a step's cost doubled).
   */
  scrollLater(item) {
    this.scrollTarget = item;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      const target = this.scrollTarget;
      const box = this.root;
      if (!target || !target.isConnected) return;
      const top = target.offsetTop; // the list is positioned: offsets are within it
      if (top < box.scrollTop || top + target.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      }
    });
  }
}
