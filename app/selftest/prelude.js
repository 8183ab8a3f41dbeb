  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok: !!ok, detail: String(detail ?? "") });
  const $ = (s) => document.querySelector(s);
  const text = (s) => ($(s)?.textContent ?? "").trim();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (f, ms = 5000) => {
    const end = Date.now() + ms;
    for (;;) {
      try { if (f()) return true; } catch (e) {}
      if (Date.now() > end) return false;
      await sleep(40);
    }
  };
  // resize asks Go for a window of w x h and waits until the page sees it
  // (within dw x dh), asking again each second: under Xvfb, with no window
  // manager, a request made while GTK still settles the last one can be
  // dropped, which left the window small for every later check.
  const resize = async (w, h, dw = 2, dh = 2) => {
    const end = Date.now() + 8000;
    for (;;) {
      await window.go.app.SelfTest.SetWindowSize(w, h);
      if (await until(() => Math.abs(innerWidth - w) <= dw && Math.abs(innerHeight - h) <= dh, 1000)) return true;
      if (Date.now() > end) return false;
    }
  };
  const shown = (e) => !!e && !e.hidden && e.getClientRects().length > 0;
