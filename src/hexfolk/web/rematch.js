// The rematch as every page of a finished table shows it (docs/web.md, "Rematch"): the person
// who asks (POST /api/tables/{id}/rematch) is taken to the new table; every other page at the
// old table (the other players, their other tabs, spectators, the island's overview) is told
// by the server's `rematch` push (or the table's `rematch_id` when the page opens later) and
// shows "Rematch: … join the new table" with a link to it.
import { api, me } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";

/** Ask for the rematch of table `id` and go to it (the same table for everyone who asks). */
export async function askRematch(id) {
  try {
    const tb = await api("POST", `/api/tables/${id}/rematch`);
    location.hash = `#/t/${tb.id}`;
  } catch (err) { toast(err.message); }
}

/** The rematch button of a seated player, or the notice with the link once the new table
 * exists (`rematchId`; `by`: who asked, when the push said so). Null for a watcher before. */
export function rematchPart(id, rematchId, by, seated) {
  if (rematchId) {
    return h("div.rematch-note#rematch-note", { role: "status" },
      h("span", { text: by ? t("rematch.ready_by", { by }) : t("rematch.ready") }),
      h("a.button.primary#rematch-link", { href: `#/t/${rematchId}`, text: t("rematch.join") }));
  }
  return seated ? h("button#rematch", { text: t("rematch"), onclick: () => askRematch(id) }) : null;
}

/** For a page without the table's socket (the island's overview): listen on one for the
 * `rematch` push; `onRematch(newId, by)` (`by` null when only the table's `rematch_id`
 * says so: a rematch made while the socket was away); `onOther(msg)` hears the other pushes
 * (the analysis's progress, analysis.js). A lost socket is opened again with
 * back-off (300 ms doubling to 8 s); a refused one (4401, 4404) is not: the page keeps what it
 * showed when it opened. Returns the function that stops listening. */
export function listenForRematch(id, onRematch, onOther = () => {}) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let stopped = false;
  let ws = null;
  let retry = 0;
  const open = () => {
    ws = new WebSocket(`${proto}://${location.host}/ws/tables/${id}`);
    ws.onopen = () => {
      const p = me();
      ws.send(JSON.stringify({ type: "hello", token: p ? p.token : null, as: p ? "seat" : "spectator" }));
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (stopped) return;
      if (msg.type === "welcome") retry = 0;
      else if (msg.type === "rematch") onRematch(msg.table, msg.by);
      else if (msg.type === "table" && msg.table.rematch_id) onRematch(msg.table.rematch_id, null);
      else if (msg.type === "error") console.warn("rematch socket", msg.code, msg.message);
      else onOther(msg);
    };
    ws.onclose = (ev) => {
      if (stopped) return;
      if (ev.code === 4401 || ev.code === 4404) { console.warn("rematch socket refused", ev.code, ev.reason); return; }
      setTimeout(() => { if (!stopped) open(); }, Math.min(8000, 300 * 2 ** retry++));
    };
  };
  open();
  return () => { stopped = true; ws.close(); };
}
