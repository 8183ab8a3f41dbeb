/**
 * Page-world (world: "MAIN") code for agents (PROTOCOL.md §4.3): reading
 * the tools a page registered on document.modelContext (or the older
 * navigator.modelContext, as the @mcp-b polyfills provide it) and running
 * one of them. The service worker injects these functions with
 * chrome.scripting.executeScript({world: 'MAIN', func}) into the one
 * document it checked (documentIds), on demand, so no script waits in the
 * page and no channel between the page's world and ours exists for the
 * page to listen to or forge. Each function is therefore self-contained (it
 * is serialised on its own: no imports, no module helpers) and answers a
 * JSON string the service worker parses and bounds.
 *
 * Everything these functions return is the page's word: the app treats
 * names, descriptions and results as untrusted text.
 */

/** readPageTools answers JSON {api, tools: [{name, title?, description, inputSchema, annotations?}]}. */
export async function readPageTools(): Promise<string> {
  type Ctx = { getTools?: () => unknown; listTools?: () => unknown };
  const d = (document as unknown as { modelContext?: Ctx }).modelContext;
  const n = (navigator as unknown as { modelContext?: Ctx }).modelContext;
  const mc = d ?? n;
  if (!mc) return JSON.stringify({ api: '', tools: [] });
  // Once per document, a change of the page's tools (its toolchange event)
  // is announced to the content script by a bare DOM event: it carries no
  // data, so a page that fires it itself only makes agents list again.
  const watched = Symbol.for('tessera.webmcp.watched');
  const target = mc as unknown as { addEventListener?: (t: string, f: () => void) => void; [k: symbol]: unknown };
  if (typeof target.addEventListener === 'function' && target[watched] !== true) {
    target.addEventListener('toolchange', () => document.dispatchEvent(new Event('tessera-webmcp-toolchange')));
    Object.defineProperty(target, watched, { value: true });
  }
  let list: unknown = [];
  if (typeof mc.getTools === 'function') list = await mc.getTools();
  else if (typeof mc.listTools === 'function') list = await mc.listTools();
  const out: unknown[] = [];
  const plain = (v: unknown): unknown => {
    if (v === undefined || typeof v === 'function') return undefined;
    if (typeof v === 'string') {
      try {
        return JSON.parse(v);
      } catch {
        return undefined;
      }
    }
    try {
      return JSON.parse(JSON.stringify(v));
    } catch {
      return undefined;
    }
  };
  for (const t of (Array.isArray(list) ? list : []).slice(0, 256)) {
    if (typeof t !== 'object' || t === null) continue;
    const r = t as Record<string, unknown>;
    out.push({
      name: typeof r.name === 'string' ? r.name : '',
      title: typeof r.title === 'string' ? r.title : undefined,
      description: typeof r.description === 'string' ? r.description : '',
      inputSchema: plain(r.inputSchema),
      annotations: plain(r.annotations),
    });
  }
  return JSON.stringify({ api: d ? 'document' : 'navigator', tools: out });
}

/**
 * runPageTool runs the page's tool name with the JSON object input and
 * answers JSON {ok: true, result: string|null} or {ok: false, error}. A
 * result that is not a string is serialised; an MCP-style result
 * ({content: [{type: 'text', text}]}) gives its text.
 */
export async function runPageTool(name: string, input: string): Promise<string> {
  type Tool = { name?: unknown; execute?: (args: unknown) => unknown };
  type Ctx = {
    getTools?: () => unknown;
    listTools?: () => unknown;
    executeTool?: (tool: unknown, input: string) => unknown;
  };
  try {
    const mc = (document as unknown as { modelContext?: Ctx }).modelContext ?? (navigator as unknown as { modelContext?: Ctx }).modelContext;
    if (!mc) throw new Error('the page has no modelContext');
    const args: unknown = JSON.parse(input);
    let list: unknown = [];
    if (typeof mc.getTools === 'function') list = await mc.getTools();
    else if (typeof mc.listTools === 'function') list = await mc.listTools();
    const tool = (Array.isArray(list) ? (list as Tool[]) : []).find((t) => t && t.name === name);
    if (!tool) throw new Error(`the page has no tool ${JSON.stringify(name)}`);
    let r: unknown;
    if (typeof tool.execute === 'function') r = await tool.execute(args);
    else if (typeof mc.executeTool === 'function') {
      r = await mc.executeTool(tool, input);
      // executeTool answers the JSON text of the tool's result (as
      // modelContextTesting and the Formspec polyfill do): an MCP-style
      // result is read as one, so its isError is kept.
      if (typeof r === 'string' && r.startsWith('{')) {
        try {
          const env: unknown = JSON.parse(r);
          if (typeof env === 'object' && env !== null && Array.isArray((env as { content?: unknown }).content)) r = env;
        } catch {
          // Plain text that happens to start with a brace.
        }
      }
    } else throw new Error('the page offers no way to run its tool');
    if (r === null || r === undefined) return JSON.stringify({ ok: true, result: r === null ? null : '' });
    if (typeof r === 'string') return JSON.stringify({ ok: true, result: r });
    const content = (r as { content?: unknown }).content;
    if (Array.isArray(content)) {
      const texts = content.filter((c) => c && (c as { type?: unknown }).type === 'text').map((c) => String((c as { text?: unknown }).text ?? ''));
      if ((r as { isError?: unknown }).isError === true) return JSON.stringify({ ok: false, error: texts.join('\n') });
      return JSON.stringify({ ok: true, result: texts.join('\n') });
    }
    return JSON.stringify({ ok: true, result: JSON.stringify(r) });
  } catch (e) {
    return JSON.stringify({ ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  }
}
