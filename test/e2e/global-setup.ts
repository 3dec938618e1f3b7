import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileEntriesForRun } from '../helpers/compile-test-entries.ts';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Builds the renderer once before the e2e run (`home-agent serve` serves dist/renderer), and compiles
 * the `home-agent` the tests start (test/helpers/compiled-entries.ts); the teardown removes that.
 */
export default async function globalSetup(): Promise<() => void> {
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn'],
    {
      cwd: repositoryRoot,
      stdio: 'inherit',
      timeout: 180_000,
    },
  );
  return compileEntriesForRun();
}
