/* The match page's sound: short tones, no audio files; only with the device's sound on. */

import { settings } from "./settings.js";

let audioCtx = null;

function audio() {
  if (!audioCtx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    try {
      audioCtx = new Ctx();
    } catch (e) {
      return null;
    }
  }
  if (audioCtx.state === "suspended" && audioCtx.resume) {
    audioCtx.resume().catch(() => {});
  }
  return audioCtx;
}

/** Play notes [[start Hz, end Hz], ...], each ``step`` s apart, if sound is on
 *  (Parlour.playNotes, for attention.js). */
export function playNotes(notes, step, type) {
  if (!settings.sound) return;
  const ctx = audio();
  if (!ctx) return;
  for (let i = 0; i < notes.length; i++) {
    const t = ctx.currentTime + i * step;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type || "sine";
    osc.frequency.setValueAtTime(notes[i][0], t);
    osc.frequency.exponentialRampToValueAtTime(notes[i][1], t + 0.12);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.18);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.2);
  }
}

/** Every change: one falling tone. Attention (static/js/attention.js) plays its own. */
export function playTone() {
  playNotes([[880, 660]], 0.2);
}

// Browsers start audio only from a user gesture: wake it on the first one.
function unlockAudio() {
  if (settings.sound) audio();
  if (audioCtx && audioCtx.state === "running") {
    document.removeEventListener("pointerdown", unlockAudio, true);
    document.removeEventListener("keydown", unlockAudio, true);
  }
}

/** Listen for the first user gesture, which may start the audio. */
export function watchGestures() {
  document.addEventListener("pointerdown", unlockAudio, true);
  document.addEventListener("keydown", unlockAudio, true);
}
