import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../../../core/batch/run-batch.ts';
import type { HelloResult } from '../../../devices/protocol/frame-schema.ts';
import { DevicePairing } from '../../../devices/pairing/device-pairing.ts';
import { InMemoryPairingStore } from '../../../devices/pairing/pairing-store.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { builtinWaysIn, type BrokerSettings } from '../../../devices/ways-in/builtin-ways-in.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../helpers/mosquitto.ts';
import { testMqttFamily, TestMqttDevice } from '../../helpers/mqtt-test-family.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';

const missing = mosquittoMissing();
const PREFIX = 'home-agent';
// The host may do anything under its prefix but write the request topic of the device `locked`.
const ACL = [
  'user host',
  `topic deny ${PREFIX}/test/locked/request`,
  `topic readwrite ${PREFIX}/#`,
  '',
  'user device',
  `topic readwrite ${PREFIX}/#`,
  '',
].join('\n');

function lampHello(id: string): HelloResult {
  return {
    device: { id, kind: 'lamp', model: 'mqtt-lamp', firmware: '1.0' },
    tools: [
      {
        name: 'set',
        description: 'Switch the lamp',
        parameters: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
        parallelSafe: true,
        serial: false,
      },
    ],
    concurrent: false,
  };
}

describe.skipIf(missing !== undefined)(`the MQTT way in${missing ? ` (${missing})` : ''}`, () => {
  let mosquitto: Mosquitto;
  const owned = new Disposables();

  beforeAll(async () => {
    mosquitto = await startMosquitto({ acl: ACL });
  });
  afterAll(async () => {
    await mosquitto.stop();
  });
  afterEach(() => owned.disposeAll());

  function broker(overrides: Partial<BrokerSettings> = {}): BrokerSettings {
    return {
      url: mosquitto.url('host'),
      passwordEnv: 'HOST_PW',
      topicPrefix: PREFIX,
      maxMessageBytes: 262_144,
      ...overrides,
    };
  }

  function registryWith(settings: BrokerSettings | undefined): DeviceRegistry {
    return owned.add(
      new DeviceRegistry({
        waysIn: builtinWaysIn({
          broker: settings,
          brokerFamilies: [testMqttFamily],
          brokerTimings: { connectTimeoutMs: 2000, reconnectIntervalMs: 20 },
          env: { HOST_PW: TEST_USERS.host.password },
        }),
        helloTimeoutMs: 1000,
        callTimeoutMs: 10_000,
      }),
    );
  }

  async function device(id: string): Promise<TestMqttDevice> {
    const started = await TestMqttDevice.start({
      url: mosquitto.url('device'),
      password: TEST_USERS.device.password,
      prefix: PREFIX,
      hello: lampHello(id),
    });
    // Removed at the end: no retained description outlives its test.
    owned.add({ dispose: () => started.remove() });
    return started;
  }

  async function paired(ids: string[]) {
    const registry = registryWith(broker());
    const store = new InMemoryPairingStore();
    const pairing = new DevicePairing({ store, registry });
    for (const id of ids) await pairing.pair({ path: `mqtt:test/${id}`, confirm: () => true });
    for (const id of ids) await waitForStatus(registry.get(id)!.session, 'online');
    return { registry, store, pairing };
  }

  it('scans the devices its families announce: path, source, identity and whether they are online', async () => {
    await device('lamp-a');
    const b = await device('lamp-b');
    await b.goOffline();
    const registry = registryWith(broker());
    const scanned = await registry.scan({ timeoutMs: 5000 });
    expect(
      scanned.map((found) => [found.wayIn, found.source, found.path, found.identity.id, found.online]).sort(),
    ).toEqual([
      ['mqtt', 'mqtt', 'mqtt:test/lamp-a', 'lamp-a', true],
      ['mqtt', 'mqtt', 'mqtt:test/lamp-b', 'lamp-b', false],
    ]);
  });

  it('pairs a device behind the broker like a local one: identity shown, stored with no grants, usable once granted', async () => {
    await device('lamp-a');
    const registry = registryWith(broker());
    const store = new InMemoryPairingStore();
    const pairing = new DevicePairing({ store, registry });
    const shown: string[] = [];
    const result = await pairing.pair({
      path: 'mqtt:test/lamp-a',
      confirm: (candidate) => {
        shown.push(`${candidate.identity.id} ${candidate.identity.model} ${candidate.tools.map((tool) => tool.name)}`);
        shown.push(...(candidate.details ?? []));
        return true;
      },
    });
    expect(shown).toEqual([
      'lamp-a mqtt-lamp set',
      `online: lamp lamp-a through the broker mqtt://host@127.0.0.1:${mosquitto.port}`,
    ]);
    expect(result).toMatchObject({ path: 'mqtt:test/lamp-a', wayIn: 'mqtt', grants: [] });
    expect(result).not.toHaveProperty('options');
    await waitForStatus(registry.get('lamp-a')!.session, 'online');

    // No grant, no tool: the agent cannot reach it.
    const plugin = createDevicesPlugin(registry);
    expect(plugin.tools().map((tool) => tool.name)).not.toContain('lamp__set');
    pairing.grant('lamp-a', ['set']);
    expect(plugin.tools().map((tool) => tool.name)).toContain('lamp__set');
    expect(await registry.call('lamp-a', 'set', { on: true })).toEqual({ done: true });
  });

  it('probes only a path its scan lists, naming the path and how to list them', async () => {
    await device('lamp-a');
    const registry = registryWith(broker());
    const pairing = new DevicePairing({ store: new InMemoryPairingStore(), registry });
    await expect(pairing.pair({ path: 'mqtt:test/ghost', confirm: () => true })).rejects.toThrow(
      `mqtt:test/ghost is not among the devices the broker mqtt://host@127.0.0.1:${mosquitto.port} announces (home-agent devices scan --mqtt URL lists them)`,
    );
    await expect(pairing.pair({ path: 'z2m:kitchen', confirm: () => true })).rejects.toThrow(
      'z2m:kitchen: no MQTT device family reads z2m: paths (these do: mqtt:)',
    );
  });

  it('refuses a pairing code for a device whose family asks for none, and never stores one', async () => {
    await device('lamp-a');
    const registry = registryWith(broker());
    const store = new InMemoryPairingStore();
    const pairing = new DevicePairing({ store, registry });
    await expect(pairing.pair({ path: 'mqtt:test/lamp-a', code: 'abc-123', confirm: () => true })).rejects.toThrow(
      'mqtt:test/lamp-a takes no pairing code: pair it without --code',
    );
    expect(store.list()).toEqual([]);
  });

  it('runs a batch over two devices on one broker in parallel: each is its own lane', async () => {
    const a = await device('lamp-a');
    const b = await device('lamp-b');
    const { registry, pairing } = await paired(['lamp-a', 'lamp-b']);
    pairing.grant('lamp-a', ['set']);
    pairing.grant('lamp-b', ['set']);
    const set = createDevicesPlugin(registry)
      .tools()
      .find((tool) => tool.name === 'lamp__set')!;
    const releaseA = a.hold();
    const releaseB = b.hold();
    const batch = runBatch({
      scope: { conversationId: 'c', turnId: 't', signal: new AbortController().signal, emit: () => undefined },
      batchId: 'b',
      step: 1,
      calls: [
        { index: 0, callId: 'a', name: 'lamp__set', args: { device_id: 'lamp-a', on: true }, tool: set },
        { index: 1, callId: 'b', name: 'lamp__set', args: { device_id: 'lamp-b', on: false }, tool: set },
      ],
      pipeline: { defaultTimeoutMs: 10_000 },
    });
    // Both requests are at their devices while neither has been answered: the calls overlap.
    await Promise.all([a.whenRequests(1), b.whenRequests(1)]);
    releaseA();
    releaseB();
    const results = await batch;
    expect(results.map((result) => [result.outcome.ok, result.callOutcome])).toEqual([
      [true, 'done'],
      [true, 'done'],
    ]);
    expect([a.requests, b.requests]).toEqual([
      [{ tool: 'set', args: { on: true } }],
      [{ tool: 'set', args: { on: false } }],
    ]);
  });

  it('shows a device its family says is offline as offline, and its call ends device_offline, not sent', async () => {
    const a = await device('lamp-a');
    const { registry, pairing } = await paired(['lamp-a']);
    pairing.grant('lamp-a', ['set']);
    await a.goOffline();
    await waitForStatus(registry.get('lamp-a')!.session, 'offline');
    expect(registry.list().map((listed) => [listed.id, listed.status])).toEqual([['lamp-a', 'offline']]);
    const set = createDevicesPlugin(registry)
      .tools()
      .find((tool) => tool.name === 'lamp__set')!;
    const [result] = await runBatch({
      scope: { conversationId: 'c', turnId: 't', signal: new AbortController().signal, emit: () => undefined },
      batchId: 'b',
      step: 1,
      calls: [{ index: 0, callId: 'a', name: 'lamp__set', args: { device_id: 'lamp-a', on: true }, tool: set }],
      pipeline: { defaultTimeoutMs: 10_000 },
    });
    expect([result?.outcome.ok, result?.callOutcome]).toEqual([false, 'not_sent']);
    expect(a.requests).toEqual([]);
  });

  it('ends a call whose request the broker acknowledged and whose device then went away device_offline, outcome unknown', async () => {
    const a = await device('lamp-a');
    const { registry, pairing } = await paired(['lamp-a']);
    pairing.grant('lamp-a', ['set']);
    a.hold();
    const set = createDevicesPlugin(registry)
      .tools()
      .find((tool) => tool.name === 'lamp__set')!;
    const batch = runBatch({
      scope: { conversationId: 'c', turnId: 't', signal: new AbortController().signal, emit: () => undefined },
      batchId: 'b',
      step: 1,
      calls: [{ index: 0, callId: 'a', name: 'lamp__set', args: { device_id: 'lamp-a', on: true }, tool: set }],
      pipeline: { defaultTimeoutMs: 10_000 },
    });
    await a.whenRequests(1);
    await a.goOffline();
    const [result] = await batch;
    expect([
      result?.outcome.ok,
      result?.callOutcome,
      result?.outcome.ok === false ? result.outcome.error.reason : '',
    ]).toEqual([false, 'unknown', 'device_offline']);
  });

  // The request left this host: the broker may have passed it on before it died, so the call may have
  // acted and its outcome is unknown, never not_sent (only a publish never written is not sent).
  it('ends a call the broker never acknowledged (it died holding the request) device_offline, as sent', async () => {
    await device('lamp-a');
    const { registry, pairing } = await paired(['lamp-a']);
    pairing.grant('lamp-a', ['set']);
    const sent: string[] = [];
    mosquitto.freeze();
    const calling = registry
      .call('lamp-a', 'set', { on: true }, { onSent: () => sent.push('sent') })
      .catch((error: unknown) => error);
    await mosquitto.kill();
    const error = await calling;
    expect(error).toMatchObject({ reason: 'device_offline' });
    expect(sent).toEqual(['sent']);
    await mosquitto.start();
  });

  it('ends a call whose request the broker’s ACL denies (PUBACK 0x87) unauthorized', async () => {
    await device('locked');
    const { registry, pairing } = await paired(['locked']);
    pairing.grant('locked', ['set']);
    const sent: string[] = [];
    await expect(
      registry.call('locked', 'set', { on: true }, { onSent: () => sent.push('sent') }),
    ).rejects.toMatchObject({
      reason: 'unauthorized',
      detail: `locked: the broker mqtt://host@127.0.0.1:${mosquitto.port} refused the request on ${PREFIX}/test/locked/request: not authorized (reason 0x87)`,
    });
    expect(sent).toEqual([]);
  });

  it('without a broker, attaches a paired device offline saying how to give one, refuses to probe, and scans nothing', async () => {
    const registry = registryWith(undefined);
    const problems: string[] = [];
    registry.onProblem((problem) => problems.push(problem.detail));
    await registry.attach('mqtt:test/lamp-a', {
      trustedIdentity: lampHello('lamp-a').device,
      waitOnlineMs: 0,
    });
    expect(registry.list().map((listed) => [listed.id, listed.status])).toEqual([['lamp-a', 'offline']]);
    expect(problems).toEqual([
      'mqtt:test/lamp-a: no MQTT broker is configured: start with --mqtt mqtt://USER@HOST:PORT (setting mqttUrl)',
    ]);
    await expect(registry.scan({ timeoutMs: 1000 })).resolves.toEqual([]);
    await expect(registry.probe('mqtt:test/lamp-b', {}, { timeoutMs: 1000 })).rejects.toThrow(
      'no MQTT broker is configured',
    );
  });

  it('refuses a broker URL that holds a password before connecting, and names an unset password variable', async () => {
    const withPassword = registryWith(
      broker({ url: `mqtt://host:${TEST_USERS.host.password}@127.0.0.1:${mosquitto.port}` }),
    );
    const refused = (await withPassword.scan({ timeoutMs: 1000 }).catch((error: unknown) => error)) as Error;
    expect(refused.message).toMatch(/the broker URL holds a password/);
    expect(refused.message).not.toContain(TEST_USERS.host.password);
    const unset = registryWith(broker({ passwordEnv: 'NOT_SET_ANYWHERE' }));
    await expect(unset.scan({ timeoutMs: 1000 })).rejects.toThrow(
      'the environment variable NOT_SET_ANYWHERE (the broker password) is not set',
    );
  });
});
