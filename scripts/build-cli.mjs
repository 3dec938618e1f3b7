#!/usr/bin/env node
// `npm run build:cli`, and `npm ci` through package.json's prepare: compiles the CLI into dist/cli so
// every `home-agent` command starts without a TypeScript loader. Never fails an install: without
// esbuild (dev dependencies left out) the CLI runs from source, and this says so.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from './cli-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  const started = performance.now();
  const entry = await buildCli(root);
  console.log(`Built the CLI in ${Math.round(performance.now() - started)} ms: ${path.relative(root, entry)}`);
} catch (error) {
  console.warn(
    `The CLI was not built (${error?.message ?? error}): home-agent will build it at its first start, or run from source.`,
  );
}
