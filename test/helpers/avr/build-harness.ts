import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { simavrPartsLibrary } from './board-packages.ts';
import { cachedFolder, contentHash, runTool } from './cached-build.ts';

const SOURCE = path.join(import.meta.dirname, 'simavr-uart-harness.c');

let harness: Promise<string> | undefined;

/**
 * Compiles the simavr harness (simavr-uart-harness.c) with the host's gcc against libsimavr and
 * libsimavrparts' uart_pty; cached like the sketches. Resolves with the executable's path.
 */
export function buildSimavrHarness(): Promise<string> {
  harness ??= (async () => {
    const parts = simavrPartsLibrary();
    if (parts === undefined) throw new Error('libsimavrparts.so.1 not found (apt-get install libsimavrparts1)');
    const source = await readFile(SOURCE);
    const key = `harness-${contentHash([source, await runTool('gcc', ['--version']), parts])}`;
    const folder = await cachedFolder(key, async (scratch) => {
      // libsimavrparts1 ships no development link: link the library by its full name.
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
        parts,
        '-lelf',
        '-lutil',
        '-lpthread',
      ]);
    });
    return path.join(folder, 'simavr-uart-harness');
  })();
  harness.catch(() => (harness = undefined));
  return harness;
}
