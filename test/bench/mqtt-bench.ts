import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MqttBroker } from '../../devices/mqtt/mqtt-broker.ts';
import { readMqttCredentials } from '../../devices/mqtt/mqtt-url.ts';
import { bridgedFamily } from '../../devices/mqtt/bridged/bridged-family.ts';
import { bridgeTopics } from '../../devices/mqtt/bridged/bridge-topics.ts';
import type { Description } from '../../devices/mqtt/bridged/bridge-wire.ts';
import type { WayInOptions } from '../../devices/links/way-in.ts';
import { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';
import { startMosquitto } from '../helpers/mosquitto.ts';
import { startSimProcess } from '../helpers/start-sim-process.ts';
import { BRIDGE_TEST_ENV, startBridgeOn } from '../helpers/start-bridge-process.ts';

/** Per-call round trip of one way, median and p99. */
export interface RoundTrip {
  calls: number;
  medianUs: number;
  p99Us: number;
}

export interface MqttBench {
  /** What the broker ran with beyond its defaults. */
  brokerConfig: string[];
  /** Lamp `get` on a pseudo-terminal held by this process, and the same lamp kind behind a bridge process and Mosquitto. */
  roundTrip: { local: RoundTrip; bridged: RoundTrip; overheadMedianUs: number };
  /** Four bridged lamps of `simulatedLatencyMs` each: all at once, then one after another. */
  parallel: {
    devices: number;
    simulatedLatencyMs: number;
    parallelMs: number;
    serialMs: number;
    /** serialMs / parallelMs; null when a run executed fewer than all its calls. */
    speedup: number | null;
    executedParallel: number;
    executedSerial: number;
  };
  /** From subscribing to holding all of `devices` retained descriptions (one bridge announcing them). */
  discovery: { devices: number; ms: number };
}

const CALLS = 300;
const WARM_UP = 30;
const SLOW_MS = 250;
const ANNOUNCED = 100;
const MAX_BYTES = 262_144;
/** As docs/scale-out.md advises: without it Mosquitto holds each small write back for the last one's ACK (Nagle), ~40 ms a hop. */
const BROKER_NODELAY = 'set_tcp_nodelay true';

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function timeCalls(call: () => Promise<unknown>): Promise<RoundTrip> {
  for (let index = 0; index < WARM_UP; index += 1) await call();
  const times: number[] = [];
  for (let index = 0; index < CALLS; index += 1) {
    const start = performance.now();
    await call();
    times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  return { calls: CALLS, medianUs: Math.round(percentile(times, 0.5)), p99Us: Math.round(percentile(times, 0.99)) };
}

/**
 * The `mqtt` bench entry: a small call (a lamp's `get`) through Mosquitto and a bridge process beside
 * the same call on a pseudo-terminal of this process; four bridged lamps in parallel against serial,
 * counting the calls that ran; and the time a host takes to find 100 announced devices.
 */
export async function benchMqtt(): Promise<MqttBench> {
  const mosquitto = await startMosquitto({ extraConfig: [BROKER_NODELAY] });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-mqtt-bench-'));
  const env = BRIDGE_TEST_ENV;
  const fast = await startSimProcess({ kinds: ['lamp', 'lamp'], latencyMs: 0 });
  const slow = await startSimProcess({
    kinds: ['lamp', 'lamp', 'lamp', 'lamp'],
    latencyMs: SLOW_MS,
    ids: ['slow-1', 'slow-2', 'slow-3', 'slow-4'],
  });
  const [local, remote] = fast.devices as [(typeof fast.devices)[number], (typeof fast.devices)[number]];
  const bridge = await startBridgeOn(mosquitto, {
    name: 'bench',
    dataDir,
    devicePaths: [remote.path, ...slow.devices.map((device) => device.path)],
  });
  const brokers: MqttBroker[] = [];
  const registries: DeviceRegistry[] = [];
  const connect = async (): Promise<MqttBroker> => {
    const broker = new MqttBroker({
      credentials: readMqttCredentials({ url: mosquitto.url('host'), passwordEnv: 'HOST_PW', env }),
      maxMessageBytes: MAX_BYTES,
    });
    brokers.push(broker);
    await broker.connect({ timeoutMs: 10_000 });
    return broker;
  };
  try {
    const host = await connect();
    const family = bridgedFamily({ topicPrefix: 'home-agent', maxMessageBytes: MAX_BYTES });
    for (const topic of family.discoveryTopics()) await host.subscribe(topic, (message) => family.receive(message));
    const pairing = (await family.pair!({
      path: `mqtt:bench/${remote.id}`,
      code: bridge.pairingCode,
      broker: host,
      signal: AbortSignal.timeout(15_000),
    })) as WayInOptions;
    const registry = new DeviceRegistry({ waysIn: builtinWaysIn(), callTimeoutMs: 10_000 });
    registries.push(registry);
    await registry.attach(local.path, { grant: 'all' });
    for (const id of [remote.id, ...slow.devices.map((device) => device.id)]) {
      const devicePath = `mqtt:bench/${id}`;
      const link = family.openLink({ path: devicePath, options: pairing, broker: host, defaults: {} });
      await registry.attachLink(
        link,
        { path: devicePath, address: devicePath },
        { grant: 'all', waitOnlineMs: 10_000 },
      );
    }
    const localTrip = await timeCalls(() => registry.call(local.id, 'get', {}));
    const bridgedTrip = await timeCalls(() => registry.call(`bench.${remote.id}`, 'get', {}));

    const slowIds = slow.devices.map((device) => `bench.${device.id}`);
    let executedParallel = 0;
    let start = performance.now();
    await Promise.all(slowIds.map((id) => registry.call(id, 'set', { on: true }).then(() => (executedParallel += 1))));
    const parallelMs = performance.now() - start;
    let executedSerial = 0;
    start = performance.now();
    for (const id of slowIds) {
      await registry.call(id, 'set', { on: false });
      executedSerial += 1;
    }
    const serialMs = performance.now() - start;

    const discovery = await benchDiscovery(connect);
    return {
      brokerConfig: [BROKER_NODELAY],
      roundTrip: {
        local: localTrip,
        bridged: bridgedTrip,
        overheadMedianUs: bridgedTrip.medianUs - localTrip.medianUs,
      },
      parallel: {
        devices: slowIds.length,
        simulatedLatencyMs: SLOW_MS,
        parallelMs: Math.round(parallelMs),
        serialMs: Math.round(serialMs),
        speedup:
          executedParallel === slowIds.length && executedSerial === slowIds.length
            ? Number((serialMs / parallelMs).toFixed(2))
            : null,
        executedParallel,
        executedSerial,
      },
      discovery,
    };
  } finally {
    for (const registry of registries) await registry.dispose();
    for (const broker of brokers) await broker.close();
    await bridge.stop();
    await slow.stop();
    await fast.stop();
    await mosquitto.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A publisher announces 100 devices of one bridge (retained); a fresh host connection is timed from connecting until its family holds all. */
async function benchDiscovery(connect: () => Promise<MqttBroker>): Promise<{ devices: number; ms: number }> {
  const publisher = await connect();
  const topics = bridgeTopics('home-agent', 'many');
  await publisher.publish(topics.availability, JSON.stringify({ state: 'online' }), { retain: true });
  for (let index = 1; index <= ANNOUNCED; index += 1) {
    const device = `lamp-${index}`;
    const description: Description = {
      v: 1,
      bridge: 'many',
      device,
      online: true,
      hello: {
        device: { id: `many.${device}`, kind: 'lamp', model: 'bench', firmware: '1' },
        tools: [
          {
            name: 'set',
            description: 'Switch the lamp',
            parameters: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
            parallelSafe: true,
            serial: false,
          },
        ],
        concurrent: true,
      },
    };
    await publisher.publish(topics.description(device), JSON.stringify(description), { retain: true });
  }
  const family = bridgedFamily({ topicPrefix: 'home-agent', maxMessageBytes: MAX_BYTES });
  const start = performance.now();
  const fresh = await connect();
  await new Promise<void>((resolve) => {
    for (const topic of family.discoveryTopics())
      void fresh.subscribe(topic, (message) => {
        const verdict = family.receive(message);
        if (family.found().filter((found) => found.path.startsWith('mqtt:many/')).length === ANNOUNCED) resolve();
        return verdict;
      });
  });
  return { devices: ANNOUNCED, ms: Number((performance.now() - start).toFixed(1)) };
}
