#!/usr/bin/env node
// `npm test`: every test. Checks the system tools the tests need (socat, Chromium), runs Vitest
// (unit + integration) and Playwright (end to end), then prints one closing line with the totals.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summariseTestRuns } from './summarise-test-runs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const which = (name) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

const missing = [];
if (!which('socat')) missing.push('socat');
if (!existsSync('/usr/bin/chromium')) missing.push('chromium');
if (missing.length > 0) {
  const canInstall = process.getuid?.() === 0 && which('apt-get');
  if (!canInstall) {
    console.error(
      `The tests need ${missing.join(' and ')}. Install with: sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    );
    process.exit(1);
  }
  console.log(`Installing ${missing.join(' and ')} (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...missing],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

const out = mkdtempSync(path.join(tmpdir(), 'home-agent-test-'));
const node = process.execPath;
const env = { ...process.env };

const vitestJson = path.join(out, 'vitest.json');
const vitest = spawnSync(
  node,
  [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ],
  { cwd: root, stdio: 'inherit', env },
);

const playwrightJson = path.join(out, 'playwright.json');
const playwright = spawnSync(
  node,
  [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', '--reporter=list,json'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
  },
);

function read(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
const summary = summariseTestRuns(
  { status: vitest.status, report: read(vitestJson) },
  { status: playwright.status, report: read(playwrightJson) },
);
console.log(`\n${summary.line}`);
process.exit(summary.ok ? 0 : 1);
