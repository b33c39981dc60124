// The seats of a table, shared by every game's page: seat names and swatches, and the table's
// lobby before the start (the invite link, the seats, the host's controls).
import { api, me } from "./api.js";
import { h, toast } from "./dom.js";
import { t, errorText } from "./i18n.js";
import { SEAT_COLORS, SEAT_SYMBOLS } from "./board.js";
import { showProblems } from "./lobby.js";
import { ratedBadge, ratedSelect } from "./rated.js";
import { personLink, karmaTag, minKarmaLine, minKarmaSelect, refusalText } from "./karma.js";

export const LEVELS = ["easy", "medium", "hard", "random"];

export function seatLabel(seats, i) {
  const x = seats && seats[i];
  if (!x) return `${t("seat")} ${i + 1}`;
  if (x.kind === "bot") return `${t("seat.bot")} ${i + 1} (${t(`level.${x.level}`)})`;
  if (x.kind === "person") return x.name;
  return `${t("seat.open")} ${i + 1}`;
}

/** Seat `i`'s name for the players' panels: a person's name links to their profile (in a new
 * tab: the game stays open); a bot's or an open seat's is text. */
export function seatNameEl(seats, i) {
  const x = seats && seats[i];
  if (x && x.kind === "person" && x.player_id) return personLink(x.player_id, seatLabel(seats, i), { newTab: true });
  return seatLabel(seats, i);
}

/** Seat `i`'s karma badge (karma.js), or null for a bot or an open seat. */
export function seatKarma(seats, i) {
  const x = seats && seats[i];
  return x && x.kind === "person" && x.player_id ? karmaTag(x.player_id) : null;
}

export function swatch(i) {
  return h("span.swatch", { style: `background:${SEAT_COLORS[i]}`, "aria-hidden": "true", text: SEAT_SYMBOLS[i] });
}

/** The lobby of a table: `title` heads it, `summary` is the settings line, `settings()` gives
 * the host's settings form ({el, read}) whose values are sent with PATCH. */
export function renderTableLobby(app, tb, { title, summary, settings }) {
  const p = me();
  const host = p && tb.host.id === p.id;
  const mySeat = tb.seats.findIndex((x) => x.kind === "person" && p && x.player_id === p.id);
  const link = `${location.origin}/#/t/${tb.id}`;
  // an invitee is offered one way in (issue 27, point 12): "Join" when one seat is open, a
  // "Sit here" on each open seat when there are several; never both
  const open = tb.seats.filter((x) => x.kind === "open").length;
  const sitHere = !host && p && mySeat < 0 && open > 1;
  const seats = h("ul.seats#seats", {}, tb.seats.map((x, i) => {
    const kids = [swatch(i), h("span.sname", {}, seatNameEl(tb.seats, i)), seatKarma(tb.seats, i)];
    if (x.kind === "person") kids.push(h(`span.conn${x.connected ? ".on" : ""}`, { text: x.connected ? t("connected") : t("away") }));
    if (host && !(x.kind === "person" && x.player_id === p.id)) {
      const value = x.kind === "bot" ? `bot:${x.level}` : x.kind;
      const opts = [["open", t("seat.open")], ...LEVELS.map((l) => [`bot:${l}`, `${t("seat.bot")} (${t(`level.${l}`)})`])];
      if (x.kind === "person") opts.unshift(["person", x.name]);
      const sel = h("select.seat-kind", { "aria-label": `${t("seat")} ${i + 1}`, onchange: async () => {
        const v = sel.value;
        try {
          if (v === "open") await api("PUT", `/api/tables/${tb.id}/seats/${i}`, { kind: "open" });
          else if (v.startsWith("bot:")) await api("PUT", `/api/tables/${tb.id}/seats/${i}`, { kind: "bot", level: v.slice(4) });
        } catch (err) { toast(err.message); }
      } }, opts.map(([v, l]) => h("option", { value: v, text: l, selected: v === value })));
      kids.push(sel);
      if (x.kind === "person" && x.player_id !== p.id) {
        kids.push(h("button.small.kick", { text: t("kick"), onclick: () => api("POST", `/api/tables/${tb.id}/kick`, { seat: i }).catch((e) => toast(e.message)) }));
      }
    } else if (x.kind === "open" && sitHere) {
      kids.push(h("button.small.join-seat", { text: t("sit"), onclick: () => api("POST", `/api/tables/${tb.id}/join`, { seat: i }).catch((e) => toast(refusalText(e))) }));
    }
    return h("li.seat", { "data-seat": i }, kids);
  }));
  const copy = h("button#copy-link", { text: t("copy"), onclick: async () => {
    try { await navigator.clipboard.writeText(link); toast(t("copied"), "ok"); } catch { input.select(); document.execCommand("copy"); toast(t("copied"), "ok"); }
  } });
  const input = h("input#invite-link", { value: link, readonly: true, onfocus: (e) => e.target.select() });
  const controls = [];
  const least = host
    ? h("div.field.min-karma", {}, h("label", { for: "table-min-karma", text: t("karma.min") }),
      minKarmaSelect("table-min-karma", tb.min_karma, (e) => api("PATCH", `/api/tables/${tb.id}`, { min_karma: e.target.value ? Number(e.target.value) : null }).catch((err) => toast(err.message))))
    : tb.min_karma ? h("p.min-karma-line#min-karma-line", { text: minKarmaLine(tb) }) : null;
  if (host) {
    const set = settings();
    // a redraw (someone joins, a seat changes) keeps the settings open as they were
    const wasOpen = !!app.querySelector("details.settings[open]");
    const problems = h("div.form-problems#settings-problems", { role: "alert", hidden: true });
    const details = h("details.card.settings", { open: wasOpen }, h("summary", { text: t("settings") }), set.el, problems,
      h("button", { text: t("save"), onclick: async () => {
        const v = set.read();
        showProblems(problems, null);
        try { await api("PATCH", `/api/tables/${tb.id}`, { ...v, clock: v.clock === null ? "unlimited" : v.clock }); } catch (err) { showProblems(problems, set, err); }
      } }));
    // rated or casual, saved at once (a guest seated keeps it casual: the server says so)
    const rated = ratedSelect("table-rated", tb.rated, () => {
      api("PATCH", `/api/tables/${tb.id}`, { rated: rated.value === "rated" }).catch((e) => { rated.value = tb.rated ? "rated" : "casual"; toast(errorText(e)); });
    });
    controls.push(h("div.field.rated-pick", {}, h("label", { for: "table-rated", text: t("set.rated") }), rated));
    controls.push(h("div.row", {},
      h("button#fill-bots", { text: t("fill_bots"), onclick: () => api("POST", `/api/tables/${tb.id}/fill-bots`, { level: "medium" }).catch((e) => toast(e.message)) }),
      h("button.primary#start", { text: t("start"), disabled: tb.seats.some((x) => x.kind === "open"), onclick: () => api("POST", `/api/tables/${tb.id}/start`).catch((e) => toast(e.message)) })), details);
  } else if (p && mySeat < 0 && open === 1) {
    controls.push(h("button.primary#join", { text: t("join"), onclick: () => api("POST", `/api/tables/${tb.id}/join`, { seat: null }).catch((e) => toast(refusalText(e))) }));
  } else if (mySeat >= 0) {
    controls.push(h("p", { text: t("waiting_host") }), h("button#leave", { text: t("leave"), onclick: () => api("POST", `/api/tables/${tb.id}/leave`).catch((e) => toast(e.message)) }));
  }
  app.replaceChildren(h("section.table-lobby", {},
    h("div.card", {}, h("h1", {}, ratedBadge(tb), ` ${title}`), summary,
      h("div.invite", {}, h("label", { for: "invite-link", text: t("invite") }), h("div.row", {}, input, copy)),
      seats, least, ...controls)));
}
