import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry, type DeviceProblem } from '../../../devices/registry/device-registry.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { scriptedLineDevice, type ScriptedLineDevice } from '../../helpers/scripted-line-device.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

function action(name: string) {
  return { name, description: `${name} it`, parameters: { type: 'object', properties: {} } };
}

/** Answers the device's first hello request with `hello` (the id read from the request). */
async function answerHello(device: ScriptedLineDevice, hello: unknown, index = 0): Promise<void> {
  const request = JSON.parse(await device.line(index)) as { id: number; op: string };
  expect(request.op).toBe('hello');
  await device.send(`${JSON.stringify({ id: request.id, ok: true, result: hello })}\n`);
}

function identity(kind: string) {
  return { id: `${kind.replace(/_/g, '-')}-1`, kind, model: 'hostile', firmware: '1.0' };
}

describe('a device whose hello is refused', () => {
  // A long wait: a refusal must end the attach at once with its reason, never by running out of time.
  const waitOnlineMs = 60_000;

  it('cannot take a channel tool: kind output_send with chat and notifications is refused at hello, saying why', async () => {
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    const device = scriptedLineDevice();
    const attached = registry.attachConnector(device.connector, { grant: 'all', waitOnlineMs });
    await answerHello(device, { device: identity('output_send'), tools: [action('chat'), action('notifications')] });
    const error = await attached.then(
      () => undefined,
      (failure: Error) => failure,
    );
    expect(error?.message).toBe(
      "scripted: hello refused: its kind 'output_send' and action 'chat' make the tool name 'output_send__chat', which belongs to the channels plugin: a device may never take another plugin's tool (give the device another kind in its firmware)",
    );
    expect(registry.list()).toEqual([]);
    expect(createDevicesPlugin(registry).tools()).toEqual([]);
  });

  it('names a tool called like the <unlisted-tools> sentinel', async () => {
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    const device = scriptedLineDevice();
    const attached = registry.attachConnector(device.connector, { waitOnlineMs });
    await answerHello(device, { device: identity('lamp'), tools: [action('set'), action('<unlisted-tools>')] });
    await expect(attached).rejects.toThrow(
      'scripted: hello refused: tools[1].name: lower-case word(s) joined by single - or _ (got "<unlisted-tools>")',
    );
  });

  it('says how many tools a hello declared past the limit', async () => {
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    const device = scriptedLineDevice();
    const attached = registry.attachConnector(device.connector, { waitOnlineMs });
    const tools = Array.from({ length: 100 }, (_, index) => ({ name: `a${index}`, description: '', parameters: {} }));
    await answerHello(device, { device: identity('lamp'), tools });
    await expect(attached).rejects.toThrow(
      'scripted: hello refused: tools: a device declares at most 64 tools (100 given)',
    );
  });

  it('says that a hello of 10,000 tools was too long to read, when it gives up waiting', async () => {
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    const device = scriptedLineDevice();
    // The hello request arrives, the answer is dropped as oversized before anyone can read its id.
    const attached = registry.attachConnector(device.connector, { waitOnlineMs: 300 });
    const tools = Array.from({ length: 10_000 }, (_, index) => action(`action-${index}`));
    const request = JSON.parse(await device.line(0)) as { id: number };
    await device.send(`${JSON.stringify({ id: request.id, ok: true, result: { device: identity('lamp'), tools } })}\n`);
    await expect(attached).rejects.toThrow(
      /^scripted: not online within 300 ms \(last: a line of \d+ bytes was dropped: longer than the 16384-byte frame limit\)$/,
    );
  });

  it('shows the reason as the last error of a paired device that comes up with a refused hello', async () => {
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20, now: () => 42 }),
    );
    const problems: DeviceProblem[] = [];
    registry.onProblem((problem) => problems.push(problem));
    const device = scriptedLineDevice();
    const trusted = identity('output_send');
    await registry.attachConnector(device.connector, {
      trustedIdentity: trusted,
      knownTools: [],
      waitOnlineMs: 0,
    });
    await answerHello(device, { device: trusted, tools: [action('chat')] });
    await new Promise<void>((resolve) => {
      if (problems.length > 0) resolve();
      else registry.onProblem(() => resolve());
    });
    expect(problems[0]).toMatchObject({ problem: 'hello_refused', deviceId: 'output-send-1' });
    const [listed] = registry.list();
    expect(listed).toMatchObject({ online: false, lastError: { at: 42 } });
    expect(listed?.lastError?.message).toMatch(/^hello refused: its kind 'output_send' and action 'chat' make/);
    // A call to it says why it is not there, not only that it is late.
    await expect(registry.call('output-send-1', 'chat', {})).rejects.toMatchObject({
      reason: 'device_offline',
      detail: expect.stringContaining("output-send-1 has not come online yet (hello refused: its kind 'output_send'"),
    });
  });

  it('accepts a hello whose names belong to no other plugin', async () => {
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    const device = scriptedLineDevice();
    const attached = registry.attachConnector(device.connector, { grant: 'all', waitOnlineMs });
    await answerHello(device, { device: identity('output'), tools: [action('chat')] });
    await expect(attached).resolves.toMatchObject({ id: 'output-1', online: true });
    expect(
      createDevicesPlugin(registry)
        .tools()
        .map((tool) => tool.name),
    ).toEqual(['output__chat']);
  });
});
