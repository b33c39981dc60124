// The table page: one shell for every game. The shell owns what each table has whatever its
// game: opening the table (one HTTP request, GET /api/tables/{id}; an invitee without a name
// names itself first), the socket and its reconnect (socket.js), the network watch and the
// offline banner (network.js), the page's frame (the board's box, the status, the end, the log
// and the chat with the limits the server's `welcome` announces), the clocks, undo, toasts,
// the dialogs, the turn's chime and title, the mute button, the kick notice and the card of a
// refused socket, a phone's tabs (the board, the game's panels, the log and the chat under the
// decision of the moment, with badges), and drawing the newest view once per frame with the
// redraw timing hooks of benchmarks/web_speed.py. A game is a plug-in (games/registry.js, docs/adding-a-game.md):
// `mount(shell)` builds its part of the page, `update(part)` draws a view, `logForms(line,
// seats, geometry)` says a log line ({form, params, text}) in words, `settingsForm(table)` is its table lobby's settings.
import { api, me, forgetMe } from "./api.js";
import { h, toast, sync } from "./dom.js";
import { t, errorText } from "./i18n.js";
import { logEntry, logText } from "./log_lines.js";
import { nameForm } from "./lobby.js";
import { chime, muted, setMuted } from "./sound.js";
import { seatLabel, swatch, renderTableLobby } from "./seats.js";
import { ratedBadge } from "./rated.js";
import { primeKarma } from "./karma.js";
import { chatBox, withHistory, drawChat, chatAudience, showAudience } from "./chat.js";
import { tickClocks } from "./clock.js";
import { watchNetwork, offlineBanner } from "./network.js";
import { Socket } from "./socket.js";
import { gamePlugin } from "./games/registry.js";
import { installWhyTaps } from "./reasons.js";

/** The card that says a table cannot be shown, and why. */
function cannotShow(app, title, why) {
  app.replaceChildren(h("section.card.narrow", {}, h("h2", { text: title }), why ? h("p", { text: why }) : null, h("a.button", { href: "#/", text: t("back") })));
  return null;
}

/** `#/t/<id>` and its sub-pages (`sub`: "overview", "replay"; `arg`: what follows, the
 * replay's step in #/t/<id>/replay/<step>): the table's JSON (the page's
 * one HTTP request, fetched while the page's texts load: `texts`, main.js), then the game's
 * own page for `sub` where its plug-in has one, else the table page, whose socket opens while
 * the game's plug-in loads (with its texts and log templates: games/registry.js). */
export async function showTablePage(app, id, sub, texts, arg) {
  let table;
  const asked = opening(id).then((tb) => tb || api("GET", `/api/tables/${id}`));
  // what the first draw needs: the game's plug-in (with its texts and templates) and the page's
  // texts; the socket opens before them
  const loading = Promise.all([asked.then((tb) => gamePlugin(tb.game)), texts]).then(([plugin]) => plugin);
  loading.catch(() => {}); // told below, where it is awaited
  try { table = await asked; } catch (err) { await texts; return cannotShow(app, t("err.no_table"), err.message); }
  primeKarma(table.seats); // each person's karma came with the table (karma.js)
  const needsName = !me() && table.status === "lobby";
  if (sub || needsName) {
    let plugin;
    try { plugin = await loading; } catch (err) { return cannotShow(app, t("err.no_table"), err.message); }
    if (sub && plugin.pages && plugin.pages[sub]) return plugin.pages[sub](app, id, table, arg);
    if (sub) document.body.dataset.page = "table"; // a page this game lacks (e.g. Scythe's overview): its table's page, laid out as one
    if (needsName) {
      // an invitee without a name names itself first (`inviteLead`: the invite's words)
      await new Promise((resolve) => {
        app.append(h("section.lobby", {}, h("p.lead", { text: t(plugin.inviteLead || "invite.lead", { host: table.host.name }) }), nameForm(resolve)));
      });
      app.replaceChildren();
    }
  }
  const page = new TablePage(app, id, table);
  page.connect();
  page.watchNetwork();
  window.__hexfolkAct = (text) => page.act(text); // for tests and the console: the same path as a click
  window.__hexfolkUndo = (steps) => page.undo(steps); // sent even when not offered: the server judges
  try { page.setPlugin(await loading); } catch (err) { page.close(); return cannotShow(app, t("err.no_table"), err.message); }
  return page;
}

/** The table's JSON that index.html asked for when the page opened on `#/t/<id>` (once; null
 * when it was refused, or for another route). */
function opening(id) {
  const early = window.__hexfolkOpening;
  window.__hexfolkOpening = null;
  return early && early.id === id ? early.table : Promise.resolve(null);
}

export class TablePage {
  constructor(app, id, table) {
    this.app = app;
    this.id = id;
    this.table = table;
    this.plugin = null; // the game's plug-in, set once loaded (setPlugin)
    this.game = null; // the game's part of the page (plugin.mount), once there is a view to draw
    this.chatLimits = null; // the welcome's `chat`: {max, count, seconds}
    this.view = null;
    this.log = [];
    this.timeouts = []; // marks of the log lines a clock's defaults wrote (docs/protocol.md)
    this.chat = [];
    this.version = null;
    this.seat = null;
    this.closed = false;
    this.retry = 0;
    this.geometry = null;
    this.wasActing = false;
    this.clockOffset = 0;
    this.refs = 0;
    this.ticker = setInterval(() => this.tick(), 250);
  }

  close() {
    this.closed = true;
    this.closeModal();
    if (this.game && this.game.close) this.game.close();
    if (this.unwatchNetwork) this.unwatchNetwork();
    clearInterval(this.ticker);
    if (this.ws) this.ws.close();
    document.title = "Hexfolk";
  }

  /** Notice a dropped network at once (network.js): the banner, and a reconnect when back. */
  watchNetwork() {
    if (!this.unwatchNetwork) this.unwatchNetwork = watchNetwork(this);
  }

  /** Ask the server for the current view (`sync`, docs/protocol.md): after a refusal that says
   * the page's picture of the game may be out of date (a stale click, an illegal one). The
   * table and the view since the last version drawn come back and are drawn as any view. */
  resync() {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: "sync", since: this.version }));
  }

  /** Send a listed action (the same path as a click); `retry` counts resends of a stale one. */
  act(text, retry = 0) {
    if (!this.view) return;
    const ref = String(++this.refs);
    this.sent = { ref, text, retry };
    if (window.__hexfolkDebug) console.log("act", text, this.view.version, retry);
    if (this.game && this.game.onAct) this.game.onAct(text, retry);
    this.send({ type: "action", action: text, version: this.view.version, ref });
  }

  /** Take back this seat's latest step (1) or its turn ("turn"), as the view's `undo` offers
   * (the game's part draws the buttons); the server decides, and its refusal (cannot_undo)
   * shows as any refusal does. */
  undo(steps) {
    if (!this.view) return;
    this.send({ type: "undo", steps, version: this.view.version, ref: `u${++this.refs}` });
  }

  /** An undo taken (the server's `undone`): the game's part may say so. */
  onUndone(msg) { if (this.game && this.game.onUndone) this.game.onUndone(msg); }

  /** A refusal is about to be shown: the game's part drops what it queued. */
  onRefusal(msg) { if (this.game && this.game.onRefusal) this.game.onRefusal(msg); }

  /** The welcome (socket.js): the board's geometry once the game has started, the chat's
   * limits and the chat's lines this person reads, all as the server says them
   * (docs/protocol.md): the page asks for none of them. */
  onWelcome(msg) {
    if (msg.geometry && !this.geometry) this.geometry = msg.geometry;
    if (msg.chat) this.chatLimits = msg.chat;
    if (msg.chat_history) {
      this.chat = withHistory(msg.chat_history, this.chat);
      this.renderChat();
    }
  }

  async onView(msg) {
    this.clockOffset = msg.server_time - Date.now() / 1000;
    this.log = this.log.slice(0, msg.log_start).concat((msg.log || []).map(logEntry));
    this.timeouts = this.timeouts.filter((m) => m.log_to <= msg.log_start).concat(msg.timeouts || []);
    this.version = msg.version;
    this.seat = msg.seat;
    this.view = msg;
    this.table.status = msg.status;
    if (!this.geometry && !(await this.loadGeometry())) return;
    if (this.view !== msg) return; // a newer view arrived meanwhile
    window.__hexfolkView = msg;
    this.scheduleRender();
  }

  /** True when log line `i` was written by a time-out's defaults (shown with "(time-out)"). */
  timedOut(i) { return this.timeouts.some((m) => m.log_from <= i && i < m.log_to); }

  /** A log line's words with the time-out mark when the clock wrote it. */
  marked(words, i) { return this.timedOut(i) ? `${words} ${t("log.timeout")}` : words; }

  /** The board's geometry: the welcome's; a page whose socket saw the game start asks for it
   * once (GET /geometry). Without it nothing can be drawn: say why (the server's words). */
  async loadGeometry() {
    if (this.geometry) return true;
    if (this.geometryError) return false;
    let g;
    try { g = await api("GET", `/api/tables/${this.id}/geometry`); } catch (err) {
      if (!this.geometryError) {
        this.geometryError = true;
        this.app.replaceChildren(h("section.card.narrow", {}, h("h2", { text: t("err.no_board") }), h("p", { text: err.message }), h("a.button", { href: "#/", text: t("back") })));
      }
      return false;
    }
    if (!this.geometry) this.geometry = g.geometry;
    return true;
  }

  /** Draw the newest view once per frame (a burst of bot moves is drawn once). */
  scheduleRender() {
    if (this.pendingFrame) return;
    this.pendingFrame = requestAnimationFrame(() => {
      this.pendingFrame = 0;
      if (this.closed || !this.view || !this.plugin) return; // setPlugin draws it once loaded
      const t0 = performance.now();
      this.render();
      // benchmarks/web_speed.py: count the page's layout after the redraw in its time too
      if (window.__hexfolkLayoutInRedraw) void document.body.offsetHeight;
      const ms = performance.now() - t0;
      window.__hexfolkRedrawMs = ms;
      (window.__hexfolkRedraws = window.__hexfolkRedraws || []).push(ms);
      if (window.__hexfolkRedraws.length > 2000) window.__hexfolkRedraws.shift();
      if (window.__hexfolkFirstView === undefined) window.__hexfolkFirstView = performance.now();
      window.__hexfolkVersion = this.view.version;
      this.signalTurn();
      const again = this.retryText;
      this.retryText = null;
      if (again && this.listed(again.text)) this.act(again.text, again.retry + 1);
      else {
        // a click the game moved past is not dropped without a word (issue 25, finding 18)
        if (again) this.staleClick();
        if (this.game && this.game.afterRedraw) this.game.afterRedraw(again);
      }
    });
  }

  /** A click that reached the server after the game had moved on, and is no longer listed in
   * the current view: say so in the page's language, and make sure the page shows the latest. */
  staleClick() {
    toast(t("err.stale"), "note");
    this.resync();
  }

  seatName(i) { return seatLabel(this.view ? this.view.seats : this.table.seats, i); }

  /** True when the inputs of a part of the page differ from the last time it was drawn. */
  changed(part, inputs) {
    const sig = JSON.stringify(inputs);
    this.sigs = this.sigs || {};
    if (this.sigs[part] === sig) return false;
    this.sigs[part] = sig;
    return true;
  }

  /** True when `text` is one of the drawn view's listed actions. */
  listed(text) { return !!this.view && this.view.legal.some((e) => e.action === text); }

  myTurn() { return this.view && this.seat !== null && this.view.legal.length > 0; }

  signalTurn() {
    const acting = this.myTurn();
    if (acting && !this.wasActing && this.view.status === "playing") chime();
    this.wasActing = acting;
    document.title = acting ? `● ${t("your_turn")} · Hexfolk` : "Hexfolk";
    document.body.classList.toggle("my-turn", acting);
  }

  tick() {
    if (!this.view || !this.el) return;
    tickClocks(this.el.status, this.view, this.clockOffset);
    if (this.modalEl) tickClocks(this.modalEl, this.view, this.clockOffset); // a dialog's clocks
  }

  /** The sound on/off button, in the top bar, after the table's rated or casual badge. */
  showMute() {
    const mute = h("button.small#mute", { "aria-pressed": String(muted()), text: muted() ? t("sound.off") : t("sound.on"), onclick: () => {
      setMuted(!muted());
      mute.textContent = muted() ? t("sound.off") : t("sound.on");
      mute.setAttribute("aria-pressed", String(muted()));
    } });
    document.getElementById("top-extra").replaceChildren(ratedBadge(this.table), mute);
  }

  /** The focused control's action or id, to focus it again after a redraw (`refocus`). */
  focusedKey() {
    return document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.act || document.activeElement.id : null;
  }

  refocus(focused) {
    if (!focused) return;
    const again = document.querySelector(`[data-act="${CSS.escape(focused)}"]`) || document.getElementById(focused);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }

  /** The game's plug-in has loaded: draw what the socket brought meanwhile. */
  setPlugin(plugin) {
    this.plugin = plugin;
    if (this.closed || this.shut) return; // a refused socket's card (shutOut) stays
    if (this.table.status === "lobby") this.renderLobby();
    else if (this.view) this.scheduleRender();
  }

  // --- the frame of the page ----------------------------------------------------------------
  /** Build the page once there is a view to draw: the game's part (plugin.mount) inside the
   * shell's frame — the board's box with the offline banner, the side column with the status
   * and the end first and the log and the chat last. */
  ensureLayout() {
    if (this.layoutEl) return;
    document.getElementById("toast").className = ""; // a message of the lobby is old news now
    this.el = {
      status: h("div.status#status", { "aria-live": "polite" }),
      end: h("div#end"),
      log: h("ol.log#log"), // a plain list: its box (below) is the live region, so its items stay list items (axe)
    };
    const chat = chatBox((msg) => this.send(msg), this.chatLimits);
    this.el.chat = chat.list;
    this.el.chatForm = chat.form;
    this.showMute();
    installWhyTaps();
    this.game = this.plugin.mount(this);
    const f = this.game.frame;
    // a phone shows the board, the decision of the moment (the status, the end and the game's
    // `dock`) and one tab's panels under them (the game's `tabs`, the log, the chat), picked in
    // the tab bar; a wider screen shows every panel, as the frame lists them (style.css, phone)
    const dock = new Set(f.dock || []);
    const tabs = [{ id: "board", label: t("tab.board"), icon: "⬡", panels: [] }, ...(f.tabs || []),
      { id: "log", label: t("log"), icon: "☰", panels: [] }, { id: "chat", label: t("chat"), icon: "✉", panels: [] }];
    for (const tab of tabs) for (const p of tab.panels) p.dataset.pane = tab.id;
    const talkLog = h("div.talk-log", { "data-pane": "log" }, h("h2", { text: t("log") }), h("div.log-box", { role: "log", "aria-live": "polite", "aria-label": t("log"), tabindex: "0" }, this.el.log));
    const talkChat = h("div.talk-chat", { "data-pane": "chat" }, h("h2", { text: t("chat") }), this.el.chat, chat.form, chat.limits);
    this.tabs = tabs;
    this.tab = f.startTab || "board";
    this.tabBar = h("nav.tabbar#tabbar", { "aria-label": t("tab.bar") }, tabs.map((tab) => h(`button.tab#tab-${tab.id}`, {
      type: "button", "data-tab": tab.id, "aria-pressed": String(tab.id === this.tab), onclick: () => this.showTab(tab.id),
    }, h("span.tab-icon", { "aria-hidden": "true", text: tab.icon || "•" }), h("span.tab-label", { text: tab.label }), h("span.tab-badge", { hidden: true }))));
    this.layoutEl = h(`section.game${f.cls || ""}`, { "data-tab": this.tab },
      h(`div.board-wrap${f.wrapCls || ""}`, {}, ...f.board, offlineBanner()),
      ...(f.beside || []),
      h("aside.side", {}, this.el.status,
        h("div.dock#dock", {}, this.el.end, ...f.side.filter((p) => dock.has(p) || !p.dataset.pane)),
        h("div.pane#pane", {}, ...f.side.filter((p) => !dock.has(p) && p.dataset.pane),
          h("section.panel.talk", {}, talkLog, talkChat), h("p.pane-empty.muted", { text: t("tab.empty") }))),
      this.tabBar);
    this.app.replaceChildren(this.layoutEl);
    this.renderChat(); // the welcome's history and the lines that came before the frame
    this.showTab(this.tab);
  }

  // --- the tabs of a phone --------------------------------------------------------------------
  /** Show tab `id`'s panels (on a phone; a wider screen shows them all). */
  showTab(id) {
    if (!this.tabs || !this.tabs.some((x) => x.id === id)) return;
    this.tab = id;
    this.layoutEl.dataset.tab = id;
    for (const b of this.tabBar.children) b.setAttribute("aria-pressed", String(b.dataset.tab === id));
    for (const el of this.layoutEl.querySelectorAll("[data-pane]")) el.classList.toggle("pane-off", el.dataset.pane !== id);
    if (id === "chat") {
      this.chatSeen = this.chat.length;
      this.el.chat.scrollTop = this.el.chat.scrollHeight; // drawn while hidden: to its newest line
    }
    this.updateTabs();
  }

  /** Bring the element `id` into sight: its tab first (a phone), then scroll to it. */
  reveal(id) {
    const el = document.getElementById(id);
    if (!el) return;
    const pane = el.closest("[data-pane]");
    if (pane) this.showTab(pane.dataset.pane);
    if (pane !== el) el.scrollIntoView({ behavior: "smooth", block: "start" }); // a tab's own panel: shown
  }

  /** The tab bar's badges (new chat lines, the game's `tabBadges`: e.g. offers to answer), the
   * tab that holds the decision of the moment (the game's `decisionTab`, marked, and shown by
   * itself when it moves unless the person is reading the log or the chat), and the note of an
   * empty tab. */
  updateTabs() {
    if (!this.tabBar) return;
    if (this.chatSeen === undefined) this.chatSeen = this.chat.length; // the history is not news
    const me_ = me();
    const unread = this.tab === "chat" ? 0 : this.chat.slice(this.chatSeen).filter((m) => !me_ || m.name !== me_.name).length;
    if (this.tab === "chat") this.chatSeen = this.chat.length;
    const counts = { ...((this.game && this.game.tabBadges && this.view && this.game.tabBadges()) || {}), chat: unread };
    const decide = this.game && this.game.decisionTab && this.view ? this.game.decisionTab() : null;
    if (decide !== this.decideTab) {
      // the decision moved: show its tab (unless the person reads the log or the chat); once
      // it has left a tab shown for it, the tab shown before comes back
      const left = this.autoTab && this.tab === this.autoTab.id ? this.autoTab.before : null;
      this.decideTab = decide;
      this.autoTab = null;
      if (decide && decide !== this.tab && this.tab !== "log" && this.tab !== "chat") {
        this.autoTab = { id: decide, before: left || this.tab };
        this.showTab(decide);
      } else if (!decide && left) this.showTab(left);
    }
    for (const b of this.tabBar.children) {
      const n = counts[b.dataset.tab] || 0;
      const badge = b.querySelector(".tab-badge");
      const text = n > 0 ? String(n > 9 ? "9+" : n) : "";
      if (badge.textContent !== text) { badge.textContent = text; badge.hidden = !text; }
      b.classList.toggle("decide", b.dataset.tab === decide);
    }
    const panels = [...this.layoutEl.querySelectorAll(`[data-pane="${this.tab}"]`)];
    const shown = panels.some((el) => !el.hidden);
    // a tab whose panels sit outside the pane (Scythe's mat, beside the board on a wide screen)
    this.layoutEl.classList.toggle("pane-outside", panels.length > 0 && !panels.some((el) => el.closest("#pane")));
    this.layoutEl.classList.toggle("pane-none", this.tab === "board");
    this.layoutEl.classList.toggle("tab-empty", this.tab !== "board" && !shown);
  }

  /** Draw the view: the game's part, then the log and the chat's audience. */
  render() {
    if (this.table.status === "lobby" || !this.view || !this.geometry || !this.plugin) return;
    const focused = this.focusedKey();
    this.ensureLayout();
    this.plugin.update(this.game);
    this.renderLog();
    this.updateTabs();
    showAudience(this.el.chatForm, chatAudience(this.table));
    if (this.modalEl && this.modalEl.id === "dialog") {
      // a chooser whose actions are no longer all listed closes
      const acts = [...this.modalEl.querySelectorAll("[data-act]")].flatMap((x) => x.dataset.act.split("|"));
      if (acts.length && !acts.every((a) => this.listed(a))) this.closeModal();
    }
    this.refocus(focused);
  }

  /** The table's lobby (seats.js) with the game's settings line and the host's settings form,
   * kept across redraws (unsaved choices stay) until the table's saved settings change. */
  renderLobby() {
    if (!this.plugin) return; // drawn once it has loaded (setPlugin)
    const tb = this.table;
    const form = this.plugin.settingsForm;
    renderTableLobby(this.app, tb, {
      title: `${t(`game.${tb.game}`)} · ${t("host")}: ${tb.host.name}`,
      summary: h("p.settings-line", { text: form.summary(tb) }),
      settings: () => {
        const key = JSON.stringify([tb.players, tb.options, tb.clock, tb.commit_clock, tb.public, tb.spectators, tb.bot_delay]);
        if (!this.lobbySet || this.lobbySetKey !== key) { this.lobbySet = form.fields(tb); this.lobbySetKey = key; }
        return this.lobbySet;
      },
    });
  }

  /** The log: the last lines in words (the game's `logForms`), each keyed so that a new line is
   * the only node added (the log is a live region: only it is read); a time-out's line marked. */
  renderLog() {
    const seats = this.view.seats;
    const start = Math.max(0, this.log.length - (this.plugin.logLines || 150));
    if (!this.changed("log", [this.log.length, this.log[this.log.length - 1], start, seats, this.timeouts])) return;
    const names = seats.map((_, i) => seatLabel(seats, i)).join("\n");
    sync(this.el.log, this.log.slice(start).map((line, i) => {
      const n = start + i;
      const late = this.timedOut(n);
      return { key: String(n), sig: `${logText(line)}\n${names}\n${late}`, build: () => h(late ? "li.timeout" : "li", { text: this.marked(this.plugin.logForms(line, seats, this.geometry), n), title: logText(line) }) };
    }));
    // no scrollTop here: reading the height would lay the page out in the middle of a redraw
    // (the biggest cost of a redraw, benchmarks/web_speed.py); the box's column-reverse keeps
    // the newest line in view by itself
  }

  /** The chat's lines, each with its seat's mark (the game's `seatMark`, else the seat's swatch). */
  renderChat() {
    if (!this.el || !this.el.chat) return;
    drawChat(this.el.chat, this.chat, (seat) => (this.game && this.game.seatMark ? this.game.seatMark(seat) : swatch(seat)));
    this.updateTabs();
  }

  /** Redraw the players' panel (presence changed): the game's part draws it. */
  renderPlayers() { if (this.game && this.game.renderPlayers) this.game.renderPlayers(); }

  // --- dialogs ------------------------------------------------------------------------------
  /** A dialog over the page: `title`, `body`; `closable` ones close with ×, Escape or a click
   * beside the box. Its clocks tick with the page's (tick). */
  modal(title, body, { id = "dialog", closable = true } = {}) {
    this.closeModal();
    const close = closable ? h("button.small.close", { text: "×", "aria-label": t("close"), onclick: () => this.closeModal() }) : null;
    const dlg = h(`div.modal#${id}`, { role: "dialog", "aria-modal": "true", "aria-label": title },
      h("div.modal-box", {}, h("div.modal-head", {}, h("h2", { text: title }), close), body));
    if (closable) {
      dlg.addEventListener("keydown", (e) => { if (e.key === "Escape") this.closeModal(); });
      dlg.addEventListener("click", (e) => { if (e.target === dlg) this.closeModal(); });
    }
    document.body.append(dlg);
    const first = dlg.querySelector("button:not(.close), input, select");
    if (first) first.focus();
    this.modalEl = dlg;
  }

  /** A chooser: one button per `[action, label]`; a choice closes it and acts. */
  choose(title, options) {
    this.modal(title, h("div.choices", {}, options.map(([a, label]) => h("button.choice", { "data-act": a, text: label, onclick: () => { this.closeModal(); this.act(a); } }))));
  }

  closeModal() { if (this.modalEl) { this.modalEl.remove(); this.modalEl = null; } }

  /** The notice over the page (#page-note, index.html; cleared when the page changes):
   * `text` with a close button, or null to hide it. */
  note(text) {
    const el = document.getElementById("page-note");
    if (!text) { el.replaceChildren(); el.hidden = true; return; }
    el.hidden = false;
    el.replaceChildren(h("span", { text }), h("button.small.close", { text: "×", "aria-label": t("close"), onclick: () => this.note(null) }));
  }

  /** The host moved this person out of their seat (docs/server.md, "Kicks"): say so in the
   * page's language; where the table has spectators the connection watches on (the lobby is
   * drawn again without a seat, the Join button back), elsewhere the server closes it (4401,
   * `shutOut`). A kick is not a ban: a seat that is open may be taken again. */
  kicked(msg) {
    this.kickedMsg = msg;
    this.seat = null;
    const p = me();
    const watching = this.table.spectators !== false || (p && this.table.host && this.table.host.id === p.id);
    const words = { by: msg.by, seat: msg.seat + 1 };
    this.note(t(watching ? "kicked.watch" : "kicked.closed", words));
  }

  /** The server refused this page's socket (4401: not allowed to watch, or kicked at a table
   * without spectators; 4404: no such table). No reconnect: the page says why, and where a
   * seat is open in the lobby it offers to take it (a kick is not a ban). */
  async shutOut(code) {
    this.setConn(true); // not a network problem: no "reconnecting" banner
    if (this.refusal && this.refusal.code === "bad_token") {
      // this browser's player is not known here (a wiped database forgets it): forget it and
      // open the table again as a visitor
      forgetMe();
      window.dispatchEvent(new HashChangeEvent("hashchange"));
      return;
    }
    if (code === 4404) {
      this.app.replaceChildren(h("section.card.narrow#shut-out", {}, h("h2", { text: t("err.no_table") }), h("a.button", { href: "#/", text: t("back") })));
      return;
    }
    let tb = this.table;
    try { tb = await api("GET", `/api/tables/${this.id}`); this.table = tb; } catch (err) { console.warn("table", err); }
    if (this.closed) return;
    const why = this.kickedMsg ? t("kicked.closed", { by: this.kickedMsg.by, seat: this.kickedMsg.seat + 1 })
      : (this.refusal && this.refusal.message) || t("refused.why");
    const open = me() && tb.status === "lobby" && tb.seats.some((x) => x.kind === "open");
    const retake = open ? h("button.primary#retake-seat", { text: t("refused.retake"), onclick: async () => {
      try { await api("POST", `/api/tables/${this.id}/join`, { seat: null }); } catch (err) { toast(errorText(err)); return; }
      this.shut = null;
      this.kickedMsg = null;
      this.refusal = null;
      this.note(null);
      this.app.replaceChildren(h("p.loading", { text: t("loading") }));
      this.connect();
    } }) : null;
    this.note(null); // the card says it all
    this.app.replaceChildren(h("section.card.narrow#shut-out", {},
      h("h2", { text: t(this.kickedMsg ? "kicked.title" : "refused.title") }),
      h("p#shut-out-why", { text: why }),
      h("p.muted", { text: t(open ? "refused.open" : "refused.none_open") }),
      h("div.row", {}, retake, h("a.button", { href: "#/", text: t("back") }))));
  }
}

Object.assign(TablePage.prototype, Socket);
