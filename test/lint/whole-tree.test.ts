import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { REPO_ROOT } from '../helpers/run-cli.ts';

describe('the whole tree', () => {
  it('passes ESLint, layer rules included, so CI fails on a bad import', async () => {
    const eslint = new ESLint({ cwd: REPO_ROOT });
    const results = await eslint.lintFiles(['.']);
    const errors = results.flatMap((result) => result.messages.filter((message) => message.severity === 2).map((message) => `${result.filePath}:${message.line} ${message.message}`));
    expect(errors).toEqual([]);
  }, 120_000);
});
