import { afterEach, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeWithPymodbus, relayCoils } from '../../../helpers/modbus-rig.ts';
import { jsonLines, REPO_ROOT, runCli } from '../../../helpers/run-cli.ts';
import { startPymodbus } from '../../../helpers/start-pymodbus.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Sets `confirm_switching` in the profile file as a person editing it would. */
function editProfile(file: string, confirmSwitching: boolean): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...profile, confirm_switching: confirmSwitching }, null, 2)}\n`);
}

describeWithPymodbus('a Modbus profile file edited after pairing', () => {
  it('holds the relay board until the person trusts the edit, and applies an edit that asks again at once', async () => {
    const modbus = await startPymodbus({ buses: [{ units: { 1: relayCoils() } }] });
    cleanups.push(() => modbus.close());
    const port = modbus.paths[0]!;
    const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-pinned-profile-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // The shipped relay board profile, which asks before each switch, as the person's own file.
    const file = path.join(dir, 'relay.json');
    copyFileSync(path.join(REPO_ROOT, 'devices/modbus/profiles/relay-8.json'), file);
    const cli = (args: string[]) => runCli([...args, '--data-dir', dir], { cwd: dir });
    const coil = async (address: number) =>
      (await modbus.command({ op: 'get', bus: 0, unit: 1, table: 'co', address, count: 1 })).values?.[0];
    const switchOn = async (channel: number) => {
      const script = path.join(dir, `script-${channel}.json`);
      writeFileSync(
        script,
        JSON.stringify({
          replies: [{ toolCalls: [{ name: 'relay__set', args: { channel, on: true } }] }, { text: 'ok' }],
        }),
      );
      // No terminal and no --approve-all: a call that needs the person is denied, one that does not runs.
      const run = await cli(['ask', '--provider', 'scripted', '--script', script, '--json', 'switch it']);
      return jsonLines(run.stdout).find((event) => event.type === 'tool/end');
    };

    // Typed relative to the folder it is in: stored absolute.
    const paired = await cli(['devices', 'pair', port, '--profile', 'relay.json', '--unit', '1', '--yes']);
    expect(paired.code).toBe(0);
    const id = /id (\S+), kind relay/.exec(paired.stdout)![1]!;
    const listed = JSON.parse((await cli(['devices', 'list', '--json'])).stdout) as { profile: string }[];
    expect(listed.map((device) => device.profile)).toEqual([file]);
    expect((await cli(['devices', 'grant', id, 'set'])).code).toBe(0);
    expect(await switchOn(1)).toMatchObject({ ok: false, error: { reason: 'denied' } });

    editProfile(file, false);
    const refused = await switchOn(1);
    expect(refused).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
    expect(JSON.stringify(refused)).toContain('set: no longer asks you before each use');
    expect(await coil(0)).toBe(0);

    const confirmed = await cli(['devices', 'confirm', id, '--yes']);
    expect(confirmed.stdout).toContain(
      'declares otherwise than when it was paired:\n    set: no longer asks you before each use',
    );
    expect(confirmed.code).toBe(0);
    // The person agreed to the edit: switching no longer asks.
    expect(await switchOn(1)).toMatchObject({ ok: true });
    expect(await coil(0)).toBe(1);

    editProfile(file, true);
    expect(await switchOn(2)).toMatchObject({ ok: false, error: { reason: 'denied' } });
    expect(await coil(1)).toBe(0);
  }, 180_000);
});
