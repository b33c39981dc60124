// The table's chat, shared by every game's page: the list, the form, and the history loaded
// once (GET /api/tables/{id}/chat) merged with the messages that came over the socket.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { swatch } from "./seats.js";

/** The chat's list and its form; `send(msg)` puts a chat message on the socket. */
export function chatBox(send) {
  const list = h("ol.chat#chat");
  const chatInput = h("input#chat-input", { maxlength: 500, placeholder: t("chat.placeholder"), "aria-label": t("chat") });
  const form = h("form.chat-form", { onsubmit: (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (text) { send({ type: "chat", text }); chatInput.value = ""; }
  } }, chatInput, h("button", { type: "submit", text: t("send") }));
  return { list, form };
}

/** The last messages; `mark(seat)` draws the seat's mark beside a name (a game's page passes
 * its own, e.g. Scythe's faction badge; the island's seat swatch by default). */
export function drawChat(list, messages, mark = swatch) {
  // the name and the text each in a <bdi> (direction from its own first letter, isolated): a
  // line or a name starting with U+202E cannot reverse anything outside itself
  list.replaceChildren(...messages.slice(-100).map((m) => h("li", { "data-seat": m.seat ?? null }, m.seat !== null && m.seat !== undefined ? mark(m.seat) : null,
    h("strong", {}, h("bdi.chat-name", { text: m.name }), ": "), h("bdi.chat-text", { text: m.text }))));
  list.scrollTop = list.scrollHeight;
}

/** The stored history followed by the socket's messages it does not hold yet. */
export async function chatHistory(id, current) {
  const c = await api("GET", `/api/tables/${id}/chat`);
  return c.messages.concat(current.filter((m) => !c.messages.some((x) => x.id === m.id)));
}
