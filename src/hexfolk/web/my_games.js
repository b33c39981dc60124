// "My games" (#/me/games?game=&result=&players=&page=, docs/profiles.md): the player's finished
// games, newest first, 20 a page, filtered by game, result and player count (GET /api/me/games).
import { api, me } from "./api.js";
import { h, toast } from "./dom.js";
import { t, loadGameTexts } from "./i18n.js";
import { gameItem } from "./game_list.js";

const FILTERS = ["game", "result", "players"];

/** The filters and page of a `#/me/games?...` hash. */
export function readQuery(hash) {
  const q = new URLSearchParams((hash.split("?")[1] || ""));
  const out = {};
  for (const k of [...FILTERS, "page"]) if (q.get(k)) out[k] = q.get(k);
  return out;
}

function hashOf(query) {
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== "" && v !== undefined));
  const s = q.toString();
  return `#/me/games${s ? `?${s}` : ""}`;
}

export async function showMyGames(app, query) {
  if (!me()) { location.hash = "#/"; return null; }
  const sel = (id, opts, value) => h(`select#${id}`, { onchange: () => { location.hash = hashOf({ ...read(), page: "" }); } },
    opts.map(([v, label]) => h("option", { value: v, text: label, selected: String(v) === String(value || "") })));
  let list;
  let games;
  try {
    const params = new URLSearchParams(query).toString();
    [list, games] = await Promise.all([api("GET", `/api/me/games${params ? `?${params}` : ""}`), api("GET", "/api/games")]);
  } catch (err) {
    toast(err.message);
    app.append(h("section.card.narrow", {}, h("h2", { text: t("mygames.title") }), h("p.form-problems#games-problem", { role: "alert", text: err.message }),
      h("a.button", { href: "#/me/games", text: t("mygames.clear") })));
    return null;
  }
  await Promise.all([...games.games.map((g) => g.id), ...list.games.map((g) => g.game)].map(loadGameTexts));
  const f = {
    game: sel("f-game", [["", t("mygames.all_games")], ...games.games.map((g) => [g.id, t(`game.${g.id}`)])], query.game),
    result: sel("f-result", [["", t("mygames.all_results")], ["won", t("profile.won")], ["lost", t("profile.lost")]], query.result),
    players: sel("f-players", [["", t("mygames.all_players")], ...[2, 3, 4, 5, 6, 7, 8].map((n) => [n, `${n} ${t("players")}`])], query.players),
  };
  function read() { return { game: f.game.value, result: f.result.value, players: f.players.value }; }
  const field = (label, el, id) => h("div.field", {}, h("label", { for: id, text: label }), el);
  const page = list.page;
  const go = (n) => { location.hash = hashOf({ ...read(), page: n > 1 ? String(n) : "" }); };
  app.append(h("section.my-games", {},
    h("div.card", {}, h("h1", { text: t("mygames.title") }),
      h("div.filters", {}, field(t("set.game"), f.game, "f-game"), field(t("mygames.result"), f.result, "f-result"), field(t("mygames.players"), f.players, "f-players")),
      h("p.muted#games-count", { text: t("mygames.count", { n: list.total }) }),
      list.games.length ? h("ul.games#my-games", {}, list.games.map(gameItem)) : h("p.muted#no-games", { text: t("mygames.none") }),
      h("div.row.pager", {},
        h("button#prev-page", { text: t("mygames.prev"), disabled: page <= 1, onclick: () => go(page - 1) }),
        h("span#page-of", { text: t("mygames.page", { n: page, of: list.pages }) }),
        h("button#next-page", { text: t("mygames.next"), disabled: page >= list.pages, onclick: () => go(page + 1) })))));
  return null;
}
