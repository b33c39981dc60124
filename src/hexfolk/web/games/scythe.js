// Scythe's plug-in of the table page (games/registry.js): its part of the page
// (scythe/table.js), its log forms (scythe/logwords.js), its lobby's settings
// (scythe/settings.js) and its own page (the replay, scythe/end.js). Loaded only for a Scythe
// table: an island page fetches none of Scythe's modules.
import { registerGame } from "./registry.js";
import { ScythePart } from "../scythe/table.js";
import { scytheLogLine } from "../scythe/log_kinds.js";
import { scytheSettings, scytheSummary } from "../scythe/settings.js";
import { CLOCKS } from "../lobby.js";
// the rest of the page's modules, named here so that the browser fetches them with the ones
// above in one round (games/registry.js; tests/test_page_modules.py checks the list)
import "../scythe/board.js";
import "../scythe/cards.js";
import "../scythe/cardtext.js";
import "../scythe/combat.js";
import "../scythe/end.js";
import "../scythe/fx.js";
import "../scythe/legal.js";
import "../scythe/mats.js";
import "../analysis.js"; // the end panel's and the replay's analysis
import "../winchart.js";
import "../dice.js"; // the replay's die faces (replay.js)
import "../rematch.js";
import "../replay.js";
import "../turn_times.js";
import "./part.js";

export default registerGame({
  id: "scythe",
  inviteLead: "invite.lead_scythe",
  createTitle: "create.title_scythe",
  logLines: 150,
  mount: (shell) => new ScythePart(shell),
  update: (part) => part.render(),
  logForms: scytheLogLine,
  settingsForm: { summary: scytheSummary, fields: (tb) => scytheSettings(tb, CLOCKS) },
  pages: { replay: async (app, id, table, step) => (await import("../scythe/end.js")).showScytheReplay(app, id, table, step) },
});
