import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../../helpers/run-cli.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { ModelContextStore } from '../../../../host/store/model-context-store.ts';
import type { ContextKey, LearnedContext } from '../../../../core/context/context-memory.ts';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const LOCAL = 'http://127.0.0.1:8000/v1';
const LM_STUDIO = 'http://127.0.0.1:1234/v1';

/** A data folder whose store keeps what was learned of these models. */
function dataDirWith(entries: [ContextKey, LearnedContext][]): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-forget-window-'));
  dirs.push(dataDir);
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  try {
    const store = new ModelContextStore({ db });
    for (const [key, learned] of entries) store.write(key, learned);
  } finally {
    db.close();
  }
  return dataDir;
}

function readBack(dataDir: string, key: ContextKey): LearnedContext | undefined {
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  try {
    return new ModelContextStore({ db }).read(key);
  } finally {
    db.close();
  }
}

const THREE: [ContextKey, LearnedContext][] = [
  [
    { baseUrl: LOCAL, model: 'qwen' },
    { windowTokens: 1, bytesPerToken: 3.75 },
  ],
  [{ baseUrl: LOCAL, model: 'llama' }, { windowTokens: 4096 }],
  [{ baseUrl: LM_STUDIO, model: 'qwen' }, { windowTokens: 8192 }],
];

describe('home-agent models forget-window', () => {
  it('forgets every learned window without a provider, one line each, keeping the measured ratio', async () => {
    const dataDir = dataDirWith(THREE);
    const run = await runCli(['models', 'forget-window', '--data-dir', dataDir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe([`${LM_STUDIO}\tqwen\t8192`, `${LOCAL}\tllama\t4096`, `${LOCAL}\tqwen\t1`, ''].join('\n'));
    expect(run.stderr).toContain('Forgot 3 learned windows');
    expect(readBack(dataDir, { baseUrl: LOCAL, model: 'qwen' })).toEqual({ bytesPerToken: 3.75 });
    expect(readBack(dataDir, { baseUrl: LOCAL, model: 'llama' })).toBeUndefined();
  });

  it('forgets only those a base URL (trailing slash or not) and a model name', async () => {
    const dataDir = dataDirWith(THREE);
    const byModel = await runCli(['models', 'forget-window', '--model', 'qwen', '--data-dir', dataDir]);
    expect(byModel.code, byModel.stderr).toBe(0);
    expect(byModel.stdout).toBe(`${LM_STUDIO}\tqwen\t8192\n${LOCAL}\tqwen\t1\n`);
    const both = await runCli([
      ...['models', 'forget-window', '--base-url', `${LOCAL}/`, '--model', 'llama', '--data-dir', dataDir],
    ]);
    expect(both.stdout).toBe(`${LOCAL}\tllama\t4096\n`);
    expect(readBack(dataDir, { baseUrl: LOCAL, model: 'llama' })).toBeUndefined();
  });

  it('says so when no learned window matched, and exits 0', async () => {
    const dataDir = dataDirWith(THREE);
    const run = await runCli([
      'models',
      'forget-window',
      '--base-url',
      LM_STUDIO,
      '--model',
      'llama',
      '--data-dir',
      dataDir,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`No learned window matched (base URL ${LM_STUDIO}, model llama)`);
    expect(readBack(dataDir, { baseUrl: LM_STUDIO, model: 'qwen' })).toEqual({ windowTokens: 8192 });
  });

  it('refuses an unknown action or a stray argument with the usage, exit 2', async () => {
    const dataDir = dataDirWith([]);
    const typo = await runCli(['models', 'forget-windows', '--data-dir', dataDir]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown models action 'forget-windows'. Did you mean forget-window?");
    const stray = await runCli(['models', 'forget-window', 'qwen', '--data-dir', dataDir]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('forget-window takes no arguments (got qwen): use --model and --base-url');
    const help = await runCli(['models', 'forget-window', '--help']);
    expect(help.stdout).toContain('models forget-window [--base-url URL] [--model M] [--data-dir DIR]');
  });
});
