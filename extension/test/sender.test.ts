import { describe, expect, it } from 'vitest';
import { type SenderKind, senderKind } from '../src/shared/sender';

const self = { id: 'mcbhdggcijnkcgnmbmijkpbahglkfaph', origin: 'chrome-extension://mcbhdggcijnkcgnmbmijkpbahglkfaph/' };
const tab = { id: 7 } as chrome.tabs.Tab;

describe('senderKind', () => {
  const cases: { name: string; sender: chrome.runtime.MessageSender | undefined; want: SenderKind | null }[] = [
    { name: 'popup', sender: { id: self.id, url: self.origin + 'popup.html' }, want: 'page' },
    { name: 'own page in a tab', sender: { id: self.id, url: self.origin + 'popup.html', tab }, want: 'page' },
    { name: 'content script', sender: { id: self.id, url: 'https://example.org/form', tab, frameId: 0 }, want: 'content' },
    { name: 'other extension', sender: { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', url: 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/x.html' }, want: null },
    { name: 'other extension content script', sender: { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', url: 'https://example.org/', tab }, want: null },
    { name: 'web page (externally connectable)', sender: { url: 'https://evil.example/', tab }, want: null },
    // Regression guard: an origin that merely starts with our ID must not pass.
    { name: 'look-alike origin', sender: { id: self.id, url: 'chrome-extension://mcbhdggcijnkcgnmbmijkpbahglkfaphx/p.html' }, want: null },
    { name: 'own id without url or tab', sender: { id: self.id }, want: null },
    { name: 'no sender', sender: undefined, want: null },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const got = senderKind(tc.sender, self);
      expect(got, `senderKind(${JSON.stringify(tc.sender)}) = ${got}, want ${tc.want}`).toBe(tc.want);
    });
  }
});
