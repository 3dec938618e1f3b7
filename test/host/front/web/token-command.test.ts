import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../../helpers/run-cli.ts';
import { startHost } from '../../../e2e/helpers/start-host.ts';

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

  it('shows and rotates the MCP credential with --mcp: its own file, the web token untouched', async () => {
    const { dataDir } = folder();
    const web = (await runCli(['token', 'show', '--data-dir', dataDir])).stdout.trim();
    const shown = await runCli(['token', 'show', '--mcp', '--data-dir', dataDir]);
    expect(shown.code).toBe(0);
    const credential = shown.stdout.trim();
    expect(credential).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(credential).not.toBe(web);
    expect((await runCli(['token', '--mcp', '--data-dir', dataDir])).stdout.trim()).toBe(credential);

    const rotated = await runCli(['token', 'rotate', '--mcp', '--data-dir', dataDir]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout.trim()).not.toBe(credential);
    expect(rotated.stderr).toContain(`${path.join(dataDir, 'mcp-token')}`);
    expect(rotated.stderr).toContain('ends the sessions opened with the old one');
    expect((await runCli(['token', 'show', '--mcp', '--data-dir', dataDir])).stdout.trim()).toBe(rotated.stdout.trim());
    expect((await runCli(['token', 'show', '--data-dir', dataDir])).stdout.trim()).toBe(web);
    const help = await runCli(['token', '--help']);
    expect(help.stdout).toContain('--mcp');
    expect(help.stdout).toContain('mcp-token');
  }, 60_000);

  it('refuses an unknown action with the usage', async () => {
    const run = await runCli(['token', 'print']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown token action 'print' (show or rotate)");
  });

  it('refuses a FIFO at once instead of waiting on it (exit 1, the reason and the fix)', async () => {
    const { dataDir } = folder();
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, 'web-token');
    execFileSync('mkfifo', [file]);
    // Before, `token show` blocked reading the FIFO for ever (even SIGTERM could not stop it): the helper's SIGKILL ends a hang.
    const run = await runCli(['token', 'show', '--data-dir', dataDir], { timeoutMs: 40_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file} is a FIFO, not a regular file`);
    expect(run.stderr).toContain('home-agent token rotate');
  }, 60_000);

  it('refuses a link to /dev/zero (exit 1, never an abort)', async () => {
    const { dataDir } = folder();
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, 'web-token');
    symlinkSync('/dev/zero', file);
    const run = await runCli(['token', 'show', '--data-dir', dataDir], { timeoutMs: 40_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file} is a symbolic link (to /dev/zero)`);
  }, 60_000);

  it('serve refuses a token file other users can read, with the fix', async () => {
    const { dataDir } = folder();
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, 'web-token');
    writeFileSync(file, `${'t'.repeat(32)}\n`, { mode: 0o644 });
    const run = await runCli(['serve', '--port', '0', '--data-dir', dataDir], {
      timeoutMs: 40_000,
      env: { HOME_AGENT_NO_OLLAMA_PROBE: '1', HOME_AGENT_TOKEN: '' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`chmod 600 ${file}`);
    expect(run.stdout).not.toContain('#token=');
  }, 60_000);
});
