import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { emptyCallRecords, foldCallRecords } from '../../../../core/events/fold-call-records.ts';
import { describeCallOutcome } from '../../../../core/tools/describe-call-outcome.ts';
import { formatCallRow } from '../../../../host/front/cli/format-event.ts';
import { everythingStdioEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import { connectionOf, runTurn, startMcpHost, statusWhen } from '../../../helpers/mcp/mcp-host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);

describe('MCP tool calls in the words of MCP, not of devices', () => {
  it('a batch with a tool of an untrusted server is serial because the server is not trusted, not because it "declares serial"', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      sim: true,
      replies: [
        {
          toolCalls: [
            { name: 'lamp__get', args: { device_id: 'lamp-1' } },
            { name: 'mcp__everything__echo', args: { message: 'a' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const events = await runTurn(host, { approved: true });
    const start = ofType(events, 'batch/start')[0];
    expect(start?.mode).toBe('serial');
    expect(start?.reason).toBe(
      'serial: mcp__everything__echo is a tool of an MCP server you have not trusted (mcp-everything), so the calls run one at a time',
    );
  });

  it('a call to a server that is not connected says so, names the server as what nothing reached, and never says device', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      approvalPolicy: 'allow',
      replies: [{ toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'hi' } }] }, { text: 'done' }],
    });
    const connection = connectionOf(host, 'mcp-everything');
    process.kill(connection.pid()!, 'SIGKILL');
    await statusWhen(connection, ['failed']);
    const events = await runTurn(host);
    const end = ofType(events, 'tool/end')[0]!;
    // The stable fields stay as they were; the words are MCP's.
    expect(end).toMatchObject({
      ok: false,
      error: { reason: 'device_offline' },
      outcome: 'not_sent',
      reaches: 'the MCP server mcp-everything',
    });
    expect(end.error?.detail).toMatch(
      /^the MCP server mcp-everything is not connected \(.*\): nothing was sent to it, so mcp__everything__echo did not run$/,
    );
    expect(describeCallOutcome(end.outcome, end.ok, end.reaches)).toEqual({
      label: 'not sent',
      meaning: 'nothing reached the MCP server mcp-everything: it did not act',
    });
    // What the CLI shows of the call, and what the model reads of it.
    const records = foldCallRecords(emptyCallRecords, events);
    const row = Object.values(records.batches)[0]!.calls[0]!;
    const line = formatCallRow(row, Date.now());
    expect(line).toContain('nothing reached the MCP server mcp-everything: it did not act');
    expect(line).not.toMatch(/device/);
    const tool = host.store.loadMessages(events[0]!.conversationId).find((message) => message.role === 'tool');
    expect(tool?.content).toContain('Nothing was sent to the MCP server mcp-everything: it did not act.');
    expect(tool?.content).not.toMatch(/the device/);
  });
});
