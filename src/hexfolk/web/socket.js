// The table's WebSocket, part of the table page's shell: hello with the token and the last
// version seen (the server sends only the log lines after it, at whichever server process
// answers; a view flagged `log_rewritten` carries the whole log instead: an undo took back
// lines the page held), reconnect with back-off, a connection reopened once its person takes a seat,
// and the messages the server sends. Mixed into the shell (Object.assign(TablePage.prototype,
// Socket), table_page.js), which has `id`, `table`, `view`, `version`, `seat`, `closed`,
// `retry` and onWelcome(msg), renderLobby(), scheduleRender(), renderPlayers(), renderChat(),
// onView(msg), resync(), staleClick(), kicked(msg), shutOut(code), onRefusal(msg) (before the
// refusal's message is shown), onUndone(msg) (an undo taken) and seatName(i) (a time-out's toast).
import { me } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { reasonText } from "./reasons.js";

/** Refusals after which the page asks for the current view (`sync`): the page acted on what it
 * drew, and the server says that no longer holds (docs/web.md, "Refusals"). */
const RESYNC = new Set(["illegal", "not_your_turn", "ambiguous", "malformed", "cannot_undo", "not_playing"]);

export const Socket = {
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${this.id}`);
    this.ws = ws;
    this.welcomed = false;
    ws.onopen = () => {
      const p = me();
      ws.send(JSON.stringify({ type: "hello", token: p ? p.token : null, since: this.version, as: p ? "seat" : "spectator" }));
    };
    ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      if (this.closed || ws !== this.ws) return;
      // refused (4401: not allowed here, a kick at a table without spectators; 4404: no such
      // table): never reconnect to a table that refuses this page; say why (shutOut)
      if (ev.code === 4404 || ev.code === 4401) { this.ws = null; this.shut = ev.code; this.shutOut(ev.code); return; }
      this.setConn(false);
      const delay = Math.min(8000, 300 * 2 ** this.retry++);
      setTimeout(() => { if (!this.closed) this.connect(); }, delay);
    };
  },

  send(msg) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg));
    else toast(t("err.offline"));
  },

  /** A connection opened before this person took a seat keeps watching: open a new one. One
   * whose person lost the seat (a kick) stays open: the server makes it a watcher itself, and
   * its `kicked` notice may still be on the way. */
  checkSeat() {
    const p = me();
    if (!p || !this.ws || !this.welcomed) return;
    const mine = this.table.seats.findIndex((x) => x.kind === "person" && x.player_id === p.id);
    const want = mine >= 0 ? mine : null;
    if (want === null) { this.seat = null; return; }
    if (this.kickedMsg) { this.kickedMsg = null; this.note(null); } // seated again
    if (want !== this.seat) {
      const old = this.ws;
      this.ws = null;
      old.close();
      this.version = null; // the log held is another viewer's: the new seat's whole log, please
      this.connect();
    }
  },

  setConn(ok) {
    document.body.classList.toggle("offline", !ok);
  },

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.welcomed = true;
        this.retry = 0;
        this.seat = msg.seat;
        this.onWelcome(msg);
        this.setConn(true);
        break;
      case "table": {
        const before = this.table.status;
        this.table = msg.table;
        this.checkSeat();
        if (this.table.status === "lobby") this.renderLobby();
        else if (before === "lobby" && !this.view) this.app.replaceChildren(h("p.loading", { text: t("loading") }));
        else if (this.view) this.scheduleRender();
        break;
      }
      case "presence":
        this.table.seats = msg.seats;
        this.spectators = msg.spectators;
        this.checkSeat();
        if (this.table.status === "lobby") this.renderLobby();
        else if (this.view) { this.view.seats = msg.seats; this.renderPlayers(); }
        break;
      case "view":
        this.onView(msg);
        break;
      case "timeout":
        // a seat's clock ran out and its defaults were played (docs/protocol.md, "Time-outs"):
        // told to everyone, in the page's language (issue 27, point 7); the log marks the lines
        toast(msg.seat === this.seat ? t("timeout.you") : t("timeout.ran_out", { who: this.seatName(msg.seat) }), "note");
        break;
      case "undone":
        this.onUndone(msg);
        break;
      case "kicked":
        this.kicked(msg);
        break;
      case "rematch":
        // the new table exists (another seat asked): the end panel shows the way there
        this.rematchBy = msg.by;
        this.table.rematch_id = msg.table;
        if (this.view) this.scheduleRender();
        break;
      case "analysis":
        // a finished game's analysis progressing (analysis.js): the game's end panel shows it
        if (this.game && this.game.onAnalysis) this.game.onAnalysis(msg);
        break;
      case "chat":
        this.chat.push(msg);
        this.renderChat();
        break;
      case "error":
        if (window.__hexfolkDebug) console.log("error", JSON.stringify(msg));
        if (!this.welcomed) { this.refusal = msg; break; } // a refused hello: shown by shutOut
        if (msg.code === "stale" && this.sent && msg.ref === this.sent.ref && this.sent.retry < 2) {
          // the server sent the current view with the refusal: act again if still listed
          this.retryText = this.sent;
          this.scheduleRender();
          break;
        }
        this.onRefusal(msg);
        if (msg.code === "stale") { this.staleClick(); break; }
        if (msg.code === "illegal") toast(t("err.illegal", { why: reasonText(msg.reason, msg.message || msg.code, this.table?.game) }));
        else toast(msg.message || msg.code);
        // the page acted on what it drew: a refusal of that says the drawing may be out of date
        if (RESYNC.has(msg.code)) this.resync();
        break;
      default:
        break;
    }
  },
};
