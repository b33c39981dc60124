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

async function load(code) {
  const r = await fetch(`/app/i18n/${code}.json`);
  return r.ok ? r.json() : {};
}

export async function setLanguage(code) {
  lang = LANGS.includes(code) ? code : "en";
  [texts, fallback] = await Promise.all([load(lang), lang === "en" ? {} : load("en")]);
  if (lang === "en") fallback = texts;
  document.documentElement.lang = lang;
  localStorage.setItem("hexfolk.lang", lang);
}

/** t("key", {n: 3}) — the text in the current language with {n} filled in. */
export function t(key, vars) {
  let s = texts[key] ?? fallback[key] ?? key;
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}
