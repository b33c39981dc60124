// The Scythe log in the player's language: the engine's log lines (docs/scythe.md, "P<n> …")
// matched against their forms and written from the templates `slog.*` of i18n/scythe; seats as
// names, resources, structures, bottom actions and abilities in words. A line of another form
// keeps the engine's words, with the seats named.
import { t } from "../i18n.js";
import { cardText } from "./cardtext.js";

const word = (prefix, x) => { const k = `${prefix}.${x}`; const v = t(k); return v === k ? x : v; };
const res = (x) => word("res", x);
// a home base as the engine writes it in the log ("the Crimea home base", issue 17)
const HOME = /^the (\w+) home base$/;
const place = (x) => { const m = HOME.exec(x); return m ? `${t("sc.home_of")} ${word("faction", m[1].toLowerCase())}` : x; };

/** [form, template key, (match, name) -> the template's values] */
const FORMS = [
  [/^P(\d) chooses section (\w+) \((\w+)\/(\w+)\)$/, "slog.section", (m, n) => ({ who: n(m[1]), n: m[2], top: word("top", m[3]), bottom: word("bottom", m[4]) })],
  [/^P(\d) gains (\d+) (coins|power|popularity)$/, "slog.gains", (m, n) => ({ who: n(m[1]), n: m[2], what: word("gain", m[3]) })],
  [/^P(\d) loses (\d+) (coins|power|popularity)$/, "slog.loses", (m, n) => ({ who: n(m[1]), n: m[2], what: word("gain", m[3]) })],
  [/^P(\d) pays 1 (\w+) from (\S+)$/, "slog.pays", (m, n) => ({ who: n(m[1]), res: res(m[2]), loc: m[3] })],
  [/^P(\d) produces (\d+) worker\(s\) on (\S+)$/, "slog.produces_workers", (m, n) => ({ who: n(m[1]), n: m[2], loc: m[3] })],
  [/^P(\d) produces (\d+) (\w+) on (\S+)$/, "slog.produces", (m, n) => ({ who: n(m[1]), n: m[2], res: res(m[3]), loc: m[4] })],
  [/^P(\d) trades for 1 (\w+) on (\S+)$/, "slog.trades", (m, n) => ({ who: n(m[1]), res: res(m[2]), loc: m[3] })],
  [/^P(\d) gains 1 (\w+) on (\S+)$/, "slog.gains_on", (m, n) => ({ who: n(m[1]), res: res(m[2]), loc: m[3] })],
  [/^P(\d) (character|mech|worker) to (\S+|the \w+ home base)$/, "slog.moves", (m, n) => ({ who: n(m[1]), unit: word("sc", m[2]), loc: place(m[3]) })],
  [/^P(\d) takes (upgrade|deploy|build|enlist)$/, "slog.takes", (m, n) => ({ who: n(m[1]), action: word("bottom", m[2]) })],
  [/^P(\d) deploys the ([\w-]+) mech on (\S+)$/, "slog.deploys", (m, n) => ({ who: n(m[1]), ability: word("ability", m[2]), loc: m[3] })],
  [/^P(\d) builds a (\w+) on (\S+)$/, "slog.builds", (m, n) => ({ who: n(m[1]), what: word("struct", m[2]), loc: m[3] })],
  [/^P(\d) places a star \((\w+)\); (\d+) stars$/, "slog.star", (m, n) => ({ who: n(m[1]), source: word("star", m[2]), n: m[3] })],
  [/^combat on (\S+): P(\d) attacks P(\d)$/, "slog.combat", (m, n) => ({ loc: m[1], who: n(m[2]), whom: n(m[3]) })],
  [/^P(\d) wins the combat on (\S+)$/, "slog.wins", (m, n) => ({ who: n(m[1]), loc: m[2] })],
  [/^P(\d) commits$/, "slog.commits", (m, n) => ({ who: n(m[1]) })],
  [/^P(\d) draws a combat card$/, "slog.draws", (m, n) => ({ who: n(m[1]) })],
  [/^P(\d) has an encounter on (\S+) \(token removed\)$/, "slog.encounter", (m, n) => ({ who: n(m[1]), loc: m[2] })],
  [/^P(\d) chooses option (\d+) of encounter card (\d+)$/, "slog.option", (m, n) => ({ who: n(m[1]), k: m[2], card: m[3] })],
  [/^P(\d) keeps Factory card (\d+)$/, "slog.factory", (m, n) => ({ who: n(m[1]), card: m[2] })],
  [/^structure bonus tile: (\w+)$/, "slog.tile", (m) => ({ tile: word("tile", m[1]) })],
  [/^P(\d) reveals objective (\d+) \((.*)\)$/, "slog.objective", (m, n) => ({ who: n(m[1]), n: m[2], name: cardText(`card.obj.${m[2]}.name`, m[3]) })],
];

/** One engine log line in words; `name(seat)` names a seat. */
export function logWords(line, name) {
  const text = String(line);
  for (const [form, key, values] of FORMS) {
    const m = form.exec(text);
    if (m) return t(key, values(m, (x) => name(Number(x))));
  }
  return text.replace(/\bP(\d)\b/g, (_, x) => name(Number(x)));
}
