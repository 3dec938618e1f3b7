import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jsonLines, runCli } from '../../helpers/run-cli.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Issue 11, defect 7: arguments nested 2,500 deep ended the turn with "Maximum call stack size
 * exceeded" (the journal's JSON writer recursed). They must be answered `invalid_json` instead.
 */
describe('arguments nested 2,500 deep, through the real CLI and SQLite journal', () => {
  for (const [label, open, close] of [
    ['arrays', '[', ']'],
    ['objects', '{"a":', '}'],
  ] as const) {
    it(`answer that call invalid_json and the turn goes on to its next step (${label})`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-deep-'));
      dirs.push(dir);
      const argumentsText = `{"groups":${open.repeat(2_500)}1${close.repeat(2_500)}}`;
      const script = path.join(dir, 'script.json');
      writeFileSync(
        script,
        JSON.stringify({
          replies: [{ toolCalls: [{ name: 'system_list_tools', argumentsText }] }, { text: 'Understood.' }],
        }),
      );
      const result = await runCli(
        ['ask', '--provider', 'scripted', '--script', script, '--data-dir', dir, '--json', 'go'],
        { env: { HOME_AGENT_NO_OLLAMA_PROBE: '1' } },
      );
      const events = jsonLines(result.stdout);
      expect(result.stdout).not.toContain('Maximum call stack');
      expect(events.find((event) => event.type === 'tool/end')).toMatchObject({
        name: 'system_list_tools',
        ok: false,
        error: { reason: 'invalid_json', detail: expect.stringMatching(/more than 64 levels deep/) },
      });
      expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'done' });
      expect(result.code).toBe(0);
    });
  }
});
