// Tiny DOM helpers: h("div.cls#id", {attrs}, children...), the toast, SVG elements.
export function h(sel, attrs, ...kids) {
  const [tag, ...rest] = sel.split(/(?=[.#])/);
  const el = document.createElement(tag || "div");
  for (const r of rest) { if (r[0] === ".") el.classList.add(r.slice(1)); else el.id = r.slice(1); }
  setAttrs(el, attrs);
  append(el, kids);
  return el;
}
export const SVGNS = "http://www.w3.org/2000/svg";
export function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v);
  append(el, kids);
  return el;
}
function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
}
function append(el, kids) {
  for (const k of kids.flat(Infinity)) {
    if (k === null || k === undefined || k === false) continue;
    el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
}
let toastTimer = 0;
export function toast(msg, kind = "error") {
  const el = document.getElementById("toast");
  el.textContent = msg;
  el.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = ""; }, 6000);
}
/** Make an element act as a button for mouse and keyboard. */
export function clickable(el, label, fn) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("click", (e) => { e.stopPropagation(); fn(); });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); }
  });
}

/** Replace a container's children with `kids`, keeping each old child that is equal to a new
 * one (same tag, attributes and content: `isEqualNode`) as the same element, unmoved when the
 * order holds. A redraw that changes nothing about a button (the same view sent again, an undo
 * offer that changed beside it) leaves that button in place, so a click that began on it
 * (mouse down before the redraw, up after) still lands: a replaced node loses it. The kept
 * node keeps its old listeners, so a listener must depend only on what its attributes show. */
export function keepEqual(container, kids) {
  const want = kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false)
    .map((k) => (k instanceof Node ? k : document.createTextNode(String(k))));
  const old = [...container.childNodes];
  const next = want.map((k) => {
    const i = old.findIndex((o) => o !== null && o.isEqualNode(k));
    if (i < 0) return k;
    const o = old[i];
    old[i] = null;
    return o;
  });
  for (const o of old) if (o !== null) o.remove();
  let cur = container.firstChild;
  for (const n of next) {
    if (n === cur) cur = cur.nextSibling;
    else container.insertBefore(n, cur);
  }
}

/** Keep a container's children in step with keyed items: a child whose key and signature are
 * unchanged stays the same element (focus, hover and a half-done click survive redraws). */
export function sync(container, items) {
  const old = new Map();
  for (const el of container.children) if (el.dataset.key) old.set(el.dataset.key, el);
  const next = items.map(({ key, sig, build }) => {
    const prev = old.get(key);
    if (prev && prev.dataset.sig === sig) return prev;
    const el = build();
    el.dataset.key = key;
    el.dataset.sig = sig;
    return el;
  });
  // only what changed is removed or inserted: a kept child is never taken out and put back
  // (a live region, like the log, then reads the new lines only)
  const keep = new Set(next);
  for (const el of [...container.children]) if (!keep.has(el)) el.remove();
  let cur = container.firstElementChild;
  for (const el of next) {
    if (el === cur) cur = cur.nextElementSibling;
    else container.insertBefore(el, cur);
  }
}
