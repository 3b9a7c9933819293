// The action panel drawn: the prompt, the buttons of a seat's choices (static/js/prompt.js
// says which), a menu or a question asked again, the answer to a typed "help", the heroes to
// choose from, and the seat's own trove small beside the prompt. What a button does is the
// page's (``on.act(act)``); nothing here talks to the server.

import { dieSvg, faceKind, faceWords } from "./dice.js";
import { renderHelp } from "./help.js";
import { actionButtons, panelShown, promptText, typedHint } from "./prompt.js";
import { clear, el } from "./util.js";

/**
 * Draw the panel for the moment ``m`` (prompt.js) of the seat ``m.mySeat`` (null: a watcher).
 * dom: the page's elements by id; on: {act(act), send(command), pick(text), closeHelp()}.
 */
export function drawAction(dom, m, on) {
  const playing = m.mySeat !== null;
  const shown = panelShown({ ...m, playing });
  dom.action.hidden = !shown.action;
  dom.typed.hidden = !shown.typed;
  dom.action.classList.toggle("picking", shown.picking);
  if (!playing) return;
  dom["typed-input"].placeholder = typedHint(m.board.mode, m.names, m.mySeat);
  dom.prompt.textContent = promptText(m);
  const box = clear(dom["action-buttons"]);
  for (const { label, act, cls, key } of actionButtons(m)) {
    // a button with a terminal key (static/js/keys.js) says so in its tooltip
    box.append(el("button", { type: "button", class: cls, onclick: () => on.act(act), disabled: m.busy, "aria-keyshortcuts": key, title: key ? `key: ${key}` : null }, label));
  }
  drawMenu(dom.menu, m.menu, on.send);
  drawHelp(dom, m, on);
  drawPeek(dom["trove-peek"], m.shown, m.mySeat);
}

/** An open menu (a beer's options, a question asked again): its title and one button an option. */
function drawMenu(box, menu, send) {
  clear(box);
  box.hidden = !menu;
  if (!menu) return;
  box.append(el("p", { class: "hint" }, menu.title));
  for (const option of menu.options) {
    const cls = menu.final ? "button danger" : "button";
    box.append(el("button", { type: "button", class: cls, onclick: () => send(option.command) }, option.label));
  }
}

/** The answer to a typed "help": the commands this seat may type now, and their syntax. */
function drawHelp(dom, m, on) {
  const box = dom.help;
  box.hidden = !m.helpOpen || m.board.phase === "over";
  if (box.hidden) return clear(box);
  const choices = m.myTurn ? m.choices : null;
  renderHelp(box, { choices, solo: m.board.mode === "solo", waiting: promptText(m), onPick: on.pick, onClose: on.closeHelp });
}

/** This seat's trove, small, beside the prompt: in view while a die is chosen (1280x800, a phone). */
function drawPeek(box, board, mySeat) {
  const trove = board.phase === "over" ? [] : board.players[mySeat].trove;
  box.hidden = !trove.length;
  const key = JSON.stringify(trove);
  if (box.hidden || box.dataset.key === key) return;
  box.dataset.key = key;
  clear(box).append(el("span", { class: "peek-label" }, "Your trove"));
  for (const die of trove) {
    const node = dieSvg(die, { size: 26, decorative: true });
    node.removeAttribute("data-die"); // a picture: the dice to use are the trove's own
    box.append(node);
  }
}

/** The heroes this seat may choose now (the server's options), one card each; a click sends its command. */
export function drawHeroes(box, heroes, send) {
  clear(box);
  box.hidden = !heroes;
  if (!heroes) return;
  for (const option of heroes) {
    const faces = el(
      "span",
      { class: "faces" },
      option.faces.map((face) => dieSvg({ kind: faceKind(face), face }, { size: 30, hero: true, decorative: true })),
    );
    const name = `${option.hero}, faces: ${option.faces.map(faceWords).join(", ")}`; // not "hero face: …" per face
    box.append(
      el(
        "button",
        { type: "button", class: "hero-card", dataset: { hero: option.hero }, onclick: () => send(option.command) },
        // named by its content, the faces' words unseen but inline (no aria-label: axe's
        // label-content-name-mismatch, the faces' numbers being its content too)
        el("strong", {}, option.hero, el("span", { class: "inline-hidden" }, name.slice(option.hero.length))),
        faces,
      ),
    );
  }
}
