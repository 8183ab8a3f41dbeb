// Drives `tessera mcp` with the official MCP TypeScript SDK client over
// stdio through the person's consent, for e2e/agent_consent_test.go: the
// app's test decision hook answers its dialogs in turn (approve the site,
// approve the fill, deny a form call, let a page-tool call time out).
// Prints one JSON object with everything the agent received: the tool
// lists and every result, whole.
//
//   node consent.mjs TESSERA URL   (the environment names the app's channel)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [tessera, url] = process.argv.slice(2);
const out = { steps: [], lists: [] };
const transport = new StdioClientTransport({ command: tessera, args: ['mcp', '--no-start'], env: process.env, stderr: 'inherit' });
const client = new Client({ name: 'ts-sdk-consent', version: '1.0.0' });
const text = (r) => (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  out.steps.push({ name, isError: r.isError === true, text: text(r), result: r });
  return r;
};
try {
  await client.connect(transport);
  out.lists.push(await client.listTools());
  const tabs = JSON.parse(text(await call('tessera.tabs.list', {}))).tabs;
  const tab = (tabs.find((t) => t.url === url) ?? tabs.find((t) => t.url === new URL(url).origin && t.active));
  if (!tab) throw new Error(`no tab shows ${url}`);
  await call('tessera.tabs.select', { tab: tab.tab }); // dialog 1: approve
  out.lists.push(await client.listTools());
  await call('tessera.fill.propose', {}); // no dialog: masked previews
  await call('tessera.fill.apply', {}); // dialog 2: approve
  await call('webmcp.form.subscribe', { first: 'Grace', email: 'grace@example.org' }); // dialog 3: deny
  await call('webmcp.page.search', { q: 'unanswered' }); // dialog 4: nobody answers
} catch (e) {
  out.error = String(e?.stack ?? e);
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + '\n');
