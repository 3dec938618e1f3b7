import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { ApiError } from '../../../../host/api/api-error.ts';
import { everythingStdioEntry, probeEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
  connectionOf,
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

const asked = (events: AgentEvent[]) =>
  events.filter((event) => event.type === 'approval/request').map((event) => (event as { name: string }).name);
const why = (events: AgentEvent[]) =>
  events.filter((event) => event.type === 'approval/end').map((event) => (event as { why: string }).why);

const lookup = probeTool('lookup', { annotations: { readOnlyHint: true } });
const act = probeTool('act', { annotations: { readOnlyHint: false } });

/** A host with the probe server offering `lookup` (read-only) and `act`, and turns that call each. */
async function probeHost(turns: string[]) {
  const dir = mcpDataDir(cleanups);
  const declarations = probeDeclarations(dir, [lookup, act]);
  const started = await startMcpHost(cleanups, {
    servers: { probe: probeEntry(declarations.file) },
    replies: turns.flatMap((tool) => [{ toolCalls: [{ name: `mcp__probe__${tool}`, args: {} }] }, { text: 'done' }]),
  });
  /** Changes the declarations and has the server say so (tools/list_changed); resolves once listed again. */
  const change = async (tools: unknown[]): Promise<void> => {
    declarations.write(tools);
    const connection = connectionOf(started.host, 'mcp-probe');
    const relisted = new Promise<void>((resolve) => {
      const stop = connection.changes.subscribe(() => {
        if (connection.tools.some((tool) => tool.description === (tools[0] as { description: string }).description)) {
          stop();
          resolve();
        }
      });
    });
    // The probe's own `reload` (not among its listed tools): called on the connection itself.
    await connection.call({ tool: 'reload', args: {}, signal: AbortSignal.timeout(10_000), onSent: () => {} });
    await relisted;
  };
  return { ...started, declarations, change };
}

describe('trust in an MCP server', () => {
  it('is stored: set-trusted makes its read-only tools run unasked; taking it back makes them ask again', async () => {
    const { host, notices } = await probeHost(['lookup', 'lookup', 'lookup']);
    expect(asked(await runTurn(host, { approved: true }))).toEqual(['mcp__probe__lookup']);
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: true });
    expect(notices).toContainEqual({ type: 'plugins/changed' });
    expect(asked(await runTurn(host))).toEqual([]);
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: false });
    expect(asked(await runTurn(host, { approved: false }))).toEqual(['mcp__probe__lookup']);
    const { plugins } = await host.handlers['plugins/list']({});
    expect(plugins.find((plugin) => plugin.name === 'mcp-probe')).toMatchObject({ trusted: false });
  });

  it('refuses to trust what is not an MCP server’s plugin, and a plugin that does not exist', async () => {
    const { host } = await startMcpHost(cleanups, { servers: { everything: everythingStdioEntry() } });
    await expect(
      Promise.resolve().then(() => host.handlers['plugins/set-trusted']({ name: 'system', trusted: true })),
    ).rejects.toMatchObject({ status: 400 });
    const missing = Promise.resolve().then(() =>
      host.handlers['plugins/set-trusted']({ name: 'mcp-nope', trusted: true }),
    );
    await expect(missing).rejects.toBeInstanceOf(ApiError);
    await expect(missing).rejects.toMatchObject({ status: 404 });
  });

  it('covers only the declarations it was given for: a tool that changes loses it, and its standing approval is revoked', async () => {
    const { host, notices, change } = await probeHost(['act', 'act', 'lookup', 'act']);
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: true });
    // "Always allow" for act (not read-only: it asks even on a trusted server).
    expect(asked(await runTurn(host, { approved: true, remember: true }))).toEqual(['mcp__probe__act']);
    expect(why(await runTurn(host))).toEqual(['standing']);
    expect((await host.handlers['approvals/list']({})).approvals.map((approval) => approval.tool)).toEqual([
      'mcp__probe__act',
    ]);
    notices.length = 0;
    await change([
      { ...lookup, description: 'now it also unlocks the door' },
      { ...act, description: 'now it does something else' },
    ]);
    expect((await host.handlers['approvals/list']({})).approvals).toEqual([]);
    expect(notices).toContainEqual({ type: 'approvals/changed' });
    // The changed read-only tool asks now; so does act, whose standing approval is gone.
    expect(asked(await runTurn(host, { approved: false }))).toEqual(['mcp__probe__lookup']);
    expect(asked(await runTurn(host, { approved: false }))).toEqual(['mcp__probe__act']);
    const { plugins } = await host.handlers['plugins/list']({});
    const probe = plugins.find((plugin) => plugin.name === 'mcp-probe');
    expect(probe?.trusted).toBe(true);
    expect(probe?.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('mcp__probe__lookup is not covered by your trust')]),
    );
    // Trusting again covers the new declarations.
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: true });
    const { plugins: after } = await host.handlers['plugins/list']({});
    expect(after.find((plugin) => plugin.name === 'mcp-probe')?.warnings ?? []).toEqual([]);
  });

  it('is given only to what the person was shown: a declarationHash of tools that changed since is a 409, and trusts nothing', async () => {
    const { host, change } = await probeHost([]);
    const shown = async () =>
      (await host.handlers['plugins/list']({})).plugins.find((plugin) => plugin.name === 'mcp-probe')!;
    const before = await shown();
    expect(before.declarationHash).toMatch(/^[0-9a-f]{64}$/);
    await change([{ ...lookup, description: 'now it also unlocks the door' }, act]);
    const stale = Promise.resolve().then(() =>
      host.handlers['plugins/set-trusted']({
        name: 'mcp-probe',
        trusted: true,
        declarationHash: before.declarationHash,
      }),
    );
    await expect(stale).rejects.toMatchObject({ status: 409, message: expect.stringContaining('changed since') });
    expect((await shown()).trusted).toBe(false);
    const now = await shown();
    expect(now.declarationHash).not.toBe(before.declarationHash);
    expect(
      await host.handlers['plugins/set-trusted']({
        name: 'mcp-probe',
        trusted: true,
        declarationHash: now.declarationHash,
      }),
    ).toEqual({ trusted: true });
    expect((await shown()).trusted).toBe(true);
  });

  it('is lost by a server started another way (another command or arguments under the same name)', async () => {
    const dir = mcpDataDir(cleanups);
    const declarations = probeDeclarations(dir, [lookup]);
    const first = await startMcpHost(cleanups, { dataDir: dir, servers: { probe: probeEntry(declarations.file) } });
    await first.host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: true });
    await first.host.dispose();
    const other = probeDeclarations(dir, [lookup]);
    const second = await startMcpHost(cleanups, { dataDir: dir, servers: { probe: probeEntry(other.file) } });
    const { plugins } = await second.host.handlers['plugins/list']({});
    expect(plugins.find((plugin) => plugin.name === 'mcp-probe')).toMatchObject({ trusted: false });
  });

  it('a vetted tool that loses trust after a turn took its snapshot is refused, not run unasked', async () => {
    const { host } = await probeHost([]);
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: true });
    const tool = host.plugins.enabledTools().find((entry) => entry.name === 'mcp__probe__lookup')!;
    expect(tool).toMatchObject({ parallelSafe: true, needsApproval: false });
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: false });
    expect(await tool.canUse?.({ conversationId: 'c', caller: 'agent' }, {})).toMatchObject({ reason: 'denied' });
  });
});

describe('sequences and MCP tools', () => {
  it('refuse an MCP tool unless its server is trusted and it is read-only, by its declaration', async () => {
    const { host } = await probeHost([]);
    const save = (tool: string) =>
      callTool(host, 'seq_save', {
        name: `with_${tool}`,
        description: 'uses an MCP tool',
        groups: [{ id: 'only', calls: [{ tool: `mcp__probe__${tool}`, args: {} }] }],
      });
    expect(await save('lookup')).toMatchObject({
      ok: false,
      error: { detail: expect.stringContaining('its MCP server mcp-probe is not trusted') },
    });
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: true });
    expect(await save('act')).toMatchObject({
      ok: false,
      error: { detail: expect.stringContaining('does not declare it read-only') },
    });
    expect(await save('lookup')).toMatchObject({ ok: true });
    expect(await callTool(host, 'seq_run', { name: 'with_lookup' })).toMatchObject({ ok: true, value: { ok: true } });
    // Trust taken back: the saved sequence refuses the tool when it runs.
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: false });
    expect(JSON.stringify(await callTool(host, 'seq_run', { name: 'with_lookup' }))).toContain('is not trusted');
  });
});

describe('MCP tools on the ToolAPI path (how plugins reach tools)', () => {
  it('ask the person and run only when allowed, as on the agent’s path; a trusted read-only one runs unasked', async () => {
    const { host } = await probeHost([]);
    const connection = connectionOf(host, 'mcp-probe');
    const sent: string[] = [];
    connection.sent.subscribe(({ tool }) => sent.push(tool));
    let answer = false;
    const questions: string[] = [];
    host.events.subscribe((event) => {
      if (event.type !== 'approval/request') return;
      questions.push(event.name);
      void host.handlers['approval/answer']({ approvalId: event.approvalId!, approved: answer });
    });

    expect(await callTool(host, 'mcp__probe__lookup', {})).toMatchObject({ ok: false, error: { reason: 'denied' } });
    expect(await host.toolApi.canUse({ conversationId: 'test', caller: 'test' }, 'mcp__probe__lookup', {})).toBeNull();
    expect(sent).toEqual([]);
    answer = true;
    expect(await callTool(host, 'mcp__probe__lookup', {})).toEqual({ ok: true, value: 'ran lookup' });
    expect(questions).toEqual(['mcp__probe__lookup', 'mcp__probe__lookup']);
    expect(sent).toEqual(['lookup']);

    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: true });
    expect(await callTool(host, 'mcp__probe__lookup', {})).toEqual({ ok: true, value: 'ran lookup' });
    answer = false;
    expect(await callTool(host, 'mcp__probe__act', {})).toMatchObject({ ok: false, error: { reason: 'denied' } });
    expect(questions).toEqual(['mcp__probe__lookup', 'mcp__probe__lookup', 'mcp__probe__act']);
    expect(sent).toEqual(['lookup', 'lookup']);
  });
});
