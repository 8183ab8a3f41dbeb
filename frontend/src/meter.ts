// The passphrase strength meter under a new passphrase, and the first
// run's suggested recovery passphrase. Go rates every passphrase
// (ui.UI.PassphraseStrength: the same rule that setting up applies), so
// the meter never calls acceptable what Go would refuse.
import { firstRun, type Strength } from "./bridge";

/** How the meter words and colours a reading: "Strength: fair" and a tone. */
export function meterText(s: Strength): { label: string; tone: "none" | "bad" | "ok" | "good" } {
  if (!s.words) return { label: "", tone: "none" };
  const tone = !s.acceptable ? "bad" : s.score >= 4 ? "good" : "ok";
  const verdict = s.acceptable ? "" : s.advice ? ` — ${s.advice}` : "";
  return { label: `Strength: ${s.words}${verdict}`, tone };
}

/**
 * Keeps the meter (bars, aria-hidden) and its words (a polite live region)
 * under input current as the person types. Readings that arrive out of
 * order are dropped.
 */
export function attachMeter(input: HTMLInputElement, bars: HTMLElement, words: HTMLElement): () => void {
  let asked = 0;
  let timer = 0;
  const render = (s: Strength) => {
    const m = meterText(s);
    bars.dataset.score = m.tone === "none" ? "" : String(s.score);
    bars.dataset.tone = m.tone;
    words.textContent = m.label;
    words.dataset.tone = m.tone;
  };
  const update = () => {
    const n = ++asked;
    const p = input.value;
    if (p === "") {
      render({ score: 0, acceptable: false, words: "" });
      return;
    }
    firstRun
      .strength(p)
      .then((s) => {
        if (n === asked) render(s);
      })
      .catch(() => {
        /* The meter is advice; setting up still checks. */
      });
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = window.setTimeout(update, 120);
  });
  return update;
}
