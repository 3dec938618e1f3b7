import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/run-cli.ts';
import { startHost } from '../../e2e/helpers/start-host.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): { dataDir: string; scriptFile: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'home-agent-token-cli-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const scriptFile = path.join(root, 'script.json');
  writeFileSync(scriptFile, JSON.stringify({ replies: [{ text: 'hi' }] }));
  return { dataDir: path.join(root, 'data'), scriptFile };
}

describe('home-agent token', () => {
  it('shows the token serve uses, the same across restarts, until rotate replaces it', async () => {
    const { dataDir, scriptFile } = folder();
    const shown = await runCli(['token', '--data-dir', dataDir]);
    expect(shown.code).toBe(0);
    const token = shown.stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);

    for (let start = 0; start < 2; start++) {
      const host = await startHost({ dataDir, scriptFile, sim: false });
      expect(host.token).toBe(token);
      await host.stop();
    }

    const rotated = await runCli(['token', 'rotate', '--data-dir', dataDir]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout.trim()).not.toBe(token);
    expect(rotated.stderr).toContain('keeps the old one until it restarts');
    const host = await startHost({ dataDir, scriptFile, sim: false });
    cleanups.push(() => host.stop());
    expect(host.token).toBe(rotated.stdout.trim());
    expect((await runCli(['token', 'show', '--data-dir', dataDir])).stdout.trim()).toBe(host.token);
  });

  it('refuses an unknown action with the usage', async () => {
    const run = await runCli(['token', 'print']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown token action 'print' (show or rotate)");
  });
});
