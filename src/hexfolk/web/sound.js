// The table's sounds, made with WebAudio (no audio files): the "your turn" chime, the dice, a
// build and a trade (issue 27). One switch mutes them all (the top bar's button, table_page.js);
// the muted state is kept in localStorage.
let ctx = null;
export function muted() { return localStorage.getItem("hexfolk.muted") === "1"; }
export function setMuted(m) { localStorage.setItem("hexfolk.muted", m ? "1" : "0"); }

/** What the page played, newest last (for tests and the console: `window.__hexfolkSounds`). */
function note(name) {
  const list = (window.__hexfolkSounds = window.__hexfolkSounds || []);
  list.push(name);
  if (list.length > 50) list.shift();
}

const last = {}; // name -> when it was last asked for (ms)
const GAP_MS = 600;

/** Play `tones` ([{f, at, len, type, vol, to}]: frequency in Hz, start and length in seconds,
 * an optional glide to frequency `to`) unless muted, after the redraw that asked for it (a
 * task of its own: WebAudio calls cost a redraw several ms, the first one a hundred), and not
 * again within GAP_MS (a burst of bot moves drawn one view after another sounds once). */
function play(name, tones) {
  if (muted()) return;
  const now = performance.now();
  if (now - (last[name] ?? -Infinity) < GAP_MS) return;
  last[name] = now;
  note(name);
  setTimeout(() => sound(tones), 0);
}

function sound(tones) {
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    const now = ctx.currentTime;
    for (const { f, at = 0, len = 0.2, type = "sine", vol = 0.2, to } of tones) {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.type = type;
      o.frequency.setValueAtTime(f, now + at);
      if (to) o.frequency.exponentialRampToValueAtTime(to, now + at + len);
      g.gain.setValueAtTime(0.0001, now + at);
      g.gain.exponentialRampToValueAtTime(vol, now + at + 0.012);
      g.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      o.connect(g).connect(ctx.destination);
      o.start(now + at);
      o.stop(now + at + len + 0.02);
    }
  } catch { /* no audio here */ }
}

/** Your turn: two rising notes. */
export function chime() {
  play("chime", [{ f: 660, at: 0, len: 0.3 }, { f: 880, at: 0.16, len: 0.3 }]);
}

/** The dice: a rattle of short clicks, each a little lower, then the two dice landing. */
export function diceSound() {
  const clicks = [0, 0.05, 0.11, 0.16, 0.24, 0.3].map((at, i) => ({ f: 1400 - i * 120, at, len: 0.035, type: "square", vol: 0.07 }));
  play("dice", [...clicks, { f: 320, at: 0.4, len: 0.09, type: "triangle", vol: 0.18 }, { f: 280, at: 0.47, len: 0.09, type: "triangle", vol: 0.16 }]);
}

/** A piece placed or a structure built: a low knock and a short note. */
export function buildSound() {
  play("build", [{ f: 180, at: 0, len: 0.12, type: "triangle", vol: 0.25, to: 110 }, { f: 523, at: 0.07, len: 0.18, vol: 0.12 }]);
}

/** A trade made: two notes that answer each other. */
export function tradeSound() {
  play("trade", [{ f: 587, at: 0, len: 0.14, type: "triangle", vol: 0.14 }, { f: 784, at: 0.1, len: 0.22, type: "triangle", vol: 0.14 }]);
}
