import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { answerFromHelpSnapshot, helpCommandLines, writeHelpSnapshot } from '../../scripts/cli-help-snapshot.mjs';
import { COMMANDS, main } from '../../host/front/front-ends.ts';
import { REPO_ROOT } from '../helpers/compiled-entries.ts';
import { runBinListingLoads } from '../helpers/run-bin-listing-loads.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-help-snapshot-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The CLI run in this process from its TypeScript source: what a command line prints without any snapshot. */
async function fromSource(argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const texts = { stdout: '', stderr: '' };
  const sink = (name: 'stdout' | 'stderr'): Writable =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        texts[name] += chunk.toString();
        done();
      },
    });
  const status = await main(argv, { stdout: sink('stdout'), stderr: sink('stderr') });
  return { status, ...texts };
}

describe('the help snapshot of the CLI build', () => {
  it('answers each help command line as the CLI itself does, without loading the CLI, zod or the settings tables', async () => {
    for (const argv of [[], ['--help'], ['help', 'devices'], ['devices', '--help'], ['serve', '-h'], ['--version']]) {
      const answered = await runBinListingLoads(argv);
      expect({ status: answered.status, stdout: answered.stdout, stderr: answered.stderr }, argv.join(' ')).toEqual(
        await fromSource(argv),
      );
      expect(answered.loaded.filter((url) => url.includes('/dist/cli/') || url.includes('/node_modules/'))).toEqual([]);
    }
  }, 120_000);

  it('ends quietly with 0 when the reader of its help went away, as the CLI does', async () => {
    await runBinListingLoads(['--version']); // builds the CLI first if a source changed since
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/home-agent.mjs'), 'devices', '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // gone before the answer is written: its write fails with EPIPE
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise((resolve) => child.once('close', resolve));
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
  }, 60_000);

  it('leaves every other command line to the CLI', async () => {
    const answered = await runBinListingLoads(['help', 'no-such-command']);
    expect({ status: answered.status, stdout: answered.stdout, stderr: answered.stderr }).toEqual(
      await fromSource(['help', 'no-such-command']),
    );
    expect(answered.loaded.some((url) => url.includes('/dist/cli/'))).toBe(true);
  }, 60_000);
});

describe('writeHelpSnapshot', () => {
  it('keeps, for every help command line of every command, what the CLI printed and its status', async () => {
    const file = path.join(folder, 'written.json');
    await writeHelpSnapshot({ entry: path.join(REPO_ROOT, 'host/front/front-ends.ts'), file });
    const lines = helpCommandLines(Object.keys(COMMANDS));
    expect(lines).toContainEqual(['verify', '--help']);
    for (const argv of lines)
      expect(answerFromHelpSnapshot(file, argv), argv.join(' ')).toEqual(await fromSource(argv));
  }, 60_000);
});

describe('answerFromHelpSnapshot', () => {
  const file = path.join(folder, 'help.json');
  const answer = { status: 0, stdout: 'Usage: home-agent devices …\n', stderr: '' };
  writeFileSync(file, JSON.stringify({ answers: { '["devices","--help"]': answer, '["pin","-h"]': { status: 0 } } }));

  it('gives the kept answer of a help command line', () => {
    expect(answerFromHelpSnapshot(file, ['devices', '--help'])).toEqual(answer);
  });

  it('gives nothing for a command line not kept, a damaged answer, or a build without a snapshot', () => {
    expect(answerFromHelpSnapshot(file, ['devices', 'list'])).toBeUndefined();
    expect(answerFromHelpSnapshot(file, ['devices', '--help', '--json'])).toBeUndefined();
    expect(answerFromHelpSnapshot(file, ['pin', '-h'])).toBeUndefined();
    expect(answerFromHelpSnapshot(path.join(folder, 'none.json'), ['devices', '--help'])).toBeUndefined();
  });
});
