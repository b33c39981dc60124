// Rated or casual (docs/ratings.md): the badge a table shows in the lobby's lists, in its own
// lobby and during the game; the host's choice. The server says which a table is (`rated`).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The badge of a table: "Rated" or "Casual" in the page's language. */
export function ratedBadge(tb) {
  return h(`span.badge.${tb.rated ? "rated" : "casual"}`, { "data-rated": String(!!tb.rated), text: t(tb.rated ? "badge.rated" : "badge.casual") });
}

/** The host's choice of rated or casual: a select whose value is "rated" or "casual". */
export function ratedSelect(id, rated, onchange) {
  return h(`select#${id}`, { onchange }, [["casual", t("set.rated.casual")], ["rated", t("set.rated.rated")]]
    .map(([v, label]) => h("option", { value: v, text: label, selected: (v === "rated") === !!rated })));
}
