// Answers the end-to-end tests' reader (e2e/pagestate.go): posted the
// string "tessera-e2e-read" with a MessagePort, a frame replies with the
// values of its own controls and the input/change events they received.
// Cross-origin frames include it; a same-origin frame is read directly.
(() => {
  const events = [];
  for (const type of ['input', 'change']) {
    document.addEventListener(type, (e) => {
      const t = e.target;
      if (t && t.name !== undefined) events.push(`${type}:${t.id || t.name}`);
    }, true);
  }
  window.__e2eEvents = events;
  window.addEventListener('message', (e) => {
    if (e.data !== 'tessera-e2e-read' || !e.ports[0]) return;
    const values = {};
    for (const el of document.querySelectorAll('input,select,textarea')) {
      const key = el.id || el.name;
      if (el.type === 'radio' || el.type === 'checkbox') {
        if (el.checked) values[key] = el.value;
        else if (!(key in values)) values[key] = '';
      } else values[key] = el.value;
    }
    e.ports[0].postMessage({ origin: self.origin, values, events });
  });
})();
