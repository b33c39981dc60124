// The leaderboard (#/ratings/<game>/<family>): the best 100 accounts of a game and player-count
// family from GET /api/ratings/<game>?family=..., the families to switch between, and the bots'
// fixed ratings. Everything comes from the server; the page only lays it out.
import { api, me } from "./api.js";
import { h } from "./dom.js";
import { t, loadGameTexts, errorText } from "./i18n.js";

const familyName = (f) => t(`ratings.family.${f}`);

export async function showLeaderboard(app, game, family) {
  let games;
  let board;
  try {
    games = (await api("GET", "/api/games")).rated_games;
    const id = game || games[0];
    await Promise.all(games.map(loadGameTexts));
    board = await api("GET", `/api/ratings/${encodeURIComponent(id)}${family ? `?family=${encodeURIComponent(family)}` : ""}`);
  } catch (err) {
    app.append(h("section.leaderboard", {}, h("div.card", {}, h("h1", { text: t("ratings.title") }), h("p", { role: "alert", text: errorText(err) }))));
    return null;
  }
  const link = (href, text, current) => h(`a.button.small${current ? ".current" : ""}`, { href, text, "aria-current": current ? "page" : null });
  const gameTabs = h("nav.rating-games", { "aria-label": t("ratings.games_nav") },
    games.map((g) => link(`#/ratings/${g}`, t(`game.${g}`), g === board.game)));
  const familyTabs = h("nav.rating-families", { "aria-label": t("ratings.family") },
    board.families.map((f) => link(`#/ratings/${board.game}/${f}`, familyName(f), f === board.family)));
  const p = me();
  const rows = board.players.map((x) => h(`tr${p && x.player_id === p.id ? ".me" : ""}`, { "data-player": x.player_id },
    h("td.rank", { text: String(x.rank) }),
    h("td.who", {}, h("span.pname", { text: x.name })),
    h("td.num.rating", { text: String(x.rating) }),
    h("td.num.games", { text: String(x.games) })));
  const table = board.players.length
    ? h("table.ratings#ratings-table", {},
      h("caption.sr", { text: `${t(`game.${board.game}`)} · ${familyName(board.family)}` }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("ratings.rank") }), h("th", { scope: "col", text: t("ratings.player") }),
        h("th.num", { scope: "col", text: t("ratings.rating") }), h("th.num", { scope: "col", text: t("ratings.games") }))),
      h("tbody", {}, rows))
    : h("p.empty#ratings-empty", { text: t("ratings.none") });
  const bots = h("div.card.rating-bots", {}, h("h2", { text: t("ratings.bots") }),
    h("ul.bot-ratings", {}, board.bots.map((b) => h("li", { "data-level": b.level },
      h("span", { text: `${t("seat.bot")} (${t(`level.${b.level}`)})` }), h("span.num", { text: String(b.rating) })))),
    h("p.muted", { text: t("ratings.bots_fixed") }));
  app.append(h("section.leaderboard", {},
    h("div.card", {}, h("h1", { text: `${t("ratings.title")} · ${t(`game.${board.game}`)}` }), gameTabs, familyTabs, table,
      h("p.muted.rating-about", { text: t("ratings.about", { n: board.limit }) })),
    bots));
  return null;
}
