// The lobby: a name, the open tables, the games to watch, my tables, and "create a table".
import { api, me, createPlayer, checkMe, forgetMe } from "./api.js";
import { h, toast } from "./dom.js";
import { gamePlugin } from "./games/registry.js";
import { t, lang, loadGameTexts, errorText } from "./i18n.js";
import { mapPreview } from "./board.js";
import { ratedBadge, ratedSelect } from "./rated.js";
import { personName, minKarmaLine, minKarmaSelect } from "./karma.js";
import { accountCard, signInCard } from "./account.js";

export function nameForm(onDone) {
  const input = h("input#name", { maxlength: 24, required: true, autocomplete: "nickname", placeholder: t("name.placeholder") });
  const form = h("form.card.name-form", {
    onsubmit: async (e) => {
      e.preventDefault();
      try { await createPlayer(input.value.trim()); onDone(); } catch (err) { toast(err.message); }
    },
  }, h("h2", { text: t("name.title") }), h("label", { for: "name", text: t("name.label") }), input,
  h("button.primary", { type: "submit", text: t("name.go") }));
  setTimeout(() => input.focus(), 0);
  return form;
}

function tableRow(tb, action) {
  const people = tb.seats.filter((x) => x.kind !== "open").length;
  // the people seated, each a link to their profile with their karma (karma.js)
  const persons = tb.seats.filter((x) => x.kind === "person" && x.player_id);
  const least = minKarmaLine(tb);
  return h("li.table-row", { "data-table": tb.id },
    h("span.tname", {}, ratedBadge(tb), ` ${t(`game.${tb.game}`)} · ${tb.players} ${t("players")} · ${t("host")}: ${tb.host.name}`),
    h("span.tinfo", { text: `${people}/${tb.players} · ${tb.clock ? `${tb.clock} s` : t("clock.unlimited")} · ${t(`status.${tb.status}`)}${least ? ` · ${least}` : ""}` }),
    persons.length ? h("span.tpeople", {}, persons.map((x, i) => [i ? " " : "", personName(x.player_id, x.name)])) : null,
    h("a.button", { href: `#/t/${tb.id}`, text: action }));
}

export const CLOCKS = [30, 45, 60, 90, 120, 180, 240, 300];
/** The commitment clock presets in seconds (a secret combat commitment; docs/server.md). */
export const COMMIT_CLOCKS = [15, 30, 45, 60, 90, 120];
const LEVELS = ["easy", "medium", "hard", "random"];

/** The settings form (create, and the host's changes before the start). */
export function settingsFields(init) {
  const o = init.options || {};
  const sel = (id, opts, value) => h(`select#${id}`, {}, opts.map(([v, label]) => h("option", { value: v, text: label, selected: String(v) === String(value) })));
  const robber = o.robber === false ? "off" : o.friendly_robber ? "friendly" : "normal";
  const f = {
    players: sel("set-players", [2, 3, 4, 5, 6, 7, 8].map((n) => [n, `${n} · ${n <= 4 ? 19 : n <= 6 ? 30 : 44} ${t("hexes")}`]), init.players || 4),
    vp: sel("set-vp", Array.from({ length: 13 }, (_, i) => [8 + i, 8 + i]), o.vp_target || 10),
    clock: sel("set-clock", [...CLOCKS.map((c) => [c, `${c} s`]), ["unlimited", t("clock.unlimited")]], init.clock === null ? "unlimited" : init.clock || 120),
    robber: sel("set-robber", [["normal", t("robber.normal")], ["friendly", t("robber.friendly")], ["off", t("robber.off")]], robber),
    lr: h("input#set-lr", { type: "checkbox", checked: o.longest_road !== false }),
    la: h("input#set-la", { type: "checkbox", checked: o.largest_army !== false }),
    discard: sel("set-discard", Array.from({ length: 18 }, (_, i) => [3 + i, 3 + i]), o.discard_limit || 7),
    board: sel("set-board", [["standard", t("board.standard")], ["beginner", t("board.beginner")], ["random", t("board.random")]], o.board || "standard"),
    map: sel("set-map", [["standard", t("map.standard")]], o.map || "standard"),
    pub: h("input#set-public", { type: "checkbox", checked: init.public !== false }),
    spec: h("input#set-spectators", { type: "checkbox", checked: init.spectators !== false }),
    delay: sel("set-bot-delay", [0, 0.4, 0.8, 1.5, 3, 5].map((d) => [d, `${d} s`]), init.bot_delay ?? 0.8),
  };
  const row = (label, el, id) => h("div.field", {}, h("label", { for: id, text: label }), el);
  const fields = h("div.fields", {},
    row(t("set.players"), f.players, "set-players"), row(t("set.vp"), f.vp, "set-vp"),
    row(t("set.clock"), f.clock, "set-clock"), row(t("set.robber"), f.robber, "set-robber"),
    row(t("set.discard"), f.discard, "set-discard"), row(t("set.map"), f.map, "set-map"), row(t("set.board"), f.board, "set-board"),
    row(t("set.bot_delay"), f.delay, "set-bot-delay"),
    h("div.field.check", {}, f.lr, h("label", { for: "set-lr", text: t("set.lr") })),
    h("div.field.check", {}, f.la, h("label", { for: "set-la", text: t("set.la") })),
    h("div.field.check", {}, f.pub, h("label", { for: "set-public", text: t("set.public") })),
    h("div.field.check", {}, f.spec, h("label", { for: "set-spectators", text: t("set.spectators") })));
  const read = () => ({
    players: Number(f.players.value),
    options: {
      vp_target: Number(f.vp.value), robber: f.robber.value !== "off", friendly_robber: f.robber.value === "friendly",
      longest_road: f.lr.checked, largest_army: f.la.checked, discard_limit: Number(f.discard.value), board: f.board.value,
      map: f.map.value,
    },
    clock: f.clock.value === "unlimited" ? null : Number(f.clock.value),
    public: f.pub.checked, spectators: f.spec.checked, bot_delay: Number(f.delay.value),
  });
  const preview = h("div.map-box#map-preview", { "aria-live": "polite" });
  const show = () => showMap(preview, f.map.value, Number(f.players.value));
  f.map.addEventListener("change", show);
  f.players.addEventListener("change", show);
  show();
  fillMaps(f.map, o.map || "standard").then(() => { if (f.map.value !== "standard") show(); });
  const el = h("div.settings-grid", {}, fields, preview);
  return { el, read, f };
}

// --- the map preview (issue 16): facts and drawing from GET /api/games/island/maps[/{name}] ---
let mapList = null;
function maps() {
  if (!mapList) mapList = api("GET", "/api/games/island/maps").then((r) => r.maps).catch((err) => { mapList = null; throw err; });
  return mapList;
}
const mapName = (m) => (lang === "nl" ? m.names.nl : m.names.en);

async function fillMaps(select, value) {
  try {
    for (const m of await maps()) {
      select.append(h("option", { value: m.id, text: `${mapName(m)} · ${m.tiles.total} · ${m.players.min}–${m.players.max}`, selected: m.id === value }));
    }
  } catch (err) { toast(err.message); }
}

const drawn = new Map();
async function showMap(box, name, players) {
  const key = `${name}/${name === "standard" ? players : ""}`;
  box.dataset.want = key;
  let m = drawn.get(key);
  if (!m) {
    try { m = await api("GET", `/api/games/island/maps/${encodeURIComponent(name)}?players=${players}`); } catch (err) { box.replaceChildren(h("p.muted", { text: err.message })); return; }
    drawn.set(key, m);
  }
  if (box.dataset.want !== key) return; // a newer choice is on its way
  const tl = m.tiles;
  const tiles = name === "standard" ? t("map.tiles", { n: tl.total })
    : t("map.tiles_full", { n: tl.total, land: tl.producing, desert: tl.desert, lake: tl.lake });
  const fits = players >= m.players.min && players <= m.players.max;
  const facts = [
    tiles,
    t("map.players", { min: m.players.min, max: m.players.max }),
    `${t("map.terrain")}: ${t(`map.mode.${m.terrain}`)}`,
    `${t("map.numbers")}: ${t(`map.mode.${m.numbers}`)}`,
    t("map.harbors", { n: m.harbors }) + (m.lake_harbors ? ` (${t("map.lake_harbors", { n: m.lake_harbors })})` : ""),
  ];
  if (m.coastline === "random") facts.push(t("map.coastline_random"));
  const title = name === "standard" ? t("map.standard_n", { n: tl.total }) : mapName(m);
  box.dataset.map = m.id;
  box.replaceChildren(...[h("h3.map-name", { text: title }),
    h("ul.map-facts", {}, facts.map((x) => h("li", { text: x }))),
    fits ? null : h("p.map-warn", { role: "alert", text: t("map.not_for", { n: players, min: m.players.min, max: m.players.max }) }),
    lang === "en" && m.idea && name !== "standard" ? h("p.muted.map-idea", { text: m.idea }) : null,
    mapPreview(m.board, title),
    h("p.muted.map-legend", { text: m.board.example ? t("map.example") : t("map.legend") })].filter(Boolean));
}

/** Say why the server refused a table's settings, beside the form and in a toast: each
 * problem the game gives as data (`set.problems(err)`, a game's settings form) in the page's
 * language, else the server's message; `err` null clears the box. */
export function showProblems(box, set, err) {
  if (!err) { box.replaceChildren(); box.hidden = true; return; }
  const said = (set && set.problems && set.problems(err)) || [err.message];
  box.replaceChildren(...said.map((x) => h("p", { text: x })));
  box.hidden = false;
  toast(said.join(" · "));
}

function createForm() {
  // the game: the island's settings first; another game's come from its plug-in
  // (games/registry.js, `settingsForm.fields`), the games from GET /api/games; the seats follow
  let game = "island";
  let set = settingsFields({ players: 4 });
  const setBox = h("div.set-box", {}, set.el);
  const title = h("h2", { text: t("create.title") });
  const games = new Map();
  const gameSel = h("select#set-game", { "aria-label": t("set.game"), onchange: async () => {
    const id = gameSel.value;
    let next;
    try {
      const plugin = await gamePlugin(id);
      next = plugin.settingsForm.fields({ players: (games.get(id) || {}).default_players });
      if (gameSel.value !== id) return; // another game was chosen meanwhile
      title.textContent = t(plugin.createTitle || "create.title");
    } catch (err) { toast(err.message); return; }
    game = id;
    set = next;
    setBox.replaceChildren(set.el);
    set.f.players.addEventListener("change", drawSeats);
    drawSeats();
  } }, h("option", { value: "island", text: t("game.island") }));
  // each game's name is among its own texts (i18n/<game>/<lang>.json)
  api("GET", "/api/games").then(async (r) => {
    await Promise.all(r.games.map((g) => loadGameTexts(g.id)));
    for (const g of r.games) {
      games.set(g.id, g);
      if (g.id !== "island") gameSel.append(h("option", { value: g.id, text: t(`game.${g.id}`) }));
    }
  }).catch((err) => toast(err.message));
  // rated or casual (docs/ratings.md): rated tables are for accounts only
  const ratedSel = ratedSelect("set-rated", false);
  const seatsBox = h("div.seat-specs");
  const problems = h("div.form-problems#create-problems", { role: "alert", hidden: true });
  const least = minKarmaSelect("set-min-karma", null);
  const drawSeats = () => {
    const n = Number(set.f.players.value);
    const old = [...seatsBox.querySelectorAll("select")].map((x) => x.value);
    seatsBox.replaceChildren(h("h3", { text: t("seats") }), ...Array.from({ length: n }, (_, i) => {
      const value = old[i] || (i === 0 ? "host" : "bot:medium");
      const opts = [["host", t("seat.me")], ["open", t("seat.open")], ...LEVELS.map((l) => [`bot:${l}`, `${t("seat.bot")} (${t(`level.${l}`)})`])];
      return h("div.field", {}, h("label", { for: `spec-${i}`, text: `${t("seat")} ${i + 1}` }),
        h(`select#spec-${i}.seat-spec`, {}, opts.map(([v, l]) => h("option", { value: v, text: l, selected: v === value }))));
    }));
  };
  set.f.players.addEventListener("change", drawSeats);
  drawSeats();
  const form = h("form.card.create", {
    onsubmit: async (e) => {
      e.preventDefault();
      const body = { game, ...set.read(), rated: ratedSel.value === "rated" };
      const specs = [...seatsBox.querySelectorAll("select")].map((x) => x.value);
      if (specs.filter((v) => v === "host").length > 1) { toast(t("err.one_host")); return; }
      if (least.value) body.min_karma = Number(least.value);
      body.seats = specs.map((v) => (v === "host" ? { kind: "host" } : v === "open" ? { kind: "open" } : { kind: "bot", level: v.split(":")[1] }));
      showProblems(problems, null);
      try {
        const tb = await api("POST", "/api/tables", body);
        location.hash = `#/t/${tb.id}`;
      } catch (err) { if (err.code === "account_required" || err.code === "unrated_game") { showProblems(problems, null); toast(errorText(err)); } else showProblems(problems, set, err); }
    },
  }, title, h("div.field.game-pick", {}, h("label", { for: "set-game", text: t("set.game") }), gameSel),
  h("div.field.rated-pick", {}, h("label", { for: "set-rated", text: t("set.rated") }), ratedSel), setBox, seatsBox,
  h("div.field.min-karma", {}, h("label", { for: "set-min-karma", text: t("karma.min") }), least, h("p.muted.small", { text: t("karma.min_help") })),
  problems, h("button.primary#create-table", { type: "submit", text: t("create.go") }));
  return form;
}

export async function showLobby(app) {
  const p = await checkMe();
  if (!p) {
    app.append(h("section.lobby", {}, h("h1", { text: t("lobby.welcome") }), h("p.lead", { text: t("lobby.lead") }),
      h("div.welcome-forms", {}, nameForm(() => showLobby(app.replaceChildren() || app)), signInCard())));
    return null;
  }
  // an account signs out in its account area (a guest's "change name" starts another guest)
  const top = () => document.getElementById("top-extra").replaceChildren(...[
    h("a.who#my-profile", { href: `#/player/${encodeURIComponent(me().id)}`, text: me().name, title: t("profile.mine") }),
    me().username ? null : h("button.link", { text: t("name.change"), onclick: () => { forgetMe(); location.reload(); } })].filter(Boolean));
  top();
  let account = accountCard(function redraw() { top(); const next = accountCard(redraw); next.open = true; account.replaceWith(next); account = next; });
  const lists = {
    mine: h("ul.tables#my-tables"), open: h("ul.tables#open-tables"), live: h("ul.tables#live-tables"),
  };
  const section = h("section.lobby", {}, account,
    h("nav.lobby-nav", {}, h("a.button.small#leaderboard-link", { href: "#/ratings", text: t("ratings.link") })),
    h("div.lobby-lists", {},
      h("div.card", {}, h("h2", { text: t("lobby.mine") }), lists.mine,
        h("p.my-games-link", {}, h("a#my-games-top", { href: "#/me/games", text: t("mygames.all") }))),
      h("div.card", {}, h("h2", { text: t("lobby.open") }), lists.open),
      h("div.card", {}, h("h2", { text: t("lobby.live") }), lists.live)),
    createForm());
  app.append(section);
  let stopped = false;
  const refresh = async () => {
    try {
      const [mine, open, live] = await Promise.all([api("GET", "/api/me/tables"), api("GET", "/api/tables/open"), api("GET", "/api/tables/live")]);
      // the games' names are among their own texts (i18n/<game>/<lang>.json)
      await Promise.all([...new Set([mine, open, live].flatMap((x) => x.tables.map((tb) => tb.game)))].map(loadGameTexts));
      const fill = (ul, tables, label, empty) => ul.replaceChildren(...(tables.length ? tables.map((x) => tableRow(x, label)) : [h("li.empty", { text: empty })]));
      fill(lists.mine, mine.tables.filter((x) => x.status !== "finished" || Date.now() / 1000 - (x.finished_at || 0) < 86400).slice(0, 20), t("open"), t("lobby.none_mine"));
      fill(lists.open, open.tables, t("join"), t("lobby.none_open"));
      fill(lists.live, live.tables, t("watch"), t("lobby.none_live"));
    } catch (err) { toast(err.message); }
  };
  await refresh();
  const timer = setInterval(() => { if (!stopped) refresh(); }, 5000);
  return { close() { stopped = true; clearInterval(timer); } };
}
