// The keyboard's place kept across a redraw of the game page: the same die, hero face or
// button again; when it is gone (a die taken, a hero chosen), a menu just opened, a die to
// use, else the prompt: the keyboard is never dropped back to the top of the page.

export class FocusKeeper {
  /** dom: the page's elements by id (mountain, players, action, prompt, menu). */
  constructor(dom) {
    this.dom = dom;
    this.menuNext = false; // a menu was opened: its first option takes the focus
    this.parked = false; // the keyboard waits on the prompt for a die to use
  }

  /** The die, hero face or button that has the focus now, so a redraw can give it back. */
  remember() {
    const node = document.activeElement;
    const box = node && node.tagName === "BUTTON" ? node.closest("#action, #heroes") : null;
    if (box) return { region: box, label: node.textContent };
    if (!node || !node.dataset || node.getAttribute("role") !== "button") return null;
    const region = node.closest("#mountain") ? this.dom.mountain : node.closest("#players") ? this.dom.players : null;
    if (!region) return null;
    const attr = node.dataset.heroFace !== undefined ? "data-hero-face" : "data-die";
    return { region, selector: `[${attr}="${node.getAttribute(attr)}"][tabindex]` };
  }

  /** After a redraw: the focus ``remember()`` found before it, or the next best place. */
  restore(focus) {
    const dom = this.dom;
    const menu = this.menuNext && !dom.menu.hidden && dom.menu.querySelector("button");
    this.menuNext = false;
    if (menu) return menu.focus();
    const die = () => dom.mountain.querySelector("[role=button][tabindex]") || dom.players.querySelector("[role=button][tabindex]");
    // the keyboard waited on the prompt (nothing to use yet, the bots moving): a die to use now
    if (this.parked && document.activeElement === dom.prompt) {
      const next = die();
      if (next) {
        this.parked = false;
        return next.focus();
      }
      return;
    }
    this.parked = false;
    if (!focus || (document.activeElement && document.activeElement !== document.body)) return;
    const same = focus.selector
      ? focus.region.querySelector(focus.selector) || focus.region.querySelector("[role=button][tabindex]")
      : [...focus.region.querySelectorAll("button")].find((b) => b.textContent === focus.label);
    const again = same || die();
    if (again) return again.focus();
    if (dom.action.hidden) return;
    dom.prompt.focus();
    this.parked = true;
  }
}
