// The history bar of the game page: the slider over the game so far, where it stands in
// words ("event 12 of 40", "event 40, now") and the Now button, enabled while looking back.

/** Where the bar stands, by seq as the event list numbers events: the one shown and the last. */
export function historyLabel(shownSeq, now, past) {
  return past ? `event ${shownSeq - 1} of ${now - 1}` : `event ${now - 1}, now`;
}

/** Draw the bar for the board after ``shownSeq`` events of ``now`` (``past``: looking back). */
export function drawHistory(dom, shownSeq, now, past) {
  const slider = dom.timeline;
  slider.max = String(Math.max(now, 1));
  slider.value = String(shownSeq);
  dom.position.textContent = historyLabel(shownSeq, now, past);
  slider.setAttribute("aria-valuetext", dom.position.textContent);
  dom.now.disabled = !past;
  dom.history.classList.toggle("past", past);
  document.body.classList.toggle("looking-back", past);
}
