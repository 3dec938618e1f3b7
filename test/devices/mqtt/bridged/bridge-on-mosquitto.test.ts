import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../core/tools/tool-error.ts';
import { MqttBroker, type MqttMessage } from '../../../../devices/mqtt/mqtt-broker.ts';
import { readMqttCredentials } from '../../../../devices/mqtt/mqtt-url.ts';
import { bridgedFamily } from '../../../../devices/mqtt/bridged/bridged-family.ts';
import type { MqttDeviceFamily } from '../../../../devices/mqtt/mqtt-device-family.ts';
import { DeviceRegistry } from '../../../../devices/registry/device-registry.ts';
import type { WayInOptions } from '../../../../devices/links/way-in.ts';
import type { DeviceGrant } from '../../../../devices/registry/device-grant.ts';
import { startMosquitto, type Mosquitto } from '../../../helpers/mosquitto.ts';
import { startSimProcess, type SimProcess } from '../../../helpers/start-sim-process.ts';
import {
  BRIDGE_TEST_ENV as ENV,
  bridgeRigMissing,
  startBridgeOn,
  type BridgeProcess,
} from '../../../helpers/start-bridge-process.ts';

const missing = bridgeRigMissing();
const PREFIX = 'home-agent';
const MAX_BYTES = 262_144;
/** Long enough that four calls are all in flight before the first answers, whatever the load. */
const SLOW_MS = 1500;

describe.skipIf(missing !== undefined)(`home-agent bridge on Mosquitto${missing ? ` (${missing})` : ''}`, () => {
  let mosquitto: Mosquitto;
  let sim: SimProcess;
  let bridge: BridgeProcess;
  let dataDir: string;
  let host: MqttBroker;
  let family: MqttDeviceFamily;
  let pairing: WayInOptions;
  const registries: DeviceRegistry[] = [];
  const brokers: MqttBroker[] = [];

  function broker(user: 'host' | 'device'): MqttBroker {
    const made = new MqttBroker({
      credentials: readMqttCredentials({
        url: mosquitto.url(user),
        passwordEnv: user === 'host' ? 'HOST_PW' : 'DEVICE_PW',
        env: ENV,
      }),
      maxMessageBytes: MAX_BYTES,
      reconnectIntervalMs: 50,
    });
    brokers.push(made);
    return made;
  }

  function startBridge(): Promise<BridgeProcess> {
    return startBridgeOn(mosquitto, { name: 'cellar', dataDir, devicePaths: sim.devices.map((device) => device.path) });
  }

  /** Resolves once `test` holds of the family's found devices (checked after every message it reads). */
  function foundWhen(test: (paths: string[]) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): boolean =>
        test(
          family
            .found()
            .filter((device) => device.online)
            .map((device) => device.path),
        );
      if (check()) return resolve();
      void Promise.all(
        family.discoveryTopics().map((topic) =>
          host.subscribe(topic, () => {
            if (check()) resolve();
          }),
        ),
      );
    });
  }

  /** A registry holding links to the given lamps, paired with `options`, granted `grant`. */
  async function attached(
    lamps: string[],
    options: { pairing?: WayInOptions; grant?: DeviceGrant; waitOnlineMs?: number } = {},
  ) {
    const registry = new DeviceRegistry({ waysIn: [], callTimeoutMs: 4 * SLOW_MS, helloTimeoutMs: 2000 });
    registries.push(registry);
    for (const lamp of lamps) {
      const devicePath = `mqtt:cellar/${lamp}`;
      const link = family.openLink({
        path: devicePath,
        options: options.pairing ?? pairing,
        broker: host,
        defaults: { helloTimeoutMs: 2000 },
      });
      await registry.attachLink(
        link,
        { path: devicePath, address: devicePath },
        {
          grant: options.grant ?? 'all',
          ...(options.waitOnlineMs !== undefined
            ? {
                waitOnlineMs: options.waitOnlineMs,
                trustedIdentity: { id: `cellar.${lamp}`, kind: 'lamp', model: '', firmware: '' },
              }
            : {}),
        },
      );
    }
    return registry;
  }

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    sim = await startSimProcess({ kinds: ['lamp', 'lamp', 'lamp', 'lamp'], latencyMs: SLOW_MS });
    dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-bridge-'));
    bridge = await startBridge();
    host = broker('host');
    family = bridgedFamily({ topicPrefix: PREFIX, maxMessageBytes: MAX_BYTES });
    for (const topic of family.discoveryTopics()) await host.subscribe(topic, (message) => family.receive(message));
    await host.connect({ timeoutMs: 10_000 });
  }, 60_000);

  afterAll(async () => {
    for (const registry of registries) await registry.dispose();
    for (const made of brokers) await made.close();
    await bridge?.stop();
    await sim?.stop();
    await mosquitto?.stop();
  });

  afterEach(async () => {
    for (const registry of registries.splice(0)) await registry.dispose();
  });

  it('publishes each device as BRIDGE.ID at mqtt:BRIDGE/ID, and prints them with a one-time code', async () => {
    expect(bridge.devices.map((device) => device.id)).toEqual([
      'cellar.lamp-1',
      'cellar.lamp-2',
      'cellar.lamp-3',
      'cellar.lamp-4',
    ]);
    expect(bridge.devices[0]).toEqual({ id: 'cellar.lamp-1', kind: 'lamp', path: 'mqtt:cellar/lamp-1' });
    expect(bridge.pairingCode).toMatch(/^[A-Za-z0-9-]+$/);
    await foundWhen((paths) => paths.length === 4);
    const found = family.found();
    expect(found.map((device) => device.path)).toEqual([
      'mqtt:cellar/lamp-1',
      'mqtt:cellar/lamp-2',
      'mqtt:cellar/lamp-3',
      'mqtt:cellar/lamp-4',
    ]);
    expect(found[0]?.hello.device).toMatchObject({ id: 'cellar.lamp-1', kind: 'lamp' });
    expect(found[0]?.hello.tools.map((tool) => tool.name).sort()).toEqual(['get', 'set']);
  });

  it('pairs a host that has the code, once: the code is used up', async () => {
    pairing = (await family.pair!({
      path: 'mqtt:cellar/lamp-1',
      code: bridge.pairingCode,
      broker: host,
      signal: AbortSignal.timeout(15_000),
    }))!;
    expect(Object.keys(pairing).sort()).toEqual(['bridgeHost', 'bridgeKey']);
    await bridge.stderrWhen(/paired with host [0-9a-f]{16}/);
    // Another device of the bridge needs no code: the host holds the bridge's key.
    expect(
      await family.pair!({
        path: 'mqtt:cellar/lamp-2',
        code: undefined,
        broker: host,
        signal: AbortSignal.timeout(15_000),
      }),
    ).toEqual(pairing);
    const other = bridgedFamily({ topicPrefix: PREFIX, maxMessageBytes: MAX_BYTES });
    await expect(
      other.pair!({
        path: 'mqtt:cellar/lamp-1',
        code: bridge.pairingCode,
        broker: host,
        signal: AbortSignal.timeout(15_000),
      }),
    ).rejects.toThrow(/refused the pairing: no pairing code is pending/);
    await expect(
      other.pair!({ path: 'mqtt:cellar/lamp-1', code: undefined, broker: host, signal: AbortSignal.timeout(15_000) }),
    ).rejects.toThrow(/needs its pairing code: add --code CODE/);
  });

  it('runs calls on four bridged devices at once, each answered by its own device', async () => {
    const lamps = ['lamp-1', 'lamp-2', 'lamp-3', 'lamp-4'];
    const registry = await attached(lamps);
    const order: string[] = [];
    let allSent!: () => void;
    const sent = new Promise<void>((resolve) => (allSent = resolve));
    const calls = lamps.map((lamp) =>
      registry
        .call(
          `cellar.${lamp}`,
          'set',
          { on: true },
          {
            onSent: () => {
              order.push(`sent ${lamp}`);
              if (order.filter((entry) => entry.startsWith('sent')).length === 4) allSent();
            },
          },
        )
        .then((result) => {
          order.push(`done ${lamp}`);
          return result;
        }),
    );
    await sent;
    // All four are on the wire, and none has come back: they run side by side on the bridge.
    expect(order.filter((entry) => entry.startsWith('done'))).toEqual([]);
    const results = await Promise.all(calls);
    expect(results).toEqual(lamps.map(() => expect.objectContaining({ on: true })));
    for (const lamp of lamps) await sim.waitForState(lamp, (state) => state.on === true);
  });

  it('refuses what the host has not granted, at the bridge, until it is granted', async () => {
    const registry = await attached(['lamp-3'], { grant: ['get'] });
    // The registry runs what it is asked (its callers authorise): the bridge is the one refusing here.
    const refused = await registry.call('cellar.lamp-3', 'set', { on: false }).catch((error: unknown) => error);
    expect(ToolError.isInstance(refused) && refused.reason).toBe('unauthorized');
    expect((refused as ToolError).detail).toMatch(/the bridge refuses set: the host has not granted it/);
    await bridge.stderrWhen(/refused a request of host [0-9a-f]{16} for lamp-3/);
    registry.setGrant('cellar.lamp-3', ['get', 'set']);
    await expect(registry.call('cellar.lamp-3', 'set', { on: false })).resolves.toMatchObject({ on: false });
  });

  it('refuses a recorded request played again, and runs nothing for it', async () => {
    const spy = broker('device');
    const requests: MqttMessage[] = [];
    const replies: MqttMessage[] = [];
    await spy.subscribe(`${PREFIX}/cellar/device/+/request`, (message) => void requests.push(message));
    await spy.subscribe(`${PREFIX}/cellar/reply/#`, (message) => void replies.push(message));
    await spy.connect({ timeoutMs: 10_000 });
    const registry = await attached(['lamp-4']);
    const statesBefore = sim
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('lamp-4 state')).length;
    await registry.call('cellar.lamp-4', 'set', { on: false });
    const recorded = requests.at(-1)!;
    expect(recorded.topic).toBe(`${PREFIX}/cellar/device/lamp-4/request`);
    const repliesBefore = replies.length;
    const stderrBefore = bridge.stderr().length;
    await spy.publish(recorded.topic, recorded.payload, { qos: 1, properties: recorded.properties! });
    await bridge.stderrWhen(
      /refused a request of host [0-9a-f]{16} for lamp-4: refused: its nonce was used already \(a replay\)/,
      stderrBefore,
    );
    // A call after it: had the replay run, the lamp would have said one more state before this one.
    await registry.call('cellar.lamp-4', 'get', {});
    const states = sim
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('lamp-4 state'));
    expect(states.length).toBe(statesBefore + 2);
    expect(replies.length).toBeGreaterThan(repliesBefore);
  });

  it('does not answer a host that is not paired, or one signing with another key', async () => {
    const stranger = { bridgeHost: randomBytes(8).toString('hex'), bridgeKey: randomBytes(32).toString('base64url') };
    const forger = { bridgeHost: String(pairing.bridgeHost), bridgeKey: randomBytes(32).toString('base64url') };
    for (const [options, why] of [
      [stranger, 'unpaired'],
      [forger, 'forged'],
    ] as const) {
      const stderrBefore = bridge.stderr().length;
      const registry = await attached(['lamp-1'], { pairing: options, waitOnlineMs: 0 });
      await bridge.stderrWhen(new RegExp(`left a request for lamp-1 unanswered \\(${why}\\)`), stderrBefore);
      expect(registry.get('cellar.lamp-1')?.session.status).toBe('connecting');
      await registry.dispose();
    }
  });

  it('ends calls in flight device_offline when the broker goes away (sent: outcome unknown), sends none while it is away, and comes back with it', async () => {
    const lamps = ['lamp-1', 'lamp-2', 'lamp-3', 'lamp-4'];
    const registry = await attached(lamps);
    const sent = new Set<string>();
    let allSent!: () => void;
    const allOnWire = new Promise<void>((resolve) => (allSent = resolve));
    const calls = lamps.map((lamp) =>
      registry
        .call(
          `cellar.${lamp}`,
          'set',
          { on: false },
          {
            onSent: () => {
              sent.add(lamp);
              if (sent.size === 4) allSent();
            },
          },
        )
        .then(
          () => 'done',
          (error: unknown) => (ToolError.isInstance(error) ? error.reason : String(error)),
        ),
    );
    await allOnWire;
    await mosquitto.stopBroker();
    expect(await Promise.all(calls)).toEqual(['device_offline', 'device_offline', 'device_offline', 'device_offline']);
    // While the broker is away a call is never sent (its outcome: not_sent).
    let lateSent = false;
    const late = await registry
      .call('cellar.lamp-1', 'get', {}, { onSent: () => (lateSent = true) })
      .catch((error: unknown) => error);
    expect(ToolError.isInstance(late) && late.reason).toBe('device_offline');
    expect(lateSent).toBe(false);
    await mosquitto.start();
    for (const lamp of lamps) await registry.get(`cellar.${lamp}`)!.session.whenOnline({ timeoutMs: 15_000 });
    await expect(registry.call('cellar.lamp-2', 'get', {})).resolves.toMatchObject({ on: expect.any(Boolean) });
  });

  it('takes a killed bridge’s devices offline by its last will, ends the pending call, and comes back with it', async () => {
    const registry = await attached(['lamp-2']);
    let wasSent = false;
    let onWire!: () => void;
    const sent = new Promise<void>((resolve) => (onWire = resolve));
    const pending = registry
      .call(
        'cellar.lamp-2',
        'set',
        { on: true },
        {
          onSent: () => {
            wasSent = true;
            onWire();
          },
        },
      )
      .catch((error: unknown) => error);
    await sent;
    await bridge.kill();
    const ended = await pending;
    expect(ToolError.isInstance(ended) && ended.reason).toBe('device_offline');
    expect((ended as ToolError).detail).toMatch(/the bridge cellar is offline/);
    expect(wasSent).toBe(true);
    expect(registry.get('cellar.lamp-2')?.session.status).toBe('offline');
    bridge = await startBridge();
    await registry.get('cellar.lamp-2')!.session.whenOnline({ timeoutMs: 15_000 });
    await expect(registry.call('cellar.lamp-2', 'get', {})).resolves.toMatchObject({ on: expect.any(Boolean) });
  });
});
