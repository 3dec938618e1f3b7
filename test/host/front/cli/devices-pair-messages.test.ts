import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findExecutable } from '../../../../host/devices/find-executable.ts';
import { runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';

const hasSocat = findExecutable('socat') !== undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `home-agent-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('home-agent devices pair: what it says', () => {
  it('asks for the PATH of a port from devices scan when none is given, not for a device id', async () => {
    const run = await runCli(['devices', 'pair', '--data-dir', tempDir('data')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'devices pair needs the PATH of a port: `home-agent devices scan` lists them (and a running home-agent sim prints its own)',
    );
    expect(run.stderr).not.toContain('device id');
  });

  it('says at once that a port is not there, for a Modbus unit too, instead of blaming the bus settings', async () => {
    const missing = path.join(tempDir('ports'), 'ttyUSB7');
    for (const extra of [[], ['--profile', 'eastron-sdm120', '--unit', '1']]) {
      const run = await runCli(['devices', 'pair', missing, ...extra, '--yes', '--data-dir', tempDir('data')]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `home-agent devices: no such port ${missing} (is it plugged in? \`home-agent devices scan\` lists the ports it finds)\n`,
      );
    }
  });

  describe.skipIf(!hasSocat)(`a board that speaks plain lines${hasSocat ? '' : ' (skipped: socat)'}`, () => {
    it('is paired with the profile it needs named, not "is not valid JSON"', { timeout: 90_000 }, async () => {
      const index = tempDir('sim-index');
      const sim = await startSimProcess({ kinds: ['relay'], env: { HOME_AGENT_SIM_INDEX: index } });
      cleanups.push(() => sim.stop());
      const relay = sim.devices[0]!.path;
      const announced = await runCli(['devices', 'pair', relay, '--yes', '--data-dir', tempDir('data')], {
        env: { HOME_AGENT_SIM_INDEX: index },
      });
      expect(announced.code).toBe(1);
      expect(announced.stderr).toBe(
        `home-agent devices: ${relay} does not speak Home Agent's JSON protocol (it answered "ERROR:unkn…"): it is a simulated board that speaks plain lines. Pair it with: home-agent devices pair ${relay} --profile at-relay-4\n`,
      );
      // A board no simulator announced: the profiles there are.
      const unknown = await runCli(['devices', 'pair', relay, '--yes', '--data-dir', tempDir('data')], {
        env: { HOME_AGENT_SIM_INDEX: tempDir('other-index') },
      });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe(
        `home-agent devices: ${relay} does not speak Home Agent's JSON protocol (it answered "ERROR:unkn…"). Pair a board that speaks plain lines with its profile (--profile at-relay-4, or --profile FILE), a Modbus device with --profile eastron-sdm120|relay-8 --unit N.\n`,
      );
    });
  });
});
