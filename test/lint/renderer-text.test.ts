import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/run-cli.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function textRuleErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? [])
    .filter((message) => message.message.includes('renders text as text'))
    .map((message) => message.message);
}

describe('the window shows what devices and people name as text', () => {
  it('refuses markup made from strings in the renderer: dangerouslySetInnerHTML, innerHTML, outerHTML, insertAdjacentHTML', async () => {
    const cases = [
      'export const A = (p: { m: string }) => <span dangerouslySetInnerHTML={{ __html: p.m }} />;\n',
      'export function a(element: HTMLElement, m: string): void {\n  element.innerHTML = m;\n}\n',
      'export function a(element: HTMLElement, m: string): void {\n  element.outerHTML = m;\n}\n',
      "export function a(element: HTMLElement, m: string): void {\n  element.insertAdjacentHTML('beforeend', m);\n}\n",
    ];
    for (const code of cases) expect(await textRuleErrors('renderer/views/example.tsx', code)).toHaveLength(1);
  });

  it('lets the renderer put strings in as React children, which are text', async () => {
    expect(
      await textRuleErrors(
        'renderer/views/example.tsx',
        'export const A = (p: { m: string }) => <span>{p.m}</span>;\n',
      ),
    ).toEqual([]);
  });
});
