import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/run-cli.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function orderErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? [])
    .filter((message) => message.message.includes('Folder order'))
    .map((message) => message.message);
}

const importing = (from: string, name = 'x') => `import { ${name} } from '${from}';\nexport const y = ${name};\n`;

describe('sub-folder order inside each layer (docs/architecture.md, Layers)', () => {
  it('forbids a core/ sub-folder from importing one above it, at any depth', async () => {
    expect(await orderErrors('core/tools/example.ts', importing('../batch/run-tool-call.ts'))).toEqual([
      'Folder order: core/tools/ must not import core/batch/, which sits above it (docs/architecture.md, Layers): move what both need down.',
    ]);
    expect(await orderErrors('core/models/http/example.ts', importing('../../agent/agent.ts'))).toHaveLength(1);
    expect(
      await orderErrors('core/text/example.ts', "export * from '../stream/parse-tool-arguments.ts';\n"),
    ).toHaveLength(1);
  });

  it('forbids a devices/ sub-folder from importing one above it', async () => {
    expect(await orderErrors('devices/links/example.ts', importing('../registry/device-registry.ts'))).toHaveLength(1);
    expect(
      await orderErrors('devices/profiles/example.ts', importing('../ways-in/builtin-profile-formats.ts')),
    ).toHaveLength(1);
    expect(await orderErrors('devices/session/example.ts', importing('../serial/serial-way-in.ts'))).toHaveLength(1);
  });

  it('forbids a host/ service from importing one above it, and any service from importing host/front/', async () => {
    expect(await orderErrors('host/contract/example.ts', importing('../store/open-database.ts'))).toHaveLength(1);
    expect(await orderErrors('host/app/example.ts', importing('../front/cli/main.ts'))).toHaveLength(1);
  });

  it('allows imports of the own sub-folder, of lower ones and of other layers', async () => {
    expect(await orderErrors('core/batch/example.ts', importing('../tools/tool-definition.ts'))).toHaveLength(0);
    expect(await orderErrors('core/batch/example.ts', importing('./run-tool-call.ts'))).toHaveLength(0);
    expect(
      await orderErrors('core/agent/example.ts', "const m = await import('../stream/x.ts');\nexport const y = m;\n"),
    ).toHaveLength(0);
    expect(await orderErrors('devices/ways-in/example.ts', importing('../serial/serial-way-in.ts'))).toHaveLength(0);
    expect(await orderErrors('devices/registry/example.ts', importing('../links/way-in.ts'))).toHaveLength(0);
    expect(await orderErrors('host/front/cli/example.ts', importing('../../app/version.ts'))).toHaveLength(0);
    // host/devices/ is a service of host, not the devices/ layer: the layer below is always allowed.
    expect(await orderErrors('host/store/example.ts', importing('../../devices/tools/devices-plugin.ts'))).toHaveLength(
      0,
    );
  });

  it('refuses a sub-folder missing from the declared order', async () => {
    expect(await orderErrors('core/agent/example.ts', importing('../unlisted/thing.ts'))).toEqual([
      'Folder order: core/unlisted/ is not in the folder order of eslint.config.js (docs/architecture.md, Layers).',
    ]);
  });
});
