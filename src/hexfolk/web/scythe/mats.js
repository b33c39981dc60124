// The mats and tracks of a Scythe table: a player's mat (four sections with top and bottom
// actions, the costs still exposed, coins, upgrades, recruits, the section used last turn, the
// action token), faction and mech abilities, power, popularity and its band, coins, combat
// cards, objectives, the Factory card, the other players' public tracks, the triumph track.
// Printed values come from the geometry's components; what can be clicked is only what the
// listed actions name (legal.js), each element carrying its action texts in data-act.
import { h, clickable } from "../dom.js";
import { t } from "../i18n.js";
import { reasonText } from "../reasons.js";
import { FACTION_COLOR, FACTION_INK, FACTION_LETTER } from "./board.js";
import { cardText } from "./cardtext.js";

export const STAR_SOURCES = ["upgrades", "mechs", "structures", "recruits", "workers", "objective", "combat", "popularity", "power"];
/** The listed top actions a top box stands for (docs/scythe.md notation). */
const TOP_ACTION = { "move-coins": "coins", "bolster-power": "bolster power", "bolster-cards": "bolster cards", "trade-popularity": "trade popularity" };
const TOP_OF = { move: ["move-units", "move-coins"], bolster: ["bolster-power", "bolster-cards"], trade: ["trade-popularity"], produce: ["produce-territories"] };

export function factionBadge(f, extra = "") {
  return h("span.fbadge", { style: `background:${FACTION_COLOR[f] || "#888"};color:${FACTION_INK[f] || "#fff"}`, title: t(`faction.${f}`), "aria-hidden": "true", text: FACTION_LETTER[f] || "?" }, extra);
}

/** The band of a popularity (SR-53) from the printed bands. */
export function bandOf(comp, pop) {
  const bands = comp.popularity_bands;
  const i = bands.findIndex((b) => pop >= b.min && pop <= b.max);
  return { index: i, band: bands[i] };
}

/** A card's cost or benefit in words: {coins: 2} -> "$2"; ["build"] -> "Build". */
export function effectWords(x) {
  if (!x) return "";
  if (Array.isArray(x)) return x.map(effectWords).filter(Boolean).join(" + ");
  if (typeof x === "string") return t(`bottom.${x}`);
  return Object.entries(x).map(([k, v]) => {
    if (k === "choose") return v.map((a) => t(`bottom.${a}`)).join(` ${t("sc.or")} `);
    if (k === "coins") return `$${v}`;
    return `${v} ${t(`gain.${k}`)}`;
  }).join(", ");
}

function costWords(cost) {
  const w = effectWords(cost);
  return w || t("sc.free");
}

function stat(label, value, cls, title) {
  return h(`span.stat.st-${cls}`, { title: title || label }, h("span.sl", { text: label }), h("span.sv", { text: value }));
}

/** The values of a top box: base, or upgraded when the box is in `upgrades`. */
function boxValue(comp, box, upgrades) {
  const b = comp.top_boxes.find((x) => x.id === box);
  if (!b) return "";
  return upgrades.includes(box) ? b.upgraded : b.base;
}

/** One player's mat. `L` (the listed actions) only for the viewer's own mat; `refused` (the
 * view's reasons for standing actions not legal now, docs/protocol.md) says why a section
 * cannot be chosen, as its tooltip and accessible description. */
export function playerMat(comp, ps, L, onAct, onChoose, current, refused = []) {
  const why = new Map((refused || []).map((r) => [r.action, reasonText(r.why, r.reason, "scythe")]));
  const mat = comp.mats[ps.mat];
  if (!mat) return h("div.mat", { text: ps.mat || "?" });
  const upgrades = ps.upgrades || [];
  const sections = mat.sections.map((sec, i) => {
    const n = String(i + 1);
    const act = L ? L.sections.get(n) : null;
    const last = ps.last_section === i + 1;
    const here = current === i + 1;
    const tops = (TOP_OF[sec.top] || []).map((box) => {
      const ups = L ? L.upgrades.filter((u) => u.box === box) : [];
      // the current section's listed top action of this box (bolster power, coins, ...)
      const top = L && here && TOP_ACTION[box] && L.buttons.includes(TOP_ACTION[box]) ? TOP_ACTION[box] : null;
      const acts = ups.length ? ups.map((u) => u.action).join("|") : top;
      const chip = h(`span.topbox${upgrades.includes(box) ? ".up" : ""}${acts ? ".pick" : ""}`, {
        "data-box": box, title: t(`box.${box}`), "data-act": acts,
      }, `${t(`box.${box}`)} ${boxValue(comp, box, upgrades)}${upgrades.includes(box) ? " ▲" : ""}`);
      if (ups.length) clickable(chip, `${t("sca.upgrade")}: ${t(`box.${box}`)}`, () => onChoose(t("sca.upgrade"), ups.map((u) => [u.action, `${t(`box.${box}`)} → ${t(`bottom.${u.bottom}`)} (${L.hints[u.action] || ""})`])));
      else if (top) clickable(chip, `${t(`sca.${top}`)} (${L.hints[top] || ""})`, () => onAct(top));
      return chip;
    });
    const topCost = comp.top_costs[sec.top] || {};
    const bottomCost = (ps.bottom_costs || {})[sec.bottom];
    const cubes = (ps.cubes || {})[sec.bottom] || 0;
    const recruited = (ps.recruits || []).includes(sec.bottom);
    const enl = L ? L.enlists.filter((e) => e.recruit === sec.bottom) : [];
    const bottomAct = L && L.bottom && here ? L.bottom : null;
    const recruit = h(`span.recruit${recruited ? ".on" : ""}${enl.length ? ".pick" : ""}`, {
      title: `${t("sc.recruit")}: ${effectWords(comp.recruit_bonus[sec.bottom])}`, "data-act": enl.length ? enl.map((e) => e.action).join("|") : null,
    }, recruited ? `☺ ${t("sc.recruit")}` : `○ ${t("sc.recruit")}`);
    if (enl.length) clickable(recruit, `${t("sca.enlist")}: ${t(`bottom.${sec.bottom}`)}`, () => onChoose(t("sca.enlist"), enl.map((e) => [e.action, `${t(`bottom.${e.bottom || sec.bottom}`)} · ${t(`space.${e.space}`)} (${L.hints[e.action] || ""})`])));
    const bottom = h(`div.sec-bottom${bottomAct ? ".pick" : ""}`, { "data-act": bottomAct },
      h("strong", { text: t(`bottom.${sec.bottom}`) }),
      h("span.cost", { title: t("sc.cost_now") }, `${bottomCost ?? sec.cost} ${t(`res.${sec.resource}`)}`),
      sec.cost > sec.min ? h("span.cubes", { title: t("sc.cubes") }, `▼${cubes}/${sec.cost - sec.min}`) : null,
      h("span.coins", { title: t("sc.section_coins") }, `+$${sec.coins}`), recruit);
    if (bottomAct) clickable(bottom, `${t("sca.bottom")}: ${t(`bottom.${sec.bottom}`)} (${L.hints[bottomAct] || ""})`, () => onAct(bottomAct));
    const el = h(`div.section${last ? ".last" : ""}${here ? ".current" : ""}${act ? ".pick" : ""}`, { "data-section": n, "data-act": act },
      h("div.sec-head", {}, h("span.sec-n", { text: n }), here ? h("span.token", { title: t("sc.token"), text: "◆" }) : null,
        last && !here ? h("span.lastnote", { text: t("sc.last_section") }) : null),
      h("div.sec-top", {}, h("strong", { text: t(`top.${sec.top}`) }), h("span.cost", { text: costWords(topCost) }), ...tops),
      bottom);
    if (act) clickable(el, `${t("sca.section")} ${n}: ${L.hints[act] || ""}`, () => onAct(act));
    const reason = L && !act ? why.get(`section ${n}`) : null;
    if (reason) {
      el.title = reason;
      el.setAttribute("aria-description", reason);
      el.dataset.why = reason; // a tap or the keyboard's focus says why (reasons.js: no hover on touch)
      el.tabIndex = 0;
    }
    return el;
  });
  const fsec = L ? L.sections.get("factory") : null;
  const kids = [h("div.sections", {}, sections)];
  if (ps.factory_card) {
    const fc = comp.factory_cards[String(ps.factory_card)] || {};
    const el = h(`div.section.factory${fsec ? ".pick" : ""}${current === 5 ? ".current" : ""}`, { "data-section": "factory", "data-act": fsec },
      h("div.sec-head", {}, h("span.sec-n", { text: "F" }), current === 5 ? h("span.token", { text: "◆" }) : null),
      h("div.sec-top", {}, h("strong", { text: `${t("sc.factory_card")} ${ps.factory_card}` }), h("span", { text: cardText(`card.fac.${ps.factory_card}`, `${costWords(fc.cost)} → ${effectWords(fc.benefit)}`) })),
      h("div.sec-bottom", {}, h("strong", { text: t("sca.move") }), h("span", { text: t("sc.factory_move", { n: fc.move_steps || 2 }) })));
    if (fsec) clickable(el, `${t("sca.section")} ${t("sc.factory_card")}: ${L.hints[fsec] || ""}`, () => onAct(fsec));
    kids.push(el);
  }
  return h("div.mat", { "data-mat": ps.mat }, kids);
}

/** Tracks of a player: power, popularity (band), coins, stars, cards, objectives, pieces. */
export function tracks(comp, ps) {
  const b = bandOf(comp, ps.popularity);
  const built = Object.keys(ps.structures || {}).length;
  const lim = comp.limits;
  return h("div.pstats", {},
    stat(t("sc.power"), `${ps.power}/${comp.tracks.power_max}`, "power"),
    stat(t("sc.popularity"), `${ps.popularity} · ${t("sc.band")} ${b.index + 1}`, "pop", t("sc.band_title", { star: b.band.star, territory: b.band.territory, res: b.band.resources2 })),
    stat(t("sc.coins"), `$${ps.coins}`, "coins"),
    stat(t("sc.stars"), ps.star_total, "stars"),
    stat(t("sc.combat_cards"), ps.combat_cards, "cards"),
    stat(t("sc.objectives"), ps.objectives, "obj"),
    stat(t("sc.workers"), `${ps.workers_out}/${lim.workers}`, "workers", t("sc.workers_title", { n: lim.workers })),
    stat(t("sc.mechs"), `${(ps.mechs || []).length}/${lim.mechs}`, "mechs"),
    stat(t("sc.structures"), `${built}/${lim.structures}`, "structs"),
    stat(t("sc.recruits"), `${(ps.recruits || []).length}/${lim.recruits}`, "recruits"),
    stat(t("sc.upgrades"), `${(ps.upgrades || []).length}/${lim.upgrades}`, "upgrades"));
}

/** The faction's ability and its mech abilities, the uncovered ones marked. */
export function abilities(comp, ps) {
  const f = comp.factions[ps.faction];
  if (!f) return null;
  const deployed = new Set(ps.mechs || []);
  return h("div.abilities", {},
    h("span.ability.faction", { title: t(`ability.${f.ability}.text`) }, `${t(`ability.${f.ability}`)}`),
    f.mech_abilities.map((m) => h(`span.ability.mech${deployed.has(m) ? ".on" : ""}`, { title: `${t(`ability.${m}.text`)}${deployed.has(m) ? "" : ` (${t("sc.not_deployed")})`}` }, `${deployed.has(m) ? "⬢" : "⬡"} ${t(`ability.${m}`)}`)));
}

/** The triumph track: every player's stars by source. */
export function triumphTrack(comp, players, seatName) {
  const head = h("tr", {}, h("th", { text: t("player") }), STAR_SOURCES.map((src) => h("th", { title: t(`star.${src}`), text: t(`star.${src}.short`) })), h("th", { text: "★" }));
  const rows = players.map((ps, i) => h("tr", { "data-seat": i }, h("th", {}, factionBadge(ps.faction), ` ${seatName(i)}`),
    STAR_SOURCES.map((src) => h("td", { text: ps.stars && ps.stars[src] ? "★".repeat(ps.stars[src]) : "·" })),
    h("td.total", { text: `${ps.star_total}/${comp.stars_to_end}` })));
  return h("table.triumph", { "aria-label": t("sc.triumph") }, h("thead", {}, head), h("tbody", {}, rows));
}
