import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/run-cli.ts';
import { startMosquitto, TEST_USERS, type Mosquitto } from '../../../helpers/mosquitto.ts';
import { bridgeRigMissing, startBridgeOn } from '../../../helpers/start-bridge-process.ts';
import { useOwnSimIndex } from '../../../helpers/own-sim-index.ts';

const dataDir = (): string => mkdtempSync(path.join(tmpdir(), 'home-agent-bridge-cli-'));

describe('home-agent bridge: its command line', () => {
  it('prints a new one-time pairing code with --pairing-code, keeping only what checks it', async () => {
    const dir = dataDir();
    const first = await runCli(['bridge', '--pairing-code', '--name', 'cellar', '--data-dir', dir]);
    const second = await runCli(['bridge', '--pairing-code', '--name', 'cellar', '--data-dir', dir]);
    expect(first.code).toBe(0);
    const code = /^pairing code: ([A-Za-z0-9-]+)\n$/.exec(first.stdout)?.[1];
    expect(code).toBeDefined();
    expect(second.stdout).not.toBe(first.stdout);
    const kept = readFileSync(path.join(dir, 'bridge-cellar.json'), 'utf8');
    expect(kept).not.toContain(code);
    expect(kept).not.toContain(code!.replace(/-/g, ''));
  });

  it('refuses a name outside 1–32 of [a-z0-9-], saying what a name is', async () => {
    for (const name of ['Cellar', 'a'.repeat(33), 'pi.local', '-pi']) {
      const result = await runCli(['bridge', '--pairing-code', `--name=${name}`, '--data-dir', dataDir()]);
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(`--name ${name}: 1–32 lower-case letters, digits and -`);
    }
  });

  it('needs a broker and something to offer, and refuses a password in the URL without repeating it', async () => {
    const noBroker = await runCli(['bridge', '--sim', '--data-dir', dataDir()]);
    expect(noBroker.code).toBe(2);
    expect(noBroker.stderr).toContain('bridge needs a broker to publish on: --mqtt mqtt://USER@HOST:PORT');
    const nothing = await runCli(['bridge', '--mqtt', 'mqtt://cellar@127.0.0.1:1', '--data-dir', dataDir()]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to offer: give --sim, or --device PATH');
    const secret = await runCli([
      'bridge',
      '--sim',
      '--mqtt',
      'mqtt://cellar:hunter2@127.0.0.1:1',
      '--data-dir',
      dataDir(),
    ]);
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain('holds a password');
    expect(secret.stderr).not.toContain('hunter2');
  });

  it('says in --help how to run it and how a host pairs with it', async () => {
    const result = await runCli(['bridge', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'bridge --mqtt URL [--mqtt-password-env VAR] [--name NAME] [--sim] [--device PATH…] [--data-dir DIR]',
    );
    expect(result.stdout).toContain('bridge --pairing-code');
    expect(result.stdout).toContain('pairing code: CODE');
  });
});

const missing = bridgeRigMissing();

describe.skipIf(missing !== undefined)(`home-agent bridge --sim on Mosquitto${missing ? ` (${missing})` : ''}`, () => {
  useOwnSimIndex();
  let mosquitto: Mosquitto;
  beforeAll(async () => {
    mosquitto = await startMosquitto();
  });
  afterAll(async () => {
    await mosquitto?.stop();
  });

  it('offers the simulated devices npm start uses, each as NAME.ID, with the host name made to fit by default', async () => {
    const bridge = await startBridgeOn(mosquitto, { dataDir: dataDir(), sim: true, args: ['--sim-latency-ms', '0'] });
    try {
      const name = bridge.devices[0]?.id.split('.')[0] ?? '';
      expect(name).toMatch(/^[a-z0-9][a-z0-9-]{0,31}$/);
      expect(bridge.devices).toEqual(
        ['display-1 display', 'lamp-1 lamp', 'lamp-2 lamp', 'thermometer-1 thermometer'].map((line) => {
          const [id, kind] = line.split(' ');
          return { id: `${name}.${id}`, kind, path: `mqtt:${name}/${id}` };
        }),
      );
      expect(bridge.pairingCode).toMatch(/^[A-Za-z0-9-]+$/);
      expect(bridge.stderr()).not.toContain(TEST_USERS.bridge.password);
    } finally {
      await bridge.stop();
    }
  });
});
