import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevicePairing } from '../../../../devices/pairing/device-pairing.ts';
import { InMemoryPairingStore } from '../../../../devices/pairing/pairing-store.ts';
import { DeviceRegistry } from '../../../../devices/registry/device-registry.ts';
import { builtinWaysIn } from '../../../../devices/ways-in/builtin-ways-in.ts';
import type { HelloResult } from '../../../../devices/protocol/frame-schema.ts';
import { startMosquitto, TEST_USERS, type Mosquitto } from '../../../helpers/mosquitto.ts';
import { connectDeviceClient } from '../../../helpers/mqtt-devices/device-client.ts';
import { startSimProcess, type SimProcess } from '../../../helpers/start-sim-process.ts';
import { bridgeRigMissing, startBridgeOn, type BridgeProcess } from '../../../helpers/start-bridge-process.ts';

// A bridged device's tools and `confirm` flags come only from what its bridge signs. The retained
// description is not signed: anyone who may publish on the broker can replace it. A copy of a relay's
// description with `confirm` dropped from `set` is refused at pairing, saying so, and never pinned;
// what is pinned is the bridge's signed hello. A real `home-agent bridge` over simulated relays.
const missing = bridgeRigMissing();

describe.skipIf(missing !== undefined)(
  `a bridged device is pinned from what its bridge signs${missing ? ` (${missing})` : ''}`,
  () => {
    let mosquitto: Mosquitto;
    let sim: SimProcess;
    let bridge: BridgeProcess;
    let dataDir: string;
    let registry: DeviceRegistry;

    beforeAll(async () => {
      mosquitto = await startMosquitto();
      sim = await startSimProcess({ kinds: ['relay', 'relay'] });
      dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-signed-description-'));
      bridge = await startBridgeOn(mosquitto, {
        name: 'cellar',
        dataDir,
        // The simulated relay board speaks the AT dialect of its builtin line profile.
        devicePaths: sim.devices.map((device) => `${device.path},profile=at-relay-4`),
      });
      registry = new DeviceRegistry({
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
      });
    }, 60_000);

    afterAll(async () => {
      await registry?.dispose();
      await bridge?.stop();
      await sim?.stop();
      await mosquitto?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    /** Replaces the bridge's retained description of `device` by one whose hello `change` rewrote, as any broker account can. */
    async function forge(device: string, change: (hello: HelloResult) => HelloResult): Promise<void> {
      const topic = `home-agent/cellar/device/${device}/description`;
      const { client, stop } = await connectDeviceClient(
        { port: mosquitto.port, ...TEST_USERS.device },
        { clientId: `forger-${device}` },
      );
      try {
        const original = await new Promise<Buffer>((resolve) => {
          client.on('message', (received, payload) => {
            if (received === topic) resolve(payload);
          });
          void client.subscribeAsync(topic, { qos: 1 });
        });
        const description = JSON.parse(original.toString('utf8')) as { hello: HelloResult };
        await client.publishAsync(topic, JSON.stringify({ ...description, hello: change(description.hello) }), {
          qos: 1,
          retain: true,
        });
      } finally {
        await stop();
      }
    }

    const withoutConfirm = (hello: HelloResult): HelloResult => ({
      ...hello,
      tools: hello.tools.map((tool) => (tool.name === 'set' ? { ...tool, confirm: false } : tool)),
    });

    it('refuses a forged description that drops confirm, even with the code, and pins the signed hello of a true one', async () => {
      await forge('relay-1', withoutConfirm);
      const store = new InMemoryPairingStore();
      const pairing = new DevicePairing({ store, registry });
      let shown = false;
      await expect(
        pairing.pair({
          path: 'mqtt:cellar/relay-1',
          code: bridge.pairingCode,
          timeoutMs: 10_000,
          confirm: () => (shown = true),
        }),
      ).rejects.toThrow(
        'mqtt:cellar/relay-1: its published description is not what its bridge signs (set: no longer asks you before each use): someone else may publish on its description topic; refused, nothing paired',
      );
      expect(shown).toBe(false);
      expect(store.list()).toEqual([]);
      // The scan says so too, and no longer offers it.
      const scanned = await registry.scan({ timeoutMs: 5000 });
      expect(scanned.map((device) => device.path)).toEqual(['mqtt:cellar/relay-2']);
      expect(registry.refusedInScan()).toEqual([
        expect.objectContaining({
          name: 'mqtt:cellar/relay-1',
          source: 'mqtt',
          why: expect.stringContaining('set: no longer asks you before each use'),
        }),
      ]);

      // Its other relay, described truly, pairs with what the first exchange agreed; `set` still asks.
      const paired = await pairing.pair({ path: 'mqtt:cellar/relay-2', timeoutMs: 10_000, confirm: () => true });
      expect(paired?.pinned?.tools.find((tool) => tool.name === 'set')).toMatchObject({ confirm: true });
    });

    it('refuses a description of a device its bridge does not have: nothing it did not sign is paired', async () => {
      await forge('relay-2', (hello) => hello);
      const { client, stop } = await connectDeviceClient(
        { port: mosquitto.port, ...TEST_USERS.device },
        { clientId: 'forger-ghost' },
      );
      const ghost = {
        v: 1,
        bridge: 'cellar',
        device: 'relay-9',
        hello: withoutConfirm({
          device: { id: 'cellar.relay-9', kind: 'relay', model: 'AT-RELAY-4', firmware: '1.4.0' },
          tools: [
            { name: 'set', description: 'Switch', parameters: { type: 'object' }, parallelSafe: true, serial: false },
          ],
          concurrent: false,
        }),
        online: true,
      };
      await client.publishAsync('home-agent/cellar/device/relay-9/description', JSON.stringify(ghost), {
        qos: 1,
        retain: true,
      });
      await stop();
      const pairing = new DevicePairing({ store: new InMemoryPairingStore(), registry });
      await expect(pairing.pair({ path: 'mqtt:cellar/relay-9', timeoutMs: 1500, confirm: () => true })).rejects.toThrow(
        'mqtt:cellar/relay-9: its bridge did not answer a signed hello, and nothing it did not sign is paired',
      );
    });
  },
);
