import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { readSettingText } from '../../host/contract/settings-table.ts';
import { REPO_ROOT, runCli } from '../helpers/run-cli.ts';

const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } }>;
};
const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};

describe('the docs say what the program does', () => {
  it("README's Node version is one every locked dependency's engines allow, and package.json says the same", () => {
    const stated = /^Node (\d+(?:\.\d+)?) or newer/m.exec(readme)?.[1];
    expect(stated).toBeDefined();
    const oldest = semver.coerce(stated)!.version;
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => entry.engines?.node !== undefined && !semver.satisfies(oldest, entry.engines.node))
      .map(([name, entry]) => `${name} (${entry.engines!.node})`);
    expect(refusing).toEqual([]);
    expect(manifest.engines.node).toBe(`>=${stated}`);
  });

  it(
    'README and serve --help say the loopback token is the stored one, not a fresh one each start',
    { timeout: 60_000 },
    async () => {
      expect(readme).not.toMatch(/fresh random one each start/);
      expect(readme.replace(/\s+/g, ' ')).toContain('else the one kept in the data folder');
      const help = await runCli(['serve', '--help']);
      expect(help.stdout).toContain('else the one kept in the data folder, made on first use on loopback');
      expect(help.stdout).not.toContain('a new random one');
    },
  );

  it('ask --help describes --tool-order as the JSON list the flag reads, with an example it accepts', async () => {
    const line = (await runCli(['ask', '--help'])).stdout.split('\n').find((entry) => entry.includes('--tool-order'));
    expect(line).not.toMatch(/per line/);
    const example = /e\.g\. '([^']+)'/.exec(line ?? '')?.[1];
    expect(example).toBe('["lamp__set","<unlisted-tools>"]');
    expect(readSettingText('toolOrder', example!)).toEqual({ ok: true, value: ['lamp__set', '<unlisted-tools>'] });
  });
});
