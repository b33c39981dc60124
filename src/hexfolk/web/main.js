// The router: #/ lobby, #/t/<id> a table (its lobby, the game, or the end), #/t/<id>/overview,
// #/t/<id>/replay, #/t/<id>/replay/<step> (the replay opened at a step: the analysis's turning
// points link there, analysis.js), #/ratings[/<game>[/<family>]] the leaderboard, #/player/<id> a
// player's profile, #/me/games?... my finished games. Every page is rebuilt from the server's answers. A table's page is the shell
// (table_page.js) with its game's plug-in (games/registry.js): the router names no game.
// The page's texts load while a table's page fetches its table (showTablePage waits for both
// before it draws), not before it. Each route draws into a box of its own in #app and has a
// generation: a route still loading when the hash changed again draws into a box no longer
// shown, and what it returns is closed (its socket, its timers), not kept as the page.
import { pickLanguage, setLanguage, lang } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showLeaderboard } from "./leaderboard.js";
import { showTablePage } from "./table_page.js";

let current = null;
let generation = 0;
let texts = null; // the page's texts loading (setLanguage), awaited by a page before it draws

async function route() {
  const mine = ++generation;
  if (current && current.close) current.close();
  current = null;
  document.getElementById("top-extra").replaceChildren();
  const note = document.getElementById("page-note"); // a page's notice (table_page.js) is its own
  note.replaceChildren();
  note.hidden = true;
  const app = document.createElement("div"); // the route's own box (display: contents)
  app.className = "route";
  document.getElementById("app").replaceChildren(app);
  const hash = location.hash.replace(/^#\/?/, "");
  const parts = hash.split("?")[0].split("/").filter(Boolean);
  const pages = { player: "profile", me: "my-games", ratings: "ratings" }; // profile.js, my_games.js, leaderboard.js
  document.body.dataset.page = parts[0] === "t" ? (parts[2] || "table") : pages[parts[0]] || "lobby";
  const stale = () => mine !== generation;
  let page;
  if (parts[0] === "t" && parts[1]) page = await showTablePage(app, parts[1], parts[2], texts, parts[3]);
  else if (parts[0] === "ratings") {
    await texts;
    if (stale()) return;
    page = await showLeaderboard(app, parts[1], parts[2]);
  } else if ((parts[0] === "player" && parts[1]) || (parts[0] === "me" && parts[1] === "games")) {
    const [mod] = await Promise.all([parts[0] === "player" ? import("./profile.js") : import("./my_games.js"), texts]);
    if (stale()) return;
    page = parts[0] === "player" ? await mod.showProfile(app, decodeURIComponent(parts[1])) : await mod.showMyGames(app, mod.readQuery(hash));
  } else {
    await texts;
    if (stale()) return;
    page = await showLobby(app);
  }
  if (stale()) { if (page && page.close) page.close(); return; }
  current = page;
}

async function start() {
  texts = setLanguage(pickLanguage());
  const sel = document.getElementById("lang");
  window.addEventListener("hashchange", route);
  const first = route();
  await texts;
  sel.value = lang;
  sel.addEventListener("change", async () => { texts = setLanguage(sel.value); await texts; route(); });
  await first;
}
start();
