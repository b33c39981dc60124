// The island's plug-in of the table page (games/registry.js): its part of the page (table.js),
// its log forms (island_log.js), its lobby's settings (lobby.js) and its own pages (the end's
// overview and the replay, overview.js).
import { registerGame } from "./registry.js";
import { t } from "../i18n.js";
import { IslandPart } from "../table.js";
import { islandLogLine, placeLabels } from "../island_log.js";
import { seatLabel } from "../seats.js";
import { settingsFields } from "../lobby.js";
// the rest of the page's modules, named here so that the browser fetches them with the two
// above in one round (games/registry.js; tests/test_page_modules.py checks the list)
import "../legal.js";
import "../board.js";
import "../costs.js";
import "../dice.js";
import "../island_fx.js";
import "../rematch.js";
import "./part.js";

/** The settings line of an island table's lobby. */
function summary(tb) {
  const o = tb.options;
  return [
    `${tb.players} ${t("players")}`, `${o.vp_target} ${t("vp")}`, tb.clock ? `${tb.clock} s` : t("clock.unlimited"),
    t(`robber.${o.robber === false ? "off" : o.friendly_robber ? "friendly" : "normal"}`),
    `${t("set.discard")}: ${o.discard_limit}`, tb.public ? t("set.public") : t("set.unlisted"),
    `${t("set.map")}: ${o.map && o.map !== "standard" ? o.map : t("map.standard")}`,
  ].join(" · ");
}

/** A log entry in the page's language (the registry loads the templates with the plug-in). */
function logForms(line, seats, geometry) {
  return islandLogLine(line, (i) => seatLabel(seats, i), placeLabels(geometry));
}

export default registerGame({
  id: "island",
  inviteLead: "invite.lead",
  createTitle: "create.title",
  logLines: 120,
  mount: (shell) => new IslandPart(shell),
  update: (part) => part.render(),
  logForms,
  settingsForm: { summary, fields: (tb) => settingsFields(tb) },
  // loaded when asked for: a table page fetches none of their modules
  pages: {
    overview: async (app, id) => (await import("../overview.js")).showOverview(app, id),
    // replay.js fetched beside overview.js, not after it
    replay: async (app, id, table, step) => (await Promise.all([import("../overview.js"), import("../replay.js")]))[0].showReplay(app, id, table, step),
  },
});
