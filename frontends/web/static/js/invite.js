// The links to invite the other players, for whoever started the game in this browser (the
// home page kept them in localStorage): each link moves for its own seat only.

import { el, shortName } from "./util.js";

/** The links the home page kept for ``gameId`` ([{name, link}]), or null. */
export function keptLinks(gameId, storage = localStorage) {
  try {
    return JSON.parse(storage.getItem(`dm-links-${gameId}`) || "null");
  } catch {
    return null;
  }
}

/** Show the links in ``box`` to a seat's page (``mySeat``) of a game with two seats or more. */
export function drawInvite(box, gameId, mySeat) {
  const links = keptLinks(gameId);
  if (!links || links.length < 2 || mySeat === null) return;
  box.hidden = false;
  box.append(el("h2", {}, "Invite the other players"), el("p", { class: "hint" }, "Each link moves for its own seat only."));
  for (const { name, link } of links) {
    box.append(el("div", { class: "link-row" }, el("strong", {}, shortName(name)), el("code", {}, new URL(link, location.href).href)));
  }
}
