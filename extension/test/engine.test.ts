import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineFor } from '../src/background/engine';
import { FakePort } from './fakeport';

const CHROMIUM = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.7390.54 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';

describe('engineFor', () => {
  afterEach(() => vi.unstubAllGlobals());

  const cases = [
    { ua: CHROMIUM, name: 'chromium', pinDocuments: true },
    // Firefox's tabs.sendMessage has no documentId: a fill pinned to one
    // would reach no frame at all (the e2e Firefox tests guard it).
    { ua: FIREFOX, name: 'firefox', pinDocuments: false },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const e = engineFor(tc.ua);
      expect(e.name, `engineFor(${tc.ua}).name`).toBe(tc.name);
      expect(e.pinDocuments, `engineFor(${tc.ua}).pinDocuments`).toBe(tc.pinDocuments);
    });
  }

  it('reads why a port closed where each engine puts it', () => {
    const lastError: { message?: string } | undefined = { message: 'Specified native messaging host not found.' };
    vi.stubGlobal('chrome', { runtime: { lastError } });
    expect(engineFor(CHROMIUM).portError(new FakePort())).toBe('Specified native messaging host not found.');
    vi.stubGlobal('chrome', { runtime: {} });
    const port = Object.assign(new FakePort(), { error: { message: 'No such native application dev.tessera.host' } });
    expect(engineFor(FIREFOX).portError(port)).toBe('No such native application dev.tessera.host');
    expect(engineFor(FIREFOX).portError(new FakePort())).toBeUndefined();
  });
});
