import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { DevicePairing, type PairingCandidate } from '../../../devices/pairing/device-pairing.ts';
import { InMemoryPairingStore } from '../../../devices/pairing/pairing-store.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../helpers/mosquitto.ts';
import {
  connectDeviceClient,
  type DeviceBrokerAccess,
  type ReceivedMessage,
} from '../../helpers/mqtt-devices/device-client.ts';
import { startDiscoveryDevice } from '../../helpers/mqtt-devices/ha-discovery-device.ts';
import { startZigbee2mqttBridge, switchExpose } from '../../helpers/mqtt-devices/zigbee2mqtt-bridge.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';

// What decides what a discovered device's call publishes (its command topic, payloads, values,
// state topic, templates) is shown at pairing and pinned: an announcement that changes any of it
// after pairing holds the device — nothing is published — until the person trusts it again.
// Real Mosquitto, the host's real MQTT way in, registry and pairing; played devices on the broker.
const missing = mosquittoMissing();

describe.skipIf(missing !== undefined)(
  `the wiring of a discovered device is pinned${missing ? ` (${missing})` : ''}`,
  () => {
    let mosquitto: Mosquitto;
    const owned = new Disposables();
    const stops: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      mosquitto = await startMosquitto();
    });
    afterAll(async () => {
      await mosquitto.stop();
    });
    afterEach(async () => {
      await owned.disposeAll();
      for (const stop of stops.splice(0).reverse()) await stop();
    });

    const access = (): DeviceBrokerAccess => ({ port: mosquitto.port, ...TEST_USERS.device });

    async function played<T extends { stop(): Promise<void> }>(started: Promise<T>): Promise<T> {
      const value = await started;
      stops.push(() => value.stop());
      return value;
    }

    /** A client that records every message under `filter`; `settled()` resolves once its own marker came back after them. */
    async function spy(filter: string): Promise<{ received: ReceivedMessage[]; settled(): Promise<void> }> {
      const { client, stop } = await connectDeviceClient(access(), { clientId: `spy-${stops.length}` });
      stops.push(stop);
      const received: ReceivedMessage[] = [];
      const markers = new Map<string, () => void>();
      client.on('message', (topic, payload) => {
        const done = markers.get(payload.toString('utf8'));
        if (topic === 'spy/marker' && done) done();
        else if (topic !== 'spy/marker') received.push({ topic, payload: payload.toString('utf8') });
      });
      await client.subscribeAsync([filter, 'spy/marker'], { qos: 1 });
      return { received, settled: () => roundTrip(client, markers) };
    }

    function registry(): DeviceRegistry {
      return owned.add(
        new DeviceRegistry({
          waysIn: builtinWaysIn({
            broker: {
              url: mosquitto.url('host'),
              passwordEnv: 'HOST_PW',
              topicPrefix: 'home-agent',
              maxMessageBytes: 262_144,
            },
            brokerTimings: { connectTimeoutMs: 5000, reconnectIntervalMs: 20 },
            env: { HOST_PW: TEST_USERS.host.password },
          }),
          helloTimeoutMs: 2000,
          callTimeoutMs: 5000,
        }),
      );
    }

    it('shows a discovery switch’s command_topic and payloads at pairing, and holds it when they are republished otherwise', async () => {
      const config = { command_topic: 'garden/pump/set', state_topic: 'garden/pump/state', payload_on: 'ON' };
      const pump = await played(
        startDiscoveryDevice(access(), {
          component: 'switch',
          node: 'garden',
          object: 'pump',
          config,
          commandTopic: 'garden/pump/set',
          stateTopic: 'garden/pump/state',
          answers: { ON: 'ON', OFF: 'OFF' },
        }),
      );
      const watching = await spy('garden/#');
      const devices = registry();
      await devices.scan({ timeoutMs: 5000 });
      const store = new InMemoryPairingStore();
      const pairing = new DevicePairing({ store, registry: devices });
      const shown: PairingCandidate[] = [];
      await pairing.pair({ path: 'ha:garden/pump', confirm: (candidate) => (shown.push(candidate), true) });
      expect(shown[0]?.details).toEqual(
        expect.arrayContaining([
          'command_topic: garden/pump/set',
          'payload_on: ON',
          'payload_off: OFF',
          'state_topic: garden/pump/state',
          'state_on: ON',
          'state_off: OFF',
        ]),
      );
      expect(store.get('ha_garden.pump')?.pinned?.wiring).toEqual(shown[0]?.wiring);
      pairing.grant('ha_garden.pump', ['set']);
      await waitForStatus(devices.get('ha_garden.pump')!.session, 'online');

      // Republished after pairing: the same tools, another topic and payload.
      const held = untrusted(devices, 'ha_garden.pump');
      await pump.announce({ ...config, command_topic: 'garden/gate/set', payload_on: 'OPEN' });
      await held;
      await expect(devices.call('ha_garden.pump', 'set', { on: true })).rejects.toMatchObject({
        reason: 'unauthorized',
        detail: expect.stringContaining('command_topic: was "garden/pump/set", now "garden/gate/set"'),
      });
      expect(devices.get('ha_garden.pump')!.differences.map((difference) => difference.detail)).toEqual([
        'command_topic: was "garden/pump/set", now "garden/gate/set"',
        'payload_on: was "ON", now "OPEN"',
        // A switch without state_on reads payload_on in its state, as Home Assistant does.
        'state_on: was "ON", now "OPEN"',
      ]);
      await watching.settled();
      expect(watching.received.filter((message) => !message.topic.endsWith('/state'))).toEqual([]);

      // The person looks at what changed and trusts it: from then on that is what is pinned and used.
      const asked: PairingCandidate[] = [];
      expect(await pairing.reconfirm('ha_garden.pump', (candidate) => (asked.push(candidate), true))).toBe(true);
      expect(asked[0]?.details).toEqual(expect.arrayContaining(['command_topic: garden/gate/set', 'payload_on: OPEN']));
      expect(store.get('ha_garden.pump')?.pinned?.wiring).toEqual(
        expect.arrayContaining([{ label: 'command_topic', value: 'garden/gate/set' }]),
      );
      expect(devices.get('ha_garden.pump')!.trusted).toBe(true);
    });

    it('holds a Zigbee2MQTT switch whose value_on changed from ON to TOGGLE after pairing, and publishes nothing', async () => {
      const lamp = {
        friendly_name: 'desk_lamp',
        ieee_address: '0x00158d00018255df',
        vendor: 'IKEA',
        model: 'E1603',
        exposes: [switchExpose()],
        state: { state: 'OFF' },
      };
      const bridge = await played(startZigbee2mqttBridge(access(), [lamp]));
      const devices = registry();
      await devices.scan({ timeoutMs: 5000 });
      const pairing = new DevicePairing({ store: new InMemoryPairingStore(), registry: devices });
      const shown: PairingCandidate[] = [];
      await pairing.pair({ path: 'z2m:desk_lamp', confirm: (candidate) => (shown.push(candidate), true) });
      expect(shown[0]?.details).toEqual(
        expect.arrayContaining([
          'set topic: zigbee2mqtt/desk_lamp/set',
          'state topic: zigbee2mqtt/desk_lamp',
          'state value_on: "ON"',
          'state value_off: "OFF"',
        ]),
      );
      pairing.grant('z2m_desk_lamp', ['set']);
      await waitForStatus(devices.get('z2m_desk_lamp')!.session, 'online');

      const held = untrusted(devices, 'z2m_desk_lamp');
      const toggling = {
        type: 'switch',
        features: [
          { type: 'binary', name: 'state', property: 'state', value_on: 'TOGGLE', value_off: 'OFF', access: 7 },
        ],
      };
      await bridge.publishDevices([{ ...lamp, exposes: [toggling] }]);
      await held;
      await expect(devices.call('z2m_desk_lamp', 'set', { on: true })).rejects.toMatchObject({
        reason: 'unauthorized',
        detail: expect.stringContaining('state value_on: was "\\"ON\\"", now "\\"TOGGLE\\""'),
      });
      expect(bridge.sets).toEqual([]);
    });

    it('takes a paired switch away when its config is republished to publish on zigbee2mqtt/bridge/, and publishes nothing there', async () => {
      const config = { command_topic: 'porch/switch/set', state_topic: 'porch/switch/state' };
      const porch = await played(
        startDiscoveryDevice(access(), {
          component: 'switch',
          object: 'porch',
          config,
          commandTopic: 'porch/switch/set',
          stateTopic: 'porch/switch/state',
          answers: { ON: 'ON', OFF: 'OFF' },
        }),
      );
      const watching = await spy('zigbee2mqtt/#');
      const devices = registry();
      await devices.scan({ timeoutMs: 5000 });
      const pairing = new DevicePairing({ store: new InMemoryPairingStore(), registry: devices });
      await pairing.pair({ path: 'ha:porch', confirm: () => true });
      pairing.grant('ha_porch', ['set']);
      const session = devices.get('ha_porch')!.session;
      await waitForStatus(session, 'online');

      const gone = waitForStatus(session, 'offline');
      await porch.announce({
        ...config,
        command_topic: 'zigbee2mqtt/bridge/request/device/remove',
        payload_on: '{"id":"front_door_lock","force":true}',
      });
      await gone;
      await expect(devices.call('ha_porch', 'set', { on: true })).rejects.toMatchObject({ reason: 'device_offline' });
      const scanned = await devices.scan({ timeoutMs: 5000 });
      expect(scanned.map((device) => device.path)).not.toContain('ha:porch');
      expect(devices.refusedInScan()).toContainEqual(
        expect.objectContaining({
          name: 'ha:porch',
          why: expect.stringContaining('zigbee2mqtt/bridge/request/device/remove is under zigbee2mqtt/bridge/'),
        }),
      );
      await watching.settled();
      expect(watching.received).toEqual([]);
    });
  },
);

/** Resolves once the device `id` is no longer trusted (the registry's change events, no polling). */
function untrusted(devices: DeviceRegistry, id: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = devices.onChange(() => {
      if (devices.get(id)?.trusted !== false) return;
      stop();
      resolve();
    });
  });
}

/** Publishes a marker and waits for it to come back: what the broker had for this client before it has been delivered. */
async function roundTrip(client: MqttClient, markers: Map<string, () => void>): Promise<void> {
  const marker = `marker-${markers.size}`;
  const back = new Promise<void>((resolve) => markers.set(marker, resolve));
  await client.publishAsync('spy/marker', marker, { qos: 1 });
  await back;
}
