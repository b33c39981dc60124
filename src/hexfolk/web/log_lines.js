// Log entries as data (docs/log.md): the server sends each log line as {form, params, text};
// this renders it in the page's language from the game's templates
// (i18n/log/<game>/<lang>.json: one template per form, the engine's syntax: {name},
// {name:kind}, {name|one|other}). Each game registers the renderers of its kinds
// (registerLogKinds); the page gives the context: who a seat is and how the board labels a
// place. A line without a template in the page's language (or an old record's plain string)
// shows its English text. Presentation only: no rule lives here, and no sentence is parsed.
import { lang } from "./i18n.js";

const PLACEHOLDER = /\{(\w+)(?::(\w+)|\|([^|{}]*)\|([^|{}]*))?\}/g;
const templates = {}; // game -> lang -> {form: template}
const kindsOf = {}; // game -> {kind: (value, ctx) -> string}

/** Load `game`'s log templates in the page's language (once per game and language). */
export async function loadLogTemplates(game) {
  templates[game] ??= {};
  if (templates[game][lang]) return;
  const r = await fetch(`/app/i18n/log/${game}/${lang}.json`);
  templates[game][lang] = r.ok ? await r.json() : {};
}

/** `game`'s renderers of `{name:kind}`: `(value, ctx) -> text`; a place kind usually returns
 * `ctx.place(kind, value)` (the board's label). */
export function registerLogKinds(game, kinds) {
  kindsOf[game] = { ...(kindsOf[game] || {}), ...kinds };
}

/** The text of log line `line` (an entry {form, params, text}, or a plain string of an old
 * record) in the page's language. `ctx`: {seat(i) -> name, place(kind, value) -> label}. */
export function renderLogLine(line, game, ctx) {
  if (line === null || typeof line !== "object") return String(line);
  const template = templates[game]?.[lang]?.[line.form];
  if (template === undefined) return line.text;
  const params = line.params || {};
  const kinds = kindsOf[game] || {};
  let missing = false;
  const out = template.replace(PLACEHOLDER, (m, name, kind, one, other) => {
    const v = params[name];
    if (v === undefined || v === null) { missing = true; return ""; }
    if (one !== undefined) return (Array.isArray(v) ? v.length === 1 : v === 1) ? one : other;
    if (kind) {
      if (kinds[kind]) return kinds[kind](v, ctx);
      if (ctx && ctx.place) return ctx.place(kind, v);
    }
    return String(v);
  });
  return missing ? line.text : out;
}

const ENTRY = { toString() { return this.text; } };

/** A received log entry {form, params, text} as the page keeps it: its string value is its
 * English text (as a LogLine's is in Python), so code that shows or compares lines as text
 * keeps working; an old record's plain string stays as it is. */
export function logEntry(raw) {
  return raw !== null && typeof raw === "object" ? Object.assign(Object.create(ENTRY), raw) : raw;
}

/** The English text of a log line (an entry or an old record's string). */
export function logText(line) {
  return line !== null && typeof line === "object" ? line.text : String(line);
}
