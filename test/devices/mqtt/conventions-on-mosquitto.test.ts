import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../core/tools/tool-error.ts';
import type { DeviceLink } from '../../../devices/links/device-link.ts';
import { MqttBroker } from '../../../devices/mqtt/mqtt-broker.ts';
import type { MqttDeviceFamily } from '../../../devices/mqtt/mqtt-device-family.ts';
import { readMqttCredentials } from '../../../devices/mqtt/mqtt-url.ts';
import { HaFamily } from '../../../devices/mqtt/ha-discovery/ha-family.ts';
import { TasmotaFamily } from '../../../devices/mqtt/tasmota/tasmota-family.ts';
import { Z2mFamily } from '../../../devices/mqtt/zigbee2mqtt/z2m-family.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../helpers/mosquitto.ts';
import type { DeviceBrokerAccess } from '../../helpers/mqtt-devices/device-client.ts';
import { startDiscoveryDevice } from '../../helpers/mqtt-devices/ha-discovery-device.ts';
import { startTasmotaDevice } from '../../helpers/mqtt-devices/tasmota-device.ts';
import {
  lightExpose,
  numericExpose,
  startZigbee2mqttBridge,
  switchExpose,
} from '../../helpers/mqtt-devices/zigbee2mqtt-bridge.ts';
import { waitForStatus } from '../../helpers/pty-pair.ts';

// The three convention families against Debian's Mosquitto, the devices played by publishers written
// from each project's documented topics (test/helpers/mqtt-devices/). Each played device records what it
// received on its own MQTT subscription: that is what the assertions of exact payloads read.
const missing = mosquittoMissing();
const ENV = { HOST_PW: TEST_USERS.host.password };
const SYNC_TOPIC = 'home-agent-test/sync';

describe.skipIf(missing !== undefined)(`convention devices on Mosquitto${missing ? ` (${missing})` : ''}`, () => {
  let mosquitto: Mosquitto;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    mosquitto = await startMosquitto();
  });
  afterAll(async () => {
    await mosquitto.stop();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const deviceAccess = (): DeviceBrokerAccess => ({ port: mosquitto.port, ...TEST_USERS.device });

  async function own<T extends { stop(): Promise<void> }>(made: Promise<T>): Promise<T> {
    const value = await made;
    cleanups.push(() => value.stop());
    return value;
  }

  /** The host's side: one broker connection feeding `family` its discovery topics, retained ones delivered. */
  async function hostWith(family: MqttDeviceFamily, on: Mosquitto = mosquitto): Promise<MqttBroker> {
    const broker = new MqttBroker({
      credentials: readMqttCredentials({ url: on.url('host'), passwordEnv: 'HOST_PW', env: ENV }),
      maxMessageBytes: 262_144,
      reconnectIntervalMs: 20,
    });
    cleanups.push(() => broker.close());
    await broker.connect({ timeoutMs: 10_000 });
    for (const filter of family.discoveryTopics()) await broker.subscribe(filter, (message) => family.receive(message));
    await broker.sync(SYNC_TOPIC, { timeoutMs: 10_000 });
    return broker;
  }

  async function openLink(family: MqttDeviceFamily, broker: MqttBroker, path: string, callTimeoutMs = 5000) {
    const link = family.openLink({ path, options: {}, broker, defaults: { callTimeoutMs, helloTimeoutMs: 5000 } });
    cleanups.push(() => link.dispose());
    link.start();
    await link.whenOnline({ timeoutMs: 10_000 });
    // The link's own subscriptions (state, availability) are granted and their retained messages in.
    await broker.sync(SYNC_TOPIC, { timeoutMs: 10_000 });
    return link;
  }

  /** Calls through the link as the kernel would, recording whether the request was reported sent. */
  async function call(link: DeviceLink, tool: string, args: Record<string, unknown>) {
    let sent = false;
    try {
      const value = await link.call(tool, args, { onSent: () => void (sent = true) });
      return { ok: true as const, value, sent };
    } catch (error) {
      if (!ToolError.isInstance(error)) throw error;
      return { ok: false as const, error: error.toData(), sent };
    }
  }

  describe('Zigbee2MQTT', () => {
    it('finds the bridge’s devices and sets a plug with exactly {"state":"ON"}, completing on its state', async () => {
      const bridge = await own(
        startZigbee2mqttBridge(deviceAccess(), [
          {
            friendly_name: 'hall/plug',
            ieee_address: '0x00158d00018255df',
            vendor: 'Xiaomi',
            model: 'ZNCZ02LM',
            exposes: [switchExpose(), numericExpose('power', 'W')],
            state: { state: 'OFF', power: 0 },
          },
          {
            friendly_name: 'hall sensor',
            ieee_address: '0x00158d0001a2b3c4',
            vendor: 'Xiaomi',
            model: 'WSDCGQ01LM',
            exposes: [numericExpose('temperature', '°C'), numericExpose('humidity', '%')],
            state: {},
          },
        ]),
      );
      const family = new Z2mFamily();
      const broker = await hostWith(family);
      expect(family.found().map((found) => [found.path, found.hello.device.id, found.hello.device.kind])).toEqual([
        ['z2m:hall sensor', 'z2m_hall-sensor-a6f5842c', 'sensor'],
        ['z2m:hall/plug', 'z2m_hall.plug', 'switch'],
      ]);

      const plug = await openLink(family, broker, 'z2m:hall/plug');
      // No state seen yet (Zigbee2MQTT does not retain it): read asks /get, and the state answers.
      expect(await call(plug, 'read', {})).toEqual({
        ok: true,
        value: { state: 'OFF', power: 0, as_of: expect.any(String) },
        sent: true,
      });
      expect(bridge.gets).toEqual([{ topic: 'zigbee2mqtt/hall/plug/get', payload: '{"state":""}' }]);
      expect(await call(plug, 'set', { on: true })).toEqual({
        ok: true,
        value: { on: true, confirmed: true },
        sent: true,
      });
      expect(bridge.sets).toEqual([{ topic: 'zigbee2mqtt/hall/plug/set', payload: '{"state":"ON"}' }]);

      const sensor = await openLink(family, broker, 'z2m:hall sensor');
      await bridge.publishState('hall sensor', { temperature: 21.5, humidity: 40, linkquality: 120 });
      await broker.sync(SYNC_TOPIC, { timeoutMs: 10_000 });
      expect(await call(sensor, 'read', {})).toEqual({
        ok: true,
        value: { temperature: 21.5, humidity: 40, as_of: expect.any(String) },
        sent: false,
      });
    });

    it('a light on 2.x’s wire (JSON bridge/state and availability, state echoed unretained) is set, confirmed by the echo', async () => {
      const bridge = await own(
        startZigbee2mqttBridge(
          deviceAccess(),
          [
            {
              friendly_name: 'desk light',
              ieee_address: '0x0017880104e45517',
              vendor: 'Signify Netherlands B.V.',
              model: '9290012573A',
              exposes: [lightExpose()],
              state: { state: 'OFF', brightness: 254 },
            },
          ],
          '2.x',
        ),
      );
      const family = new Z2mFamily();
      const broker = await hostWith(family);
      expect(family.found().map((found) => [found.path, found.online])).toEqual([['z2m:desk light', true]]);
      const light = await openLink(family, broker, 'z2m:desk light');
      expect(await call(light, 'set', { on: true })).toEqual({
        ok: true,
        value: { on: true, confirmed: true },
        sent: true,
      });
      expect(bridge.sets).toEqual([{ topic: 'zigbee2mqtt/desk light/set', payload: '{"state":"ON"}' }]);
      // Its availability in 2.x's JSON: offline takes the link offline, and a call is not sent.
      await bridge.setAvailability('desk light', false);
      await waitForStatus(light, 'offline');
      expect(await call(light, 'set', { on: false })).toEqual({
        ok: false,
        error: expect.objectContaining({ reason: 'device_offline' }),
        sent: false,
      });
      expect(bridge.sets).toHaveLength(1);
    });

    it('a device that never reports its new state ends the call timeout, after it was sent (outcome unknown)', async () => {
      const bridge = await own(
        startZigbee2mqttBridge(deviceAccess(), [
          {
            friendly_name: 'far_plug',
            ieee_address: '0x00158d0002c3d4e5',
            vendor: 'Xiaomi',
            model: 'ZNCZ02LM',
            exposes: [switchExpose()],
            state: { state: 'OFF' },
            silent: true,
          },
        ]),
      );
      const family = new Z2mFamily();
      const broker = await hostWith(family);
      const plug = await openLink(family, broker, 'z2m:far_plug', 300);
      expect(await call(plug, 'set', { on: true })).toEqual({
        ok: false,
        error: expect.objectContaining({
          reason: 'timeout',
          detail: expect.stringContaining('did not report state "ON"'),
        }),
        sent: true,
      });
      expect(bridge.sets).toEqual([{ topic: 'zigbee2mqtt/far_plug/set', payload: '{"state":"ON"}' }]);
    });
  });

  describe('Tasmota', () => {
    it('switches and reads a plug by its documented topics, and follows its LWT offline', async () => {
      const device = await own(startTasmotaDevice(deviceAccess(), { topic: 'porch_plug' }));
      const family = new TasmotaFamily();
      const broker = await hostWith(family);
      expect(family.found().map((found) => [found.path, found.hello.device.id, found.online])).toEqual([
        ['tasmota:porch_plug', 'tasmota_porch_plug', true],
      ]);
      const plug = await openLink(family, broker, 'tasmota:porch_plug');
      expect(await call(plug, 'set', { on: true })).toEqual({
        ok: true,
        value: { on: true, confirmed: true },
        sent: true,
      });
      // Its second answer (stat/TOPIC/POWER) delivered before the read asks: else that answer could answer the read.
      await device.answered();
      await broker.sync(SYNC_TOPIC, { timeoutMs: 10_000 });
      expect(await call(plug, 'read', {})).toEqual({ ok: true, value: { on: true }, sent: true });
      expect(device.commands).toEqual([
        { topic: 'cmnd/porch_plug/POWER', payload: 'ON' },
        { topic: 'cmnd/porch_plug/POWER', payload: '' },
      ]);

      await device.crash();
      await waitForStatus(plug, 'offline');
      // The link may hear the will on its own subscription first: the family's copy comes before the marker.
      await broker.sync(SYNC_TOPIC, { timeoutMs: 10_000 });
      expect(family.found().map((found) => found.online)).toEqual([false]);
      expect(await call(plug, 'set', { on: false })).toMatchObject({
        ok: false,
        error: { reason: 'device_offline' },
        sent: false,
      });
    });

    it('a plug that drops off during a call ends it device_offline, after it was sent (outcome unknown)', async () => {
      const device = await own(startTasmotaDevice(deviceAccess(), { topic: 'cellar_plug', silent: true }));
      const family = new TasmotaFamily();
      const broker = await hostWith(family);
      const plug = await openLink(family, broker, 'tasmota:cellar_plug', 60_000);
      const received = device.nextCommand();
      const pending = call(plug, 'set', { on: true });
      expect(await received).toEqual({ topic: 'cmnd/cellar_plug/POWER', payload: 'ON' });
      await device.crash();
      expect(await pending).toEqual({
        ok: false,
        error: expect.objectContaining({ reason: 'device_offline', detail: expect.stringContaining('went offline') }),
        sent: true,
      });
    });

    it('a publish the broker’s ACL denies ends unauthorized and was never sent', async () => {
      const strict = await startMosquitto({
        acl: [
          'user host',
          'topic readwrite home-agent-test/#',
          'topic read #',
          '',
          'user device',
          'topic readwrite #',
          '',
        ].join('\n'),
      });
      cleanups.push(() => strict.stop());
      const device = await own(
        startTasmotaDevice({ port: strict.port, ...TEST_USERS.device }, { topic: 'locked_plug' }),
      );
      const family = new TasmotaFamily();
      const broker = await hostWith(family, strict);
      const plug = await openLink(family, broker, 'tasmota:locked_plug');
      expect(await call(plug, 'set', { on: true })).toEqual({
        ok: false,
        error: expect.objectContaining({ reason: 'unauthorized', detail: expect.stringContaining('0x87') }),
        sent: false,
      });
      expect(device.commands).toEqual([]);
    });
  });

  describe('Home Assistant discovery', () => {
    it('sets a switch with exactly its payload_on, confirmed by its state_on', async () => {
      const device = await own(
        startDiscoveryDevice(deviceAccess(), {
          component: 'switch',
          node: 'bathroom',
          object: 'gpio13',
          config: {
            '~': 'home/bathroom/gpio/13',
            stat_t: '~',
            cmd_t: '~/set',
            pl_on: '1',
            pl_off: '0',
            stat_on: 'high',
            stat_off: 'low',
          },
          commandTopic: 'home/bathroom/gpio/13/set',
          stateTopic: 'home/bathroom/gpio/13',
          answers: { '1': 'high', '0': 'low' },
        }),
      );
      const family = new HaFamily();
      const broker = await hostWith(family);
      const gpio = await openLink(family, broker, 'ha:bathroom/gpio13');
      expect(gpio.hello?.device).toMatchObject({ id: 'ha_bathroom.gpio13', kind: 'switch' });
      expect(await call(gpio, 'set', { on: true })).toEqual({
        ok: true,
        value: { on: true, confirmed: true },
        sent: true,
      });
      expect(device.commands).toEqual([{ topic: 'home/bathroom/gpio/13/set', payload: '1' }]);
      expect(await call(gpio, 'read', {})).toEqual({
        ok: true,
        value: { on: true, as_of: expect.any(String) },
        sent: false,
      });
    });

    it('a switch with no state topic completes on the broker’s acknowledgement, confirmed false', async () => {
      const device = await own(
        startDiscoveryDevice(deviceAccess(), {
          component: 'switch',
          object: 'porch_light',
          config: { command_topic: 'porch/light/set' },
          commandTopic: 'porch/light/set',
        }),
      );
      const family = new HaFamily();
      const broker = await hostWith(family);
      const light = await openLink(family, broker, 'ha:porch_light');
      const received = device.nextCommand();
      expect(await call(light, 'set', { on: false })).toEqual({
        ok: true,
        value: { on: false, confirmed: false },
        sent: true,
      });
      expect(await received).toEqual({ topic: 'porch/light/set', payload: 'OFF' });
      expect(device.commands).toEqual([{ topic: 'porch/light/set', payload: 'OFF' }]);
    });

    it('follows its availability topic: offline, and online again', async () => {
      const device = await own(
        startDiscoveryDevice(deviceAccess(), {
          component: 'switch',
          node: 'garden',
          object: 'pump',
          config: { '~': 'garden/pump', cmd_t: '~/set', avty_t: '~/status', pl_avail: 'up', pl_not_avail: 'down' },
          commandTopic: 'garden/pump/set',
          availabilityTopic: 'garden/pump/status',
        }),
      );
      await device.publishAvailability('up');
      const family = new HaFamily();
      const broker = await hostWith(family);
      const pump = await openLink(family, broker, 'ha:garden/pump');
      await device.publishAvailability('down');
      await waitForStatus(pump, 'offline');
      expect(await call(pump, 'set', { on: true })).toMatchObject({
        ok: false,
        error: { reason: 'device_offline' },
        sent: false,
      });
      await device.publishAvailability('up');
      await waitForStatus(pump, 'online');
      expect(device.commands).toEqual([]);
    });

    it('a new config is a new hello: the link goes offline and back with what it now declares', async () => {
      const device = await own(
        startDiscoveryDevice(deviceAccess(), {
          component: 'switch',
          object: 'attic_fan',
          config: { command_topic: 'attic/fan/set' },
          commandTopic: 'attic/fan/set',
        }),
      );
      const family = new HaFamily();
      const broker = await hostWith(family);
      const fan = await openLink(family, broker, 'ha:attic_fan');
      expect(fan.hello?.tools.map((tool) => tool.name)).toEqual(['set']);
      const statuses: string[] = [];
      const backOnline = new Promise<void>((resolve) =>
        fan.onStatus((status) => {
          statuses.push(status);
          if (status === 'online') resolve();
        }),
      );
      await device.announce({ command_topic: 'attic/fan/set', state_topic: 'attic/fan' });
      await backOnline;
      expect(statuses).toEqual(['offline', 'online']);
      expect(fan.hello?.tools.map((tool) => tool.name)).toEqual(['set', 'read']);
    });

    it('an empty retained config removes the device: no longer found, its link offline', async () => {
      const device = await own(
        startDiscoveryDevice(deviceAccess(), {
          component: 'sensor',
          node: 'cellar',
          object: 'boiler_temp',
          config: { state_topic: 'cellar/boiler', unit_of_measurement: '°C', value_template: '{{ value_json.t }}' },
          stateTopic: 'cellar/boiler',
        }),
      );
      const family = new HaFamily();
      const broker = await hostWith(family);
      const sensor = await openLink(family, broker, 'ha:cellar/boiler_temp');
      await device.publishState('{"t": 61.5}');
      await broker.sync(SYNC_TOPIC, { timeoutMs: 10_000 });
      expect(await call(sensor, 'read', {})).toMatchObject({ ok: true, value: { value: 61.5, unit: '°C' } });

      await device.remove();
      await waitForStatus(sensor, 'offline');
      expect(family.found()).toEqual([]);
    });
  });
});
