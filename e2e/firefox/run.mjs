// Drives Firefox ESR over WebDriver BiDi (puppeteer-core) for Tessera's
// Firefox end-to-end tests; e2e/firefox_test.go starts it and checks what it
// prints. It judges nothing itself: it reports.
//
//   node run.mjs CONFIG.json
//
// CONFIG:
//   firefox    the Firefox binary (/usr/bin/firefox-esr)
//   extension  the unpacked Firefox test build (extension/build.mjs --test)
//   home       HOME for Firefox: its native host manifest is in
//              HOME/.mozilla/native-messaging-hosts/ (`tessera install
//              --browser firefox` with that HOME)
//   host       the host manifest's name (com.tessera.app); its process is
//              looked up by the manifest path Firefox passes it
//   readPage   a JS expression resolving to the page's state (e2e.readPageJS)
//   pages      [{name, url, arm, probe, probeOnly, type, submit}]: each is opened in a
//              new tab; arm calls window.__arm() first; the tab is filled
//              through the test build's page bridge, then read (and probe,
//              a JS expression, evaluated). With type ([[selector, text]])
//              the page is not filled: the texts are typed with real key
//              events, submit is clicked and the answer page (#received)
//              awaited; result is then {submitted: true}
//   bench      {url, n}: session.ping round trips from the background,
//              started from a tab at url (optional); Firefox then runs with
//              full timer precision (it rounds performance.now() to 1 ms by
//              default)
//
// Output on stdout, one JSON object: {addon, browser, status, host, pages:
// [{name, url, result, state, probe, error}], bench, error}. The browser's
// environment is this process's: the Go test passes TESSERA_* through it to
// the host.
import { readFile, readdir, readlink } from 'node:fs/promises';
import puppeteer from 'puppeteer-core';

const cfg = JSON.parse(await readFile(process.argv[2], 'utf8'));
const out = { pages: [] };

// bridge calls the background's test hooks from page through the content
// script's page bridge (extension/src/content/testbridge.ts).
function bridge(page, method, args, timeoutMs) {
  return page.evaluate(
    (method, args, timeoutMs) =>
      new Promise((resolve, reject) => {
        const id = Math.random().toString(36).slice(2);
        const reply = 'tessera-test-reply:';
        const timer = setTimeout(() => {
          removeEventListener('message', on);
          reject(new Error(`test bridge: no answer to ${method} within ${timeoutMs} ms`));
        }, timeoutMs);
        function on(e) {
          if (typeof e.data !== 'string' || !e.data.startsWith(reply)) return;
          const r = JSON.parse(e.data.slice(reply.length));
          if (r.id !== id) return;
          removeEventListener('message', on);
          clearTimeout(timer);
          if (r.error !== undefined) reject(new Error(r.error));
          else resolve(r.result);
        }
        addEventListener('message', on);
        postMessage('tessera-test:' + JSON.stringify({ id, method, args }), '*');
      }),
    method,
    args,
    timeoutMs,
  );
}

// open opens url in a new tab and waits until the content script answers
// the bridge there (it runs at document_idle, after load).
async function open(browser, url) {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  for (let i = 0; ; i++) {
    try {
      await bridge(page, 'status', [], 500);
      return page;
    } catch (e) {
      if (i >= 20) throw new Error(`${url}: the content script never answered: ${e.message}`);
    }
  }
}

// hostProcess finds the native host Firefox started for the manifest in
// cfg.home: its arguments and its parent's executable.
async function hostProcess() {
  const manifest = `${cfg.home}/.mozilla/native-messaging-hosts/${cfg.host}.json`;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let argv, stat;
    try {
      argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
      stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    if (argv[1] !== manifest) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    let parentExe = '';
    try {
      parentExe = await readlink(`/proc/${ppid}/exe`);
    } catch (e) {
      parentExe = `unreadable: ${e.message}`;
    }
    return { pid: Number(pid), args: argv.slice(1), ppid, parentExe };
  }
  return null;
}

let browser;
try {
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: cfg.firefox,
    headless: true,
    env: { ...process.env, HOME: cfg.home },
    extraPrefsFirefox: cfg.bench ? { 'privacy.reduceTimerPrecision': false } : {},
  });
  out.browser = await browser.version();
  out.addon = await browser.installExtension(cfg.extension);
  for (const p of cfg.pages ?? []) {
    const r = { name: p.name, url: p.url };
    out.pages.push(r);
    let page;
    try {
      page = await open(browser, p.url);
      if (out.status === undefined) {
        out.status = await bridge(page, 'waitFor', ['connected', 30000], 35000).catch(async (e) => ({
          error: e.message,
          last: await bridge(page, 'status', [], 2000),
        }));
        out.host = await hostProcess();
      }
      if (p.type) {
        for (const [selector, text] of p.type) await page.type(selector, text);
        await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(p.submit)]);
        await page.waitForSelector('#received', { timeout: 15000 });
        r.result = { submitted: true };
        continue;
      }
      if (p.probeOnly) {
        // Only the probe: it drives the page itself (the Formspec tools).
        r.probe = await page.evaluate(p.probe);
        continue;
      }
      if (p.arm) await page.evaluate('window.__arm()');
      r.result = await bridge(page, 'fill', [], 90000);
      // Let late page handlers run before reading.
      await new Promise((resolve) => setTimeout(resolve, 100));
      r.state = await page.evaluate(cfg.readPage);
      if (p.probe) r.probe = await page.evaluate(p.probe);
    } catch (e) {
      r.error = e.message;
    } finally {
      await page?.close().catch(() => {});
    }
  }
  if (cfg.bench) {
    const page = await open(browser, cfg.bench.url);
    out.bench = await bridge(page, 'waitFor', ['connected', 30000], 35000).then(() =>
      bridge(page, 'bench', [cfg.bench.n], 120000),
    );
  }
} catch (e) {
  out.error = e.stack ?? String(e);
} finally {
  await browser?.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + '\n');
