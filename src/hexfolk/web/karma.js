// A player's name as others see it: a link to their profile (#/player/<id>) and their karma
// beside it ("92%", docs/profiles.md), asked for in batches (GET /api/players/karma) and kept
// for this page's life: a karma changes only when a game ends.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t, errorText } from "./i18n.js";

const known = new Map(); // player id -> {karma, games, stayed} (null: asked, not come yet)
let wanted = new Set();
let timer = 0;
let rule = { of: 20, shown_from: 5 };

/** Ask for the karma of `ids` (those not known yet), in one request a tick. */
export function askKarma(ids) {
  for (const id of ids) if (id && !known.has(id)) { known.set(id, null); wanted.add(id); }
  if (wanted.size && !timer) timer = setTimeout(fetchWanted, 0);
}

async function fetchWanted() {
  timer = 0;
  const ids = [...wanted].slice(0, 100);
  ids.forEach((id) => wanted.delete(id));
  if (wanted.size) timer = setTimeout(fetchWanted, 0);
  try {
    const r = await api("GET", `/api/players/karma?ids=${ids.map(encodeURIComponent).join(",")}`);
    rule = { of: r.of, shown_from: r.shown_from };
    for (const [id, k] of Object.entries(r.karma)) { known.set(id, k); fill(id); }
  } catch { ids.forEach((id) => known.delete(id)); } // asked again at the next draw
}

/** Keep the karma that came with a table's seats (GET /api/tables/{id} gives each person's):
 * the table page asks for none of its own. */
export function primeKarma(seats) {
  for (const x of seats || []) if (x.player_id && x.karma) known.set(x.player_id, x.karma);
}

/** The words of a karma: its badge text ("92%", "" when not shown yet) and its tooltip. */
export function karmaWords(k) {
  if (!k) return { text: "", title: "" };
  if (k.karma === null || k.karma === undefined) return { text: "", title: t("karma.none", { n: rule.shown_from, games: k.games }) };
  return { text: `${k.karma}%`, title: t("karma.tip", { stayed: k.stayed, games: k.games }) };
}

function fill(id) {
  for (const el of document.querySelectorAll(`span.karma[data-player="${CSS.escape(id)}"]`)) paint(el, known.get(id));
}

function paint(el, k) {
  const { text, title } = karmaWords(k);
  el.textContent = text;
  el.title = title;
  el.setAttribute("aria-label", title);
  el.hidden = !text;
  if (k && k.karma !== null && k.karma !== undefined) el.dataset.level = k.karma >= 90 ? "high" : k.karma >= 70 ? "mid" : "low";
}

/** The karma badge of `playerId` (filled when it comes). */
export function karmaTag(playerId) {
  const el = h("span.karma", { "data-player": playerId, hidden: true });
  const k = known.get(playerId);
  if (k) paint(el, k);
  else askKarma([playerId]);
  return el;
}

/** A person's name as a link to their profile; `newTab` at a table (a click must not take a
 * player away from their game). */
export function personLink(playerId, name, { newTab = false } = {}) {
  const attrs = { href: `#/player/${encodeURIComponent(playerId)}`, text: name, title: t("profile.open", { name }) };
  if (newTab) Object.assign(attrs, { target: "_blank", rel: "noopener" });
  return h("a.plink", attrs);
}

/** A person's name linking to their profile, with their karma beside it. */
export function personName(playerId, name, options) {
  return h("span.person", {}, personLink(playerId, name, options), karmaTag(playerId));
}

/** A refusal in the page's language where it is about karma (a table's least karma), else the
 * server's sentence. */
export function refusalText(err) {
  const d = (err && err.detail) || {};
  if (err && err.code === "karma_too_low") return t("karma.err.too_low", { required: d.required, karma: d.karma });
  if (err && err.code === "karma_unknown") return t("karma.err.unknown", { required: d.required, n: d.shown_from, games: d.games });
  return err ? errorText(err) : "";
}

/** The least karma a table asks for, in words ("" for none). */
export function minKarmaLine(tb) {
  return tb.min_karma ? t("karma.min_line", { n: tb.min_karma }) : "";
}

/** The choices of a table's least karma (none, or a percent). */
export const MIN_KARMAS = [50, 60, 70, 80, 90];

/** The select of a table's least karma (`value`: the table's, null for none). */
export function minKarmaSelect(id, value, onchange) {
  const opts = [["", t("karma.min_none")], ...MIN_KARMAS.map((n) => [String(n), `${n}%`])];
  if (value && !MIN_KARMAS.includes(value)) opts.push([String(value), `${value}%`]);
  return h(`select#${id}`, { onchange }, opts.map(([v, label]) => h("option", { value: v, text: label, selected: v === (value ? String(value) : "") })));
}
