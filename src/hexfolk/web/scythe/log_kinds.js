// Scythe's log in the page's language (docs/scythe.md, "The log"): each entry {form, params,
// text} is written from the form's template of i18n/log/scythe/<lang>.json by ../log_lines.js;
// this file registers the renderers of Scythe's kinds (seats by name, territories by the
// board's labels, resources, structures, units, abilities, actions, tiles, stars and cards in
// words). No sentence is parsed: a plain string (an old record's line) is shown as it is.
import { t, lang } from "../i18n.js";
import { seatLabel } from "../seats.js";
import { registerLogKinds, renderLogLine, logText } from "../log_lines.js";
import { cardText } from "./cardtext.js";
import { placeLabel } from "./board.js";

const word = (prefix, x) => { const k = `${prefix}.${x}`; const v = t(k); return v === k ? String(x) : v; };

const andList = (xs) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);

registerLogKinds("scythe", {
  seat: (v, ctx) => ctx.seat(v),
  territory: (v, ctx) => ctx.place("territory", v),
  // the English templates are the engine's: there the kind holds the words (cards_words,
  // winners_words of log_forms.py); the other languages' templates hold them around the list
  cards: (v) => (lang === "en" ? (v.length ? `${v.length === 1 ? "combat card" : "combat cards"} ${andList(v.map(String))}` : "no combat card") : (v.length ? v.join(", ") : "—")),
  winners: (v, ctx) => {
    const names = v.map((q) => ctx.seat(q));
    if (lang !== "en") return names.join(", ");
    return names.length === 0 ? "nobody wins" : names.length === 1 ? `${names[0]} wins` : `${andList(names)} share the win`;
  },
  seating: (v, ctx) => v.map(([q, faction, mat]) => `${ctx.seat(q)} (${word("faction", faction)}, ${word("mat", mat)})`).join(", "),
  objective: (v) => cardText(`card.obj.${v}.name`, String(v)),
  resource: (v) => word("res", v),
  structure: (v) => word("struct", v),
  unit: (v) => word("sc", v),
  ability: (v) => word("ability", v),
  top: (v) => word("top", v),
  top_box: (v) => word("box", v),
  bottom: (v) => word("bottom", v),
  tile: (v) => word("tile", v),
  star: (v) => word("star", v),
  gain: (v) => word("gain", v),
  space: (v) => word("space", v),
});

/** The page's context of a Scythe log line: seats by their names, places by their labels. */
export function logContext(seats, geo) {
  return { seat: (i) => seatLabel(seats, i), place: (_kind, id) => placeLabel(geo, id) };
}

/** A log entry (or an old record's plain line) in the page's language (the templates come
 * with the plug-in: games/registry.js). */
export function scytheLogLine(line, seats, geo) {
  return renderLogLine(line, "scythe", logContext(seats, geo));
}

export { logText };
