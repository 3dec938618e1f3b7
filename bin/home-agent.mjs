#!/usr/bin/env node
// The `home-agent` command: loads the CLI from its TypeScript source through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../host/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
