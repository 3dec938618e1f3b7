import { expect, test, type Page } from '@playwright/test';
import { makeHostFolder, type HostFolder, type ScriptedReply } from './scripted-replies.ts';
import { startHost, type RunningHost } from './start-host.ts';
import { watchForPageProblems } from './watch-for-page-problems.ts';
import { startSimProcess, type SimProcess } from '../../helpers/start-sim-process.ts';

/** A home of simulated devices as one test opened it. */
export interface SimDeviceHome {
  sim: SimProcess;
  host: RunningHost;
  /** What went wrong on the page (console errors, failed requests) since it was opened. */
  problems: string[];
}

export interface SimDeviceHomeOptions {
  /** The simulator's devices, by kind (each in the simulator process, behind a socat pseudo-terminal). */
  kinds: string[];
  /** The scripted model's replies. */
  replies: ScriptedReply[];
  /** What each `--device PATH` adds after a comma (e.g. `profile=at-relay-4`); none when absent. */
  deviceOptions?: string;
}

/**
 * Gives each test of a spec a home of simulated devices: a simulator process, a host running the
 * scripted model with those devices named on its command line (`--device`), and the page open and
 * connected. Everything it started is stopped after each test. Call it once, at the spec's top level.
 */
export function useSimDeviceHome(): (page: Page, options: SimDeviceHomeOptions) => Promise<SimDeviceHome> {
  let folder: HostFolder | undefined;
  let host: RunningHost | undefined;
  let sim: SimProcess | undefined;
  test.afterEach(async () => {
    await host?.stop();
    host = undefined;
    await sim?.stop();
    sim = undefined;
    await folder?.remove();
    folder = undefined;
  });
  return async (page, options) => {
    sim = await startSimProcess({ kinds: options.kinds });
    if (sim.devices.length !== options.kinds.length)
      throw new Error(`the simulator started ${JSON.stringify(sim.devices)} for ${options.kinds.join(', ')}`);
    folder = await makeHostFolder(options.replies);
    const suffix = options.deviceOptions === undefined ? '' : `,${options.deviceOptions}`;
    host = await startHost({
      dataDir: folder.dataDir,
      scriptFile: folder.scriptFile,
      sim: false,
      extraArgs: sim.devices.flatMap((device) => ['--device', `${device.path}${suffix}`]),
    });
    const problems = watchForPageProblems(page);
    await page.goto(host.url);
    await expect(page.getByTestId('connection-status')).toHaveText('Connected');
    return { sim, host, problems };
  };
}
