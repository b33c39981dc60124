// A rating's history as a small SVG line chart (the profile page, docs/profiles.md). One entry of
// GET /api/players/{id}/ratings: {game, family, rating, mu, sigma, games, history: [{table_id,
// at, rating}]}. chartModel is the arithmetic (tested on its own); ratingChart draws it.
import { s } from "./dom.js";

export const CHART = { width: 320, height: 120, pad: 8, gutter: 26 };

/** Where the chart's points go: x by game number (evenly spaced, oldest left), y by rating
 * (the lowest at the bottom; a flat history sits in the middle), in a `width` x `height` box
 * with `pad` around and a `gutter` on the left for the labels; `path` is the SVG polyline's
 * points. An empty history gives no points. */
export function chartModel(entry, { width = CHART.width, height = CHART.height, pad = CHART.pad, gutter = CHART.gutter } = {}) {
  const hist = ((entry && entry.history) || []).filter((p) => Number.isFinite(p.rating));
  if (!hist.length) return { points: [], path: "", min: null, max: null, last: entry ? entry.rating : null };
  const values = hist.map((p) => p.rating);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min;
  const innerW = width - 2 * pad - gutter;
  const innerH = height - 2 * pad;
  const points = hist.map((p, i) => {
    const x = pad + gutter + (hist.length === 1 ? innerW / 2 : (innerW * i) / (hist.length - 1));
    const y = pad + (span === 0 ? innerH / 2 : innerH * (1 - (p.rating - min) / span));
    return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
  });
  return { points, path: points.map(([x, y]) => `${x},${y}`).join(" "), min, max, last: values[values.length - 1] };
}

/** The chart of `entry` as an SVG element, labelled `label` (the game and player count). */
export function ratingChart(entry, label) {
  const m = chartModel(entry);
  const { width, height, pad, gutter } = CHART;
  const round = (v) => (v === null ? "" : String(Math.round(v)));
  return s("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, preserveAspectRatio: "none" },
    s("title", {}, label),
    s("line", { x1: pad + gutter, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" }),
    m.points.length > 1 ? s("polyline", { points: m.path, class: "line", fill: "none" }) : null,
    m.points.map(([x, y]) => s("circle", { cx: x, cy: y, r: 3, class: "dot" })),
    s("text", { x: pad, y: m.min === m.max ? height / 2 + 4 : pad + 4, class: "max" }, round(m.max)),
    m.min !== m.max ? s("text", { x: pad, y: height - pad, class: "min" }, round(m.min)) : null);
}
