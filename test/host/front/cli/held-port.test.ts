import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost } from '../../../../host/app/start-host.ts';
import { readCommonFlags } from '../../../../host/front/command-line/common-flags.ts';
import { explainHeldPort } from '../../../../host/devices/held-port.ts';
import { findExecutable } from '../../../../host/devices/find-executable.ts';
import { runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { devicesWhen } from '../../devices/host-rig.ts';

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

describe('explainHeldPort', () => {
  const serve = {
    pid: 4242,
    command: 'npm start (home-agent serve)',
    devices: [{ id: 'lamp-3', path: '/tmp/sims/sim-1/lamp-1' }],
  };
  const failure =
    'lamp-3 has not come online yet (/tmp/sims/sim-1/lamp-1: open failed: Error: Error Resource temporarily unavailable Cannot lock port)';

  it('names the Home Agent process that announced the port, and what to do', () => {
    expect(explainHeldPort({ text: failure, hosts: [serve], device: 'lamp-3' })).toBe(
      'lamp-3 cannot be opened here: its port /tmp/sims/sim-1/lamp-1 is held by another Home Agent process, pid 4242 (npm start (home-agent serve)). Use that one (its window, or the address it printed), or stop it (Ctrl+C where it runs, or kill 4242) and try again.',
    );
  });

  it('says another program holds it when no running host announced the port', () => {
    expect(explainHeldPort({ text: failure, hosts: [], device: 'lamp-3' })).toBe(
      'lamp-3 cannot be opened here: another program holds its port /tmp/sims/sim-1/lamp-1 (Cannot lock port). Close that program (a serial monitor, another Home Agent) and try again.',
    );
  });

  it('leaves every other failure alone', () => {
    expect(explainHeldPort({ text: 'lamp-3 has not come online yet', hosts: [serve] })).toBeUndefined();
  });
});

describe.skipIf(!hasSocat)(
  `a port held by a running host${hasSocat ? '' : ' (skipped: apt-get install -y socat)'}`,
  // Several processes each: node starts slowly on two shared cores.
  { timeout: 90_000 },
  () => {
    it('makes ask and devices pair name that host (pid, command) and say what to do', async () => {
      const index = tempDir('sim-index');
      const dataDir = tempDir('data');
      const sim = await startSimProcess({ kinds: ['lamp'], env: { HOME_AGENT_SIM_INDEX: index } });
      cleanups.push(() => sim.stop());
      const lamp = sim.devices[0]!;
      const environment = { HOME_AGENT_SIM_INDEX: index, HOME_AGENT_NO_OLLAMA_PROBE: '1' };
      for (const args of [
        ['devices', 'pair', lamp.path, '--yes'],
        ['devices', 'grant', 'lamp-1', 'set', 'get'],
      ]) {
        const run = await runCli([...args, '--data-dir', dataDir], { env: environment });
        expect(run.code, run.stderr).toBe(0);
      }
      // The running host: serve's own boot, in this process (another process, seen from the CLI below).
      process.env.HOME_AGENT_SIM_INDEX = index;
      cleanups.push(() => void delete process.env.HOME_AGENT_SIM_INDEX);
      const controller = new AbortController();
      const host = await startHost({
        ...readCommonFlags({ 'data-dir': dataDir, provider: 'demo' }),
        transport: 'web',
        command: 'home-agent serve',
        log: () => {},
        signal: controller.signal,
      });
      cleanups.push(() => host.dispose());
      await devicesWhen(host, (devices) => devices[0]?.online === true);

      const asked = await runCli(['ask', '--data-dir', dataDir, '--provider', 'demo', 'turn on lamp 1'], {
        env: environment,
      });
      const holder = `is held by another Home Agent process, pid ${process.pid} (home-agent serve). Use that one (its window, or the address it printed), or stop it (Ctrl+C where it runs, or kill ${process.pid}) and try again.`;
      expect(asked.stdout).toContain(
        `not sent: device_offline: lamp-1 cannot be opened here: its port ${lamp.path} ${holder}`,
      );
      expect(asked.stdout).not.toContain('Cannot lock port');

      const paired = await runCli(['devices', 'pair', lamp.path, '--yes', '--data-dir', tempDir('data')], {
        env: environment,
      });
      expect(paired.code).toBe(1);
      expect(paired.stderr).toBe(
        `home-agent devices: ${lamp.path} cannot be opened here: its port ${lamp.path} ${holder}\n`,
      );
    });
  },
);
