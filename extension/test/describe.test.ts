import { describe as group, expect, it } from 'vitest';
import { describe } from '../src/popup/describe';
import type { ConnState } from '../src/shared/native';

const states: ConnState[] = ['connecting', 'not-installed', 'forbidden', 'app-unavailable', 'incompatible', 'disconnected', 'connected'];

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

  it('offers a retry only when not connected', () => {
    expect(describe({ state: 'connected', vault: 'locked' }).retry).toBe(false);
    expect(describe({ state: 'not-installed' }).retry).toBe(true);
  });
});
