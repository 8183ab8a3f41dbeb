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
//   addonId, uuid  the add-on's id and the moz-extension uuid to give it
//              (for the popup trigger)
//   readPage   a JS expression resolving to the page's state (e2e.readPageJS)
//   pages      [{name, url, arm, probe, probeOnly, hold, type, submit}]: each is opened in a
//              new tab; arm calls window.__arm() first; the tab is filled
//              through the test build's page bridge, then read (and probe,
//              a JS expression, evaluated). With type ([[selector, text]])
//              the page is not filled: the texts are typed with real key
//              events, submit is clicked and the answer page (#received)
//              awaited; result is then {submitted: true}. With hold (a
//              path) nothing is filled: HOLD.ready is written once the page
//              is open, and the page is read once the test writes HOLD.done
//              (the test drives it meanwhile, e.g. as an MCP agent)
//              With trigger ("popup", "menu" or "shortcut") and field (a
//              selector of an editable box) the fill starts the way a person
//              starts it instead (see fillBy); Firefox then runs with
//              --remote-allow-system-access and the add-on's moz-extension
//              uuid fixed to cfg.uuid
//   bench      {url, n, appPid, floorHome, chunk}: session.ping round trips from the background,
//              started from a tab at url (optional); Firefox then runs with
//              full timer precision (it rounds performance.now() to 1 ms by
//              default). With floorHome the echo host registered there is
//              timed in a second Firefox, in turns of chunk calls with this
//              one (see interleaved); its summary is then floor
//
// Output on stdout, one JSON object: {addon, browser, status, host, pages:
// [{name, url, result, state, probe, error}], bench, floor, error}. The browser's
// environment is this process's: the Go test passes TESSERA_* through it to
// the host.
import { access, readFile, readdir, readlink, writeFile } from 'node:fs/promises';
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
async function hostProcess(home = cfg.home) {
  const manifest = `${home}/.mozilla/native-messaging-hosts/${cfg.host}.json`;
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

// chromeEval evaluates expression in the browser window's own (chrome)
// document, which WebDriver BiDi reaches only with system access.
async function chromeEval(browser, expression) {
  const tree = await browser.connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
  const win = tree.result.contexts.find((c) => c.url === 'chrome://browser/content/browser.xhtml');
  if (!win) throw new Error('no browser window among the chrome contexts');
  const r = await browser.connection.send('script.evaluate', { target: { context: win.context }, awaitPromise: true, expression });
  if (r.result.type === 'exception') throw new Error(`chrome: ${r.result.exceptionDetails?.text}`);
  return r.result.result?.value;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// fillBy starts a fill of page the way a person does, and resolves with its
// report once the extension says it has ended (the latest fill, read over
// the page bridge):
//   popup     the toolbar popup's own page (moz-extension://uuid/popup.html)
//             opened in a background tab, so that the page stays the
//             window's active tab as it is when the toolbar button is
//             pressed, and its "Fill this page" button clicked; r.popup is
//             then what the popup says of the fill
//   menu      a real right-click on field opens Firefox's content context
//             menu; its "Fill with Tessera" item is chosen as a click does
//             (XULPopupElement.activateItem)
//   shortcut  field focused, Ctrl+Shift+L pressed as real key events in the
//             browser window (nsITextInputProcessor, as Firefox's own tests
//             press keys), so Firefox's shortcut handling runs the command
async function fillBy(browser, page, p, r) {
  const before = JSON.stringify(await bridge(page, 'lastFill', [], 5000));
  let popup;
  switch (p.trigger) {
    case 'popup':
      popup = await browser.newPage({ background: true });
      // puppeteer never sees an extension page's load: wait for the page.
      popup.goto(`moz-extension://${cfg.uuid}/popup.html`).catch(() => {});
      // A wait begun on the blank page fails ("Waiting failed") when the
      // navigation replaces its document: wait again until the deadline.
      for (const end = Date.now() + 30000; ; ) {
        try {
          await popup.waitForFunction(() => document.getElementById('status')?.dataset.state === 'connected', { timeout: Math.max(1000, end - Date.now()) });
          break;
        } catch (e) {
          if (Date.now() >= end) throw e;
          await new Promise((res) => setTimeout(res, 100));
        }
      }
      await popup.click('#fill-page');
      break;
    case 'menu':
      await page.click(p.field, { button: 'right' });
      r.menu = await chromeEval(
        browser,
        `new Promise((resolve, reject) => {
          const menu = document.getElementById('contentAreaContextMenu');
          const t0 = Date.now();
          (function look() {
            const item = [...menu.querySelectorAll('menuitem')].find((i) => i.label === 'Fill with Tessera' && !i.hidden);
            if (menu.state === 'open' && item) {
              menu.activateItem(item);
              return resolve(item.id);
            }
            if (Date.now() - t0 > 10000) return reject(new Error('context menu ' + menu.state + ' without the Tessera item'));
            setTimeout(look, 50);
          })();
        })`,
      );
      break;
    case 'shortcut':
      await page.focus(p.field);
      r.keys = await chromeEval(
        browser,
        `(() => {
          const tip = Cc['@mozilla.org/text-input-processor;1'].createInstance(Ci.nsITextInputProcessor);
          if (!tip.beginInputTransactionForTests(window)) throw new Error('no input transaction');
          const key = (key, code, keyCode) => new KeyboardEvent('', { key, code, keyCode });
          const ctrl = key('Control', 'ControlLeft', 17), shift = key('Shift', 'ShiftLeft', 16), l = key('L', 'KeyL', 76);
          tip.keydown(ctrl); tip.keydown(shift); tip.keydown(l); tip.keyup(l); tip.keyup(shift); tip.keyup(ctrl);
          return Services.focus.focusedElement?.localName ?? '';
        })()`,
      );
      break;
    default:
      throw new Error(`unknown trigger ${p.trigger}`);
  }
  for (const deadline = Date.now() + 90000; Date.now() < deadline; await sleep(100)) {
    const last = await bridge(page, 'lastFill', [], 5000);
    if (last?.phase === 'done' && JSON.stringify(last) !== before) {
      if (popup) {
        r.popup = await popup.evaluate(() => `${document.getElementById('fill-title').textContent} | ${document.getElementById('fill-detail').textContent}`);
        await popup.close().catch(() => {});
      }
      return last.report;
    }
  }
  throw new Error(`${p.trigger}: no fill ended within 90 s`);
}

// procStats reads, for each named pid, its CPU time (ms, all threads) and
// context switches summed over its threads: voluntary ones are the
// process waiting and being woken, involuntary ones it being preempted.
async function procStats(pids) {
  const out = {};
  for (const [name, pid] of Object.entries(pids)) {
    if (!pid) continue;
    const s = { cpuMs: 0, voluntary: 0, involuntary: 0, threads: 0 };
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      s.cpuMs = ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, USER_HZ 100
      for (const tid of await readdir(`/proc/${pid}/task`)) {
        const st = await readFile(`/proc/${pid}/task/${tid}/status`, 'utf8').catch(() => '');
        s.voluntary += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(st)?.[1] ?? 0);
        s.involuntary += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(st)?.[1] ?? 0);
        s.threads++;
      }
    } catch {
      continue;
    }
    out[name] = s;
  }
  return out;
}

function diffStats(a, b) {
  const out = {};
  for (const k of Object.keys(b)) {
    if (!a[k]) continue;
    out[k] = {
      cpuMs: b[k].cpuMs - a[k].cpuMs,
      voluntary: b[k].voluntary - a[k].voluntary,
      involuntary: b[k].involuntary - a[k].involuntary,
      threads: b[k].threads,
    };
  }
  return out;
}

// summarise is bench.ts's summary (nearest-rank percentiles) of samples.
function summarise(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(Math.max(Math.ceil((p / 100) * s.length), 1), s.length) - 1];
  return { n: s.length, p50: at(50), p99: at(99), mean: s.reduce((a, b) => a + b, 0) / s.length, min: s[0], max: s.at(-1) };
}

// interleaved measures the floor in the same minute as Tessera: a second
// Firefox, whose HOME (cfg.bench.floorHome) registers the echo host under
// the same name, runs beside this one, and the two take turns, chunk calls
// each, until each has made n; both are summarised over all their calls.
// The machine's load then weighs on both alike. out.bench is Tessera's,
// out.floor the echo host's.
async function interleaved(browser) {
  const floorBrowser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: cfg.firefox,
    headless: true,
    env: { ...process.env, HOME: cfg.bench.floorHome },
    extraPrefsFirefox: { 'privacy.reduceTimerPrecision': false },
  });
  try {
    await floorBrowser.installExtension(cfg.extension);
    const sides = [
      { name: 'bench', page: await open(browser, cfg.bench.url), home: cfg.home, appPid: cfg.bench.appPid, samples: [] },
      { name: 'floor', page: await open(floorBrowser, cfg.bench.url), home: cfg.bench.floorHome, samples: [] },
    ];
    for (const side of sides) {
      await bridge(side.page, 'waitFor', ['connected', 30000], 35000);
      await bridge(side.page, 'timings', [0, 100], 60000); // warm-up
      side.pids = { host: (await hostProcess(side.home))?.pid, app: side.appPid };
      side.before = await procStats(side.pids);
    }
    const chunk = cfg.bench.chunk ?? 100;
    while (sides[0].samples.length < cfg.bench.n) {
      for (const side of sides) {
        const k = Math.min(chunk, cfg.bench.n - side.samples.length);
        side.samples.push(...(await bridge(side.page, 'timings', [k, 0], 120000)));
      }
    }
    for (const side of sides) {
      out[side.name] = { ...summarise(side.samples), procs: diffStats(side.before, await procStats(side.pids)) };
    }
  } finally {
    await floorBrowser.close().catch(() => {});
  }
}

let browser;
try {
  const triggers = (cfg.pages ?? []).some((p) => p.trigger);
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: cfg.firefox,
    headless: true,
    env: { ...process.env, HOME: cfg.home },
    args: triggers ? ['--remote-allow-system-access'] : [],
    extraPrefsFirefox: {
      ...(cfg.bench ? { 'privacy.reduceTimerPrecision': false } : {}),
      ...(triggers ? { 'extensions.webextensions.uuids': JSON.stringify({ [cfg.addonId]: cfg.uuid }) } : {}),
    },
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
      if (p.hold) {
        // The Go test acts on the open page itself (as an MCP agent does):
        // p.hold + '.ready' says the page is open and the extension
        // connected; the test writes p.hold + '.done' when it has finished.
        // The page is then read (and probed) as after a fill.
        await writeFile(`${p.hold}.ready`, p.url);
        for (const deadline = Date.now() + 180000; ; await sleep(200)) {
          if (await access(`${p.hold}.done`).then(() => true, () => false)) break;
          if (Date.now() > deadline) throw new Error('hold: the test never finished');
        }
        r.state = await page.evaluate(cfg.readPage);
        if (p.probe) r.probe = await page.evaluate(p.probe);
        continue;
      }
      if (p.probeOnly) {
        // Only the probe: it drives the page itself (the Formspec tools).
        r.probe = await page.evaluate(p.probe);
        continue;
      }
      if (p.arm) await page.evaluate('window.__arm()');
      r.result = p.trigger ? await fillBy(browser, page, p, r) : await bridge(page, 'fill', [], 90000);
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
  if (cfg.bench?.floorHome) {
    await interleaved(browser);
  } else if (cfg.bench) {
    const page = await open(browser, cfg.bench.url);
    await bridge(page, 'waitFor', ['connected', 30000], 35000);
    // Where the time goes: the CPU and the wake-ups of the host (and of
    // the app, cfg.bench.appPid) over the timed calls and their warm-up.
    const pids = { host: (await hostProcess())?.pid, app: cfg.bench.appPid };
    const before = await procStats(pids);
    out.bench = await bridge(page, 'bench', [cfg.bench.n], 120000);
    out.bench.procs = diffStats(before, await procStats(pids));
  }
} catch (e) {
  out.error = e.stack ?? String(e);
} finally {
  await browser?.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + '\n');
