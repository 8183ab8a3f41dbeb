/** What the popup says for each connection status: pure, so it is unit-tested. */
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
      };
    case 'connecting':
      return { tone: 'busy', title: 'Connecting to the Tessera app…', hint: '', vault: '', retry: false };
    case 'not-installed':
      return {
        tone: 'error',
        title: 'Tessera app not installed',
        hint: 'Install the Tessera desktop app, then run “tessera install” to register it with this browser.',
        vault: '',
        retry: true,
      };
    case 'forbidden':
      return {
        tone: 'error',
        title: 'Tessera refused this extension',
        hint: 'The installed Tessera app does not allow this extension. Update Tessera and run “tessera install” again.',
        vault: '',
        retry: true,
      };
    case 'app-unavailable':
      return {
        tone: 'warn',
        title: 'Tessera app not running',
        hint: 'Start the Tessera app; this extension reconnects by itself.',
        vault: '',
        retry: true,
      };
    case 'incompatible':
      return {
        tone: 'error',
        title: 'Tessera app and extension do not match',
        hint: 'Update the Tessera app and this extension to the same release.',
        vault: '',
        retry: true,
      };
    case 'disconnected':
      return {
        tone: 'warn',
        title: 'Connection to Tessera lost',
        hint: 'Reconnecting…',
        vault: '',
        retry: true,
      };
  }
}
