import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../../../core/batch/run-batch.ts';
import { DevicePairing } from '../../../devices/pairing/device-pairing.ts';
import { InMemoryPairingStore } from '../../../devices/pairing/pairing-store.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../helpers/mosquitto.ts';
import type { DeviceBrokerAccess } from '../../helpers/mqtt-devices/device-client.ts';
import { startDiscoveryDevice } from '../../helpers/mqtt-devices/ha-discovery-device.ts';
import { startTasmotaDevice } from '../../helpers/mqtt-devices/tasmota-device.ts';
import { numericExpose, startZigbee2mqttBridge, switchExpose } from '../../helpers/mqtt-devices/zigbee2mqtt-bridge.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';

// The three conventions through the host's real MQTT way in (the built-in list of ways in and of
// families), the registry, pairing and the devices plugin: found by the scan, paired with nothing
// granted, usable only once granted, and a granted call reaches the played device as its documentation says.
const missing = mosquittoMissing();

describe.skipIf(missing !== undefined)(
  `convention devices paired like local ones${missing ? ` (${missing})` : ''}`,
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

    it('scans, pairs with no grant, and only a granted call publishes the documented payload', async () => {
      const bridge = await played(
        startZigbee2mqttBridge(access(), [
          {
            friendly_name: 'desk_lamp',
            ieee_address: '0x00158d00018255df',
            vendor: 'IKEA',
            model: 'E1603',
            exposes: [switchExpose(), numericExpose('power', 'W')],
            state: { state: 'OFF', power: 0 },
          },
        ]),
      );
      const tasmota = await played(startTasmotaDevice(access(), { topic: 'kettle' }));
      const discovered = await played(
        startDiscoveryDevice(access(), {
          component: 'switch',
          node: 'garden',
          object: 'pump',
          config: {
            command_topic: 'garden/pump/set',
            state_topic: 'garden/pump/state',
            dev: { mf: 'Acme', mdl: 'P1' },
          },
          commandTopic: 'garden/pump/set',
          stateTopic: 'garden/pump/state',
          answers: { ON: 'ON', OFF: 'OFF' },
        }),
      );

      const devices = registry();
      const scanned = await devices.scan({ timeoutMs: 5000 });
      expect(
        scanned.map((found) => [found.wayIn, found.source, found.path, found.identity.id, found.online]).sort(),
      ).toEqual([
        ['mqtt', 'ha', 'ha:garden/pump', 'ha_garden.pump', true],
        ['mqtt', 'tasmota', 'tasmota:kettle', 'tasmota_kettle', true],
        ['mqtt', 'z2m', 'z2m:desk_lamp', 'z2m_desk_lamp', true],
      ]);

      const pairing = new DevicePairing({ store: new InMemoryPairingStore(), registry: devices });
      const shown: string[] = [];
      for (const path of ['z2m:desk_lamp', 'tasmota:kettle', 'ha:garden/pump']) {
        const result = await pairing.pair({
          path,
          confirm: (candidate) => {
            shown.push(
              `${candidate.identity.id} ${candidate.identity.kind} ${candidate.tools.map((tool) => tool.name).join(',')}`,
            );
            return true;
          },
        });
        expect(result).toMatchObject({ path, wayIn: 'mqtt', grants: [] });
      }
      expect(shown).toEqual([
        'z2m_desk_lamp switch set,read',
        'tasmota_kettle switch set,read',
        'ha_garden.pump switch set,read',
      ]);
      for (const id of ['z2m_desk_lamp', 'tasmota_kettle', 'ha_garden.pump'])
        await waitForStatus(devices.get(id)!.session, 'online');

      // Paired, not granted: no tool reaches them, and nothing was published to any of them.
      const plugin = createDevicesPlugin(devices);
      expect(plugin.tools().map((tool) => tool.name)).toEqual([]);
      expect([bridge.sets, tasmota.commands, discovered.commands]).toEqual([[], [], []]);

      pairing.grant('z2m_desk_lamp', ['set']);
      pairing.grant('tasmota_kettle', ['set']);
      pairing.grant('ha_garden.pump', ['set']);
      const set = plugin.tools().find((tool) => tool.name === 'switch__set')!;
      expect(plugin.tools().map((tool) => tool.name)).toEqual(['switch__set']);
      const results = await runBatch({
        scope: { conversationId: 'c', turnId: 't', signal: new AbortController().signal, emit: () => undefined },
        batchId: 'b',
        step: 1,
        calls: [
          { index: 0, callId: 'a', name: 'switch__set', args: { device_id: 'z2m_desk_lamp', on: true }, tool: set },
          { index: 1, callId: 'b', name: 'switch__set', args: { device_id: 'tasmota_kettle', on: true }, tool: set },
          { index: 2, callId: 'c', name: 'switch__set', args: { device_id: 'ha_garden.pump', on: false }, tool: set },
        ],
        pipeline: { defaultTimeoutMs: 10_000 },
      });
      expect(results.map((result) => [result.outcome, result.callOutcome])).toEqual([
        [{ ok: true, value: { device_id: 'z2m_desk_lamp', result: { on: true, confirmed: true } } }, 'done'],
        [{ ok: true, value: { device_id: 'tasmota_kettle', result: { on: true, confirmed: true } } }, 'done'],
        [{ ok: true, value: { device_id: 'ha_garden.pump', result: { on: false, confirmed: true } } }, 'done'],
      ]);
      expect([bridge.sets, tasmota.commands, discovered.commands]).toEqual([
        [{ topic: 'zigbee2mqtt/desk_lamp/set', payload: '{"state":"ON"}' }],
        [{ topic: 'cmnd/kettle/POWER', payload: 'ON' }],
        [{ topic: 'garden/pump/set', payload: 'OFF' }],
      ]);
      // `read` was never granted: the agent still cannot read them.
      expect(plugin.tools().map((tool) => tool.name)).not.toContain('switch__read');
    });
  },
);
