// Combat: who fights whom where, who has committed (never what, before the reveal), the secret
// commitment composer (a dial up to the highest listed and the combat cards listed with it),
// and the reveal of the last combat read from the params of the log entries everyone sees.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { factionBadge } from "./mats.js";

/** The combat under way and the commitment composer of this seat (when commits are listed). */
export function combatPanel(obs, L, seat, seatName, state, onAct, redraw) {
  const c = obs.combat;
  if (!c && !L.commits.length) return null;
  const facs = (obs.player_state || []).map((p) => p.faction);
  const kids = [];
  if (c) {
    const committed = new Set((c.commitments && c.commitments.committed) || []);
    const side = (s, role) => h("div.cside", { "data-seat": s }, factionBadge(facs[s]), h("strong", { text: seatName(s) }), h("span.muted", { text: t(`sc.${role}`) }),
      c.commitments ? h(`span.committed${committed.has(s) ? ".yes" : ""}`, { text: committed.has(s) ? t("sc.committed") : t("sc.deciding") }) : null);
    kids.push(h("p.cwhere", { text: t("sc.combat_on", { loc: c.territory }) }), h("div.csides", {}, side(c.attacker, "attacker"), h("span.vs", { text: "⚔" }), side(c.defender, "defender")));
  }
  if (L.commits.length) kids.push(commitComposer(obs, L, seat, state, onAct, redraw));
  return h("section.panel.combat#combat", { "aria-label": t("sc.combat") }, h("h2", { text: t("sc.combat") }), kids);
}

function commitComposer(obs, L, seat, state, onAct, redraw) {
  const me = obs.player_state[seat];
  const dials = [...new Set(L.commits.map((c) => c.dial))].sort((a, b) => a - b);
  const maxCards = Math.max(...L.commits.map((c) => c.cards.length));
  const cardValues = [...new Set(L.commits.flatMap((c) => c.cards))].sort((a, b) => a - b);
  const hand = (me.hand || []).filter((v) => cardValues.includes(v)).sort((a, b) => a - b);
  if (state.dial === undefined || !dials.includes(state.dial)) state.dial = dials[0];
  state.picked = (state.picked || []).filter((i) => i < hand.length);
  const cards = state.picked.map((i) => hand[i]).sort((a, b) => a - b);
  const match = L.commits.find((c) => c.dial === state.dial && c.cards.length === cards.length && c.cards.every((v, i) => v === cards[i]));
  const total = state.dial + cards.reduce((a, b) => a + b, 0);
  return h("div.commit#commit", {},
    h("p", { text: t("sc.commit_lead", { power: me.power }) }),
    h("div.dial", { role: "radiogroup", "aria-label": t("sc.dial") }, dials.map((d) => h(`button.small.dialv${d === state.dial ? ".on" : ""}`, {
      role: "radio", "aria-checked": String(d === state.dial), "data-dial": d, text: String(d), onclick: () => { state.dial = d; redraw(); },
    }))),
    maxCards > 0 ? h("div.ccards", {}, h("span.muted", { text: t("sc.cards_up_to", { n: maxCards }) }), hand.map((v, i) => {
      const on = state.picked.includes(i);
      return h(`button.small.ccard${on ? ".on" : ""}`, { "aria-pressed": String(on), "data-card": v, disabled: !on && state.picked.length >= maxCards, text: String(v), onclick: () => {
        state.picked = on ? state.picked.filter((k) => k !== i) : [...state.picked, i];
        redraw();
      } });
    })) : null,
    h("p.ctotal", { text: t("sc.strength", { n: total }) }),
    h("button.primary#commit-go", { "data-act": L.commits.map((c) => c.action).join("|"), disabled: !match, title: match ? L.hints[match.action] || "" : "",
      text: t("sc.commit_go", { dial: state.dial, cards: cards.join(", ") || "—" }), onclick: () => { if (match) { state.dial = undefined; state.picked = []; onAct(match.action); } } }));
}

/** The last combat's reveal from the log entries (within the last `recent`): the commitments
 * revealed (read from the `reveals` entries' params) and what followed (who won, retreats,
 * the star, popularity lost), written by `line(entry)` in the page's language. Plain strings
 * (an old record's lines) hold no params: no reveal is shown from them. */
export function lastReveal(log, line, seatName, recent = 40) {
  const form = (e) => (e && typeof e === "object" ? e.form : null);
  let start = -1;
  for (let i = log.length - 1; i >= Math.max(0, log.length - recent); i--) if (form(log[i]) === "combat") { start = i; break; }
  if (start < 0) return null;
  const lines = [];
  for (let i = start + 1; i < log.length && i < start + 30; i++) {
    const e = log[i];
    const f = form(e);
    if (f === "combat") break;
    const p = (e && e.params) || {};
    if (f === "reveals") lines.push(t("sc.reveal_line", { who: seatName(p.seat), dial: p.dial, cards: p.cards.length ? p.cards.join(", ") : "—", total: p.total }));
    else if (f === "wins" || f === "retreat" || f === "workers_home" || (f === "star" && p.source === "combat") || (f === "loses" && p.what === "popularity")) lines.push(line(e));
  }
  if (!lines.length) return null;
  return h("div.reveal#reveal", {}, h("h3", { text: `${t("sc.reveal")} · ${line(log[start])}` }), h("ul", {}, lines.map((l) => h("li", { text: l }))));
}
