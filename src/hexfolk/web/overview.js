// The end of a game: the IR-80 overview (/api/tables/{id}/summary) and the replay viewer
// (/api/tables/{id}/replay), stepping through the public views with a slider.
import { api } from "./api.js";
import { h, s, toast } from "./dom.js";
import { t } from "./i18n.js";
import { Board, describeBoard } from "./board.js";
import { seatLabel, swatch, resCard } from "./table.js";
import { RES } from "./legal.js";
import { islandLogLine, loadIslandLog, placeLabels } from "./island_log.js";
import { loadReplay, replayStepper, stepLines } from "./replay.js";
import { logText } from "./log_lines.js";
import { rematchPart, listenForRematch } from "./rematch.js";
import { timeCard } from "./turn_times.js";

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

function table(head, rows) {
  return h("div.scroll", { tabindex: "0" }, h("table", {}, h("thead", {}, h("tr", {}, head.map((x) => h("th", {}, x)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c, i) => (i === 0 ? h("th", {}, c) : h("td", {}, c))))))));
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
  const stop = tb.rematch_id ? null : listenForRematch(id, (nid, by) => {
    if (rematch.id === "rematch-note" && !by) return; // already shown (the push named who asked)
    const part = rematchPart(id, nid, by, true);
    rematch.replaceWith(part);
    rematch = part;
  });
  const vpRows = players.map((p) => [name(p.seat), ...["settlements", "cities", "vp_cards", "longest_road", "largest_army"].map((k) => p.vp_breakdown[k]), h("strong", { text: p.vp })]);
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
    timeCard((data.statistics || {}).time, name),
    h("div.card", {}, h("h2", { text: t("overview.dice") }), sm.dice ? diceChart(sm.dice) : null),
    h("div.card", {}, h("h2", { text: t("overview.vp") }), table([t("player"), t("vp.settlements"), t("vp.cities"), t("vp.cards"), t("award.lr"), t("award.la"), t("vp")], vpRows)),
    h("div.card", {}, h("h2", { text: t("overview.gained") }), table([t("player"), ...sources.map((k) => t(`src.${k}`))], gainRows)),
    h("div.card", {}, h("h2", { text: t("overview.lost") }), table([t("player"), ...sinks.map((k) => t(`sink.${k}`)), t("blocked"), t("shortage")], lossRows)),
    h("div.card", {}, h("h2", { text: t("overview.more") }), table([t("player"), t("sevens"), t("robber_moves"), t("steals"), t("stolen"), t("knights"), t("offers"), t("trades"), t("maritime"), t("dev_bought"), t("dev_played"), t("road"), t("turns")], otherRows)),
    h("div.card", {}, h("h2", { text: t("overview.hands") }), h("div.hands", {}, players.map((p) => h("div.hand-line", {}, name(p.seat), RES.map((r) => resCard(r, p.hand[RESNAME[r]]))))))));
  return stop ? { close: stop } : null;
}

export async function showReplay(app, id) {
  const loaded = await loadReplay(app, id);
  if (!loaded) return null;
  const { tb, geo, steps } = loaded;
  const seats = tb.seats;
  const svg = s("svg", { id: "board", role: "group", "aria-label": t("board"), "aria-describedby": "board-desc" });
  const desc = h("p#board-desc.sr");
  const info = h("div.replay-info");
  const board = new Board(svg, geo.geometry, (i) => seatLabel(seats, i));
  const place = placeLabels(geo.geometry);
  await loadIslandLog();
  const show = (i) => {
    const st = steps[i];
    board.update(st.observation, null);
    desc.textContent = describeBoard(st.observation, (k) => seatLabel(seats, k), place);
    const obs = st.observation;
    const say = (l) => islandLogLine(l, (k) => seatLabel(seats, k), place);
    const lines = (obs.log || []).slice(-6).map((l) => h("li", { text: say(l), title: logText(l) }));
    info.replaceChildren(
      h("section.panel", {}, h("p.replay-step", { text: i === 0 ? t("replay.start") : stepLines(st).map(say).join(" · ") }),
        h("ol.log", { "aria-label": t("log") }, lines)),
      h("section.panel", {}, h("h2", { text: t("players.title") }),
        h("ul.plist", {}, obs.players.map((p, k) => h("li.player", {}, h("div.pname", {}, swatch(k), h("strong", { text: seatLabel(seats, k) })), h("div.pstats", { text: `${t("vp")} ${p.vp !== undefined ? p.vp : p.visible_vp} · ${t("cards")} ${p.cards} · ${t("knights")} ${p.knights}` }))))));
  };
  // an arrow key on a zoomed board pans it, not the replay
  const stepper = replayStepper(steps, show, (e) => svg.contains(e.target) && svg.classList.contains("zoomed"));
  app.append(h("section.game.replay", {},
    h("div.board-wrap", {}, svg, board.controls(), desc),
    h("aside.side", {}, h("div.card", {}, h("h2", { text: t("replay") }),
      stepper.buttons, stepper.slider, stepper.label, h("p", {}, h("a.button", { href: `#/t/${id}/overview`, text: t("overview") }))), info)));
  stepper.start();
  return stepper;
}
