// Scythe's play feedback on the table page (issue 27), read from the structured log entries
// ({form, params}, docs/log.md), never from sentences: the last turn's places marked on the
// board (where units moved to, what was built or deployed, where a worker produced or traded,
// a combat and its retreat, an encounter), and the sounds of building and trading (sound.js,
// muted by the page's switch). Presentation only.
import { s } from "../dom.js";
import { hexPoints } from "../hexgeometry.js";
import { xy, R } from "./board.js";
import { buildSound, tradeSound } from "../sound.js";

/** The log forms that name a place of a turn, with the params that hold it and what it marks. */
const PLACES = {
  moves: [["to", "moved"]],
  retreat: [["to", "moved"]],
  builds: [["territory", "built"]],
  deploys: [["territory", "built"]],
  produces: [["territory", "acted"]],
  produces_workers: [["territory", "acted"]],
  trades: [["territory", "acted"]],
  gains_on: [["territory", "acted"]],
  gains_workers: [["territory", "acted"]],
  encounter: [["territory", "acted"]],
  combat: [["territory", "fought"]],
  wins: [["territory", "fought"]],
};
const TURN_START = new Set(["section", "factory_section"]);
const BUILDS = new Set(["builds", "deploys", "upgrades", "enlists"]);
const RANK = { acted: 0, moved: 1, fought: 2, built: 3 };

/** The places of the last turn that named one: [{loc, what}] (one per place, the strongest mark),
 * from the latest entry that names a place back to the section choice that began its turn. */
export function lastTurnPlaces(log) {
  let end = log.length - 1;
  while (end >= 0 && !(log[end] && PLACES[log[end].form])) end--;
  if (end < 0) return [];
  let start = end;
  while (start > 0 && !(log[start] && TURN_START.has(log[start].form))) start--;
  const marks = new Map();
  for (let i = start; i <= end; i++) {
    const l = log[i];
    for (const [param, what] of (l && PLACES[l.form]) || []) {
      const loc = l.params[param];
      if (loc === undefined || loc === null) continue;
      const had = marks.get(loc);
      if (!had || RANK[what] > RANK[had]) marks.set(loc, what);
    }
  }
  return [...marks].map(([loc, what]) => ({ loc, what }));
}

export class ScytheFx {
  constructor(part) {
    this.part = part;
    this.layer = s("g", { class: "sc-fx", "aria-hidden": "true" });
    this.seen = null;
    this.sig = null;
  }

  /** Put the marks' layer on `board` (a ScytheBoard), over the pieces and under the targets. */
  mount(board) {
    this.board = board;
    board.svg.insertBefore(this.layer, board.layers.targets);
  }

  update() {
    const log = this.part.log;
    const first = this.seen === null;
    const from = first ? log.length : Math.min(this.seen, log.length);
    this.seen = log.length;
    if (!first) {
      const fresh = log.slice(from);
      if (fresh.some((l) => l && BUILDS.has(l.form))) buildSound();
      if (fresh.some((l) => l && l.form === "trades")) tradeSound();
    }
    const sig = log.length ? `${log.length} ${JSON.stringify(log[log.length - 1])}` : "";
    if (sig === this.sig) return;
    this.sig = sig;
    const geo = this.part.geometry;
    const places = lastTurnPlaces(log);
    const drawn = JSON.stringify(places);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    const marks = places.filter((m) => geo.territories[m.loc] || geo.home_bases[m.loc]).map(({ loc, what }) => {
      const [cx, cy] = xy(geo, loc);
      const shape = (cls) => (geo.territories[loc] ? s("polygon", { points: hexPoints(cx, cy, R - 5, 1), class: cls }) : s("circle", { cx, cy, r: R * 0.86, class: cls }));
      return s("g", { class: `sc-last ${what}`, "data-loc": loc, "data-what": what }, shape("case"), shape("line"));
    });
    this.layer.replaceChildren(...marks);
  }
}
