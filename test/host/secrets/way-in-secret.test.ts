// Electron's safeStorage cannot run here; the stand-in cipher of the API-key tests plays the OS keychain
// (a reversible transform whose output never contains the plain text), so the rest runs for real:
// the secrets file, the host, and a Mosquitto that requires the password.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { EncryptedFileSecretStore } from '../../../host/secrets/encrypted-file-secret-store.ts';
import type { StringCipher } from '../../../host/secrets/secret-store.ts';
import type { Settings } from '../../../host/contract/settings-table.ts';
import { apiContract } from '../../../host/contract/api-contract.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../helpers/mosquitto.ts';
import { startTasmotaDevice, type PlayedTasmota } from '../../helpers/mqtt-devices/tasmota-device.ts';

const missing = mosquittoMissing();
const PASSWORD = TEST_USERS.host.password;

const cipher: StringCipher = {
  isAvailable: () => true,
  encrypt: (text) => Buffer.from([...Buffer.from(text, 'utf8')].map((byte) => byte ^ 0x5a)),
  decrypt: (data) => Buffer.from([...data].map((byte) => byte ^ 0x5a)).toString('utf8'),
};

const dirs: string[] = [];
const hosts: Host[] = [];
function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-way-in-secret-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir`, as bytes read as text, joined: what must never hold the password. */
function everythingIn(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(dir, file))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

describe.skipIf(missing !== undefined)(
  `a way in's secret in the keychain: the broker password${missing ? ` (${missing})` : ''}`,
  () => {
    let mosquitto: Mosquitto;
    let plug: PlayedTasmota;

    beforeAll(async () => {
      mosquitto = await startMosquitto();
      plug = await startTasmotaDevice({ port: mosquitto.port, ...TEST_USERS.device }, { topic: 'kitchen_plug' });
    });
    afterAll(async () => {
      await plug.stop();
      await mosquitto.stop();
    });

    async function host(options: {
      dataDir: string;
      secrets?: EncryptedFileSecretStore;
      settings?: Settings;
      log: string[];
    }) {
      const made = await createHost({
        dataDir: options.dataDir,
        transport: options.secrets ? 'electron' : 'web',
        model: new ScriptedModel({ replies: [] }),
        ...(options.secrets ? { secrets: options.secrets } : {}),
        ...(options.settings ? { settings: options.settings } : {}),
        attachDevices: ({ pairingStore, standingApprovals, dataVersion, settings, secret }) =>
          attachDevices({
            sim: false,
            devices: [],
            pairingStore,
            standingApprovals,
            dataVersion,
            settings,
            ...(secret ? { secret } : {}),
            log: (line) => options.log.push(line),
            signal: AbortSignal.timeout(60_000),
          }),
        log: (line) => options.log.push(line),
        version: 'test',
      });
      hosts.push(made);
      return made;
    }

    it('keeps the password only as ciphertext, says it is kept, and the next start connects with it and finds the devices', async () => {
      const dataDir = folder();
      const secrets = new EncryptedFileSecretStore({ file: path.join(dataDir, 'secrets.json'), cipher });
      const log: string[] = [];
      const first = await host({ dataDir, secrets, log });
      expect(await first.handlers['secrets/status']({})).toMatchObject({ wayInSecrets: { mqttPassword: false } });
      expect(await first.handlers['secrets/set-way-in-secret']({ name: 'mqttPassword', value: PASSWORD })).toEqual({
        stored: true,
        appliesAt: 'next start',
      });
      const status = await first.handlers['secrets/status']({});
      expect(status).toMatchObject({ available: true, wayInSecrets: { mqttPassword: true } });
      expect(JSON.stringify(status)).not.toContain(PASSWORD);

      const next = await host({ dataDir, secrets, settings: { mqttUrl: mosquitto.url('host') }, log });
      const scan = await next.handlers['devices/scan']({});
      expect(scan.warnings).toEqual([]);
      expect(scan.found?.map((device) => device.path)).toContain('tasmota:kitchen_plug');
      expect(JSON.stringify(scan)).not.toContain(PASSWORD);
      expect(JSON.stringify(await next.handlers['settings/get']({}))).not.toContain(PASSWORD);
      expect(log.join('\n')).not.toContain(PASSWORD);
      // The secrets file, the database and everything else in the data folder: never the plain text.
      expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).not.toContain(PASSWORD);
      expect(everythingIn(dataDir)).not.toContain(PASSWORD);

      expect(await next.handlers['secrets/delete-way-in-secret']({ name: 'mqttPassword' })).toEqual({ deleted: true });
      expect(await next.handlers['secrets/status']({})).toMatchObject({ wayInSecrets: { mqttPassword: false } });
    }, 60_000);

    it('without the password the broker refuses, and the scan says what to do', async () => {
      const dataDir = folder();
      const secrets = new EncryptedFileSecretStore({ file: path.join(dataDir, 'secrets.json'), cipher });
      const log: string[] = [];
      const bare = await host({ dataDir, secrets, settings: { mqttUrl: mosquitto.url('host') }, log });
      const scan = await bare.handlers['devices/scan']({});
      expect(scan.found ?? []).toEqual([]);
      expect(scan.warnings.join('\n')).toContain(
        "no password was given: name the environment variable that holds it with --mqtt-password-env VAR, or keep it in the desktop app's Settings (Broker password)",
      );
    }, 60_000);

    it('is refused where the front end keeps no secrets, naming the variable to use instead, and refuses a name no way in declares', async () => {
      const web = await host({ dataDir: folder(), log: [] });
      expect(await web.handlers['secrets/status']({})).toMatchObject({
        available: false,
        wayInSecrets: { mqttPassword: false },
      });
      await expect(
        async () => await web.handlers['secrets/set-way-in-secret']({ name: 'mqttPassword', value: PASSWORD }),
      ).rejects.toThrow(
        'this front end keeps no secrets: put the broker password in an environment variable on this machine and name it in MQTT password variable (--mqtt-password-env VAR)',
      );
      const input = apiContract['secrets/set-way-in-secret'].input;
      expect(input.safeParse({ name: 'mqttPassword', value: PASSWORD }).success).toBe(true);
      expect(input.safeParse({ name: 'wifiPassword', value: PASSWORD }).success).toBe(false);
      expect(input.safeParse({ name: 'mqttPassword', value: '' }).success).toBe(false);
    });
  },
);
