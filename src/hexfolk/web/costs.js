// The island's build-cost card (issue 27): what a road, a settlement, a city and a development
// card cost, as the server's geometry says them (`costs`, from the rules' numbers: rules sheet
// 1.1, games/island/data/rules.json), in the page's language. Opened from a button over the
// board; nothing here decides what may be built (the listed actions do).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { RES_COLOR } from "./board.js";

const LETTER = { lumber: "l", brick: "b", wool: "w", grain: "g", ore: "o" };
const ITEMS = [["road", "piece.road"], ["settlement", "piece.settlement"], ["city", "piece.city"], ["development", "fx.cost_dev"]];

/** One resource of a cost: its colour, its name and how many. */
function chip(name, n) {
  const r = LETTER[name] || name;
  return h(`span.rescard.cost-chip.r-${r}`, { title: t(`res.${r}`), style: `--rc:${RES_COLOR[r] || "#888"}`, "data-res": name, "data-n": n },
    h("span.rc-name", { text: t(`res.${r}`) }), h("span.rc-n", { text: `×${n}` }));
}

/** The card's body from `costs` ({item: {resource: n}}): one row per item, in the rules' order. */
export function costCard(costs) {
  const rows = ITEMS.filter(([item]) => costs && costs[item]).map(([item, key]) =>
    h("li.cost-row", { "data-item": item },
      h("span.cost-name", { text: capital(t(key)) }),
      h("span.cost-res", {}, Object.entries(costs[item]).filter(([, n]) => n > 0).map(([r, n]) => chip(r, n)))));
  return h("ul.cost-card#cost-card", {}, rows);
}

const capital = (x) => (x ? x[0].toLocaleUpperCase() + x.slice(1) : x);
