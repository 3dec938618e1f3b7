import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';
import type { ApprovalPolicy } from '../../../host/approvals/person-approval-gate.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { HostNotice } from '../../../host/contract/api-contract.ts';
import type { McpConnection } from '../../../host/plugins/mcp/mcp-connection.ts';
import { McpClients } from '../../../host/plugins/mcp/mcp-clients.ts';

type Cleanups = (() => Promise<void> | void)[];

/** A temp data folder, removed by `cleanups`. */
export function mcpDataDir(cleanups: Cleanups): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-mcp-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A host whose data folder's mcp.json holds `servers` (the `mcpServers` object), with a scripted
 * model, optionally the simulated home (`sim`), and what it logs and notices collected. It waits
 * for every enabled server to be ready or failed, as `ask` does.
 */
export async function startMcpHost(
  cleanups: Cleanups,
  options: {
    servers: Record<string, unknown>;
    dataDir?: string;
    replies?: Script['replies'];
    sim?: boolean;
    approvalPolicy?: ApprovalPolicy;
    environment?: Record<string, string | undefined>;
    /** Write the config to this file and pass it as `--mcp-config` would, instead of mcp.json. */
    configFile?: string;
  },
): Promise<{ host: Host; dataDir: string; log: string[]; notices: HostNotice[] }> {
  const dataDir = options.dataDir ?? mcpDataDir(cleanups);
  const configText = JSON.stringify({ mcpServers: options.servers });
  if (options.configFile !== undefined) writeFileSync(options.configFile, configText);
  else writeFileSync(path.join(dataDir, 'mcp.json'), configText);
  const log: string[] = [];
  const notices: HostNotice[] = [];
  const host = await createHost({
    dataDir,
    transport: 'web',
    model: new ScriptedModel({ replies: options.replies ?? [] }),
    ...(options.approvalPolicy ? { approvalPolicy: options.approvalPolicy } : {}),
    ...(options.sim
      ? {
          attachDevices: () =>
            attachDevices({
              sim: true,
              simLatencyMs: 20,
              devices: [],
              log: () => {},
              signal: new AbortController().signal,
            }),
        }
      : {}),
    ...(options.configFile !== undefined ? { mcpConfigFile: options.configFile } : {}),
    mcpEnvironment: options.environment ?? {},
    log: (line) => log.push(line),
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  host.notices.subscribe((notice) => notices.push(notice));
  await host.pluginParts.whenSettled();
  return { host, dataDir, log, notices };
}

/** The connection of an MCP plugin of `host`; throws when there is none. */
export function connectionOf(host: Host, plugin: string): McpConnection {
  const connection = host.pluginParts.of(McpClients)?.connection(plugin);
  if (!connection) throw new Error(`no MCP plugin ${plugin}`);
  return connection;
}

/** Resolves once the connection's status is one of `statuses` (on its changes, never on a timer). */
export function statusWhen(connection: McpConnection, statuses: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    if (statuses.includes(connection.status)) return resolve(connection.status);
    const stop = connection.changes.subscribe(() => {
      if (!statuses.includes(connection.status)) return;
      stop();
      resolve(connection.status);
    });
  });
}

/**
 * Runs one turn in a fresh conversation; `answer` answers every approval question (else none is
 * answered). The turn's events.
 */
export async function runTurn(host: Host, answer?: { approved: boolean; remember?: boolean }): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  const stop = host.events.subscribe((event) => {
    events.push(event);
    if (event.type === 'approval/request' && answer)
      void host.handlers['approval/answer']({ approvalId: event.approvalId!, ...answer });
  });
  try {
    await host.agent.runTurn({ conversationId: `c-${Math.random().toString(36).slice(2)}`, text: 'go' });
  } finally {
    stop();
  }
  return events;
}

/** One call through the ToolAPI (the same gates and pipeline as the agent's). */
export function callTool(host: Host, name: string, args: Record<string, unknown>, signal?: AbortSignal) {
  return host.toolApi.call(
    { conversationId: 'test', caller: 'test', signal: signal ?? AbortSignal.timeout(15_000) },
    name,
    args,
  );
}

/** A file of probe declarations in `dir`; `write` replaces them. */
export function probeDeclarations(dir: string, tools: unknown[], extra: Record<string, unknown> = {}) {
  const file = path.join(dir, `probe-${Math.random().toString(36).slice(2)}.json`);
  const write = (next: unknown[], more: Record<string, unknown> = {}): void =>
    writeFileSync(file, JSON.stringify({ tools: next, ...more }));
  write(tools, extra);
  return { file, write };
}

/** A probe tool declaration. */
export function probeTool(name: string, more: Record<string, unknown> = {}) {
  return { name, description: `the ${name} tool`, inputSchema: { type: 'object', properties: {} }, ...more };
}
