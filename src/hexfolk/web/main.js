// The router: #/ lobby, #/t/<id> a table (its lobby, the game, or the end), #/t/<id>/overview,
// #/t/<id>/replay. Every page is rebuilt from the server's answers.
import { pickLanguage, setLanguage, lang } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showOverview, showReplay } from "./overview.js";
import { api } from "./api.js";

/** The game of a table (null when it cannot be read: the island page then says why). */
async function gameOf(id) {
  try { return (await api("GET", `/api/tables/${id}`)).game; } catch { return null; }
}

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
  if (parts[0] === "t" && parts[1]) {
    if (await gameOf(parts[1]) === "scythe") {
      // Scythe's modules load only for a Scythe table: an island page fetches none of them.
      if (parts[2] === "replay") current = await (await import("./scythe/end.js")).showScytheReplay(app, parts[1]);
      else current = await (await import("./scythe/table.js")).showScythe(app, parts[1]);
    }
    else if (parts[2] === "overview") current = await showOverview(app, parts[1]);
    else if (parts[2] === "replay") current = await showReplay(app, parts[1]);
    else current = await showTable(app, parts[1]);
  } else {
    current = await showLobby(app);
  }
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
