// What the island's table page (table.js) and Scythe's (scythe/table.js) share: opening a table
// (an invitee without a name names itself first), the page's state, taking a view from the
// socket (socket.js), drawing it once per frame with the redraw timing hooks of
// benchmarks/web_speed.py, the retry of an action the server found stale, the turn's chime and
// title, the clocks, the mute button and the focus kept across a redraw. Each game's page
// extends TablePageBase with its own layout and panels; the hooks for what differs are
// `onAct`, `loadGeometry`, `loadChat` and `afterRedraw`. A person the host moves out of their
// seat is told so (`kicked`), and a table that refuses the page says why (`shutOut`).
import { api, checkMe, me } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { nameForm } from "./lobby.js";
import { chime, muted, setMuted } from "./sound.js";
import { seatLabel } from "./seats.js";
import { chatHistory } from "./chat.js";
import { tickClocks } from "./clock.js";
import { watchNetwork } from "./network.js";
import { logEntry } from "./log_lines.js";

/** The table `id` from the server, or null (the reason shown in `app`). A visitor without a
 * name invited to a table still in its lobby names itself first (`lead`: the invite's words). */
export async function openTable(app, id, lead) {
  const p = await checkMe();
  let table;
  try { table = await api("GET", `/api/tables/${id}`); } catch (err) {
    app.append(h("section.card.narrow", {}, h("h2", { text: t("err.no_table") }), h("p", { text: err.message }), h("a.button", { href: "#/", text: t("back") })));
    return null;
  }
  if (!p && table.status === "lobby") {
    await new Promise((resolve) => {
      app.append(h("section.lobby", {}, h("p.lead", { text: t(lead, { host: table.host.name }) }), nameForm(resolve)));
    });
    app.replaceChildren();
  }
  return table;
}

export class TablePageBase {
  constructor(app, id, table) {
    this.app = app;
    this.id = id;
    this.table = table;
    this.view = null;
    this.log = [];
    this.timeouts = []; // marks of the log lines a clock's defaults wrote (docs/protocol.md)
    this.chat = [];
    this.version = null;
    this.seat = null;
    this.closed = false;
    this.retry = 0;
    this.board = null;
    this.geometry = null;
    this.wasActing = false;
    this.clockOffset = 0;
    this.chatLoaded = false;
    this.refs = 0;
    this.ticker = setInterval(() => this.tick(), 250);
  }

  close() {
    this.closed = true;
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
    this.onAct(text, retry);
    this.send({ type: "action", action: text, version: this.view.version, ref });
  }

  /** Hook: just before an action is sent. */
  onAct() {}

  async onView(msg) {
    this.clockOffset = msg.server_time - Date.now() / 1000;
    this.log = this.log.slice(0, msg.log_start).concat((msg.log || []).map(logEntry));
    this.timeouts = this.timeouts.filter((m) => m.log_to <= msg.log_start).concat(msg.timeouts || []);
    this.version = msg.version;
    this.seat = msg.seat;
    this.view = msg;
    this.table.status = msg.status;
    if (!this.geometry && !(await this.loadGeometry())) return;
    this.loadChat();
    if (this.view !== msg) return; // a newer view arrived meanwhile
    window.__hexfolkView = msg;
    this.scheduleRender();
  }

  /** True when log line `i` was written by a time-out's defaults (shown with "(time-out)"). */
  timedOut(i) { return this.timeouts.some((m) => m.log_from <= i && i < m.log_to); }

  /** A log line's words with the time-out mark when the clock wrote it. */
  marked(words, i) { return this.timedOut(i) ? `${words} ${t("log.timeout")}` : words; }

  /** Hook: fetch the board's geometry into `this.geometry`; false when there is none to draw. */
  async loadGeometry() {
    const g = await api("GET", `/api/tables/${this.id}/geometry`);
    this.geometry = g.geometry;
    return true;
  }

  /** Hook: load the chat's history once (a watcher without a name has none). */
  loadChat() {}

  /** Fetch the chat's history and draw it. */
  fetchChat() {
    chatHistory(this.id, this.chat).then((c) => { this.chat = c; this.renderChat(); }).catch(() => {});
  }

  /** Draw the newest view once per frame (a burst of bot moves is drawn once). */
  scheduleRender() {
    if (this.pendingFrame) return;
    this.pendingFrame = requestAnimationFrame(() => {
      this.pendingFrame = 0;
      if (this.closed || !this.view) return;
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
      if (again && this.L.all.includes(again.text)) this.act(again.text, again.retry + 1);
      else {
        // a click the game moved past is not dropped without a word (issue 25, finding 18)
        if (again) this.staleClick();
        this.afterRedraw(again);
      }
    });
  }

  /** A click that reached the server after the game had moved on, and is no longer listed in
   * the current view: say so in the page's language, and make sure the page shows the latest. */
  staleClick() {
    toast(t("err.stale"), "note");
    this.resync();
  }

  /** Hook: after a redraw that resent nothing; `stale` is the stale action no longer listed, or null. */
  afterRedraw() {}

  seatName(i) { return seatLabel(this.view ? this.view.seats : this.table.seats, i); }

  /** True when the inputs of a part of the page differ from the last time it was drawn. */
  changed(part, inputs) {
    const sig = JSON.stringify(inputs);
    this.sigs = this.sigs || {};
    if (this.sigs[part] === sig) return false;
    this.sigs[part] = sig;
    return true;
  }

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

  /** The sound on/off button, in the top bar. */
  showMute() {
    const mute = h("button.small#mute", { "aria-pressed": String(muted()), text: muted() ? t("sound.off") : t("sound.on"), onclick: () => {
      setMuted(!muted());
      mute.textContent = muted() ? t("sound.off") : t("sound.on");
      mute.setAttribute("aria-pressed", String(muted()));
    } });
    document.getElementById("top-extra").replaceChildren(mute);
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
      try { await api("POST", `/api/tables/${this.id}/join`, { seat: null }); } catch (err) { toast(err.message); return; }
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
