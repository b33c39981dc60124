// Accounts in the lobby (issue 30; docs/server.md "Accounts"): a guest claims its identity
// with a user name and a password, or signs in to an account instead; an account signs out,
// changes its password and lists its devices (sessions) with "sign out other devices".
// Every answer comes from /api/account/...; the page keeps only the player's token
// (api.js), never a password.
import { api, me, setMe, forgetMe } from "./api.js";
import { h, toast } from "./dom.js";
import { t, lang } from "./i18n.js";

/** The limits the server checks (server/limits.py), shown beside the fields. */
const NAME = { min: 3, max: 24 };
const PASSWORD = { min: 8, max: 256 };

/** The server's refusal in the page's language where this page knows its code. */
function said(err) {
  const key = `account.err.${err.code}`;
  const text = t(key, { n: err.status === 429 ? retryAfter(err) : "" });
  return text === key ? err.message : text;
}
function retryAfter(err) {
  const m = /(\d+) seconds/.exec(err.message || "");
  return m ? m[1] : "60";
}

function field(id, label, attrs) {
  return h("div.field", {}, h("label", { for: id, text: label }), h(`input#${id}`, { required: true, ...attrs }));
}

function nameField(id) {
  return field(id, t("account.username", NAME), { autocomplete: "username", minlength: NAME.min, maxlength: NAME.max, autocapitalize: "none", spellcheck: "false" });
}
function passwordField(id, label, fresh) {
  return field(id, label, { type: "password", autocomplete: fresh ? "new-password" : "current-password", minlength: fresh ? PASSWORD.min : 1, maxlength: PASSWORD.max });
}

/** A form whose submit runs `fn(values)`; a refusal is said in the form's own box (and the
 * password fields are emptied either way). */
function accountForm(id, title, fields, button, fn, note) {
  const problem = h("p.form-problems", { role: "alert", hidden: true });
  const submit = h("button.primary", { type: "submit", text: button });
  const form = h(`form.account-form#${id}`, {
    onsubmit: async (e) => {
      e.preventDefault();
      const values = Object.fromEntries([...form.querySelectorAll("input")].map((i) => [i.id, i.value]));
      submit.disabled = true;
      problem.hidden = true;
      try { await fn(values); } catch (err) {
        problem.textContent = said(err);
        problem.hidden = false;
      } finally {
        submit.disabled = false;
        for (const i of form.querySelectorAll("input[type=password]")) i.value = "";
      }
    },
  }, h("h3", { text: title }), note ? h("p.muted", { text: note }) : null, ...fields, problem, submit);
  return form;
}

async function signIn(values, prefix) {
  const p = await api("POST", "/api/account/signin", { username: values[`${prefix}-username`].trim(), password: values[`${prefix}-password`] });
  setMe(p);
  location.reload();
}

/** The welcome page's "I have an account" card (no player in this browser yet). */
export function signInCard() {
  return h("div.card.account-card", {}, accountForm("signin-form", t("account.signin_title"),
    [nameField("signin-username"), passwordField("signin-password", t("account.password"), false)],
    t("account.signin"), (v) => signIn(v, "signin")));
}

function when(seconds) {
  try { return new Date(seconds * 1000).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }); } catch { return ""; }
}

async function fillSessions(list) {
  const { sessions } = await api("GET", "/api/account/sessions");
  list.replaceChildren(...sessions.map((s) => h(`li.session${s.current ? ".current" : ""}`, { "data-session": s.id },
    h("span.session-label", { text: s.label || t("account.device") }),
    h("span.muted.session-seen", { text: s.current ? t("account.this_device") : t("account.seen", { when: when(s.last_seen_at) }) }),
    s.current ? null : h("button.link.session-end", { type: "button", text: t("account.signout_one"), onclick: async () => {
      try { await api("DELETE", `/api/account/sessions/${encodeURIComponent(s.id)}`); await fillSessions(list); } catch (err) { toast(said(err)); }
    } }))));
  return sessions.length;
}

/** The lobby's account area: a guest's claim (or a sign-in instead), an account's sign-out,
 * change of password and devices. Folded by default (a phone shows the tables first). */
export function accountCard(onChange) {
  const p = me();
  const box = h("details.card.account#account", {});
  const summary = h("summary", { text: p.username ? t("account.signed_in", { name: p.username }) : t("account.guest_summary") });
  box.append(summary);
  if (!p.username) {
    box.append(h("p.muted", { text: t("account.guest_lead") }),
      h("div.account-forms", {},
        accountForm("claim-form", t("account.claim_title"),
          [nameField("claim-username"), passwordField("claim-password", t("account.new_password", PASSWORD), true)],
          t("account.claim"), async (v) => {
            const r = await api("POST", "/api/account/claim", { username: v["claim-username"].trim(), password: v["claim-password"] });
            setMe({ id: r.id, name: r.name, username: r.username, token: r.token });
            toast(t("account.claimed", { name: r.username }), "ok");
            onChange();
          }),
        accountForm("switch-form", t("account.signin_title"),
          [nameField("switch-username"), passwordField("switch-password", t("account.password"), false)],
          t("account.signin"), (v) => signIn(v, "switch"), t("account.switch_note"))));
    return box;
  }
  const list = h("ul.sessions#sessions");
  const others = h("button#end-others", { type: "button", text: t("account.signout_others"), onclick: async () => {
    try {
      const r = await api("POST", "/api/account/sessions/end-others");
      toast(t("account.ended", { n: r.ended }), "ok");
      await fillSessions(list);
    } catch (err) { toast(said(err)); }
  } });
  const signOut = h("button#sign-out", { type: "button", text: t("account.signout"), onclick: async () => {
    try { await api("POST", "/api/account/signout"); } catch (err) { if (err.status !== 401) { toast(said(err)); return; } }
    forgetMe();
    location.reload();
  } });
  box.append(
    h("div.account-actions", {}, signOut),
    h("div.account-forms", {},
      h("div.account-devices", {}, h("h3", { text: t("account.devices") }), list, others),
      accountForm("password-form", t("account.password_title"),
        [passwordField("password-current", t("account.current_password"), false),
          passwordField("password-new", t("account.new_password", PASSWORD), true)],
        t("account.change"), async (v) => {
          const r = await api("POST", "/api/account/password", { current: v["password-current"], new: v["password-new"] });
          toast(t("account.changed", { n: r.ended }), "ok");
          await fillSessions(list);
        })));
  box.addEventListener("toggle", () => { if (box.open) fillSessions(list).catch((err) => toast(said(err))); });
  return box;
}
