// `home-agent mcp` answers its client before the home's devices are online or its MCP servers have
// started (issue 41): paired devices are listed from the declarations pinned in the store, a call
// to one still connecting waits for it (10 s from its first call) and never reads "no such
// tool"; an MCP server of mcp.json that starts later adds its tools with tools/list_changed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { startSimulatedDevices } from '../../../../devices/simulator/start-simulated-devices.ts';
import { FIRST_CONNECTION_MS } from '../../../../devices/registry/first-connection-wait.ts';
import { findExecutable } from '../../../../host/devices/find-executable.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { SqliteConversationStore } from '../../../../host/store/sqlite-conversation-store.ts';
import { connectOverStdio, textOf, type ConnectedClient } from '../../../helpers/mcp-clients.ts';
import { EVERYTHING_ENTRY } from '../../../helpers/mcp/mcp-test-servers.ts';
import { untilToolListed } from '../../../helpers/mcp/until-tool-listed.ts';
import { useOwnSimIndex } from '../../../helpers/own-sim-index.ts';
import { runCli } from '../../../helpers/run-cli.ts';
import { tempDataDir } from '../../devices/host-rig.ts';

const hasSocat = findExecutable('socat') !== undefined;
// The mcp process sees only this file's simulators: no other test's lamp-1 may pass for ours.
useOwnSimIndex();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SLOW = 120_000;

function folder(prefix: string): string {
  const made = tempDataDir(prefix);
  cleanups.push(() => made.remove());
  return made.dir;
}

async function mcp(args: string[]): Promise<ConnectedClient> {
  const connected = await connectOverStdio({ args, clientName: 'claude-ai' });
  cleanups.push(() => connected.close());
  return connected;
}

/** Runs `home-agent ARGS` and expects it to succeed. */
async function cli(args: string[]): Promise<void> {
  const run = await runCli(args);
  expect(run.code, run.stderr).toBe(0);
}

/** The tool/end events of a data folder's journal, read after the server let go of it. */
function toolEnds(dataDir: string): Extract<AgentEvent, { type: 'tool/end' }>[] {
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  try {
    const store = new SqliteConversationStore({ db });
    return store
      .listConversations()
      .flatMap((conversation) => store.loadEvents(conversation.id))
      .filter((event): event is Extract<AgentEvent, { type: 'tool/end' }> => event.type === 'tool/end');
  } finally {
    db.close();
  }
}

describe('home-agent mcp before the home is all there', () => {
  it.skipIf(!hasSocat)(
    'lists paired devices from their pinned declarations at once; a call waits for a device still connecting and runs when it comes, one that never comes ends not sent',
    async () => {
      const dataDir = folder('home-agent-mcp-early-');
      const ports = folder('home-agent-mcp-early-ports-');
      // Two lamps paired and granted while they were there, then gone: neither is online when mcp starts.
      const paired = await startSimulatedDevices({ kinds: ['lamp', 'lamp'], latencyMs: 0, directory: ports });
      for (const device of paired.devices) await cli(['devices', 'pair', device.path, '--yes', '--data-dir', dataDir]);
      await cli(['devices', 'grant', 'lamp-1', 'set', 'get', '--data-dir', dataDir]);
      await cli(['devices', 'grant', 'lamp-2', 'set', 'get', '--data-dir', dataDir]);
      await paired.close();

      const started = Date.now();
      const home = await mcp(['--data-dir', dataDir]);
      const { tools } = await home.client.listTools();
      const set = tools.find((tool) => tool.name === 'lamp__set');
      // As pinned at pairing (the simulated lamp's declaration), before either lamp said hello.
      expect(set?.inputSchema.properties?.device_id).toMatchObject({ enum: ['lamp-1', 'lamp-2'] });
      expect(tools.map((tool) => tool.name)).toContain('lamp__get');

      // lamp-1 comes once its call is waiting (the progress report says so); lamp-2 never comes.
      let waiting!: () => void;
      const callWaits = new Promise<void>((resolve) => (waiting = resolve));
      const comes = home.client.callTool(
        { name: 'lamp__set', arguments: { device_id: 'lamp-1', on: true } },
        undefined,
        {
          onprogress: () => waiting(),
        },
      ) as Promise<CallToolResult>;
      const neverComes = home.call('lamp__set', { device_id: 'lamp-2', on: true }).then((result) => ({
        result,
        endedAfterMs: Date.now() - started,
      }));
      await callWaits;
      const lateLamp = await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0, directory: ports });
      cleanups.push(() => lateLamp.close());

      const ran = await comes;
      expect(ran.isError, textOf(ran)).toBeFalsy();
      expect(ran.structuredContent).toEqual({ device_id: 'lamp-1', result: { on: true, brightness: 100 } });

      const { result, endedAfterMs } = await neverComes;
      expect(result.isError).toBe(true);
      expect(JSON.parse(textOf(result))).toMatchObject({
        error: { reason: 'device_offline', detail: 'the device lamp-2 is still connecting: nothing was sent to it' },
        outcome: 'not_sent',
      });
      // It waited out its first connection, counted from its first call (after this test started mcp).
      expect(endedAfterMs).toBeGreaterThanOrEqual(FIRST_CONNECTION_MS);
      await home.close();

      // Both journaled as the calls they were: one done, one that sent nothing.
      expect(toolEnds(dataDir).map((end) => [end.name, end.outcome])).toEqual(
        expect.arrayContaining([
          ['lamp__set', 'done'],
          ['lamp__set', 'not_sent'],
        ]),
      );
    },
    SLOW,
  );

  it(
    'answers initialize and tools/list while an MCP server of its config still starts, and announces its tools when it is ready',
    async () => {
      const dataDir = folder('home-agent-mcp-early-');
      const gate = path.join(dataDir, 'let-the-server-start');
      const config = path.join(dataDir, 'servers.json');
      // A server that starts only once the test opens its gate (its own wait, not the test's).
      const waitThenRun = 'while [ ! -e "$0" ]; do sleep 0.05; done; exec "$1" "$2" stdio';
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: { late: { command: 'sh', args: ['-c', waitThenRun, gate, process.execPath, EVERYTHING_ENTRY] } },
        }),
      );
      const home = await mcp(['--data-dir', dataDir, '--mcp-config', config]);
      // Served while the server waits at its gate: listed without its tools, then with them once it runs.
      let before: string[] = [];
      let waitedForIt = '';
      const tool = await untilToolListed(home.client, 'mcp__late__echo', (names) => {
        before = names;
        // What mcp said on stderr by then: nothing of having waited 10 s for the server.
        waitedForIt = home.stderr();
        writeFileSync(gate, '');
      });
      expect(waitedForIt).not.toContain('is still starting');
      expect(before).toContain('system_list_tools');
      expect(before.filter((name) => name.startsWith('mcp__late__'))).toEqual([]);
      // An untrusted server's tool asks the person: destructiveHint.
      expect(tool.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    },
    SLOW,
  );
});
