// The table's chat, shared by every game's page: the list, the form, and the history loaded
// once (GET /api/tables/{id}/chat) merged with the messages that came over the socket. Two
// channels until the game ends (docs/server.md, "Chat"): each line shows the `channel` the
// server gave it, and the form says where a line goes.
import { api, me } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { swatch } from "./seats.js";

/** The chat's list and its form; `send(msg)` puts a chat message on the socket. */
export function chatBox(send) {
  const list = h("ol.chat#chat");
  const chatInput = h("input#chat-input", { maxlength: 500, placeholder: t("chat.placeholder"), "aria-label": t("chat") });
  const to = h("div.chat-to#chat-to", { hidden: true });
  const form = h("form.chat-form", { onsubmit: (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (text) { send({ type: "chat", text }); chatInput.value = ""; }
  } }, to, chatInput, h("button", { type: "submit", text: t("send") }));
  return { list, form };
}

/** Who reads a line sent from this page now: "players" (the person holds a seat at `table`),
 * "spectators" (anyone else), or "everyone" once the game is over. The server decides the
 * channel when the line arrives (its `channel` is what the list shows); this only labels the
 * form the same way (docs/server.md, "Chat"). */
export function chatAudience(table) {
  if (table.status !== "lobby" && table.status !== "playing") return "everyone";
  const p = me();
  const seated = !!p && (table.seats || []).some((x) => x.kind === "person" && x.player_id === p.id);
  return seated ? "players" : "spectators";
}

/** Label the chat form (`chatBox`'s) with the audience of its next line. */
export function showAudience(form, audience) {
  if (form.dataset.audience === audience) return;
  form.dataset.audience = audience;
  // a line of its own above the input: the audience, and for a spectator that the players
  // read it only after the end
  const note = audience === "spectators" ? t("chat.to.spectators_note") : "";
  form.querySelector(".chat-to").replaceChildren(h(`span.chat-ch.ch-${audience}`, { text: `→ ${t(`chat.tag.${audience}`)}` }),
    note ? h("span.muted", { text: ` ${note}` }) : "");
  form.querySelector(".chat-to").hidden = false;
  const input = form.querySelector("input");
  input.placeholder = t(`chat.to.${audience}`);
  input.setAttribute("aria-label", `${t("chat")}: ${t(`chat.to.${audience}`)}${note ? ` ${note}` : ""}`);
}

/** The last messages; `mark(seat)` draws the seat's mark beside a name (a game's page passes
 * its own, e.g. Scythe's faction badge; the island's seat swatch by default). */
export function drawChat(list, messages, mark = swatch) {
  // the name and the text each in a <bdi> (direction from its own first letter, isolated): a
  // line or a name starting with U+202E cannot reverse anything outside itself
  // each line's channel (players / spectators) as the server sent it, in words
  list.replaceChildren(...messages.slice(-100).map((m) => h("li", { "data-seat": m.seat ?? null, "data-channel": m.channel || null },
    m.channel ? h(`span.chat-ch.ch-${m.channel}`, { text: t(`chat.tag.${m.channel}`), title: t(`chat.ch.${m.channel}`) }) : null,
    m.seat !== null && m.seat !== undefined ? mark(m.seat) : null,
    h("strong", {}, h("bdi.chat-name", { text: m.name }), ": "), h("bdi.chat-text", { text: m.text }))));
  list.scrollTop = list.scrollHeight;
}

/** The stored history followed by the socket's messages it does not hold yet. */
export async function chatHistory(id, current) {
  const c = await api("GET", `/api/tables/${id}/chat`);
  return c.messages.concat(current.filter((m) => !c.messages.some((x) => x.id === m.id)));
}
