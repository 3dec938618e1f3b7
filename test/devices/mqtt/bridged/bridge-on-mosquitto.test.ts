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
import type { DeviceGrant } from '../../../../devices/links/device-grant.ts';
import type { DeviceEvent } from '../../../../devices/registry/device-registry.ts';
import { signEvent } from '../../../../devices/mqtt/bridged/signed-messages.ts';
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

  /** Resolves with the next problem `made` reports whose detail matches `pattern` (a message counted and dropped). */
  function nextProblem(made: MqttBroker, pattern: RegExp): Promise<string> {
    return new Promise((resolve) => {
      const stop = made.onProblem((problem) => {
        if (!pattern.test(problem.detail)) return;
        stop();
        resolve(problem.detail);
      });
    });
  }

  /**
   * An attacker on the broker: the `device` account, which may read and write every topic. It records
   * the bridge's answers by their correlation data and, when `answer` is set, answers each request for
   * lamp-1 at once (long before the bridge's slow lamp) with what `answer` makes of it.
   */
  async function attacker() {
    const client = broker('device');
    const answers = new Map<string, MqttMessage>();
    const waiters = new Set<() => void>();
    const forged: string[] = [];
    // What it published itself comes back on the reply topic too: never recorded as the bridge's.
    const own = new Set<string>();
    let answer: ((request: MqttMessage) => { payload: string; correlation: Buffer } | undefined) | undefined;
    await client.subscribe(`${PREFIX}/cellar/reply/#`, (message) => {
      const correlation = message.properties?.correlationData?.toString('utf8');
      if (correlation === undefined || own.has(message.payload.toString('utf8')) || answers.has(correlation)) return;
      answers.set(correlation, message);
      for (const wake of [...waiters]) wake();
    });
    await client.subscribe(`${PREFIX}/cellar/device/lamp-1/request`, (request) => {
      const made = answer?.(request);
      const responseTopic = request.properties?.responseTopic;
      if (made === undefined || responseTopic === undefined) return;
      forged.push(made.correlation.toString('utf8'));
      own.add(made.payload);
      void client.publish(responseTopic, made.payload, { qos: 1, properties: { correlationData: made.correlation } });
    });
    await client.connect({ timeoutMs: 10_000 });
    /** Resolves with the first answer the attacker recorded whose body (the response frame) passes `test`. */
    const recorded = (test: (frame: { ok: boolean; result?: unknown }) => boolean): Promise<MqttMessage> =>
      new Promise((resolve) => {
        const check = (): void => {
          const found = [...answers.values()].find((message) => {
            const { body } = JSON.parse(message.payload.toString('utf8')) as { body: string };
            return test(JSON.parse(body) as { ok: boolean; result?: unknown });
          });
          if (found === undefined) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      });
    return {
      client,
      answers,
      recorded,
      forged,
      answerWith: (make: typeof answer) => void (answer = make),
    };
  }

  it('ends a call with the bridge’s true answer only: a forged answer, another call’s answer moved over, or an answer replayed to a later host are dropped and counted', async () => {
    const spy = await attacker();
    const first = await attached(['lamp-1']);
    const link = () => first.get('cellar.lamp-1')!;
    await first.call('cellar.lamp-1', 'set', { on: true });
    const recorded = await spy.recorded((frame) => (frame.result as { on?: unknown } | undefined)?.on === true);
    const recordedBody = JSON.parse(recorded.payload.toString('utf8')) as { body: string };

    // (a) An answer made up by the attacker for the pending call, signed with no key it has.
    spy.answerWith((request) => {
      const correlation = request.properties!.correlationData!;
      const body = JSON.stringify({ id: Number(correlation.toString('utf8')), ok: true, result: { on: true } });
      return { payload: JSON.stringify({ ...recordedBody, body }), correlation };
    });
    const malformedBefore = host.stats.malformed;
    const invalidBefore = link().session.stats.invalidFrame;
    const unsigned = nextProblem(host, /an answer for mqtt:cellar\/lamp-1 not signed with the pairing's key/);
    await expect(first.call('cellar.lamp-1', 'set', { on: false })).resolves.toMatchObject({ on: false });
    await unsigned;

    // (a) A real answer of another call, moved onto the pending call's correlation data.
    spy.answerWith((request) => ({
      payload: recorded.payload.toString('utf8'),
      correlation: request.properties!.correlationData!,
    }));
    const moved = nextProblem(host, /an answer for mqtt:cellar\/lamp-1 not signed with the pairing's key/);
    await expect(first.call('cellar.lamp-1', 'set', { on: false })).resolves.toMatchObject({ on: false });
    await moved;
    expect(spy.forged.length).toBe(2);
    expect(host.stats.malformed - malformedBefore).toBe(2);
    expect(link().session.stats.invalidFrame - invalidBefore).toBe(2);
    await first.dispose();

    // (a) The same host later (a new process: its request ids start again) is sent the answer recorded
    // for the request of the same id in the earlier one: it is signed, and bound to that correlation data.
    spy.answerWith((request) => {
      const correlation = request.properties!.correlationData!;
      const earlier = spy.answers.get(correlation.toString('utf8'));
      return earlier === undefined ? undefined : { payload: earlier.payload.toString('utf8'), correlation };
    });
    const second = await attached(['lamp-1']);
    const forgedBefore = spy.forged.length;
    const replayed = nextProblem(host, /an answer for mqtt:cellar\/lamp-1 to an earlier request/);
    await expect(second.call('cellar.lamp-1', 'set', { on: false })).resolves.toMatchObject({ on: false });
    await replayed;
    // The attack was made: the attacker had an answer for that id and sent it before the bridge's.
    expect(spy.forged.length).toBeGreaterThan(forgedBefore);
    expect(second.get('cellar.lamp-1')!.session.stats.invalidFrame).toBeGreaterThanOrEqual(1);
    spy.answerWith(undefined);
  });

  it('drops a replay of a real signed answer after its call ended, counting it', async () => {
    const spy = await attacker();
    const registry = await attached(['lamp-1']);
    await registry.call('cellar.lamp-1', 'get', {});
    const recorded = await spy.recorded(
      (frame) => typeof (frame.result as { on?: unknown } | undefined)?.on === 'boolean',
    );
    const unmatchedBefore = registry.get('cellar.lamp-1')!.session.stats.unmatchedResponse;
    const malformedBefore = host.stats.malformed;
    const dropped = nextProblem(host, /an answer for mqtt:cellar\/lamp-1 to no request awaiting one/);
    await spy.client.publish(recorded.topic, recorded.payload, {
      qos: 1,
      properties: { correlationData: recorded.properties!.correlationData! },
    });
    await dropped;
    expect(registry.get('cellar.lamp-1')!.session.stats.unmatchedResponse - unmatchedBefore).toBe(1);
    expect(host.stats.malformed - malformedBefore).toBe(1);
    // Nothing broke: the device answers the next call.
    await expect(registry.call('cellar.lamp-1', 'get', {})).resolves.toMatchObject({ on: expect.any(Boolean) });
  });

  it('drops a forged device event, unsigned or signed with another key, counting it: it reaches no listener and changes nothing', async () => {
    const spy = await attacker();
    const registry = await attached(['lamp-1']);
    const events: DeviceEvent[] = [];
    registry.onEvent((event) => void events.push(event));
    const route = { bridge: 'cellar', device: 'lamp-1', host: String(pairing.bridgeHost) };
    const topic = `${PREFIX}/cellar/device/lamp-1/event/${route.host}`;
    const frame = { event: 'pressed', data: { forged: true } };
    const statusBefore = registry.get('cellar.lamp-1')!.session.status;
    const malformedBefore = host.stats.malformed;
    const invalidBefore = registry.get('cellar.lamp-1')!.session.stats.invalidFrame;

    const unsignedDropped = nextProblem(host, /not a bridge event/);
    await spy.client.publish(
      topic,
      JSON.stringify({ ts: Date.now(), nonce: randomBytes(16).toString('base64url'), body: JSON.stringify(frame) }),
      { qos: 1 },
    );
    await unsignedDropped;
    const otherKeyDropped = nextProblem(host, /an event for mqtt:cellar\/lamp-1 not signed with the pairing's key/);
    const otherKey = signEvent({ key: randomBytes(32), route, frame, now: Date.now() });
    await spy.client.publish(topic, JSON.stringify(otherKey), { qos: 1 });
    await otherKeyDropped;
    expect(events).toEqual([]);
    expect(host.stats.malformed - malformedBefore).toBe(2);
    expect(registry.get('cellar.lamp-1')!.session.stats.invalidFrame - invalidBefore).toBe(2);
    expect(registry.get('cellar.lamp-1')!.session.status).toBe(statusBefore);

    // The same event signed with the pairing's key (as only the bridge can) does reach the listeners, once.
    const key = Buffer.from(String(pairing.bridgeKey), 'base64url');
    const signed = JSON.stringify(signEvent({ key, route, frame: { event: 'pressed', data: {} }, now: Date.now() }));
    const arrived = new Promise<void>((resolve) => registry.onEvent(() => resolve()));
    await spy.client.publish(topic, signed, { qos: 1 });
    await arrived;
    expect(events).toEqual([{ event: 'pressed', data: {}, deviceId: 'cellar.lamp-1' }]);
    const replayDropped = nextProblem(host, /a stale or replayed event for mqtt:cellar\/lamp-1/);
    await spy.client.publish(topic, signed, { qos: 1 });
    await replayDropped;
    expect(events).toHaveLength(1);
    expect(registry.get('cellar.lamp-1')!.session.stats.invalidFrame - invalidBefore).toBe(3);
    expect(host.stats.malformed - malformedBefore).toBe(3);
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
