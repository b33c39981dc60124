// The clocks of the seats that must act, shared by every game's page: a chip per acting seat,
// ticking from the server's absolute deadlines (corrected by the server's time).
import { h } from "./dom.js";
import { swatch } from "./seats.js";

export function clockChips(acting) {
  return (acting || []).map((i) => h("span.clock", { "data-clock": i }, swatch(i), h("span.ctime", { text: "" })));
}

export function tickClocks(container, view, clockOffset) {
  const now = Date.now() / 1000 + clockOffset;
  const seats = (view.clocks && view.clocks.seats) || {};
  for (const el of container.querySelectorAll("[data-clock]")) {
    const c = seats[el.dataset.clock];
    const out = el.querySelector(".ctime");
    if (!c) { out.textContent = "∞"; continue; }
    const left = c.running && c.deadline ? Math.max(0, c.deadline - now) : c.remaining;
    const m = Math.floor(left / 60), sec = Math.floor(left % 60);
    out.textContent = `${m}:${String(sec).padStart(2, "0")}`;
    el.classList.toggle("low", left < 15);
  }
}
