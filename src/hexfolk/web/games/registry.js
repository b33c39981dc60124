// The games of the table page. A game's plug-in is the file games/<id>.js (`id` the server's
// `game` of a table), loaded when a table of that game opens, so that a page fetches no other
// game's modules. The file registers itself (`registerGame`) with:
//   id            the game's id
//   mount(shell)  its part of the page (a GamePart, games/part.js), built at the first view
//   update(part)  draw the shell's newest view
//   logForms(line, seats, geometry)  a log line ({form, params, text}) in words, in the page's language
//   settingsForm  {summary(table), fields(table)}: the table lobby's settings line and the
//                 host's form ({el, read})
// and optionally `inviteLead` and `createTitle` (the i18n keys of an invite's words and of the
// lobby's create form's title), `logLines` (how many log lines the page keeps drawn) and
// `pages` ({overview, replay}: (app, id, table, arg) => page; `arg`: the replay's step, or undefined).
// With the file, the registry loads the game's texts (i18n/<id>/<lang>.json, i18n.js) and its
// log templates (i18n/log/<id>/<lang>.json, log_lines.js), all three at once: a plug-in is
// ready when they have come, so its first draw has its words. A plug-in's file imports every
// module its page needs itself (not only through others), so that the browser fetches them in
// one round, not one level of imports after another (tests/test_page_modules.py).
// Adding a game adds its files; the shell (table_page.js) and main.js name no game.
import { loadGameTexts } from "../i18n.js";
import { loadLogTemplates } from "../log_lines.js";

const games = new Map();
const loading = new Map(); // id -> the promise of its plug-in with its texts and templates
const REQUIRED = ["mount", "update", "logForms", "settingsForm"];

/** Register a game's plug-in (called by games/<id>.js when it loads). */
export function registerGame(plugin) {
  const missing = REQUIRED.filter((k) => !plugin[k]);
  if (missing.length) throw new Error(`the ${plugin.id} plug-in lacks ${missing.join(", ")}`);
  games.set(plugin.id, plugin);
  return plugin;
}

/** The plug-in of game `id`, loading its file, texts and log templates (at once) the first time;
 * the texts and templates are loaded again when the page's language changed since. */
export async function gamePlugin(id) {
  if (!/^[a-z][a-z0-9_]*$/.test(String(id))) throw new Error(`no such game: ${id}`);
  if (!loading.has(id)) {
    const ready = Promise.all([import(`./${id}.js`), loadGameTexts(id), loadLogTemplates(id)]);
    loading.set(id, ready);
    ready.catch(() => loading.delete(id)); // a failed load may be tried again
  }
  await loading.get(id);
  await Promise.all([loadGameTexts(id), loadLogTemplates(id)]); // no fetch unless the language changed
  const plugin = games.get(id);
  if (!plugin) throw new Error(`no such game: ${id}`);
  return plugin;
}
