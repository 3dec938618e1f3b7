// The one check of a credential file of the data folder (token files, an MCP server's sign-in): each
// problem named as data, so each kind of file says it in its own words.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  readOwnerOnlyFile,
  removeOwnerOnlyFile,
  writeOwnerOnlyFile,
  type OwnerOnlyProblem,
} from '../../../host/secrets/owner-only-file.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-owner-only-'));
  dirs.push(dir);
  return dir;
}

class Refused extends Error {
  constructor(readonly problem: OwnerOnlyProblem) {
    super(problem.kind);
  }
}

/** What reading `file` refuses, as data (undefined when it is read). */
function problemOf(file: string, maxBytes = 64): OwnerOnlyProblem | undefined {
  try {
    readOwnerOnlyFile(file, { maxBytes, refuse: (problem) => new Refused(problem) });
    return undefined;
  } catch (error) {
    if (error instanceof Refused) return error.problem;
    throw error;
  }
}

describe('an owner-only file', () => {
  it('is written private and whole (no partial file left), read back, and removed', () => {
    const file = path.join(folder(), 'secret');
    writeOwnerOnlyFile(file, 'hello\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['secret']);
    expect(readOwnerOnlyFile(file, { maxBytes: 64, refuse: (problem) => new Refused(problem) })).toBe('hello\n');
    expect(removeOwnerOnlyFile(file)).toBe(true);
    expect(removeOwnerOnlyFile(file)).toBe(false);
    expect(readOwnerOnlyFile(file, { maxBytes: 64, refuse: (problem) => new Refused(problem) })).toBeUndefined();
  });

  it('names each problem: a link (never followed), a FIFO (never waited on), other users’ bits, the size', () => {
    const dir = folder();
    const target = path.join(dir, 'target');
    writeFileSync(target, 'x', { mode: 0o600 });
    const link = path.join(dir, 'link');
    symlinkSync(target, link);
    expect(problemOf(link)).toEqual({ kind: 'link', target });
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    expect(problemOf(fifo)).toEqual({ kind: 'not-a-file', is: 'a FIFO' });
    chmodSync(target, 0o640);
    expect(problemOf(target)).toEqual({ kind: 'shared', mode: '0640' });
    chmodSync(target, 0o600);
    writeFileSync(target, 'x'.repeat(65));
    expect(problemOf(target)).toEqual({ kind: 'too-big', size: 65, maxBytes: 64 });
    expect(problemOf(target, 65)).toBeUndefined();
  });
});
