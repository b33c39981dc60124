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

/** A bundle as the server writes it ({"lumber": 2, "ore": 1}, docs/island.md "Actions as data")
 * → {l: 2, o: 1}. */
export function bundleOf(fields) {
  const out = {};
  for (const [name, n] of Object.entries(fields || {})) {
    const i = RES_NAMES.indexOf(name);
    if (i >= 0 && n > 0) out[RES[i]] = n;
  }
  return out;
}
/** A resource name ("ore") → its letter ("o"). */
function resLetter(name) { return RES[RES_NAMES.indexOf(name)]; }

const BUTTON_KINDS = new Set(["roll", "buy", "end", "play_knight", "play_roads", "sbp"]);

/** Group the listed actions of one view by what they touch on the page. Each entry is read by its
 * `kind` and named fields (docs/island.md "Actions as data"), never by its text: the text is only
 * the id sent back to the server. */
export function readLegal(legal) {
  const L = {
    all: [], hints: {}, kinds: new Set(), settle: new Map(), road: new Map(), city: new Map(), robber: new Map(),
    buttons: new Map(), discard: [], trade: [], offer: [], answers: new Map(), complete: new Map(),
    withdraw: new Map(), plenty: [], monopoly: [], other: [],
  };
  for (const entry of legal || []) {
    const a = entry.action;
    const k = entry.kind;
    L.all.push(a);
    L.hints[a] = entry.hint || "";
    L.kinds.add(k);
    if (k === "settle") L.settle.set(entry.node, a);
    else if (k === "road") L.road.set(entry.edge, a);
    else if (k === "city") L.city.set(entry.node, a);
    else if (k === "robber" && entry.hex !== null && entry.hex !== undefined) {
      if (!L.robber.has(entry.hex)) L.robber.set(entry.hex, []);
      L.robber.get(entry.hex).push({ action: a, victim: entry.victim ?? null });
    } else if (k === "robber") L.buttons.set("robber stay", a);
    else if (BUTTON_KINDS.has(k)) L.buttons.set(a, a);
    else if (k === "play_plenty") L.plenty.push({ action: a, take: bundleOf(entry.take) });
    else if (k === "play_monopoly") L.monopoly.push({ action: a, res: resLetter(entry.resource) });
    else if (k === "discard") L.discard.push({ action: a, res: resLetter(entry.resource) });
    else if (k === "trade") L.trade.push({ action: a, give: bundleOf(entry.give), get: bundleOf(entry.get) });
    else if (k === "offer") L.offer.push({ action: a, give: bundleOf(entry.give), get: bundleOf(entry.get) });
    else if ((k === "accept" || k === "reject" || k === "counter") && entry.offer !== null && entry.offer !== undefined) {
      const id = entry.offer;
      if (!L.answers.has(id)) L.answers.set(id, { accept: null, reject: null, counter: [] });
      const slot = L.answers.get(id);
      if (k === "counter") slot.counter.push({ action: a, give: bundleOf(entry.give), get: bundleOf(entry.get) });
      else slot[k] = a;
    } else if (k === "complete" && entry.seat !== null && entry.seat !== undefined) {
      if (!L.complete.has(entry.offer)) L.complete.set(entry.offer, new Map());
      L.complete.get(entry.offer).set(entry.seat, a);
    } else if (k === "withdraw") L.withdraw.set(entry.offer, a);
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
