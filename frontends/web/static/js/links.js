// A new game's links: each person's secret link (to play their seat) and the link to watch,
// with a copy button each; kept in this browser so the game page can offer them again.
// The home page shows them for a new game, the replay viewer for a what-if branch.

import { clear, el, shortName } from "./util.js";

/** Show ``game``'s links (the answer of POST /api/games, or of a branch) in ``box``. */
export function showSeatLinks(box, game) {
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
    box.append(el("div", { class: "link-row" }, el("a", { class: "button primary", href: seat.link }, `Play as ${shortName(seat.name)}`), el("code", {}, url), copy));
  }
  box.append(el("div", { class: "link-row" }, el("a", { class: "button", href: game.watch }, "Watch only"), el("code", {}, new URL(game.watch, location.href).href)));
  heading.focus(); // the links appear below the form: the keyboard and a screen reader go to them
  try {
    localStorage.setItem(`dm-links-${game.id}`, JSON.stringify(people.map((s) => ({ name: s.name, link: s.link }))));
  } catch {
    // private mode: the links above are all there is
  }
}
