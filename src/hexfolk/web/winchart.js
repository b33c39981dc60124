// The win-chance curve of a finished game (issue 29 point 3, docs/analysis.md "In the
// browser"): one line per seat, x = the step (0: the start, N: the game's last step), y = the
// seat's chance 0..100%. The lines are an SVG stretched to the box (preserveAspectRatio none,
// strokes that do not scale), so the chart fills any width from a 360 px phone to a desktop;
// the words around it (the percent axis, the turns under it, the turning points' marks, the
// replay's marker) are HTML placed in percent of the box, so they keep their size and stay
// links and buttons of a finger's size. Draws only what it is given: no rule of either game.
import { h, s } from "./dom.js";

/** The dash of seat i's line (beside its colour, for eyes that do not tell the colours apart). */
const DASHES = ["", "7 4", "2 3", "9 3 2 3", "4 4", "12 4", "1 3", "6 2 1 2"];

/** Whether a colour ("#rrggbb") is too light to see on the chart's pale ground (Polania's
 * white): its line is then drawn over a dark casing. */
export function light(color) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(color));
  if (!m) return false;
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.75;
}

/** The points of the curve: the start (step 0) and each step's chances after it. */
export function curvePoints(an) {
  const pts = [{ step: 0, chances: an.start }];
  for (const st of an.steps || []) pts.push({ step: st.step, chances: st.chances });
  if (pts.length === 1) for (const tp of an.turns || []) pts.push({ step: tp.step, chances: tp.chances });
  return pts;
}

/** At most `most` points a line keeps of `pts` (every k-th, the last always kept): a curve of a
 * thousand steps is drawn with a few hundred points, more than any screen shows. */
function thin(pts, most) {
  if (pts.length <= most) return pts;
  const k = Math.ceil(pts.length / most);
  return pts.filter((p, i) => i % k === 0 || i === pts.length - 1);
}

/** The chart of analysis `an` (GameAnalysis JSON). `colorOf(i)`: seat i's colour; `label`:
 * the chart's accessible name; `ticks`: [{step, text}] under the x axis, named `xName`; `marks`: [{step,
 * seat, href, label, text}] drawn on the curve as links (the turning points); `compact`: the
 * replay's short strip (no axis words). Returns `{el, last, x(step), mark(step)}`: `mark`
 * places the replay's marker. */
export function winChart(an, { colorOf, label, ticks = [], xName = "", marks = [], compact = false }) {
  const pts = curvePoints(an);
  const last = Math.max(1, pts[pts.length - 1].step);
  const n = (an.start || []).length;
  const W = 1000, H = 100; // user units; stretched to the box
  const X = (step) => (step / last) * W;
  const Y = (c) => H - c * H;
  const drawn = thin(pts, 600);
  const grid = [0.25, 0.5, 0.75].map((c) => s("line", { x1: 0, x2: W, y1: Y(c), y2: Y(c), class: c === 0.5 ? "an-grid an-half" : "an-grid" }));
  const lines = Array.from({ length: n }, (_, i) => {
    const d = drawn.map((p, k) => `${k ? "L" : "M"}${X(p.step).toFixed(1)} ${Y(p.chances[i]).toFixed(2)}`).join(" ");
    const line = s("path", { d, class: "an-line", "data-seat": i, stroke: colorOf(i), "stroke-dasharray": DASHES[i % DASHES.length] || null });
    return light(colorOf(i)) ? [s("path", { d, class: "an-casing" }), line] : line;
  });
  const svg = s("svg", { class: "an-svg", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img", "aria-label": label, focusable: "false" },
    s("rect", { x: 0, y: 0, width: W, height: H, class: "an-bg" }), ...grid, ...lines.flat());
  const pct = (v) => `${(v * 100).toFixed(3)}%`;
  const marker = h("div.an-marker", { hidden: true, "aria-hidden": "true" });
  const plot = h("div.an-plot", {}, svg,
    ...marks.map((m) => h("a.an-mark", {
      href: m.href, "data-step": m.step, "aria-label": m.label, title: m.label,
      style: `left:${pct(m.step / last)};top:${pct(1 - (chanceAt(pts, m.step)[m.seat] ?? 0.5))}`,
    }, h("span.an-dot", { text: m.text, style: `border-color:${colorOf(m.seat)}` }))),
    marker);
  const kids = [plot];
  if (!compact) {
    kids.unshift(h("div.an-yaxis", { "aria-hidden": "true" }, ["100%", "50%", "0%"].map((x) => h("span", { text: x }))));
    kids.push(h("div.an-xname", { "aria-hidden": "true", text: xName || "" }),
      h("div.an-xaxis", { "aria-hidden": "true" }, ticks.map((tk) => h("span", { text: tk.text, style: `left:${pct(tk.step / last)}` }))));
  }
  const el = h(`div.an-chart${compact ? ".an-compact" : ""}`, {}, ...kids);
  return {
    el, last,
    /** The replay's marker at `step` (hidden for null). */
    mark(step) {
      marker.hidden = step === null || step === undefined;
      if (!marker.hidden) marker.style.left = pct(Math.max(0, Math.min(1, step / last)));
    },
    /** The step under a point `clientX` of the chart (the replay's strip goes there). */
    stepAt(clientX) {
      const r = plot.getBoundingClientRect();
      return Math.round(Math.max(0, Math.min(1, (clientX - r.left) / Math.max(1, r.width))) * last);
    },
    plot,
  };
}

/** The chances at `step` (the last point at or before it). */
export function chanceAt(pts, step) {
  let lo = 0, hi = pts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pts[mid].step <= step) lo = mid; else hi = mid - 1;
  }
  return pts[lo].chances;
}

/** A few turns to name under the x axis: about `most` of `an.turns`, evenly spread, each at
 * its last step (the first one only past the first tenth of the game: the axis's name is
 * there). */
export function turnTicks(an, most, text = String) {
  const turns = an.turns || [];
  if (!turns.length) return [];
  const k = Math.max(1, Math.ceil(turns.length / most));
  const last = Math.max(1, turns[turns.length - 1].step);
  return turns.filter((tp, i) => i % k === 0 && tp.turn > 0 && tp.step / last > 0.1 && tp.step / last < 0.95)
    .map((tp) => ({ step: tp.step, text: text(tp.turn) }));
}
