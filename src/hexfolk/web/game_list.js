// One finished game in a player's list (the profile's recent games, "my games"): the game, when,
// who played, the result, whether the player finished it themselves, and links to its replay
// and its overview (#/t/<id>/replay, #/t/<id>/overview: a game without an overview page shows
// its table's end there).
import { h } from "./dom.js";
import { t, lang } from "./i18n.js";
import { personName } from "./karma.js";

export function when(at) {
  try { return new Date(at * 1000).toLocaleDateString(lang, { year: "numeric", month: "short", day: "numeric" }); } catch { return ""; }
}

function seatName(x) {
  if (x.kind === "person") return personName(x.player_id, x.name);
  if (x.kind === "bot") return h("span.bot", { text: `${t("seat.bot")} (${t(`level.${x.level}`)})` });
  return h("span", { text: t("seat.open") });
}

/** The list item of `g` (a game of GET /api/me/games or a profile's `recent`). */
export function gameItem(g) {
  const result = g.won ? h("span.result.won", { text: t("profile.won") }) : h("span.result.lost", { text: t("profile.lost") });
  const left = g.stayed ? null : h("span.result.left", { text: t("profile.left"), title: t("profile.left_tip") });
  const who = h("span.who-played", {}, g.seats.map((x, i) => [i ? ", " : "", seatName(x)]));
  return h("li.game-item", { "data-table": g.table_id },
    h("div.game-head", {}, h("strong", { text: t(`game.${g.game}`) }), h("span.muted", { text: ` · ${g.players} ${t("players")} · ${when(g.finished_at)}` }), result, left),
    h("div.game-who", {}, who),
    h("div.game-links", {},
      h("a.button.small.replay-link", { href: `#/t/${g.table_id}/replay`, text: t("profile.replay") }),
      h("a.button.small.overview-link", { href: `#/t/${g.table_id}/overview`, text: t("profile.overview") })));
}
