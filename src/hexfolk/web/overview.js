// The end of a game: the IR-80 overview (/api/tables/{id}/summary) and the replay viewer
// (/api/tables/{id}/replay), stepping through the public views with a slider.
import { api } from "./api.js";
import { h, s, toast } from "./dom.js";
import { t } from "./i18n.js";
import { Board, describeBoard } from "./board.js";
import { seatLabel, swatch, resCard } from "./table.js";
import { RES } from "./legal.js";
import { islandLogLine, loadIslandLog, placeLabels } from "./island_log.js";
import { loadReplay, replayControls, stepBox } from "./replay.js";
import { logText } from "./log_lines.js";
import { rematchPart, listenForRematch } from "./rematch.js";
import { timeCard } from "./turn_times.js";
import { SEAT_COLORS } from "./board.js";
import { analysisCard, replayStrip } from "./analysis.js";
import { stepArg } from "./replay.js";

const RESNAME = { l: "lumber", b: "brick", w: "wool", g: "grain", o: "ore" };

function diceChart(dice) {
  const W = 360, H = 170, pad = 24;
  const keys = Array.from({ length: 11 }, (_, i) => String(i + 2));
  const max = Math.max(1, ...keys.map((k) => Math.max(dice[k].rolled, dice[k].expected)));
  const bw = (W - pad * 2) / keys.length;
  const y = (v) => H - pad - (v / max) * (H - pad * 2);
  const bars = keys.map((k, i) => {
    const x = pad + i * bw;
    const d = dice[k];
    return s("g", {},
      s("rect", { x: x + 3, y: y(d.rolled), width: bw - 6, height: H - pad - y(d.rolled), class: "bar" }, s("title", {}, `${k}: ${d.rolled} (${t("expected")} ${d.expected})`)),
      s("text", { x: x + bw / 2, y: H - pad + 14, class: "axis" }, k),
      d.rolled ? s("text", { x: x + bw / 2, y: y(d.rolled) - 3, class: "barval" }, d.rolled) : null);
  });
  const line = keys.map((k, i) => `${i ? "L" : "M"}${pad + i * bw + bw / 2} ${y(dice[k].expected)}`).join(" ");
  return s("svg", { viewBox: `0 0 ${W} ${H}`, class: "dice-chart", id: "dice-chart", role: "img", "aria-label": t("overview.dice") },
    s("line", { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, class: "axisline" }), ...bars,
    s("path", { d: line, class: "expected" }),
    s("text", { x: W - pad, y: 12, class: "legend" }, `▮ ${t("rolled")}  — ${t("expected")}`));
}

/** A table of `rows` under `head`, scrolled inside its own box when wider than the page (the
 * player's column stays in view: style.css). */
function table(head, rows, id) {
  return h("div.scroll.ov-scroll", { tabindex: "0" }, h(id ? `table#${id}` : "table", {}, h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c, i) => (i === 0 ? h("th", {}, c) : h("td", {}, c))))))));
}

/** The sources of a seat's points (IR-1), in the VP table's order. */
const VP_PARTS = ["settlements", "cities", "vp_cards", "longest_road", "largest_army"];

/** A VP table cell: how many of part `k` seat `p` had at the end (the summary's `vp_counts`:
 * settlements and cities on the board, VP cards, an award held) and the points they made
 * (`vp_breakdown`); the points alone from an older summary without counts. */
function vpCell(p, k) {
  const points = (p.vp_breakdown || {})[k] || 0;
  const counts = p.vp_counts;
  const vp = h("small.vp-points", { text: t("vp.n", { n: points }) });
  if (!counts) return h("span.vp-part", { "data-part": k, "data-vp": points }, vp);
  const n = counts[k] || 0;
  const award = k === "longest_road" || k === "largest_army";
  return h("span.vp-part", { "data-part": k, "data-count": n, "data-vp": points },
    h("span.vp-count", { text: award ? (n ? "✓" : "—") : String(n) }), n || !award ? vp : null);
}

const sum = (o) => Object.values(o || {}).reduce((a, b) => a + b, 0);

export async function showOverview(app, id) {
  let data, tb;
  try { [data, tb] = await Promise.all([api("GET", `/api/tables/${id}/summary`), api("GET", `/api/tables/${id}`)]); } catch (err) {
    app.append(h("section.card.narrow", {}, h("h2", { text: t("overview") }), h("p", { text: err.message }), h("a.button", { href: `#/t/${id}`, text: t("back") })));
    return null;
  }
  const sm = (data.result && data.result.summary) || {};
  const seats = tb.seats;
  const name = (i) => h("span.pn", {}, swatch(i), seatLabel(seats, i));
  const players = sm.players || [];
  const winner = sm.winner;
  // the rematch (rematch.js): the button, or the way to the new table, pushed when it is made
  let rematch = rematchPart(id, tb.rematch_id, null, true);
  // the analysis (analysis.js): its progress, then the curve, luck and skill, turning points
  const analysis = analysisCard(id, { name: (i) => seatLabel(seats, i), badge: swatch, colorOf: (i) => SEAT_COLORS[i] });
  // the socket: the rematch push, and the analysis's progress (a socket even after a rematch)
  const stop = listenForRematch(id, (nid, by) => {
    if (rematch.id === "rematch-note" && (!by || tb.rematch_id === nid)) return; // already shown
    const part = rematchPart(id, nid, by, true);
    rematch.replaceWith(part);
    rematch = part;
  }, (msg) => { if (msg.type === "analysis") analysis.push(msg); });
  const vpRows = players.map((p) => [name(p.seat), h("strong.vp-total", { text: p.vp }), ...VP_PARTS.map((k) => vpCell(p, k))]);
  const sources = players.length ? Object.keys(players[0].gained) : [];
  const sinks = players.length ? Object.keys(players[0].lost) : [];
  const gainRows = players.map((p) => [name(p.seat), ...sources.map((k) => sum(p.gained[k]))]);
  const lossRows = players.map((p) => [name(p.seat), ...sinks.map((k) => sum(p.lost[k])), p.blocked_by_robber, p.lost_to_shortage]);
  const otherRows = players.map((p) => [name(p.seat), p.sevens, p.robber_moves, p.steals_made, p.steals_suffered, p.knights, p.offers, p.trades,
    Object.entries(p.maritime_lots_by_ratio).map(([k, v]) => `${k}×${v}`).join(" "), sum(p.dev_bought), sum(p.dev_played), p.road_length, p.turns]);
  app.append(h("section.overview", {},
    h("div.card", {},
      h("h1", { text: winner !== null && winner !== undefined ? t("winner", { who: seatLabel(seats, winner) }) : t("no_winner") }),
      h("p", { text: t("overview.turns", { turns: sm.turns, rounds: sm.rounds }) }),
      h("div.row", {},
        h("a.button", { href: `#/t/${id}`, text: t("back_table") }),
        h("a.button#to-replay", { href: `#/t/${id}/replay`, text: t("replay") }),
        h("a.button#download-record", { href: `/api/tables/${id}/record`, download: `hexfolk-${id}.json`, text: t("record") }),
        rematch)),
    analysis.el,
    timeCard((data.statistics || {}).time, name),
    h("div.card", {}, h("h2", { text: t("overview.dice") }), sm.dice ? diceChart(sm.dice) : null),
    h("div.card", {}, h("h2", { text: t("overview.vp") }), table([t("player"), t("vp.total"), t("vp.settlements"), t("vp.cities"), t("vp.cards"), t("award.lr"), t("award.la")], vpRows, "vp-table")),
    h("div.card", {}, h("h2", { text: t("overview.gained") }), table([t("player"), ...sources.map((k) => t(`src.${k}`))], gainRows)),
    h("div.card", {}, h("h2", { text: t("overview.lost") }), table([t("player"), ...sinks.map((k) => t(`sink.${k}`)), t("blocked"), t("shortage")], lossRows)),
    h("div.card", {}, h("h2", { text: t("overview.more") }), table([t("player"), t("sevens"), t("robber_moves"), t("steals"), t("stolen"), t("knights"), t("offers"), t("trades"), t("maritime"), t("dev_bought"), t("dev_played"), t("road"), t("turns")], otherRows)),
    h("div.card", {}, h("h2", { text: t("overview.hands") }), h("div.hands", {}, players.map((p) => h("div.hand-line", {}, name(p.seat), RES.map((r) => resCard(r, p.hand[RESNAME[r]]))))))));
  return { close: () => { stop(); analysis.close(); } };
}

/** The replay viewer of a finished island table (`table`: its JSON, when the page has it):
 * opens on the dealt map (step 1; step 0 is the empty sea before the deal), or at step `step`
 * of the address (#/t/<id>/replay/<step>), as soon as the first steps arrive (replay.js loads
 * the others behind it). Under its scrubber: the analysis's curve (analysis.js). */
export async function showReplay(app, id, table, step) {
  const [loaded] = await Promise.all([loadReplay(app, id, table), loadIslandLog()]);
  if (!loaded) return null;
  const { tb, geo, replay, steps } = loaded;
  const seats = tb.seats;
  const svg = s("svg", { id: "board", role: "group", "aria-label": t("board"), "aria-describedby": "board-desc" });
  const desc = h("p#board-desc.sr");
  const info = h("div.replay-info");
  const board = new Board(svg, geo.geometry, (i) => seatLabel(seats, i));
  const place = placeLabels(geo.geometry);
  const say = (l) => islandLogLine(l, (k) => seatLabel(seats, k), place);
  const strip = replayStrip(id, { name: (k) => seatLabel(seats, k), badge: swatch, colorOf: (k) => SEAT_COLORS[k], go: (k) => { controls.pause(); controls.go(k); } });
  const show = (i) => {
    const st = steps[i];
    const obs = st.observation;
    strip.at(i);
    board.update(obs, null);
    desc.textContent = describeBoard(obs, (k) => seatLabel(seats, k), place);
    const lines = (obs.log || []).slice(-6).map((l) => h("li", { text: say(l), title: logText(l) }));
    info.replaceChildren(
      stepBox(i, st, say, (k) => seatLabel(seats, k)),
      h("section.panel", {}, h("h2", { text: t("players.title") }),
        h("ul.plist", {}, obs.players.map((p, k) => h("li.player", { "data-seat": k }, h("div.pname", {}, swatch(k), h("strong", { text: seatLabel(seats, k) })), h("div.pstats", { text: `${t("vp")} ${p.vp !== undefined ? p.vp : p.visible_vp} · ${t("cards")} ${p.cards} · ${t("knights")} ${p.knights}` }))))),
      h("section.panel", {}, h("h2", { text: t("log") }), h("ol.log", { "aria-label": t("log"), tabindex: "0" }, lines)));
  };
  // an arrow key on a zoomed board pans it, not the replay
  const controls = replayControls(replay, show, (k) => seatLabel(seats, k), (e) => svg.contains(e.target) && svg.classList.contains("zoomed"));
  app.append(h("section.game.replay", {},
    h("div.board-wrap", {}, svg, board.controls(), desc),
    h("aside.side", {}, h("div.card.replay-card", {}, h("h2", { text: t("replay") }),
      controls.el, strip.el, h("p", {}, h("a.button", { href: `#/t/${id}/overview`, text: t("overview") }))), info)));
  // step 0 is before the map is dealt (phase "layout"): an empty sea. The replay opens on the
  // dealt map (step 1); Home still goes back to the start.
  controls.start(steps.length > 1 && steps[0].observation.phase === "layout" ? 1 : 0, stepArg(step));
  performance.mark("hexfolk-replay-drawn");
  replay.rest();
  return { ...controls, close: () => { controls.close(); strip.close(); } };
}
