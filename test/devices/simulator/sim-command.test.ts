import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimCommand } from '../../../host/front/cli/commands/sim-command.ts';
import { Disposables, openTestSession } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());
beforeEach(() => {
  // No host or simulator of another test may change these simulators' ids or folders.
  const index = mkdtempSync(join(tmpdir(), 'home-agent-sim-index-'));
  process.env.HOME_AGENT_SIM_INDEX = index;
  owned.add({
    close: async () => {
      delete process.env.HOME_AGENT_SIM_INDEX;
      rmSync(index, { recursive: true, force: true });
    },
  });
});

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

describe('runSimCommand --dir and --ids', () => {
  it('puts the ports at DIR/<kind>-<n> and lets a device come back there with another id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'home-agent-sim-dir-'));
    owned.add({ close: async () => rmSync(dir, { recursive: true, force: true }) });
    const run = async (ids: string[] | undefined): Promise<string[][]> => {
      const stdout = new PassThrough();
      const controller = new AbortController();
      const lines = firstLines(stdout, 1);
      const exit = runSimCommand(
        ['--latency-ms', '0', '--devices', 'lamp', '--dir', dir, ...(ids ? ['--ids', ids.join(',')] : [])],
        { stdout, stderr: new PassThrough(), signal: controller.signal },
      );
      const printed = (await lines).map((line) => line.split(' '));
      const session = owned.add(openTestSession(printed[0]![2]!));
      const hello = await session.whenOnline({ timeoutMs: 5000 });
      await session.dispose();
      controller.abort();
      expect(await exit).toBe(0);
      return [...printed, [hello.device.id]];
    };
    expect(await run(undefined)).toEqual([['lamp-1', 'lamp', join(dir, 'lamp-1')], ['lamp-1']]);
    expect(await run(['lamp-9'])).toEqual([['lamp-9', 'lamp', join(dir, 'lamp-1')], ['lamp-9']]);
    expect(existsSync(dir)).toBe(true);
    expect(existsSync(join(dir, 'lamp-1'))).toBe(false);
  });

  it('refuses ids that are not one per device, or not ids', async () => {
    for (const [ids, message] of [
      ['a,b', '--ids gives 2 ids for 1 device'],
      ['lamp 1', "'lamp 1' is not a device id"],
    ] as const) {
      const stderr = new PassThrough();
      let text = '';
      stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      const code = await runSimCommand(['--devices', 'lamp', '--ids', ids], {
        stdout: new PassThrough(),
        stderr,
        signal: new AbortController().signal,
      });
      expect(code).toBe(2);
      expect(text).toContain(message);
    }
  });
});
