import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { dispatchApiCall } from '../../../host/api/dispatch-api-call.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openHost(replies: { text?: string; toolCalls?: { name: string }[] }[]): Promise<Host> {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-conversations-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const host = await createHost({
    dataDir: dir,
    transport: 'web',
    model: new ScriptedModel({ replies }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

const call = (host: Host, method: string, input: unknown) => dispatchApiCall(host.handlers, method, input);

describe('conversations through the API', () => {
  it('exist from the first message, titled from it; "New conversation" alone stores nothing', async () => {
    const host = await openHost([{ text: 'ok' }]);
    expect(await call(host, 'conversations/list', {})).toEqual({ conversations: [] });
    const { conversationId } = (await call(host, 'chat/send', { text: 'Turn on the hall lamp\nplease' })) as {
      conversationId: string;
    };
    await host.agent.whenIdle();
    expect(await call(host, 'conversations/list', {})).toEqual({
      conversations: [expect.objectContaining({ id: conversationId, title: 'Turn on the hall lamp' })],
    });
  });

  it('renames, refusing an empty title with a message for the person and an unknown id with 404', async () => {
    const host = await openHost([{ text: 'ok' }]);
    await host.agent.runTurn({ conversationId: 'c1', text: 'first' });
    expect(
      await call(host, 'conversations/rename', { conversationId: 'c1', title: '  Evening lights ' }),
    ).toMatchObject({
      id: 'c1',
      title: 'Evening lights',
    });
    await expect(call(host, 'conversations/rename', { conversationId: 'c1', title: '   ' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('a title has at least one character'),
    });
    await expect(call(host, 'conversations/rename', { conversationId: 'nope', title: 'x' })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('deletes a conversation with its messages and journal, and refuses while a turn runs in it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: ToolDefinition = {
      name: 'slow',
      description: 'waits',
      parameters: { type: 'object', properties: {} },
      handler: () => held,
    };
    const host = await openHost([{ toolCalls: [{ name: 'slow' }] }, { text: 'done' }, { text: 'other' }]);
    host.plugins.register({ name: 'test', description: 'test', tools: () => [slow] });
    const running = host.agent.runTurn({ conversationId: 'c1', text: 'wait' });
    await expect.poll(() => host.agent.isBusy('c1')).toBe(true);
    await expect(call(host, 'conversations/delete', { conversationId: 'c1' })).rejects.toMatchObject({ status: 409 });
    release();
    await running;
    await host.agent.runTurn({ conversationId: 'c2', text: 'keep me' });
    expect(await call(host, 'conversations/delete', { conversationId: 'c1' })).toEqual({ deleted: true });
    expect(host.store.loadEvents('c1')).toEqual([]);
    expect(host.store.loadMessages('c1')).toEqual([]);
    expect(host.store.listConversations().map((entry) => entry.id)).toEqual(['c2']);
    expect(host.store.loadEvents('c2').length).toBeGreaterThan(0);
    await expect(call(host, 'conversations/delete', { conversationId: 'c1' })).rejects.toMatchObject({ status: 404 });
  });

  it('finds conversations by title or by what was said, not by tool output or JSON keys', async () => {
    const host = await openHost([{ text: 'The porch light is on.' }, { text: 'ok' }, { text: 'ok' }]);
    await host.agent.runTurn({ conversationId: 'porch', text: 'switch the porch light' });
    await host.agent.runTurn({ conversationId: 'kitchen', text: 'Kitchen: 100% brightness_max' });
    await host.agent.runTurn({ conversationId: 'other', text: 'what is the weather' });
    const ids = async (query: string) =>
      ((await call(host, 'conversations/search', { query })) as { conversations: { id: string }[] }).conversations
        .map((entry) => entry.id)
        .sort();
    expect(await ids('PORCH')).toEqual(['porch']);
    expect(await ids('is on')).toEqual(['porch']);
    // LIKE's own wildcards are searched for literally.
    expect(await ids('100%')).toEqual(['kitchen']);
    expect(await ids('s_max')).toEqual(['kitchen']);
    expect(await ids('%')).toEqual(['kitchen']);
    expect(await ids('role')).toEqual([]);
    await expect(call(host, 'conversations/search', { query: ' ' })).rejects.toMatchObject({ status: 400 });
  });
});
