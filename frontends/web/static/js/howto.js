// The "How to play" panel of the game page and the replay viewer: a <dialog> the
// server drew (the game in a few lines, from the same words as the terminal's help,
// and what the page's controls do). The top bar's button or the "?" key opens it;
// Esc, its Close button or a click beside it shuts it. While it is open the page's
// own keys rest, so an arrow key read in the panel does not step the replay.

const dialog = () => document.getElementById("howto");

/** True while the panel is open: the page's key handlers leave the keys alone. */
export function howToOpen() {
  const box = dialog();
  return Boolean(box && box.open);
}

/** Open the panel (as a modal dialog: focus moves into it, Esc closes it). */
export function openHowTo() {
  const box = dialog();
  if (box && !box.open) box.showModal();
}

/** Close the panel and give the focus back to the page. */
export function closeHowTo() {
  const box = dialog();
  if (box && box.open) box.close();
}

function typing(target) {
  const tag = target && target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || Boolean(target && target.isContentEditable);
}

/** Wire the button, the "?" key, Close and a click on the backdrop. Call once per page. */
export function wireHowTo() {
  const box = dialog();
  if (!box) return;
  const button = document.getElementById("howto-open");
  if (button) button.addEventListener("click", openHowTo);
  for (const close of box.querySelectorAll("[data-close]")) close.addEventListener("click", closeHowTo);
  // the card fills the dialog, so a click on the dialog itself is on the backdrop around it
  box.addEventListener("click", (event) => {
    if (event.target === box) closeHowTo();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "?" || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    if (howToOpen()) return;
    event.preventDefault();
    openHowTo();
  });
}
