// The Scythe board as SVG, drawn from the server's geometry (GET /api/tables/{id}/geometry,
// games/scythe/geometry.py) and an observation: territories in their terrain, rivers, lakes,
// tunnels, the Factory, home bases in faction colours, encounter tokens, and on each territory
// its units, structure and resource tokens. Targets are only the locations the listed actions
// name (legal.js); zoom and pan as on every board (zoom.js: wheel, pinch, drag when
// zoomed, the buttons, keys + - 0 and arrows).
import { s, clickable, keepEqual } from "../dom.js";
import { t } from "../i18n.js";
import { BoardZoom } from "../zoom.js";
import { gridPoint, hexPoints as corners } from "../hexgeometry.js";

export const R = 40; // hex circumradius in SVG units

export const FACTION_COLOR = {
  nordic: "#2f6db5", rusviet: "#c0392b", crimea: "#e0b000", saxony: "#2b2b2b", polania: "#f4f1ea",
  albion: "#3c8d4f", togawa: "#7d4fa0",
};
export const FACTION_INK = { nordic: "#fff", rusviet: "#fff", crimea: "#222", saxony: "#fff", polania: "#222", albion: "#fff", togawa: "#fff" };
export const FACTION_LETTER = { nordic: "N", rusviet: "R", crimea: "C", saxony: "S", polania: "P", albion: "A", togawa: "T" };
const TERRAIN_COLOR = {
  mountain: "#a7a39c", farm: "#e9d77e", tundra: "#b9d3b0", forest: "#4f8a45", village: "#d9a86c",
  lake: "#7fb2e0", factory: "#9a7fb0",
};
export const RES_COLOR = { oil: "#3a3a3a", metal: "#8c95a3", food: "#e2b33c", wood: "#8a5a2b" };
const RES_INK = { oil: "#fff", metal: "#111", food: "#111", wood: "#fff" };
const STRUCT_LETTER = { mine: "⚒", monument: "♜", armory: "⚔", mill: "⚙" };

export function xy(geo, loc) {
  return gridPoint((geo.territories[loc] || geo.home_bases[loc]).xy, R);
}

const hexPoints = (cx, cy, r) => corners(cx, cy, r, 1);

/** The faction of each seat from the observation. */
export function factions(obs) { return (obs.player_state || []).map((p) => p.faction); }

export class ScytheBoard {
  constructor(svg, geo, seatName) {
    this.svg = svg;
    this.geo = geo;
    this.seatName = seatName;
    this.onAction = () => {};
    this.onChoose = () => {};
    const all = [...Object.keys(geo.territories), ...Object.keys(geo.home_bases)];
    const xs = all.map((l) => xy(geo, l)[0]), ys = all.map((l) => xy(geo, l)[1]);
    this.home = { x: Math.min(...xs) - R * 1.2, y: Math.min(...ys) - R * 1.2, w: Math.max(...xs) - Math.min(...xs) + R * 2.4, h: Math.max(...ys) - Math.min(...ys) + R * 2.4 };
    this.layers = {
      terrain: s("g", { class: "sc-terrain" }), rivers: s("g", { class: "sc-rivers" }),
      homes: s("g", { class: "sc-homes" }), pieces: s("g", { class: "sc-pieces" }), labels: s("g", { class: "sc-labels" }),
      targets: s("g", { class: "sc-targets" }),
    };
    svg.append(this.layers.terrain, this.layers.rivers, this.layers.homes, this.layers.pieces, this.layers.labels, this.layers.targets);
    this.drawStatic();
    this.zoom = new BoardZoom(svg, this.home);
  }

  /** The zoom buttons (in, out, whole board) to put over the board. */
  controls() { return this.zoom.controls(); }

  drawStatic() {
    const g = this.geo;
    const L = this.layers;
    for (const [id, tr] of Object.entries(g.territories)) {
      const [cx, cy] = xy(g, id);
      const terrain = id === g.factory ? "factory" : tr.terrain;
      const grp = s("g", { class: `sc-hex t-${terrain}`, "data-loc": id });
      grp.append(s("polygon", { points: hexPoints(cx, cy, R - 0.8), fill: TERRAIN_COLOR[terrain], stroke: "#5b5346", "stroke-width": 1.2 }));
      if (terrain === "lake") grp.append(s("path", { d: `M${cx - 16} ${cy + 18} q4 -4 8 0 t8 0 t8 0 t8 0`, fill: "none", stroke: "#fff", "stroke-opacity": 0.6, "stroke-width": 1.5 }));
      if (terrain === "mountain") grp.append(s("path", { d: `M${cx + 10} ${cy + 27} l7 -10 l7 10`, fill: "none", stroke: "#fff", "stroke-opacity": 0.7, "stroke-width": 1.5 }));
      if (terrain === "forest") grp.append(s("path", { d: `M${cx + 14} ${cy + 27} l5 -11 l5 11 z`, fill: "#2e5d27" }));
      if (terrain === "farm") grp.append(s("path", { d: `M${cx + 9} ${cy + 20} h16 M${cx + 9} ${cy + 25} h16`, stroke: "#b39a3a", "stroke-width": 1.5 }));
      if (terrain === "tundra") grp.append(s("path", { d: `M${cx + 10} ${cy + 24} h4 m3 0 h4 m3 0 h4`, stroke: "#5d7a56", "stroke-width": 1.5 }));
      if (terrain === "village") grp.append(s("path", { d: `M${cx + 11} ${cy + 27} v-6 l5 -5 l5 5 v6 z`, fill: "#a8743d" }));
      if (terrain === "factory") grp.append(s("polygon", { points: hexPoints(cx, cy, R - 7), fill: "none", stroke: "#fff", "stroke-width": 2 }));
      if (tr.tunnel) grp.append(s("path", { d: `M${cx - 26} ${cy + 26} a7 7 0 0 1 14 0`, fill: "#3b332a", stroke: "#fff", "stroke-width": 1 }));
      // the Factory's name at the bottom; a territory's label ("G4", the log's and the choosers'
      // name of it) small at the top tip, clear of the tokens (larger once zoomed in, CSS), and
      // in the hex's tooltip with its terrain
      grp.append(s("title", {}, placeName(g, id)));
      if (terrain === "factory") grp.append(s("text", { x: cx, y: cy + R - 9, class: "sc-id", "text-anchor": "middle" }, t("sc.factory")));
      else grp.append(s("text", { x: cx, y: cy - R + 14, class: "sc-id coord", "text-anchor": "middle" }, tr.label || id));
      L.terrain.append(grp);
    }
    for (const [a, b] of g.rivers) {
      const [ax, ay] = xy(g, a), [bx, by] = xy(g, b);
      const mx = (ax + bx) / 2, my = (ay + by) / 2;
      const dx = bx - ax, dy = by - ay, len = Math.hypot(dx, dy) || 1;
      const px = (-dy / len) * (R / 2), py = (dx / len) * (R / 2);
      L.rivers.append(s("line", { x1: mx + px, y1: my + py, x2: mx - px, y2: my - py, class: "sc-river" }));
    }
    const topRow = Math.min(...Object.keys(g.home_bases).map((l) => xy(g, l)[1]));
    for (const [id, hb] of Object.entries(g.home_bases)) {
      const [cx, cy] = xy(g, id);
      const grp = s("g", { class: "sc-home", "data-loc": id, "data-faction": hb.faction });
      grp.append(s("circle", { cx, cy, r: R * 0.78, fill: FACTION_COLOR[hb.faction], stroke: "#222", "stroke-width": 1.5, class: "sc-home-disc" }));
      // the name under the disc; above it in the top row, where under it lies a territory
      const ny = cy === topRow ? cy - R * 0.78 - 4 : cy + R * 0.78 + 12;
      L.labels.append(s("text", { x: cx, y: ny, "text-anchor": "middle", class: "sc-home-name", "data-faction": hb.faction }, t(`faction.${hb.faction}`)));
      L.homes.append(grp);
    }
  }

  /** Redraw the pieces and the targets for an observation and the listed actions. */
  update(obs, L) {
    const facs = factions(obs);
    this.facs = facs;
    const inPlay = new Set(facs);
    for (const el of [...this.layers.homes.children, ...this.layers.labels.children]) el.classList.toggle("unused", !inPlay.has(el.dataset.faction));
    const pieces = [];
    const board = obs.board || {};
    const combats = new Set(obs.combats || (obs.combat ? [obs.combat.territory] : []));
    const sel = obs.selected ? obs.selected.at : null;
    const enc = obs.encounter ? obs.encounter.territory : null;
    for (const [loc, cell] of Object.entries(board)) {
      if (!this.geo.territories[loc] && !this.geo.home_bases[loc]) continue;
      const [cx, cy] = xy(this.geo, loc);
      const g = s("g", { class: "sc-cell", "data-loc": loc });
      if (cell.controller !== undefined && cell.controller >= 0 && this.geo.territories[loc]) {
        const f = facs[cell.controller];
        g.append(s("polygon", { points: hexPoints(cx, cy, R - 3), fill: "none", stroke: FACTION_COLOR[f], "stroke-width": 3, class: "sc-ctrl" }));
      }
      if (cell.encounter_token) g.append(s("g", { class: "sc-enc" }, s("circle", { cx: cx - 17, cy: cy - 19, r: 8, fill: "#f6e7b0", stroke: "#7a5c12", "stroke-width": 1.5 }), s("text", { x: cx - 17, y: cy - 15.5, "text-anchor": "middle", class: "sc-enc-q" }, "?")));
      if (cell.structure) {
        const [kind, owner] = structureOf(cell.structure);
        const f = facs[owner];
        g.append(s("g", { class: "sc-struct" }, s("rect", { x: cx + 8, y: cy - 27, width: 16, height: 16, rx: 2, fill: FACTION_COLOR[f] || "#777", stroke: "#111" }),
          s("text", { x: cx + 16, y: cy - 15, "text-anchor": "middle", class: "sc-struct-t", fill: FACTION_INK[f] || "#fff" }, STRUCT_LETTER[kind] || kind[0])));
      }
      // units: one row per seat present
      const units = Object.entries(cell.units || {});
      let row = 0;
      for (const [seat, u] of units) {
        const f = facs[Number(seat)];
        const y = cy - 4 + row * 17 - (units.length - 1) * 8;
        const parts = [];
        if (u.character) parts.push("★");
        if (u.mechs) parts.push(`⬢${u.mechs > 1 ? u.mechs : ""}`);
        if (u.workers) parts.push(`●${u.workers > 1 ? u.workers : ""}`);
        const text = parts.join(" ");
        const w = 10 + text.length * 8.4;
        g.append(s("g", { class: "sc-units", "data-seat": seat },
          s("rect", { x: cx - w / 2, y: y - 10, width: w, height: 17, rx: 8, fill: FACTION_COLOR[f], stroke: "#111", "stroke-width": 1.2 }),
          s("text", { x: cx, y: y + 3.5, "text-anchor": "middle", class: "sc-units-t", fill: FACTION_INK[f] }, text)));
        row++;
      }
      const res = Object.entries(cell.resources || {}).filter(([, n]) => n > 0);
      res.forEach(([r, n], i) => {
        const x = cx - (res.length * 15) / 2 + i * 15 + 7.5;
        const y = cy + 17;
        g.append(s("g", { class: "sc-res", "data-res": r }, s("rect", { x: x - 7, y: y - 7, width: 14, height: 14, rx: 2, fill: RES_COLOR[r], stroke: "#111", "stroke-width": 0.8 }),
          s("text", { x, y: y + 4, "text-anchor": "middle", class: "sc-res-t", fill: RES_INK[r] }, String(n))));
      });
      if (combats.has(loc)) g.append(s("polygon", { points: hexPoints(cx, cy, R - 1), class: "sc-combat" }));
      if (sel === loc) g.append(s("polygon", { points: hexPoints(cx, cy, R - 5), class: "sc-selected" }));
      if (enc === loc) g.append(s("polygon", { points: hexPoints(cx, cy, R - 5), class: "sc-selected" }));
      pieces.push(g);
    }
    this.layers.pieces.replaceChildren(...pieces);
    const targets = [];
    for (const [loc, acts] of L.board) {
      if (!this.geo.territories[loc] && !this.geo.home_bases[loc]) continue;
      const [cx, cy] = xy(this.geo, loc);
      const shape = this.geo.territories[loc] ? s("polygon", { points: hexPoints(cx, cy, R - 2) }) : s("circle", { cx, cy, r: R * 0.8 });
      const el = s("g", { class: "target", "data-act": acts.join("|"), "data-loc": loc }, shape);
      const label = acts.length === 1 ? `${actionWords(L.entries[acts[0]], this.geo)} (${L.hints[acts[0]] || ""})` : `${placeName(this.geo, loc)}: ${acts.length} ${t("sc.choices")}`;
      clickable(el, label, () => (acts.length === 1 ? this.onAction(acts[0]) : this.onChoose(loc, acts)));
      targets.push(el);
    }
    keepEqual(this.layers.targets, targets);
  }
}

/** [kind, owner seat] of a board cell's structure ({kind, seat} or "mill0"). */
export function structureOf(st) {
  if (typeof st === "string") { const m = /^([a-z]+)(\d+)$/.exec(st); return m ? [m[1], Number(m[2])] : [st, -1]; }
  return [st.kind || st.type || "?", st.seat ?? st.owner ?? -1];
}

/** A place's label in the page's language: a territory by the label the board shows ("G4",
 * geometry `label`), the Factory and a home base in words. The log and the choosers use it. */
export function placeLabel(geo, loc) {
  if (geo.home_bases[loc]) return `${t("sc.home_of")} ${t(`faction.${geo.home_bases[loc].faction}`)}`;
  if (loc === geo.factory) return t("sc.factory");
  const tr = geo.territories[loc];
  return tr && tr.label ? tr.label : String(loc);
}

/** A place in words with its terrain: "mountain G4", "Factory", "home base of Nordic". */
export function placeName(geo, loc) {
  const tr = geo.territories[loc];
  if (!tr || loc === geo.factory) return placeLabel(geo, loc);
  return `${t(`sct.${tr.terrain}`)} ${placeLabel(geo, loc)}`;
}

const word = (prefix, x) => { const k = `${prefix}.${x}`; const v = t(k); return v === k ? String(x) : v; };

/** A listed action in words, read from its entry's `kind` and named fields (docs/scythe.md,
 * "Actions as data"); places by their labels. The text stays the id in data-act: this is
 * only its label. */
export function actionWords(entry, geo) {
  if (!entry) return "";
  const k = entry.kind;
  const place = (loc) => placeLabel(geo, loc);
  const verb = (key) => word("sca", key);
  switch (k) {
    case "bolster": return verb(`bolster ${entry.gain}`);
    case "trade_popularity": return verb("trade popularity");
    case "artillery": return verb(entry.use ? "artillery" : "no artillery");
    case "carry": {
      const parts = [];
      if (entry.workers) parts.push(`${entry.workers} ${t("sc.worker1")}`);
      for (const [r, n] of Object.entries(entry.resources || {})) if (n) parts.push(`${n} ${word("res", r)}`);
      return parts.length ? `${verb("carry")} ${parts.join(" ")}` : verb("carry none");
    }
    case "move": return `${verb("move")} ${word("sc", entry.unit)} ${place(entry.from)}`;
    case "step": return `${verb("to")} ${place(entry.to)}`;
    case "retreat": return `${verb("retreat")} ${place(entry.to)}`;
    case "trade": case "gain": case "pay": return `${verb(k)} ${word("res", entry.resource)} ${place(entry.territory)}`;
    case "produce": case "fight": return `${verb(k)} ${place(entry.territory)}`;
    case "deploy": return `${verb(k)} ${word("ability", entry.ability)} ${place(entry.territory)}`;
    case "build": return `${verb(k)} ${word("struct", entry.structure)} ${place(entry.territory)}`;
    case "upgrade": return `${verb(k)} ${word("box", entry.top)} ${word("bottom", entry.bottom)}`;
    case "enlist": return `${verb(k)} ${word("bottom", entry.recruit)} ${word("space", entry.space)}`;
    case "section": return `${verb(k)} ${entry.section}`;
    case "reveal": case "factory": return `${verb(k)} ${entry.number}`;
    case "option": return `${verb(k)} ${entry.option}`;
    case "pay_card": return `${verb("pay")} ${entry.value}`;
    case "commit": return `${verb(k)} ${entry.dial}${entry.cards && entry.cards.length ? ` + ${entry.cards.join(", ")}` : ""}`;
    default: { const v = t(`sca.${k}`); return v === `sca.${k}` ? entry.action : v; }
  }
}

/** The board in words for screen readers. */
export function describeBoard(obs, geo, seatName) {
  const facs = factions(obs);
  const lines = [];
  for (const [loc, cell] of Object.entries(obs.board || {})) {
    const parts = [];
    for (const [seat, u] of Object.entries(cell.units || {})) {
      const who = `${seatName(Number(seat))} (${t(`faction.${facs[Number(seat)]}`)})`;
      const us = [];
      if (u.character) us.push(t("sc.character"));
      if (u.mechs) us.push(`${u.mechs} ${t("sc.mechs")}`);
      if (u.workers) us.push(`${u.workers} ${t("sc.workers")}`);
      parts.push(`${who}: ${us.join(", ")}`);
    }
    const res = Object.entries(cell.resources || {}).filter(([, n]) => n > 0).map(([r, n]) => `${n} ${t(`res.${r}`)}`);
    if (res.length) parts.push(res.join(", "));
    if (cell.structure) { const [k, o] = structureOf(cell.structure); parts.push(`${t(`struct.${k}`)} (${seatName(o)})`); }
    if (cell.encounter_token) parts.push(t("sc.encounter_token"));
    if (parts.length) lines.push(`${placeName(geo, loc)}: ${parts.join("; ")}.`);
  }
  return lines.join(" ");
}
