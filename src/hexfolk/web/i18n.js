// Texts per language: /app/i18n/<lang>.json, chosen from navigator.language, switchable.
export const LANGS = ["nl", "en", "es", "ko"];
let texts = {};
let fallback = {};
export let lang = "en";

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

/** The page's texts, Scythe's (i18n/scythe/<lang>.json) and the refusals' (i18n/reasons/<lang>.json,
 * web/reasons.js); the three files share no key. */
async function load(code) {
  const [base, scythe, reasons] = await Promise.all([loadFile(`/app/i18n/${code}.json`), loadFile(`/app/i18n/scythe/${code}.json`), loadFile(`/app/i18n/reasons/${code}.json`)]);
  return { ...reasons, ...scythe, ...base };
}

export async function setLanguage(code) {
  lang = LANGS.includes(code) ? code : "en";
  [texts, fallback] = await Promise.all([load(lang), lang === "en" ? {} : load("en")]);
  if (lang === "en") fallback = texts;
  document.documentElement.lang = lang;
  localStorage.setItem("hexfolk.lang", lang);
}

/** Whether the page's language itself (not the English fallback) has a text for `key`. */
export function hasText(key) {
  return Object.prototype.hasOwnProperty.call(texts, key);
}

/** t("key", {n: 3}) — the text in the current language with {n} filled in. */
export function t(key, vars) {
  let s = texts[key] ?? fallback[key] ?? key;
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}
