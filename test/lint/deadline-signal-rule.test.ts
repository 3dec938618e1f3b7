import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/run-cli.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function deadlineErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? [])
    .filter((message) => message.message.includes('use deadlineSignal'))
    .map((message) => message.message);
}

describe('deadlines that fire', () => {
  it('refuses AbortSignal.timeout anywhere in the app (Node 20 may collect it inside AbortSignal.any)', async () => {
    const code = 'export const wait = (s: AbortSignal) => AbortSignal.any([s, AbortSignal.timeout(10)]);\n';
    for (const file of ['core/agent/example.ts', 'devices/mqtt/example.ts', 'host/api/example.ts'])
      expect(await deadlineErrors(file, code)).toHaveLength(1);
  });

  it('lets deadlineSignal through', async () => {
    const code =
      "import { deadlineSignal } from '../text/deadline-signal.ts';\nexport const wait = (s: AbortSignal) => AbortSignal.any([s, deadlineSignal(10)]);\n";
    expect(await deadlineErrors('core/agent/example.ts', code)).toEqual([]);
  });
});
