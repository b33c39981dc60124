// A player's profile page (#/player/<id>, docs/profiles.md): name, karma, games played and won
// per game, ratings with their history (GET /api/players/<id>/ratings), the latest games.
import { api, me, ApiError } from "./api.js";
import { h } from "./dom.js";
import { t, loadGameTexts } from "./i18n.js";
import { karmaWords } from "./karma.js";
import { gameItem, when } from "./game_list.js";
import { ratingChart } from "./rating_chart.js";

/** A player's ratings: [] when there are none yet, and while the server has no ratings (404). */
export async function ratingsOf(id) {
  try { return (await api("GET", `/api/players/${encodeURIComponent(id)}/ratings`)) || []; } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

/** The ratings' card: each game and player count with its rating and history chart. */
export function ratingsSection(list) {
  const box = h("section.card.ratings#ratings", {}, h("h2", { text: t("profile.ratings") }));
  if (!list.length) { box.append(h("p.muted.no-ratings", { text: t("profile.no_ratings") })); return box; }
  for (const r of list) {
    const label = `${t(`game.${r.game}`)} · ${t(`ratings.family.${r.family}`)}`; // the leaderboard's words (2p: "2 players")
    box.append(h("div.rating", { "data-game": r.game, "data-family": r.family },
      h("h3", {}, label, " ", h("strong.rating-value", { text: String(Math.round(r.rating)) })),
      h("p.muted", { text: t("profile.rated_games", { n: r.games }) }),
      ratingChart(r, t("profile.chart", { what: label }))));
  }
  return box;
}

export async function showProfile(app, id) {
  let prof;
  let ratings;
  try {
    [prof, ratings] = await Promise.all([api("GET", `/api/players/${encodeURIComponent(id)}/profile`), ratingsOf(id).catch(() => [])]);
  } catch (err) {
    app.append(h("section.card.narrow", {}, h("h2", { text: t("profile.none") }), h("p", { text: err.message }), h("a.button", { href: "#/", text: t("back") })));
    return null;
  }
  const games = new Set([...prof.games.map((g) => g.game), ...prof.recent.map((g) => g.game), ...ratings.map((r) => r.game)]);
  await Promise.all([...games].map(loadGameTexts));
  const mine = me() && me().id === prof.id;
  const k = prof.karma;
  const kw = karmaWords(k);
  const karma = h("section.card.karma-card#karma", {}, h("h2", { text: t("karma.title") }),
    k.karma === null ? h("p.muted", { text: t("karma.none", { n: k.shown_from, games: k.games }) })
      : [h("p.karma-big", { text: kw.text, "data-level": k.karma >= 90 ? "high" : k.karma >= 70 ? "mid" : "low" }), h("p.muted", { text: t("karma.tip", { stayed: k.stayed, games: k.games }) })],
    h("p.muted.small", { text: t("karma.rule", { of: k.of, n: k.shown_from }) }));
  const perGame = h("section.card#per-game", {}, h("h2", { text: t("profile.games") }),
    prof.games.length ? h("table.per-game", {}, h("thead", {}, h("tr", {}, h("th", { text: t("profile.game") }), h("th.num", { text: t("profile.played") }), h("th.num", { text: t("profile.won_n") }))),
      h("tbody", {}, prof.games.map((g) => h("tr", { "data-game": g.game }, h("td", { text: t(`game.${g.game}`) }), h("td.num", { text: String(g.played) }), h("td.num", { text: String(g.won) })))))
      : h("p.muted", { text: t("profile.no_games") }));
  const recent = h("section.card#recent", {}, h("h2", { text: t("profile.recent") }),
    prof.recent.length ? h("ul.games", {}, prof.recent.map(gameItem)) : h("p.muted", { text: t("profile.no_games") }),
    mine ? h("a.button#my-games-link", { href: "#/me/games", text: t("mygames.title") }) : null);
  app.append(h("section.profile", {},
    h("div.card.profile-head", {}, h("h1#profile-name", { text: prof.name }),
      prof.account ? h("p.muted.account", { text: t("profile.account") }) : h("p.muted.guest", { text: t("profile.guest") }),
      h("p.muted", { text: t("profile.since", { date: when(prof.since) }) })),
    h("div.profile-grid", {}, karma, perGame, ratingsSection(ratings), recent)));
  return null;
}
