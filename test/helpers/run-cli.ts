import { spawn } from 'node:child_process';
import { homeAgentCommand, REPO_ROOT } from './compiled-entries.ts';

export { REPO_ROOT };

/** Runs `home-agent` as a real child process and collects its output. */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...homeAgentCommand(), ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * `home-agent ask --provider scripted --script <script> --data-dir <dataDir> [...args] --json <text>`:
 * one turn of a scripted model on a data folder, its events as JSON Lines on stdout.
 */
export function askScripted(
  options: { script: string; dataDir: string; args?: string[]; env?: NodeJS.ProcessEnv },
  text: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli(
    [
      'ask',
      '--provider',
      'scripted',
      '--script',
      options.script,
      '--data-dir',
      options.dataDir,
      ...(options.args ?? []),
      '--json',
      text,
    ],
    options.env ? { env: options.env } : {},
  );
}

/** Parses JSON Lines output into objects. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
