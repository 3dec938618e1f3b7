// A server's question during a call, as the host puts it to the person's window (elicitation), and
// a server's progress on the call's row: against the probe server over stdio, through a real host.
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import type { HostNotice } from '../../../../host/contract/api-contract.ts';
import type { Host } from '../../../../host/app/create-host.ts';
import { ApiError } from '../../../../host/api/api-error.ts';
import { probeEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
  connectionOf,
  mcpDataDir,
  probeDeclarations,
  probeTool,
  startMcpHost,
} from '../../../helpers/mcp/mcp-host-rig.ts';
import { stderrWhen } from '../../../helpers/mcp/stderr-when.ts';
import type { McpConnection } from '../../../../host/plugins/mcp/mcp-connection.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The defaults of the probe's `ask` form, as test/helpers/mcp/probe-mcp-server.mjs declares them. */
const ASK_DEFAULTS = { room: 'kitchen', brightness: 40, fade: true, note: 'evening', lamps: ['desk'] };

async function probeHost(replies: Parameters<typeof startMcpHost>[1]['replies'] = []) {
  const dataDir = mcpDataDir(cleanups);
  const { file } = probeDeclarations(dataDir, [probeTool('ask'), probeTool('progress')]);
  const started = await startMcpHost(cleanups, {
    dataDir,
    servers: { probe: probeEntry(file) },
    approvalPolicy: 'allow',
    replies,
  });
  return { ...started, connection: connectionOf(started.host, 'mcp-probe') };
}

/** The next notice of `type` the host sends its front ends (on the notice, never on a timer). */
function nextNotice<T extends HostNotice['type']>(host: Host, type: T): Promise<Extract<HostNotice, { type: T }>> {
  return new Promise((resolve) => {
    const stop = host.notices.subscribe((notice) => {
      if (notice.type !== type) return;
      stop();
      resolve(notice as Extract<HostNotice, { type: T }>);
    });
  });
}

/** The error a handler throws (synchronously or not); fails the test when it answers. */
async function refused(call: () => unknown): Promise<ApiError> {
  try {
    await call();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('the answer was taken');
}

/** The probe's line saying what it was answered, once it has written it. */
async function answerSeen(connection: McpConnection): Promise<string> {
  return /answered .*/.exec(await stderrWhen(connection, /answered .*/))![0];
}

describe('a server’s question during a call, put to the person', () => {
  it('is declined at once when no window or browser is open, and no front end is told', async () => {
    const { host, connection, notices } = await probeHost();
    expect(host.elicitations.hasFrontEnd()).toBe(false);
    await callTool(host, 'mcp__probe__ask', {});
    expect(await answerSeen(connection)).toBe('answered {"action":"decline"}');
    expect(notices.filter((notice) => notice.type.startsWith('elicitation/'))).toEqual([]);
  });

  it('shows the form with its defaults as the server’s, and sends the person’s values with the defaults of fields left out', async () => {
    const { host, connection } = await probeHost();
    host.elicitations.frontEndOpened();
    const asked = nextNotice(host, 'elicitation/request');
    const call = callTool(host, 'mcp__probe__ask', { message: 'Dim the lamps?' });
    const question = await asked;
    expect(question).toMatchObject({ plugin: 'mcp-probe', message: 'Dim the lamps?', defaults: ASK_DEFAULTS });
    expect((await host.handlers['elicitations/list']({})).questions.map((open) => open.id)).toEqual([question.id]);
    const ended = nextNotice(host, 'elicitation/end');
    expect(
      await host.handlers['elicitation/answer']({ id: question.id, action: 'accept', content: { brightness: 70 } }),
    ).toEqual({ accepted: true });
    expect(await ended).toEqual({ type: 'elicitation/end', id: question.id, action: 'accept' });
    await call;
    const answered = await answerSeen(connection);
    expect(JSON.parse(answered.slice('answered '.length))).toEqual({
      action: 'accept',
      content: { ...ASK_DEFAULTS, brightness: 70 },
    });
    expect((await host.handlers['elicitations/list']({})).questions).toEqual([]);
  });

  it('refuses values that do not fit the form with 400 naming the field, and keeps the question open', async () => {
    const { host, connection } = await probeHost();
    host.elicitations.frontEndOpened();
    const asked = nextNotice(host, 'elicitation/request');
    const call = callTool(host, 'mcp__probe__ask', {});
    const { id } = await asked;
    const refusal = await refused(() =>
      host.handlers['elicitation/answer']({ id, action: 'accept', content: { brightness: 'bright' } }),
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 400, field: 'brightness' });
    expect((refusal as ApiError).message).toMatch(/Brightness must be a number/);
    const tooBright = await refused(() =>
      host.handlers['elicitation/answer']({ id, action: 'accept', content: { brightness: 101, room: 'attic' } }),
    );
    expect((tooBright as ApiError).issues?.map((issue) => issue.path)).toEqual(['room', 'brightness']);
    expect(await host.handlers['elicitation/answer']({ id, action: 'decline' })).toEqual({ accepted: true });
    await call;
    expect(await answerSeen(connection)).toBe('answered {"action":"decline"}');
    expect(await host.handlers['elicitation/answer']({ id, action: 'cancel' })).toMatchObject({ accepted: false });
  });

  it('ends with elicitation/end "withdrawn" when Stop cancels the call that asked it', async () => {
    const { host } = await probeHost([{ toolCalls: [{ name: 'mcp__probe__ask', args: {} }] }, { text: 'stopped' }]);
    host.elicitations.frontEndOpened();
    const asked = nextNotice(host, 'elicitation/request');
    const turn = host.agent.runTurn({ conversationId: 'ask-then-stop', text: 'go' });
    const { id } = await asked;
    const ended = nextNotice(host, 'elicitation/end');
    expect(await host.handlers['chat/abort']({ conversationId: 'ask-then-stop' })).toEqual({ aborted: true });
    expect(await ended).toEqual({ type: 'elicitation/end', id, action: 'withdrawn' });
    await turn.catch(() => undefined);
    expect(host.elicitations.list()).toEqual([]);
  });

  it('holds the call’s timeout while the person answers, and gives it back in full after', async () => {
    const { host } = await probeHost([{ toolCalls: [{ name: 'mcp__probe__ask', args: {} }] }, { text: 'done' }]);
    await host.handlers['settings/set']({ key: 'toolTimeoutMs', value: 500 });
    host.elicitations.frontEndOpened();
    const asked = nextNotice(host, 'elicitation/request');
    const ends: AgentEvent[] = [];
    host.events.subscribe((event) => event.type === 'tool/end' && ends.push(event));
    const turn = host.agent.runTurn({ conversationId: 'slow-person', text: 'go' });
    const { id } = await asked;
    // The wait is the point: the call's own timeout passes more than twice while the person reads the form.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await host.handlers['elicitation/answer']({ id, action: 'accept', content: {} })).toEqual({
      accepted: true,
    });
    await turn;
    expect(ends).toMatchObject([{ name: 'mcp__probe__ask', ok: true }]);
  });

  it('is declined once the last window closes', async () => {
    const { host, connection } = await probeHost();
    const closeWindow = host.elicitations.frontEndOpened();
    const closeBrowser = host.elicitations.frontEndOpened();
    closeWindow();
    closeWindow();
    expect(host.elicitations.hasFrontEnd()).toBe(true);
    closeBrowser();
    await callTool(host, 'mcp__probe__ask', {});
    expect(await answerSeen(connection)).toBe('answered {"action":"decline"}');
  });
});

describe('a server’s progress during a call', () => {
  it('reaches the front ends as tool/progress, at most 10 a second, and is never journaled', async () => {
    const { host } = await probeHost([
      { toolCalls: [{ name: 'mcp__probe__progress', args: { steps: 50 } }] },
      { text: 'stopped' },
    ]);
    const progress: Extract<AgentEvent, { type: 'tool/progress' }>[] = [];
    const last = new Promise<void>((resolve) =>
      host.events.subscribe((event) => {
        if (event.type !== 'tool/progress') return;
        progress.push(event);
        if (event.progress === 50) resolve();
      }),
    );
    const turn = host.agent.runTurn({ conversationId: 'progressing', text: 'go' });
    await last;
    await host.handlers['chat/abort']({ conversationId: 'progressing' });
    await turn.catch(() => undefined);
    // The server sent 50 at once: the first is passed on at once, the latest when its turn comes.
    expect(progress[0]).toMatchObject({ progress: 1, total: 50, message: 'step 1 of 50' });
    expect(progress.at(-1)).toMatchObject({ progress: 50, total: 50, message: 'step 50 of 50' });
    const spanMs = progress.at(-1)!.at - progress[0]!.at;
    expect(progress.length).toBeLessThanOrEqual(1 + Math.ceil(spanMs / 100) + 1);
    expect(progress.length).toBeLessThan(50);
    const { events } = await host.handlers['conversations/events']({ conversationId: 'progressing' });
    expect(events.some((event) => event.type === 'tool/end')).toBe(true);
    expect(events.filter((event) => event.type === 'tool/progress')).toEqual([]);
  });
});
