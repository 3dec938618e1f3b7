import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost } from '../../../host/app/create-host.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { runCli } from '../../helpers/run-cli.ts';

const dirs: string[] = [];
afterEach(() => {
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
