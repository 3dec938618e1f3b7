// Compiles the entry points tests start as processes (compiled-entries.ts) with esbuild, for the
// global setups of Vitest and Playwright.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { COMPILED_ENTRIES_ENV, COMPILED_ENTRIES_PARENT, REPO_ROOT, TEST_ENTRIES } from './compiled-entries.ts';

/** Each module keeps its own `import.meta` (a bundle would give every module the chunk's). */
const ownImportMeta: Plugin = {
  name: 'own-import-meta',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Compiles every test entry into `outdir` (same relative paths, `.mjs`), packages left to Node
 * (so `outdir` must lie inside the repository, where Node finds `node_modules`)
 * and dynamic imports kept lazy (code splitting), so a process loads what the tsx run would load.
 */
export async function compileTestEntries(outdir: string): Promise<void> {
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [...TEST_ENTRIES],
    outdir,
    outbase: REPO_ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [ownImportMeta],
    logLevel: 'warning',
  });
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
