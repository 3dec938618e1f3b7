import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { homeAgentCommand } from './compiled-entries.ts';
import { REPO_ROOT } from './run-cli.ts';
import { PrintedText } from './printed-text.ts';

export interface SimProcess {
  devices: { id: string; kind: string; path: string }[];
  /** The process id of `home-agent sim`. */
  pid: number;
  /** Resolves with all it printed on stderr once that matches `pattern` (what it chose, and why). */
  stderrWhen(pattern: RegExp): Promise<string>;
  /** What it printed on stdout so far. */
  stdout(): string;
  /** Resolves with the first state line of `id` that satisfies `test` (already printed or later). */
  waitForState(id: string, test: (state: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * Runs `home-agent sim` as its own process (devices behind socat pseudo-terminals) and reads what it
 * prints. Unless `env` gives HOME_AGENT_SIM_INDEX, it gets a simulator index of its own (removed when
 * it stops): no host or simulator of another test changes its ids or its default folder.
 */
export function startSimProcess(options: {
  kinds: string[];
  latencyMs?: number;
  /** `--dir`: the ports at `DIR/<kind>-<n>`, the same path after a restart. */
  dir?: string;
  /** `--ids`: other ids for the devices, one per kind in order. */
  ids?: string[];
  /** More environment (e.g. HOME_AGENT_SIM_INDEX, so scans in a test see only its own simulators). */
  env?: NodeJS.ProcessEnv;
}): Promise<SimProcess> {
  const ownIndex =
    options.env?.HOME_AGENT_SIM_INDEX === undefined
      ? mkdtempSync(path.join(tmpdir(), 'home-agent-sim-index-'))
      : undefined;
  const env = { ...process.env, ...(ownIndex ? { HOME_AGENT_SIM_INDEX: ownIndex } : {}), ...options.env };
  const child = spawn(
    process.execPath,
    [
      ...homeAgentCommand(),
      'sim',
      '--latency-ms',
      String(options.latencyMs ?? 0),
      '--devices',
      options.kinds.join(','),
      ...(options.dir !== undefined ? ['--dir', options.dir] : []),
      ...(options.ids !== undefined ? ['--ids', options.ids.join(',')] : []),
    ],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    },
  );
  const devices: SimProcess['devices'] = [];
  const states: { id: string; state: Record<string, unknown> }[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let stdout = '';
  const stderr = new PrintedText();
  const exited = new Promise<void>((resolve) =>
    child.on('close', () => {
      if (ownIndex) rmSync(ownIndex, { recursive: true, force: true });
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('close', (code) => reject(new Error(`home-agent sim exited (${code}) before it was ready: ${stderr}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const [id, second, ...rest] = line.split(' ');
        if (!id || !second) continue;
        if (second === 'state') states.push({ id, state: JSON.parse(rest.join(' ')) as Record<string, unknown> });
        else devices.push({ id, kind: second, path: rest.join(' ') });
        for (const wake of waiters) wake();
        if (devices.length === options.kinds.length && second !== 'state') {
          resolve({
            devices,
            pid: child.pid!,
            stderrWhen: (pattern) => stderr.when(pattern),
            stdout: () => stdout,
            waitForState: (deviceId, test) =>
              new Promise((resolveState) => {
                const check = (): boolean => {
                  const found = states.find((entry) => entry.id === deviceId && test(entry.state));
                  if (found) {
                    waiters.delete(check as () => void);
                    resolveState(found.state);
                  }
                  return found !== undefined;
                };
                if (!check()) waiters.add(check as () => void);
              }),
            stop: async () => {
              child.kill('SIGTERM');
              await exited;
            },
          });
        }
      }
    });
  });
}
