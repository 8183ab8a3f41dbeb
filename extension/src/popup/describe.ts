/** What the popup says for each connection status and fill: pure, so it is unit-tested. */
import type { FieldOutcome, Outcome } from '../shared/fill';
import type { FillProgress } from '../shared/messages';
import type { Status } from '../shared/native';

/** Tone picks the popup's colour for a status. */
export type Tone = 'ok' | 'warn' | 'error' | 'busy';

/** Description is the popup's text for a status. */
export interface Description {
  tone: Tone;
  title: string;
  /** hint tells the person what to do, when there is something to do. */
  hint: string;
  /** vault is the vault line, shown only when connected. */
  vault: string;
  /** retry reports whether a "Try again" button makes sense. */
  retry: boolean;
  /** unlock reports whether an "Unlock in Tessera" button makes sense (connected, vault locked). */
  unlock: boolean;
  /** pair reports whether a "Pair with Tessera" button makes sense (unpaired); code is the pairing code to show. */
  pair?: boolean;
  code?: string;
}

const VAULT_TEXT: Record<NonNullable<Status['vault']>, string> = {
  uninitialized: 'No vault yet — create one in the Tessera app.',
  locked: 'Vault locked — unlock it in the Tessera app.',
  unlocked: 'Vault unlocked.',
};

/** describe returns the popup's text for s; every ConnState has its own wording. */
export function describe(s: Status): Description {
  switch (s.state) {
    case 'connected':
      return {
        tone: s.vault === 'unlocked' ? 'ok' : 'warn',
        title: `Connected to Tessera ${s.app?.version ?? ''}`.trim(),
        hint: '',
        vault: s.vault ? VAULT_TEXT[s.vault] : '',
        retry: false,
        unlock: s.vault === 'locked',
      };
    case 'connecting':
      return { tone: 'busy', title: 'Connecting to the Tessera app…', hint: '', vault: '', retry: false, unlock: false };
    case 'pairing':
      return {
        tone: 'busy',
        title: 'Pair this browser with Tessera',
        hint: 'The Tessera app asks you to pair this browser. Approve there only if it shows this same code:',
        vault: '',
        retry: false,
        unlock: false,
        code: s.code ?? '',
      };
    case 'unpaired':
      return {
        tone: 'warn',
        title: 'This browser is not paired with Tessera',
        hint: 'Tessera serves a browser only after you pair it in the app.',
        vault: '',
        retry: false,
        unlock: false,
        pair: true,
      };
    case 'not-installed':
      return {
        tone: 'error',
        title: 'Tessera app not installed',
        hint: 'Install the Tessera desktop app, then run “tessera install” to register it with this browser.',
        vault: '',
        retry: true,
        unlock: false,
      };
    case 'forbidden':
      return {
        tone: 'error',
        title: 'Tessera refused this extension',
        hint: 'The installed Tessera app does not allow this extension. Update Tessera and run “tessera install” again.',
        vault: '',
        retry: true,
        unlock: false,
      };
    case 'app-unavailable':
      return {
        tone: 'warn',
        title: 'Tessera app not running',
        hint: 'Start the Tessera app; this extension reconnects by itself.',
        vault: '',
        retry: true,
        unlock: false,
      };
    case 'incompatible':
      return {
        tone: 'error',
        title: 'Tessera app and extension do not match',
        hint: 'Update the Tessera app and this extension to the same release.',
        vault: '',
        retry: true,
        unlock: false,
      };
    case 'disconnected':
      return {
        tone: 'warn',
        title: 'Connection to Tessera lost',
        hint: 'Reconnecting…',
        vault: '',
        retry: true,
        unlock: false,
      };
  }
}

/** FillDescription is the popup's text for the latest fill. */
export interface FillDescription {
  tone: Tone;
  title: string;
  detail: string;
  /** busy reports whether a fill is under way (the button waits). */
  busy: boolean;
}

const PHASE_TEXT = {
  measuring: 'Reading the page…',
  confirming: 'Confirm in the Tessera app…',
  filling: 'Filling…',
} as const;

const DECLINE_TEXT: Record<string, string> = {
  denied: 'You declined in the Tessera app. Nothing was filled.',
  timeout: 'The confirmation timed out. Nothing was filled.',
  cancelled: 'The fill was cancelled. Nothing was filled.',
  'no-window': 'The Tessera app has no window to confirm in. Nothing was filled.',
};

// OUTCOME_TEXT words each outcome for the count line, in display order.
const OUTCOME_TEXT: [Outcome, string][] = [
  ['filled', 'filled'],
  ['rejected', 'refused by the page'],
  ['changed', 'changed since approval'],
  ['hidden', 'no longer visible'],
  ['gone', 'gone from the page'],
];

/** countOutcomes says how many fields had each outcome: "3 filled, 1 refused by the page". */
export function countOutcomes(fields: readonly FieldOutcome[]): string {
  const parts: string[] = [];
  for (const [o, text] of OUTCOME_TEXT) {
    const n = fields.filter((f) => f.outcome === o).length;
    if (n > 0) parts.push(`${n} ${text}`);
  }
  return parts.join(', ');
}

/** describeFill returns the popup's text for p. */
export function describeFill(p: FillProgress): FillDescription {
  if (p.phase !== 'done' || p.report === undefined) {
    return { tone: 'busy', title: PHASE_TEXT[p.phase === 'done' ? 'filling' : p.phase], detail: '', busy: true };
  }
  const r = p.report;
  switch (r.status) {
    case 'filled': {
      const filled = r.fields.filter((f) => f.outcome === 'filled').length;
      return {
        tone: filled === r.fields.length ? 'ok' : 'warn',
        title: r.fields.length === 0 ? 'Nothing to fill on this page.' : `${filled} of ${r.fields.length} fields filled.`,
        // A Formspec provider's validation report (mode 1) follows the counts.
        detail: [countOutcomes(r.fields), r.message].filter(Boolean).join(' '),
        busy: false,
      };
    }
    case 'declined':
      return { tone: 'warn', title: DECLINE_TEXT[r.reason ?? 'denied'] ?? DECLINE_TEXT.denied!, detail: '', busy: false };
    case 'failed':
      return { tone: 'error', title: 'Could not fill this page.', detail: r.message ?? r.reason ?? '', busy: false };
  }
}
