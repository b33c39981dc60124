// Cards of a Scythe table: the encounter card drawn (its options, Polania's two), the Factory
// offer (seen by its visitor alone) and the card kept, the viewer's combat cards and objectives
// (reveal when listed), the revealed objectives and the structure bonus tile.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardText } from "./cardtext.js";
import { effectWords } from "./mats.js";

function costText(cost) { return effectWords(cost) || t("sc.free"); }


function objective(comp, n) {
  const o = comp.objectives[String(n)] || {};
  return [cardText(`card.obj.${n}.name`, o.name || `#${n}`), cardText(`card.obj.${n}.cond`, o.condition || "")];
}

/** The drawn encounter card; `where(loc)` names its territory in words. */
export function encounterPanel(comp, obs, L, onAct, where = (loc) => loc) {
  const e = obs.encounter;
  if (!e) return null;
  const chosen = new Set(e.chosen || []);
  return h("section.panel.encounter#encounter", {}, h("h2", { text: t("sc.encounter", { n: e.card, loc: where(e.territory) }) }),
    h("ol.options", {}, e.options.map((o, i) => {
      const k = String(i + 1);
      const act = L.options.get(k);
      return h(`li.option${chosen.has(i + 1) ? ".chosen" : ""}`, {},
        h("span.otext", { text: cardText(`card.enc.${e.card}.${k}`, `${costText(o.cost)} → ${effectWords(o.benefit)}`) }),
        act ? h("button.small.primary", { "data-act": act, title: L.hints[act] || "", text: t("sc.choose_option", { k }), onclick: () => onAct(act) }) : chosen.has(i + 1) ? h("span.badge", { text: t("sc.chosen") }) : null);
    })));
}

export function factoryPanel(comp, obs, L, onAct) {
  const offer = obs.factory_offer_cards;
  if (!offer || !L.factory.size) return null;
  return h("section.panel.factory-offer#factory-offer", {}, h("h2", { text: t("sc.factory_offer") }),
    h("ul.options", {}, offer.map((n) => {
      const c = comp.factory_cards[String(n)] || {};
      const act = L.factory.get(String(n));
      return h("li.option", { "data-card": n }, h("strong", { text: `#${n}` }),
        h("span.otext", { text: cardText(`card.fac.${n}`, `${costText(c.cost)} → ${effectWords(c.benefit)}`) }), h("span.muted", { text: t("sc.factory_move", { n: c.move_steps || 2 }) }),
        act ? h("button.small.primary", { "data-act": act, title: L.hints[act] || "", text: t("sc.keep"), onclick: () => onAct(act) }) : null);
    })));
}

/** The viewer's combat cards, objectives (with reveal buttons when listed) and the tile. */
export function myCards(comp, obs, L, seat, onAct) {
  const me = seat !== null ? obs.player_state[seat] : null;
  const kids = [];
  if (me && me.hand) {
    const pays = [...L.payCards.entries()];
    kids.push(h("div.hand-row", {}, h("span.label", { text: t("sc.combat_cards") }),
      me.hand.length ? [...me.hand].sort((a, b) => a - b).map((v) => h("span.ccard-face", { text: String(v) })) : h("span.muted", { text: t("sc.none") }),
      pays.map(([v, a]) => h("button.small", { "data-act": a, title: L.hints[a] || "", text: t("sc.pay_card", { v }), onclick: () => onAct(a) }))));
  }
  if (me && me.objective_cards) {
    kids.push(h("div.objectives", {}, h("span.label", { text: t("sc.objectives") }), me.objective_cards.map((n) => {
      const [name, cond] = objective(comp, n);
      const act = L.reveals.get(String(n));
      return h("div.objective", { "data-objective": n }, h("strong", { text: name }), h("span", { text: cond }),
        act ? h("button.small.primary", { "data-act": act, title: L.hints[act] || "", text: t("sc.reveal_obj"), onclick: () => onAct(act) }) : null);
    })));
  }
  const revealed = obs.revealed_objectives || [];
  if (revealed.length) {
    kids.push(h("div.objectives.public", {}, h("span.label", { text: t("sc.revealed") }), revealed.map((r) => {
      const n = typeof r === "object" ? r.number ?? r.card : r;
      const [name, cond] = objective(comp, n);
      return h("div.objective", {}, h("strong", { text: name }), h("span", { text: cond }));
    })));
  }
  if (obs.tile && comp.tiles[obs.tile]) {
    const tile = comp.tiles[obs.tile];
    kids.push(h("div.tile", {}, h("span.label", { text: t("sc.tile") }), h("span", { text: `${t(`tile.${obs.tile}`)}: ${tile.ladder.map(([n, c]) => `${n}+ → $${c}`).join(" · ")}` })));
  }
  if (!kids.length) return null;
  return h("section.panel.mycards#my-cards", {}, h("h2", { text: me ? t("sc.your_cards") : t("sc.public_cards") }), kids);
}
