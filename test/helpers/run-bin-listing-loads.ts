// Runs the real `home-agent` entry (bin/home-agent.mjs, the compiled CLI) with an ESM load hook that
// names every module it loads (test/helpers/list-loads-hooks.mjs), so a test can say what a command line loads and what it does not.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './compiled-entries.ts';

/** The fast entry's notice when a source changed since the build (an edit in this checkout): not the command's output. */
const REBUILD_NOTICE = /^home-agent: .* building it \(once, about a second\)…\n/gm;
const LOADED = 'loaded ';

/** Registers the hooks before the entry runs (a data: URL, so no file of its own is written). */
const REGISTER_HOOKS = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(
  pathToFileURL(path.join(REPO_ROOT, 'test/helpers/list-loads-hooks.mjs')).href,
)});`;

/** What one run printed and loaded. */
export interface ListedRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The URL of every module the process loaded, in order. */
  loaded: string[];
}

/**
 * `home-agent ARGV` as a child process, on an up-to-date build: a run that had to build the CLI first
 * (a source changed since; building loads more than the command) is run again, up to three times.
 */
export async function runBinListingLoads(argv: string[]): Promise<ListedRun> {
  for (let attempt = 1; ; attempt += 1) {
    const { rebuilt, ...run } = await runOnce(argv);
    if (!rebuilt || attempt === 3) return run;
  }
}

function runOnce(argv: string[]): Promise<ListedRun & { rebuilt: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', REGISTER_HOOKS, path.join(REPO_ROOT, 'bin/home-agent.mjs'), ...argv],
      { env: { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => {
      const lines = stderr.split('\n');
      const loaded = lines.filter((line) => line.startsWith(LOADED)).map((line) => line.slice(LOADED.length));
      const rest = lines.filter((line) => !line.startsWith(LOADED)).join('\n');
      const answer = rest.replace(REBUILD_NOTICE, '');
      resolve({ status, stdout, stderr: answer, loaded, rebuilt: answer !== rest });
    });
  });
}
