import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HelloResult } from '../../../../devices/protocol/frame-schema.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../../helpers/mosquitto.ts';
import { TestMqttDevice } from '../../../helpers/mqtt-test-family.ts';
import { entryCommand } from '../../../helpers/compiled-entries.ts';
import { REPO_ROOT, runCli } from '../../../helpers/run-cli.ts';

const missing = mosquittoMissing();
const PASSWORD = TEST_USERS.host.password;

/** `home-agent ARGS` with the test device family among the broker's families (see home-agent-with-test-family.ts). */
function homeAgent(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entryCommand('test/helpers/home-agent-with-test-family.ts'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function hello(id: string): HelloResult {
  return {
    device: { id, kind: 'lamp', model: 'mqtt-lamp', firmware: '1.0' },
    tools: [
      { name: 'get', description: 'Read', parameters: { type: 'object' }, parallelSafe: true, serial: false },
      { name: 'set', description: 'Switch', parameters: { type: 'object' }, parallelSafe: true, serial: false },
    ],
    concurrent: false,
  };
}

describe.skipIf(missing !== undefined)(`devices scan|pair --mqtt${missing ? ` (${missing})` : ''}`, () => {
  let mosquitto: Mosquitto;
  const devices: TestMqttDevice[] = [];
  const folders: string[] = [];

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    for (const id of ['lamp-a', 'lamp-b'])
      devices.push(
        await TestMqttDevice.start({
          url: mosquitto.url('device'),
          password: TEST_USERS.device.password,
          prefix: 'home-agent',
          hello: hello(id),
        }),
      );
    await devices[1]!.goOffline();
  });
  afterAll(async () => {
    for (const device of devices) await device.close();
    await mosquitto.stop();
  });
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  const broker = () => ['--mqtt', mosquitto.url('host'), '--mqtt-password-env', 'BROKER_PASSWORD'];
  const env = { BROKER_PASSWORD: PASSWORD };

  it('scan prints one tab-separated line per device the broker announces, the legend on stderr', async () => {
    const scanned = await homeAgent(['devices', 'scan', ...broker()], env);
    expect(scanned.code).toBe(0);
    expect(scanned.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'mqtt:test/lamp-a\tmqtt\tlamp-a\tlamp\tmqtt-lamp\tonline',
      'mqtt:test/lamp-b\tmqtt\tlamp-b\tlamp\tmqtt-lamp\toffline',
    ]);
    expect(scanned.stderr).toContain(
      'columns: PATH, SOURCE, ID, KIND, MODEL, STATE. SOURCE: mqtt = a device of a Home Agent bridge',
    );
    expect(`${scanned.stdout}${scanned.stderr}`).not.toContain(PASSWORD);
  });

  it('pairs a device behind the broker with no grants, lists it with its way in, and grants it --all; the password is nowhere', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-mqtt-cli-'));
    folders.push(dataDir);
    const paired = await homeAgent(
      ['devices', 'pair', 'mqtt:test/lamp-a', ...broker(), '--yes', '--data-dir', dataDir],
      env,
    );
    expect(paired.code).toBe(0);
    expect(paired.stdout).toContain(
      'Found at mqtt:test/lamp-a:\n  id lamp-a, kind lamp, model mqtt-lamp, firmware 1.0',
    );
    expect(paired.stdout).toContain(`online: lamp lamp-a through the broker mqtt://host@127.0.0.1:${mosquitto.port}`);
    expect(paired.stdout).toContain('Paired lamp-a as "lamp-a". The agent may use none of its tools yet');

    const listed = await runCli(['devices', 'list', '--json', '--data-dir', dataDir]);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        path: 'mqtt:test/lamp-a',
        wayIn: 'mqtt',
        grants: [],
        identity: hello('lamp-a').device,
      }),
    ]);
    expect(JSON.parse(listed.stdout)[0]).not.toHaveProperty('options');
    const granted = await runCli(['devices', 'grant', 'lamp-a', '--all', '--data-dir', dataDir]);
    expect(granted.stdout).toBe('lamp-a granted: get, set\n');

    for (const output of [paired, listed, granted]) expect(`${output.stdout}${output.stderr}`).not.toContain(PASSWORD);
    // Nor in the store: every file of the data folder, WAL included.
    for (const file of readdirSync(dataDir))
      expect(readFileSync(path.join(dataDir, file)).includes(Buffer.from(PASSWORD)), file).toBe(false);
  });

  it('refuses a path the broker does not announce, naming it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-mqtt-cli-'));
    folders.push(dataDir);
    const refused = await homeAgent(
      ['devices', 'pair', 'mqtt:test/ghost', ...broker(), '--yes', '--data-dir', dataDir],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `mqtt:test/ghost is not among the devices the broker mqtt://host@127.0.0.1:${mosquitto.port} announces`,
    );
  });

  it('refuses a password in the URL with the reason, without repeating it', async () => {
    const url = `mqtt://host:${PASSWORD}@127.0.0.1:${mosquitto.port}`;
    const refused = await runCli(['devices', 'scan', '--mqtt', url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--mqtt: the broker URL holds a password: a URL is kept in shell history, process lists, logs and settings',
    );
    expect(refused.stderr).not.toContain(PASSWORD);
  });

  it('takes the password only from a named variable: no flag for it, an unset variable named', async () => {
    const flag = await runCli(['devices', 'scan', '--mqtt', mosquitto.url('host'), '--mqtt-password', PASSWORD]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown option --mqtt-password.');
    expect(flag.stderr).not.toContain(PASSWORD);
    const unset = await runCli([
      'devices',
      'scan',
      '--mqtt',
      mosquitto.url('host'),
      '--mqtt-password-env',
      'NO_SUCH_PW',
    ]);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('the environment variable NO_SUCH_PW (the broker password) is not set');
  });

  it('never echoes a --mqtt-password-env value that is not a variable name (it may be the password)', async () => {
    const pasted = `${PASSWORD}-pasted!`;
    const refused = await runCli(['devices', 'scan', '--mqtt', mosquitto.url('host'), '--mqtt-password-env', pasted]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--mqtt-password-env: is not an environment variable name');
    expect(refused.stderr).not.toContain(PASSWORD);
  });

  it('says why the broker refused a wrong password', async () => {
    const refused = await runCli(['devices', 'scan', ...broker()], { env: { BROKER_PASSWORD: 'wrong' } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /the broker mqtt:\/\/host@127\.0\.0\.1:\d+ refused the connection: .*\(reason 0x8[67]\)/,
    );
  });

  it('refuses a pairing code that is not one, before anything is asked', async () => {
    const refused = await runCli(['devices', 'pair', 'mqtt:test/lamp-a', ...broker(), '--code', 'a b']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--code takes the pairing code as printed: letters, digits and -, no spaces');
  });
});
