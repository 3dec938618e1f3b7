import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { homeAgentCommand } from '../../helpers/compiled-entries.ts';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const SERVING_LINE = /^Home Agent is serving at (http:\/\/127\.0\.0\.1:(\d+)\/)#token=(\S+)$/;

/** What a test needs of a running `home-agent serve`. */
export interface RunningHost {
  /** The address to open, token fragment included: `http://127.0.0.1:PORT/#token=TOKEN`. */
  url: string;
  origin: string;
  token: string;
  /** SIGTERM, then waits for the process to exit (SIGKILL if it does not within the grace time). */
  stop(): Promise<void>;
  /** What it logged on stderr so far. */
  stderr(): string;
  /** The data folder it serves (another process of the same home names it). */
  dataDir: string;
}

export interface StartHostOptions {
  dataDir: string;
  /** A scripted model's reply file (`{ "replies": [...] }`, see core/models/scripted); absent with another provider. */
  scriptFile?: string;
  /**
   * The model: `scripted` (default, with `scriptFile`), `demo`, or `none` — no model flag at all, so
   * the stored settings choose (what the Settings tab changes); the Ollama probe is off then.
   */
  provider?: 'scripted' | 'demo' | 'none';
  /** More flags for `serve` (e.g. `['--sim-latency-ms', '150']`). */
  extraArgs?: string[];
  /** Attach the built-in simulated devices (`--sim`); default true. Pass false with `--device` flags in extraArgs. */
  sim?: boolean;
  /** Variables added to its environment (a broker password that `--mqtt-password-env` names). */
  env?: Record<string, string>;
  /** How long to wait for the serving line. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Spawns `home-agent serve --port 0 --data-dir DIR --sim --provider scripted --script FILE`
 * (or another model, see `provider`)
 * and resolves once it prints its serving line. The caller owns the process: call `stop()`.
 */
export async function startHost(options: StartHostOptions): Promise<RunningHost> {
  const child = spawn(
    process.execPath,
    [
      ...homeAgentCommand(),
      'serve',
      '--port',
      '0',
      '--data-dir',
      options.dataDir,
      ...(options.sim === false ? [] : ['--sim']),
      ...modelFlags(options),
      ...(options.extraArgs ?? []),
    ],
    { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...hostEnvironment(), ...options.env } },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stderr: string[] = [];
  // Both pipes are drained for the child's whole life: a full pipe would block it.
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
  const stop = () => stopChild(child, exited);

  const timeoutMs = options.timeoutMs ?? 90_000;
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)])
    : AbortSignal.timeout(timeoutMs);
  try {
    const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
      const fail = (reason: string) =>
        reject(new Error(`home-agent serve ${reason}.\nstderr:\n${stderr.join('').slice(-4000)}`));
      lines.on('line', (line) => {
        const found = SERVING_LINE.exec(line.trim());
        if (found) resolve(found);
      });
      void exited.then((code) => fail(`exited with code ${code} before serving`));
      signal.addEventListener('abort', () => fail(`printed no serving line within ${timeoutMs} ms`), { once: true });
    });
    const [, origin, , token] = match as unknown as [string, string, string, string];
    return {
      url: `${origin}#token=${token}`,
      origin,
      token,
      stop,
      stderr: () => stderr.join(''),
      dataDir: options.dataDir,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), 10_000);
  });
  const outcome = await Promise.race([exited, grace]);
  clearTimeout(timer);
  if (outcome === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** The test's environment without a fixed token, so every host makes its own, and no probe for a local Ollama. */
function hostEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1' };
  delete environment.HOME_AGENT_TOKEN;
  return environment;
}

function modelFlags(options: StartHostOptions): string[] {
  const provider = options.provider ?? 'scripted';
  if (provider === 'none') return [];
  if (provider === 'demo') return ['--provider', 'demo'];
  if (options.scriptFile === undefined) throw new Error('startHost: the scripted provider needs a scriptFile');
  return ['--provider', 'scripted', '--script', options.scriptFile];
}
