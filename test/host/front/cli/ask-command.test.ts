import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { askScripted, jsonLines, runCli, REPO_ROOT } from '../../../helpers/run-cli.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-ask-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('home-agent ask --json', () => {
  it('prints the contract events of a parallel batch on the simulated devices and exits 0', async () => {
    const script = path.join(REPO_ROOT, 'test/fixtures/scripts/lamps-and-thermometer.json');
    const result = await askScripted(
      { script, dataDir: tempDir(), args: ['--sim', '--sim-latency-ms', '20'] },
      'turn on the lamps',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('turn/start');
    expect(types.at(-1)).toBe('turn/end');
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
    for (const event of events) expect(event).toHaveProperty('turnId');
    const header = events.find((event) => event.type === 'request/header');
    expect(header?.tools).toEqual(expect.arrayContaining(['lamp__set', 'thermometer__read']));
    const batch = events.find((event) => event.type === 'batch/start');
    expect(batch).toMatchObject({
      mode: 'parallel',
      calls: [
        { index: 0, name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
        { index: 1, name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
        { index: 2, name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
      ],
    });
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(ends).toHaveLength(3);
    for (const end of ends) {
      expect(end).toMatchObject({ ok: true });
      expect(typeof end.queuedMs).toBe('number');
      expect(typeof end.runMs).toBe('number');
    }
    expect(events.find((event) => event.type === 'batch/end')).toMatchObject({ executed: 3 });
  });

  it('ends a call to a tool that does not exist with ok false and still ends the turn done', async () => {
    const dir = tempDir();
    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        replies: [{ toolCalls: [{ name: 'teleport__now', args: {} }] }, { text: 'I cannot do that.' }],
      }),
    );
    const result = await askScripted({ script, dataDir: dir }, 'teleport me');
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === 'tool/end')).toMatchObject({
      name: 'teleport__now',
      ok: false,
      error: { reason: 'not_found' },
    });
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'done' });
  });

  it('exits non-zero and names the problem when the tool order lists a tool that does not exist', async () => {
    const dir = tempDir();
    const script = path.join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ replies: [{ text: 'never sent' }] }));
    const result = await askScripted(
      { script, dataDir: dir, args: ['--tool-order', '["lamp__fly","<unlisted-tools>"]'] },
      'hi',
    );
    expect(result.code).toBe(1);
    const events = jsonLines(result.stdout);
    expect(events.map((event) => event.type)).toEqual(['turn/start', 'agent/error', 'turn/end']);
    expect(String(events.at(-1)?.error)).toContain("'lamp__fly'");
  });

  it('rejects a bad flag value with exit status 2 and says which flag', async () => {
    const result = await runCli(['ask', '--provider', 'telepathy', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--provider: .*one of demo, scripted, openai, anthropic, gemini, ollama.*'telepathy'/,
    );
  });

  it('bounds --conversation like the API does: a 100,000-character id is a usage error, nothing is stored', async () => {
    const dir = tempDir();
    const result = await runCli(['ask', '--data-dir', dir, '--conversation', 'c'.repeat(100_000), 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--conversation: a conversation id has 1 to 200 characters (got 100000)');
    expect(existsSync(path.join(dir, 'home-agent.db'))).toBe(false);
  });

  it('names a device path that does not exist instead of waiting on it, and names a corrupt store without touching it', async () => {
    const missing = await runCli(['ask', '--device', '/dev/ttyNOPE9', '--data-dir', tempDir(), 'hi']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--device /dev/ttyNOPE9: no such port');
    const dir = tempDir();
    writeFileSync(path.join(dir, 'home-agent.db'), 'not a database');
    const corrupt = await runCli(['ask', '--data-dir', dir, 'hi']);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain('is not a SQLite database');
    expect(corrupt.stderr).toContain('left untouched');
  });

  it('runs at most --concurrency-cap calls of a parallel batch at once', async () => {
    const script = path.join(REPO_ROOT, 'test/fixtures/scripts/lamps-and-thermometer.json');
    const result = await askScripted(
      { script, dataDir: tempDir(), args: ['--sim', '--sim-latency-ms', '20', '--concurrency-cap', '1'] },
      'lamps',
    );
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === 'batch/start')).toMatchObject({ mode: 'parallel' });
    // With a cap of one, each call starts only after the one before it ended.
    const order = events
      .filter((event) => event.type === 'tool/start' || event.type === 'tool/end')
      .map((event) => `${String(event.type)} ${String(event.callId).slice(-1)}`);
    expect(order).toEqual(['tool/start 0', 'tool/end 0', 'tool/start 1', 'tool/end 1', 'tool/start 2', 'tool/end 2']);
  });
});
