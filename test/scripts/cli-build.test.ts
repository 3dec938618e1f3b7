import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshCliBuild } from '../../scripts/cli-build.mjs';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A checkout with one source file and a build record of it, made at `builtAt` (ms since the epoch). */
function checkout(builtAt: number): { root: string; source: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'home-agent-cli-build-'));
  folders.push(root);
  const source = path.join(root, 'host/front/front-ends.ts');
  mkdirSync(path.dirname(source), { recursive: true });
  writeFileSync(source, 'export {};\n');
  const seconds = (builtAt - 60_000) / 1000;
  utimesSync(source, seconds, seconds);
  mkdirSync(path.join(root, 'dist/cli'), { recursive: true });
  writeFileSync(
    path.join(root, 'dist/cli/build.json'),
    JSON.stringify({ id: 'build-1', root, builtAt, inputs: ['host/front/front-ends.ts'] }),
  );
  return { root, source };
}

describe('freshCliBuild', () => {
  it('gives the compiled entry while no source file changed since the build', () => {
    const { root } = checkout(Date.now());
    expect(freshCliBuild(root)).toEqual({
      entry: path.join(root, 'dist/cli/build-1/host/front/front-ends.mjs'),
      helpSnapshot: path.join(root, 'dist/cli/build-1/help.json'),
    });
  });

  it('names the source file that changed since the build', () => {
    const { root, source } = checkout(Date.now() - 120_000);
    const now = Date.now() / 1000;
    utimesSync(source, now, now);
    expect(freshCliBuild(root)).toEqual({ stale: 'host/front/front-ends.ts changed since the CLI was built' });
  });

  it('names a source file that is gone, a build of another folder, and no build at all', () => {
    const { root, source } = checkout(Date.now());
    rmSync(source);
    expect(freshCliBuild(root)).toEqual({ stale: 'host/front/front-ends.ts is gone since the CLI was built' });
    const other = checkout(Date.now());
    writeFileSync(
      path.join(other.root, 'dist/cli/build.json'),
      JSON.stringify({ id: 'build-1', root: '/elsewhere', builtAt: Date.now(), inputs: [] }),
    );
    expect(freshCliBuild(other.root)).toEqual({ stale: 'the CLI was built for another folder' });
    rmSync(path.join(other.root, 'dist'), { recursive: true });
    expect(freshCliBuild(other.root)).toEqual({ stale: 'the CLI is not built yet' });
  });
});
