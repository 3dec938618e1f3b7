#!/usr/bin/env node
// `npm start`: opens the Electron window when its binary is installed and a display exists;
// otherwise builds the UI and serves it in browser mode, printing the URL and saying why.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronUnavailableReason() {
  let binary;
  try {
    binary = require('electron');
  } catch {
    // electron's own message says to reinstall; the usual cause is a blocked binary download.
    return 'the Electron binary is not installed (its download was skipped or blocked; `npx electron --version` tells)';
  }
  if (typeof binary !== 'string' || !existsSync(binary))
    return 'the Electron binary is not installed (its download did not happen)';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'there is no display (DISPLAY/WAYLAND_DISPLAY are unset)';
  return undefined;
}

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

const reason =
  process.env.HOME_AGENT_BROWSER === '1' ? 'HOME_AGENT_BROWSER=1 asks for browser mode' : electronUnavailableReason();
if (!reason) {
  run(process.execPath, [path.join(root, 'node_modules/@electron-forge/cli/dist/electron-forge.js'), 'start']);
} else {
  console.log(`Home Agent starts in browser mode: ${reason}.`);
  console.log('Building the UI…');
  const build = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'vite.renderer.config.ts',
      '--logLevel',
      'warn',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  const args = [path.join(root, 'bin/home-agent.mjs'), 'serve', '--sim', ...process.argv.slice(2)];
  run(process.execPath, args);
}
