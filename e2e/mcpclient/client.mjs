// Drives `tessera mcp` with the official MCP TypeScript SDK client over
// stdio, for e2e/agent_test.go: lists tools, chooses the tab showing the
// URL given, waits for notifications/tools/list_changed, lists again and
// calls the page's tools. Prints one JSON object with what it saw.
//
//   node client.mjs TESSERA URL   (the environment names the app's channel)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [tessera, url] = process.argv.slice(2);
const out = { steps: [] };
const transport = new StdioClientTransport({ command: tessera, args: ['mcp', '--no-start'], env: process.env, stderr: 'inherit' });
const client = new Client({ name: 'ts-sdk-agent', version: '1.0.0' });
let changed = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
  changed++;
});
const text = (r) => (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  out.steps.push({ name, isError: r.isError === true, text: text(r) });
  return r;
};
try {
  await client.connect(transport);
  out.server = client.getServerVersion();
  out.capabilities = client.getServerCapabilities();
  out.before = (await client.listTools()).tools.map((t) => t.name);
  const tabs = JSON.parse(text(await call('tessera.tabs.list', {}))).tabs;
  const tab = tabs.find((t) => t.url === url);
  if (!tab) throw new Error(`no tab shows ${url}`);
  await call('tessera.tabs.select', { tab: tab.tab });
  for (let i = 0; i < 100 && changed === 0; i++) await new Promise((r) => setTimeout(r, 100));
  out.listChanged = changed;
  out.after = (await client.listTools()).tools.map((t) => ({ name: t.name, description: t.description, annotations: t.annotations }));
  await call('webmcp.page.search', { q: 'typescript', limit: 4 });
  await call('webmcp.page.search', { q: 1, nope: true });
  await call('tessera.fill.propose', {});
} catch (e) {
  out.error = String(e?.stack ?? e);
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + '\n');
