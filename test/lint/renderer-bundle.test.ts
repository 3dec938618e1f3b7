import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { REPO_ROOT } from '../helpers/run-cli.ts';

/**
 * What a model server's adapter is made of: the HTTP client every wire format shares, each format's
 * `create-*-adapter.ts`, and the models that need no server (the demo planner, a scripted replay).
 * The window needs none of it (it reads the providers' data: ids, placeholders, settings rows).
 */
const ADAPTER_CODE = /^core\/models\/(http\/|[^/]+\/create-[^/]+-adapter\.ts$|[^/]+\/[^/]+-model\.ts$)/;

/** The repository files the renderer's build holds, by path from the repository's root. */
async function rendererModules(): Promise<string[]> {
  const output = (await build({
    configFile: path.join(REPO_ROOT, 'vite.renderer.config.ts'),
    logLevel: 'silent',
    build: { write: false, sourcemap: false, minify: false },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((result) => result.output)
    .filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
  return chunks
    .flatMap((chunk) => chunk.moduleIds)
    .filter((id) => id.startsWith(REPO_ROOT) && !id.includes('/node_modules/'))
    .map((id) => path.relative(REPO_ROOT, id).split(path.sep).join('/'));
}

describe("the renderer's bundle", () => {
  it('reaches no model adapter, HTTP client or planner (the window reads the providers’ data only)', async () => {
    const modules = await rendererModules();
    expect(modules).toContain('renderer/main.tsx');
    expect(modules.filter((file) => ADAPTER_CODE.test(file))).toEqual([]);
  }, 120_000);

  it('would see an adapter (the check can fail)', () => {
    expect(ADAPTER_CODE.test('core/models/openai/create-openai-adapter.ts')).toBe(true);
    expect(ADAPTER_CODE.test('core/models/http/fetch-model-stream.ts')).toBe(true);
    expect(ADAPTER_CODE.test('core/models/demo/demo-model.ts')).toBe(true);
    expect(ADAPTER_CODE.test('core/models/ollama/ollama-settings.ts')).toBe(false);
  });
});
