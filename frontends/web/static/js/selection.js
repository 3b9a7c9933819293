// What a click means on the game page, from the server's choices and what is picked so far.
// Nothing here decides a rule: every command comes from the choices as the server offered
// it (a spend's or a cache's dice are the picks put into the offered shape). Pure: no DOM,
// importable by node (tests/web/js/selection.test.mjs).

/** Nothing can be clicked. */
function nothing() {
  return { mountain: new Set(), trove: new Set(), hero: new Set() };
}

/** Solo: the server's recycle orders holding every die picked so far. */
export function recycleOrders(source, picked) {
  return source.orders.filter((order) => picked.every((die) => order.includes(die)));
}

/**
 * The dice and hero faces that glow: ``{mountain, trove, hero}`` sets (hero faces as
 * "seat:index"). ``choices`` null (not this seat's turn, or looking back): nothing.
 */
export function selectable(choices, { source = null, picked = [], seat = null } = {}) {
  const out = nothing();
  const c = choices;
  if (!c || !c.turn) return out;
  if (c.take && !source) {
    out.mountain = new Set(Object.keys(c.take).map(Number));
    for (const option of c.beer || []) out.trove.add(option.command.die);
  }
  if (c.spend) {
    if (source) {
      const target = c.phase === "solo" ? out.mountain : out.trove;
      for (const die of source.orders ? recycleOrders(source, picked).flat() : source.eligible) target.add(die);
    } else {
      for (const s of c.spend) {
        if (s.die !== null) out.trove.add(s.die);
        else out.hero.add(`${seat}:${s.hero_face}`);
      }
    }
  }
  if (c.cache) for (const die of c.cache.dice) out.trove.add(die);
  return out;
}

/** The server's spend of ``source`` with the dice picked as its targets (solo: in an order the engine takes). */
export function spendCommand(source, picked) {
  const order = source.orders && recycleOrders(source, picked).find((o) => o.length === picked.length);
  return { ...source.command, targets: order || [...picked] };
}

/** The server's cache command with the dice picked, sorted as the typed command lists them. */
export function cacheCommand(cache, picked) {
  return { ...cache.command, dice: [...picked].sort((a, b) => a - b) };
}

/** ``picked`` with ``id`` added, or taken out if it was there. */
export function toggled(picked, id) {
  return picked.includes(id) ? picked.filter((d) => d !== id) : [...picked, id];
}

/**
 * What a click on die ``id`` does (``where``: "mountain", "trove" or "other"), as a plan:
 * ``{do: "send", command}``, ``{do: "menu", title, options}``, ``{do: "source", source}``
 * (a magic face to spend), ``{do: "target", id}`` (a die to reroll or recycle),
 * ``{do: "toggle", id}`` (a die to keep), ``{do: "prompt"}`` (not this seat's turn) or null.
 * A take or spend the server did not offer is sent all the same: the engine says why not.
 */
export function clickPlan(choices, { source = null } = {}, id, where) {
  const c = choices;
  if (!c) return { do: "prompt" };
  if (source) return { do: "target", id };
  if (c.cache && where === "trove") return { do: "toggle", id };
  if (c.spend && where === "trove") {
    const found = c.spend.find((s) => s.die === id);
    if (found) return found.forced ? { do: "send", command: found.forced.command } : { do: "source", source: found };
  }
  if (c.beer && where === "trove") {
    const options = c.beer.filter((o) => o.command.die === id);
    if (options.length) return { do: "menu", title: `Share die ${id}: give it to…`, options };
  }
  if (where === "mountain" && c.take) {
    const options = c.take[String(id)];
    if (options && options.length === 1) return { do: "send", command: options[0].command };
    if (options && options.length > 1) return { do: "menu", title: `Take die ${id}:`, options };
    return { do: "send", command: { t: "take", die: id } };
  }
  if (c.phase === "magic" && where === "trove") return { do: "send", command: { t: "spend", die: id, targets: [] } };
  return null;
}
