import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadlineSignal } from '../../../core/text/deadline-signal.ts';

const root = path.resolve(import.meta.dirname, '../../..');

describe('deadlineSignal', () => {
  it('aborts with a TimeoutError when its time is up', async () => {
    const signal = deadlineSignal(5);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    expect((signal.reason as Error).name).toBe('TimeoutError');
  });

  it('still fires inside AbortSignal.any after the garbage collector ran (AbortSignal.timeout does not on Node 20)', () => {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', path.join(root, 'bin/run-ts.mjs'), path.join(root, 'test/helpers/deadline-after-gc-child.ts')],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(out.trim()).toBe('fired TimeoutError');
  });
});
