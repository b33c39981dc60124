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
// `pages` ({overview, replay}: (app, id, table) => page).
// Adding a game adds its files; the shell (table_page.js) and main.js name no game.
const games = new Map();
const REQUIRED = ["mount", "update", "logForms", "settingsForm"];

/** Register a game's plug-in (called by games/<id>.js when it loads). */
export function registerGame(plugin) {
  const missing = REQUIRED.filter((k) => !plugin[k]);
  if (missing.length) throw new Error(`the ${plugin.id} plug-in lacks ${missing.join(", ")}`);
  games.set(plugin.id, plugin);
  return plugin;
}

/** The plug-in of game `id`, loading its file the first time. */
export async function gamePlugin(id) {
  if (!/^[a-z][a-z0-9_]*$/.test(String(id))) throw new Error(`no such game: ${id}`);
  if (!games.has(id)) await import(`./${id}.js`);
  const plugin = games.get(id);
  if (!plugin) throw new Error(`no such game: ${id}`);
  return plugin;
}
