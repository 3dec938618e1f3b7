import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askScripted, jsonLines, runCli } from '../../../helpers/run-cli.ts';
import { startMosquitto, TEST_USERS, type Mosquitto } from '../../../helpers/mosquitto.ts';
import { startSimProcess, type SimProcess } from '../../../helpers/start-sim-process.ts';
import {
  BRIDGE_TEST_ENV as ENV,
  bridgeRigMissing,
  startBridgeOn,
  type BridgeProcess,
} from '../../../helpers/start-bridge-process.ts';

const missing = bridgeRigMissing();
const LAMPS = ['lamp-1', 'lamp-2', 'lamp-3', 'lamp-4'];

describe.skipIf(missing !== undefined)(
  `a host pairs and uses a bridge's devices${missing ? ` (${missing})` : ''}`,
  () => {
    let mosquitto: Mosquitto;
    let sim: SimProcess;
    let bridge: BridgeProcess;
    const hostDir = mkdtempSync(path.join(tmpdir(), 'home-agent-bridge-host-'));
    const piDir = mkdtempSync(path.join(tmpdir(), 'home-agent-bridge-pi-'));
    const broker = (): string[] => ['--mqtt', mosquitto.url('host'), '--mqtt-password-env', 'HOST_PW'];

    beforeAll(async () => {
      mosquitto = await startMosquitto();
      sim = await startSimProcess({ kinds: ['lamp', 'lamp', 'lamp', 'lamp'], latencyMs: 300 });
      bridge = await startBridgeOn(mosquitto, {
        name: 'cellar',
        dataDir: piDir,
        devicePaths: sim.devices.map((device) => device.path),
      });
    }, 60_000);
    afterAll(async () => {
      await bridge?.stop();
      await sim?.stop();
      await mosquitto?.stop();
    });

    it('scans the bridged devices, pairs the first with the code the bridge made and the others with what it agreed, and runs a batch over four in parallel', async () => {
      const scanned = await runCli(['devices', 'scan', ...broker()], { env: ENV });
      expect(scanned.code).toBe(0);
      expect(scanned.stdout.split('\n').filter((line) => line.startsWith('mqtt:cellar/'))).toEqual(
        LAMPS.map((lamp) => `mqtt:cellar/${lamp}\tmqtt\tcellar.${lamp}\tlamp\tSimLamp 1\tonline`),
      );

      const first = await runCli(
        [
          'devices',
          'pair',
          'mqtt:cellar/lamp-1',
          ...broker(),
          '--code',
          bridge.pairingCode,
          '--yes',
          '--data-dir',
          hostDir,
        ],
        { env: ENV },
      );
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Paired cellar.lamp-1');
      // The code is used up: pairing with it again is refused.
      const used = await runCli(
        [
          'devices',
          'pair',
          'mqtt:cellar/lamp-2',
          ...broker(),
          '--code',
          bridge.pairingCode,
          '--yes',
          '--data-dir',
          hostDir,
        ],
        { env: ENV },
      );
      expect(used.code).toBe(1);
      expect(used.stderr).toContain('no pairing code is pending on this bridge');
      // The bridge's other devices pair with what the first pairing agreed: no new code.
      for (const lamp of LAMPS.slice(1)) {
        const next = await runCli(
          ['devices', 'pair', `mqtt:cellar/${lamp}`, ...broker(), '--yes', '--data-dir', hostDir],
          { env: ENV },
        );
        expect(next.code, next.stderr).toBe(0);
      }
      // A host that never paired with the bridge needs a code.
      const stranger = await runCli(
        [
          'devices',
          'pair',
          'mqtt:cellar/lamp-2',
          ...broker(),
          '--yes',
          '--data-dir',
          mkdtempSync(path.join(tmpdir(), 'home-agent-bridge-stranger-')),
        ],
        { env: ENV },
      );
      expect(stranger.code).toBe(1);
      expect(stranger.stderr).toContain('the bridge cellar needs its pairing code: add --code CODE');
      for (const lamp of LAMPS) {
        const granted = await runCli(['devices', 'grant', `cellar.${lamp}`, '--all', '--data-dir', hostDir]);
        expect(granted.code, granted.stderr).toBe(0);
      }
      // Neither the code nor the broker password is kept anywhere in the host's data folder.
      for (const file of readdirSync(hostDir)) {
        const bytes = readFileSync(path.join(hostDir, file));
        expect(bytes.includes(Buffer.from(bridge.pairingCode)), file).toBe(false);
        expect(bytes.includes(Buffer.from(TEST_USERS.host.password)), file).toBe(false);
      }

      const script = path.join(hostDir, 'script.json');
      writeFileSync(
        script,
        JSON.stringify({
          replies: [
            {
              toolCalls: LAMPS.map((lamp) => ({ name: 'lamp__set', args: { device_id: `cellar.${lamp}`, on: true } })),
            },
            { text: 'All four are on.' },
          ],
        }),
      );
      const asked = await askScripted(
        { script, dataDir: hostDir, args: broker(), env: ENV },
        'turn on the cellar lamps',
      );
      expect(asked.code, asked.stderr).toBe(0);
      const events = jsonLines(asked.stdout);
      const batch = events.find((event) => event.type === 'batch/start');
      expect(batch).toMatchObject({ mode: 'parallel' });
      const ends = events.filter((event) => event.type === 'tool/end');
      expect(ends).toHaveLength(4);
      for (const end of ends) expect(end).toMatchObject({ ok: true });
      for (const lamp of LAMPS) await sim.waitForState(lamp, (state) => state.on === true);
    }, 180_000);
  },
);
