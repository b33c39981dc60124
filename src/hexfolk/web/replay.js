// What both games' replay viewers share (overview.js for the island, scythe/end.js for Scythe):
// loading a finished table's public steps (/api/tables/{id}/replay with `reveal=false`: a
// spectator's view of each step, never a hidden card) and the controls that walk them: play and
// pause at a chosen speed, first, back, forward, last, a slider, a jump to a turn, and the keys
// (Space, the arrows, Home and End), with their help on the page.
//
// Opening is quick however long the game (issue 27: 2.4 s for 700 steps, all pages loaded before
// the first draw): the first few steps come with the geometry, the replay opens at step 0, and
// the rest arrives page by page behind it while it is watched; a jump past the steps loaded so
// far lands when they arrive.
import { diceFaces, die } from "./dice.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { logEntry } from "./log_lines.js";

/** The speeds offered (steps per second at 1× is 1000 / STEP_MS). */
export const SPEEDS = [0.5, 1, 2, 4, 8];
/** A step's time on screen at 1× (ms). */
export const STEP_MS = 1000;
const FIRST_PAGE = 30; // the steps asked for with the first draw (cheap: the server replays from 0); index.html asks for the same
const PAGE = 200; // then pages of the server's largest size

/** The public steps of a finished table, loaded page by page (`log=new`: each step carries the
 * log lines changed since the step before, kept once here; a step's `observation.log` is cut
 * from them when it is read). `list` grows as pages arrive; `total` is the game's step count
 * (step 0, the start, included); `onPage` listeners hear each page. */
export class ReplaySteps {
  constructor(id) {
    this.id = id;
    this.list = [];
    this.total = 1;
    this.lines = [];
    this.listeners = [];
    this.closed = false;
    this.error = null;
  }

  get done() { return this.list.length >= this.total; }

  onPage(fn) { this.listeners.push(fn); }

  /** Steps `start..start+limit-1` appended (pages come in order). */
  async page(start, limit) {
    this.take(await api("GET", `/api/tables/${this.id}/replay?start=${start}&limit=${limit}&reveal=false&log=new`));
  }

  /** A page of steps (the replay endpoint's answer, the next in order) appended. */
  take(page) {
    this.total = page.steps_total + 1;
    for (const st of page.steps) {
      if (st.log_start === undefined) { // a whole log (a server without `log=new`)
        if (st.observation && st.observation.log) st.observation.log = st.observation.log.map(logEntry);
        continue;
      }
      if (st.log_start < this.lines.length) this.lines = this.lines.slice(0, st.log_start); // older lines changed: a new list
      for (const line of st.log) this.lines.push(logEntry(line));
      const [all, end] = [this.lines, this.lines.length];
      Object.defineProperty(st.observation, "log", { get: () => all.slice(0, end), enumerable: true });
      delete st.log;
    }
    this.list.push(...page.steps);
    if (!page.steps.length) this.total = this.list.length; // nothing more to come
    for (const fn of this.listeners) fn(this);
  }

  /** Every step after the first page, in the background (stops when closed). */
  async rest() {
    try {
      while (!this.closed && !this.done) await this.page(this.list.length, PAGE);
    } catch (err) {
      this.error = err;
      this.total = this.list.length;
      for (const fn of this.listeners) fn(this);
    }
  }

  close() { this.closed = true; }
}

/** The table (given by the page, else fetched), its geometry and the replay's first steps;
 * null (the reason shown in `app`) when any of them cannot be loaded. `replay.rest()` loads
 * the other steps. */
export async function loadReplay(app, id, table) {
  const replay = new ReplaySteps(id);
  const early = opening(id);
  const geometry = () => api("GET", `/api/tables/${id}/geometry`);
  const first = () => replay.page(0, FIRST_PAGE);
  let tb, geo;
  try {
    [tb, geo] = await Promise.all([table || api("GET", `/api/tables/${id}`),
      early ? early.geometry.then((g) => g || geometry()) : geometry(),
      early ? early.first.then((p) => (p ? replay.take(p) : first())) : first()]);
  } catch (err) {
    app.append(h("section.card.narrow", {}, h("h2", { text: t("replay") }), h("p", { text: err.message }), h("a.button", { href: `#/t/${id}`, text: t("back") })));
    return null;
  }
  return { tb, geo, replay, steps: replay.list };
}

/** What index.html asked for when the page opened on `#/t/<id>/replay` ({geometry, first}:
 * promises of the answers, null when refused), once; null for another table or route. */
function opening(id) {
  const early = window.__hexfolkReplayOpening;
  window.__hexfolkReplayOpening = null;
  return early && early.id === id ? early : null;
}

/** The log lines step `st` wrote (its `observation.log` from `log_start`; the last line when
 * the server sent whole logs): what the replay says of the step, in the page's language, as
 * the log says it (places by their labels, the dice with their numbers), never the action's
 * text, which names places by id. */
export function stepLines(st) {
  const log = (st.observation && st.observation.log) || [];
  return st.log_start === undefined ? log.slice(-1) : log.slice(st.log_start);
}

/** The step of a replay's address (#/t/<id>/replay/<step>): a whole number ≥ 0, else null. */
export function stepArg(text) {
  return /^\d{1,7}$/.test(String(text ?? "")) ? Number(text) : null;
}

/** The turn a step's view is in (both games' views number their turns: `turn`). */
export const turnOf = (st) => Number((st.observation && st.observation.turn) || 0);

/** The seat whose turn a step's view is in (`active`), or null. */
export const activeOf = (st) => (st.observation && Number.isInteger(st.observation.active) ? st.observation.active : null);

/** The first step loaded whose view is in turn `n` or later; -1 when none is loaded yet. */
export function firstStepOfTurn(steps, n) {
  return steps.findIndex((st) => turnOf(st) >= n);
}

/** The controls over `replay` (a ReplaySteps): `show(i)` draws step i. `seatName(i)` names
 * the seat whose turn it is; `ignoreKey(e)` skips a key meant for something else (an arrow on
 * a zoomed board). Returns `{el, go, play, pause, close}`; the keys are listened to from
 * `start(first)` on, which shows step `first` (0 by default). */
export function replayControls(replay, show, seatName, ignoreKey = () => false) {
  const steps = replay.list;
  let at = 0; // the step shown
  let want = null; // a step asked for and not loaded yet
  let timer = null;
  let speed = 1;
  const last = () => replay.total - 1;
  const slider = h("input#replay-slider", { type: "range", min: 0, max: last(), value: 0, "aria-label": t("replay.step") });
  const label = h("span#replay-label");
  const turnLabel = h("span#replay-turn-label");
  const loading = h("span#replay-loading.muted");
  const playBtn = h("button#replay-play.primary", { type: "button", onclick: () => toggle() });
  const turnInput = h("input#replay-turn", { type: "number", min: 0, step: 1, inputmode: "numeric", "aria-label": t("replay.turn_input") });
  const speedSel = h("select#replay-speed", { "aria-label": t("replay.speed") },
    SPEEDS.map((x) => h("option", { value: String(x), text: `${x}×`, selected: x === speed })));
  speedSel.addEventListener("change", () => { speed = Number(speedSel.value); if (timer !== null) schedule(); });

  const playing = () => timer !== null;
  const drawPlay = () => {
    const on = playing();
    playBtn.textContent = on ? `⏸ ${t("replay.pause")}` : `▶ ${t("replay.play")}`;
    playBtn.setAttribute("aria-pressed", on ? "true" : "false");
    playBtn.dataset.playing = on ? "1" : "0";
  };
  const view = (i) => {
    at = i;
    slider.value = i;
    label.textContent = t("replay.of", { i, n: last() });
    const st = steps[i];
    const who = activeOf(st);
    turnLabel.textContent = t("replay.turn_of", { turn: turnOf(st), who: who === null ? "" : seatName(who) });
    turnInput.placeholder = String(turnOf(st));
    show(i);
  };
  /** Show step i (clamped); past the steps loaded, as soon as it arrives. */
  const go = (i) => {
    const k = Math.max(0, Math.min(last(), i));
    if (k >= steps.length) { want = k; drawLoading(); return; }
    want = null;
    view(k);
    drawLoading();
  };
  const drawLoading = () => {
    loading.textContent = replay.error ? replay.error.message
      : replay.done ? "" : t("replay.loading", { n: steps.length, total: replay.total });
    slider.max = last();
    turnInput.max = steps.length ? turnOf(steps[steps.length - 1]) : 0;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(tick, STEP_MS / speed);
  };
  const tick = () => {
    if (at >= last()) { pause(); return; }
    if (at + 1 < steps.length) view(at + 1);
    if (at >= last()) pause(); else schedule(); // a step not loaded yet: wait for it
  };
  const play = () => {
    if (at >= last()) view(0); // from the start again
    want = null;
    schedule();
    drawPlay();
  };
  const pause = () => { clearTimeout(timer); timer = null; drawPlay(); };
  const toggle = () => (playing() ? pause() : play());
  /** A move asked by hand pauses the playing (as a video's frame step does). */
  const step = (i) => { pause(); go(i); };
  const jumpTurn = () => {
    const n = Number(turnInput.value);
    if (!Number.isFinite(n) || turnInput.value === "") return;
    const i = firstStepOfTurn(steps, n);
    if (i >= 0) step(i);
    else if (!replay.done) { pause(); want = { turn: n }; drawLoading(); }
    else step(last());
  };
  turnInput.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); jumpTurn(); } });
  slider.addEventListener("input", () => step(Number(slider.value)));
  replay.onPage(() => {
    if (want !== null && typeof want === "object") {
      const i = firstStepOfTurn(steps, want.turn);
      if (i >= 0 || replay.done) { want = null; view(i >= 0 ? i : steps.length - 1); }
    } else if (want !== null && want < steps.length) {
      const k = want;
      want = null;
      view(k);
    }
    drawLoading();
  });

  const buttons = h("div.row.replay-buttons", {},
    h("button#replay-first", { type: "button", text: "|◀", title: t("replay.first"), "aria-label": t("replay.first"), onclick: () => step(0) }),
    h("button#replay-prev", { type: "button", text: "◀", title: t("replay.prev"), "aria-label": t("replay.prev"), onclick: () => step(at - 1) }),
    playBtn,
    h("button#replay-next", { type: "button", text: "▶", title: t("replay.next"), "aria-label": t("replay.next"), onclick: () => step(at + 1) }),
    h("button#replay-last", { type: "button", text: "▶|", title: t("replay.last"), "aria-label": t("replay.last"), onclick: () => step(last()) }));
  const kbd = (...keys) => keys.map((k) => h("kbd", { text: k }));
  const help = h("p#replay-keys.replay-keys", {},
    h("span", {}, ...kbd(t("replay.key_space")), ` ${t("replay.key_play")}`),
    h("span", {}, ...kbd("←", "→"), ` ${t("replay.key_step")}`),
    h("span", {}, ...kbd("Home", "End"), ` ${t("replay.key_ends")}`));
  const el = h("div.replay-controls", {},
    buttons,
    h("div.row.replay-speed", {}, h("label", {}, h("span", { text: t("replay.speed") }), speedSel),
      h("label.replay-jump", {}, h("span", { text: t("replay.turn_input") }), turnInput),
      h("button#replay-go", { type: "button", text: t("replay.go"), onclick: jumpTurn })),
    slider,
    h("p.replay-where", {}, label, " · ", turnLabel, " ", loading),
    help);

  const typing = (x) => x && (x.tagName === "INPUT" && x !== slider || x.tagName === "SELECT" || x.tagName === "TEXTAREA" || x.isContentEditable);
  const keys = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || ignoreKey(e)) return;
    if (e.key === " " || e.key === "Spacebar") { e.preventDefault(); toggle(); return; }
    if (e.target === slider) return; // the slider's own arrows, Home and End move it
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last() }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    step(to);
  };
  drawPlay();
  return {
    el, go, play, pause, slider, label,
    /** Show step `first` (0, the start, unless the game's start has nothing to draw) and
     * listen to the keys; `to` (a step asked for by the address, null for none): shown at
     * once when loaded, else as soon as it arrives (past the last step: the last). */
    start(first = 0, to = null) {
      view(Math.min(first, steps.length - 1));
      if (to !== null) go(to);
      drawLoading();
      document.addEventListener("keydown", keys);
    },
    /** Stop playing, the keys and the loading. */
    close() { pause(); replay.close(); document.removeEventListener("keydown", keys); },
  };
}

/** The box that says what step `st` did, in the page's language: its log lines (`say(line)`
 * renders one), the roll's number in a die when the step rolled one (a `rolls` line), the start
 * for step 0; a step that wrote no public line (a roll asked for, an answer kept until the offer
 * closes) names who played it (`seatName`). */
export function stepBox(i, st, say, seatName) {
  if (i === 0) return h("section.panel.replay-now#replay-now", {}, h("p.replay-step", { text: t("replay.start") }));
  const lines = stepLines(st);
  const at = lines.findIndex((l) => l && l.form === "rolls" && l.params && l.params.total !== undefined);
  const roll = at >= 0 ? lines[at] : null;
  // the two faces the table page showed for this roll: one way of making the sum, picked by
  // the roll's place in the whole log (dice.js)
  const key = st.log_start === undefined ? ((st.observation && st.observation.log) || []).length - 1 : st.log_start + at;
  const faces = roll ? diceFaces(roll.params.total, key) : [];
  return h("section.panel.replay-now#replay-now", {},
    roll ? h("div.replay-roll#replay-roll", { "aria-label": t("replay.rolled", { total: roll.params.total }) },
      ...faces.filter((n) => n > 0).map((n) => die(n)), h("strong", { text: String(roll.params.total) })) : null,
    lines.length ? h("ul.replay-lines#replay-lines", {}, lines.map((l) => h("li", { text: say(l) })))
      : h("p.replay-step.muted", { text: Number.isInteger(st.seat) && seatName ? t("replay.quiet_by", { who: seatName(st.seat) }) : t("replay.quiet") }));
}
