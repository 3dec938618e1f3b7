import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../../host/store/sqlite-conversation-store.ts';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { homeAgentCommand } from '../../../helpers/compiled-entries.ts';
import { REPO_ROOT } from '../../../helpers/run-cli.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `home-agent-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A store whose export is far more than a pipe holds (about 600 KB): the writer must meet a reader that left. */
function bigStore(): string {
  const dataDir = tempDir('data');
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  const store = new SqliteConversationStore({ db });
  store.ensureConversation('c1', 'a long talk');
  for (let index = 0; index < 300; index += 1)
    store.appendMessage('c1', { role: 'user', text: `message ${index}: ${'x'.repeat(2000)}` });
  db.close();
  return dataDir;
}

/** Runs a shell pipeline; resolves with the exit status of its first command (bash's PIPESTATUS) and its stderr. */
function pipeline(command: string): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${command}; echo "status=\${PIPESTATUS[0]}" >&3`], {
      cwd: REPO_ROOT,
      env: { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let reported = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdio[3]!.on('data', (chunk: Buffer) => (reported += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ status: Number(/status=(\d+)/.exec(reported)?.[1]), stderr }));
  });
}

const cli = ['node', ...homeAgentCommand()].join(' ');

describe('a command whose reader goes away', () => {
  it('home-agent export | head -c 100 ends with status 0 and nothing on stderr', { timeout: 60_000 }, async () => {
    const dataDir = bigStore();
    expect(await pipeline(`${cli} export --data-dir ${dataDir} | head -c 100 > /dev/null`)).toEqual({
      status: 0,
      stderr: '',
    });
  });

  it('so do ask and help when their reader has gone before they write', { timeout: 60_000 }, async () => {
    const dataDir = tempDir('data');
    for (const command of [
      `${cli} --help | true`,
      `${cli} ask --help | true`,
      `${cli} ask --sim --sim-latency-ms 0 --data-dir ${dataDir} "turn on all lamps" | true`,
    ])
      expect(await pipeline(command), command).toEqual({ status: 0, stderr: expect.not.stringContaining('EPIPE') });
  });
});
