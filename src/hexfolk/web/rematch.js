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
 * `rematch` push only; `onRematch(newId, by)`. Returns the function that stops listening. A
 * refused or lost socket is not retried: the page still shows the table's `rematch_id` as it
 * was when the page opened. */
export function listenForRematch(id, onRematch) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${id}`);
  let stopped = false;
  ws.onopen = () => {
    const p = me();
    ws.send(JSON.stringify({ type: "hello", token: p ? p.token : null, as: p ? "seat" : "spectator" }));
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "rematch" && !stopped) onRematch(msg.table, msg.by);
  };
  return () => { stopped = true; ws.close(); };
}
