import { afterEach, describe, expect, it } from 'vitest';
import { DeviceSession } from '../../../devices/session/device-session.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';
import { scriptedLineDevice } from '../../helpers/scripted-line-device.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

const device = { id: 'board-1', kind: 'lamp', model: 'Board', firmware: '1.0.0' };
const tools = [
  {
    name: 'set',
    description: 'Set.',
    parameters: { type: 'object', properties: { on: { type: 'boolean' } } },
    parallelSafe: true,
    serial: false,
  },
];

function hello(id: number, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ id, ok: true, result: { device, tools, ...extra } })}\n`;
}

function idOf(line: string): number {
  return (JSON.parse(line) as { id: number }).id;
}

function startSession(scripted: ReturnType<typeof scriptedLineDevice>, helloTimeoutMs = 60_000): DeviceSession {
  const session = owned.add(new DeviceSession({ connector: scripted.connector, helloTimeoutMs, callTimeoutMs: 5000 }));
  session.start();
  return session;
}

describe('DeviceSession and the device’s request limit', () => {
  it('sends a call exactly at maxFrameBytes and refuses one byte more without sending anything', async () => {
    const scripted = scriptedLineDevice();
    const session = startSession(scripted);
    // Written out by hand: the line the host must send for the second request (id 2).
    const atLimit = '{"id":2,"op":"call","tool":"set","args":{"on":true,"note":"abcdef"}}';
    await scripted.send(hello(idOf(await scripted.line(0)), { maxFrameBytes: atLimit.length }));
    await waitForStatus(session, 'online');

    const call = session.call('set', { on: true, note: 'abcdef' });
    expect(await scripted.line(1)).toBe(atLimit);
    await scripted.send('{"id":2,"ok":true,"result":{"on":true}}\n');
    await expect(call).resolves.toEqual({ on: true });

    await expect(session.call('set', { on: true, note: 'abcdefg' })).rejects.toMatchObject({
      reason: 'failed',
      detail: expect.stringContaining(`at most ${atLimit.length}`),
    });
    expect(scripted.received).toHaveLength(2);
  });

  it('keeps working with a device older than maxFrameBytes and ready: the host allows 16 KiB', async () => {
    const scripted = scriptedLineDevice();
    const session = startSession(scripted);
    await scripted.send(hello(idOf(await scripted.line(0))));
    await waitForStatus(session, 'online');
    const call = session.call('set', { on: true, note: 'x'.repeat(10_000) });
    const request = await scripted.line(1);
    expect(request.length).toBeGreaterThan(10_000);
    await scripted.send(`{"ok":true,"result":{"on":true},"id":${idOf(request)}}\n`);
    await expect(call).resolves.toEqual({ on: true });
  });
});

describe('DeviceSession greeting a board', () => {
  it('asks hello again on the same port, without re-opening it, when the first hello goes unanswered', async () => {
    const scripted = scriptedLineDevice();
    const session = startSession(scripted, 100);
    const second = await scripted.line(1);
    expect(second).toMatch(/^\{"id":\d+,"op":"hello"\}$/);
    await scripted.send(hello(idOf(second)));
    await waitForStatus(session, 'online');
    expect(scripted.opens).toBe(1);
  });

  it('asks again at once when the board says ready, and drops the late answer to the first hello quietly', async () => {
    const scripted = scriptedLineDevice();
    // A minute of hello timeout: only the ready can make the second hello come in time.
    const session = startSession(scripted);
    const first = await scripted.line(0);
    await scripted.send('{"event":"ready","data":{}}\n');
    const second = await scripted.line(1);
    expect(idOf(second)).toBeGreaterThan(idOf(first));
    await scripted.send(hello(idOf(first)));
    await scripted.send(hello(idOf(second)));
    await waitForStatus(session, 'online');
    expect(session.stats.unmatchedResponse).toBe(0);
    expect(scripted.opens).toBe(1);
  });

  it('fails the calls of a board that restarts mid-call, greets it again and never reports ready as an event', async () => {
    const scripted = scriptedLineDevice();
    const session = startSession(scripted);
    const events: unknown[] = [];
    session.onEvent((event) => events.push(event));
    await scripted.send(hello(idOf(await scripted.line(0))));
    await waitForStatus(session, 'online');

    const call = session.call('set', { on: true });
    await scripted.line(1);
    await scripted.send('{"event":"ready","data":{}}\n');
    await expect(call).rejects.toMatchObject({
      reason: 'device_offline',
      detail: expect.stringContaining('restarted'),
    });
    const again = await scripted.line(2);
    expect(again).toMatch(/"op":"hello"/);
    await scripted.send(hello(idOf(again)));
    await waitForStatus(session, 'online');

    const next = session.call('set', { on: false });
    await scripted.send(`{"id":${idOf(await scripted.line(3))},"ok":true,"result":{"on":false}}\n`);
    await expect(next).resolves.toEqual({ on: false });
    expect(events).toEqual([]);
    expect(session.stats.connects).toBe(2);
  });
});
