// The island's dice on the table page (issue 27): the two dice of the latest roll over the
// board, tumbling for a moment when a new roll comes in (still for prefers-reduced-motion), and
// the chart of the rolls so far. Everything comes from the log's `rolls` entries ({seat,
// total}, docs/log.md): the engine rolls the sum (IR-23, IR-35: its chance outcome is the total
// with the two dice's odds), so the two faces drawn are one way of making that sum, the same
// for every viewer (chosen by the roll's place in the log). No rule lives here.
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

/** The number of the 36 equally likely throws of two dice that make each sum. */
export const DICE_WAYS = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };

/** Two faces that make `total`, picked by `key` (the roll's index in the log). */
export function diceFaces(total, key) {
  const lo = Math.max(1, total - 6), hi = Math.min(6, total - 1);
  if (hi < lo) return [total, 0];
  const a = lo + (Math.abs(key * 7 + 3) % (hi - lo + 1));
  return [a, total - a];
}

// the pips of each face on a 3×3 grid (cells 0..8, row by row)
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** One die showing `n` (1..6) as pips. */
export function die(n) {
  const on = new Set(PIPS[n] || []);
  return h("span.die", { "data-face": n, "aria-hidden": "true" },
    Array.from({ length: 9 }, (_, i) => h(`span.pip${on.has(i) ? ".on" : ""}`)));
}

let lessMotion = null; // the system's wish for less motion, kept up to date by its `change` event

/** True when the person asked their system for less motion (read once, then told of changes:
 * asking `matchMedia` in the middle of a redraw may make the page lay itself out twice). */
export function reducedMotion() {
  if (lessMotion === null) {
    const q = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
    lessMotion = !!(q && q.matches);
    if (q) q.addEventListener("change", (e) => { lessMotion = e.matches; });
  }
  return lessMotion;
}

/** The latest `rolls` entry of `log` at or before index `upto` (exclusive): {i, seat, total}. */
export function lastRoll(log, upto = log.length) {
  for (let i = upto - 1; i >= 0; i--) {
    const l = log[i];
    if (l && l.form === "rolls") return { i, seat: l.params.seat, total: l.params.total };
  }
  return null;
}

/** How often each sum 2..12 was rolled in `log`: {"2": n, ...} (`rolls` entries). */
export function rollCounts(log) {
  const counts = {};
  for (let k = 2; k <= 12; k++) counts[k] = 0;
  for (const l of log) if (l && l.form === "rolls" && counts[l.params.total] !== undefined) counts[l.params.total]++;
  return counts;
}

const BURST_MS = 1500;

/** The dice box over the board: two dice, the sum and who rolled; `show` draws a roll. */
export class DiceBox {
  constructor() {
    this.el = h("div.dice-box#dice", { hidden: true, role: "img" });
    this.timer = null;
    this.tumbled = -Infinity; // when the dice last tumbled (performance.now())
  }

  /** Draw roll `r` ({i, seat, total}) by `who`; `animate` tumbles the dice first. */
  show(r, who, animate) {
    const [a, b] = diceFaces(r.total, r.i);
    const seven = r.total === 7;
    this.el.hidden = false;
    this.el.classList.toggle("seven", seven);
    this.el.dataset.total = String(r.total);
    this.el.dataset.faces = `${a} ${b}`;
    this.el.setAttribute("aria-label", t("fx.rolled", { who, total: r.total, a, b }));
    const land = () => {
      this.el.classList.remove("rolling");
      this.el.replaceChildren(h("span.dice-pair", {}, die(a), die(b)),
        h("span.dice-total", { text: String(r.total) }),
        h("span.dice-who", { text: seven ? `${who} · ${t("fx.robber")}` : who }));
    };
    clearInterval(this.timer);
    this.timer = null;
    // rolls that come in a burst (bots without delay, a page catching up) land at once
    const now = performance.now();
    if (!animate || now - this.tumbled < BURST_MS || reducedMotion()) { land(); return; }
    this.tumbled = now;
    // a short tumble: faces change a few times while the dice turn (CSS .rolling), then land
    let n = 0;
    this.el.classList.add("rolling");
    const spin = () => {
      const x = 1 + ((r.i + n * 5) % 6), y = 1 + ((r.i * 3 + n * 2 + 1) % 6);
      this.el.replaceChildren(h("span.dice-pair", {}, die(x), die(y)), h("span.dice-total", { text: "…" }), h("span.dice-who", { text: who }));
    };
    spin();
    this.timer = setInterval(() => {
      n++;
      if (n >= 6) { clearInterval(this.timer); this.timer = null; land(); } else spin();
    }, 90);
  }

  close() { clearInterval(this.timer); }
}

/** The chart of the rolls so far (`counts`, rollCounts) against the expected counts. */
export function rollsChart(counts) {
  const W = 360, H = 170, pad = 24;
  const keys = Array.from({ length: 11 }, (_, i) => i + 2);
  const n = keys.reduce((a, k) => a + counts[k], 0);
  const expected = (k) => (n * DICE_WAYS[k]) / 36;
  const max = Math.max(1, ...keys.map((k) => Math.max(counts[k], expected(k))));
  const bw = (W - pad * 2) / keys.length;
  const y = (v) => H - pad - (v / max) * (H - pad * 2);
  const bars = keys.map((k, i) => {
    const x = pad + i * bw;
    const c = counts[k];
    return s("g", { "data-sum": k, "data-rolled": c },
      s("rect", { x: x + 3, y: y(c), width: bw - 6, height: H - pad - y(c), class: `bar${k === 7 ? " seven" : ""}` }, s("title", {}, `${k}: ${c} (${t("expected")} ${expected(k).toFixed(1)})`)),
      s("text", { x: x + bw / 2, y: H - pad + 14, class: "axis" }, String(k)),
      c ? s("text", { x: x + bw / 2, y: y(c) - 3, class: "barval" }, String(c)) : null);
  });
  const line = keys.map((k, i) => `${i ? "L" : "M"}${pad + i * bw + bw / 2} ${y(expected(k)).toFixed(1)}`).join(" ");
  return s("svg", { viewBox: `0 0 ${W} ${H}`, class: "dice-chart", id: "rolls-chart", role: "img", "aria-label": t("fx.stats_label", { n }) },
    s("line", { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, class: "axisline" }), ...bars,
    n ? s("path", { d: line, class: "expected" }) : null,
    s("text", { x: W - pad, y: 12, class: "legend" }, `▮ ${t("rolled")}  — ${t("expected")}`));
}

/** The rolls-so-far dialog's body: how many were rolled, how many were 7, and the chart. */
export function rollsStats(log) {
  const counts = rollCounts(log);
  const n = Object.values(counts).reduce((a, b) => a + b, 0);
  return h("div.rolls-stats#rolls-stats", {},
    h("p.muted", { text: n ? t("fx.stats_count", { n, sevens: counts[7] }) : t("fx.stats_none") }),
    rollsChart(counts));
}
