import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry, type DeviceEvent, type DeviceProblem } from '../../../devices/registry/device-registry.ts';
import { EventRateLimit } from '../../../devices/registry/event-rate-limit.ts';
import { scriptedLineDevice } from '../../helpers/scripted-line-device.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('a device that floods the host with events', () => {
  it('gets its rate through, the excess counted and reported once (50,000 events)', async () => {
    let now = 1_000_000;
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, eventsPerSecond: 20, now: () => now }),
    );
    const events: DeviceEvent[] = [];
    const problems: DeviceProblem[] = [];
    registry.onEvent((event) => events.push(event));
    registry.onProblem((problem) => problems.push(problem));
    const device = scriptedLineDevice();
    const attached = registry.attachConnector(device.connector, { grant: 'all' });
    const hello = JSON.parse(await device.line(0)) as { id: number };
    const identity = { id: 'button-1', kind: 'button', model: 'm', firmware: '1' };
    const tools = [{ name: 'get', description: 'read', parameters: { type: 'object', properties: {} } }];
    await device.send(`${JSON.stringify({ id: hello.id, ok: true, result: { device: identity, tools } })}\n`);
    await attached;

    const line = `${JSON.stringify({ event: 'pressed', data: { n: 1 } })}\n`;
    for (let batch = 0; batch < 50; batch += 1) await device.send(line.repeat(1000));
    // The answer to a call arrives after every event line: once it is back, all of them were read.
    const call = registry.call('button-1', 'get', {});
    const request = JSON.parse(await device.line(1)) as { id: number };
    await device.send(`${JSON.stringify({ id: request.id, ok: true, result: {} })}\n`);
    await call;

    expect(events).toHaveLength(20);
    expect(problems.filter((problem) => problem.problem === 'event_flood')).toEqual([
      {
        problem: 'event_flood',
        deviceId: 'button-1',
        detail:
          'it sends events faster than 20 a second: the excess is dropped and counted (devices list shows how many), and not reported again',
      },
    ]);
    expect(registry.list()[0]).toMatchObject({ eventsDropped: 49_980, lastError: { at: now } });

    // A second later the device may speak again, at its rate.
    now += 1000;
    await device.send(line.repeat(30));
    const again = registry.call('button-1', 'get', {});
    const second = JSON.parse(await device.line(2)) as { id: number };
    await device.send(`${JSON.stringify({ id: second.id, ok: true, result: {} })}\n`);
    await again;
    expect(events).toHaveLength(40);
    expect(registry.list()[0]?.eventsDropped).toBe(49_990);
    expect(problems.filter((problem) => problem.problem === 'event_flood')).toHaveLength(1);
  });
});

describe('EventRateLimit', () => {
  it('lets a burst of its rate through, then one event per 1/rate seconds', () => {
    let now = 0;
    const limit = new EventRateLimit({ perSecond: 4, now: () => now });
    expect([1, 2, 3, 4, 5].map(() => limit.take())).toEqual([true, true, true, true, false]);
    now = 250;
    expect([limit.take(), limit.take()]).toEqual([true, false]);
    now = 10_000;
    expect([1, 2, 3, 4, 5].map(() => limit.take())).toEqual([true, true, true, true, false]);
    expect(limit.dropped).toBe(3);
  });
});
