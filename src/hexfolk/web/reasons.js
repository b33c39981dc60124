// Refusals as data (docs/protocol.md, "Reasons as data"): a reason {code, params, rule} in the
// page's language. The templates are i18n/reasons/<lang>.json: `why.<code>` for the island and
// the kernel's `generic_*` codes, `sc.why.<code>` for Scythe. An English page shows the
// engine's own sentence (the English templates are the same text); a code without a template
// in the page's language falls back to the English sentence.
import { t, lang, hasText } from "./i18n.js";

const PLACEHOLDER = /\{(\w+)(?::(\w+)|\|([^|{}]*)\|([^|{}]*))?\}/g;
const ISLAND_RES = { lumber: "l", brick: "b", wool: "w", grain: "g", ore: "o" };

const placesOf = {}; // game -> (kind, value) -> label

/** How `game`'s page labels its places (`{node:node}`, `{hex:hex}`, `{edge:edge}` of its reasons,
 * docs/log.md): `(kind, value) -> label`, as its board shows them. */
export function registerReasonPlaces(game, label) {
  placesOf[game] = label;
}
const place = (kind) => (v, game) => (placesOf[game] ? placesOf[game](kind, v) : String(v));

function and(items) {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")}${t("why._and")}${items[items.length - 1]}`;
}
/** The first text of `v` under one of the prefixes (the page's own words: `res.oil`, `top.move`),
 * else `v` itself. */
function word(v, ...prefixes) {
  for (const p of [...prefixes, "sc.why.w."]) if (hasText(`${p}${v}`)) return t(`${p}${v}`);
  return String(v);
}
function res(v) {
  return v in ISLAND_RES ? t(`res.${ISLAND_RES[v]}`) : word(v, "res.");
}
const act = (v) => word(v, "top.", "bottom.");
function bundle(b) {
  return and(Object.entries(b || {}).map(([r, n]) => `${n} ${res(r)}`));
}

/** The renderers of {name:kind}, as in core/reasons.py and the games' reason_texts.py. */
export const KINDS = {
  seats: (v) => (v.length === 1 ? t("why._seat", { n: v[0] }) : t("why._seats", { list: and(v.map(String)) })),
  seats_or: (v) => v.map((q) => t("why._seat", { n: q })).join(t("why._or")),
  players: (v) => v.map((q) => `P${q}`).join(", "),
  list: (v) => v.map(String).join(", "),
  list_or: (v) => v.map(act).join(t("why._or")),
  cap: (v) => { const s = act(v); return s.charAt(0).toUpperCase() + s.slice(1); },
  q: (v) => `'${v}'`,
  res,
  cards: (v) => (Object.keys(v || {}).length ? bundle(v) : t("why._no_cards")),
  counts: bundle,
  card: (v) => t(`dev.${v}`),
  piece: (v) => t(`why.w.piece.${v}`),
  trade: (v) => t(`why.w.trade.${v}`),
  draw: (v) => t(`why.w.draw.${v}`),
  prompt: (v) => t(`prompt.${v}`),
  unit: (v) => word(v, "sc."),
  structure: (v) => word(v, "struct."),
  act,
  node: place("node"),
  edge: place("edge"),
  hex: place("hex"),
  territory: place("territory"),
  territories: (v, game) => v.map((x) => place("territory")(x, game)).join(", "),
  decision: (v) => t(`sc.why.d.${v}`),
  gain: (v) => t(`sc.why.w.${v}`),
  track: (v) => and(Object.entries(v || {}).map(([k, n]) => (k === "coins" ? `$${n}`
    : k === "combat_cards" ? `${n} ${t(n === 1 ? "sc.why.w.combat_card" : "sc.why.w.combat_cards")}` : `${n} ${word(k, "sc.")}`)))
    || t("sc.why.w.nothing"),
};

/** The template key of `code` in `game`'s reasons: the kernel's `generic_*` codes are shared,
 * each game's own codes are its own (the island and Scythe both have a `game_over`). */
function keyOf(code, game) {
  if (code.startsWith("generic_")) return `why.${code}`;
  return game === "scythe" ? `sc.why.${code}` : `why.${code}`;
}

/** `game`'s reason in the page's language, or null when a code (or a nested one) has no
 * template in that language. */
export function renderReason(reason, game) {
  if (!reason || typeof reason.code !== "string") return null;
  const key = keyOf(reason.code, game);
  if (!hasText(key)) return null;
  const params = reason.params || {};
  let missing = false;
  const text = t(key).replace(PLACEHOLDER, (m, name, kind, one, other) => {
    const v = name === "rule" ? reason.rule : params[name];
    if (v === undefined || v === null) { missing = name !== "rule"; return ""; }
    if (one !== undefined) return (Array.isArray(v) ? v.length === 1 : v === 1) ? one : other;
    if (kind) return KINDS[kind] ? KINDS[kind](v, game) : String(v);
    if (typeof v === "object" && typeof v.code === "string") {
      const inner = renderReason(v, game);
      if (inner === null) missing = true;
      return inner ?? "";
    }
    return String(v);
  });
  return missing ? null : text;
}

/** What to show for a refusal: the engine's English sentence on an English page, else the
 * reason rendered in the page's language, else (no template) the English sentence. */
export function reasonText(reason, english, game) {
  if (lang === "en") return english;
  return renderReason(reason, game) ?? english;
}

// --- a refused control's reason on a tap or a keyboard's focus ---------------------------------
// A touch screen has no hover, so a disabled control's tooltip is never seen there, and a
// disabled button takes no click. A control that says why it is refused carries the reason in
// `data-why`, or as its accessible description (`aria-describedby`, e.g. the island's action
// buttons); a tap on it (its pointerup still reaches the page) or the keyboard's focus on it (or
// on its "?") shows the reason, in the page's language as rendered above, in a small bubble by
// the control (#why-pop, a status region), until the next tap or a few seconds pass.

/** The reason a refused control shows: its `data-why`, else its description's text. */
export function whyOf(el) {
  if (!el) return null;
  if (el.dataset && el.dataset.why) return el.dataset.why;
  const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
  const text = ids.map((id) => (document.getElementById(id) || {}).textContent || "").join(" ").trim();
  return text || null;
}

const refused = (el) => el.disabled || el.getAttribute("aria-disabled") === "true" || (el.dataset.why && !el.dataset.act);
let popTimer = 0;

/** Show `text` in the bubble by `anchor` (above it, or below when there is no room). */
export function showWhy(anchor, text) {
  let pop = document.getElementById("why-pop");
  if (!pop) {
    pop = document.createElement("div");
    pop.id = "why-pop";
    pop.setAttribute("role", "status");
    document.body.append(pop);
  }
  pop.textContent = text;
  pop.hidden = false;
  const r = anchor.getBoundingClientRect();
  const w = Math.min(pop.offsetWidth, innerWidth - 16);
  const left = Math.max(8, Math.min(r.left + r.width / 2 - w / 2, innerWidth - w - 8));
  const above = r.top - pop.offsetHeight - 8;
  pop.style.left = `${left + scrollX}px`;
  pop.style.top = `${(above >= 4 ? above : r.bottom + 8) + scrollY}px`;
  clearTimeout(popTimer);
  popTimer = setTimeout(hideWhy, 5000);
}

export function hideWhy() {
  const pop = document.getElementById("why-pop");
  if (pop) pop.hidden = true;
}

let installed = false;
/** Listen once, for the whole page, for taps and focus on refused controls. */
export function installWhyTaps() {
  if (installed) return;
  installed = true;
  document.addEventListener("pointerdown", (e) => { if (!e.target.closest || !e.target.closest("#why-pop")) hideWhy(); }, true);
  document.addEventListener("pointerup", (e) => {
    const el = e.target.closest && e.target.closest("[data-why], [aria-describedby]");
    if (!el || !refused(el)) return;
    const why = whyOf(el);
    if (why) showWhy(el, why);
  });
  document.addEventListener("focusin", (e) => {
    const el = e.target;
    if (!el.matches || !el.matches(":focus-visible")) return; // the keyboard's focus, not a tap's
    // the island's "?" beside a refused button speaks for the button
    const target = el.classList.contains("why-tap") ? el.parentElement.querySelector("[aria-describedby]") : el;
    const why = target && (refused(target) || el !== target) ? whyOf(target) : null;
    if (why) showWhy(el, why);
  });
  document.addEventListener("focusout", hideWhy);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideWhy(); });
}
