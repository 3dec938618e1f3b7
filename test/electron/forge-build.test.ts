// `electron-forge package` needs the Electron binary, which cannot be downloaded here. This test
// does what it does up to that point: loads forge.config.ts with Forge's own loader and builds
// main, preload and renderer with Forge's own Vite configs, then checks what came out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, loadConfigFromFile, mergeConfig, type UserConfig } from 'vite';
import { REPO_ROOT } from '../helpers/run-cli.ts';

const require = createRequire(import.meta.url);
type ForgeGetConfig = { getConfig(env: object, user: UserConfig): UserConfig };
const out = mkdtempSync(path.join(tmpdir(), 'home-agent-forge-'));

async function forgeBuild(target: 'main' | 'preload' | 'renderer', entry: string, configFile: string): Promise<void> {
  const generator = require(`@electron-forge/plugin-vite/dist/config/vite.${target}.config.js`) as ForgeGetConfig;
  const env = { command: 'build', mode: 'production' } as const;
  const forgeConfig = { build: [], renderer: [{ name: 'main_window', config: 'vite.renderer.config.ts' }] };
  const forgeEnv = {
    ...env,
    root: REPO_ROOT,
    forgeConfig,
    forgeConfigSelf: { entry, name: 'main_window', config: configFile },
  };
  const loaded = await loadConfigFromFile(
    { ...env, forgeConfigSelf: forgeEnv.forgeConfigSelf } as never,
    path.join(REPO_ROOT, configFile),
  );
  const config = generator.getConfig(forgeEnv, loaded?.config ?? {});
  await build(
    mergeConfig(config, { configFile: false, logLevel: 'silent', build: { outDir: path.join(out, target) } }),
  );
}

beforeAll(async () => {
  await forgeBuild('main', 'electron/main.ts', 'vite.main.config.ts');
  await forgeBuild('preload', 'electron/preload.ts', 'vite.preload.config.ts');
  await forgeBuild('renderer', '', 'vite.renderer.config.ts');
}, 120_000);
afterAll(() => (process.env.KEEP_FORGE_BUILD ? undefined : rmSync(out, { recursive: true, force: true })));

describe('the Electron build', () => {
  it('loads forge.config.ts with asar, the native modules unpacked and rebuilt, and the fuses closed', async () => {
    const loadForgeConfig = (
      require('@electron-forge/core/dist/util/forge-config.js') as {
        default: (dir: string) => Promise<Record<string, unknown>>;
      }
    ).default;
    const config = (await loadForgeConfig(REPO_ROOT)) as {
      packagerConfig: { asar: { unpack?: string } };
      rebuildConfig: { onlyModules: string[] };
      plugins: { name: string; config?: Record<string, unknown> }[];
    };
    // The auto-unpack plugin turns `asar: true` into an asar that leaves native `.node` files outside.
    expect(config.packagerConfig.asar.unpack).toContain('*.node');
    expect(config.rebuildConfig.onlyModules).toEqual(['better-sqlite3', '@serialport/bindings-cpp']);
    expect(config.plugins.map((plugin) => plugin.name)).toEqual(['auto-unpack-natives', 'vite', 'fuses']);
    const fuses = config.plugins.find((plugin) => plugin.name === 'fuses')?.config ?? {};
    // FuseV1Options: RunAsNode = 0, EnableNodeOptionsEnvironmentVariable = 2, OnlyLoadAppFromAsar = 5, asar integrity = 4.
    expect([fuses['0'], fuses['2'], fuses['4'], fuses['5']]).toEqual([false, false, true, true]);
  });

  it('bundles main as an ES module that keeps the native packages external', () => {
    const main = readFileSync(path.join(out, 'main', 'main.js'), 'utf8');
    expect(main.startsWith('import')).toBe(true);
    expect(main).not.toMatch(/\brequire\(["']/);
    expect(main).toMatch(/from "better-sqlite3"/);
    expect(main).toMatch(/from "serialport"/);
  });

  it('bundles the sandboxed preload into one CommonJS file that requires only electron', () => {
    const preload = readFileSync(path.join(out, 'preload', 'preload.js'), 'utf8');
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1])).toEqual(['electron']);
    expect(preload).toContain('exposeInMainWorld');
  });

  it('builds the renderer with relative asset paths and the strict CSP', () => {
    const html = readFileSync(path.join(out, 'renderer', 'index.html'), 'utf8');
    expect(html).toMatch(/src="\.\/assets\//);
    expect(html).toContain("default-src 'self'");
    // The dev server's allowance for React Fast Refresh never reaches a build.
    expect(html).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
