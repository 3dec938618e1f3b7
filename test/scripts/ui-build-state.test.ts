import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uiBuildState } from '../../scripts/ui-build-state.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A tree with one renderer file and a build, each at the time given (seconds since the epoch). */
function tree(options: { sourceAt: number; builtAt?: number }): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ui-build-state-'));
  roots.push(root);
  const write = (file: string, at: number) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), 'x');
    utimesSync(path.join(root, file), at, at);
  };
  write('renderer/views/app.tsx', options.sourceAt);
  write('core/text/safe-text.ts', 1_000);
  if (options.builtAt !== undefined) write('dist/renderer/index.html', options.builtAt);
  return root;
}

describe('whether npm start builds the UI again', () => {
  it('builds when there is no build yet', () => {
    expect(uiBuildState(tree({ sourceAt: 1_000 }))).toEqual({ fresh: false, reason: 'no build yet' });
  });

  it('skips the build when it is newer than every input', () => {
    expect(uiBuildState(tree({ sourceAt: 1_000, builtAt: 2_000 }))).toEqual({ fresh: true });
  });

  it('builds again, naming the file, when an input changed after the build', () => {
    expect(uiBuildState(tree({ sourceAt: 3_000, builtAt: 2_000 }))).toEqual({
      fresh: false,
      reason: 'renderer/views/app.tsx changed since the last build',
    });
  });
});
