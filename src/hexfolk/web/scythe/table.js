// Scythe's part of the table page (games/scythe.js is its plug-in): the board, the viewer's
// mat, the decision of the moment, combat, encounters, the Factory, cards and objectives, every
// player's tracks and mat, the triumph track, the undo buttons and the final scoring. What can
// be done comes from the listed legal actions only (legal.js); the shell (table_page.js) owns
// the socket, the log, the chat, the clocks, the dialogs and the offline banner.
import { h, s, toast, keepEqual } from "../dom.js";
import { t } from "../i18n.js";
import { seatLabel, seatNameEl, seatKarma, swatch } from "../seats.js";
import { rematchPart } from "../rematch.js";
import { clockChips } from "../clock.js";
import { GamePart } from "../games/part.js";
import { readLegal } from "./legal.js";
import { scytheLogLine, logText } from "./log_kinds.js";
import { ScytheBoard, describeBoard, actionWords, placeName, placeLabel } from "./board.js";
import { registerReasonPlaces } from "../reasons.js";
import { playerMat, tracks, abilities, triumphTrack, factionBadge } from "./mats.js";
import { combatPanel, lastReveal } from "./combat.js";
import { encounterPanel, factoryPanel, myCards } from "./cards.js";
import { endPanel, seatColor } from "./end.js";
import { analysisCard } from "../analysis.js";
import { ScytheFx } from "./fx.js";


/** A top action's name, or a bottom action's (a bottom-action prompt names "build" etc.). */
function actionName(a) {
  const k = `top.${a}`;
  const v = t(k);
  return v === k ? t(`bottom.${a}`) : v;
}

export class ScythePart extends GamePart {
  constructor(shell) {
    super(shell);
    this.commit = {};
    const svg = s("svg", { id: "board", class: "sc-board", role: "group", "aria-label": t("board"), "aria-describedby": "board-desc" });
    Object.assign(this.el, {
      svg,
      desc: h("p#board-desc.sr"),
      decide: h("div.actions.sc-decide#actions"),
      mat: h("section.panel.sc-mat#my-mat", { "aria-label": t("sc.your_mat") }),
      combat: h("div#combat-box"),
      cards: h("div#cards-box"),
      players: h("section.panel.players#players"),
      triumph: h("section.panel#triumph"),
      zoomBox: h("div.zoom-box"),
    });
    this.frame = {
      cls: ".sc-game", wrapCls: ".sc-wrap",
      board: [svg, this.el.zoomBox, this.el.desc],
      beside: [this.el.mat],
      side: [this.el.decide, this.el.combat, this.el.cards, this.el.players, this.el.triumph],
      // a phone (table_page.js): the decision and combat stay under the board, the rest in tabs
      dock: [this.el.decide, this.el.combat],
      tabs: [{ id: "mat", label: t("sc.tab.mat"), icon: "▦", panels: [this.el.mat] },
        { id: "cards", label: t("sc.tab.cards"), icon: "▯", panels: [this.el.cards] },
        { id: "players", label: t("players.title"), icon: "☺", panels: [this.el.players, this.el.triumph] }],
    };
  }

  /** The tab that holds the decision of the moment (a phone, table_page.js): the cards, the
   * mat or the board, as the listed actions say (readLegal). */
  decisionTab() {
    const L = this.L;
    if (!L || this.seat === null) return null;
    if (L.commits.length) return null; // combat: under the board
    if (L.reveals.size || L.payCards.size || L.options.size || L.factory.size) return "cards";
    if (L.sections.size || L.bottom || L.upgrades.length || L.enlists.length) return "mat";
    if (L.board.size) return "board";
    return null;
  }

  onAct() { this.closeModal(); }

  onRefusal() { this.commit = {}; }

  onUndone(msg) { toast(t("sc.undone", { n: msg.steps }), "ok"); }

  /** A seat's faction colour (not the island's seat colour) once the game has dealt them. */
  seatMark(seat) {
    const f = ((this.view && this.view.observation.player_state) || [])[seat];
    return f && f.faction ? factionBadge(f.faction) : swatch(seat);
  }

  render() {
    const v = this.view;
    const obs = v.observation;
    const comp = this.geometry.components;
    if (!this.board) {
      this.board = new ScytheBoard(this.el.svg, this.geometry, (i) => this.seatName(i));
      const geo = this.geometry;
      registerReasonPlaces("scythe", (_kind, loc) => placeLabel(geo, loc)); // reasons name places by label
      this.board.onAction = (a) => this.act(a);
      this.el.zoomBox.replaceChildren(this.board.controls());
      this.board.onChoose = (loc, acts) => this.choose(placeName(this.geometry, loc), acts.map((a) => [a, `${actionWords(this.L.entries[a], this.geometry)} — ${this.L.hints[a] || ""}`]));
      this.fx = new ScytheFx(this); // the last turn's places on the board, the sounds
      this.fx.mount(this.board);
    }
    this.L = readLegal(v.legal);
    const L = this.L;
    this.shell.layoutEl.classList.toggle("over", v.status === "finished");
    if (this.changed("board", [obs.board, obs.combats, obs.combat, obs.selected, obs.encounter, v.legal, obs.player_state.map((p) => p.faction)])) this.board.update(obs, L);
    if (this.changed("chat-marks", obs.player_state.map((p) => p.faction))) this.shell.renderChat();
    if (this.changed("desc", [obs.board, v.seats])) this.el.desc.textContent = describeBoard(obs, this.geometry, (i) => this.seatName(i));
    this.renderStatus();
    if (this.changed("decide", [v.legal, v.status, this.seat])) this.renderDecide();
    if (this.changed("mat", [obs.player_state[this.seat ?? -1], obs.section, v.legal, v.refused, this.seat])) this.renderMat(comp);
    this.renderCombat();
    if (this.changed("cards", [obs.player_state[this.seat ?? -1], obs.encounter, obs.factory_offer_cards, obs.revealed_objectives, obs.tile, v.legal])) {
      this.el.cards.replaceChildren(...[encounterPanel(comp, obs, L, (a) => this.act(a), (loc) => placeName(this.geometry, loc)), factoryPanel(comp, obs, L, (a) => this.act(a)), myCards(comp, obs, L, this.seat, (a) => this.act(a))].filter(Boolean));
    }
    this.renderPlayers();
    if (this.changed("triumph", [obs.player_state.map((p) => [p.stars, p.star_total]), v.seats])) {
      this.el.triumph.replaceChildren(h("h2", { text: t("sc.triumph") }), h("div.scroll", { tabindex: "0", role: "group", "aria-label": t("sc.triumph") }, triumphTrack(comp, obs.player_state, (i) => this.seatName(i))));
    }
    if (this.changed("end", [v.status, v.result, this.table.rematch_id, this.rematchBy, this.seat])) this.el.end.replaceChildren(v.status === "finished" ? this.endWithRematch(comp, v) : "");
    this.fx.update();
  }

  promptText(pr, who) {
    if (!pr) return "";
    const d = pr.data || {};
    const key = `sc.prompt.${pr.kind}`;
    const words = t(key, { action: d.action ? actionName(d.action) : "", res: d.resource ? t(`res.${d.resource}`) : "", left: d.left ?? "", loc: d.territory || "" });
    return `${who}: ${words === key ? pr.text : words}`;
  }

  renderStatus() {
    const v = this.view;
    const obs = v.observation;
    const L = this.L;
    // where a choice waits far from the pinned prompt of a portrait screen: a jump to it
    const away = L && L.commits.length ? "combat-box" : L && (L.reveals.size || L.payCards.size || L.options.size || L.factory.size) ? "cards-box" : null;
    if (!this.changed("status", [obs.prompt, v.status, v.acting, this.seat, v.legal.length > 0, v.seats, v.undo, away])) return;
    let text;
    if (v.status === "finished") text = t("game_over");
    else if (this.myTurn()) text = this.promptText(obs.prompt && obs.prompt.seat === this.seat ? obs.prompt : { kind: "commit", text: t("sc.prompt.commit") }, t("your_turn"));
    else text = this.promptText(obs.prompt, (v.acting || []).map((i) => this.seatName(i)).join(", "));
    const undo = v.undo && this.seat !== null ? h("div.undo.row", {},
      h("button.small#undo-one", { title: v.undo.last ? `${t("sc.undo_one")}: ${v.undo.last}` : "", text: t("sc.undo_one"), onclick: () => this.undo(1) }),
      v.undo.turn > 1 ? h("button.small#undo-turn", { text: t("sc.undo_turn", { n: v.undo.turn }), onclick: () => this.undo("turn") }) : null) : null;
    const turn = obs.turn !== undefined ? h("span.turnno", { text: t("sc.turn", { n: obs.turn + 1 }) }) : null;
    const chips = clockChips(v.acting);
    for (const c of chips) { // the acting seat's faction, not the island's seat colour
      const f = (obs.player_state[Number(c.dataset.clock)] || {}).faction;
      if (f) c.querySelector(".swatch").replaceWith(factionBadge(f));
    }
    const jump = away ? h("button.small.jump#to-choice", { type: "button", "data-to": away, text: t("sc.to_choice"), onclick: () => this.shell.reveal(away) }) : null;
    keepEqual(this.el.status, [h("div.prompt#prompt", { text }), h("div.clocks", {}, turn, chips, jump), undo,
      h("div.spectating", { hidden: this.seat !== null, text: t("spectating") })]);
    this.tick();
  }

  /** The listed actions that are neither on the board nor on the mat: buttons in words. */
  renderDecide() {
    const L = this.L;
    const kids = [];
    if (this.seat !== null && this.view.status === "playing") {
      for (const a of L.buttons) kids.push(h("button.act", { "data-act": a, title: L.hints[a] || "", text: actionWords(L.entries[a], this.geometry), onclick: () => this.act(a) }, L.hints[a] ? h("span.hint", { text: L.hints[a] }) : null));
      if (L.top) kids.push(h("button.act.primary", { "data-act": L.top, title: L.hints[L.top] || "", text: t("sca.top"), onclick: () => this.act(L.top) }, h("span.hint", { text: L.hints[L.top] || "" })));
      if (L.board.size) kids.unshift(h("p.board-hint", { text: t("sc.on_board", { n: [...L.board.values()].reduce((a, x) => a + x.length, 0) }) }));
      const onMat = L.sections.size + (L.bottom ? 1 : 0) + L.upgrades.length + L.enlists.length;
      // a hint whose choice waits elsewhere takes the person there (a phone: to its tab)
      // (its words: where the choice lies beside the board, or on a phone which tab holds it)
      const goTo = (id, key) => h("button.board-hint.go#hint-to-" + id, { type: "button", "data-to": id, onclick: () => this.shell.reveal(id) },
        h("span.where-wide", { text: t(key) }), h("span.where-tab", { text: t(`${key}_tab`) }));
      if (onMat) kids.unshift(goTo("my-mat", "sc.on_mat"));
      if (L.reveals.size || L.payCards.size || L.options.size || L.factory.size) kids.unshift(goTo("cards-box", "sc.on_cards"));
      if (L.commits.length) kids.unshift(h("p.board-hint", { text: t("sc.on_combat") }));
    }
    keepEqual(this.el.decide, kids); // a button under the pointer survives a redraw
    this.el.decide.hidden = kids.length === 0;
  }

  renderMat(comp) {
    const obs = this.view.observation;
    const box = this.el.mat;
    const ps = this.seat !== null ? obs.player_state[this.seat] : null;
    if (!ps) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const current = obs.active === this.seat && obs.section ? obs.section : null;
    box.replaceChildren(h("div.mat-head", {}, factionBadge(ps.faction), h("strong", { text: `${t(`faction.${ps.faction}`)} · ${t(`mat.${ps.mat}`)}` }), tracks(comp, ps)),
      playerMat(comp, ps, this.L, (a) => this.act(a), (title, opts) => this.choose(title, opts), current, this.view.refused),
      abilities(comp, ps) || "");
  }

  renderCombat() {
    const v = this.view;
    const obs = v.observation;
    if (!this.changed("combat", [obs.combat, obs.combats, v.legal, this.commit, obs.player_state[this.seat ?? -1], this.log.length])) return;
    const panel = combatPanel(obs, this.L, this.seat, (i) => this.seatName(i), this.commit, (a) => { this.commit = {}; this.act(a); }, () => { this.sigs.combat = null; this.renderCombat(); });
    const reveal = lastReveal(this.log, (l) => scytheLogLine(l, v.seats, this.geometry), (i) => this.seatName(i));
    this.el.combat.replaceChildren(...[panel, reveal ? h("section.panel.sc-reveal", {}, reveal) : null].filter(Boolean));
  }

  renderPlayers() {
    if (!this.view || !this.el || !this.geometry) return;
    const v = this.view;
    const obs = v.observation;
    const comp = this.geometry.components;
    if (!this.changed("players", [obs.player_state, v.seats, v.acting])) return;
    const acting = new Set(v.acting || []);
    const rows = obs.player_state.map((ps, i) => {
      const seatInfo = v.seats[i] || {};
      const conn = seatInfo.kind === "person" ? h(`span.dot${seatInfo.connected ? ".on" : ""}`, { title: seatInfo.connected ? t("connected") : t("away") }) : null;
      return h(`li.player${acting.has(i) ? ".acting" : ""}${i === this.seat ? ".me" : ""}`, { "data-seat": i },
        h("div.pname", {}, factionBadge(ps.faction), h("strong", {}, seatNameEl(v.seats, i)), seatKarma(v.seats, i), h("span.muted", { text: `${t(`faction.${ps.faction}`)} · ${t(`mat.${ps.mat}`)}` }), conn,
          seatInfo.stand_in ? h("span.muted", { text: t("stand_in") }) : null,
          ps.factory_card ? h("span.award", { title: t("sc.factory_card"), text: `${t("sc.factory_card")} ${ps.factory_card}` }) : null),
        tracks(comp, ps),
        i === this.seat ? null : h("details.other-mat", {}, h("summary", { text: t("sc.their_mat") }), playerMat(comp, ps, null, () => {}, () => {}, obs.active === i ? obs.section : null), abilities(comp, ps)));
    });
    this.el.players.replaceChildren(h("h2", { text: t("players.title") }), h("ul.plist", {}, rows),
      h("p.muted.decks", { text: t("sc.decks", { combat: obs.combat_deck ?? "?", enc: obs.encounter_deck ? obs.encounter_deck.unknown + obs.encounter_deck.bottom.length : "?", factory: obs.factory_offer ?? "?" }) }));
  }

  /** The end panel (end.js) with the rematch as rematch.js shows it: the notice and link once
   * the new table exists, in place of the panel's own button; under it the analysis's card
   * (analysis.js), made once and kept when the panel is drawn again. */
  endWithRematch(comp, v) {
    const panel = endPanel(comp, v, (i) => this.seatName(i), this.id, this.seat !== null);
    const part = rematchPart(this.id, this.table.rematch_id, this.rematchBy, this.seat !== null);
    const own = panel.querySelector("#rematch");
    if (own && part) own.replaceWith(part);
    else if (part) panel.querySelector(".row").append(part);
    if (!this.analysis) {
      const players = v.observation.player_state || [];
      this.analysis = analysisCard(this.id, { name: (i) => this.seatName(i), badge: (i) => factionBadge((players[i] || {}).faction), colorOf: seatColor(players) });
    }
    panel.append(this.analysis.el);
    return panel;
  }

  /** The analysis's progress pushed on the table's socket (socket.js). */
  onAnalysis(msg) { if (this.analysis) this.analysis.push(msg); }

  close() { if (this.analysis) this.analysis.close(); }
}
