// The your-turn signal: the tab's title says "Your turn", the favicon carries a mark, and,
// when the player turned the alert on (off by default), a short sound and a notification
// while the tab is hidden. The title's words are pure (tests/web/js/turn.test.mjs).

const PREFIX = "Your turn · ";
const ALERT_KEY = "dm-turn-alert";

/** The tab's title with or without the "Your turn" prefix. */
export function turnTitle(title, myTurn) {
  const bare = title.startsWith(PREFIX) ? title.slice(PREFIX.length) : title;
  return myTurn ? PREFIX + bare : bare;
}

/** The favicon with a gold mark in its corner (the page's own icon, drawn again). */
export const MARKED_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="4" y="4" width="56" height="56" rx="12" fill="#8a6240"/>' +
    '<path d="M14 24 Q32 6 50 24 L47 27 Q32 14 17 27 Z" fill="#e8eef2"/><rect x="29.5" y="18" width="5" height="36" rx="2" fill="#f2c84b"/>' +
    '<circle cx="50" cy="14" r="13" fill="#ffd23f" stroke="#1b1b1b" stroke-width="3"/></svg>',
)}`;

export class TurnSignal {
  /** ``toggle``: the button that turns the sound and notification on and off. */
  constructor(toggle) {
    this.icon = document.querySelector("link[rel=icon]");
    this.plainIcon = this.icon && this.icon.getAttribute("href");
    this.mine = false;
    this.toggle = toggle;
    this.alerting = localStorage.getItem(ALERT_KEY) === "on";
    if (toggle) {
      toggle.hidden = false;
      toggle.addEventListener("click", () => this.setAlerting(!this.alerting));
      this.drawToggle();
    }
  }

  /** Say whether it is this seat's turn now; a turn that just began alerts (when asked to). */
  set(myTurn) {
    document.title = turnTitle(document.title, myTurn);
    if (this.icon) this.icon.setAttribute("href", myTurn ? MARKED_ICON : this.plainIcon);
    document.body.dataset.myTurn = myTurn ? "yes" : "no";
    const began = myTurn && !this.mine;
    this.mine = myTurn;
    if (began && this.alerting && document.hidden) this.alert();
  }

  async setAlerting(on) {
    this.alerting = on;
    localStorage.setItem(ALERT_KEY, on ? "on" : "off");
    this.drawToggle();
    if (on && "Notification" in window && Notification.permission === "default") {
      try {
        await Notification.requestPermission();
      } catch {
        // the sound alone, then
      }
    }
  }

  drawToggle() {
    this.toggle.setAttribute("aria-pressed", String(this.alerting));
    this.toggle.textContent = this.alerting ? "Turn alert: on" : "Turn alert: off";
    this.toggle.title = "A sound and a notification when your turn begins while this tab is hidden";
  }

  alert() {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch {
      // no sound here
    }
    if ("Notification" in window && Notification.permission === "granted") {
      new Notification("Dice Miner: your turn", { body: document.title.slice(PREFIX.length), tag: "dm-turn" });
    }
  }
}
