// The island log in the player's language. The engine writes its log lines in English, in a
// fixed set of sentence forms (docs/island.md, "The log"); each form below is matched by a pattern
// and rewritten with the per-language template `log.<form>` of the i18n files, its parts put
// into words (seats as names, card bundles and resources in the language). Presentation only:
// no rule lives here, and a line that matches no form (or whose template is missing) is shown
// as the English line with names and resource words (the fallback).
import { t } from "./i18n.js";
import { bundleWords } from "./legal.js";

const B = "((?:\\d+[lbwgo])(?: \\d+[lbwgo])*|-)"; // a card bundle: "2l 1o", "-" when empty
const S = "seat (\\d+)";
const N = "(\\d+)";
const RES_LETTER = { lumber: "l", brick: "b", wool: "w", grain: "g", ore: "o" };

/** [form, pattern, names of the captured parts]; a part's name says how it is put into words:
 * who/to/from/victim a seat, give/get/cards a bundle, res a resource, card a development card. */
const FORMS = [
  ["rolls", `${S} rolls ${N}`, ["who", "n"]],
  ["ends", `${S} ends the turn`, ["who"]],
  ["buys", `${S} buys a development card`, ["who"]],
  ["draws", `${S} draws (knight|vp|roads|plenty|monopoly)`, ["who", "card"]],
  ["settles", `${S} settles ${N}`, ["who", "n"]],
  ["receives", `${S} receives ${B}`, ["who", "cards"]],
  ["settlement", `${S} builds a settlement on ${N}`, ["who", "n"]],
  ["road", `${S} builds a road on ${N}`, ["who", "n"]],
  ["city", `${S} builds a city on ${N}`, ["who", "n"]],
  ["longest", `${S} takes Longest Road \\(${N}\\)`, ["who", "n"]],
  ["longest_aside", "Longest Road is set aside", []],
  ["largest", `${S} takes Largest Army \\(${N}\\)`, ["who", "n"]],
  ["discards", `${S} discards ${B}`, ["who", "cards"]],
  ["robber_stays", `${S}: the robber stays on ${N}`, ["who", "n"]],
  ["robs", `${S} moves the robber to ${N} and robs ${S}`, ["who", "n", "victim"]],
  ["robber", `${S} moves the robber to ${N}`, ["who", "n"]],
  ["steals", `${S} steals a card from ${S}`, ["who", "victim"]],
  ["stole", `\\(${S} stole ([lbwgo]) from ${S}\\)`, ["who", "res", "victim"]],
  ["knight", `${S} plays a knight`, ["who"]],
  ["roads", `${S} plays road building`, ["who"]],
  ["plenty", `${S} plays year of plenty: ${B}`, ["who", "cards"]],
  ["monopoly", `${S} plays monopoly on (lumber|brick|wool|grain|ore) and takes ${N}`, ["who", "res", "n"]],
  ["trade_with", `${S} trades ${B} for ${B} with ${S}`, ["who", "give", "get", "to"]],
  ["trade", `${S} trades ${B} for ${B}`, ["who", "give", "get"]],
  ["offers", `${S} offers #${N}: ${B} for ${B}`, ["who", "id", "give", "get"]],
  ["rejected_all", `offer #${N} is rejected by every seat`, ["id"]],
  ["withdraws", `${S} withdraws offer #${N}`, ["who", "id"]],
  ["withdrawn", `${S}'s open offers are withdrawn`, ["who"]],
  ["forfeits", `${S} forfeits ${N} unplaced road\\(s\\)`, ["who", "n"]],
  ["sbp_join", `${S} signs up for the special build phase`, ["who"]],
  ["sbp_pass", `${S} passes the special build phase`, ["who"]],
  ["wins", `${S} wins with ${N} VP`, ["who", "n"]],
  ["laid_out", `board laid out; robber on hex (-?\\d+)`, ["n"]],
  ["gets", `${S} gets ${B}`, ["who", "cards"]],
  ["blocked", `the robber on hex ${N} blocks ${B} for ${S}`, ["n", "cards", "who"]],
  ["short", `the bank is short of ${B} for ${S}`, ["cards", "who"]],
].map(([form, src, parts]) => [form, new RegExp(`^${src}$`), parts]);

/** Parts of "answers to offer #n: seat 1 accepts, seat 2 counters 1w for 1o, …". */
const ANSWERS = /^answers to offer #(\d+): (.*)$/;
const ANSWER_FORMS = [
  ["accepts", new RegExp(`^${S} accepts$`), ["who"]],
  ["rejects", new RegExp(`^${S} rejects$`), ["who"]],
  ["silent", new RegExp(`^${S} does not answer$`), ["who"]],
  ["counters", new RegExp(`^${S} counters ${B} for ${B}$`), ["who", "give", "get"]],
];

function words(name, value, seatName) {
  if (name === "who" || name === "to" || name === "victim") return seatName(Number(value));
  if (name === "give" || name === "get" || name === "cards") return bundleWords(value, t);
  if (name === "res") return t(`res.${RES_LETTER[value] || value}`);
  if (name === "card") return t(`dev.${value}`);
  return value;
}

/** One sentence of a known form in the language, or null (no form, or no template). */
function sentence(forms, text, seatName, prefix = "log.") {
  for (const [form, re, parts] of forms) {
    const m = re.exec(text);
    if (!m) continue;
    const key = `${prefix}${form}`;
    const tpl = t(key);
    if (tpl === key) return null;
    const vars = {};
    parts.forEach((p, i) => { vars[p] = words(p, m[i + 1], seatName); });
    return t(key, vars);
  }
  return null;
}

/** A log line of the island engine in the page's language; `fallback(line)` (the English line
 * in words) when a part of it has no known form. */
export function logLine(line, seatName, fallback) {
  const text = String(line);
  const answers = ANSWERS.exec(text);
  if (answers) {
    const parts = answers[2].split(", ").map((p) => sentence(ANSWER_FORMS, p, seatName, "log.answer."));
    if (parts.every((x) => x !== null)) return t("log.answers", { id: answers[1], answers: parts.join(", ") });
    return fallback(text);
  }
  const whole = sentence(FORMS, text, seatName);
  if (whole !== null) return whole;
  // a production line: "seat 0 gets 1l; seat 2 gets 2o"
  const pieces = text.split("; ");
  const out = pieces.map((p) => sentence(FORMS, p, seatName));
  return out.every((x) => x !== null) ? out.join("; ") : fallback(text);
}
