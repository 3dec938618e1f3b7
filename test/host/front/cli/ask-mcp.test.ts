import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { askScripted, jsonLines, runCli } from '../../../helpers/run-cli.ts';
import { everythingStdioEntry } from '../../../helpers/mcp/mcp-test-servers.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-ask-mcp-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('home-agent ask --mcp-config FILE', () => {
  it('waits for the server before the first request, offers its tools and runs one (approved in advance)', async () => {
    const dir = tempDir();
    const config = path.join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: everythingStdioEntry() } }));
    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        replies: [{ toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'from ask' } }] }, { text: 'done' }],
      }),
    );
    const result = await askScripted(
      { script, dataDir: path.join(dir, 'data'), args: ['--mcp-config', config, '--approve-all'] },
      'echo',
    );
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === 'request/header')?.tools).toEqual(
      expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']),
    );
    expect(events.find((event) => event.type === 'tool/end')).toMatchObject({
      name: 'mcp__everything__echo',
      ok: true,
      result: 'Echo: from ask',
      outcome: 'done',
    });
  }, 60_000);

  it('without a terminal, denies an untrusted server’s tool, saying how to allow it', async () => {
    const dir = tempDir();
    const config = path.join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: everythingStdioEntry() } }));
    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        replies: [{ toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'x' } }] }, { text: 'done' }],
      }),
    );
    const result = await askScripted({ script, dataDir: path.join(dir, 'data'), args: ['--mcp-config', config] }, 'x');
    const end = jsonLines(result.stdout).find((event) => event.type === 'tool/end');
    expect(end).toMatchObject({
      ok: false,
      error: { reason: 'denied', hint: expect.stringContaining('--approve-all') },
      outcome: 'not_sent',
    });
  }, 60_000);

  it('fails at once, naming the file, when the config it names cannot be read', async () => {
    const dir = tempDir();
    const missing = path.join(dir, 'nope.json');
    const result = await runCli(['ask', '--data-dir', dir, '--mcp-config', missing, 'hello']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`home-agent ask: ${missing}: no such file (give the path of an MCP config)\n`);
  });
});
