// Test processes start from TypeScript compiled once per test run, not through tsx's loader: tsx
// resolves and loads every module over a message to its hooks thread, which made each spawned
// `home-agent` cost 2–3.5 CPU-seconds before doing anything (about 1 with the same code compiled).
// The test run's global setup compiles (compile-test-entries.ts); spawners ask here for the command, and fall back to tsx
// when nothing was compiled (a file run outside Vitest's and Playwright's setups).
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository's root folder. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Where a run's compiled entries go: inside the repository, so their imports find `node_modules`. */
export const COMPILED_ENTRIES_PARENT = path.join(REPO_ROOT, 'node_modules/.cache');

/** The environment variable naming the folder of the compiled entries (set by the global setups). */
export const COMPILED_ENTRIES_ENV = 'HOME_AGENT_TEST_COMPILED';

/** Every entry point a test starts as a process; all compiled together, sharing their modules' chunks. */
export const TEST_ENTRIES = [
  'test/helpers/home-agent-entry.ts',
  'test/helpers/home-agent-with-test-family.ts',
  'test/helpers/mqtt-will-client.ts',
  'test/host/app/run-turns-until-killed.ts',
] as const;
export type TestEntry = (typeof TEST_ENTRIES)[number];

/** The arguments to `node` that run `entry` in its own process: compiled if the run compiled it, else through tsx. */
export function entryCommand(entry: TestEntry): string[] {
  const outdir = process.env[COMPILED_ENTRIES_ENV];
  const compiled = outdir ? path.join(outdir, entry.replace(/\.ts$/, '.mjs')) : undefined;
  if (compiled && existsSync(compiled)) return [compiled];
  return entry === 'test/helpers/home-agent-entry.ts'
    ? [path.join(REPO_ROOT, 'bin/home-agent.mjs')]
    : [path.join(REPO_ROOT, 'bin/run-ts.mjs'), path.join(REPO_ROOT, entry)];
}

/** The arguments to `node` that run the `home-agent` command (see entryCommand). */
export function homeAgentCommand(): string[] {
  return entryCommand('test/helpers/home-agent-entry.ts');
}
