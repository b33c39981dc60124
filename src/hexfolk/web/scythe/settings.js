// The Scythe table's settings (the create form and the host's changes before the start): 2–5
// players, each seat's faction and player mat (random or chosen), and the engine's other options
// as GET /api/games lists them (their help texts are the engine's). The engine judges them: a
// banned pair or a bad list is refused with its reason, shown as the server sent it.
import { api } from "../api.js";
import { h, toast } from "../dom.js";
import { t } from "../i18n.js";
import { COMMIT_CLOCKS } from "../lobby.js";

export const FACTIONS = ["nordic", "rusviet", "crimea", "saxony", "polania"];
export const MATS = ["industrial", "engineering", "patriotic", "mechanical", "agricultural"];
const LISTS = ["factions", "mats"];

let specs = null;
/** Scythe's entry of GET /api/games (cached). */
export function scytheSpec() {
  if (!specs) specs = api("GET", "/api/games").then((r) => r.games.find((g) => g.id === "scythe")).catch((err) => { specs = null; throw err; });
  return specs;
}

function listValues(text, n) {
  const items = String(text || "random").split(",").map((x) => x.trim());
  return Array.from({ length: n }, (_, i) => (items.length === n ? items[i] : "random"));
}

/** {el, read, f}: the fields; `f.players` is the player count select (the seats follow it);
 * `clocks` the clock presets in seconds (the lobby's). */
export function scytheSettings(init, clocks) {
  const o = init.options || {};
  const sel = (id, opts, value) => h(`select#${id}`, {}, opts.map(([v, label]) => h("option", { value: v, text: label, selected: String(v) === String(value) })));
  const f = {
    players: sel("set-players", [2, 3, 4, 5].map((n) => [n, `${n} ${t("players")}`]), init.players || 2),
    clock: sel("set-clock", [...clocks.map((c) => [c, `${c} s`]), ["unlimited", t("clock.unlimited")]], init.clock === null ? "unlimited" : init.clock || 120),
    commit: sel("set-commit-clock", [...COMMIT_CLOCKS.map((c) => [c, `${c} s`]), ["unlimited", t("clock.unlimited")]], init.commit_clock === null ? "unlimited" : init.commit_clock || 60),
    pub: h("input#set-public", { type: "checkbox", checked: init.public !== false }),
    spec: h("input#set-spectators", { type: "checkbox", checked: init.spectators !== false }),
    delay: sel("set-bot-delay", [0, 0.4, 0.8, 1.5, 3, 5].map((d) => [d, `${d} s`]), init.bot_delay ?? 0.8),
  };
  const row = (label, el, id) => h("div.field", {}, h("label", { for: id, text: label }), el);
  const picks = h("div.sc-picks#sc-picks");
  const bools = h("div.sc-bools#sc-options");
  const boolInputs = {};
  const drawPicks = () => {
    const n = Number(f.players.value);
    const old = {};
    for (const k of LISTS) old[k] = [...picks.querySelectorAll(`select[data-list=${k}]`)].map((x) => x.value);
    const init2 = { factions: listValues(o.factions, n), mats: listValues(o.mats, n) };
    picks.replaceChildren(h("h3", { text: t("sc.set.picks") }), ...Array.from({ length: n }, (_, i) => h("div.field.sc-pick", {},
      h("span.label", { text: `${t("seat")} ${i + 1}` }),
      h(`select#sc-faction-${i}`, { "data-list": "factions", "aria-label": `${t("seat")} ${i + 1}: ${t("sc.faction")}` },
        [["random", t("sc.random_faction")], ...FACTIONS.map((x) => [x, t(`faction.${x}`)])].map(([v, l]) => h("option", { value: v, text: l, selected: v === (old.factions[i] || init2.factions[i]) }))),
      h(`select#sc-mat-${i}`, { "data-list": "mats", "aria-label": `${t("seat")} ${i + 1}: ${t("sc.mat")}` },
        [["random", t("sc.random_mat")], ...MATS.map((x) => [x, t(`mat.${x}`)])].map(([v, l]) => h("option", { value: v, text: l, selected: v === (old.mats[i] || init2.mats[i]) }))))));
  };
  f.players.addEventListener("change", drawPicks);
  drawPicks();
  scytheSpec().then((spec) => {
    for (const op of (spec && spec.options) || []) {
      if (op.kind !== "bool") continue;
      const id = `sc-opt-${op.name}`;
      const input = h(`input#${id}`, { type: "checkbox", "data-option": op.name, checked: o[op.name] !== undefined ? !!o[op.name] : !!op.default });
      boolInputs[op.name] = input;
      bools.append(h("div.field.check", { title: op.help }, input, h("label", { for: id, text: t(`sc.opt.${op.name}`) === `sc.opt.${op.name}` ? op.help : t(`sc.opt.${op.name}`) })));
    }
  }).catch((err) => toast(err.message));
  const fields = h("div.fields.sc-fields", {},
    row(t("sc.set.players"), f.players, "set-players"), row(t("set.clock"), f.clock, "set-clock"), row(t("set.commit_clock"), f.commit, "set-commit-clock"), row(t("set.bot_delay"), f.delay, "set-bot-delay"),
    h("div.field.check", {}, f.pub, h("label", { for: "set-public", text: t("set.public") })),
    h("div.field.check", {}, f.spec, h("label", { for: "set-spectators", text: t("set.spectators") })));
  const read = () => {
    const options = {};
    for (const k of LISTS) {
      const vals = [...picks.querySelectorAll(`select[data-list=${k}]`)].map((x) => x.value);
      options[k] = vals.every((v) => v === "random") ? "random" : vals.join(",");
    }
    for (const [name, input] of Object.entries(boolInputs)) options[name] = input.checked;
    return {
      players: Number(f.players.value), options,
      clock: f.clock.value === "unlimited" ? null : Number(f.clock.value),
      commit_clock: f.commit.value === "unlimited" ? "unlimited" : Number(f.commit.value),
      public: f.pub.checked, spectators: f.spec.checked, bot_delay: Number(f.delay.value),
    };
  };
  return { el: h("div.sc-settings", {}, fields, picks, h("h3", { text: t("sc.set.rules") }), bools), read, f, problems: optionProblems };
}

/** A refused create (or settings change) in the page's language: the `bad_option` error's
 * `reasons` ({code, params, rule} each, docs/scythe.md) one sentence each; null when the
 * server gave none (its message is shown then). Every problem is said: a misspelt name does
 * not hide a banned pair (issue 27, point 11). */
export function optionProblems(err) {
  if (!err || !Array.isArray(err.reasons) || !err.reasons.length) return null;
  const what = (option) => t(option === "mats" ? "sc.mats" : "sc.factions");
  return err.reasons.map((r) => {
    const p = r.params || {};
    const rule = r.rule ? ` (${r.rule})` : "";
    if (r.code === "banned_pairs") {
      const pairs = (p.pairs || []).map((x) => t("sc.opterr.pair", { seat: x.seat + 1, faction: t(`faction.${x.faction}`), mat: t(`mat.${x.mat}`) }));
      return t(pairs.length === 1 ? "sc.opterr.banned_pair" : "sc.opterr.banned_pairs", { pairs: pairs.join(", "), allow: t("sc.opt.allow_banned_pairs") }) + rule;
    }
    if (r.code === "banned_only") return t("sc.opterr.banned_only") + rule;
    if (r.code === "option_item") return t("sc.opterr.option_item", { what: what(p.option), item: p.item, seat: (p.seat ?? 0) + 1 });
    if (r.code === "option_twice") return t("sc.opterr.option_twice", { what: what(p.option) });
    if (r.code === "option_count") return t("sc.opterr.option_count", { what: what(p.option), n: p.n });
    return err.message;
  });
}

/** The settings line of a Scythe table's lobby. */
export function scytheSummary(tb) {
  const o = tb.options || {};
  return [
    `${tb.players} ${t("players")}`, tb.clock ? `${tb.clock} s` : t("clock.unlimited"),
    `${t("sc.factions")}: ${o.factions === "random" || !o.factions ? t("sc.random") : String(o.factions).split(",").map((x) => t(`faction.${x}`)).join(", ")}`,
    `${t("sc.mats")}: ${o.mats === "random" || !o.mats ? t("sc.random") : String(o.mats).split(",").map((x) => t(`mat.${x}`)).join(", ")}`,
    tb.public ? t("set.public") : t("set.unlisted"),
  ].join(" · ");
}
