// The end of a Scythe game: every player's score by popularity band (coins, stars, territories,
// resource pairs, the structure bonus tile), the tie-breaks and the winner, the record download,
// the replay and a rematch; and the replay viewer (public views of every step).
import { api } from "../api.js";
import { h, s, toast } from "../dom.js";
import { t, hasText } from "../i18n.js";
import { seatLabel } from "../seats.js";
import { ScytheBoard, describeBoard } from "./board.js";
import { bandOf, factionBadge, tracks } from "./mats.js";
import { readLegal } from "./legal.js";
import { loadReplay, replayControls, stepBox } from "../replay.js";
import { scytheLogLine } from "./log_kinds.js";
import { timeCard } from "../turn_times.js";
import { stepArg } from "../replay.js";
import { replayStrip } from "../analysis.js";
import { FACTION_COLOR } from "./board.js";

/** Why the game ended, in the page's language: the summary's `ended_by` (a form and its params
 * from the engine, games/scythe/ended_by.py) through `sc.ended_by.<form>`; a form without a
 * template shows the engine's English text, a summary stored before issue 27 its `end_reason`. */
export function endedBy(sm) {
  const e = sm.ended_by;
  if (!e || typeof e.form !== "string") return sm.end_reason || "";
  const key = `sc.ended_by.${e.form}`;
  return hasText(key) ? t(key, e.params || {}) : e.text || sm.end_reason || "";
}

/** The score table from the result's summary breakdown: a column per player, a row per part
 * of the fortune (SR-53..SR-55), then the tie-breaks' counts. */
export function scoreTable(comp, result, players, seatName) {
  const sm = (result && result.summary) || {};
  const bd = sm.breakdown || [];
  const winners = new Set((result && result.winners) || sm.winners || []);
  const cell = (i, text, cls = "") => h(`td${cls}${winners.has(i) ? ".winner" : ""}`, { "data-seat": i, text });
  const band = (b) => bandOf(comp, b.popularity);
  const rows = [
    ["sc.popularity", (b) => `${b.popularity} (${t("sc.band")} ${band(b).index + 1})`],
    ["sc.coins", (b) => `$${b.coins}`],
    ["sc.stars", (b) => `${b.stars} → $${b.star_coins}`],
    ["sc.territories", (b) => `${b.territories} → $${b.territory_coins}`],
    ["sc.resources_n", (b) => `${b.resources} → $${b.resource_coins}`],
    ["sc.tile", (b) => `$${b.tile_coins}`],
    ["sc.fortune", (b) => `$${b.fortune}`, ".fortune"],
    ["sc.units_structs", (b) => String(b.units_and_structures)],
    ["sc.power", (b) => String(b.power)],
  ];
  return h("div.scroll", { tabindex: "0" }, h("table.scores#scores", {},
    h("thead", {}, h("tr", {}, h("th", {}), bd.map((b, i) => h(`th${winners.has(i) ? ".winner" : ""}`, { "data-seat": i }, factionBadge((players[i] || {}).faction), ` ${seatName(i)}`)))),
    h("tbody", {}, rows.map(([key, fn, cls]) => h(`tr${cls || ""}`, {}, h("th", { text: t(key) }), bd.map((b, i) => cell(i, fn(b)))))),
    h("tfoot", {}, h("tr", {}, h("th", { text: t("sc.band_rates") }), bd.map((b, i) => cell(i, t("sc.band_short", { star: band(b).band.star, territory: band(b).band.territory, res: band(b).band.resources2 }))))),
  ), h("p.muted.tiebreak", { text: t("sc.tiebreak") }),
  sm.end_reason ? h("p.muted#ended-by", { text: t("sc.end_reason", { why: endedBy(sm), turns: sm.turns }) }) : null);
}

/** The time card of the summary's statistics (the island overview's): filled in once the
 * summary arrives. */
function timeSlot(id, seatName) {
  const slot = h("div.sc-time");
  api("GET", `/api/tables/${id}/summary`)
    .then((data) => slot.replaceChildren(timeCard((data.statistics || {}).time, seatName) || ""))
    .catch((err) => toast(err.message));
  return slot;
}

/** The end panel: the winner, the scores, the record, replay and rematch, and the time card
 * (duration, each player's turns, average and longest turn). */
export function endPanel(comp, view, seatName, id, seated) {
  const res = view.result || (view.observation && view.observation.result) || {};
  const winners = res.winners || [];
  const title = winners.length ? t("winner", { who: winners.map(seatName).join(" & ") }) : t("no_winner");
  return h("div.sc-end-wrap", {}, h("div.card.end.sc-end", {}, h("h2", { text: title }),
    scoreTable(comp, res, view.observation.player_state || [], seatName),
    h("div.row", {},
      h("a.button#to-replay", { href: `#/t/${id}/replay`, text: t("replay") }),
      h("a.button#download-record", { href: `/api/tables/${id}/record`, download: `hexfolk-${id}.json`, text: t("record") }),
      seated ? h("button#rematch", { text: t("rematch"), onclick: async () => {
        try { const tb = await api("POST", `/api/tables/${id}/rematch`); location.hash = `#/t/${tb.id}`; } catch (err) { toast(err.message); }
      } }) : null)), timeSlot(id, seatName));
}

/** Seat i's colour in Scythe: its faction's (`players`: the view's `player_state`). */
export const seatColor = (players) => (i) => FACTION_COLOR[(players[i] || {}).faction] || "#777";

/** The replay viewer of a finished Scythe table (`table`: its JSON, when the page has it): opens
 * at step 0, or at step `step` of the address (#/t/<id>/replay/<step>), as soon as the first
 * steps arrive (replay.js loads the others behind it). Under its scrubber: the analysis's curve
 * (analysis.js). */
export async function showScytheReplay(app, id, table, step) {
  const loaded = await loadReplay(app, id, table);
  if (!loaded) return null;
  const { tb, geo, replay, steps } = loaded;
  const comp = geo.geometry.components;
  const name = (i) => seatLabel(tb.seats, i);
  const svg = s("svg", { id: "board", class: "sc-board", role: "group", "aria-label": t("board"), "aria-describedby": "board-desc" });
  const desc = h("p#board-desc.sr");
  const info = h("div.replay-info");
  const board = new ScytheBoard(svg, geo.geometry, name);
  const empty = readLegal([]);
  const say = (l) => scytheLogLine(l, tb.seats, geo.geometry);
  const players = (steps[0].observation.player_state || []);
  const strip = replayStrip(id, { name, badge: (k) => factionBadge((players[k] || {}).faction), colorOf: seatColor(players), go: (k) => { controls.pause(); controls.go(k); } });
  const show = (i) => {
    const st = steps[i];
    const obs = st.observation;
    strip.at(i);
    board.update(obs, empty);
    desc.textContent = describeBoard(obs, geo.geometry, name);
    info.replaceChildren(
      stepBox(i, st, say, name),
      h("ul.plist", {}, (obs.player_state || []).map((p, k) => h("li.player", { "data-seat": k }, h("div.pname", {}, factionBadge(p.faction), h("strong", { text: name(k) })), tracks(comp, p)))));
  };
  const controls = replayControls(replay, show, name, (e) => svg.contains(e.target) && svg.classList.contains("zoomed"));
  app.append(h("section.game.replay.sc-game", {},
    h("div.board-wrap.sc-wrap", {}, svg, board.controls(), desc),
    h("aside.side", {}, h("div.card.replay-card", {}, h("h2", { text: t("replay") }),
      controls.el, strip.el, h("p", {}, h("a.button", { href: `#/t/${id}`, text: t("back_table") }))), info)));
  controls.start(0, stepArg(step));
  performance.mark("hexfolk-replay-drawn");
  replay.rest();
  return { ...controls, close: () => { controls.close(); strip.close(); } };
}
