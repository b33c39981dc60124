// The router: #/ lobby, #/t/<id> a table (its lobby, the game, or the end), #/t/<id>/overview,
// #/t/<id>/replay. Every page is rebuilt from the server's answers. A table's page is the shell
// (table_page.js) with its game's plug-in (games/registry.js): the router names no game.
import { pickLanguage, setLanguage, lang } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showTablePage } from "./table_page.js";

let current = null;

async function route() {
  if (current && current.close) current.close();
  current = null;
  document.getElementById("top-extra").replaceChildren();
  const note = document.getElementById("page-note"); // a page's notice (table_page.js) is its own
  note.replaceChildren();
  note.hidden = true;
  const app = document.getElementById("app");
  app.replaceChildren();
  const hash = location.hash.replace(/^#\/?/, "");
  const parts = hash.split("/").filter(Boolean);
  document.body.dataset.page = parts[0] === "t" ? (parts[2] || "table") : "lobby";
  if (parts[0] === "t" && parts[1]) current = await showTablePage(app, parts[1], parts[2]);
  else current = await showLobby(app);
}

async function start() {
  await setLanguage(pickLanguage());
  const sel = document.getElementById("lang");
  sel.value = lang;
  sel.addEventListener("change", async () => { await setLanguage(sel.value); route(); });
  window.addEventListener("hashchange", route);
  await route();
}
start();
