/** Describing this browser to the app in session.hello. */

/** BrowserInfo names the browser engine and its version. */
export interface BrowserInfo {
  name: 'chromium' | 'firefox';
  version: string;
}

/** browserInfo reads the engine and version from a user agent string; version is "" when absent. */
export function browserInfo(userAgent: string): BrowserInfo {
  const ff = /\bFirefox\/([\d.]+)/.exec(userAgent);
  if (ff) return { name: 'firefox', version: ff[1]! };
  return { name: 'chromium', version: /\b(?:Headless)?Chrom(?:e|ium)\/([\d.]+)/.exec(userAgent)?.[1] ?? '' };
}
