import { test as base, type Page, type TestInfo } from '@playwright/test';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/run-cli.ts';
import { startSimProcess, type SimProcess } from '../../helpers/start-sim-process.ts';
import { makeHostFolder, type HostFolder, type ScriptedReply } from './scripted-replies.ts';
import { startHost, type RunningHost, type StartHostOptions } from './start-host.ts';
import { watchForPageProblems } from './watch-for-page-problems.ts';

/**
 * One home for a test: a data folder, `home-agent serve` processes on it (no --sim), separate
 * `home-agent sim` processes for the devices, and the CLI on the same data folder. Everything it
 * started is stopped when the test ends, in reverse order, whatever happened. Simulators announce
 * their ports in a folder of this test only, so a scan sees no other test's (or helper's) devices.
 */
export class Home {
  private folder: HostFolder | undefined;
  private readonly owned: (() => Promise<void>)[] = [];
  readonly problems: string[] = [];
  private simIndex: string | undefined;

  constructor(private readonly testInfo: TestInfo) {}

  /**
   * Starts `serve` on this home's data folder (made on first use with `replies`); `port` to come back
   * where it was. No --sim and the scripted model unless `sim` and `provider` say otherwise (`npm
   * start`'s home is `sim: true, provider: 'none'`: its simulated devices and the demo model). `args`
   * and `env` are added to its command line and environment (a broker and its password variable).
   */
  async serve(
    options: {
      replies?: ScriptedReply[];
      port?: number;
      sim?: boolean;
      provider?: StartHostOptions['provider'];
      args?: string[];
      env?: Record<string, string>;
    } = {},
  ): Promise<RunningHost> {
    await this.index();
    this.folder ??= await makeHostFolder(options.replies ?? [{ text: 'ok' }]);
    const host = await startHost({
      dataDir: this.folder.dataDir,
      scriptFile: this.folder.scriptFile,
      sim: options.sim ?? false,
      ...(options.provider ? { provider: options.provider } : {}),
      extraArgs: [...(options.port !== undefined ? ['--port', String(options.port)] : []), ...(options.args ?? [])],
      ...(options.env ? { env: options.env } : {}),
    });
    this.owned.push(() => host.stop());
    return host;
  }

  /** Starts a simulator process; its ports are announced for this home's scans only. */
  async sim(options: { kinds: string[]; dir?: string; ids?: string[] }): Promise<SimProcess> {
    const sim = await startSimProcess({ ...options, env: { HOME_AGENT_SIM_INDEX: await this.index() } });
    this.owned.push(() => sim.stop());
    return sim;
  }

  /** The data folder `serve` and the CLI work on (made by the first `serve`). */
  get dataDir(): string {
    if (!this.folder) throw new Error('start serve first: it makes the data folder');
    return this.folder.dataDir;
  }

  /** Makes the home stop something the test started itself (a broker's bridge process) when the test ends. */
  adopt(stop: () => Promise<void>): void {
    this.owned.push(stop);
  }

  /** A fresh folder that is removed with the home (a simulator's --dir). */
  async tempDir(name: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), `home-agent-e2e-${name}-`));
    this.owned.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  /** Runs the CLI on this home's data folder (`env` added to its environment); throws with its stderr when it fails. */
  async cli(args: string[], env?: Record<string, string>): Promise<string> {
    if (!this.folder) throw new Error('start serve first: the CLI works on its data folder');
    const run = await runCli([...args, '--data-dir', this.folder.dataDir], env ? { env } : {});
    if (run.code !== 0) throw new Error(`home-agent ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
    return run.stdout;
  }

  /** Pairs the AT relay board at `devicePath` from the CLI as relay-1, "Garden relay" (profile at-relay-4), and grants it `set`. */
  async pairGardenRelay(devicePath: string): Promise<void> {
    await this.cli(['devices', 'pair', devicePath, '--profile', 'at-relay-4', '--yes', '--alias', 'Garden relay']);
    await this.cli(['devices', 'grant', 'relay-1', 'set']);
  }

  /** Opens the page at the address serve printed and waits for the live link. */
  async open(page: Page, host: RunningHost): Promise<void> {
    this.problems.push(...watchForPageProblems(page));
    await page.goto(host.url);
    await page.getByTestId('connection-status').filter({ hasText: 'Connected' }).waitFor();
  }

  /**
   * A screenshot of one step, attached to the test's results, and copied to
   * `$HOME_AGENT_SCREENS_DIR` when set (the same folder the other screenshot specs use).
   */
  async screenshot(page: Page, name: string): Promise<void> {
    const file = this.testInfo.outputPath(`${name.replace(/\//g, '-')}.png`);
    await page.screenshot({ path: file, fullPage: false });
    await this.testInfo.attach(name, { path: file, contentType: 'image/png' });
    const folder = process.env.HOME_AGENT_SCREENS_DIR;
    if (folder) {
      // A name may hold a folder (`first-hour/01-…`): the screens of one story stay together.
      const target = path.join(folder, `${name}.png`);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(file, target);
    }
  }

  async dispose(): Promise<void> {
    for (const stop of this.owned.splice(0).reverse())
      await stop().catch((error: unknown) => {
        // One part failing to stop must not keep the others running: say so and go on.
        console.warn(`home teardown: ${(error as Error).message}`);
      });
    await this.folder?.remove();
  }

  private async index(): Promise<string> {
    if (this.simIndex) return this.simIndex;
    this.simIndex = await this.tempDir('sim-index');
    // serve inherits this process's environment: its scans read the same index.
    process.env.HOME_AGENT_SIM_INDEX = this.simIndex;
    this.owned.push(async () => {
      delete process.env.HOME_AGENT_SIM_INDEX;
    });
    return this.simIndex;
  }
}

/** Playwright's test with a `home` that owns every host, simulator and folder the test starts. */
export const test = base.extend<{ home: Home }>({
  home: async ({ page: _page }, use, testInfo) => {
    const home = new Home(testInfo);
    await use(home);
    await home.dispose();
  },
});

export { expect } from '@playwright/test';
