import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';
import { REPO_ROOT } from '../helpers/run-cli.ts';

describe('the whole tree', () => {
  it('passes ESLint, layer rules included, so CI fails on a bad import', async () => {
    const eslint = new ESLint({ cwd: REPO_ROOT });
    const results = await eslint.lintFiles(['.']);
    const errors = results.flatMap((result) =>
      result.messages
        .filter((message) => message.severity === 2)
        .map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(errors).toEqual([]);
  }, 120_000);

  it('is formatted by Prettier, so layout never comes up in review', () => {
    const prettier = path.join(REPO_ROOT, 'node_modules/prettier/bin/prettier.cjs');
    const check = spawnSync(process.execPath, [prettier, '--list-different', '.'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(check.stdout.split('\n').filter(Boolean)).toEqual([]);
    expect(check.status).toBe(0);
  }, 120_000);
});
