// The hex geometry of every board, in one place: pointy-top hexes whose centres the server gives
// on the doubled grid (docs/web.md, "Boards"): one doubled step right is half a hex's width
// (r·√3/2), one step down a quarter of its height (r/2), for hexes of circumradius r. The
// island's board (board.js, r = 20) and Scythe's (scythe/board.js, r = 40) both draw with it.

const HALF_WIDTH = Math.sqrt(3) / 2;

/** The SVG point of a doubled-grid point `[x, y]` on a board of hexes of circumradius `r`. */
export function gridPoint([x, y], r) {
  return [x * r * HALF_WIDTH, (y * r) / 2];
}

/** The doubled-grid centre of the axial hex `q,r` (a map's `q,r` items, docs/island.md). */
export function axialCentre(q, r) {
  return [2 * q + r, 3 * r];
}

/** The six corners of the pointy-top hex of circumradius `r` around (cx, cy), clockwise from
 * the top one. */
export function hexCorners(cx, cy, r) {
  const out = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 90);
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

/** The corners as an SVG `points` attribute, each number with `digits` decimals. */
export function hexPoints(cx, cy, r, digits = 2) {
  return hexCorners(cx, cy, r).map((p) => p.map((v) => v.toFixed(digits)).join(",")).join(" ");
}
