// Reads the LISTED legal actions of a Scythe view into what the page shows: board targets (an
// action naming a location), mat targets (sections, the bottom action, upgrades, enlists,
// reveals), the combat commitments, and plain buttons. Each entry is read by its `kind` and
// named fields (docs/scythe.md "Actions as data"), never by its text: the text is only the id
// sent back to the server. No rule lives here: only the texts the server listed are ever sent,
// and every one of them is shown.

/** The field naming the location of each kind that names one (docs/scythe.md). */
const LOC_FIELD = {
  trade: "territory", produce: "territory", move: "from", step: "to", fight: "territory",
  retreat: "to", gain: "territory", pay: "territory", deploy: "territory", build: "territory",
};

/** The location a listed entry names, or null. */
export function actionLoc(entry) {
  const field = LOC_FIELD[entry.kind];
  return field && typeof entry[field] === "string" ? entry[field] : null;
}

const isEmpty = (o) => !o || Object.keys(o).length === 0;

/** The listed actions of a view, sorted into what draws them. */
export function readLegal(legal) {
  const L = {
    all: legal.map((e) => e.action),
    entries: Object.fromEntries(legal.map((e) => [e.action, e])), // action text -> its entry
    hints: Object.fromEntries(legal.map((e) => [e.action, e.hint || ""])),
    board: new Map(), // loc -> [action]
    sections: new Map(), // "1".."4" | "factory" -> action
    bottom: null, // "bottom"
    top: null, // "top" (a Factory card's top)
    upgrades: [], // {action, box, bottom}
    enlists: [], // {action, recruit, space}
    reveals: new Map(), // objective number -> action
    commits: [], // {action, dial, cards}
    options: new Map(), // encounter option k -> action
    factory: new Map(), // factory card n -> action
    payCards: new Map(), // combat card value -> action
    buttons: [], // everything else: skip, done, end, stop, coins, bolster ..., carry ..., artillery
  };
  for (const e of legal) {
    const a = e.action;
    const k = e.kind;
    const loc = actionLoc(e);
    if (k === "section") L.sections.set(String(e.section), a);
    else if (k === "bottom" && e.coins !== false) L.bottom = a;
    else if (k === "top" && isEmpty(e.decline)) L.top = a;
    else if (k === "upgrade") L.upgrades.push({ action: a, box: e.top, bottom: e.bottom });
    else if (k === "enlist") L.enlists.push({ action: a, recruit: e.recruit, space: e.space });
    else if (k === "reveal") L.reveals.set(String(e.number), a);
    else if (k === "commit") L.commits.push({ action: a, dial: e.dial, cards: [...(e.cards || [])].sort((x, y) => x - y) });
    else if (k === "option" && isEmpty(e.decline)) L.options.set(String(e.option), a);
    else if (k === "factory") L.factory.set(String(e.number), a);
    else if (k === "pay_card") L.payCards.set(String(e.value), a);
    else if (loc) {
      if (!L.board.has(loc)) L.board.set(loc, []);
      L.board.get(loc).push(a);
    } else L.buttons.push(a);
  }
  return L;
}
