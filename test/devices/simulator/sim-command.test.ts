import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { runSimCommand } from '../../../host/cli/commands/sim-command.ts';
import { Disposables, openTestSession } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

function firstLines(stream: PassThrough, count: number): Promise<string[]> {
  let text = '';
  return new Promise((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const lines = text.split('\n').filter(Boolean);
      if (lines.length >= count) resolve(lines);
    });
  });
}

describe('runSimCommand', () => {
  it('prints one line per device and serves them until the signal aborts', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const controller = new AbortController();
    const lines = firstLines(stdout, 2);
    const exit = runSimCommand(['--latency-ms', '0', '--devices', 'lamp,thermometer'], {
      stdout,
      stderr,
      signal: controller.signal,
    });
    const printed = (await lines).map((line) => line.split(' '));
    expect(printed.map(([id, kind]) => `${id} ${kind}`)).toEqual(['lamp-1 lamp', 'thermometer-1 thermometer']);
    const session = owned.add(openTestSession(printed[1]![2]!));
    await session.whenOnline({ timeoutMs: 5000 });
    expect(await session.call('read', {})).toEqual({ celsius: 21.5, humidity: 45 });
    await session.dispose();
    controller.abort();
    expect(await exit).toBe(0);
    expect(existsSync(printed[0]![2]!)).toBe(false);
  });

  it('refuses an unknown device kind with exit status 2', async () => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const code = await runSimCommand(['--devices', 'toaster'], {
      stdout: new PassThrough(),
      stderr,
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(text).toContain('unknown device kind toaster');
  });
});
