import { describe, expect, it } from 'vitest';
import { type BrowserInfo, browserInfo } from '../src/background/clientinfo';

describe('browserInfo', () => {
  const cases: { ua: string; want: BrowserInfo }[] = [
    {
      ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.7390.54 Safari/537.36',
      want: { name: 'chromium', version: '156.0.7390.54' },
    },
    {
      ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.7390.54 Safari/537.36',
      want: { name: 'chromium', version: '156.0.7390.54' },
    },
    { ua: 'Mozilla/5.0 (X11; Linux x86_64) Chromium/120.0.1 Safari/537.36', want: { name: 'chromium', version: '120.0.1' } },
    { ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', want: { name: 'firefox', version: '128.0' } },
    { ua: 'curl/8.0', want: { name: 'chromium', version: '' } },
  ];
  for (const tc of cases) {
    it(tc.ua, () => expect(browserInfo(tc.ua), `browserInfo(${JSON.stringify(tc.ua)})`).toEqual(tc.want));
  }
});
