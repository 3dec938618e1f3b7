import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { askScripted, jsonLines, runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess, type SimProcess } from '../../../helpers/start-sim-process.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(): Promise<{ dir: string; sim: SimProcess }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-devices-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const sim = await startSimProcess({ kinds: ['lamp', 'lamp'] });
  cleanups.push(() => sim.stop());
  return { dir, sim };
}

describe('home-agent devices', () => {
  it('pairs devices with no grants, and the agent may use exactly what was granted afterwards', async () => {
    const { dir, sim } = await setup();
    const [lamp1, lamp2] = sim.devices;
    for (const device of [lamp1!, lamp2!]) {
      const paired = await runCli(['devices', 'pair', device.path, '--yes', '--data-dir', dir]);
      expect(paired.stdout).toContain(`id ${device.id}, kind lamp`);
      expect(paired.code).toBe(0);
    }
    const listed = await runCli(['devices', 'list', '--json', '--data-dir', dir]);
    expect(
      JSON.parse(listed.stdout).map((device: { identity: { id: string }; grants: string[] }) => [
        device.identity.id,
        device.grants,
      ]),
    ).toEqual([
      ['lamp-1', []],
      ['lamp-2', []],
    ]);
    expect((await runCli(['devices', 'grant', 'lamp-1', 'set', '--data-dir', dir])).code).toBe(0);

    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        replies: [
          {
            toolCalls: [
              { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
              { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
            ],
          },
          { text: 'ok' },
        ],
      }),
    );
    const asked = await askScripted({ script, dataDir: dir }, 'lamps on');
    const ends = jsonLines(asked.stdout)
      .filter((event) => event.type === 'tool/end')
      .sort((a, b) => Number(a.index) - Number(b.index));
    expect(
      ends.map((end) => [end.index, end.ok, (end.error as { reason?: string } | undefined)?.reason]),
      JSON.stringify(ends),
    ).toEqual([
      [0, true, undefined],
      [1, false, 'unauthorized'],
    ]);
    expect(await sim.waitForState('lamp-1', (state) => state.on === true)).toMatchObject({ on: true });
  });

  it('says a device id is not paired with exit 1 and that line alone, not the usage of a wrong command line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-devices-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    for (const args of [
      ['grant', 'lamp-9', 'set'],
      ['revoke', 'lamp-9', 'set'],
      ['confirm', 'lamp-9'],
      ['rename', 'lamp-9', 'Desk'],
    ]) {
      const result = await runCli(['devices', ...args, '--data-dir', dir]);
      expect({ code: result.code, stderr: result.stderr }, args.join(' ')).toEqual({
        code: 1,
        stderr: 'home-agent devices: lamp-9 is not paired (see: home-agent devices list)\n',
      });
    }
  });

  it('forgets a device: its record and grants are gone', async () => {
    const { dir, sim } = await setup();
    await runCli(['devices', 'pair', sim.devices[0]!.path, '--yes', '--alias', 'Desk lamp', '--data-dir', dir]);
    await runCli(['devices', 'grant', 'lamp-1', '--all', '--data-dir', dir]);
    const forgotten = await runCli(['devices', 'forget', 'lamp-1', '--data-dir', dir]);
    expect(forgotten.code).toBe(0);
    const listed = await runCli(['devices', 'list', '--json', '--data-dir', dir]);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it("prints one line a port, PATH SOURCE VENDOR:PRODUCT SERIAL, finding the simulator's ports and paths it was given", async () => {
    const index = mkdtempSync(path.join(tmpdir(), 'home-agent-sim-index-'));
    cleanups.push(() => rmSync(index, { recursive: true, force: true }));
    const sim = await startSimProcess({ kinds: ['lamp'], env: { HOME_AGENT_SIM_INDEX: index } });
    cleanups.push(() => sim.stop());
    const other = await startSimProcess({ kinds: ['thermometer'] });
    cleanups.push(() => other.stop());
    const scanned = await runCli(['devices', 'scan', '--path', other.devices[0]!.path], {
      env: { HOME_AGENT_SIM_INDEX: index },
    });
    expect(scanned.code).toBe(0);
    const lines = scanned.stdout.replace(/\n$/, '').split('\n');
    for (const line of lines) expect(line.split('\t')).toHaveLength(4);
    expect(lines).toContain(`${sim.devices[0]!.path}\tsim\t\t`);
    expect(lines).toContain(`${other.devices[0]!.path}\tpath\t\t`);
    expect(scanned.stderr).toContain('sim = a port of a running home-agent sim');
    expect(scanned.stderr).toContain('Scanning opened no port');
  });
});
