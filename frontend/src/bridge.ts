// Bindings added for the first run, auto-lock, import, export and backup
// (app/firstrun.go, app/prefs.go, app/transfer.go). Kept apart from
// wails.ts so that sections added beside each other do not edit one list;
// like wails.ts, every promise rejects with a message fit to show.
import type { VaultSettings } from "./wails";

/** The strength meter's reading of a passphrase (app.Strength). */
export interface Strength {
  /** zxcvbn's 0..4. */
  score: number;
  /** Whether setting up the vault would take it. */
  acceptable: boolean;
  words: string;
  advice?: string;
}

interface Bridge {
  PassphraseStrength(p: string): Promise<Strength>;
  SuggestPassphrase(): Promise<string>;
  SetAutoLock(minutes: number): Promise<VaultSettings>;
}

function bridge(): Bridge {
  const b = (window as unknown as { go?: { app?: { UI?: Bridge } } }).go?.app?.UI;
  if (!b) throw new Error("the Tessera app bridge is not available");
  return b;
}

/** The first run's bindings (app/firstrun.go). */
export const firstRun = {
  strength: (p: string): Promise<Strength> => bridge().PassphraseStrength(p),
  suggest: (): Promise<string> => bridge().SuggestPassphrase(),
};

/** Sets the auto-lock time, in minutes (0: never), saved for the next start (app/prefs.go). */
export function setAutoLock(minutes: number): Promise<VaultSettings> {
  return bridge().SetAutoLock(minutes);
}
