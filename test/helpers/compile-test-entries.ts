// Compiles the entry points tests start as processes (compiled-entries.ts) with esbuild, for the
// global setups of Vitest and Playwright.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { compileEntries } from '../../scripts/compile-entries.mjs';
import { COMPILED_ENTRIES_ENV, COMPILED_ENTRIES_PARENT, REPO_ROOT, TEST_ENTRIES } from './compiled-entries.ts';

/** Compiles every test entry into `outdir`, as the CLI's own build does (scripts/compile-entries.mjs). */
export async function compileTestEntries(outdir: string): Promise<void> {
  await compileEntries({ root: REPO_ROOT, entryPoints: [...TEST_ENTRIES], outdir });
}

/**
 * A global setup's part: compiles the entries into a new folder for this run and names it in the
 * environment, which the workers started afterwards inherit; resolves with the teardown that removes
 * it. A second setup of the same run (another Vitest project) finds the folder and does nothing.
 */
export async function compileEntriesForRun(): Promise<() => void> {
  const existing = process.env[COMPILED_ENTRIES_ENV];
  if (existing && existsSync(existing)) return () => undefined;
  mkdirSync(COMPILED_ENTRIES_PARENT, { recursive: true });
  const outdir = mkdtempSync(path.join(COMPILED_ENTRIES_PARENT, 'home-agent-test-entries-'));
  await compileTestEntries(outdir);
  process.env[COMPILED_ENTRIES_ENV] = outdir;
  return () => rmSync(outdir, { recursive: true, force: true });
}
