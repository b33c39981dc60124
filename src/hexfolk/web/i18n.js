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

/** The page's texts and Scythe's (i18n/scythe/<lang>.json; the two files share no key). */
async function load(code) {
  const [base, scythe] = await Promise.all([loadFile(`/app/i18n/${code}.json`), loadFile(`/app/i18n/scythe/${code}.json`)]);
  return { ...scythe, ...base };
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
