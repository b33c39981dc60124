// The island's log kinds for the page's renderer (log_lines.js, docs/log.md): how a param of
// each `{name:kind}` of the island's templates (i18n/log/island/<lang>.json) is put into the
// page's language — seats by name, cards and resources in words, development cards by name,
// places (hex, node, edge) by the board's labels (the page's `ctx.place`), and the two lines
// made of parts (a production line's payouts, an offer's answers) part by part with the parts'
// own templates. Presentation only: no rule lives here, and no sentence is read.
import { t } from "./i18n.js";
import { bundleWords } from "./legal.js";
import { loadLogTemplates, registerLogKinds, renderLogLine } from "./log_lines.js";

const LETTER = { lumber: "l", brick: "b", wool: "w", grain: "g", ore: "o" };

/** A bundle param ({"lumber": 2, "ore": 1}) in words: "2 lumber, 1 ore". */
function cards(v) {
  const b = {};
  for (const [name, n] of Object.entries(v || {})) b[LETTER[name] || name] = n;
  return bundleWords(b, t);
}
const resource = (v) => t(`res.${LETTER[v] || v}`);
/** The parts of a line, each with its own form's template (`gets`; an answer's form). */
const parts = (list, formOf, ctx, sep) =>
  (list || []).map((p) => renderLogLine({ form: formOf(p), params: p, text: "" }, "island", ctx)).join(sep);

registerLogKinds("island", {
  seat: (v, ctx) => (ctx && ctx.seat ? ctx.seat(v) : `${t("seat")} ${v}`),
  cards,
  letter: resource,
  resource,
  dev: (v) => t(`dev.${v}`),
  payouts: (v, ctx) => parts(v, () => "gets", ctx, "; "),
  answers: (v, ctx) => parts(v, (p) => p.answer, ctx, ", "),
});

/** The island's log templates in the page's language (call before the first render). */
export function loadIslandLog() {
  return loadLogTemplates("island");
}

/** A place labeller over a board geometry's `labels` (hexes A.., intersections 1..N, edges a-b):
 * the id itself when the geometry has none. */
export function placeLabels(geometry) {
  const labels = (geometry && geometry.labels) || {};
  const tables = { hex: labels.hexes, node: labels.nodes, edge: labels.edges };
  return (kind, v) => (tables[kind] && tables[kind][v] !== undefined ? tables[kind][v] : String(v));
}

/** An island log line (an entry {form, params, text}, or an old record's string) in the page's
 * language: `seatName(i)` names a seat, `place(kind, v)` labels a place. */
export function islandLogLine(line, seatName, place) {
  return renderLogLine(line, "island", { seat: seatName, place });
}
