import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { askScripted, jsonLines, runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a device that speaks plain lines (AT relay board)', () => {
  it('pairs through its line profile, and switching a relay needs approval', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-relay-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const sim = await startSimProcess({ kinds: ['relay'] });
    cleanups.push(() => sim.stop());
    const relay = sim.devices[0]!;

    const paired = await runCli(['devices', 'pair', relay.path, '--profile', 'at-relay-4', '--yes', '--data-dir', dir]);
    expect(paired.stdout).toContain('id relay-1, kind relay, model AT-RELAY-4');
    expect(paired.code).toBe(0);
    expect((await runCli(['devices', 'grant', 'relay-1', '--all', '--data-dir', dir])).code).toBe(0);
    expect((await runCli(['devices', 'list', '--data-dir', dir])).stdout).toContain('(profile at-relay-4)');

    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        replies: [
          { toolCalls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 2, on: true } }] },
          { text: 'ok' },
        ],
      }),
    );
    const unattended = await askScripted({ script, dataDir: dir }, 'garden lights on');
    expect(jsonLines(unattended.stdout).find((event) => event.type === 'tool/end')).toMatchObject({
      ok: false,
      error: { reason: 'denied' },
    });

    const approved = await askScripted({ script, dataDir: dir, args: ['--approve-all'] }, 'garden lights on');
    expect(jsonLines(approved.stdout).find((event) => event.type === 'tool/end')).toMatchObject({
      ok: true,
      result: { device_id: 'relay-1', result: { channel: 2, on: true } },
    });
    expect(await sim.waitForState('relay-1', (state) => (state.channels as boolean[])[1] === true)).toEqual({
      channels: [false, true, false, false],
    });
  });
});
