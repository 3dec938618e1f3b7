import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../helpers/mosquitto.ts';
import type { DeviceBrokerAccess } from '../../helpers/mqtt-devices/device-client.ts';
import { startDiscoveryDevice, type PlayedDiscoveryDevice } from '../../helpers/mqtt-devices/ha-discovery-device.ts';
import { startTasmotaDevice, type PlayedTasmota } from '../../helpers/mqtt-devices/tasmota-device.ts';
import {
  numericExpose,
  startZigbee2mqttBridge,
  switchExpose,
  type PlayedZigbee2mqtt,
} from '../../helpers/mqtt-devices/zigbee2mqtt-bridge.ts';
import { runCli } from '../../helpers/run-cli.ts';

// The real `home-agent` CLI, with the product's own list of MQTT device families, against devices played
// from each convention's documented topics.
const missing = mosquittoMissing();
/** What `devices scan` prints for the devices the suite plays (sorted): path, source, id by the one rule, kind, model, state. */
const OFFERED = [
  'ha:cellar/boiler\tha\tha_cellar.boiler\tsensor\tAcme T1\tonline',
  'tasmota:kettle\ttasmota\ttasmota_kettle\tswitch\tTasmota\tonline',
  'z2m:hall_climate\tz2m\tz2m_hall_climate\tsensor\tXiaomi WSDCGQ01LM\tonline',
  'z2m:living room/lamp\tz2m\tz2m_living-room.lamp-051eb609\tswitch\tIKEA LED1624G9\tonline',
];

describe.skipIf(missing !== undefined)(
  `devices scan|pair --mqtt with the field's conventions${missing ? ` (${missing})` : ''}`,
  () => {
    let mosquitto: Mosquitto;
    let played: { stop(): Promise<void> }[] = [];
    let tasmota: PlayedTasmota;
    let bridge: PlayedZigbee2mqtt;
    let discovered: PlayedDiscoveryDevice;
    const env = { BROKER_PASSWORD: TEST_USERS.host.password };
    const broker = () => ['--mqtt', mosquitto.url('host'), '--mqtt-password-env', 'BROKER_PASSWORD'];

    beforeAll(async () => {
      mosquitto = await startMosquitto();
      const access: DeviceBrokerAccess = { port: mosquitto.port, ...TEST_USERS.device };
      bridge = await startZigbee2mqttBridge(access, [
        {
          friendly_name: 'living room/lamp',
          ieee_address: '0x00158d00018255df',
          vendor: 'IKEA',
          model: 'LED1624G9',
          exposes: [switchExpose()],
          state: { state: 'OFF' },
        },
        {
          friendly_name: 'hall_climate',
          ieee_address: '0x00158d0001a2b3c4',
          vendor: 'Xiaomi',
          model: 'WSDCGQ01LM',
          exposes: [numericExpose('temperature', '°C')],
          state: {},
        },
      ]);
      tasmota = await startTasmotaDevice(access, { topic: 'kettle' });
      discovered = await startDiscoveryDevice(access, {
        component: 'sensor',
        node: 'cellar',
        object: 'boiler',
        config: { stat_t: 'cellar/boiler', unit_of_meas: '°C', dev: { mf: 'Acme', mdl: 'T1' } },
        stateTopic: 'cellar/boiler',
      });
      played = [bridge, tasmota, discovered];
    });
    afterAll(async () => {
      for (const device of played) await device.stop();
      await mosquitto.stop();
    });

    it('scan lists each convention’s devices: path, source, id by the one rule, kind, model, state', async () => {
      const scanned = await runCli(['devices', 'scan', ...broker()], { env });
      expect(scanned.code).toBe(0);
      expect(scanned.stdout.split('\n').filter(Boolean).sort()).toEqual(OFFERED);
    });

    it('scan says on stderr which announced devices it refused and why, keeping stdout to the devices offered', async () => {
      const access: DeviceBrokerAccess = { port: mosquitto.port, ...TEST_USERS.device };
      const refused = [
        // A Jinja filter: a template this host does not run.
        await startDiscoveryDevice(access, {
          component: 'sensor',
          node: 'attic',
          object: 'heater',
          config: { stat_t: 'attic/heater', val_tpl: '{{ value_json.t | float }}' },
        }),
        // Two components at one NODE/OBJECT: both would be ha:garden/pump, so neither is offered.
        await startDiscoveryDevice(access, {
          component: 'switch',
          node: 'garden',
          object: 'pump',
          config: { cmd_t: 'garden/pump/set' },
        }),
        await startDiscoveryDevice(access, {
          component: 'sensor',
          node: 'garden',
          object: 'pump',
          config: { stat_t: 'garden/pump/power' },
        }),
      ];
      try {
        const scanned = await runCli(['devices', 'scan', ...broker()], { env });
        expect(scanned.code).toBe(0);
        // Exactly the lines of the scan before these were announced: scripts read stdout.
        expect(scanned.stdout.split('\n').filter(Boolean).sort()).toEqual(OFFERED);
        const lines = scanned.stderr.split('\n').filter(Boolean);
        // The legend first, then one line per refused announcement.
        expect(lines[0]).toMatch(/^home-agent: columns: PATH, SOURCE/);
        const said = lines.slice(1).sort();
        expect(said, said.join('\n')).toHaveLength(4);
        expect(said[0]).toMatch(
          /^home-agent: refused ha:attic\/heater \(sensor\) \[source ha\]: .*\{\{ value_json\.t \| float \}\}/,
        );
        expect(said[1]).toMatch(
          /^home-agent: refused ha:garden\/pump \[source ha\]: its path ha:garden\/pump is also announced by (sensor|switch)\/garden\/pump/,
        );
        expect(said[2]).toMatch(
          /^home-agent: refused ha:garden\/pump \[source ha\]: its path ha:garden\/pump is also announced by (sensor|switch)\/garden\/pump/,
        );
        expect(said[1]).not.toBe(said[2]);
        // The played Zigbee2MQTT bridge lists its coordinator, as a real one does: not a device to pair.
        expect(said[3]).toBe('home-agent: refused z2m:Coordinator [source z2m]: it is the coordinator');
      } finally {
        for (const device of refused) {
          await device.remove();
          await device.stop();
        }
      }
    });

    it('pairs a convention device with no grant, and nothing is published to it', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-conventions-cli-'));
      try {
        const paired = await runCli(
          ['devices', 'pair', 'tasmota:kettle', ...broker(), '--yes', '--data-dir', dataDir],
          {
            env,
          },
        );
        expect(paired.code).toBe(0);
        expect(paired.stdout).toContain('id tasmota_kettle, kind switch, model Tasmota');
        expect(paired.stdout).toContain('The agent may use none of its tools yet');
        // Where its commands go and what they send is shown before it is paired, and pinned with it.
        expect(paired.stdout).toContain('  command topic: cmnd/kettle/POWER\n  payload on: ON\n  payload off: OFF\n');
        const people = await runCli(['devices', 'list', '--data-dir', dataDir]);
        expect(people.stdout).toContain('\n  pinned command topic: cmnd/kettle/POWER\n  pinned payload on: ON\n');
        const listed = await runCli(['devices', 'list', '--json', '--data-dir', dataDir]);
        expect(JSON.parse(listed.stdout)).toEqual([
          expect.objectContaining({
            path: 'tasmota:kettle',
            wayIn: 'mqtt',
            grants: [],
            pinned: expect.objectContaining({
              wiring: expect.arrayContaining([{ label: 'command topic', value: 'cmnd/kettle/POWER' }]),
            }),
          }),
        ]);
        expect(tasmota.commands).toEqual([]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  },
);
