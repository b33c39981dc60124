// The table's chat, part of the table page's shell (table_page.js): the list, the form with the
// limits the server announces (the welcome's `chat`), and the history the welcome carries
// (`chat_history`) merged with the messages that came over the socket. Two
// channels until the game ends (docs/server.md, "Chat"): each line shows the `channel` the
// server gave it, and the form says where a line goes.
import { me } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { swatch } from "./seats.js";

/** The chat's list, its form and the line under it that shows the limits (`limits`: the
 * welcome's `chat`, {max, count, seconds}, docs/server.md: 500 characters, 5 messages per
 * 10 s) with a count of the characters typed; `send(msg)` puts a chat message on the socket.
 * A watcher without a name cannot chat (the server wants a player token): the line says how. */
export function chatBox(send, limits) {
  const list = h("ol.chat#chat");
  const max = limits && limits.max ? limits.max : 500; // a server older than the welcome's `chat`
  const chatInput = h("input#chat-input", { maxlength: max, placeholder: t("chat.placeholder"), "aria-label": t("chat") });
  const to = h("div.chat-to#chat-to", { hidden: true });
  const count = h("span.chat-count#chat-count", { text: `0/${max}` });
  const countNow = () => { count.textContent = `${chatInput.value.length}/${max}`; count.classList.toggle("full", chatInput.value.length >= max); };
  chatInput.addEventListener("input", countNow);
  const form = h("form.chat-form", { onsubmit: (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (text) { send({ type: "chat", text }); chatInput.value = ""; }
    countNow();
  } }, to, chatInput, h("button", { type: "submit", text: t("send") }));
  const rate = limits && limits.count ? [" · ", t("chat.limits", { n: max, k: limits.count, s: limits.seconds })] : [];
  const shown = h("p.chat-limits.muted#chat-limits", {}, count, ...rate);
  if (!me()) {
    form.hidden = true;
    shown.replaceChildren(t("chat.need_name"));
  }
  return { list, form, limits: shown };
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
  // scrolled to the newest line in the next frame, once the page is laid out: reading the
  // height now would lay the page out in the middle of a redraw (the first view's one more)
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
}

/** The stored history (a welcome's `chat_history`) followed by the messages already shown
 * that it does not hold. */
export function withHistory(history, current) {
  const have = new Set(history.map((m) => m.id));
  return history.concat(current.filter((m) => !have.has(m.id)));
}
