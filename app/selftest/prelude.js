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
  const shown = (e) => !!e && !e.hidden && e.getClientRects().length > 0;
