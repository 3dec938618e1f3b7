#!/usr/bin/env node
// The `home-agent` command. It runs the CLI compiled to plain JavaScript (dist/cli, built by
// `npm ci`); when the source changed since (a development checkout), it builds it again first and
// says so; without esbuild (installed without dev dependencies) it runs the source through tsx.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCli, CLI_ENTRY, freshCliBuild } from '../scripts/cli-build.mjs';

const root = path.resolve(import.meta.dirname, '..');

async function compiledEntry() {
  const fresh = freshCliBuild(root);
  if (fresh.entry) return fresh.entry;
  process.stderr.write(`home-agent: ${fresh.stale}: building it (once, about a second)…\n`);
  try {
    return await buildCli(root);
  } catch (error) {
    process.stderr.write(
      `home-agent: could not build the CLI (${error?.message ?? error}); running it from its TypeScript source, which starts slower.\n`,
    );
    return undefined;
  }
}

const entry = await compiledEntry();
if (entry === undefined) (await import('tsx/esm/api')).register();
const { main } = await import(entry ? pathToFileURL(entry).href : pathToFileURL(path.join(root, CLI_ENTRY)).href);
process.exitCode = await main(process.argv.slice(2));
