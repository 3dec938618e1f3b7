import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost } from '../../../../host/app/create-host.ts';
import { ScriptedModel } from '../../../../core/models/scripted/scripted-model.ts';
import { runCli } from '../../../helpers/run-cli.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../../helpers/loopback-model-server.ts';
import { openAiLikeServer } from '../../../helpers/context-model-servers.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { ModelContextStore } from '../../../../host/store/model-context-store.ts';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';

const dirs: string[] = [];
const servers: LoopbackModelServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-ask-context-'));
  dirs.push(dir);
  return dir;
}

/** A data folder holding conversation `long`: twenty turns of a question and a 600-character answer. */
async function longConversation(): Promise<string> {
  const dataDir = tempDir();
  const replies = Array.from({ length: 20 }, (_, turn) => ({ text: `Answer ${turn}: ${'a'.repeat(600)}` }));
  const host = await createHost({
    dataDir,
    transport: 'cli',
    model: new ScriptedModel({ replies }),
    log: () => {},
    version: 'test',
  });
  try {
    for (let turn = 0; turn < 20; turn += 1)
      await host.agent.runTurn({ conversationId: 'long', text: `Question ${turn}` });
  } finally {
    await host.dispose();
  }
  return dataDir;
}

describe('home-agent ask and the context window, for people', () => {
  it('ends the turn with how full the window was and how many earlier turns were not sent', async () => {
    const dataDir = await longConversation();
    const script = path.join(dataDir, 'script.json');
    writeFileSync(script, JSON.stringify({ replies: [{ text: 'Here it is.' }] }));
    const args = ['ask', '--provider', 'scripted', '--script', script, '--data-dir', dataDir, '--conversation', 'long'];
    const run = await runCli([...args, '--context-tokens', '3000', 'and now?']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Here it is.');
    expect(lines[1]).toMatch(/^Context: [\d,]+ of 3,000 tokens · (\d+) earlier turns not sent$/);
    const [, omitted] = /· (\d+) earlier/.exec(lines[1]!)!;
    expect(Number(omitted)).toBeGreaterThan(0);
    expect(Number(omitted)).toBeLessThan(20);
    expect(run.stderr).not.toContain('tool declarations');
  });

  it('warns when the tool declarations take over half the window, naming the largest plugins, and says a turn cannot fit', async () => {
    const dataDir = tempDir();
    const script = path.join(dataDir, 'script.json');
    writeFileSync(script, JSON.stringify({ replies: [{ text: 'never sent' }] }));
    const run = await runCli([
      'ask',
      ...['--provider', 'scripted', '--script', script, '--data-dir', dataDir],
      ...['--context-tokens', '1024'],
      'hello',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /The tool declarations of the enabled plugins take about [\d,]+ of the 1,024 tokens of Scripted model — no AI's context window — more than half.*The largest: sequences \([\d,]+\), channels \([\d,]+\), system \([\d,]+\)\./,
    );
    expect(run.stderr).toMatch(/This turn does not fit the model's context window: it needs about [\d,]+ tokens/);
    expect(run.stdout).not.toContain('never sent');
  });
});

/** An OpenAI-compatible loopback server with the window `limitTokens` (none: no limit); its look-ups say nothing. */
async function modelServer(limitTokens?: number): Promise<LoopbackModelServer> {
  const server = await startLoopbackModelServer();
  servers.push(server);
  server.reply(openAiLikeServer(limitTokens === undefined ? {} : { limitTokens }));
  return server;
}

/** What the data folder keeps of the windows learned, as [base URL, model, window] rows. */
function learnedWindows(dataDir: string): unknown[][] {
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  try {
    return db
      .prepare('SELECT base_url, model, window_tokens FROM model_contexts WHERE window_tokens IS NOT NULL')
      .raw()
      .all() as unknown[][];
  } finally {
    db.close();
  }
}

describe('home-agent ask and a window learned from a refusal', () => {
  const askAt = (server: LoopbackModelServer, dataDir: string, ...rest: string[]) =>
    runCli([
      ...['ask', '--provider', 'openai', '--base-url', `${server.url}/v1`, '--model', 'fake-model'],
      ...['--data-dir', dataDir],
      ...rest,
    ]);

  it('does not keep a window of 1 token a server states: the turn says it was not believed, and the next turn goes through', async () => {
    const dataDir = tempDir();
    const server = await modelServer(1);
    const refused = await askAt(server, dataDir, 'turn on the lamps');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('stated a context window of 1 token');
    expect(refused.stderr).toContain('not believed');
    expect(learnedWindows(dataDir)).toEqual([]);
    server.reply(openAiLikeServer({ reply: () => ({ text: 'Done.' }) }));
    const next = await askAt(server, dataDir, 'and now?');
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain('Done.');
  });

  it('gives way to --context-tokens, names how to forget it when nothing was sent, and is gone once forgotten', async () => {
    const dataDir = tempDir();
    const server = await modelServer();
    server.reply(openAiLikeServer({ reply: () => ({ text: 'Done.' }) }));
    // A window learned before: believable (over 1,024 tokens) but too small for the tools.
    const db = openDatabase({ file: databaseFileOf(dataDir) });
    new ModelContextStore({ db }).write({ baseUrl: `${server.url}/v1`, model: 'fake-model' }, { windowTokens: 1100 });
    db.close();
    const stuck = await askAt(server, dataDir, 'hello');
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toContain('has 1,100 (as its server stated in an earlier refusal). Nothing was sent.');
    expect(stuck.stderr).toContain(`home-agent models forget-window --base-url ${server.url}/v1 --model fake-model`);
    expect(server.requests).toEqual([]);
    const set = await askAt(server, dataDir, '--context-tokens', '8192', 'hello');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Done.');
    const forget = await runCli([
      'models',
      'forget-window',
      ...['--base-url', `${server.url}/v1`, '--model', 'fake-model', '--data-dir', dataDir],
    ]);
    expect(forget.code, forget.stderr).toBe(0);
    expect(learnedWindows(dataDir)).toEqual([]);
    const freed = await askAt(server, dataDir, 'hello again');
    expect(freed.code, freed.stderr).toBe(0);
    expect(freed.stdout).toContain('Done.');
  });
});
