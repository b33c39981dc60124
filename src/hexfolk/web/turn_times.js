// The time statistics of a finished game (issue 25, finding 17), shared by the island overview
// and the Scythe end panel: the game's duration and each player's turns, average and longest
// turn, from the summary's `statistics.time` (/api/tables/{id}/summary, docs/protocol.md).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Seconds as "42.5 s", "3:07" or "1:02:07". */
export function clockText(sec) {
  if (sec === null || sec === undefined) return "–";
  if (sec < 60) return `${sec} s`;
  const whole = Math.round(sec);
  const hh = Math.floor(whole / 3600), mm = Math.floor((whole % 3600) / 60), ss = String(whole % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** The time card: `time` is the summary's `statistics.time` (null: no card), `name(seat)` a
 * player's label (text or element). */
export function timeCard(time, name) {
  if (!time) return null;
  const rows = time.seats.map((x) => [name(x.seat), x.turns, clockText(x.average), clockText(x.longest)]);
  return h("div.card#time-card", {}, h("h2", { text: t("overview.time") }),
    h("p#duration", { text: t("overview.duration", { time: clockText(time.duration) }) }),
    h("div.scroll", { tabindex: "0" }, h("table", {},
      h("thead", {}, h("tr", {}, [t("player"), t("turns"), t("turn_avg"), t("turn_longest")].map((x) => h("th", {}, x)))),
      h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c, i) => (i === 0 ? h("th", {}, c) : h("td", {}, c)))))))));
}
