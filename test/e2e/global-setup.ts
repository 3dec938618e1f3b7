import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Builds the renderer once before the e2e run: `home-agent serve` serves dist/renderer. */
export default function globalSetup(): void {
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn'],
    {
      cwd: repositoryRoot,
      stdio: 'inherit',
      timeout: 180_000,
    },
  );
}
