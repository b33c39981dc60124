// The HTTP API (/api/...) with the player's token; identity kept in localStorage.
const KEY = "hexfolk.player";

export function me() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}
export function setMe(p) { localStorage.setItem(KEY, JSON.stringify(p)); }
export function forgetMe() { localStorage.removeItem(KEY); }

export class ApiError extends Error {
  /** `reasons`: the problems as data ({code, params, rule} each) where the server gives them
   * (a `bad_option` of Scythe's factions and mats, docs/protocol.md). */
  constructor(code, message, status, reasons, detail) { super(message); this.code = code; this.status = status; this.reasons = reasons || null; this.detail = detail || {}; }
}

export async function api(method, path, body) {
  const headers = {};
  const p = me();
  if (p && p.token) headers.Authorization = `Bearer ${p.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const type = r.headers.get("content-type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    const e = (data && data.error) || { code: "http_error", message: String(data).slice(0, 200) };
    throw new ApiError(e.code, e.message, r.status, e.reasons, e);
  }
  return data;
}

export async function createPlayer(name) {
  const p = await api("POST", "/api/players", { name });
  setMe(p);
  return p;
}

/** The player stored here, checked against the server (a wiped database forgets it). */
export async function checkMe() {
  const p = me();
  if (!p) return null;
  try { await api("GET", "/api/me"); return p; } catch (e) {
    if (e.status === 401) { forgetMe(); return null; }
    return p;
  }
}
