// Texts per language: /app/i18n/<lang>.json, chosen from navigator.language, switchable; the
// refusals' (i18n/reasons/<lang>.json) and each game's own (i18n/<game>/<lang>.json, loaded
// with the game's plug-in by games/registry.js): no game is named here.
export const LANGS = ["nl", "en", "es", "ko"];
let texts = {};
let fallback = {};
let gameTexts = {}; // the loaded games' texts in the page's language
let gameFallback = {}; // and in English
const games = new Map(); // game -> its texts loading (all loaded again when the language changes)
export let lang = pickLanguage(); // the page's language from the start (setLanguage loads its texts)

export function pickLanguage() {
  const saved = localStorage.getItem("hexfolk.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function loadFile(path) {
  const r = await fetch(path);
  return r.ok ? r.json() : {};
}

/** The page's texts, the refusals' (i18n/reasons/<lang>.json, web/reasons.js) and the players'
 * pages' (i18n/players/<lang>.json: karma, profiles, my games); the files share no key. */
async function load(code) {
  const [base, reasons, players] = await Promise.all([loadFile(`/app/i18n/${code}.json`), loadFile(`/app/i18n/reasons/${code}.json`), loadFile(`/app/i18n/players/${code}.json`)]);
  return { ...reasons, ...players, ...base };
}

/** The texts of the games `ids` in language `code` (a game's file shares no key with the page's
 * texts nor with another game's). */
async function loadGames(code, ids) {
  return Object.assign({}, ...(await Promise.all([...ids].map((id) => loadFile(`/app/i18n/${id}/${code}.json`)))));
}

/** Load game `id`'s texts (i18n/<id>/<lang>.json) in the page's language and English, once. */
export function loadGameTexts(id) {
  if (!games.has(id)) games.set(id, loadGame(id));
  return games.get(id);
}

async function loadGame(id) {
  const code = lang;
  const [mine, en] = await Promise.all([loadGames(code, [id]), code === "en" ? {} : loadGames("en", [id])]);
  if (code !== lang) return; // the language changed meanwhile: setLanguage loads them again
  Object.assign(gameTexts, mine);
  if (code !== "en") Object.assign(gameFallback, en);
}

export async function setLanguage(code) {
  lang = LANGS.includes(code) ? code : "en";
  const mine = lang;
  const en = mine === "en";
  // the games' texts fill these while they load (a game asked for meanwhile adds its own)
  const filling = (gameTexts = {});
  const fillingEn = (gameFallback = en ? filling : {});
  const ids = [...games.keys()];
  const [base, baseEn, of, ofEn] = await Promise.all([load(mine), en ? {} : load("en"), loadGames(mine, ids), en ? {} : loadGames("en", ids)]);
  if (lang !== mine) return; // another language was chosen meanwhile
  texts = base;
  fallback = en ? base : baseEn;
  Object.assign(filling, of);
  if (!en) Object.assign(fillingEn, ofEn);
  document.documentElement.lang = lang;
  localStorage.setItem("hexfolk.lang", lang);
}

/** Whether the page's language itself (not the English fallback) has a text for `key`. */
export function hasText(key) {
  return Object.prototype.hasOwnProperty.call(texts, key) || Object.prototype.hasOwnProperty.call(gameTexts, key);
}

/** t("key", {n: 3}) — the text in the current language with {n} filled in. */
export function t(key, vars) {
  let s = texts[key] ?? gameTexts[key] ?? fallback[key] ?? gameFallback[key] ?? key;
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** A refusal of the HTTP API in the page's language: its code's text (`err.<code>`) where the
 * page has one, else the server's sentence. */
export function errorText(err) {
  const key = err && err.code ? `err.${err.code}` : null;
  return key && (hasText(key) || Object.prototype.hasOwnProperty.call(fallback, key)) ? t(key) : err.message;
}
