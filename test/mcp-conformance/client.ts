// The client entry of the official MCP conformance suite: `node bin/run-ts.mjs test/mcp-conformance/client.ts URL`.
// The suite starts a server for its scenario (MCP_CONFORMANCE_SCENARIO; MCP_CONFORMANCE_CONTEXT holds
// JSON for scenarios that pass some) and runs this with its URL. It drives the real plugin host, as a
// person's mcp.json server is: a temp data folder whose mcp.json names the server (Streamable HTTP),
// the server trusted, initialize and the tool list, then the call the scenario expects through the
// ToolAPI (its gates and pipeline). This entry plays the person: it approves the call (as
// `ask --approve-all`) and accepts a server's question with the form as shown (its defaults).
// The auth/* scenarios' servers need OAuth 2.1 sign-in, which the plugin host does not have yet: for
// them it says so and fails at once, without starting a host (26 hosts at once would not fit in the
// suite's 30 s on two cores).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Host } from '../../host/app/create-host.ts';
import type { McpElicitationFrontEnd } from '../../host/plugins/mcp/mcp-elicitation.ts';

/** The plugin of the scenario's server (`mcp-NAME` of mcp.json's `conformance`). */
const PLUGIN = 'mcp-conformance';
/** The suite gives a client 30 s; this entry gives up before. */
const DEADLINE_MS = 25_000;

/** The call each scenario expects, by the tool's name on the server (none: initialize and the listing are all). */
const CALLS: Readonly<Record<string, { tool: string; args: Record<string, unknown> }>> = {
  tools_call: { tool: 'add_numbers', args: { a: 5, b: 3 } },
  'elicitation-sep1034-client-defaults': { tool: 'test_client_elicitation_defaults', args: {} },
  'sse-retry': { tool: 'test_reconnection', args: {} },
};

/** The person: reads the server's form and presses Accept without changing it (its defaults stand). */
const acceptAsShown: McpElicitationFrontEnd = (request) => {
  console.log(`the server asks: ${request.message}`);
  return Promise.resolve({ action: 'accept', content: {} });
};

async function main(): Promise<number> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (url === undefined) {
    console.error('usage: client.ts URL (with MCP_CONFORMANCE_SCENARIO set)');
    return 2;
  }
  if (scenario.startsWith('auth/')) {
    console.error(`${scenario}: the server needs OAuth 2.1 sign-in, which is not built yet`);
    return 1;
  }
  // Loaded only for a scenario it runs: a scenario it cannot run costs no host.
  const [{ createHost }, { McpClients }, { ScriptedModel }] = await Promise.all([
    import('../../host/app/create-host.ts'),
    import('../../host/plugins/mcp/mcp-clients.ts'),
    import('../../core/models/scripted/scripted-model.ts'),
  ]);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-conformance-client-'));
  let host: Host | undefined;
  try {
    writeFileSync(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { conformance: { url } } }));
    host = await createHost({
      dataDir,
      transport: 'web',
      model: new ScriptedModel({ replies: [] }),
      approvalPolicy: 'allow',
      mcpEnvironment: {},
      mcpElicitation: acceptAsShown,
      log: (line) => console.error(line),
      version: 'conformance',
    });
    await host.pluginParts.whenSettled();
    const clients = host.pluginParts.of(McpClients);
    const connection = clients?.connection(PLUGIN);
    if (!clients || !connection) throw new Error(`no MCP plugin ${PLUGIN}`);
    // The person trusts the scenario's server (the Plugins tab's Trust).
    clients.setTrusted(PLUGIN, true);
    if (connection.status !== 'ready') throw new Error(`${PLUGIN} is ${connection.status}: ${connection.reason ?? ''}`);
    console.log(`tools: ${connection.tools.map((tool) => tool.original).join(', ') || '(none)'}`);
    const call = CALLS[scenario];
    if (call === undefined) return 0;
    const declared = connection.tools.find((tool) => tool.original === call.tool);
    if (!declared) throw new Error(`the server does not list ${call.tool}`);
    const result = await host.toolApi.call(
      { conversationId: 'conformance', caller: 'conformance', signal: AbortSignal.timeout(DEADLINE_MS) },
      declared.name,
      call.args,
    );
    console.log(JSON.stringify(result));
    return 'error' in result && result.error !== undefined ? 1 : 0;
  } finally {
    await host?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const timer = setTimeout(() => {
  console.error(`gave up after ${DEADLINE_MS} ms`);
  process.exit(1);
}, DEADLINE_MS + 2_000);
timer.unref();
main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
