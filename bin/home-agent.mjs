#!/usr/bin/env node
// The `home-agent` command: the CLI compiled to plain JavaScript, rebuilt when its source changed
// since, its help answered from the build's snapshot (scripts/run-home-agent.mjs).
import module from 'node:module';
import path from 'node:path';
import { runHomeAgent } from '../scripts/run-home-agent.mjs';

// Node 22.1 and later keep V8's compiled code between runs (in the system's temporary folder); Node 20 has no such cache.
module.enableCompileCache?.();
process.exitCode = await runHomeAgent(path.resolve(import.meta.dirname, '..'), process.argv.slice(2));
