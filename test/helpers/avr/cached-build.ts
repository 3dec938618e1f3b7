import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Build output lives here, outside the repository, shared by every test worker and run on the machine. */
export const BUILD_ROOT = path.join(tmpdir(), 'home-agent-avr-builds');

/** Hashes everything an artefact depends on; equal inputs share one build. */
export function contentHash(parts: readonly (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 24);
}

/** Runs a tool, failing with its output when it fails. */
export async function runTool(
  command: string,
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd: options.cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failure = error as Error & { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${failure.stderr ?? ''}${failure.stdout ?? ''}`, {
      cause: error,
    });
  }
}

/**
 * The folder `BUILD_ROOT/<key>`, built by `build` into a private folder first and then renamed into
 * place, so parallel workers never see half an artefact (the loser of a race keeps the winner's).
 */
export async function cachedFolder(key: string, build: (folder: string) => Promise<void>): Promise<string> {
  const folder = path.join(BUILD_ROOT, key);
  if (existsSync(path.join(folder, '.complete'))) return folder;
  const scratch = path.join(BUILD_ROOT, `.${key}-${randomBytes(6).toString('hex')}`);
  await mkdir(scratch, { recursive: true });
  try {
    await build(scratch);
    await writeFile(path.join(scratch, '.complete'), '');
    await rename(scratch, folder).catch(async (error: NodeJS.ErrnoException) => {
      // Another worker finished the same build first: its folder is as good as ours.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await rm(scratch, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  return folder;
}
