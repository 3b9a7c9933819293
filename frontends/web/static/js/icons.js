// The controls' icons (play, pause, first, previous, next, last), drawn as SVG paths.

export const ICONS = {
  first: "M6 5h2v14H6zM20 5v14L9 12z",
  prev: "M18 5v14L7 12zM5 5h2v14H5z",
  play: "M7 4v16l13-8z",
  pause: "M6 4h4v16H6zM14 4h4v16h-4z",
  next: "M6 5v14l11-7zM17 5h2v14h-2z",
  last: "M4 5v14l11-7zM16 5h2v14h-2z",
};

/** An icon as an <svg> (hidden from screen readers: its button says what it does). */
export function icon(path) {
  const ns = "http://www.w3.org/2000/svg";
  const root = document.createElementNS(ns, "svg");
  root.setAttribute("viewBox", "0 0 24 24");
  root.setAttribute("aria-hidden", "true");
  const p = document.createElementNS(ns, "path");
  p.setAttribute("d", path);
  root.append(p);
  return root;
}
