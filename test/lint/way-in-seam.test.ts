import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/run-cli.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function seamErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? [])
    .filter((message) => message.message.includes('Above the seam'))
    .map((message) => message.message);
}

const importModbus = (from: string) =>
  `import { modbusWayIn } from '${from}modbus/modbus-way-in.ts';\nexport const y = modbusWayIn;\n`;

describe('the way-in seam (docs/architecture.md)', () => {
  it('forbids the registry, pairing, the device tools, profiles, devices/links and the host from importing a way in’s folder', async () => {
    for (const folder of ['registry', 'pairing', 'tools', 'links', 'profiles'])
      expect(await seamErrors(`devices/${folder}/example.ts`, importModbus('../')), folder).toHaveLength(1);
    expect(await seamErrors('host/devices/example.ts', importModbus('../../devices/'))).toHaveLength(1);
    expect(await seamErrors('host/front/cli/commands/example.ts', importModbus('../../../devices/'))).toHaveLength(1);
  });

  it('forbids them from importing the broker way in’s folder (devices/mqtt/) too', async () => {
    const importMqtt = (from: string) =>
      `import { mqttWayIn } from '${from}mqtt/mqtt-way-in.ts';\nexport const y = mqttWayIn;\n`;
    expect(await seamErrors('devices/registry/example.ts', importMqtt('../'))).toHaveLength(1);
    expect(await seamErrors('host/devices/example.ts', importMqtt('../../devices/'))).toHaveLength(1);
    expect(await seamErrors('devices/ways-in/example.ts', importMqtt('../'))).toHaveLength(0);
  });

  it('forbids them from importing the default way in’s folder (devices/serial/) too', async () => {
    const importSerial = (from: string) =>
      `import { scanPorts } from '${from}serial/scan-ports.ts';\nexport const y = scanPorts;\n`;
    for (const folder of ['registry', 'pairing', 'tools', 'links', 'profiles'])
      expect(await seamErrors(`devices/${folder}/example.ts`, importSerial('../')), folder).toHaveLength(1);
    expect(await seamErrors('host/devices/example.ts', importSerial('../../devices/'))).toHaveLength(1);
    expect(await seamErrors('host/contract/example.ts', importSerial('../../devices/'))).toHaveLength(1);
    expect(await seamErrors('devices/ways-in/example.ts', importSerial('../'))).toHaveLength(0);
    expect(
      await seamErrors(
        'host/devices/example.ts',
        "import { scanPorts } from '../../devices/ways-in/serial-ports.ts';\nexport const y = scanPorts;\n",
      ),
    ).toHaveLength(0);
  });

  it('lets the list of ways in name them, and everyone import the list and the seam', async () => {
    expect(await seamErrors('devices/ways-in/example.ts', importModbus('../'))).toHaveLength(0);
    expect(
      await seamErrors(
        'host/devices/example.ts',
        "import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';\nimport type { WayIn } from '../../devices/links/way-in.ts';\nexport const y: WayIn[] = builtinWaysIn();\n",
      ),
    ).toHaveLength(0);
  });
});

/** The protocols with a way-in folder of their own (devices/<protocol>/): only it and the lists of ways in name them. */
const PROTOCOLS = ['mqtt', 'modbus'];

/**
 * Shipped history: the migration that carried the old `modbus` column of paired_devices over to
 * `way_in` and its options must keep naming that column, or databases from before it no longer open.
 */
const SHIPPED_HISTORY = ['host/store/migrations.ts'];

/** Every source file (`.ts`, `.tsx`) under the app's layers, relative to the repository, with `/`. */
function sourceFiles(): string[] {
  return ['core', 'devices', 'host', 'electron', 'renderer'].flatMap((layer) =>
    readdirSync(path.join(REPO_ROOT, layer), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => `${layer}/${file.split(path.sep).join('/')}`),
  );
}

describe('nothing above the way-in seam names a protocol (issue 18)', () => {
  it('finds mqtt and modbus named only in devices/<protocol>/, the lists of devices/ways-in/ and shipped migrations', () => {
    const word = new RegExp(PROTOCOLS.join('|'), 'i');
    const naming = sourceFiles().filter(
      (file) =>
        !PROTOCOLS.some((protocol) => file.startsWith(`devices/${protocol}/`)) &&
        !file.startsWith('devices/ways-in/') &&
        !SHIPPED_HISTORY.includes(file) &&
        word.test(readFileSync(path.join(REPO_ROOT, file), 'utf8')),
    );
    expect(naming).toEqual([]);
  });
});
