// What both games' replay viewers share (overview.js for the island, scythe/end.js for Scythe):
// loading a finished table's public steps (/api/tables/{id}/replay, 200 a page) and the stepper
// that walks them (first, back, forward, last, a slider, the arrow keys).
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { logEntry } from "./log_lines.js";

/** The table, its geometry and every public step of its replay; null (the reason shown in
 * `app`) when any of them cannot be loaded. */
export async function loadReplay(app, id) {
  let tb, geo;
  try { [tb, geo] = await Promise.all([api("GET", `/api/tables/${id}`), api("GET", `/api/tables/${id}/geometry`)]); } catch (err) {
    app.append(h("section.card.narrow", {}, h("p", { text: err.message }))); return null;
  }
  const steps = [];
  let total = 1;
  // `log=new`: each step carries the log lines changed since the step before (log_start, log),
  // not its whole log (a page of whole logs grows with the square of the game's length); the
  // lines are kept once, and a step's `observation.log` is cut from them when it is shown
  let lines = [];
  try {
    for (let start = 0; start < total; start += 200) {
      const page = await api("GET", `/api/tables/${id}/replay?start=${start}&limit=200&reveal=false&log=new`);
      total = page.steps_total + 1;
      for (const st of page.steps) {
        if (st.log_start === undefined) { // a whole log (a server without `log=new`)
          if (st.observation && st.observation.log) st.observation.log = st.observation.log.map(logEntry);
          continue;
        }
        if (st.log_start < lines.length) lines = lines.slice(0, st.log_start); // older lines changed: a new list
        for (const line of st.log) lines.push(logEntry(line));
        const [all, end] = [lines, lines.length];
        Object.defineProperty(st.observation, "log", { get: () => all.slice(0, end), enumerable: true });
        delete st.log;
      }
      steps.push(...page.steps);
      if (!page.steps.length) break;
    }
  } catch (err) {
    app.append(h("section.card.narrow", {}, h("h2", { text: t("replay") }), h("p", { text: err.message }), h("a.button", { href: `#/t/${id}`, text: t("back") })));
    return null;
  }
  return { tb, geo, steps };
}

/** The log lines step `st` wrote (its `observation.log` from `log_start`; the last line when
 * the server sent whole logs): what the replay says of the step, in the page's language, as
 * the log says it (places by their labels, the dice with their numbers), never the action's
 * text, which names places by id. */
export function stepLines(st) {
  const log = (st.observation && st.observation.log) || [];
  return st.log_start === undefined ? log.slice(-1) : log.slice(st.log_start);
}

/** The stepper over `steps`: `show(i)` draws step i. `ignoreKey(e)` skips an arrow key meant for
 * something else. Returns its elements (`buttons`, `slider`, `label`), `go(i)` and `close()`
 * (the arrow keys are listened to from `start()` on). */
export function replayStepper(steps, show, ignoreKey = () => false) {
  const slider = h("input#replay-slider", { type: "range", min: 0, max: steps.length - 1, value: 0, "aria-label": t("replay.step") });
  const label = h("span#replay-label");
  const view = (i) => {
    label.textContent = t("replay.of", { i, n: steps.length - 1 });
    show(i);
  };
  const go = (i) => { const k = Math.max(0, Math.min(steps.length - 1, i)); slider.value = k; view(k); };
  slider.addEventListener("input", () => view(Number(slider.value)));
  const buttons = h("div.row", {},
    h("button#replay-first", { text: "«", "aria-label": t("replay.first"), onclick: () => go(0) }),
    h("button#replay-prev", { text: "◀", "aria-label": t("replay.prev"), onclick: () => go(Number(slider.value) - 1) }),
    h("button#replay-next", { text: "▶", "aria-label": t("replay.next"), onclick: () => go(Number(slider.value) + 1) }),
    h("button#replay-last", { text: "»", "aria-label": t("replay.last"), onclick: () => go(steps.length - 1) }));
  const keys = (e) => { if (e.target === slider || ignoreKey(e)) return; if (e.key === "ArrowLeft") go(Number(slider.value) - 1); if (e.key === "ArrowRight") go(Number(slider.value) + 1); };
  return {
    buttons, slider, label, go,
    /** Show the last step and listen to the arrow keys. */
    start() { go(steps.length - 1); document.addEventListener("keydown", keys); },
    close() { document.removeEventListener("keydown", keys); },
  };
}
