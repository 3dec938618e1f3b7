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

/** The words of a shell command line as the shell gives them (double quotes only, as the help writes them). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((found) => found[1] ?? found[2]!);
}

describe.skipIf(!hasSocat)(
  `ask --help's relay example${hasSocat ? '' : ' (skipped: apt-get install -y socat)'}`,
  () => {
    it(
      'works with the default (demo) model against the simulated relay board on a pseudo-terminal',
      { timeout: 90_000 },
      async () => {
        const help = await runCli(['ask', '--help']);
        const example = help.stdout.split('\n').find((line) => line.includes('profile=at-relay-4'));
        expect(example?.trim()).toBe(
          'home-agent ask --device /dev/ttyUSB0,profile=at-relay-4 --approve-all "switch relay 1 on"',
        );
        const sim = await startSimProcess({ kinds: ['relay'] });
        cleanups.push(() => sim.stop());
        const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-data-'));
        cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
        const args = shellWords(example!.trim())
          .slice(1)
          .map((word) => word.replace('/dev/ttyUSB0', sim.devices[0]!.path));
        const run = await runCli(args, { env: { HOME_AGENT_DATA_DIR: dataDir, HOME_AGENT_NO_OLLAMA_PROBE: '1' } });
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain('Switching relay-1 channel 1 on.');
        expect(run.stdout).toContain('Done.\n- relay-1 channel 1 is on');
        expect(await sim.waitForState('relay-1', (state) => (state.channels as boolean[])[0] === true)).toEqual({
          channels: [true, false, false, false],
        });
      },
    );
  },
);
