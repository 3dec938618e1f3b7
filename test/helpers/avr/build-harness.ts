import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cachedFolder, contentHash, runTool } from './cached-build.ts';

const SOURCE = path.join(import.meta.dirname, 'simavr-uart-harness.c');

let harness: Promise<string> | undefined;

/**
 * Compiles the simavr harness (simavr-uart-harness.c) with the host's gcc against libsimavr; cached
 * like the sketches. Resolves with the executable's path.
 */
export function buildSimavrHarness(): Promise<string> {
  harness ??= (async () => {
    const source = await readFile(SOURCE);
    const key = `harness-${contentHash([source, await runTool('gcc', ['--version'])])}`;
    const folder = await cachedFolder(key, async (scratch) => {
      await runTool('gcc', [
        '-O2',
        '-Wall',
        '-Wextra',
        '-Werror',
        '-I/usr/include/simavr',
        SOURCE,
        '-o',
        path.join(scratch, 'simavr-uart-harness'),
        '-lsimavr',
        '-lelf',
        '-lutil',
      ]);
    });
    return path.join(folder, 'simavr-uart-harness');
  })();
  harness.catch(() => (harness = undefined));
  return harness;
}
