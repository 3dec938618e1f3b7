import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-host-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function open(dir: string): Promise<Host> {
  const host = await createHost({
    dataDir: dir,
    transport: 'cli',
    model: new ScriptedModel({ replies: [{ text: 'ok' }, { text: 'ok' }] }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

async function headerTools(host: Host): Promise<string[] | undefined> {
  const events: AgentEvent[] = [];
  const unsubscribe = host.events.subscribe((event) => events.push(event));
  await host.agent.runTurn({ conversationId: 'c1', text: 'hi' });
  unsubscribe();
  const header = events.find((event) => event.type === 'request/header');
  return header?.type === 'request/header' ? header.tools : undefined;
}

describe('host settings and plugin state', () => {
  it('sends tools in plain code-unit order when no toolOrder is stored, and in the stored order once set', async () => {
    const host = await open(dataDir());
    expect(host.settingsStore.get('toolOrder')).toBeUndefined();
    expect(await headerTools(host)).toEqual([
      'output_list_channels',
      'output_send__chat',
      'output_send__notifications',
      'seq_check',
      'seq_delete',
      'seq_list',
      'seq_run',
      'seq_save',
      'seq_show',
      'system_list_tools',
    ]);
    await host.handlers['settings/set']({
      key: 'toolOrder',
      value: ['system_list_tools', '<unlisted-tools>', 'output_list_channels'],
    });
    expect(await headerTools(host)).toEqual([
      'system_list_tools',
      'output_send__chat',
      'output_send__notifications',
      'seq_check',
      'seq_delete',
      'seq_list',
      'seq_run',
      'seq_save',
      'seq_show',
      'output_list_channels',
    ]);
  });

  it('warns before disabling a plugin whose tools toolOrder names, applies on confirm, and keeps the state across a restart', async () => {
    const dir = dataDir();
    const host = await open(dir);
    await host.handlers['settings/set']({ key: 'toolOrder', value: ['system_list_tools', '<unlisted-tools>'] });
    const refused = await host.handlers['plugins/set-enabled']({ name: 'system', enabled: false });
    expect(refused.applied).toBe(false);
    expect(refused.warning).toContain("'system_list_tools'");
    const applied = await host.handlers['plugins/set-enabled']({ name: 'system', enabled: false, confirm: true });
    expect(applied).toEqual({ applied: true });
    await host.dispose();
    const reopened = await open(dir);
    const listed = await reopened.handlers['plugins/list']({});
    expect(listed.plugins.find((plugin) => plugin.name === 'system')?.enabled).toBe(false);
    // The stored toolOrder now names a tool no enabled plugin provides: the turn fails at assembly.
    const events: AgentEvent[] = [];
    reopened.events.subscribe((event) => events.push(event));
    const outcome = await reopened.agent.runTurn({ conversationId: 'c2', text: 'hi' });
    expect(outcome.reason).toBe('error');
    expect(events.map((event) => event.type)).toEqual(['turn/start', 'agent/error', 'turn/end']);
  });

  it('disables a plugin that toolOrder does not name without a warning', async () => {
    const host = await open(dataDir());
    expect(await host.handlers['plugins/set-enabled']({ name: 'system', enabled: false })).toEqual({ applied: true });
    expect(await headerTools(host)).toEqual([
      'output_list_channels',
      'output_send__chat',
      'output_send__notifications',
      'seq_check',
      'seq_delete',
      'seq_list',
      'seq_run',
      'seq_save',
      'seq_show',
    ]);
  });
});
