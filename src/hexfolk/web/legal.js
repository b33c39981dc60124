// Reads the LISTED legal actions (their notation, docs/island.md) into what the page lights up.
// No rule lives here: a target exists only because the server listed an action for it.
export const RES = ["l", "b", "w", "g", "o"];
export const RES_NAMES = ["lumber", "brick", "wool", "grain", "ore"];

/** "2l 1o" → {l: 2, o: 1}; "-" → {}. */
export function parseBundle(text) {
  const out = {};
  for (const w of String(text || "").trim().split(/\s+/)) {
    const m = /^(\d+)([lbwgo])$/i.exec(w);
    if (m) out[m[2].toLowerCase()] = (out[m[2].toLowerCase()] || 0) + Number(m[1]);
  }
  return out;
}
/** {l: 2, o: 1} → "2l 1o" (canonical order; "-" when empty). */
export function bundleText(b) {
  const parts = RES.filter((r) => b[r] > 0).map((r) => `${b[r]}${r}`);
  return parts.length ? parts.join(" ") : "-";
}
/** "2l 1o" (or a bundle) → "2 lumber, 1 ore" in the page's language; names from tr("res.l"). */
export function bundleWords(b, tr) {
  const x = typeof b === "string" ? parseBundle(b) : b;
  const parts = RES.filter((r) => x[r] > 0).map((r) => `${x[r]} ${tr(`res.${r}`)}`);
  return parts.length ? parts.join(", ") : tr("nothing");
}
export function bundleCount(b) { return RES.reduce((n, r) => n + (b[r] || 0), 0); }

/** Group the listed actions of one view by what they touch on the page. */
export function readLegal(legal) {
  const L = {
    all: [], hints: {}, settle: new Map(), road: new Map(), city: new Map(), robber: new Map(),
    buttons: new Map(), discard: [], trade: [], offer: [], answers: new Map(), complete: new Map(),
    withdraw: new Map(), plenty: [], monopoly: [], other: [],
  };
  for (const entry of legal || []) {
    const a = entry.action;
    L.all.push(a);
    L.hints[a] = entry.hint || "";
    let m;
    if ((m = /^settle (\d+)$/.exec(a))) L.settle.set(Number(m[1]), a);
    else if ((m = /^road (\d+)$/.exec(a))) L.road.set(Number(m[1]), a);
    else if ((m = /^city (\d+)$/.exec(a))) L.city.set(Number(m[1]), a);
    else if ((m = /^robber (\d+)(?: steal (\d+))?$/.exec(a))) {
      const hex = Number(m[1]);
      if (!L.robber.has(hex)) L.robber.set(hex, []);
      L.robber.get(hex).push({ action: a, victim: m[2] === undefined ? null : Number(m[2]) });
    } else if (a === "robber stay") L.buttons.set("robber stay", a);
    else if (/^(roll|buy|end|play knight|play roads|sbp join|sbp pass)$/.test(a)) L.buttons.set(a, a);
    else if ((m = /^play plenty (.+)$/.exec(a))) L.plenty.push({ action: a, take: parseBundle(m[1]) });
    else if ((m = /^play monopoly ([lbwgo])$/.exec(a))) L.monopoly.push({ action: a, res: m[1] });
    else if ((m = /^discard ([lbwgo])$/.exec(a))) L.discard.push({ action: a, res: m[1] });
    else if ((m = /^trade (.+) for (.+)$/.exec(a))) L.trade.push({ action: a, give: parseBundle(m[1]), get: parseBundle(m[2]) });
    else if ((m = /^offer (.+) for (.+)$/.exec(a))) L.offer.push({ action: a, give: parseBundle(m[1]), get: parseBundle(m[2]) });
    else if ((m = /^(accept|reject|counter) (\d+)(?::\s*(.+) for (.+))?$/.exec(a))) {
      const id = Number(m[2]);
      if (!L.answers.has(id)) L.answers.set(id, { accept: null, reject: null, counter: [] });
      const slot = L.answers.get(id);
      if (m[1] === "counter") slot.counter.push({ action: a, give: parseBundle(m[3]), get: parseBundle(m[4]) });
      else slot[m[1]] = a;
    } else if ((m = /^complete (\d+) with (\d+)$/.exec(a))) {
      const id = Number(m[1]);
      if (!L.complete.has(id)) L.complete.set(id, new Map());
      L.complete.get(id).set(Number(m[2]), a);
    } else if ((m = /^withdraw (\d+)$/.exec(a))) L.withdraw.set(Number(m[1]), a);
    else L.other.push(a);
  }
  return L;
}

/** The best listed bank/harbor rate per resource given: {l: 4, w: 2, ...} from "trade 4l for 1o". */
export function bestRates(trades) {
  const rates = {};
  for (const t of trades) {
    const give = Object.entries(t.give);
    const got = bundleCount(t.get);
    if (give.length === 1 && got === 1) {
      const [r, n] = give[0];
      rates[r] = Math.min(rates[r] || 99, n);
    }
  }
  return rates;
}
