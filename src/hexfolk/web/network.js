// The network as every game's table page sees it: the browser's offline/online events and the
// banner over the board that says the page is not connected. A dropped network: the browser
// says so ("offline") long before a socket notices (an emulated or real network loss may leave
// a socket open for minutes), so the page shows it at once and closes the socket; back online,
// it reconnects at once (the hello carries the last version, the server sends what was
// missed). Part of the table page's shell (table_page.js), the same for every game.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The "Not connected: reconnecting…" banner, shown over the board while `body.offline`. */
export function offlineBanner() {
  return h("div.offline-banner#offline-banner", { role: "status", text: t("err.offline") });
}

/** Watch the browser's network for `page` (a page with the Socket mixin: `ws`, `retry`,
 * `closed`, `shut`, `connect()`, `setConn(ok)`); returns the function that stops watching. */
export function watchNetwork(page) {
  const onOffline = () => {
    page.setConn(false);
    const old = page.ws;
    page.ws = null;
    if (old) old.close();
  };
  const onOnline = () => {
    if (page.closed || page.shut) return; // a table that refused the page is not asked again
    page.retry = 0;
    if (!page.ws || page.ws.readyState > 1) page.connect();
  };
  window.addEventListener("offline", onOffline);
  window.addEventListener("online", onOnline);
  return () => {
    window.removeEventListener("offline", onOffline);
    window.removeEventListener("online", onOnline);
  };
}
