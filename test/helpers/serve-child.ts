import { spawn, type ChildProcess } from 'node:child_process';
import { homeAgentCommand, REPO_ROOT } from './compiled-entries.ts';
import { untilPrinted } from './until-printed.ts';

/** A `home-agent serve` running as its own process (the window's case here), with what it printed. */
export interface ServeChild {
  child: ChildProcess;
  url: string;
  token: string;
  stderr(): string;
  /** Calls its API as the browser UI does. */
  api(method: string, input?: unknown): Promise<unknown>;
  /** Stops it (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
}

/** Starts `home-agent serve --port 0 ARGS` and waits for its address. */
export async function startServeChild(args: string[]): Promise<ServeChild> {
  const child = spawn(process.execPath, [...homeAgentCommand(), 'serve', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1', HOME_AGENT_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const found = await untilPrinted({
    child,
    stream: child.stdout!,
    ready: /serving at (http:\/\/\S+\/)#token=(\S+)/,
    name: 'home-agent serve',
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${stderr}`, { cause: error });
  });
  const [, url, token] = found as unknown as [string, string, string];
  return {
    child,
    url,
    token,
    stderr: () => stderr,
    api: async (method, input = {}) => {
      const response = await fetch(`${url}api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      const answer = (await response.json()) as { ok: boolean; result?: unknown };
      if (!answer.ok) throw new Error(`${method}: ${JSON.stringify(answer)}`);
      return answer.result;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
