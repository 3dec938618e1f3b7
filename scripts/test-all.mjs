#!/usr/bin/env node
// `npm test`: every test. Checks the system tools the tests need (socat, Chromium), runs Vitest
// (unit + integration) and Playwright (end to end), then prints one closing line with the totals.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
let passed = 0;
let failed = 0;
let skipped = 0;
const v = read(vitestJson);
if (v) {
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
} else failed += 1;
const p = read(playwrightJson);
if (p?.stats) {
  passed += p.stats.expected;
  failed += p.stats.unexpected + (p.stats.flaky ?? 0);
  skipped += p.stats.skipped;
} else failed += 1;
// A runner that fails with no failed test (a crashed worker, an error outside any test) still
// failed: it counts once, and the line says so instead of reading as all green.
const runnerErrors = [
  vitest.status !== 0 && (v?.numFailedTests ?? 0) === 0 ? 'Vitest' : undefined,
  playwright.status !== 0 && (p?.stats?.unexpected ?? 0) === 0 ? 'Playwright' : undefined,
].filter(Boolean);
failed += runnerErrors.length;
const ok = vitest.status === 0 && playwright.status === 0 && failed === 0;
const why =
  runnerErrors.length > 0 ? ` (${runnerErrors.join(' and ')} failed outside any test: see its output above)` : '';
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped${why}`);
process.exit(ok ? 0 : 1);
