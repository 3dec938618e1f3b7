import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(dataDir: string): Promise<Host> {
  const host = await createHost({
    dataDir,
    transport: 'cli',
    model: new ScriptedModel({ replies: [] }),
    attachDevices: () =>
      attachDevices({ sim: true, simLatencyMs: 0, devices: [], log: () => {}, signal: new AbortController().signal }),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

const context = () => ({ conversationId: 'c1', caller: 'agent', signal: AbortSignal.timeout(20_000) });

const eveningScene = {
  name: 'evening_scene',
  description: 'Both lamps on and a reading, then the reading on the display.',
  groups: [
    {
      id: 'first',
      calls: [
        { tool: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
        { tool: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
        { tool: 'thermometer__read', args: { device_id: 'thermometer-1' }, slot: 'reading' },
      ],
    },
    {
      id: 'then',
      calls: [
        {
          tool: 'display__show',
          args: { device_id: 'display-1', text: 'warm' },
          when: 'reading.ok && reading.result.result.celsius > 20',
        },
      ],
    },
  ],
};

describe('sequences in the host', () => {
  it('saves a sequence in SQLite, keeps it across a restart, and runs it through the devices', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-seq-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await open(dataDir);
    expect(await first.toolApi.call(context(), 'seq_save', eveningScene)).toMatchObject({ ok: true });
    await first.dispose();

    const host = await open(dataDir);
    const run = await host.toolApi.call(context(), 'seq_run', { name: 'evening_scene' });
    expect(run.ok).toBe(true);
    const report = (run as { value: { ok: boolean; groups: { id: string; calls: { status: string }[] }[] } }).value;
    expect(report.ok).toBe(true);
    expect(report.groups.map((group) => [group.id, group.calls.map((call) => call.status)])).toEqual([
      ['first', ['ok', 'ok', 'ok']],
      ['then', ['ok']],
    ]);
    const lamp = await host.toolApi.call(context(), 'lamp__get', { device_id: 'lamp-2' });
    expect(lamp).toMatchObject({ ok: true, value: { result: { on: true } } });
  });

  it('refuses, at save, a sequence that would message the outside world', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-seq-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const host = await open(dataDir);
    const saved = await host.toolApi.call(context(), 'seq_save', {
      name: 'spam',
      description: 'Sends a notification.',
      groups: [{ id: 'only', calls: [{ tool: 'output_send__notifications', args: { text: 'hi' } }] }],
    });
    expect(saved).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
  });
});

describe('the sequence budget settings', () => {
  it('stop a run at the stored sequenceMaxCalls, read at every run (the table is where the limit lives)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-seq-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const host = await open(dataDir);
    expect(await host.toolApi.call(context(), 'seq_save', eveningScene)).toMatchObject({ ok: true });
    await host.handlers['settings/set']({ key: 'sequenceMaxCalls', value: 2 });
    const run = await host.toolApi.call(context(), 'seq_run', { name: 'evening_scene' });
    expect(run).toMatchObject({ ok: false, error: { reason: 'failed' } });
    expect(JSON.stringify(run)).toContain('reached its budget of 2 calls per run');

    await host.handlers['settings/set']({ key: 'sequenceMaxCalls' });
    expect(await host.toolApi.call(context(), 'seq_run', { name: 'evening_scene' })).toMatchObject({ ok: true });
  });

  it('give seq_run a timeout just over the stored wall time', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-seq-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const host = await open(dataDir);
    await host.handlers['settings/set']({ key: 'sequenceWallTimeMs', value: 7000 });
    const run = host.plugins.enabledTools().find((tool) => tool.name === 'seq_run');
    expect(run?.timeoutMs).toBe(12_000);
  });
});
