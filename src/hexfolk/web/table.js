// The island's part of the table page (games/island.js is its plug-in): the board, the actions
// with a disabled button's reason, the hand, the trade, the players and the bank, the 7's
// discards and the end panel. What can be done comes from the server's listed legal actions
// only; the shell (table_page.js) owns the socket, the log, the chat, the clocks and dialogs.
import { h, s, toast, sync, keepEqual } from "./dom.js";
import { reasonText, registerReasonPlaces } from "./reasons.js";
import { placeLabels } from "./island_log.js";
import { t } from "./i18n.js";
import { Board, RES_COLOR, describeBoard } from "./board.js";
import { readLegal, RES, bundleText, bundleCount, bundleWords, bundleOf, parseBundle, bestRates } from "./legal.js";
import { seatLabel, seatNameEl, seatKarma, swatch } from "./seats.js";
import { rematchPart } from "./rematch.js";
import { clockChips } from "./clock.js";
import { GamePart } from "./games/part.js";
import { IslandFx } from "./island_fx.js";

export { seatLabel, swatch };

const BUTTONS = ["roll", "buy", "play knight", "play roads", "end"];

export function resCard(r, n, extra) {
  return h(`span.rescard.r-${r}`, { title: t(`res.${r}`), style: `--rc:${RES_COLOR[r]}` },
    h("span.rc-name", { text: t(`res.${r}`) }), h("span.rc-n", { text: n }), extra || null);
}

/** The island's part of the table page (games/island.js mounts it): the board, the actions,
 * the hand, the trade and the players' panel; the shell (table_page.js) owns the rest. */
export class IslandPart extends GamePart {
  constructor(shell) {
    super(shell);
    this.offer = { give: {}, get: {} };
    this.discardQueue = [];
    const svg = s("svg", { id: "board", role: "group", "aria-label": t("board"), "aria-describedby": "board-desc" });
    Object.assign(this.el, {
      svg,
      desc: h("p#board-desc.sr"),
      actions: h("div.actions#actions"),
      hand: h("section.panel.hand#hand"),
      players: h("section.panel.players#players"),
      trade: h("section.panel.trade#trade"),
      // the cost card's and the rolls' buttons (island_fx.js), beside the actions, never over
      // the board (where they covered a legal target: tests/web/test_person_checks_pages.py)
      tools: h("div.board-tools#board-tools"),
    });
    this.frame = {
      board: [svg, this.el.desc], side: [this.el.actions, this.el.tools, this.el.hand, this.el.trade, this.el.players],
      // a phone (table_page.js): the actions stay under the board, the rest in tabs
      dock: [this.el.actions, this.el.tools], startTab: shell.seat !== null ? "hand" : "board",
      tabs: [{ id: "hand", label: t("tab.hand"), icon: "▤", panels: [this.el.hand] },
        { id: "trade", label: t("trade"), icon: "⇄", panels: [this.el.trade] },
        { id: "players", label: t("players.title"), icon: "☺", panels: [this.el.players] }],
    };
  }

  /** The phone's tab badges (table_page.js): the offers this seat can answer now and its own
   * offers that an answer lets it complete. */
  tabBadges() { return { trade: this.L ? this.L.answers.size + this.L.complete.size : 0 }; }

  /** The tab that holds the decision of the moment: the trade when answering offers is all
   * this seat can do (else the board and the actions under it, or a dialog). */
  decisionTab() {
    const L = this.L;
    if (!L || !L.answers.size) return null;
    const answers = new Set([...L.answers.values()].flatMap((a) => [a.accept, a.reject, ...a.counter.map((c) => c.action)]));
    return L.all.every((a) => answers.has(a)) ? "trade" : null;
  }

  onRefusal() { this.discardQueue = []; }

  /** A stale action no longer listed drops the discards queued after it; else the queue goes on. */
  afterRedraw(stale) {
    if (stale) this.discardQueue = [];
    else this.continueDiscard();
  }

  // --- the game ---------------------------------------------------------------------------
  render() {
    const v = this.view;
    const obs = v.observation;
    if (!this.board) {
      this.board = new Board(this.el.svg, this.geometry, (i) => this.seatName(i));
      registerReasonPlaces("island", placeLabels(this.geometry)); // reasons name places by label
      this.board.onAction = (a) => this.act(a);
      this.board.onRobberHex = (hex, opts) => this.chooseVictim(hex, opts);
      this.el.svg.after(this.board.controls());
      this.fx = new IslandFx(this); // the dice, the lit hexes, the gains, the last move, the sounds
      this.fx.mount(this.el.svg, this.el.tools);
    }
    this.L = readLegal(v.legal);
    this.board.update(obs, this.L);
    if (this.changed("desc", [obs.board, obs.roads, obs.settlements, obs.cities, v.seats])) {
      this.el.desc.textContent = describeBoard(obs, (i) => this.seatName(i), placeLabels(this.geometry));
    }
    this.renderStatus();
    this.renderActions();
    this.renderHand();
    this.readOfferNews();
    this.renderTrade();
    this.renderPlayers();
    this.renderEnd();
    this.renderDialogs();
    this.fx.update();
  }

  close() { if (this.fx) this.fx.close(); }

  renderStatus() {
    const v = this.view;
    const obs = v.observation;
    const pr = obs.prompt;
    const kind = pr ? pr.kind : obs.phase;
    // the special build's sign-up with nothing buildable lists Pass only (IR-30): say so
    const passOnly = kind === "sbp-signup" && !v.legal.some((a) => a.kind === "sbp" && a.join);
    if (!this.changed("status", [kind, v.status, v.acting, this.seat, v.legal.length > 0, v.seats, passOnly])) return;
    let text;
    if (v.status === "finished") text = t("game_over");
    else if (this.myTurn()) text = `${t("your_turn")}: ${t(passOnly ? "prompt.sbp-signup-pass" : `prompt.${kind}`)}`;
    else {
      const who = (v.acting || []).map((i) => this.seatName(i)).join(", ");
      text = `${who}: ${t(`prompt.${kind}`)}`;
    }
    const clocks = clockChips(v.acting);
    this.el.status.replaceChildren(h("div.prompt#prompt", { text }), h("div.clocks", {}, clocks),
      h("div.spectating", { hidden: this.seat !== null, text: t("spectating") }));
    this.tick();
  }

  renderActions() {
    const L = this.L;
    if (!this.changed("actions", [this.view.legal, this.view.refused, this.view.status, this.seat, this.view.undo])) return;
    const kids = [];
    if (this.seat !== null && this.view.status === "playing") {
      // the special build sign-up (IR-30) and "leave the robber" come first when listed
      for (const a of ["sbp join", "sbp pass", "robber stay"]) {
        if (L.buttons.has(a)) kids.push(h(`button.act.special${a === "sbp join" ? ".primary" : ""}`, { "data-act": a, id: `btn-${a.replace(" ", "-")}`, text: t(`act.${a}`), onclick: () => this.act(a) }));
      }
      // a disabled button says why: the server's reason (the view's `refused`, docs/protocol.md)
      // as its tooltip and its accessible description
      // in the page's language (web/reasons.js); a "?" beside it shows it on a tap (touch
      // screens have no hover, and a disabled button takes no tap)
      const why = new Map((this.view.refused || []).map((r) => [r.action, reasonText(r.why, r.reason, "island")]));
      for (const a of BUTTONS) {
        const listed = L.buttons.has(a);
        const id = `btn-${a.replace(" ", "-")}`;
        const reason = listed ? null : why.get(a) || null;
        const button = h("button.act", { "data-act": listed ? a : null, id, disabled: !listed, title: reason, "aria-describedby": reason ? `${id}-why` : null, text: t(`act.${a}`), onclick: () => this.act(a) });
        if (!reason) { kids.push(button); continue; }
        kids.push(h("span.act-pair", {}, button, h(`span.sr#${id}-why`, { text: reason }),
          h(`button.why-tap#${id}-tap`, { type: "button", "aria-label": `${t(`act.${a}`)}: ${t("why._ask")}`, text: "?", onclick: () => toast(reason, "note") })));
      }
      if (L.plenty.length) kids.push(h("button.act#btn-plenty", { "data-act": L.plenty.map((x) => x.action).join("|"), text: t("act.play plenty"), onclick: () => this.choose(t("act.play plenty"), L.plenty.map((x) => [x.action, bundleText(x.take)])) }));
      if (L.monopoly.length) kids.push(h("button.act#btn-monopoly", { "data-act": L.monopoly.map((x) => x.action).join("|"), text: t("act.play monopoly"), onclick: () => this.choose(t("act.play monopoly"), L.monopoly.map((x) => [x.action, t(`res.${x.res}`)])) }));
      for (const a of L.other) kids.push(h("button.act.other", { "data-act": a, text: a, title: L.hints[a] || "", onclick: () => this.act(a) }));
      const u = this.view.undo;
      if (u) {
        // not listed actions: the view's `undo` offers them (UNDO.md), so no data-act
        kids.push(h("button.undo#btn-undo", { "data-undo": "1", title: t("undo.last", { action: u.last }), text: t("undo.one"), onclick: () => this.undo(1) }));
        if (u.turn > 1) kids.push(h("button.undo#btn-undo-turn", { "data-undo": "turn", title: t("undo.turn_hint", { n: u.turn }), text: t("undo.turn", { n: u.turn }), onclick: () => this.undo("turn") }));
      }
    }
    keepEqual(this.el.actions, kids); // a button under the pointer survives a redraw
    this.el.actions.hidden = kids.length === 0;
  }

  renderHand() {
    const obs = this.view.observation;
    const me = this.seat !== null ? obs.players[this.seat] : null;
    if (!this.changed("hand", [me, this.view.legal])) return;
    if (!me || !me.hand) { this.el.hand.hidden = true; this.el.hand.replaceChildren(); return; }
    this.el.hand.hidden = false;
    const playable = (card) => this.L.kinds.has(`play_${card}`);
    const devs = Object.entries(me.dev_hand || {}).filter(([, n]) => n > 0).map(([card, n]) =>
      h(`span.devcard${playable(card) ? ".playable" : ""}`, { title: playable(card) ? t("dev.playable") : "" }, `${t(`dev.${card}`)} ×${n}`, playable(card) ? h("span.badge", { text: t("dev.play") }) : null));
    if (me.dev_bought_this_turn) devs.push(h("span.devnote", { text: t("dev.new", { n: me.dev_bought_this_turn }) }));
    this.el.hand.replaceChildren(h("h2", { text: `${t("hand")} · ${me.vp} ${t("vp")}` }),
      h("div.cards", {}, RES.map((r) => resCard(r, me.hand[RESNAME[r]] || 0))),
      h("div.devs", {}, devs.length ? devs : h("span.muted", { text: t("dev.none") })));
  }

  renderPlayers() {
    if (!this.view || !this.el) return;
    const v = this.view;
    const obs = v.observation;
    const seats = v.seats;
    const acting = new Set(v.acting || []);
    if (!this.changed("players", [obs.players, seats, v.acting, obs.longest_road, obs.largest_army, obs.bank, obs.deck])) return;
    // one row per seat, rebuilt only when what it shows changed (a step changes one or two
    // rows: the others, and the panel's title, stay the same elements; benchmarks/web_speed.py)
    const rows = obs.players.map((pl, i) => {
      const seatInfo = seats[i] || {};
      const row = [pl, seatInfo.kind, seatInfo.connected, seatInfo.stand_in, acting.has(i), i === this.seat, obs.longest_road === i, obs.largest_army === i, this.seatName(i)];
      return { key: `p${i}`, sig: JSON.stringify(row), build: () => this.playerRow(pl, i, seatInfo, acting) };
    });
    const bank = () => (obs.bank ? h("div.bank", {}, h("span.label", { text: t("bank") }), RES.map((r) => resCard(r, obs.bank[RESNAME[r]])), h("span.deck", { text: `${t("deck")}: ${obs.deck}` })) : h("div.bank", { text: `${t("deck")}: ${obs.deck}` }));
    sync(this.el.players, [
      { key: "title", sig: "", build: () => h("h2", { text: t("players.title") }) },
      { key: "list", sig: "", build: () => h("ul.plist") },
      { key: "bank", sig: JSON.stringify([obs.bank || null, obs.deck]), build: bank },
    ]);
    sync(this.el.players.querySelector("ul.plist"), rows);
  }

  /** Seat `i`'s row in the players' panel. */
  playerRow(pl, i, seatInfo, acting) {
    const obs = this.view.observation;
    const badges = [];
    if (obs.longest_road === i) badges.push(h("span.award", { text: t("award.lr") }));
    if (obs.largest_army === i) badges.push(h("span.award", { text: t("award.la") }));
    if (pl.declines_offers) badges.push(h("span.muted", { text: t("declines") }));
    const conn = seatInfo.kind === "person" ? h(`span.dot${seatInfo.connected ? ".on" : ""}`, { title: seatInfo.connected ? t("connected") : t("away") }) : null;
    return h(`li.player${acting.has(i) ? ".acting" : ""}${i === this.seat ? ".me" : ""}`, { "data-seat": i },
      h("div.pname", {}, swatch(i), h("strong", {}, seatNameEl(this.view.seats, i)), seatKarma(this.view.seats, i), conn, seatInfo.stand_in ? h("span.muted", { text: t("stand_in") }) : null, ...badges),
      h("div.pstats", {},
        stat(t("vp"), pl.vp !== undefined ? pl.vp : pl.visible_vp, "vp"), stat(t("cards"), pl.cards, "cards"), stat(t("dev"), pl.dev_cards, "dev"),
        stat(t("knights"), pl.knights, "knights"), stat(t("road"), pl.road_length, "road"),
        stat(t("pieces"), `${pl.roads_left}/${pl.settlements_left}/${pl.cities_left}`, "pieces", t("pieces.title"))));
  }

  renderTrade() {
    const L = this.L;
    const obs = this.view.observation;
    const box = this.el.trade;
    const meP = this.seat !== null ? obs.players[this.seat] : null;
    const offers = obs.offers || [];
    const canOffer = L.offer.length > 0;
    const canCounter = [...L.answers.values()].some((a) => a.counter.length > 0);
    const news = this.freshNews();
    if (!canOffer && !L.trade.length && !offers.length && !canCounter && !news) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const items = [{ key: "title", sig: "", build: () => h("h2", { text: t("trade") }) }];
    // what became of this seat's own offer (issue 27, point 3): taken, rejected by everyone,
    // withdrawn, expired at the turn's end; from the log's structured entries
    if (news) items.push({ key: `news-${news.key}`, sig: news.text, build: () => this.newsCard(news) });
    if (meP) {
      // "decline-all on/off" is typed, never listed (docs/island.md): offered while this seat
      // has a decision of its own; the server judges it like any action
      const on = !!meP.declines_offers;
      const can = this.view.legal.length > 0;
      // the first offer that reaches this person shows the switch and says what it does
      // (issue 27, point 4): once per browser, until dismissed or used
      const hint = this.declineHint(on, L);
      items.push({ key: "decline", sig: JSON.stringify([on, can, hint]), build: () => h(`div.decline-box${hint ? ".hint" : ""}#decline-box`, {},
        h("label.decline", {},
          h("input#decline-all", { type: "checkbox", checked: on, disabled: !can, onchange: () => { this.hintDone(); this.act(on ? "decline-all off" : "decline-all on"); } }),
          t("trade.decline_all")),
        hint ? h("p.decline-hint#decline-hint", { role: "note" }, t("trade.decline_hint"), " ",
          h("button.small#decline-hint-ok", { text: t("trade.decline_hint_ok"), onclick: () => { this.hintDone(); this.renderTrade(); } })) : null) });
    }
    const tools = [];
    if (meP && meP.hand && (canOffer || canCounter)) {
      tools.push({ key: "composer", sig: JSON.stringify([this.offer, meP.hand, L.offer.map((x) => x.action)]), build: () => this.composer(meP, L) });
    }
    if (L.trade.length) {
      tools.push({ key: "bank", sig: JSON.stringify(L.trade.map((x) => x.action)), build: () => this.bankTrades(L) });
    }
    // an offer's card is kept while the offer is open (issue 27, point 5): another seat's
    // answer redraws its list of answers only, and its buttons are kept as they are (a click
    // that overlaps a bot's answer lands)
    const cards = offers.map((of) => ({ key: `offer-${of.id}`, sig: JSON.stringify([of.give, of.get, obs.active]), build: () => h("div.offer", { "data-offer": of.id }) }));
    // another seat's offers come first (what to answer, right under the switch); one's own
    // turn puts the composer first
    if (obs.active === this.seat) items.push(...tools, ...cards);
    else items.push(...cards, ...tools);
    sync(box, items);
    for (const of of offers) {
      const card = box.querySelector(`[data-key="offer-${of.id}"]`);
      if (card) this.fillOffer(card, of, L, obs);
    }
  }

  composer(meP, L) {
    const step = (side, r) => {
      const n = this.offer[side][r] || 0;
      const max = side === "give" ? meP.hand[RESNAME[r]] : 19;
      return h("div.stepper", {},
        h("button.small", { "aria-label": `${t(`trade.${side}`)} ${t(`res.${r}`)} −`, disabled: n <= 0, text: "−", onclick: () => { this.offer[side][r] = n - 1; this.renderTrade(); } }),
        resCard(r, n),
        h("button.small", { "aria-label": `${t(`trade.${side}`)} ${t(`res.${r}`)} +`, disabled: n >= max, text: "+", onclick: () => { this.offer[side][r] = n + 1; this.renderTrade(); } }));
    };
    const text = `${bundleText(this.offer.give)} for ${bundleText(this.offer.get)}`;
    const empty = bundleCount(this.offer.give) === 0;
    return h("div.composer#composer", {},
      h("div.side-label", { text: t("trade.give") }), h("div.steppers", {}, RES.map((r) => step("give", r))),
      h("div.side-label", { text: t("trade.get") }), h("div.steppers", {}, RES.map((r) => step("get", r))),
      h("div.row", {},
        L.offer.length ? h("button.primary#send-offer", { "data-act": L.offer.map((x) => x.action).join("|"), disabled: empty, text: !empty && bundleCount(this.offer.get) === 0 ? t("trade.gift") : t("trade.offer"), onclick: () => { this.act(`offer ${text}`); this.offer = { give: {}, get: {} }; this.renderTrade(); } }) : null,
        h("button.small", { text: t("trade.clear"), onclick: () => { this.offer = { give: {}, get: {} }; this.renderTrade(); } })));
  }

  bankTrades(L) {
    const rates = bestRates(L.trade);
    const byGive = {};
    for (const tr of L.trade) {
      const g = Object.keys(tr.give)[0];
      (byGive[g] = byGive[g] || []).push(tr);
    }
    return h("div.bank-trade#bank-trade", {}, h("div.side-label", { text: t("trade.bank") }),
      Object.entries(byGive).map(([g, list]) => h("div.bt-row", {}, resCard(g, `${rates[g]}:1`), h("span", { text: "→" }),
        list.map((tr) => { const r = Object.keys(tr.get)[0]; return h("button.small.res-btn", { "data-act": tr.action, style: `--rc:${RES_COLOR[r]}`, title: tr.action, text: t(`res.${r}`), onclick: () => this.act(tr.action) }); }))));
  }

  /** An offer's card (`el`, kept while the offer is open): its head, its answers and its
   * buttons, each part redrawn only when it changed; the buttons through keepEqual. */
  fillOffer(el, of, L, obs) {
    const proposer = obs.active;
    const answers = L.answers.get(of.id);
    const completes = L.complete.get(of.id);
    const mine = proposer === this.seat;
    const names = (of.answers ? Object.keys(of.answers).map(Number) : []).concat([proposer]).map((i) => this.seatName(i));
    const head = () => h("div.offer-head", {}, swatch(proposer), h("strong", { text: mine ? t("trade.you_offer") : t("trade.offers", { who: this.seatName(proposer) }) }),
      h("span.offer-body", { text: t("trade.gives_for", { give: bundleWords(of.give, t), get: bundleWords(of.get, t) }) }));
    const answerList = () => {
      const ans = Object.entries(of.answers || {}).map(([seat, a]) => {
        const si = Number(seat);
        const label = typeof a === "string" ? t(`answer.${a}`) : t("answer.counter_full", { give: bundleWords(a.counter.give, t), get: bundleWords(a.counter.get, t) });
        const done = completes && completes.get(si);
        return h("li", { "data-seat": si }, swatch(si), `${this.seatName(si)}: ${label}`,
          done ? h("button.small.primary", { "data-act": done, text: typeof a === "string" ? t("trade.complete") : t("trade.take_counter"), onclick: () => this.act(done) }) : null);
      });
      return ans.length ? h("ul.answers", {}, ans) : h("p.muted", { text: t("trade.no_answers") });
    };
    // the buttons above the answers: an answer that comes in does not move them under the
    // pointer
    sync(el, [
      { key: "head", sig: JSON.stringify([mine, names]), build: head },
      { key: "buttons", sig: "", build: () => h("div.row.offer-buttons") },
      { key: "answers", sig: JSON.stringify([of.answers || {}, completes ? [...completes] : [], names]), build: answerList },
    ]);
    const buttons = [];
    if (answers) {
      if (answers.accept) buttons.push(h("button.small.primary", { "data-act": answers.accept, text: t("answer.do_accept"), onclick: () => this.act(answers.accept) }));
      if (answers.reject) buttons.push(h("button.small", { "data-act": answers.reject, text: t("answer.do_reject"), onclick: () => this.act(answers.reject) }));
      if (answers.counter.length) {
        // the counter is read from the composer when clicked (a kept button's listener must not
        // hold what was set when it was drawn)
        buttons.push(h("button.small", { "data-act": answers.counter.map((c) => c.action).join("|"), disabled: bundleCount(this.offer.give) === 0, title: t("trade.counter_hint"), text: t("answer.do_counter"), onclick: () => {
          this.act(`counter ${of.id}: ${bundleText(this.offer.give)} for ${bundleText(this.offer.get)}`);
          this.offer = { give: {}, get: {} };
          this.renderTrade();
        } }));
      }
    }
    const wd = L.withdraw.get(of.id);
    if (wd) buttons.push(h("button.small", { "data-act": wd, text: t("trade.withdraw"), onclick: () => this.act(wd) }));
    keepEqual(el.querySelector(".offer-buttons"), buttons);
  }

  // --- what became of one's own offers (issue 27, point 3) -------------------------------
  /** Read the log lines that arrived since the last draw for the end of one of this seat's
   * offers (the structured entries `trade_with`, `rejected_all`, `withdraws`, `withdrawn`:
   * their form and params, never their text) and keep the newest as the news to show. The
   * lines of the first draw (and of an undo's whole log) are history, not news. */
  readOfferNews() {
    const log = this.log;
    if (this.newsFrom === undefined || this.newsFrom > log.length) { this.newsFrom = log.length; return; }
    for (let i = this.newsFrom; i < log.length; i++) {
      const text = this.offerOutcome(log[i], i);
      if (!text) continue;
      this.news = { key: i, text, until: Date.now() + NEWS_MS };
      toast(text, "note");
      clearTimeout(this.newsTimer);
      this.newsTimer = setTimeout(() => { if (this.view && this.el) this.renderTrade(); }, NEWS_MS + 50);
    }
    this.newsFrom = log.length;
  }

  /** The news of log line `line` (number `i`) for this seat in words, or null. */
  offerOutcome(line, i) {
    if (this.seat === null || !line || typeof line !== "object" || !line.params) return null;
    const p = line.params;
    const words = (b) => bundleWords(bundleOf(b), t);
    if (line.form === "trade_with" && p.seat === this.seat) {
      return t("offer_news.taken", { who: this.seatName(p.partner), give: words(p.give), get: words(p.get) });
    }
    if (line.form === "trade_with" && p.partner === this.seat) {
      return t("offer_news.traded", { who: this.seatName(p.seat), give: words(p.get), get: words(p.give) });
    }
    if (p.seat !== this.seat) return null;
    const made = (id) => {
      for (let k = i - 1; k >= 0; k--) {
        const x = this.log[k];
        if (x && x.form === "offers" && x.params && x.params.offer === id) return x.params;
      }
      return null;
    };
    const terms = (id) => {
      const o = made(id);
      return o ? t("trade.gives_for", { give: words(o.give), get: words(o.get) }) : `#${id}`;
    };
    if (line.form === "rejected_all") return t("offer_news.rejected", { offer: terms(p.offer) });
    if (line.form === "withdraws") return t("offer_news.withdrawn", { offer: terms(p.offer) });
    if (line.form === "withdrawn" && (p.offers || []).length) {
      const late = this.timedOut(i) ? ` ${t("log.timeout")}` : "";
      return (p.offers.length === 1 ? t("offer_news.expired", { offer: terms(p.offers[0]) }) : t("offer_news.expired_n", { n: p.offers.length })) + late;
    }
    return null;
  }

  /** The news to show now (null once its time is over). */
  freshNews() {
    return this.news && this.news.until > Date.now() ? this.news : null;
  }

  newsCard(news) {
    return h("div.offer-news#offer-news", { role: "status", "data-news": news.key },
      h("span", { text: news.text }),
      h("button.small.close", { text: "×", "aria-label": t("close"), onclick: () => { this.news = null; this.renderTrade(); } }));
  }

  /** Whether the decline-all switch is pointed out now: an offer this person may answer is
   * open, the switch is off, and this browser has not seen the hint through. */
  declineHint(on, L) {
    if (!this.hintShown && !on && L.answers.size > 0 && !hintSeen()) {
      this.hintShown = true;
      setHintSeen(); // once per browser: the next table does not show it again
    }
    return !!this.hintShown && !this.hintClosed && !on;
  }

  hintDone() { this.hintClosed = true; setHintSeen(); }

  renderEnd() {
    const v = this.view;
    if (v.status !== "finished") { this.el.end.replaceChildren(); return; }
    const obs = v.observation;
    const w = obs.winner;
    this.el.end.replaceChildren(h("div.card.end", {},
      h("h2", { text: w !== null && w !== undefined && w >= 0 ? t("winner", { who: this.seatName(w) }) : t("no_winner") }),
      h("div.row", {},
        h("a.button.primary#to-overview", { href: `#/t/${this.id}/overview`, text: t("overview") }),
        h("a.button#to-replay", { href: `#/t/${this.id}/replay`, text: t("replay") }),
        h("a.button", { href: `/api/tables/${this.id}/record`, download: `hexfolk-${this.id}.json`, text: t("record") }),
        rematchPart(this.id, this.table.rematch_id, this.rematchBy, this.seat !== null))));
  }

  // --- dialogs (the shell's: modal, choose) ----------------------------------------------
  chooseVictim(hex, opts) {
    if (opts.length === 1) { this.act(opts[0].action); return; }
    // each victim with the number of cards in hand (public, as the players' panel shows it)
    const players = this.view.observation.players;
    const label = (v) => `${this.seatName(v)} · ${t("rob.cards", { n: players[v] ? players[v].cards : "?" })}`;
    this.choose(`${t("rob.choose")} (${t("hex")} ${placeLabels(this.geometry)("hex", hex)})`, opts.map((o) => [o.action, o.victim === null ? t("rob.nobody") : label(o.victim)]));
  }

  renderDialogs() {
    const L = this.L;
    if (this.modalEl && this.modalEl.id === "discard-dialog" && !L.discard.length) this.closeModal();
    if (L.discard.length && !this.discardQueue.length && !(this.modalEl && this.modalEl.id === "discard-dialog")) this.discardDialog();
    else if (this.modalEl && this.modalEl.id === "discard-dialog") this.renderDiscardProgress();
  }

  /** The 7's discards as the view lists them (`discards`: who owes how many, who has
   * committed; `active`: the roller) with each one's clock: the dialog covers the status bar. */
  renderDiscardProgress() {
    const box = this.modalEl && this.modalEl.querySelector("#discard-progress");
    const v = this.view;
    const obs = v.observation;
    const d = obs.discards;
    if (!box || !d || !this.changed("discard-progress", [d, obs.active, v.acting, v.clocks, v.seats])) return;
    const done = new Set(d.committed || []);
    const clocks = (v.clocks && v.clocks.seats) || {};
    const who = (i) => (i === this.seat ? t("discard.me") : this.seatName(i));
    const roller = obs.active;
    const rows = (d.seats || []).map((q) => {
      const finished = done.has(q);
      return h(`li${finished ? ".done" : ".owes"}${q === this.seat ? ".me" : ""}`, { "data-seat": q, "data-done": finished ? "1" : "0" },
        swatch(q), h("span.who", { text: t("discard.row", { who: who(q), n: d.need[String(q)] }) }),
        h("span.state", { text: finished ? `✓ ${t("discard.done")}` : t("discard.waiting") }),
        finished ? null : clockChips([q]));
    });
    const rolled = roller !== null && roller !== undefined && roller >= 0
      ? h("p.rolled#discard-roller", {}, swatch(roller), t("discard.rolled", { who: who(roller) }),
        clocks[String(roller)] && !(d.seats || []).includes(roller) ? [" · ", t("discard.turn_clock"), " ", clockChips([roller])] : null)
      : null;
    box.replaceChildren(rolled || "", h("h3", { text: t("discard.others") }), h("ul.discarders", {}, rows));
    this.tick();
  }

  discardDialog() {
    const obs = this.view.observation;
    const d = obs.discards || {};
    const need = (d.need && d.need[String(this.seat)]) || 0;
    const selected = parseBundle(d.selected || "");
    const left = need - bundleCount(selected);
    const hand = obs.players[this.seat].hand;
    const pick = {};
    const listed = new Set(this.L.discard.map((x) => x.res));
    const body = h("div.discard");
    const draw = () => {
      const n = bundleCount(pick);
      // the count goes down while the cards are picked (issue 27, point 12)
      const more = left - n;
      const say = n === 0 ? t("discard.need", { n: left, total: need }) : more > 0 ? t("discard.more", { n: more }) : t("discard.ready", { n: left });
      body.replaceChildren(h("p#discard-need", { "aria-live": "polite", text: say }),
        h("div.steppers", {}, RES.map((r) => {
          const have = (hand[RESNAME[r]] || 0) - (selected[r] || 0);
          const k = pick[r] || 0;
          return h("div.stepper", {},
            h("button.small", { "aria-label": `${t(`res.${r}`)} −`, disabled: k <= 0, text: "−", onclick: () => { pick[r] = k - 1; draw(); } }),
            resCard(r, `${k}/${have}`),
            h("button.small", { "aria-label": `${t(`res.${r}`)} +`, disabled: !listed.has(r) || k >= have || n >= left, text: "+", onclick: () => { pick[r] = k + 1; draw(); } }));
        })),
        h("button.primary#discard-go", { "data-act": this.L.discard.map((x) => x.action).join("|"), disabled: n !== left, text: t("discard.go", { n: left }), onclick: () => {
          this.discardQueue = RES.flatMap((r) => Array(pick[r] || 0).fill(`discard ${r}`));
          this.closeModal();
          this.continueDiscard();
        } }));
    };
    draw();
    this.modal(t("discard.title"), h("div", {}, body, h("div.discard-progress#discard-progress", { "aria-live": "polite" })), { id: "discard-dialog", closable: false });
    this.sigs["discard-progress"] = null;
    this.renderDiscardProgress();
  }

  continueDiscard() {
    if (!this.discardQueue.length || !this.L) return;
    const next = this.discardQueue[0];
    if (this.L.all.includes(next)) {
      this.discardQueue.shift();
      this.act(next);
    } else if (!this.L.discard.length) this.discardQueue = [];
  }
}

const RESNAME = { l: "lumber", b: "brick", w: "wool", g: "grain", o: "ore" };
/** How long the news of one's own offer stays in the trade panel. */
const NEWS_MS = 12000;
const HINT_KEY = "hexfolk.declineHint";
function hintSeen() { try { return localStorage.getItem(HINT_KEY) === "1"; } catch { return false; } }
function setHintSeen() { try { localStorage.setItem(HINT_KEY, "1"); } catch { /* private mode */ } }
function stat(label, value, cls, title) {
  return h(`span.stat.st-${cls}`, { title: title || label }, h("span.sl", { text: label }), h("span.sv", { text: value }));
}
