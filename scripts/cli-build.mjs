// The CLI compiled to plain JavaScript (dist/cli): built by `npm ci` (package.json's prepare) and
// again by `home-agent` itself when its source changed since, so a command starts like a native tool
// instead of paying a TypeScript loader on every run. Plain JavaScript: it runs before any loader.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { HELP_SNAPSHOT_FILE, writeHelpSnapshot } from './cli-help-snapshot.mjs';

/** The CLI's source entry, relative to the repository. */
export const CLI_ENTRY = 'host/front/front-ends.ts';
/** How many builds are kept: a running `serve` may still load a lazy chunk of the one before. */
const BUILDS_KEPT = 2;

function buildsFolder(root) {
  return path.join(root, 'dist', 'cli');
}

function recordOf(root) {
  return path.join(buildsFolder(root), 'build.json');
}

/**
 * The compiled CLI entry when it is up to date with its source: `{ entry, helpSnapshot }` (the
 * build's help, see cli-help-snapshot.mjs); else `{ stale }`, why not (never built, built in another
 * folder, a source file changed since). Reads the record and the modification time of each source
 * file compiled in; never throws.
 */
export function freshCliBuild(root) {
  let record;
  try {
    record = JSON.parse(readFileSync(recordOf(root), 'utf8'));
  } catch {
    return { stale: 'the CLI is not built yet' };
  }
  if (record?.root !== root || typeof record.id !== 'string' || !Array.isArray(record.inputs))
    return { stale: 'the CLI was built for another folder' };
  for (const input of record.inputs) {
    // No exception for a missing file: throwing costs more than the stat on every start.
    const stat = statSync(path.join(root, input), { throwIfNoEntry: false });
    if (stat === undefined) return { stale: `${input} is gone since the CLI was built` };
    if (stat.mtimeMs > record.builtAt) return { stale: `${input} changed since the CLI was built` };
  }
  const build = path.join(buildsFolder(root), record.id);
  return { entry: compiledEntryIn(build), helpSnapshot: path.join(build, HELP_SNAPSHOT_FILE) };
}

function compiledEntryIn(build) {
  return path.join(build, CLI_ENTRY.replace(/\.ts$/, '.mjs'));
}

/**
 * Builds the CLI into a folder of its own under dist/cli, with its help snapshot, and then records
 * it (by a rename, so a process starting meanwhile sees the old build or the new one, whole); older
 * builds beyond the last few are removed. Resolves with the compiled entry.
 */
export async function buildCli(root) {
  // esbuild is loaded only to build: a start with a fresh build never pays for it.
  const { compileEntries } = await import('./compile-entries.mjs');
  const id = `build-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const outdir = path.join(buildsFolder(root), id);
  mkdirSync(outdir, { recursive: true });
  // Taken before compiling: a file saved while esbuild reads it counts as changed afterwards.
  const builtAt = Date.now();
  const inputs = await compileEntries({ root, entryPoints: [CLI_ENTRY], outdir });
  const entry = compiledEntryIn(outdir);
  try {
    await writeHelpSnapshot({ entry, file: path.join(outdir, HELP_SNAPSHOT_FILE) });
  } catch (error) {
    // Recorded without one: the snapshot only spares `--help` the loading; the CLI prints its help itself.
    process.stderr.write(
      `home-agent: the build's help was not kept (${error?.message ?? error}); --help starts slower.\n`,
    );
  }
  const partial = `${recordOf(root)}.${id}.partial`;
  writeFileSync(partial, JSON.stringify({ id, root, builtAt, inputs }));
  renameSync(partial, recordOf(root));
  removeOldBuilds(root, id);
  return entry;
}

function removeOldBuilds(root, current) {
  const builds = readdirSync(buildsFolder(root))
    .filter((name) => name.startsWith('build-') && name !== current && !name.endsWith('.partial'))
    .sort()
    .reverse();
  for (const name of builds.slice(BUILDS_KEPT - 1))
    rmSync(path.join(buildsFolder(root), name), { recursive: true, force: true });
}
