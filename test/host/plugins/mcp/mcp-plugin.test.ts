import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { everythingStdioEntry, probeEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
  mcpDataDir,
  probeDeclarations,
  probeTool,
  runTurn,
  startMcpHost,
} from '../../../helpers/mcp/mcp-host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);

describe('an MCP server as a plugin (server-everything over stdio)', () => {
  it('offers its tools as mcp__everything__*, and its answers become results: text, structured, images', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      approvalPolicy: 'allow',
      replies: [{ toolCalls: [{ name: 'mcp__everything__get-tiny-image', args: {} }] }, { text: 'done' }],
    });
    const { plugins } = await host.handlers['plugins/list']({});
    const plugin = plugins.find((entry) => entry.name === 'mcp-everything');
    expect(plugin).toMatchObject({ enabled: true, status: 'ready', trusted: false });
    expect(plugin?.tools).toEqual(
      expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image']),
    );
    expect(await callTool(host, 'mcp__everything__echo', { message: 'hi' })).toEqual({ ok: true, value: 'Echo: hi' });
    expect(await callTool(host, 'mcp__everything__get-sum', { a: 2, b: 3 })).toEqual({
      ok: true,
      value: 'The sum of 2 and 3 is 5.',
    });
    const structured = await callTool(host, 'mcp__everything__get-structured-content', { location: 'Chicago' });
    expect(structured).toMatchObject({
      ok: true,
      value: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) },
    });
    const events = await runTurn(host);
    const end = ofType(events, 'tool/end')[0];
    expect(end).toMatchObject({ name: 'mcp__everything__get-tiny-image', ok: true, outcome: 'done' });
    const messages = host.store.loadMessages(events[0]!.conversationId);
    const result = messages.find((message) => message.role === 'tool');
    expect(result).toMatchObject({ media: [{ mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) }] });
  });

  it('answers a tool that failed (isError) as failed with the server’s text, and an unknown tool as not_found', async () => {
    const dir = mcpDataDir(cleanups);
    const { file } = probeDeclarations(dir, [
      probeTool('fail', { inputSchema: { type: 'object', properties: { why: { type: 'string' } } } }),
      probeTool('gone', { vanished: true }),
    ]);
    const { host } = await startMcpHost(cleanups, { servers: { probe: probeEntry(file) }, approvalPolicy: 'allow' });
    expect(await callTool(host, 'mcp__probe__fail', { why: 'the pump is jammed' })).toEqual({
      ok: false,
      error: { reason: 'failed', detail: 'the pump is jammed' },
    });
    // The probe answers a tool it does not run with a JSON-RPC error (-32602 "Unknown tool: …").
    const gone = await callTool(host, 'mcp__probe__gone', {});
    expect(gone).toMatchObject({ ok: false, error: { reason: 'not_found' } });
  });
});

describe('trust decides how an MCP server’s tools run', () => {
  it('an untrusted server’s tools ask the person and make the whole batch serial', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      sim: true,
      replies: [
        {
          toolCalls: [
            { name: 'mcp__everything__echo', args: { message: 'a' } },
            { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
          ],
        },
        { text: 'done' },
      ],
    });
    const events = await runTurn(host, { approved: true });
    expect(ofType(events, 'batch/start')[0]).toMatchObject({
      mode: 'serial',
      reason: expect.stringContaining('mcp__everything__echo is a tool of an MCP server you have not trusted'),
    });
    expect(ofType(events, 'approval/request').map((event) => event.name)).toEqual(['mcp__everything__echo']);
    expect(ofType(events, 'batch/end')[0]).toMatchObject({ executed: 2 });
  });

  it('a trusted read-only tool runs unasked and in parallel with device calls; executed counts every call', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      sim: true,
      replies: [
        {
          toolCalls: [
            { name: 'mcp__everything__echo', args: { message: 'a' } },
            { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
            { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
            { name: 'mcp__everything__get-sum', args: { a: 1, b: 2 } },
          ],
        },
        { text: 'done' },
      ],
    });
    expect(await host.handlers['plugins/set-trusted']({ name: 'mcp-everything', trusted: true })).toEqual({
      trusted: true,
    });
    const events = await runTurn(host);
    expect(ofType(events, 'approval/request')).toEqual([]);
    expect(ofType(events, 'batch/start')[0]).toMatchObject({ mode: 'parallel' });
    // In index order (they end in any order: they ran at once).
    const ends = ofType(events, 'tool/end').sort((a, b) => a.index - b.index);
    expect(ends.map((event) => [event.name, event.outcome])).toEqual([
      ['mcp__everything__echo', 'done'],
      ['lamp__set', 'done'],
      ['lamp__set', 'done'],
      ['mcp__everything__get-sum', 'done'],
    ]);
    expect(ofType(events, 'batch/end')[0]).toMatchObject({ executed: 4 });
    // All four were under way together: every call started before the first one ended.
    const lastStart = events.findLastIndex((event) => event.type === 'tool/start');
    expect(lastStart).toBeLessThan(events.findIndex((event) => event.type === 'tool/end'));
  });

  it('on a trusted server, a tool without readOnlyHint keeps asking', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      replies: [{ toolCalls: [{ name: 'mcp__everything__toggle-simulated-logging', args: {} }] }, { text: 'done' }],
    });
    await host.handlers['plugins/set-trusted']({ name: 'mcp-everything', trusted: true });
    const events = await runTurn(host, { approved: false });
    expect(ofType(events, 'approval/request').map((event) => event.name)).toEqual([
      'mcp__everything__toggle-simulated-logging',
    ]);
    expect(ofType(events, 'tool/end')[0]).toMatchObject({ ok: false, outcome: 'not_sent' });
  });
});
