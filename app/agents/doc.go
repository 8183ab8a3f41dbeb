// Package agents serves AI agents (PROTOCOL.md §4.3). `tessera mcp` speaks
// MCP to an agent and forwards tools/list and tools/call to the app as
// agent.tools and agent.call; everything else happens here: which tab (of
// which paired browser) the agent works on, which sites the person opened
// to agents, the page's tools (asked of the browser with the app's own
// requests), schema checks, the person's approval, the audit log, and
// withhold, which replaces every profile value and every value released to
// a page in this run in whatever an agent is given. Filling for an agent
// goes through package fill's typed API and the same release gate as a
// browser's.
package agents
