// Reads the LISTED legal actions of a Scythe view (their notation, docs/scythe.md) into what the
// page shows: board targets (an action naming a location), mat targets (sections, the bottom
// action, upgrades, enlists, reveals), the combat commitments, and plain buttons. No rule
// lives here: only the texts the server listed are ever sent, and every one of them is shown.

const LOC = /^(r\d+c\d+|home_[a-z]+)$/;

/** The location an action names (its first location word), or null. */
export function actionLoc(text) {
  for (const w of text.split(" ")) if (LOC.test(w)) return w;
  return null;
}

/** {dial, cards: [v,...]} of `commit <dial>` / `commit <dial> cards <v>,<v>`, or null. */
export function parseCommit(text) {
  const m = /^commit (\d+)(?: cards ([\d,]+))?$/.exec(text);
  if (!m) return null;
  return { dial: Number(m[1]), cards: m[2] ? m[2].split(",").map(Number).sort((a, b) => a - b) : [] };
}

/** The listed actions of a view, sorted into what draws them. */
export function readLegal(legal) {
  const L = {
    all: legal.map((e) => e.action),
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
  for (const a of L.all) {
    const w = a.split(" ");
    let m;
    if (w[0] === "section") L.sections.set(w[1], a);
    else if (a === "bottom") L.bottom = a;
    else if (a === "top") L.top = a;
    else if (w[0] === "upgrade" && w.length === 3) L.upgrades.push({ action: a, box: w[1], bottom: w[2] });
    else if (w[0] === "enlist" && w.length === 3) L.enlists.push({ action: a, recruit: w[1], space: w[2] });
    else if (w[0] === "reveal") L.reveals.set(w[1], a);
    else if (w[0] === "commit" && parseCommit(a)) L.commits.push({ action: a, ...parseCommit(a) });
    else if (w[0] === "option" && w.length === 2) L.options.set(w[1], a);
    else if (w[0] === "factory" && w.length === 2) L.factory.set(w[1], a);
    else if ((m = /^pay card (\d+)$/.exec(a))) L.payCards.set(m[1], a);
    else if (actionLoc(a)) {
      const loc = actionLoc(a);
      if (!L.board.has(loc)) L.board.set(loc, []);
      L.board.get(loc).push(a);
    } else L.buttons.push(a);
  }
  return L;
}
