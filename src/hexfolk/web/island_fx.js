// The island table's play feedback (issue 27), read from the structured log entries (docs/log.md)
// and the observation, never from sentences:
// - the two dice of the latest roll over the board (dice.js), tumbling when a roll comes in;
// - for a moment after a roll: the hexes whose number was rolled lit (the robber's one marked
//   as blocked), and what each seat got (the roll's `production` entry, IR-35..IR-37; a setup
//   settlement's `receives`, IR-21) as chips over the board and in the seat's row;
// - the last move on the board: the latest placements of one seat in one turn (`settles`,
//   `settlement`, `road`, `city`) and the robber's latest move (`robber`, `robs`, `robber_stays`);
// - the sounds of the dice, of building and of trades (sound.js, muted by the page's switch);
// - the build-cost card (costs.js) and the rolls so far (dice.js) from two buttons over the board.
// Presentation only: what may be done comes from the listed actions.
import { h, s } from "./dom.js";
import { t } from "./i18n.js";
import { gridPoint, hexPoints } from "./hexgeometry.js";
import { parseLayout, RES_COLOR } from "./board.js";
import { swatch } from "./seats.js";
import { DiceBox, lastRoll, rollsStats } from "./dice.js";
import { costCard } from "./costs.js";
import { diceSound, buildSound, tradeSound } from "./sound.js";

const R = 20; // the island board's hex circumradius (board.js)
const P = (xy) => gridPoint(xy, R);
const LETTER = { lumber: "l", brick: "b", wool: "w", grain: "g", ore: "o" };
const PLACES = { settles: "node", settlement: "node", city: "node", road: "edge" };
const ROBBER = new Set(["robber", "robs", "robber_stays"]);
const BUILDS = new Set(["settles", "settlement", "road", "city"]);
const TRADES = new Set(["trade", "trade_with"]);

/** How long the lit hexes and the gains stay (ms); tests may hold them longer. */
const flashMs = () => window.__hexfolkFxMs || 4000;

/** The last move: the latest placements of one seat in one turn and the robber's latest move,
 * from the log's entries ({form, params}). */
export function lastMoves(log) {
  const out = { places: [], robber: null };
  for (let i = log.length - 1; i >= 0 && out.robber === null; i--) {
    const l = log[i];
    if (l && ROBBER.has(l.form)) out.robber = { hex: l.params.hex, seat: l.params.seat };
  }
  let seat = null;
  for (let i = log.length - 1; i >= 0; i--) {
    const l = log[i];
    if (!l || !l.form) continue;
    const kind = PLACES[l.form];
    if (kind) {
      if (seat !== null && l.params.seat !== seat) break;
      seat = l.params.seat;
      out.places.push({ kind, id: l.params[kind], form: l.form, seat });
    } else if (seat !== null && (l.form === "ends" || l.form === "rolls")) break;
  }
  return out;
}

/** What a roll's entries (from index `from` to the next roll) paid: {seat: {resource: n}}. */
export function rollGains(log, from) {
  const gains = {};
  for (let i = from + 1; i < log.length; i++) {
    const l = log[i];
    if (!l || l.form === "rolls") break;
    if (l.form === "production") {
      for (const p of l.params.paid || []) {
        const g = (gains[p.seat] = gains[p.seat] || {});
        for (const [r, n] of Object.entries(p.cards || {})) g[r] = (g[r] || 0) + n;
      }
    }
  }
  return gains;
}

export class IslandFx {
  constructor(part) {
    this.part = part;
    this.dice = new DiceBox();
    this.gainsEl = h("div.gains#gains", { hidden: true, "aria-hidden": "true" });
    this.layer = s("g", { class: "fx", "aria-hidden": "true" });
    this.litLayer = s("g", { class: "fx-lit", "aria-hidden": "true" });
    this.tools = [
      h("button.small#btn-costs", { type: "button", text: t("fx.costs"), "aria-haspopup": "dialog", onclick: () => this.openCosts() }),
      h("button.small#btn-stats", { type: "button", text: t("fx.stats"), "aria-haspopup": "dialog", onclick: () => this.openStats() })];
    this.seen = null; // the log's length when last drawn
    this.shown = null; // the roll the dice show
    this.flash = null; // {until, lit, blocked, gains}
    this.timer = 0;
    this.lastSig = null;
  }

  /** Put the dice, the gains, the board's layers and the buttons (into `tools`, beside the
   * actions) in place (once). */
  mount(svg, tools) {
    this.svg = svg;
    svg.after(this.dice.el, this.gainsEl);
    tools.replaceChildren(...this.tools);
    const pieces = svg.querySelector("g.pieces");
    svg.insertBefore(this.litLayer, pieces); // under the pieces
    svg.insertBefore(this.layer, svg.querySelector("g.targets")); // over the pieces, under the targets
  }

  close() { this.dice.close(); clearTimeout(this.timer); }

  /** Draw what the newest view and log say (after the part's own drawing). */
  update() {
    const part = this.part;
    const log = part.log;
    const obs = part.view.observation;
    const first = this.seen === null;
    const from = first ? log.length : Math.min(this.seen, log.length);
    this.seen = log.length;
    const fresh = log.slice(from);
    // the dice of the latest roll; a roll that came in now tumbles, with its moment
    const r = lastRoll(log);
    if (!r) { this.dice.el.hidden = true; this.shown = null; } else if (!this.shown || this.shown.i !== r.i || this.shown.total !== r.total) {
      const isNew = !first && r.i >= from;
      this.shown = r;
      this.dice.show(r, part.seatName(r.seat), isNew);
      if (isNew) {
        this.startFlash(r, obs, log);
        diceSound();
      }
    }
    const received = fresh.filter((l) => l && l.form === "receives");
    if (!first && received.length) {
      const gains = {};
      for (const l of received) gains[l.params.seat] = { ...l.params.cards };
      this.setFlash({ lit: [], blocked: [], gains, total: null });
    }
    if (!first) {
      if (fresh.some((l) => l && BUILDS.has(l.form))) buildSound();
      if (fresh.some((l) => l && TRADES.has(l.form))) tradeSound();
    }
    this.drawFlash();
    this.drawLastMove(log);
    if (part.modalEl && part.modalEl.id === "stats-dialog" && fresh.some((l) => l && l.form === "rolls")) this.openStats();
  }

  startFlash(r, obs, log) {
    const lit = [], blocked = [];
    if (r.total !== 7) {
      const layout = parseLayout(obs.board && obs.board.layout);
      const robber = obs.board ? obs.board.robber : -1;
      (layout ? layout.cells : []).forEach((c, hx) => {
        if (c.token === r.total) (hx === robber ? blocked : lit).push(hx);
      });
    }
    this.setFlash({ lit, blocked, gains: rollGains(log, r.i), total: r.total });
  }

  setFlash(f) {
    this.flash = { ...f, until: performance.now() + flashMs() };
    this.flashSig = null;
    window.__hexfolkFx = { total: f.total, lit: f.lit, blocked: f.blocked, gains: f.gains };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.flash = null; this.drawFlash(); }, flashMs());
  }

  /** The lit hexes and the gains while the moment lasts (the chips again after a redraw of the
   * players' rows); the board's classes and layers change only when the moment does. */
  drawFlash() {
    const f = this.flash && this.flash.until > performance.now() ? this.flash : null;
    const rows = this.part.el.players;
    const sig = f ? JSON.stringify([f.lit, f.blocked, f.gains, f.until]) : "";
    if (sig !== this.flashSig) {
      this.flashSig = sig;
      for (const c of rows.querySelectorAll(".gain-chip")) c.remove(); // an earlier moment's
      // before the first moment there is nothing to light or to clear: the overlays are made
      // then, not at the first view (44 polygons on the largest board, issue 26)
      if (!f && !this.litPolys) { this.gainsEl.hidden = true; return; }
      // one overlay per hex, made once: a moment only changes classes (fill and stroke), which
      // costs the page no layout, where adding and removing SVG elements lays the board out again
      if (!this.litPolys) {
        const geo = this.part.geometry;
        this.litPolys = geo.hexes.map((xy, hx) => { const [cx, cy] = P(xy); return s("polygon", { points: hexPoints(cx, cy, R - 1), class: "hex-fx", "data-hex": hx }); });
        this.litLayer.replaceChildren(...this.litPolys);
        this.litNow = this.litPolys.map(() => null); // each hex's mark now (null: to draw)
      }
      const cls = new Map();
      for (const hx of f ? f.lit : []) cls.set(hx, "lit");
      for (const hx of f ? f.blocked : []) cls.set(hx, "blocked");
      // only the hexes whose mark changed are touched (the board's hexes found once per layout)
      const hexes = this.hexEls();
      this.litPolys.forEach((poly, hx) => {
        const c = cls.get(hx) || "";
        if (c === this.litNow[hx]) return;
        this.litNow[hx] = c;
        poly.setAttribute("class", c ? `hex-fx ${c}` : "hex-fx");
        const el = hexes[hx];
        if (el) { el.classList.remove("lit", "blocked"); if (c) el.classList.add(c); }
      });
      const seats = f ? Object.keys(f.gains).map(Number).sort((a, b) => a - b) : [];
      this.gainsEl.hidden = seats.length === 0;
      this.gainsEl.replaceChildren(...seats.map((q) => h("div.gain-row", { "data-seat": q }, swatch(q), h("span.gain-who", { text: this.part.seatName(q) }), chips(f.gains[q]))));
    }
    if (!f) return;
    for (const li of rows.querySelectorAll("li.player[data-seat]")) {
      const g = f.gains[li.dataset.seat];
      if (g && !li.querySelector(".gain-chip")) li.querySelector(".pname").append(h("span.gain-chip", { "data-seat": li.dataset.seat }, chips(g)));
    }
  }

  /** The board's hex elements by index (`g.hex[data-hex]`), looked up again only when the
   * board drew its base again (a new layout). */
  hexEls() {
    const key = this.part.board.layoutText;
    if (this.hexKey !== key || !this.hexList) {
      this.hexKey = key;
      this.hexList = [];
      if (this.litNow) this.litNow.fill(null); // new elements: each hex's mark drawn again
      for (const el of this.svg.querySelectorAll("g.base g.hex[data-hex]")) this.hexList[Number(el.dataset.hex)] = el;
    }
    return this.hexList;
  }

  /** Mark the last move on the board (a ring, a road's glow, the robber's hex): again only
   * when the log or the pieces (board.js redraws them all at once) changed. */
  drawLastMove(log) {
    const sig = log.length ? `${log.length} ${JSON.stringify(log[log.length - 1])}` : "";
    const pieces = this.part.board.pieceSig;
    if (sig === this.lastSig && pieces === this.lastPieces) return;
    this.lastPieces = pieces;
    if (sig !== this.lastSig) { this.lastSig = sig; this.moves = lastMoves(log); }
    const moves = this.moves;
    for (const el of this.svg.querySelectorAll("g.pieces .last-move")) el.classList.remove("last-move");
    for (const m of moves.places) {
      const piece = this.svg.querySelector(m.kind === "edge" ? `g.pieces g.road[data-edge="${m.id}"]`
        : `g.pieces g.settlement[data-node="${m.id}"], g.pieces g.city[data-node="${m.id}"]`);
      if (piece) piece.classList.add("last-move");
    }
    const robber = moves.robber && moves.robber.hex >= 0 && this.part.geometry.hexes[moves.robber.hex] ? moves.robber : null;
    if (robber) {
      const el = this.svg.querySelector("g.pieces g.robber");
      if (el) el.classList.add("last-move");
    }
    const drawn = JSON.stringify([moves.places, robber && robber.hex]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    const geo = this.part.geometry;
    const marks = moves.places.map((m) => {
      if (m.kind === "edge") {
        const [a, b] = geo.edges[m.id];
        const [ax, ay] = P(geo.nodes[a]), [bx, by] = P(geo.nodes[b]);
        const line = { x1: ax + (bx - ax) * 0.1, y1: ay + (by - ay) * 0.1, x2: bx - (bx - ax) * 0.1, y2: by - (by - ay) * 0.1 };
        return [s("line", { ...line, class: "lm-case" }), s("line", { ...line, class: "lm-edge", "data-edge": m.id })];
      }
      const [x, y] = P(geo.nodes[m.id]);
      return [s("circle", { cx: x, cy: y, r: 8.5, class: "lm-case" }), s("circle", { cx: x, cy: y, r: 8.5, class: "lm-node", "data-node": m.id })];
    });
    if (robber) {
      const [cx, cy] = P(geo.hexes[robber.hex]);
      const points = hexPoints(cx, cy, R - 2.2);
      marks.push([s("polygon", { points, class: "lm-case" }), s("polygon", { points, class: "lm-hex", "data-hex": robber.hex })]);
    }
    this.layer.replaceChildren(...marks.flat());
  }

  openCosts() {
    this.part.modal(t("fx.costs_title"), costCard(this.part.geometry.costs), { id: "costs-dialog" });
    this.focusClose();
  }

  /** A dialog with nothing to choose: the focus on its close button (Escape closes it). */
  focusClose() {
    const close = this.part.modalEl && this.part.modalEl.querySelector("button.close");
    if (close) close.focus();
  }

  /** The rolls so far in a dialog; an open one is redrawn when a roll comes in. */
  openStats() {
    const open = this.part.modalEl && this.part.modalEl.querySelector("#rolls-stats");
    if (open) open.replaceWith(rollsStats(this.part.log));
    else {
      this.part.modal(t("fx.stats_title"), rollsStats(this.part.log), { id: "stats-dialog" });
      this.focusClose();
    }
  }
}

/** "+2 grain" chips of a bundle ({resource: n}). */
function chips(bundle) {
  return Object.entries(bundle || {}).filter(([, n]) => n > 0).map(([r, n]) => {
    const k = LETTER[r] || r;
    return h(`span.gain.r-${k}`, { "data-res": r, "data-n": n, style: `--rc:${RES_COLOR[k] || "#888"}`, title: `+${n} ${t(`res.${k}`)}` },
      h("span.gain-n", { text: `+${n}` }), h("span.gain-res", { text: t(`res.${k}`) }));
  });
}
