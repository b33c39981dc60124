// The analysis of a finished game as the pages show it (issue 29 point 3; docs/analysis.md,
// "In the browser"): the end-of-game card (the island's overview, Scythe's end panel) with the
// win-chance curve of every seat, luck and skill, the inaccuracies, mistakes and blunders, and
// the turning points, each a link into the replay at its step; and the replay's strip (the
// curve under the scrubber, a marker at the step shown, each seat's chance at that step).
//
// What it reads (and nothing else): GET /api/tables/{id}/analysis → {status: "queued" |
// "running" | "ready" | "failed", progress: 0..1, analysis: the GameAnalysis JSON of `hexfolk
// analyze --json` or null, error}; 404 (no such table, or a server without analyses) and 409
// (`not_finished`) show nothing. While the server works, its progress shows; the table's socket
// pushes {type: "analysis", status, progress} (`push(msg)`), and on "ready" the page fetches the
// analysis (on "failed", the error). A page that hears no push asks again every POLL_MS while
// it waits.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t, lang } from "./i18n.js";
import { winChart, turnTicks, curvePoints, chanceAt } from "./winchart.js";

/** How often a page asks for the analysis while it is queued or running and no push came (ms;
 * `window.__hexfolkAnalysisPollMs` sets another, for the tests of the push alone). */
export const POLL_MS = 5000;
const pollMs = () => window.__hexfolkAnalysisPollMs || POLL_MS;
/** The turning points listed (the analysis gives 5: docs/analysis.md). */
const TURNING = 5;
/** The turns named under the overview's chart (at most). */
const TICKS = 5;

/** The address of step `step` of table `id`'s replay (main.js: #/t/<id>/replay/<step>). */
export const replayHref = (id, step) => `#/t/${id}/replay/${step}`;

/** A chance 0..1 as a percentage in the page's language. */
export function percent(x) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(x);
}

/** A change of chance 0..1 in percentage points, with its sign ("+12 pts"). */
export function points(x) {
  const n = Math.round(x * 100);
  return t("an.pts", { n: `${n > 0 ? "+" : n < 0 ? "−" : "±"}${Math.abs(n)}` });
}

/** The analysis of table `id` as it arrives: `draw(state)` is called with each answer of the
 * GET ({status, progress, analysis, error}) and with each push; null when the table has none
 * (404, 409). Returns {push(msg), close()}. */
export function followAnalysis(id, draw, { poll = true } = {}) {
  let closed = false;
  let timer = null;
  let ready = false;
  let asking = false;
  let again = false; // asked while a request was on its way (a push's "ready"): ask once more
  const ask = async () => {
    if (closed) return;
    if (asking) { again = true; return; }
    asking = true;
    again = false;
    clearTimeout(timer);
    let got;
    try { got = await api("GET", `/api/tables/${id}/analysis`); } catch (err) {
      asking = false;
      if (closed) return;
      if (err.status === 404 || err.status === 409) { draw(null); return; }
      draw({ status: "failed", progress: 0, analysis: null, error: err.message, lost: true });
      return;
    }
    asking = false;
    if (closed) return;
    ready = got.status === "ready" && !!got.analysis;
    draw(got);
    if (!ready && again) ask();
    else if (!ready && got.status !== "failed" && poll) timer = setTimeout(ask, pollMs());
  };
  ask();
  return {
    /** A push of the table's socket ({type: "analysis", status, progress}). */
    push(msg) {
      if (closed || ready) return;
      if (msg.status === "ready" || msg.status === "failed") { ask(); return; } // the analysis, or the error
      draw({ status: msg.status, progress: msg.progress, analysis: null, error: null });
      if (poll) { clearTimeout(timer); timer = setTimeout(ask, pollMs()); }
    },
    close() { closed = true; clearTimeout(timer); },
  };
}

/** The progress while the server analyses the game, or its failure, calmly. */
function waiting(state, cls) {
  if (state.status === "failed") {
    return h(`p.an-failed.muted${cls}`, { role: "status", text: state.error ? t("an.failed_why", { why: state.error }) : t("an.failed") });
  }
  const p = Math.max(0, Math.min(1, Number(state.progress) || 0));
  const text = state.status === "queued" ? t("an.queued") : t("an.running", { pct: percent(p) });
  return h(`div.an-progress${cls}`, { role: "status" },
    h("span", { text }),
    h("progress#an-progress", { max: 1, value: p, "aria-label": t("an.title") }));
}

/** Seat i's name with its mark (`badge(i)`: the game's swatch or faction badge). */
const seatName = (i, name, badge) => h("span.pn", {}, badge(i), h("span", { text: name(i) }));

/** The luck/skill bar of a seat: two bars from the middle (luck above, skill below), a whole
 * half for 100 points of chance. */
function splitBar(seat) {
  const bar = (v, cls) => h(`span.an-bar.${cls}`, { style: `${v >= 0 ? "left" : "right"}:50%;width:${Math.min(50, Math.abs(v) * 50).toFixed(1)}%` });
  return h("span.an-split", { "aria-hidden": "true" }, h("span.an-axis"), bar(seat.luck, "luck"), bar(seat.skill, "skill"));
}

/** Each seat's luck and skill, its result, and its inaccuracies, mistakes and blunders. */
function seatList(an, name, badge) {
  return h("ul.an-seats#an-seats", {}, (an.seats || []).map((x) => h("li.an-seat", { "data-seat": x.seat },
    h("div.an-who", {}, seatName(x.seat, name, badge), h("span.muted", { text: t("an.start_final", { start: percent(x.start), final: percent(x.final) }) })),
    h("div.an-ls", {},
      h("span.an-luck", { "data-value": x.luck, text: t("an.luck", { pts: points(x.luck) }) }),
      h("span.an-skill", { "data-value": x.skill, text: t("an.skill", { pts: points(x.skill) }) }),
      splitBar(x)),
    h("div.an-errs", {},
      h("span.an-n.inaccuracy", { "data-n": x.inaccuracies, text: t("an.inaccuracies", { n: x.inaccuracies }) }),
      h("span.an-n.mistake", { "data-n": x.mistakes, text: t("an.mistakes", { n: x.mistakes }) }),
      h("span.an-n.blunder", { "data-n": x.blunders, text: t("an.blunders", { n: x.blunders }) }),
      h("span.muted", { text: t("an.decisions", { n: x.decisions, lost: points(-x.lost_mean) }) })))));
}

/** A turning point in words: who moved (or chance), the turn, and the largest gain and loss. */
function turningWords(tp, name) {
  const who = tp.kind === "chance" ? t("an.by_chance") : t("an.by_seat", { who: name(tp.seat) });
  const deltas = (tp.delta || []).map((d, i) => [d, i]);
  const up = deltas.reduce((a, b) => (b[0] > a[0] ? b : a), [0, null]);
  const down = deltas.reduce((a, b) => (b[0] < a[0] ? b : a), [0, null]);
  const moves = [up, down].filter(([d, i]) => i !== null && Math.round(d * 100) !== 0).map(([d, i]) => `${name(i)} ${points(d)}`);
  return { who, moves: moves.join(" · ") };
}

/** The turning points, largest first, each a link to the replay at its step. */
function turningList(an, id, name) {
  const tps = (an.turning_points || []).slice(0, TURNING);
  if (!tps.length) return h("p.muted", { text: t("an.no_turning") });
  return h("ol.an-turning#an-turning", {}, tps.map((tp) => {
    const w = turningWords(tp, name);
    return h("li", { "data-step": tp.step },
      h("a.an-tp", { href: replayHref(id, tp.step), "data-step": tp.step },
        h("strong", { text: t("an.step_turn", { step: tp.step, turn: tp.turn }) }),
        h("span", { text: ` ${w.who}` })),
      h("span.an-swing", { text: w.moves }));
  }));
}

/** The seat whose chance moved most at turning point `tp` (its mark sits on that seat's line). */
const moved = (tp) => (tp.delta || []).reduce((best, d, i) => (Math.abs(d) > Math.abs(tp.delta[best] || 0) ? i : best), 0);

/** The legend of the chart: each seat's mark, name and final chance. */
function legend(an, name, badge, colorOf) {
  return h("ul.an-legend", {}, (an.start || []).map((_, i) => h("li", { "data-seat": i },
    h("span.an-key", { style: `border-top-color:${colorOf(i)}`, "aria-hidden": "true" }), seatName(i, name, badge))));
}

/** The end-of-game card of table `id`: `name(i)`, `badge(i)` and `colorOf(i)` name, mark and
 * colour seat i as the game does. Returns {el, push(msg), close()}; the card stays hidden when
 * the table has no analysis (a server without them). */
export function analysisCard(id, { name, badge, colorOf }) {
  const body = h("div.an-body");
  const el = h("section.card.an-card#analysis", { hidden: true, "aria-labelledby": "an-title" },
    h("h2#an-title", { text: t("an.title") }), body);
  const follow = followAnalysis(id, (state) => {
    if (!state) { el.hidden = true; return; }
    el.hidden = false;
    el.dataset.status = state.status;
    if (state.status !== "ready" || !state.analysis) { body.replaceChildren(waiting(state, "")); return; }
    const an = state.analysis;
    const marks = (an.turning_points || []).slice(0, TURNING).map((tp, k) => ({
      step: tp.step, seat: moved(tp), href: replayHref(id, tp.step), text: String(k + 1),
      label: `${t("an.step_turn", { step: tp.step, turn: tp.turn })}: ${turningWords(tp, name).moves}`,
    }));
    const chart = winChart(an, { colorOf, label: t("an.chart_label"), marks, ticks: turnTicks(an, TICKS), xName: t("an.turns") });
    chart.el.id = "an-chart";
    body.replaceChildren(
      h("p.muted.an-lead", { text: t("an.lead") }),
      legend(an, name, badge, colorOf), chart.el,
      h("h3", { text: t("an.luck_skill") }), h("p.muted.an-note", { text: t("an.luck_skill_note", thresholds(an)) }),
      seatList(an, name, badge),
      h("h3", { text: t("an.turning") }), turningList(an, id, name));
  });
  return { el, push: (msg) => follow.push(msg), close: () => follow.close() };
}

/** The thresholds in words ({inaccuracy, mistake, blunder} as points). */
function thresholds(an) {
  const th = an.thresholds || { inaccuracy: 0.05, mistake: 0.1, blunder: 0.2 };
  return { inaccuracy: Math.round(th.inaccuracy * 100), mistake: Math.round(th.mistake * 100), blunder: Math.round(th.blunder * 100) };
}

/** The replay's strip of table `id` under its scrubber: the curve, a marker at the step shown
 * (`at(i)`), and each seat's chance at that step with the step's verdict when it was a
 * decision that lost chance. A tap on the curve calls `go(step)`. Returns {el, at(i), close()}. */
export function replayStrip(id, { name, badge, colorOf, go }) {
  const box = h("div.an-strip-chart");
  const now = h("p.an-now#an-now", { "aria-live": "off" });
  const el = h("div.an-strip#an-strip", { hidden: true }, h("h3.an-strip-title", { text: t("an.title") }), box, now);
  let chart = null, an = null, pts = null, shown = 0;
  const drawNow = () => {
    if (!an) return;
    const ch = chanceAt(pts, shown);
    const st = shown > 0 ? (an.steps || [])[shown - 1] : null;
    const verdict = st && st.kind === "decision" && st.label
      ? h("span.an-verdict", { "data-label": st.label, text: t("an.verdict", { who: name(st.seat), what: t(`an.label.${st.label}`), pts: points(-st.lost) }) }) : null;
    now.replaceChildren(h("span.an-now-lead", { text: t("an.at_step") }),
      ...ch.map((c, i) => h("span.an-chance", { "data-seat": i, "data-chance": c }, badge(i), h("span", { text: `${name(i)} ${percent(c)}` }))),
      ...(verdict ? [verdict] : []));
  };
  const follow = followAnalysis(id, (state) => {
    if (!state) { el.hidden = true; return; }
    el.hidden = false;
    el.dataset.status = state.status;
    if (state.status !== "ready" || !state.analysis) { box.replaceChildren(waiting(state, ".an-small")); now.replaceChildren(); return; }
    an = state.analysis;
    pts = curvePoints(an);
    chart = winChart(an, { colorOf, label: t("an.chart_label"), compact: true });
    chart.plot.addEventListener("click", (e) => go(chart.stepAt(e.clientX)));
    box.replaceChildren(chart.el);
    chart.mark(shown);
    drawNow();
  });
  return {
    el,
    at(i) { shown = i; if (chart) chart.mark(i); drawNow(); },
    close: () => follow.close(),
  };
}
