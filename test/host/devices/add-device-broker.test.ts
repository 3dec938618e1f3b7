import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryPairingStore } from '../../../devices/pairing/pairing-store.ts';
import type { HelloResult } from '../../../devices/protocol/frame-schema.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { createDeviceLayer } from '../../../host/devices/create-device-layer.ts';
import type { DeviceLayer } from '../../../host/devices/device-layer.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../helpers/mosquitto.ts';
import { testMqttFamily, TestMqttDevice } from '../../helpers/mqtt-test-family.ts';

const missing = mosquittoMissing();

const hello: HelloResult = {
  device: { id: 'lamp-a', kind: 'lamp', model: 'mqtt-lamp', firmware: '1.0' },
  tools: [{ name: 'set', description: 'Switch', parameters: { type: 'object' }, parallelSafe: true, serial: false }],
  concurrent: false,
};

describe.skipIf(missing !== undefined)(
  `the Add-device operations with a broker${missing ? ` (${missing})` : ''}`,
  () => {
    let mosquitto: Mosquitto;
    let device: TestMqttDevice;
    let layer: DeviceLayer | undefined;

    beforeAll(async () => {
      mosquitto = await startMosquitto();
      device = await TestMqttDevice.start({
        url: mosquitto.url('device'),
        password: TEST_USERS.device.password,
        prefix: 'home-agent',
        hello,
      });
    });
    afterAll(async () => {
      await device.close();
      await mosquitto.stop();
    });
    afterEach(async () => {
      await layer?.dispose();
      layer = undefined;
    });

    function deviceLayer(broker: boolean): DeviceLayer {
      const registry = new DeviceRegistry({
        waysIn: builtinWaysIn({
          ...(broker
            ? {
                broker: {
                  url: mosquitto.url('host'),
                  passwordEnv: 'PW',
                  topicPrefix: 'home-agent',
                  maxMessageBytes: 262_144,
                },
              }
            : {}),
          brokerFamilies: [testMqttFamily],
          env: { PW: TEST_USERS.host.password },
        }),
        helloTimeoutMs: 1000,
      });
      layer = createDeviceLayer({
        registry,
        close: async () => undefined,
        pairingStore: new InMemoryPairingStore(),
        log: () => undefined,
      });
      return layer;
    }

    it('lists the devices the broker announces beside the ports, and probes and pairs one with no grants', async () => {
      const { admin } = deviceLayer(true);
      const scanned = await admin!.scan({ paths: [] });
      expect(scanned.found).toEqual([
        {
          path: 'mqtt:test/lamp-a',
          source: 'mqtt',
          about: 'a device of a Home Agent bridge',
          id: 'lamp-a',
          kind: 'lamp',
          model: 'mqtt-lamp',
          online: true,
          paired: [],
        },
      ]);
      const probed = await admin!.probe({ path: 'mqtt:test/lamp-a' });
      expect(probed.identity).toEqual(hello.device);
      const paired = await admin!.pair({
        path: 'mqtt:test/lamp-a',
        identity: probed.identity,
        declarationHash: probed.declarationHash,
      });
      expect(paired).toEqual({ deviceId: 'lamp-a', alias: 'lamp-a' });
      expect((await admin!.scan({ paths: [] })).found?.[0]?.paired).toEqual([{ id: 'lamp-a', alias: 'lamp-a' }]);
    });

    it('lists nothing more, and warns of nothing, when no broker is configured', async () => {
      const { admin } = deviceLayer(false);
      const scanned = await admin!.scan({ paths: [] });
      expect(scanned.found).toEqual([]);
      expect(scanned.warnings.filter((warning) => /broker/.test(warning))).toEqual([]);
    });
  },
);
