import { describe as group, expect, it } from 'vitest';
import { countOutcomes, describe, describeFill } from '../src/popup/describe';
import type { ConnState } from '../src/shared/native';

const states: ConnState[] = ['connecting', 'not-installed', 'forbidden', 'app-unavailable', 'incompatible', 'disconnected', 'pairing', 'unpaired', 'connected'];

group('describe', () => {
  it('gives every state its own title', () => {
    const titles = states.map((state) => describe({ state }).title);
    expect(new Set(titles).size).toBe(states.length);
  });

  const cases: { name: string; status: Parameters<typeof describe>[0]; title: RegExp; vault?: RegExp; hint?: RegExp }[] = [
    { name: 'not installed', status: { state: 'not-installed' }, title: /not installed/, hint: /tessera install/ },
    { name: 'app not running', status: { state: 'app-unavailable' }, title: /not running/, hint: /Start the Tessera app/ },
    {
      name: 'connected, locked',
      status: { state: 'connected', app: { name: 'tessera', version: '0.1.0-dev' }, vault: 'locked' },
      title: /Connected to Tessera 0\.1\.0-dev/,
      vault: /Vault locked/,
    },
    { name: 'connected, unlocked', status: { state: 'connected', vault: 'unlocked' }, title: /Connected/, vault: /Vault unlocked/ },
    { name: 'connected, no vault', status: { state: 'connected', vault: 'uninitialized' }, title: /Connected/, vault: /No vault yet/ },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const d = describe(tc.status);
      expect(d.title).toMatch(tc.title);
      if (tc.vault) expect(d.vault).toMatch(tc.vault);
      if (tc.hint) expect(d.hint).toMatch(tc.hint);
    });
  }

  it('shows the pairing code while pairing, and offers to pair when unpaired', () => {
    const d = describe({ state: 'pairing', code: '123 456' });
    expect(d.code).toBe('123 456');
    expect(d.pair).toBeFalsy();
    expect(describe({ state: 'unpaired' }).pair).toBe(true);
    expect(describe({ state: 'connected', vault: 'locked' }).code).toBeUndefined();
  });

  it('offers a retry only when not connected', () => {
    expect(describe({ state: 'connected', vault: 'locked' }).retry).toBe(false);
    expect(describe({ state: 'not-installed' }).retry).toBe(true);
  });
});

group('describe unlock', () => {
  it('offers to unlock only a locked vault while connected', () => {
    expect(describe({ state: 'connected', vault: 'locked' }).unlock).toBe(true);
    expect(describe({ state: 'connected', vault: 'unlocked' }).unlock).toBe(false);
    expect(describe({ state: 'connected', vault: 'uninitialized' }).unlock).toBe(false);
    expect(describe({ state: 'disconnected' }).unlock).toBe(false);
  });
});

group('describeFill', () => {
  const done = (report: Parameters<typeof describeFill>[0]['report']) => describeFill({ tab: 1, phase: 'done', report });
  it('says what is under way', () => {
    expect(describeFill({ tab: 1, phase: 'confirming' })).toMatchObject({ busy: true, title: /Confirm in the Tessera app/ });
  });
  it('counts outcomes', () => {
    const d = done({
      status: 'filled',
      fields: [
        { frame: 0, ref: 't1', outcome: 'filled' },
        { frame: 0, ref: 't2', outcome: 'filled' },
        { frame: 0, ref: 't3', outcome: 'rejected' },
      ],
    });
    expect(d).toMatchObject({ tone: 'warn', title: '2 of 3 fields filled.', detail: '2 filled, 1 refused by the page', busy: false });
  });
  it('words declines and failures', () => {
    expect(done({ status: 'declined', reason: 'timeout', fields: [] }).title).toMatch(/timed out/);
    expect(done({ status: 'declined', reason: 'denied', fields: [] }).title).toMatch(/You declined/);
    const f = done({ status: 'failed', reason: 'VAULT_LOCKED', message: 'The Tessera vault is locked.', fields: [] });
    expect(f).toMatchObject({ tone: 'error', detail: 'The Tessera vault is locked.' });
  });
  it('countOutcomes leaves out outcomes that did not happen', () => {
    expect(countOutcomes([{ frame: 0, ref: 't1', outcome: 'gone' }])).toBe('1 gone from the page');
  });
});
