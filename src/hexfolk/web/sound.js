// The "your turn" chime: WebAudio, no audio files; muted state kept in localStorage.
let ctx = null;
export function muted() { return localStorage.getItem("hexfolk.muted") === "1"; }
export function setMuted(m) { localStorage.setItem("hexfolk.muted", m ? "1" : "0"); }
export function chime() {
  if (muted()) return;
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    const now = ctx.currentTime;
    [660, 880].forEach((f, i) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      o.type = "sine";
      g.gain.setValueAtTime(0.0001, now + i * 0.16);
      g.gain.exponentialRampToValueAtTime(0.2, now + i * 0.16 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.3);
      o.connect(g).connect(ctx.destination);
      o.start(now + i * 0.16);
      o.stop(now + i * 0.16 + 0.32);
    });
  } catch { /* no audio here */ }
}
