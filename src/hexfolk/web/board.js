// The island board as SVG, drawn from the server's geometry (/api/tables/{id}/geometry) and
// an observation. Targets come from readLegal() of the listed actions only.
import { s, clickable, keepEqual, sync } from "./dom.js";
import { t } from "./i18n.js";
import { gridPoint, axialCentre, hexPoints } from "./hexgeometry.js";
import { BoardZoom } from "./zoom.js";

const R = 20; // hex circumradius in SVG units
export const TERRAIN = { L: "forest", B: "hills", W: "pasture", G: "fields", O: "mountains", D: "desert" };
const TERRAIN_FILL = { L: "#2e7d32", B: "#c0582b", W: "#9ccc65", G: "#f2c14e", O: "#8d8f99", D: "#e8d8a8" };
export const RES_COLOR = { l: "#2e7d32", b: "#c0582b", w: "#9ccc65", g: "#f2c14e", o: "#8d8f99" };
const PIPS = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };
/** Okabe–Ito colours (colour-blind safe), each seat with its own symbol too. */
export const SEAT_COLORS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#3d3d3d"];
export const SEAT_SYMBOLS = ["●", "■", "▲", "◆", "✚", "★", "✖", "⬟"];
const SEAT_DASH = ["", "6 3", "2 2.5", "8 2 2 2", "", "6 3", "2 2.5", "8 2 2 2"];

export function parseLayout(text) {
  if (!text) return null;
  const [hexes, harbors, robber] = text.split(" ");
  const cells = hexes.split(".").map((c) => ({ terrain: c[0], token: c.length > 1 ? Number(c.slice(1)) : 0 }));
  return { cells, harbors: [...(harbors || "")], robber: robber === "r-" ? -1 : Number(String(robber).slice(1)) };
}

const P = (xy) => gridPoint(xy, R);

/** The lakes of a map's board (`board.island`, docs/island.md "Maps": `q,r:~` items) as
 * centres on the doubled grid; lakes are not engine hexes, so the geometry has none. */
export function lakeCentres(island) {
  if (!island) return [];
  const hexes = String(island).replace(/^layout /, "").split(" ")[0];
  return hexes.split(";").filter((it) => it.endsWith(":~")).map((it) => {
    const [q, r] = it.split(":")[0].split(",").map(Number);
    return axialCentre(q, r);
  });
}

function patterns() {
  const pat = (id, fill, ...kids) =>
    s("pattern", { id, width: 12, height: 12, patternUnits: "userSpaceOnUse" }, s("rect", { width: 12, height: 12, fill }), ...kids);
  const ink = { stroke: "rgba(0,0,0,.28)", "stroke-width": 1.2, fill: "none" };
  return s("defs", {},
    pat("t-L", TERRAIN_FILL.L, s("path", { d: "M6 1 L10 9 L2 9 Z", fill: "rgba(0,0,0,.25)" })),
    pat("t-B", TERRAIN_FILL.B, s("path", { d: "M0 4 H12 M0 10 H12 M4 0 V4 M10 4 V10 M4 10 V12", ...ink })),
    pat("t-W", TERRAIN_FILL.W, s("circle", { cx: 3, cy: 3, r: 1.6, fill: "rgba(255,255,255,.55)" }), s("circle", { cx: 9, cy: 9, r: 1.6, fill: "rgba(255,255,255,.55)" })),
    pat("t-G", TERRAIN_FILL.G, s("path", { d: "M0 12 L12 0 M-3 3 L3 -3 M9 15 L15 9", ...ink })),
    pat("t-O", TERRAIN_FILL.O, s("path", { d: "M1 9 L6 3 L11 9", ...ink, stroke: "rgba(255,255,255,.5)" })),
    pat("t-D", TERRAIN_FILL.D, s("circle", { cx: 6, cy: 6, r: 0.9, fill: "rgba(0,0,0,.2)" })),
  );
}

function edgeQuad(ax, ay, bx, by, w) {
  const dx = bx - ax, dy = by - ay, len = Math.hypot(dx, dy) || 1;
  const nx = (-dy / len) * w, ny = (dx / len) * w;
  const sx = ax + dx * 0.15, sy = ay + dy * 0.15, ex = bx - dx * 0.15, ey = by - dy * 0.15;
  return [[sx + nx, sy + ny], [ex + nx, ey + ny], [ex - nx, ey - ny], [sx - nx, sy - ny]].map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" ");
}

function house(x, y, r) {
  return `M${x - r} ${y + r} V${y - r * 0.2} L${x} ${y - r * 1.1} L${x + r} ${y - r * 0.2} V${y + r} Z`;
}
function cityPath(x, y, r) {
  return `M${x - r * 1.4} ${y + r} V${y - r * 0.1} L${x - r * 0.7} ${y - r * 0.9} L${x} ${y - r * 0.1} H${x + r * 1.4} V${y + r} Z`;
}

/** A place's label in a small tag just above-right of point (x, y): an intersection's number on
 * a target or under the pointer, an edge's two numbers on a road target. */
function placeTag(x, y, text, centred = false) {
  const w = 2.2 + String(text).length * 2.5;
  // centred (an edge's tag on its middle) keeps the target's centre where it was: a click
  // at the target's centre still lands on the target
  const [rx, ry] = centred ? [x - w / 2, y - 2.6] : [x + 2.4, y - 8.6];
  return s("g", { class: "place-tag", "aria-hidden": "true" },
    s("rect", { x: rx, y: ry, width: w, height: 5.2, rx: 1.6 }),
    s("text", { x: rx + w / 2, y: ry + 4 }, text));
}

export class Board {
  constructor(svg, geometry, seatName) {
    this.svg = svg;
    this.geo = geometry;
    this.seatName = seatName || ((i) => `${t("seat")} ${i + 1}`);
    this.layoutText = null;
    this.onAction = () => {};
    this.onRobberHex = () => {};
    const xs = geometry.nodes.map((n) => P(n)[0]);
    const ys = geometry.nodes.map((n) => P(n)[1]);
    const pad = 24;
    const [x0, x1, y0, y1] = [Math.min(...xs) - pad, Math.max(...xs) + pad, Math.min(...ys) - pad, Math.max(...ys) + pad];
    svg.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    svg.style.setProperty("--board-ar", String((x1 - x0) / (y1 - y0)));
    svg.replaceChildren(patterns(), s("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: "sea", rx: 12 }));
    this.base = s("g", { class: "base" });
    this.pieces = s("g", { class: "pieces" });
    this.targets = s("g", { class: "targets" });
    svg.append(this.base, this.pieces, this.targets);
    this.zoom = new BoardZoom(svg, { x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
  }

  /** The zoom buttons (in, out, whole board) to put over the board. */
  controls() { return this.zoom.controls(); }

  /** The board's label of a place (geometry `labels`, docs/log.md): "J" for a hex, "14" for an
   * intersection, "13-14" for an edge; the id itself when the geometry has none. */
  label(kind, v) {
    const table = (this.geo.labels || {})[kind === "hex" ? "hexes" : kind === "node" ? "nodes" : "edges"];
    return table && table[v] !== undefined ? table[v] : String(v);
  }

  edgeMid(e) {
    const [a, b] = this.geo.edges[e];
    const [ax, ay] = P(this.geo.nodes[a]);
    const [bx, by] = P(this.geo.nodes[b]);
    return [(ax + bx) / 2, (ay + by) / 2, ax, ay, bx, by];
  }

  drawBase(layout, lakes = []) {
    const g = this.base;
    g.replaceChildren();
    this.layout = layout;
    const geo = this.geo;
    for (const [x, y] of lakes) {
      const [cx, cy] = P([x, y]);
      const pts = hexPoints(cx, cy, R);
      g.append(s("g", { class: "hex lake" }, s("title", {}, t("terrain.lake")), s("polygon", { points: pts, class: "hex-shape" }),
        s("text", { x: cx, y: cy + 2, class: "mp-mark" }, "≈")));
    }
    // harbors first (under the land)
    const lakePts = lakes.map(P);
    (geo.harbors || []).forEach((hb, k) => {
      const kind = layout.harbors[k];
      if (!kind) return;
      const [mx, my, ax, ay, bx, by] = this.edgeMid(hb.edge);
      const [cx, cy] = P(geo.hexes[hb.hex]);
      const dx = mx - cx, dy = my - cy, len = Math.hypot(dx, dy) || 1;
      // a lake harbor sits just off its shore, smaller: a lake is one hex with up to six shores
      const far = mx + (dx / len) * 13, fy = my + (dy / len) * 13;
      const onLake = lakePts.some(([lx, ly]) => Math.hypot(lx - far, ly - fy) < 14);
      const off = onLake ? 6.2 : 13, small = onLake ? 0.62 : 1;
      const hx = mx + (dx / len) * off, hy = my + (dy / len) * off;
      const label = kind === "3" ? "3:1" : "2:1";
      const ring = kind === "3" ? "#333" : RES_COLOR[kind];
      const title = kind === "3" ? t("harbor.generic") : t("harbor.res", { res: t(`res.${kind}`) });
      g.append(s("g", { class: `harbor${onLake ? " lake-harbor" : ""}` },
        s("title", {}, title),
        s("line", { x1: hx, y1: hy, x2: ax, y2: ay, class: "pier" }),
        s("line", { x1: hx, y1: hy, x2: bx, y2: by, class: "pier" }),
        s("g", { transform: `translate(${hx.toFixed(2)} ${hy.toFixed(2)}) scale(${small}) translate(${(-hx).toFixed(2)} ${(-hy).toFixed(2)})` },
          s("circle", { cx: hx, cy: hy, r: 7.5, stroke: ring, class: "harbor-disc" }),
          s("text", { x: hx, y: hy + (kind === "3" ? 2.6 : 0.6), class: "harbor-ratio" }, label),
          kind === "3" ? null : s("text", { x: hx, y: hy + 4.6, class: "harbor-res" }, t(`res.${kind}`))),
      ));
    });
    layout.cells.forEach((cell, h) => {
      const [cx, cy] = P(geo.hexes[h]);
      const pts = hexPoints(cx, cy, R);
      const name = t(`terrain.${TERRAIN[cell.terrain]}`);
      const letter = this.label("hex", h);
      const hexG = s("g", { class: `hex t-${cell.terrain}`, "data-hex": h },
        s("title", {}, `${t("hex")} ${letter}: ${cell.token ? `${name} ${cell.token}` : name}`),
        s("polygon", { points: pts, fill: `url(#t-${cell.terrain})`, class: "hex-shape" }),
        s("text", { x: cx, y: cy - 11.5, class: "hex-label" }, letter));
      if (cell.token) {
        const red = cell.token === 6 || cell.token === 8;
        hexG.append(s("circle", { cx, cy, r: 6.8, class: "token" }),
          s("text", { x: cx, y: cy + 1.2, class: `token-num${red ? " red" : ""}` }, cell.token));
        const n = PIPS[cell.token] || 0;
        for (let i = 0; i < n; i++) {
          hexG.append(s("circle", { cx: cx + (i - (n - 1) / 2) * 1.7, cy: cy + 4.1, r: 0.65, class: `pip${red ? " red" : ""}` }));
        }
      } else {
        hexG.append(s("text", { x: cx, y: cy + 12, class: "terrain-label" }, name));
      }
      g.append(hexG);
    });
    // every intersection's number, shown while the pointer is over it (docs/log.md): made in
    // the task after the one that draws the board, so the board is painted first (the spots
    // are invisible; issue 26, the first view)
    clearTimeout(this.spotsTimer);
    this.spotsTimer = setTimeout(() => g.append(this.nodeSpots()), 0);
  }

  /** One invisible spot per intersection; the one tag of the spot under the pointer (a hidden
   * tag per intersection laid hundreds of texts out at the first view, issue 26). */
  nodeSpots() {
    const geo = this.geo;
    const spots = s("g", { class: "node-labels" }, geo.nodes.map((_, v) => {
      const [x, y] = P(geo.nodes[v]);
      return s("circle", { cx: x, cy: y, r: 4.5, class: "node-spot", "data-node-label": v });
    }));
    spots.addEventListener("pointerover", (ev) => {
      const v = ev.target.getAttribute && ev.target.getAttribute("data-node-label");
      if (v === null || v === undefined) return;
      const [x, y] = P(geo.nodes[Number(v)]);
      spots.querySelector(".place-tag")?.remove();
      spots.append(placeTag(x, y, this.label("node", Number(v))));
    });
    spots.addEventListener("pointerleave", () => spots.querySelector(".place-tag")?.remove());
    return spots;
  }

  /** Redraw pieces and targets: obs is an observation, L is readLegal() of the listed actions. */
  update(obs, L) {
    const geo = this.geo;
    const layoutKey = obs.board ? `${obs.board.layout} ${obs.board.island || ""}` : null;
    if (obs.board && obs.board.layout && layoutKey !== this.layoutText) {
      this.layoutText = layoutKey;
      this.drawBase(parseLayout(obs.board.layout), lakeCentres(obs.board.island));
    }
    const rob = obs.board ? obs.board.robber : -1;
    const pieceSig = JSON.stringify([obs.roads, obs.settlements, obs.cities, rob]);
    if (pieceSig !== this.pieceSig) {
      this.pieceSig = pieceSig;
      this.drawPieces(obs, rob);
    }
    this.drawTargets(L);
  }

  /** The pieces, each kept as the same element while it stands where it stood with the same
   * owner (a step adds a piece or two: the others are not built again; benchmarks/web_speed.py). */
  drawPieces(obs, rob) {
    const geo = this.geo;
    const items = [];
    for (const [e, o] of obs.roads || []) {
      items.push({ key: `e${e}`, sig: `${o} ${this.seatName(o)}`, build: () => {
        const [, , ax, ay, bx, by] = this.edgeMid(e);
        const sx = ax + (bx - ax) * 0.14, sy = ay + (by - ay) * 0.14, ex = bx - (bx - ax) * 0.14, ey = by - (by - ay) * 0.14;
        return s("g", { class: "road", "data-edge": e, "data-owner": o },
          s("title", {}, `${t("piece.road")}: ${this.seatName(o)}`),
          s("line", { x1: sx, y1: sy, x2: ex, y2: ey, class: "road-edge" }),
          s("line", { x1: sx, y1: sy, x2: ex, y2: ey, stroke: SEAT_COLORS[o], class: "road-body" }),
          SEAT_DASH[o] ? s("line", { x1: sx, y1: sy, x2: ex, y2: ey, class: "road-mark", "stroke-dasharray": SEAT_DASH[o] }) : null);
      } });
    }
    const building = (v, o, city) => ({ key: `n${v}`, sig: `${city ? "c" : "s"} ${o} ${this.seatName(o)}`, build: () => {
      const [x, y] = P(geo.nodes[v]);
      return s("g", { class: city ? "city" : "settlement", "data-node": v, "data-owner": o },
        s("title", {}, `${t(city ? "piece.city" : "piece.settlement")}: ${this.seatName(o)}`),
        s("path", { d: city ? cityPath(x, y, 5.4) : house(x, y, 5.2), fill: SEAT_COLORS[o], class: "building" }),
        s("text", { x: x + (city ? 1.4 : 0), y: y + 3.6, class: "seat-symbol" }, SEAT_SYMBOLS[o]));
    } });
    for (const [v, o] of obs.settlements || []) items.push(building(v, o, false));
    for (const [v, o] of obs.cities || []) items.push(building(v, o, true));
    if (rob !== null && rob >= 0) {
      items.push({ key: "robber", sig: String(rob), build: () => {
        const [cx, cy] = P(geo.hexes[rob]);
        return s("g", { class: "robber", "data-hex": rob },
          s("title", {}, t("robber")),
          s("ellipse", { cx: cx + 12, cy: cy + 2.5, rx: 3.4, ry: 5.4, class: "robber-body" }),
          s("circle", { cx: cx + 12, cy: cy - 4, r: 2.6, class: "robber-body" }));
      } });
    }
    sync(this.pieces, items);
  }

  drawTargets(L) {
    const geo = this.geo;

    // targets: exactly the listed actions (redrawn only when the list changes)
    const sig = L ? JSON.stringify(L.all) : "";
    if (sig === this.targetSig) return;
    this.targetSig = sig;
    const tg = [];
    if (L) {
      for (const [e, action] of L.road) {
        const [, , ax, ay, bx, by] = this.edgeMid(e);
        const el = s("g", { class: "target target-edge", "data-act": action },
          s("polygon", { points: edgeQuad(ax, ay, bx, by, 5), class: "hit" }),
          // a road not yet built: a white track with a dark edge and dark dots, like no seat's
          // road (issue 27, point 12: no seat is white)
          s("line", { x1: ax + (bx - ax) * 0.2, y1: ay + (by - ay) * 0.2, x2: bx - (bx - ax) * 0.2, y2: by - (by - ay) * 0.2, class: "halo" }),
          s("line", { x1: ax + (bx - ax) * 0.2, y1: ay + (by - ay) * 0.2, x2: bx - (bx - ax) * 0.2, y2: by - (by - ay) * 0.2, class: "track" }),
          s("line", { x1: ax + (bx - ax) * 0.2, y1: ay + (by - ay) * 0.2, x2: bx - (bx - ax) * 0.2, y2: by - (by - ay) * 0.2, class: "glow" }));
        el.append(s("g", { class: "edge-tag" }, placeTag((ax + bx) / 2, (ay + by) / 2, this.label("edge", e), true)));
        clickable(el, `${t("act.road")} ${this.label("edge", e)}${L.hints[action] ? ` (${L.hints[action]})` : ""}`, () => this.onAction(action));
        tg.push(el);
      }
      for (const [kind, map] of [["settle", L.settle], ["city", L.city]]) {
        for (const [v, action] of map) {
          const [x, y] = P(geo.nodes[v]);
          const el = s("g", { class: `target target-node ${kind}`, "data-act": action },
            s("circle", { cx: x, cy: y, r: 6, class: "hit" }),
            s("circle", { cx: x, cy: y, r: kind === "city" ? 6 : 3.4, class: "glow" }),
            placeTag(x, y, this.label("node", v)));
          clickable(el, `${t(`act.${kind}`)} ${this.label("node", v)}${L.hints[action] ? ` (${L.hints[action]})` : ""}`, () => this.onAction(action));
          tg.push(el);
        }
      }
      for (const [hex, opts] of L.robber) {
        const [cx, cy] = P(geo.hexes[hex]);
        const el = s("g", { class: "target target-hex", "data-act": opts.map((o) => o.action).join("|") },
          s("circle", { cx, cy, r: 12, class: "hit" }),
          s("circle", { cx, cy, r: 10.5, class: "glow" }));
        const hint = L.hints[opts[0].action];
        clickable(el, `${t("act.robber")} ${this.label("hex", hex)}${hint ? ` (${hint})` : ""}`, () => this.onRobberHex(hex, opts));
        tg.push(el);
      }
    }
    keepEqual(this.targets, tg);
  }
}

/** A text description of the board for screen readers. */
export function describeBoard(obs, seatName, label = (kind, v) => String(v)) {
  const layout = parseLayout(obs.board && obs.board.layout);
  if (!layout) return "";
  const lines = [];
  lines.push(layout.cells.map((c, h) => `${t("hex")} ${label("hex", h)}: ${t(`terrain.${TERRAIN[c.terrain]}`)}${c.token ? ` ${c.token}` : ""}`).join("; ") + ".");
  if (obs.board.robber >= 0) lines.push(`${t("robber")}: ${t("hex")} ${label("hex", obs.board.robber)}.`);
  const by = {};
  const add = (o, txt) => { (by[o] = by[o] || []).push(txt); };
  for (const [v, o] of obs.settlements || []) add(o, `${t("piece.settlement")} ${label("node", v)}`);
  for (const [v, o] of obs.cities || []) add(o, `${t("piece.city")} ${label("node", v)}`);
  for (const [e, o] of obs.roads || []) add(o, `${t("piece.road")} ${label("edge", e)}`);
  for (const [o, list] of Object.entries(by)) lines.push(`${seatName(Number(o))}: ${list.join(", ")}.`);
  return lines.join(" ");
}

/** Where a preview's harbor sits: its disc's centre and radius off the middle of its shore
 * (smaller, closer, on a lake), and the shore's two points. */
function harborSpot(hb, lakes) {
  const [[ax, ay], [bx, by]] = hb.points.map(P);
  const [cx, cy] = P(hb.land);
  const mx = (ax + bx) / 2, my = (ay + by) / 2;
  const dx = mx - cx, dy = my - cy, len = Math.hypot(dx, dy) || 1;
  const onLake = lakes.some(([lx, ly]) => Math.hypot(lx - (mx + (dx / len) * 11), ly - (my + (dy / len) * 11)) < 14);
  const off = onLake ? 5.5 : 11, r = onLake ? 4.6 : 6.5;
  return { hb, ax, ay, bx, by, hx: mx + (dx / len) * off, hy: my + (dy / len) * off, r, onLake };
}

const TERRAIN_LETTER = { forest: "L", hills: "B", pasture: "W", fields: "G", mountains: "O" };
const RES_LETTER = { lumber: "l", brick: "b", wool: "w", grain: "g", ore: "o" };

/** The preview of a map from GET /api/games/island/maps/{name} (its `board`): hexes with the
 * terrain and numbers the map fixes (shuffled ones marked "?"), lakes, the sea frame and the
 * harbor slots (their kind, or "?" when shuffled). A picture only: nothing to click. */
export function mapPreview(board, title) {
  const hexPts = (xy) => hexPoints(...P(xy), R);
  const all = [...board.hexes.map((x) => x.xy), ...(board.sea || [])];
  const lakes = board.hexes.filter((x) => x.kind === "lake").map((x) => P(x.xy));
  const harbors = (board.harbors || []).map((hb) => harborSpot(hb, lakes));
  // the frame holds every hex (R from its centre) and every harbor's disc, with a margin: the
  // top and bottom harbors are not cut (issue 27, point 12)
  const margin = 3;
  const xs = [...all.map((xy) => P(xy)[0] - R), ...all.map((xy) => P(xy)[0] + R), ...harbors.flatMap((hb) => [hb.hx - hb.r, hb.hx + hb.r])];
  const ys = [...all.map((xy) => P(xy)[1] - R), ...all.map((xy) => P(xy)[1] + R), ...harbors.flatMap((hb) => [hb.hy - hb.r, hb.hy + hb.r])];
  const [x0, x1, y0, y1] = [Math.min(...xs) - margin, Math.max(...xs) + margin, Math.min(...ys) - margin, Math.max(...ys) + margin];
  const svg = s("svg", { class: "map-preview", viewBox: `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`, role: "img", "aria-label": title || t("map.preview") });
  const g = s("g");
  for (const xy of board.sea || []) g.append(s("polygon", { points: hexPts(xy), class: "mp-sea" }));
  for (const hx of board.hexes) {
    const letter = hx.kind === "desert" ? "D" : hx.terrain ? TERRAIN_LETTER[hx.terrain] : null;
    const cls = hx.kind === "lake" ? "mp-lake" : letter ? `t-${letter}` : "mp-shuffled";
    const fill = hx.kind === "lake" || !letter ? null : `url(#t-${letter})`;
    const [cx, cy] = P(hx.xy);
    const name = hx.kind === "lake" ? t("terrain.lake") : letter ? t(`terrain.${TERRAIN[letter]}`) : t("map.shuffled");
    const cell = s("g", { class: `hex ${cls}` }, s("title", {}, hx.token ? `${name} ${hx.token}` : name),
      s("polygon", { points: hexPts(hx.xy), fill, class: "hex-shape" }));
    if (hx.token) {
      const red = hx.token === 6 || hx.token === 8;
      cell.append(s("circle", { cx, cy, r: 6.8, class: "token" }), s("text", { x: cx, y: cy + 2.3, class: `token-num${red ? " red" : ""}` }, hx.token));
    } else if (hx.kind === "lake") {
      cell.append(s("text", { x: cx, y: cy + 2, class: "mp-mark" }, "≈"));
    } else if (!letter) {
      cell.append(s("text", { x: cx, y: cy + 2.3, class: "mp-mark" }, "?"));
    }
    g.append(cell);
  }
  // harbors over the hexes, so that lake harbors show on their lake
  for (const { hb, ax, ay, bx, by, hx, hy, r, onLake } of harbors) {
    const k = hb.kind === "generic" ? "3" : hb.kind ? RES_LETTER[hb.kind] : null;
    const label = k === null ? "?" : k === "3" ? "3:1" : "2:1";
    g.append(s("g", { class: `harbor${k === null ? " shuffled" : ""}` },
      s("title", {}, k === null ? t("map.harbor_shuffled") : k === "3" ? t("harbor.generic") : t("harbor.res", { res: t(`res.${k}`) })),
      s("line", { x1: hx, y1: hy, x2: ax, y2: ay, class: "pier" }), s("line", { x1: hx, y1: hy, x2: bx, y2: by, class: "pier" }),
      s("circle", { cx: hx, cy: hy, r, stroke: k && k !== "3" ? RES_COLOR[k] : "#333", class: "harbor-disc" }),
      s("text", { x: hx, y: hy + 1.6, class: "harbor-ratio", style: onLake ? "font-size:3px" : null }, label)));
  }
  svg.append(patterns(), g);
  return svg;
}
