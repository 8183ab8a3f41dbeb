// Drives `tessera mcp` with the official MCP TypeScript SDK client over
// stdio, for e2e/agent_test.go: lists tools, chooses the tab showing the
// URL given, waits for notifications/tools/list_changed, lists again and
// calls the page's tools: imperative ones (one that throws, one whose page
// navigates mid-call) and declarative ones (filled, submitted); then the
// tab of a draft-dialect form and the tab of a Formspec form, when given.
// Prints one JSON object with what it saw.
//
//   node client.mjs TESSERA URL [DRAFT_URL FORMSPEC_URL]
//   (the environment names the app's channel)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [tessera, url, draftUrl, formspecUrl] = process.argv.slice(2);
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
  const tab = (tabs.find((t) => t.url === url) ?? tabs.find((t) => t.url === new URL(url).origin && t.active));
  if (!tab) throw new Error(`no tab shows ${url}`);
  await call('tessera.tabs.select', { tab: tab.tab });
  for (let i = 0; i < 100 && changed === 0; i++) await new Promise((r) => setTimeout(r, 100));
  out.listChanged = changed;
  out.after = (await client.listTools()).tools.map((t) => ({ name: t.name, description: t.description, annotations: t.annotations }));
  await call('webmcp.page.search', { q: 'typescript', limit: 4 });
  await call('webmcp.page.search', { q: 1, nope: true });
  await call('tessera.fill.propose', {});
  await call('webmcp.page.throws', {});
  await call('webmcp.form.subscribe', { first: 'Grace', email: 'grace@example.org' });
  await call('webmcp.form.lookup', { title: 'Middlemarch' });
  // The page navigates in the middle of this call; its tools change.
  changed = 0;
  await call('webmcp.page.leave', {});
  for (let i = 0; i < 150 && changed === 0; i++) await new Promise((r) => setTimeout(r, 100));
  out.listChangedOnNavigation = changed;
  // Another tab: choose it by its URL and wait for its tools.
  const choose = async (u, want) => {
    const tabs = JSON.parse(text(await call('tessera.tabs.list', {}))).tabs;
    const tab = (tabs.find((t) => t.url === u) ?? tabs.find((t) => t.url === new URL(u).origin && t.active));
    if (!tab) throw new Error(`no tab shows ${u}`);
    await call('tessera.tabs.select', { tab: tab.tab });
    for (let i = 0; i < 150; i++) {
      const names = (await client.listTools()).tools.map((t) => t.name);
      if (names.includes(want)) return names;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${want} never listed for ${u}`);
  };
  if (draftUrl) {
    out.draftTools = await choose(draftUrl, 'webmcp.form.rsvp');
    await call('webmcp.form.rsvp', { guest: { name: 'Ada Lovelace' }, guests: 9 });
    await call('webmcp.form.rsvp', { guest: { name: 'Ada Lovelace' }, guests: 2 });
  }
  if (formspecUrl) {
    out.formspecTools = await choose(formspecUrl, 'webmcp.page.formspec.field.help');
    await call('webmcp.page.formspec.field.help', { path: 'budget.lineItems[1].unitCost' });
    await call('webmcp.page.formspec.profile.match', {});
  }
} catch (e) {
  out.error = String(e?.stack ?? e);
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + '\n');
