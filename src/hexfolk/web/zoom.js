// Zoom and pan of a board, shared by every game's board (the island's board.js, Scythe's
// scythe/board.js and the replays): the SVG's viewBox moves, the SVG keeps filling its box.
import { t } from "./i18n.js";

export const MAX_ZOOM = 4;
/** Zoom and pan of a board's SVG by its viewBox (the SVG keeps filling its box): buttons, the
 * wheel, a pinch of two fingers, a drag once zoomed in, and the keys + − 0 and the arrows while
 * the board or one of its targets has the focus. A drag never clicks the target under it. */
export class BoardZoom {
  constructor(svg, home) {
    this.svg = svg;
    this.home = home;
    this.scale = 1;
    this.cx = home.x + home.w / 2;
    this.cy = home.y + home.h / 2;
    this.pointers = new Map();
    this.dragged = false;
    svg.setAttribute("tabindex", "0");
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.zoomAt(e.deltaY < 0 ? 1.25 : 0.8, this.toBoard(e.clientX, e.clientY));
    }, { passive: false });
    svg.addEventListener("keydown", (e) => this.onKey(e));
    svg.addEventListener("pointerdown", (e) => this.onDown(e));
    svg.addEventListener("pointermove", (e) => this.onMove(e));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) svg.addEventListener(type, (e) => this.onUp(e));
    // a drag or a pinch ends without clicking what is under the finger
    svg.addEventListener("click", (e) => { if (this.dragged) { e.stopPropagation(); e.preventDefault(); this.dragged = false; } }, true);
    this.apply();
  }

  controls() {
    const b = (cls, label, text, fn) => {
      const el = document.createElement("button");
      el.className = `small zoom-btn ${cls}`;
      el.type = "button";
      el.textContent = text;
      el.title = label;
      el.setAttribute("aria-label", label);
      el.addEventListener("click", fn);
      return el;
    };
    const box = document.createElement("div");
    box.className = "zoom-controls";
    box.setAttribute("role", "toolbar");
    box.setAttribute("aria-label", t("zoom.label"));
    this.inBtn = b("zoom-in", t("zoom.in"), "+", () => this.zoomAt(1.5));
    this.outBtn = b("zoom-out", t("zoom.out"), "−", () => this.zoomAt(1 / 1.5));
    this.homeBtn = b("zoom-home", t("zoom.home"), "⤢", () => this.reset());
    box.append(this.inBtn, this.outBtn, this.homeBtn);
    this.apply();
    return box;
  }

  /** Client pixels to board units. */
  toBoard(x, y) {
    const m = this.svg.getScreenCTM();
    if (!m) return [this.cx, this.cy];
    const p = new DOMPoint(x, y).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  zoomAt(factor, at) {
    const next = Math.min(MAX_ZOOM, Math.max(1, this.scale * factor));
    if (at) {
      // keep the point under the pointer where it is
      const k = this.scale / next;
      this.cx = at[0] + (this.cx - at[0]) * k;
      this.cy = at[1] + (this.cy - at[1]) * k;
    }
    this.scale = next;
    this.apply();
  }

  panBy(dx, dy) { this.cx += dx; this.cy += dy; this.apply(); }
  reset() { this.scale = 1; this.cx = this.home.x + this.home.w / 2; this.cy = this.home.y + this.home.h / 2; this.apply(); }

  apply() {
    const { x, y, w, h } = this.home;
    const vw = w / this.scale, vh = h / this.scale;
    this.cx = Math.min(x + w - vw / 2, Math.max(x + vw / 2, this.cx));
    this.cy = Math.min(y + h - vh / 2, Math.max(y + vh / 2, this.cy));
    this.svg.setAttribute("viewBox", `${(this.cx - vw / 2).toFixed(2)} ${(this.cy - vh / 2).toFixed(2)} ${vw.toFixed(2)} ${vh.toFixed(2)}`);
    const zoomed = this.scale > 1.001;
    this.svg.classList.toggle("zoomed", zoomed);
    this.svg.dataset.zoom = this.scale.toFixed(2);
    if (this.inBtn) {
      this.inBtn.disabled = this.scale >= MAX_ZOOM - 1e-3;
      this.outBtn.disabled = !zoomed;
      this.homeBtn.disabled = !zoomed;
    }
  }

  onKey(e) {
    const step = this.home.w / this.scale / 8;
    const keys = {
      "+": () => this.zoomAt(1.5), "=": () => this.zoomAt(1.5), "-": () => this.zoomAt(1 / 1.5), "0": () => this.reset(),
      ArrowLeft: () => this.panBy(-step, 0), ArrowRight: () => this.panBy(step, 0),
      ArrowUp: () => this.panBy(0, -step), ArrowDown: () => this.panBy(0, step),
    };
    const fn = keys[e.key];
    if (!fn || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key.startsWith("Arrow") && this.scale <= 1.001) return; // nothing to pan: let the page scroll
    e.preventDefault();
    fn();
  }

  onDown(e) {
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pointers.size === 1) { this.start = { x: e.clientX, y: e.clientY }; this.moved = false; }
    if (this.pointers.size === 2) this.pinch = this.spread();
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, at: this.toBoard((a.x + b.x) / 2, (a.y + b.y) / 2) };
  }

  onMove(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    const last = { ...p };
    p.x = e.clientX;
    p.y = e.clientY;
    if (this.pointers.size >= 2 && this.pinch) {
      const now = this.spread();
      this.zoomAt(now.d / this.pinch.d, this.pinch.at);
      this.pinch = this.spread();
      this.moved = true;
      this.dragged = true;
      e.preventDefault();
      return;
    }
    if (this.scale <= 1.001) return; // nothing to pan
    if (!this.moved && Math.hypot(p.x - this.start.x, p.y - this.start.y) < 6) return;
    this.moved = true;
    this.dragged = true;
    const [ax, ay] = this.toBoard(last.x, last.y);
    const [bx, by] = this.toBoard(p.x, p.y);
    this.panBy(ax - bx, ay - by);
    e.preventDefault();
  }

  onUp(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (!this.pointers.size && !this.moved) this.dragged = false;
  }
}
